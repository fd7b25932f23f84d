// Drivers (seed 001, Haug ch. 3.5): constraints that prescribe a coordinate as a function
// of time, Φ = coordinate − C(t). Their multiplier is the effort needed to impose the
// motion: effort = −λ (force or torque on the driven point along the coordinate).
#include <algorithm>
#include <cmath>

#include "jourdain/components/domains.hpp"
#include "mechanical_library.hpp"
#include "planar.hpp"

namespace jourdain::mechanical {

namespace {

class Driver : public Constraint {
 public:
  // `unit`: the driven coordinate's (m or rad).
  explicit Driver(std::string unit) : unit_(std::move(unit)) {
    reports_reaction_ = false;
    declare_text("law", std::string("constant"), "how C(t) is given",
                 {"constant", "polynomial", "cosine", "smooth_ramp", "spline", "signal"});
    // The law's numbers are numeric parameters (settable per run); its coefficient list
    // and spline table are configuration (a list, and a spline solved once).
    value_ = declare_real("value", unit_, 0.0, "constant: C");
    declare_real_list("coefficients", "", std::vector<double>{0.0},
                      "polynomial: C = c0 + c1 t + c2 t² + … (SI units)");
    amplitude_ = declare_real("amplitude", unit_, 0.0, "cosine: C = amplitude·cos(ω t + phase) + offset");
    omega_ = declare_real("angular_frequency", "rad/s", 0.0, "cosine: ω");
    phase_ = declare_real("phase", "rad", 0.0, "cosine: phase");
    offset_ = declare_real("offset", unit_, 0.0, "cosine: offset");
    rate_target_ = declare_real("rate", unit_ + "/s", 0.0, "smooth_ramp: the rate Ċ reached at ramp_time and held after");
    ramp_time_ = declare_real("ramp_time", "s", 1.0, "smooth_ramp: T, the time Ċ takes to rise from 0 to rate",
                              Range::positive());
    declare_boolean("servo", false,
                    "servo constraint: the motion is imposed by the mechanism's actuated joints, not by a "
                    "reaction of this driver (its effort is then zero)");
    declare_table("table", {"s", unit_}, "spline: rows [t, C], natural cubic spline; held beyond the ends (Ċ jumps there unless the table ends flat)",
                  nlohmann::json::array({nlohmann::json::array({0.0, 0.0}), nlohmann::json::array({1.0, 0.0})}));
  }

 protected:
  void configure_driver(bool two_ports, const std::string& what_a, const std::string& what_b = "") {
    law_ = text("law");
    coefficients_ = real_list("coefficients");
    if (law_ == "spline") configure_spline();
    declare_constraint(1, two_ports, what_a, what_b);
    if (boolean("servo")) set_row_kind(0, /*equation=*/true, /*reacts=*/false);
    if (law_ == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "prescribed value C");
      rate_ = declare_port("command_rate", signal_domain(), PortSide::Response, "its rate Ċ (0 if unconnected)");
      acceleration_ = declare_port("command_acceleration", signal_domain(), PortSide::Response,
                                   "its second derivative C̈ (0 if unconnected)");
      set_optional(rate_);
      set_optional(acceleration_);
    }
    effort_ = declare_observable("effort", unit_ == "rad" ? "N*m" : "N", "force or torque imposing the motion");
    value_obs_ = declare_observable("value", unit_, "prescribed value C(t)");
    power_ = declare_observable("power", "W", "power delivered: effort · Ċ");
    set_energy_role(power_, EnergyRole::Supplied);  // a prescribed motion is an outside agent
  }

  const char* equation_unit(int) const override { return unit_.c_str(); }
  std::optional<double> prescribed_value(const Eval& e) const override { return motion(e.time(), e)[0]; }

  // C, Ċ, C̈ at time t.
  Vec3 motion(double t, const Eval& e) const {
    if (law_ == "constant") return {e.param(value_), 0, 0};
    if (law_ == "polynomial") {
      Vec3 c = Vec3::Zero();  // Horner on the value and its two derivatives
      for (auto it = coefficients_.rbegin(); it != coefficients_.rend(); ++it) {
        c[2] = c[2] * t + 2.0 * c[1];
        c[1] = c[1] * t + c[0];
        c[0] = c[0] * t + *it;
      }
      return c;
    }
    if (law_ == "cosine") {
      const double amplitude = e.param(amplitude_), omega = e.param(omega_);
      const double arg = omega * t + e.param(phase_);
      return {amplitude * std::cos(arg) + e.param(offset_), -amplitude * omega * std::sin(arg),
              -amplitude * omega * omega * std::cos(arg)};
    }
    if (law_ == "smooth_ramp") {
      // The rate rises as a cycloid, Ċ = (r/T)(t − (T/2π) sin(2πt/T)), from rest to r in T
      // with C̈ continuous, then stays at r: C = offset + (r/T)[t²/2 + (T/2π)²(cos(2πt/T) − 1)]
      // for t ≤ T, offset + r (t − T/2) after (the spin-up of Kane, Ryan & Banerjee 1987).
      const double r = e.param(rate_target_), T = e.param(ramp_time_), offset = e.param(offset_);
      if (t >= T) return {offset + r * (t - 0.5 * T), r, 0.0};
      const double w = 2.0 * M_PI / T;
      return {offset + (r / T) * (0.5 * t * t + (std::cos(w * t) - 1.0) / (w * w)), (r / T) * (t - std::sin(w * t) / w),
              (r / T) * (1.0 - std::cos(w * t))};
    }
    if (law_ == "signal") {
      using signal::value;
      return {e.in(command_, value), e.in(rate_, value), e.in(acceleration_, value)};
    }
    return spline(t);
  }

  void report(Eval& e, const PointKinematics (&)[2], const Vec3& lambda) const override {
    const Vec3 c = motion(e.time(), e);
    e.set_observable(effort_, -lambda[0]);
    e.set_observable(value_obs_, c[0]);
    e.set_observable(power_, -lambda[0] * c[1]);
  }

  // Φ = coordinate − C: the subclass fills phi (coordinate), J and c; this adds −C, −Ċ, −C̈.
  void prescribe(double t, const Eval& e, ConstraintRow& r) const {
    const Vec3 c = motion(t, e);
    r.phi -= c[0];
    r.phi_t -= c[1];
    r.c -= c[2];
  }

 private:
  // Natural cubic spline through the table's points (second derivatives by the
  // tridiagonal system of the continuity conditions).
  void configure_spline() {
    const auto rows = table("table");
    if (rows.size() < 2) parameter_error("table", "a spline needs at least two rows");
    for (const auto& r : rows) {
      if (!knots_.empty() && !(r[0] > knots_.back())) parameter_error("table", "times must increase");
      knots_.push_back(r[0]);
      values_.push_back(r[1]);
    }
    const size_t n = knots_.size();
    second_.assign(n, 0.0);
    std::vector<double> diag(n, 1.0), upper(n, 0.0), rhs(n, 0.0);
    for (size_t i = 1; i + 1 < n; ++i) {
      const double h0 = knots_[i] - knots_[i - 1], h1 = knots_[i + 1] - knots_[i];
      const double lower = h0 / 6.0;
      diag[i] = (h0 + h1) / 3.0;
      upper[i] = h1 / 6.0;
      rhs[i] = (values_[i + 1] - values_[i]) / h1 - (values_[i] - values_[i - 1]) / h0;
      // Thomas algorithm, forward sweep (row i−1 is already reduced)
      const double m = lower / diag[i - 1];
      diag[i] -= m * upper[i - 1];
      rhs[i] -= m * rhs[i - 1];
    }
    for (size_t i = n - 1; i-- > 1;) second_[i] = (rhs[i] - upper[i] * second_[i + 1]) / diag[i];
  }
  Vec3 spline(double t) const {
    if (t < knots_.front()) return {values_.front(), 0, 0};
    if (t > knots_.back()) return {values_.back(), 0, 0};
    const size_t i = std::min<size_t>(std::upper_bound(knots_.begin(), knots_.end(), t) - knots_.begin(), knots_.size() - 1) - 1;
    const double h = knots_[i + 1] - knots_[i], a = (knots_[i + 1] - t) / h, b = (t - knots_[i]) / h;
    const double m0 = second_[i], m1 = second_[i + 1];
    const double v = a * values_[i] + b * values_[i + 1] + ((a * a * a - a) * m0 + (b * b * b - b) * m1) * h * h / 6.0;
    const double d = (values_[i + 1] - values_[i]) / h + (-(3 * a * a - 1) * m0 + (3 * b * b - 1) * m1) * h / 6.0;
    const double dd = a * m0 + b * m1;
    return {v, d, dd};
  }

  std::string unit_;
  std::string law_;
  RealParam value_, rate_target_, ramp_time_, amplitude_, omega_, phase_, offset_;
  std::vector<double> coefficients_, knots_, values_, second_;
  PortId command_, rate_, acceleration_;
  ObservableId effort_, value_obs_, power_;
};

// x or y of a point: Φ = r_a[i] − C(t).
template <int Axis>
class AbsolutePosition final : public Driver {
 public:
  AbsolutePosition() : Driver("m") {}

 private:
  void configure() override { configure_driver(false, "driven point"); }
  void equations(double t, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    auto& r = rows.add();
    r.phi = k[0].r[Axis];
    r.J[Axis] = 1.0;
    prescribe(t, e, r);
  }
};

class AbsoluteAngle final : public Driver {
 public:
  AbsoluteAngle() : Driver("rad") {}

 private:
  void configure() override { configure_driver(false, "driven body"); }
  void equations(double t, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    auto& r = rows.add();
    r.phi = k[0].theta;
    r.J[2] = 1.0;
    prescribe(t, e, r);
  }
};

class RelativeAngle final : public Driver {
 public:
  RelativeAngle() : Driver("rad") {}

 private:
  void configure() override { configure_driver(true, "reference body", "driven body"); }
  void equations(double t, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    auto& r = rows.add();
    r.phi = k[1].theta - k[0].theta;
    r.J << 0, 0, -1, 0, 0, 1;
    prescribe(t, e, r);
  }
};

// |r_b − r_a| = C(t); effort > 0 pushes the points apart.
class Distance final : public Driver {
 public:
  Distance() : Driver("m") {}

 private:
  void configure() override { configure_driver(true, "first point", "second point"); }
  void equations(double t, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    auto& r = rows.add();
    r = distance_row(k, t, name());
    prescribe(t, e, r);
  }
};

// uᵀ(r_b − r_a) = C(t) along a's body-fixed axis u.
class TranslationalDistance final : public Driver {
 public:
  TranslationalDistance() : Driver("m") {
    declare_real_list("axis", "", std::vector<double>{1.0, 0.0}, "axis in a's body frame [ux, uy]");
  }

 private:
  void configure() override {
    axis_ = unit_direction(*this, "axis", real_list("axis"));
    configure_driver(true, "guide body's point", "driven point");
  }
  void equations(double t, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    auto& r = rows.add();
    const Vec2 u = rotate(k[0].theta, axis_), d = k[1].r - k[0].r, dd = k[1].v - k[0].v;
    r.phi = u.dot(d);
    r.J << -u.x(), -u.y(), perp(u).dot(d), u.x(), u.y(), 0.0;
    r.c = 2.0 * k[0].omega * perp(u).dot(dd) - k[0].omega * k[0].omega * u.dot(d);
    prescribe(t, e, r);
  }
  Vec2 axis_{1, 0};
};

}  // namespace

void register_drivers(Registry& r) {
  r.add<AbsolutePosition<0>>("mechanical.driver_x", "prescribes the x of a point: x_a = C(t)");
  r.add<AbsolutePosition<1>>("mechanical.driver_y", "prescribes the y of a point: y_a = C(t)");
  r.add<AbsoluteAngle>("mechanical.driver_angle", "prescribes a body's angle: θ_a = C(t)");
  r.add<RelativeAngle>("mechanical.driver_relative_angle", "prescribes a relative angle: θ_b − θ_a = C(t)");
  r.add<Distance>("mechanical.driver_distance", "prescribes the distance between two points: |r_b − r_a| = C(t)");
  r.add<TranslationalDistance>("mechanical.driver_translational",
                               "prescribes the travel along a's axis: uᵀ(r_b − r_a) = C(t)");
}

}  // namespace jourdain::mechanical
