// Constraint base of joints and drivers (planar.hpp).
#include <algorithm>
#include <cmath>

#include "formulation.hpp"
#include "planar.hpp"

namespace jourdain::mechanical {

using namespace jourdain::planar;

ConstraintSettings constraint_settings(const World& world) {
  ConstraintSettings s;
  const nlohmann::json none = nlohmann::json::object();
  const auto& j = world.settings.contains("constraints") ? world.settings["constraints"] : none;
  auto where = [&](const std::string& key) { return InputLocation{world.file, "/world/constraints/" + key, "", ""}; };
  for (const auto& [key, value] : j.items()) {
    if (key == "alpha" || key == "beta" || key == "projection_tolerance" || key == "assembly_tolerance" ||
        key == "tolerance" || key == "penalty") {
      if (!value.is_number() || !(value.get<double>() >= 0.0) || !std::isfinite(value.get<double>()))
        throw InputError(where(key), "expected a non-negative number");
      double v = value.get<double>();
      if (key == "alpha") s.alpha = v;
      else if (key == "beta") s.beta = v;
      else if (key == "projection_tolerance") s.projection_tolerance = v;
      else if (key == "assembly_tolerance") s.assembly_tolerance = v;
      else if (key == "tolerance") s.tolerance = v;
      else s.penalty = v;
      if (key != "alpha" && key != "beta" && !(v > 0.0)) throw InputError(where(key), "must be positive");
    } else if (key == "projection") {
      if (!value.is_boolean()) throw InputError(where(key), "expected true or false");
      s.projection = value.get<bool>();
    } else if (key == "redundant") {
      if (!value.is_string() || (value != "error" && value != "least_squares"))
        throw InputError(where(key), "expected \"error\" or \"least_squares\"");
      s.redundant = value.get<std::string>();
    } else if (key == "formulation") {
      // The formulations are the ones formulation.cpp's table offers.
      const auto names = formulation_names();
      if (!value.is_string() || std::find(names.begin(), names.end(), value.get<std::string>()) == names.end()) {
        std::string list;
        for (const auto& n : names) list += (list.empty() ? "\"" : ", \"") + n + "\"";
        throw InputError(where(key), "expected one of " + list);
      }
      s.formulation = value.get<std::string>();
    } else if (key == "projection_metric") {
      if (!value.is_string() || (value != "euclidean" && value != "mass"))
        throw InputError(where(key), "expected \"euclidean\" or \"mass\"");
      s.projection_metric = value.get<std::string>();
    } else {
      throw InputError(where(key), "unknown setting; the constraint settings are: formulation, alpha, beta, projection, "
                                   "projection_metric, projection_tolerance, assembly_tolerance, tolerance, penalty, "
                                   "redundant");
    }
  }
  // The defaults that follow the formulation: the augmented Lagrangian's mass-orthogonal
  // projections after every step are part of the method (ALI3-P); the KKT and
  // Udwadia-Kalaba formulations keep their former defaults (no projection, Euclidean).
  const bool augmented = s.formulation == "augmented_lagrangian";
  if (!j.contains("projection")) s.projection = augmented;
  if (!j.contains("projection_metric")) s.projection_metric = augmented ? "mass" : "euclidean";
  return s;
}

ConstraintRow distance_row(const PointKinematics (&k)[2], double t, const std::string& component) {
  ConstraintRow r;
  const Vec2 d = k[1].r - k[0].r, dd = k[1].v - k[0].v;
  const double L = d.norm();
  if (!(L > 0.0)) throw SimulationError(t, {component}, "the two points coincide: their distance has no direction");
  const Vec2 u = d / L;
  r.phi = L;
  r.J << -u.x(), -u.y(), 0, u.x(), u.y(), 0;
  r.c = (dd.squaredNorm() - u.dot(dd) * u.dot(dd)) / L;
  return r;
}

std::string Constraint::norm_unit(const std::vector<std::string>& units) {
  if (units.empty()) return "m";
  for (const auto& u : units)
    if (u != units.front()) return "m";  // mixed: radians counted as metres (planar.hpp)
  return units.front();
}

void Constraint::declare_constraint(int equations, bool two_ports, std::string what_a, std::string what_b) {
  equations_ = equations;
  two_ports_ = two_ports;
  settings_ = constraint_settings(world());
  equation_rows_.assign(equations, 1);
  reacting_rows_.assign(equations, 1);
  a_ = declare_port("a", planar_domain(), PortSide::Response, std::move(what_a));
  if (two_ports) b_ = declare_port("b", planar_domain(), PortSide::Response, std::move(what_b));
  for (int i = 0; i < equations; ++i)
    declare_unknown("lambda" + std::to_string(i + 1), "", 0.0, "Lagrange multiplier of equation " + std::to_string(i + 1));
  if (reports_reaction_) {
    const std::string on = two_ports ? "b" : "a";
    fx_ = declare_observable("fx", "N", "reaction force on " + on + ", x (world frame)");
    fy_ = declare_observable("fy", "N", "reaction force on " + on + ", y (world frame)");
    tz_ = declare_observable("tz", "N*m", "reaction torque on " + on + " about its point");
    fx_body_ = declare_observable("fx_body", "N", "reaction force on " + on + ", along its body's x axis");
    fy_body_ = declare_observable("fy_body", "N", "reaction force on " + on + ", along its body's y axis");
  }
  std::vector<std::string> units;
  for (int i = 0; i < equations; ++i) units.push_back(equation_unit(i));
  const std::string unit = norm_unit(units);
  violation_ = declare_observable("violation", unit,
                                  unit == "m" && std::find(units.begin(), units.end(), "rad") != units.end()
                                      ? "largest |Φ| of its equations (its angle's rad counted as m)"
                                      : "largest |Φ| of its equations");
}

std::string Constraint::equation_name(int i) const {
  return type_name() + " '" + name() + "'" + (equations_ > 1 ? " (equation " + std::to_string(i + 1) + ")" : "");
}

void Constraint::rows_at(const Eval& e, ConstraintRows& rows, PointKinematics (&k)[2]) const {
  read_point(e, a_, k[0]);
  if (two_ports_) read_point(e, b_, k[1]);
  rows.count = 0;
  equations(e.time(), e, k, rows);
}

void Constraint::publish(Eval& e, const ConstraintRows& rows, bool zero) const {
  Vec3 fa = Vec3::Zero(), fb = Vec3::Zero();
  if (!zero) {
    for (int i = 0; i < rows.count; ++i) {
      if (!reacts(i)) continue;
      const double l = e.unknown(multiplier(i));
      fa -= l * rows.row[i].J.segment<3>(0).transpose();
      fb -= l * rows.row[i].J.segment<3>(3).transpose();
    }
  }
  e.set_out(a_, fx, fa[0]);
  e.set_out(a_, fy, fa[1]);
  e.set_out(a_, tz, fa[2]);
  if (two_ports_) {
    e.set_out(b_, fx, fb[0]);
    e.set_out(b_, fy, fb[1]);
    e.set_out(b_, tz, fb[2]);
  }
}

void Constraint::calc_outputs(Eval& e) const {
  ConstraintRows rows;
  PointKinematics k[2];
  rows_at(e, rows, k);
  publish(e, rows);
  // Residual of the stabilized acceleration equation, for the general Newton method:
  // Φ̈ + 2αΦ̇ + β²Φ = 0 with Φ̈ = J a + c, Φ̇ = J v + Φ_t.
  const ConstraintSettings& s = settings_;
  Eigen::Matrix<double, 6, 1> acc, vel;
  acc << k[0].a, k[0].alpha, k[1].a, k[1].alpha;
  vel << k[0].v, k[0].omega, k[1].v, k[1].omega;
  const bool dynamic = e.context().analysis == Analysis::Dynamic;
  for (int i = 0; i < rows.count; ++i) {
    const auto& r = rows.row[i];
    const double phidot = r.J.dot(vel) + r.phi_t;
    // An actuator row has no equation: only the mechanism solver, which pairs actuators
    // with servo rows, can determine it (this Newton residual leaves it singular).
    e.set_residual(multiplier(i), !is_equation(i) ? 0.0
                                  : r.J.dot(acc) + r.c + (dynamic ? 2.0 * s.alpha * phidot + s.beta * s.beta * r.phi : 0.0));
  }
  // The Newton method's last evaluation is at its solution.
  report_observables(e, rows, k);
}

void Constraint::report_observables(Eval& e, const ConstraintRows& rows, const PointKinematics (&k)[2],
                                    const Vec2* turn) const {
  if (!e.observables_wanted()) return;  // an integrator's stage: nothing here feeds the integration
  Vec3 lambda = Vec3::Zero();
  double worst = 0.0;
  for (int i = 0; i < rows.count; ++i) {
    lambda[i] = e.unknown(multiplier(i));
    if (is_equation(i)) worst = std::max(worst, std::abs(rows.row[i].phi));
  }
  e.set_observable(violation_, worst);
  if (reports_reaction_) {
    const PortId on = two_ports_ ? b_ : a_;
    const Vec3 f{e.out(on, fx), e.out(on, fy), e.out(on, tz)};
    const PointKinematics& kb = two_ports_ ? k[1] : k[0];
    const Vec2 local = turn ? Vec2{(*turn)[0] * f[0] + (*turn)[1] * f[1], (*turn)[0] * f[1] - (*turn)[1] * f[0]}
                            : rotate(-kb.theta, f.head<2>());
    e.set_observable(fx_, f[0]);
    e.set_observable(fy_, f[1]);
    e.set_observable(tz_, f[2]);
    e.set_observable(fx_body_, local.x());
    e.set_observable(fy_body_, local.y());
  }
  report(e, k, lambda);
}

}  // namespace jourdain::mechanical
