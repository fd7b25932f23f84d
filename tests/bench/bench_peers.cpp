// Jourdain against two peers, MuJoCo 2.2.2 (C API) and Simbody 3.7 (C++ API), side by
// side in one run on the same planar models (issue 14, part 4): the pendulum, the
// four-bar and the slider-crank at matched accuracy, and the N-link chain's times.
//
// Each model is our own code through each tool's public API: Jourdain a netlist built
// here (absolute coordinates, the default augmented Lagrangian formulation) run by
// run_netlist; MuJoCo an MJCF text (hinges about −y, so that its x–z plane is Jourdain's
// x–y plane; bodies with explicit inertials and no geoms, so that nothing collides),
// mj_step with RK4; Simbody (peers_simbody.cpp, compiled as C++17) mobilized bodies,
// Force::UniformGravity, RK-Merson and a TimeStepper, at a fixed step or error-controlled.
//
// Matched accuracy (matched_accuracy(), one routine for the three models). Each way's
// settings, coarse to fine, are timed (the median of R runs; one run when the first takes
// over a second) and the quantity compared with an independent reference; each way's
// fastest setting within the target is marked * and the fastest of all named; a way that
// reaches the target with none of its settings says so. A Jourdain run that ends with an
// accuracy warning (Jourdain does not vouch for its results) is never marked.
//   pendulum      a uniform rod (1 m, 1 kg) pinned at one end, released at rest
//                 horizontal; its angle at 10 s within 1e-8 rad of θ'' = −(3g/2L) cos θ
//                 integrated by RK4 at 1e-5 s (pendulum_reference.hpp).
//   four-bar      crank 1 m, coupler 4 m, rocker 2 m, ground 4 m (pivots at the origin and
//                 at (4, 0)), bars of 1 kg/m, the crank released at rest at 90° on the
//                 open branch; its angle at 10 s within 1e-8 rad of the one-degree-of-
//                 freedom equation M(θ)θ̈ + ½M'(θ)θ̇² = Q(θ) integrated by 6th-order
//                 Gauss–Legendre (four_bar_reference.hpp). The loop: Jourdain four
//                 revolute joints; MuJoCo a <connect> equality (soft: solref, solimp);
//                 Simbody three Pin mobilizers and a PointOnLine constraint (the planar
//                 pin's two equations). Every tool starts on the same assembled pose.
//   slider-crank  netlists/slider_crank.json's dimensions with the crank driven at 100
//                 rad/s; the driving torque at 1 s within 1e-8 relative of the closed form
//                 (slider_crank_reference.hpp). Jourdain: kinematic analysis (inverse
//                 dynamics at each output time, no integration) and forward dynamics with
//                 the driver (mechanical.driver_angle) as a constraint, its effort the
//                 torque; MuJoCo: forward dynamics, the loop closed by a <connect> and the
//                 crank tied by a <joint> equality (θ = ω x) to a "clock" slide x of
//                 1e16 kg started at 1 m/s, since MuJoCo has no time-dependent constraint,
//                 the torque that equality's force; Simbody: forward dynamics,
//                 Motion::Steady on the crank's Pin, the torque its motion force.
// Jourdain is tried with rk4 at several steps and dopri5 and adams at several rtols (atol
// = rtol/100), with Baumgarte α = β = 10 (the chain's and the pendulum's), with projection
// after steps, and with α = β = 0 and 100; MuJoCo with its default solref/solimp and with
// the stiffest its safety check accepts (timeconst twice the step, impedance 0.9999).
//
// The N-link chain (chain_netlist.hpp; N = 1 is the pendulum) is timed at fixed settings;
// for N ≥ 2 it is chaotic (runs that differ by rounding part by O(1) in 10 s), so only
// times are compared. J/this = Jourdain rk4's time / the row's time (the issue's
// "Jourdain's time / peer's time": above 1, the row is faster than Jourdain at rk4 1 ms).
//
// Times are of the integration only: Jourdain's run_netlist (its own model and context
// set-up included), the peers' stepping loops (their model building excluded).
//
// Usage: bench_peers [N ...] [--models LIST] [--t-end T] [--repeats R]
//   LIST: comma-separated, of pendulum,four-bar,slider-crank,chain (default: all four;
//   with N given and no --models, the chain, and the pendulum too when N = 1 is among the
//   sizes); N: the chain's sizes (default 1 4 16 64); T: the pendulum's, the four-bar's
//   and the chain's span (default 10 s; the slider-crank's is 1 s); R: 3.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "chain_netlist.hpp"
#include "four_bar_reference.hpp"
#include "jourdain/components/builtin.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/solvers/run.hpp"
#include "pendulum_reference.hpp"
#include "peers_simbody.hpp"
#include "slider_crank_reference.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
constexpr double kLength = 1.0, kMass = 1.0, kGravity = 9.81, kStep = 1e-3;

// What one way of simulating returns: the compared quantity, or a failure; `note` says
// what the row's number alone does not: Jourdain's accuracy warnings (the run does not
// vouch for its results), which keep a setting from being marked whatever its error.
struct Outcome {
  double value = NAN;
  std::string failure;
  std::string note;
  bool warned = false;
};

std::string format(const char* what, double value) {
  char text[256];
  std::snprintf(text, sizeof text, what, value);
  return text;
}

// ---- Jourdain ----

// Runs `net` with the solver settings `solver` and returns the value of `column` in the
// last recorded row, the one at t_end; accuracy warnings (the run does not vouch for its
// results) go in the note.
Outcome run_jourdain(const jourdain::Netlist& net, const json& solver, const std::string& column) {
  jourdain::RunOptions opt;
  opt.keep_rows = true;
  opt.solver = solver;
  jourdain::RunResult r = jourdain::run_netlist(net, opt);
  if (!r.finished) return {NAN, r.failure, ""};
  if (std::abs(r.column("time").back() - r.settings.t_end) > 1e-9 * r.settings.t_end)
    return {NAN, format("the last row is not at t_end but at %.17g s", r.column("time").back()), ""};
  Outcome out{r.column(column).back(), "", ""};
  if (!r.accuracy_warnings.empty()) {
    out.note = std::to_string(r.accuracy_warnings.size()) + " accuracy warning(s)";
    out.warned = true;
  }
  return out;
}

json body(double mass, double inertia, const json& points, double x, double y, double theta, double vx = 0,
          double vy = 0, double omega = 0) {
  json b = {{"type", "mechanical.body"},
            {"params", {{"mass", mass}, {"inertia", inertia}}},
            {"initial", {{"x", x}, {"y", y}, {"theta", theta}, {"vx", vx}, {"vy", vy}, {"omega", omega}}}};
  if (!points.is_null()) b["params"]["points"] = points;
  return b;
}

// world.constraints of a netlist: Baumgarte gains and projection after steps (the
// formulation the default, the augmented Lagrangian).
struct Constraints {
  double alpha = 10, beta = 10;
  bool projection = false;
};

// Connections as JSON: pairs written in braces would be read as an object's members.
json links(const std::vector<std::pair<std::string, std::string>>& pairs) {
  json a = json::array();
  for (const auto& [from, to] : pairs) a.push_back(json::array({from, to}));
  return a;
}

json mechanism(const std::string& name, const Constraints& k, const json& components, const json& connections,
               double t_end, const json& record) {
  return {{"name", name},
          {"world",
           {{"gravity", {0, -kGravity}},
            {"constraints", {{"alpha", k.alpha}, {"beta", k.beta}, {"projection", k.projection}}}}},
          {"components", components},
          {"connections", connections},
          {"solver", {{"t_end", t_end}, {"output_interval", t_end / 10}}},
          {"record", record}};
}

// The four-bar of four_bar_reference.hpp: bodies at rest on the open branch at θ0.
json four_bar_netlist(const jourdain::bench::FourBar& m, const Constraints& k, double t_end) {
  const jourdain::bench::FourBarPose p = jourdain::bench::four_bar_pose(m, m.theta0);
  auto bar = [&](double length, const std::string& from, const std::string& to, const std::array<double, 2>& centre,
                 double angle) {
    return body(m.mass(length), m.inertia(length), {{from, {-length / 2, 0}}, {to, {length / 2, 0}}}, centre[0],
                centre[1], angle);
  };
  json components = {
      {"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"O2", {0, 0}}, {"O4", {m.d, 0}}}}}}}},
      {"crank", bar(m.a, "O2", "A", p.crank_centre, p.theta)},
      {"coupler", bar(m.b, "A", "B", p.coupler_centre, p.phi3)},
      {"rocker", bar(m.c, "O4", "B", p.rocker_centre, p.phi4)},
  };
  for (const char* pin : {"pin_O2", "pin_A", "pin_B", "pin_O4"}) components[pin] = {{"type", "mechanical.revolute"}};
  const json connections = links({{"ground.O2", "pin_O2.a"}, {"crank.O2", "pin_O2.b"}, {"crank.A", "pin_A.a"},
                                   {"coupler.A", "pin_A.b"},  {"coupler.B", "pin_B.a"}, {"rocker.B", "pin_B.b"},
                                   {"ground.O4", "pin_O4.a"}, {"rocker.O4", "pin_O4.b"}});
  return mechanism("four_bar_peers", k, components, connections, t_end, json::array({"crank.theta"}));
}

// The slider-crank of slider_crank_reference.hpp (netlists/slider_crank.json with the
// driver at ω): at θ = 0 with the exact velocities; kinematic or dynamic analysis.
json slider_crank_netlist(const jourdain::bench::SliderCrank& m, const Constraints& k, bool kinematic, double t_end) {
  const jourdain::bench::SliderCrankState z = jourdain::bench::slider_crank_state(m, 0.0);
  json components = {
      {"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}}}}}}},
      {"crank", body(m.m_crank, m.crank_inertia(), {{"O", {-m.r / 2, 0}}, {"A", {m.r / 2, 0}}}, z.crank_cx, z.crank_cy,
                     z.theta, z.crank_vx, z.crank_vy, m.omega)},
      {"rod", body(m.m_rod, m.rod_inertia(), {{"A", {-m.l / 2, 0}}, {"B", {m.l / 2, 0}}}, z.rod_cx, z.rod_cy, z.rod_phi,
                   z.rod_vx, z.rod_vy, z.rod_omega)},
      {"slider", body(m.m_slider, 0.001, nullptr, z.slider_x, 0, 0, z.slider_vx, 0, 0)},
      {"rail", {{"type", "mechanical.translational"}, {"params", {{"axis", {1, 0}}}}}},
      {"motor",
       {{"type", "mechanical.driver_angle"}, {"params", {{"law", "polynomial"}, {"coefficients", {0, m.omega}}}}}},
  };
  for (const char* pin : {"pin_O", "pin_A", "pin_B"}) components[pin] = {{"type", "mechanical.revolute"}};
  const json connections = links({{"ground.O", "pin_O.a"}, {"crank.O", "pin_O.b"}, {"crank.A", "pin_A.a"},
                                   {"rod.A", "pin_A.b"},    {"rod.B", "pin_B.a"},   {"slider.cm", "pin_B.b"},
                                   {"ground.O", "rail.a"},  {"slider.cm", "rail.b"}, {"crank.cm", "motor.a"}});
  json doc = mechanism("slider_crank_peers", k, components, connections, t_end, json::array({"motor.effort"}));
  if (kinematic) doc["analysis"] = "kinematic";
  return doc;
}

// ---- MuJoCo ----

// A loaded MJCF model and its data.
struct MujocoModel {
  mjModel* model = nullptr;
  mjData* data = nullptr;
  std::vector<double> default_solref, default_solimp;
  explicit MujocoModel(const std::string& mjcf) {
    // mj_loadXML reads a file: the text goes through a temporary one.
    static int serial = 0;
    const auto file = std::filesystem::temp_directory_path() /
                      ("bench_peers_" + std::to_string(::getpid()) + "_" + std::to_string(serial++) + ".xml");
    std::ofstream(file) << mjcf;
    char error[1000] = "";
    model = mj_loadXML(file.c_str(), nullptr, error, sizeof error);
    std::filesystem::remove(file);
    if (!model) throw std::runtime_error(std::string("MuJoCo refused the model: ") + error);
    data = mj_makeData(model);
  }
  MujocoModel(const MujocoModel&) = delete;
  MujocoModel& operator=(const MujocoModel&) = delete;
  ~MujocoModel() {
    if (data) mj_deleteData(data);
    if (model) mj_deleteModel(model);
  }
  // From qpos0 (and the given velocities) to t_end by mj_step at the model's time step.
  void run(double t_end, const std::vector<double>& qvel = {}) {
    mj_resetData(model, data);
    for (size_t k = 0; k < qvel.size(); ++k) data->qvel[k] = qvel[k];
    const long steps = std::lround(t_end / model->opt.timestep);
    for (long k = 0; k < steps; ++k) mj_step(model, data);
  }
  // Loop closures' stiffness: every equality's solref (timeconst, dampratio) and the
  // impedance of its solimp (both ends of the range); timeconst 0 restores the compiled
  // defaults.
  void set_equalities(double timeconst, double dampratio = 1.0, double impedance = 0.9) {
    if (default_solref.empty()) {
      default_solref.assign(model->eq_solref, model->eq_solref + model->neq * mjNREF);
      default_solimp.assign(model->eq_solimp, model->eq_solimp + model->neq * mjNIMP);
    }
    if (timeconst == 0.0) {
      std::copy(default_solref.begin(), default_solref.end(), model->eq_solref);
      std::copy(default_solimp.begin(), default_solimp.end(), model->eq_solimp);
      return;
    }
    for (int e = 0; e < model->neq; ++e) {
      model->eq_solref[e * mjNREF] = timeconst;
      model->eq_solref[e * mjNREF + 1] = dampratio;
      model->eq_solimp[e * mjNIMP] = impedance;
      model->eq_solimp[e * mjNIMP + 1] = impedance;
    }
  }
};

std::string mjcf_number(double v) { return format("%.17g", v); }

// A rotation by `angle` about −y (counter-clockwise in Jourdain's x–y plane) as an MJCF quat.
std::string mjcf_quat(double angle) {
  return format("%.17g", std::cos(angle / 2)) + " 0 " + format("%.17g", -std::sin(angle / 2)) + " 0";
}

// A body on a hinge about −y at `pos` (parent frame), turned by `angle`, with a uniform
// bar's inertial along its +x.
std::string mjcf_bar(const std::string& name, double x, double angle, double length, double mass) {
  const double centre_inertia = mass * length * length / 12.0;
  return "<body name=\"" + name + "\" pos=\"" + mjcf_number(x) + " 0 0\" quat=\"" + mjcf_quat(angle) +
         "\"><joint name=\"" + name + "\" type=\"hinge\" axis=\"0 -1 0\"/><inertial pos=\"" + mjcf_number(length / 2) +
         " 0 0\" mass=\"" + mjcf_number(mass) + "\" diaginertia=\"1e-9 " + mjcf_number(centre_inertia) + " " +
         mjcf_number(centre_inertia) + "\"/>\n";
}

std::string mjcf_header(const std::string& name, double step, const std::string& integrator) {
  return "<mujoco model=\"" + name + "\">\n  <option timestep=\"" + mjcf_number(step) + "\" integrator=\"" + integrator +
         "\" gravity=\"0 0 " + mjcf_number(-kGravity) + "\"/>\n  <worldbody>\n";
}

std::string mjcf_chain(long n, const std::string& integrator) {
  std::string s = mjcf_header("chain", kStep, integrator);
  for (long i = 0; i < n; ++i) s += mjcf_bar("link" + std::to_string(i + 1), i == 0 ? 0.0 : kLength, 0.0, kLength, kMass);
  for (long i = 0; i < n; ++i) s += "</body>";
  s += "\n  </worldbody>\n</mujoco>\n";
  return s;
}

// θ_N of a chain: the sum of its joints' angles.
Outcome mujoco_chain(MujocoModel& m, double t_end) {
  m.run(t_end);
  double theta = 0.0;
  for (int j = 0; j < m.model->nq; ++j) theta += m.data->qpos[j];
  return {theta, "", ""};
}

// The four-bar in its initial pose (qpos0 = 0 there, so that the connect's anchor on the
// rocker, which MuJoCo finds at qpos0, is the coupler's end B).
std::string mjcf_four_bar(const jourdain::bench::FourBar& m) {
  const jourdain::bench::FourBarPose p = jourdain::bench::four_bar_pose(m, m.theta0);
  std::string s = mjcf_header("four_bar", kStep, "RK4");
  s += mjcf_bar("crank", 0.0, p.theta, m.a, m.mass(m.a));
  s += mjcf_bar("coupler", m.a, p.phi3 - p.theta, m.b, m.mass(m.b));
  s += "</body></body>\n";
  s += mjcf_bar("rocker", m.d, p.phi4, m.c, m.mass(m.c));
  s += "</body>\n  </worldbody>\n  <equality><connect body1=\"coupler\" body2=\"rocker\" anchor=\"" + mjcf_number(m.b) +
       " 0 0\"/></equality>\n</mujoco>\n";
  return s;
}

// The slider-crank at θ = 0, with the clock: a slide along x of kClockMass, started at
// 1 m/s, to which a <joint> equality ties the crank (θ = ω · clock).
constexpr double kClockMass = 1e16;
std::string mjcf_slider_crank(const jourdain::bench::SliderCrank& m) {
  std::string s = mjcf_header("slider_crank", kStep, "RK4");
  s += mjcf_bar("crank", 0.0, 0.0, m.r, m.m_crank);
  s += mjcf_bar("rod", m.r, 0.0, m.l, m.m_rod);
  s += "</body></body>\n";
  s += "<body name=\"slider\" pos=\"" + mjcf_number(m.r + m.l) +
       " 0 0\"><joint name=\"slider\" type=\"slide\" axis=\"1 0 0\"/><inertial pos=\"0 0 0\" mass=\"" +
       mjcf_number(m.m_slider) + "\" diaginertia=\"1e-6 1e-6 1e-6\"/></body>\n";
  s += "<body name=\"clock\" pos=\"0 0 -1\"><joint name=\"clock\" type=\"slide\" axis=\"1 0 0\"/><inertial pos=\"0 0 0\" "
       "mass=\"" + mjcf_number(kClockMass) + "\" diaginertia=\"1 1 1\"/></body>\n";
  s += "  </worldbody>\n  <equality><connect body1=\"rod\" body2=\"slider\" anchor=\"" + mjcf_number(m.l) +
       " 0 0\"/><joint joint1=\"crank\" joint2=\"clock\" polycoef=\"0 " + mjcf_number(m.omega) +
       " 0 0 0\"/></equality>\n</mujoco>\n";
  return s;
}

// ---- matched accuracy ----

struct Setting {
  std::string way, setting;
  std::function<Outcome()> run;
};

// One model at matched accuracy: the quantity each setting computes, its reference, and
// the target on |value − reference| (or on it over |reference| when `relative`).
struct MatchedModel {
  std::string title;     // "Four-bar"
  std::string quantity;  // what is compared: "|crank angle - reference| at 10 s"
  std::string unit;      // of the error: "rad", or "" when relative
  double reference = NAN;
  double target = 1e-8;
  bool relative = false;
  std::vector<std::string> notes;  // printed under the title: the reference and its own error
  std::vector<Setting> settings;   // grouped by way, each way's from coarse to fine
};

// Simbody's RK-Merson at each fixed step and each accuracy, as settings of `m`: every
// Simbody model here has run(t_end, accuracy, step) returning its quantity.
template <class Model>
void add_simbody_settings(MatchedModel& m, Model& simbody, double t_end, std::initializer_list<double> steps,
                          std::initializer_list<double> accuracies) {
  for (double h : steps)
    m.settings.push_back({"Simbody RK-Merson", format("step %g ms", h * 1e3),
                          [&simbody, h, t_end] { return Outcome{simbody.run(t_end, 0.0, h), "", ""}; }});
  for (double tol : accuracies)
    m.settings.push_back({"Simbody RK-Merson", format("accuracy %.0e", tol),
                          [&simbody, tol, t_end] { return Outcome{simbody.run(t_end, tol, 0.0), "", ""}; }});
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? NAN : v[v.size() / 2];
}

// Runs and times every setting, prints the table with each way's fastest setting within
// the target marked *, and the fastest of all.
void matched_accuracy(const MatchedModel& m, int repeats) {
  const std::string err = m.relative ? "relative err" : "err (" + m.unit + ")";
  const std::string target = format("%.0e", m.target) + (m.relative ? " relative" : " " + m.unit);
  std::printf("%s at matched accuracy: %s within %s of the reference; each way's fastest setting that reaches it "
              "without an accuracy warning is marked *\n",
              m.title.c_str(), m.quantity.c_str(), target.c_str());
  for (const auto& note : m.notes) std::printf("  %s\n", note.c_str());
  size_t way_width = 3, setting_width = 7;
  for (const auto& s : m.settings) {
    way_width = std::max(way_width, s.way.size());
    setting_width = std::max(setting_width, s.setting.size());
  }
  const int ww = static_cast<int>(way_width), sw = static_cast<int>(setting_width);
  std::printf("  %-*s %-*s %11s %12s %22s\n", ww, "way", sw, "setting", "time", err.c_str(), "value");
  std::fflush(stdout);
  std::vector<double> times(m.settings.size()), errors(m.settings.size());
  std::vector<Outcome> outcomes(m.settings.size());
  for (size_t k = 0; k < m.settings.size(); ++k) {
    std::vector<double> t;
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = Clock::now();
      outcomes[k] = m.settings[k].run();
      t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      if (t.back() > 1.0) break;  // a slow setting: one run is timing enough
    }
    times[k] = median(t);
    const Outcome& out = outcomes[k];
    errors[k] = out.failure.empty() ? std::abs(out.value - m.reference) / (m.relative ? std::abs(m.reference) : 1.0)
                                    : NAN;
  }
  std::string best_way;
  double best_time = INFINITY;
  for (size_t k = 0; k < m.settings.size(); ++k) {
    if (k > 0 && m.settings[k].way == m.settings[k - 1].way) continue;
    size_t chosen = m.settings.size();
    for (size_t j = k; j < m.settings.size() && m.settings[j].way == m.settings[k].way; ++j)
      if (errors[j] <= m.target && !outcomes[j].warned && (chosen == m.settings.size() || times[j] < times[chosen]))
        chosen = j;
    for (size_t j = k; j < m.settings.size() && m.settings[j].way == m.settings[k].way; ++j) {
      const Outcome& out = outcomes[j];
      if (!out.failure.empty()) {
        // The failure's first words: the table stays a table.
        const std::string failure = out.failure.size() > 100 ? out.failure.substr(0, 100) + " ..." : out.failure;
        std::printf("  %-*s %-*s %9.4f s   failed: %s\n", ww, m.settings[j].way.c_str(), sw,
                    m.settings[j].setting.c_str(), times[j], failure.c_str());
        continue;
      }
      std::printf("  %-*s %-*s %9.4f s %12.2e %22.15g %s%s\n", ww, m.settings[j].way.c_str(), sw,
                  m.settings[j].setting.c_str(), times[j], errors[j], out.value, j == chosen ? "*" : " ",
                  out.note.empty() ? "" : ("  " + out.note).c_str());
    }
    if (chosen == m.settings.size()) {
      std::printf("  %-*s reaches %s with none of these settings\n", ww, m.settings[k].way.c_str(), target.c_str());
    } else if (times[chosen] < best_time) {
      best_time = times[chosen];
      best_way = m.settings[k].way + ", " + m.settings[chosen].setting;
    }
  }
  if (best_way.empty()) std::printf("  no way reaches %s\n\n", target.c_str());
  else std::printf("  fastest within %s: %s, %.4f s\n\n", target.c_str(), best_way.c_str(), best_time);
  std::fflush(stdout);
}

// ---- the models' settings ----

// Keeps what the settings' closures use alive until the table is printed.
struct Keep {
  std::vector<std::shared_ptr<void>> things;
  template <class T, class... A>
  T& make(A&&... a) {
    auto p = std::make_shared<T>(std::forward<A>(a)...);
    things.push_back(p);
    return *p;
  }
};

// Jourdain's drift control as a way's name: Baumgarte's gains and projection after steps.
struct Variant {
  std::string name;
  Constraints k;
};

const Variant kBaumgarte{", a=b=10", {10, 10, false}};  // the pendulum's and the chain's
const Variant kProjection{", a=b=10 +projection", {10, 10, true}};
const Variant kNoStabilization{", a=b=0", {0, 0, false}};
const Variant kStiffBaumgarte{", a=b=100", {100, 100, false}};

// One Jourdain method's settings for a variant: rk4's steps, or dopri5's or adams's rtols
// (atol = rtol/100).
struct JourdainSweep {
  std::string method;
  Variant variant;
  std::vector<double> values;
};

// The settings of every sweep; `net` gives the netlist of a variant.
void jourdain_settings(MatchedModel& m, const std::string& prefix, const std::string& column,
                       const std::vector<JourdainSweep>& sweeps,
                       const std::function<const jourdain::Netlist&(const Constraints&)>& net) {
  for (const auto& [method, v, values] : sweeps) {
    const jourdain::Netlist& n = net(v.k);
    for (double value : values) {
      const bool fixed = method == "rk4";
      const json solver = fixed ? json{{"method", method}, {"step", value}}
                                : json{{"method", method}, {"rtol", value}, {"atol", value / 100}};
      m.settings.push_back({"Jourdain " + method + prefix + v.name,
                            fixed ? format("step %g ms", value * 1e3) : format("rtol %.0e", value),
                            [&n, solver, column] { return run_jourdain(n, solver, column); }});
    }
  }
}

void pendulum(jourdain::Registry& registry, double t_end, int repeats) {
  Keep keep;
  jourdain::bench::ChainOptions o;
  o.t_end = t_end;
  o.output_interval = t_end / 10;
  const std::string theta = jourdain::bench::chain_link_name(1) + ".theta";
  auto& mujoco = keep.make<MujocoModel>(mjcf_chain(1, "RK4"));
  auto& simbody = keep.make<bench::SimbodyChain>(1, kLength, kMass, kGravity);
  MatchedModel m;
  m.title = "Pendulum";
  m.quantity = format("|theta - reference| at %g s", t_end);
  m.unit = "rad";
  m.reference = jourdain::bench::rod_pendulum_angle(t_end, 1e-5, kGravity, kLength);
  m.notes.push_back(format("reference theta = %.12f rad (theta'' = -(3g/2L) cos theta, RK4 at 1e-5 s", m.reference) +
                    format("; its own error, against 2e-5 s, ~%.1e)",
                           std::abs(m.reference - jourdain::bench::rod_pendulum_angle(t_end, 2e-5, kGravity, kLength))));
  jourdain_settings(m, "", theta,
                    {{"rk4", kBaumgarte, {8e-3, 4e-3, 2e-3, 1e-3, 5e-4}},
                     {"rk4", kNoStabilization, {8e-3, 4e-3, 2e-3}},
                     {"dopri5", kBaumgarte, {1e-8, 1e-9, 1e-10, 1e-11, 1e-12}},
                     {"dopri5", kNoStabilization, {1e-8, 1e-9, 1e-10, 1e-11}},
                     {"adams", kBaumgarte, {1e-8, 1e-9, 1e-10, 1e-11, 1e-12}},
                     {"adams", kNoStabilization, {1e-8, 1e-9, 1e-10, 1e-11}}},
                    [&](const Constraints& k) -> const jourdain::Netlist& {
                      jourdain::bench::ChainOptions with = o;
                      with.alpha = k.alpha;
                      with.beta = k.beta;
                      with.projection = k.projection;
                      return keep.make<jourdain::Netlist>(jourdain::load_netlist_text(
                          jourdain::bench::make_chain_netlist(1, with), "pendulum.json", registry));
                    });
  for (double h : {8e-3, 4e-3, 2e-3, 1e-3})
    m.settings.push_back({"MuJoCo RK4", format("step %g ms", h * 1e3), [&mujoco, h, t_end] {
                            mujoco.model->opt.timestep = h;
                            return mujoco_chain(mujoco, t_end);
                          }});
  add_simbody_settings(m, simbody, t_end, {8e-3, 4e-3, 2e-3, 1e-3}, {1e-8, 1e-9, 1e-10, 1e-11, 1e-12});
  matched_accuracy(m, repeats);
}

void four_bar(jourdain::Registry& registry, double t_end, int repeats) {
  Keep keep;
  const jourdain::bench::FourBar fb;
  const jourdain::bench::FourBarPose p0 = jourdain::bench::four_bar_pose(fb, fb.theta0);
  MatchedModel m;
  m.title = "Four-bar";
  m.quantity = format("|crank angle - reference| at %g s", t_end);
  m.unit = "rad";
  const double h_ref = 1e-3;
  const jourdain::bench::FourBarReference ref = jourdain::bench::four_bar_reference(fb, t_end, h_ref);
  const jourdain::bench::FourBarReference ref2 = jourdain::bench::four_bar_reference(fb, t_end, 2 * h_ref);
  m.reference = ref.theta;
  m.notes.push_back(format("reference crank angle = %.12f rad (M(theta) theta'' + M'(theta) theta'^2 / 2 = Q(theta), "
                           "Gauss-Legendre 6th order at 1 ms",
                           ref.theta) +
                    format("; its own error, against 2 ms, ~%.1e rad)", std::abs(ref.theta - ref2.theta)));
  m.notes.push_back(format("reference energy drift %.1e J", ref.energy_drift) + format(" of E = %.3f J", ref.energy) +
                    format("; open branch, smallest |sin(phi3 - phi4)| over the run %.3f (0: singular)",
                           ref.min_transmission_sine));
  jourdain_settings(
      m, "", "crank.theta",
      {{"rk4", kBaumgarte, {2e-3, 1e-3, 5e-4, 2.5e-4}},
       {"rk4", kProjection, {2e-3, 1e-3, 5e-4}},
       {"rk4", kNoStabilization, {2e-3, 1e-3, 5e-4}},
       {"dopri5", kBaumgarte, {1e-8, 1e-9, 1e-10, 1e-11, 1e-12}},
       {"dopri5", kProjection, {1e-8, 1e-9, 1e-10, 1e-11, 1e-12}},
       {"dopri5", kNoStabilization, {1e-8, 1e-9, 1e-10, 1e-11}},
       {"dopri5", kStiffBaumgarte, {1e-7, 1e-8, 1e-9}},
       {"adams", kBaumgarte, {1e-8, 1e-9, 1e-10, 1e-11, 1e-12}},
       {"adams", kNoStabilization, {1e-8, 1e-9, 1e-10, 1e-11}}},
      [&](const Constraints& k) -> const jourdain::Netlist& {
        return keep.make<jourdain::Netlist>(
            jourdain::load_netlist_text(four_bar_netlist(fb, k, t_end).dump(), "four_bar_peers.json", registry));
      });
  auto& mujoco = keep.make<MujocoModel>(mjcf_four_bar(fb));
  auto mujoco_run = [&mujoco, t_end, p0](double h, double timeconst_steps, double impedance) {
    return [&mujoco, t_end, p0, h, timeconst_steps, impedance] {
      mujoco.model->opt.timestep = h;
      mujoco.set_equalities(timeconst_steps * h, 1.0, impedance);
      mujoco.run(t_end);
      return Outcome{p0.theta + mujoco.data->qpos[0], "", ""};
    };
  };
  for (double h : {2e-3, 1e-3})
    m.settings.push_back({"MuJoCo RK4, default solref/solimp", format("step %g ms", h * 1e3), mujoco_run(h, 0.0, 0.0)});
  for (double h : {2e-3, 1e-3, 5e-4, 2.5e-4, 1e-4, 5e-5})
    m.settings.push_back(
        {"MuJoCo RK4, solref (2 step, 1), solimp 0.9999", format("step %g ms", h * 1e3), mujoco_run(h, 2.0, mjMAXIMP)});
  auto& simbody = keep.make<bench::SimbodyFourBar>(fb.a, fb.b, fb.c, fb.d, fb.mass_per_length, fb.gravity, p0.theta,
                                                   p0.phi3, p0.phi4);
  add_simbody_settings(m, simbody, t_end, {2e-3, 1e-3, 5e-4}, {1e-8, 1e-9, 1e-10, 1e-11, 1e-12});
  matched_accuracy(m, repeats);
}

void slider_crank(jourdain::Registry& registry, int repeats) {
  Keep keep;
  const double t_end = 1.0;
  const jourdain::bench::SliderCrank sc;
  const jourdain::bench::SliderCrankState z1 = jourdain::bench::slider_crank_state(sc, t_end);
  MatchedModel m;
  m.title = "Slider-crank";
  m.quantity = format("|torque - reference| / |reference| at %g s", t_end);
  m.relative = true;
  m.reference = z1.torque;
  // The closed form against the rate of the energy by 4th-order central differences.
  auto energy = [&](double t) {
    const auto z = jourdain::bench::slider_crank_state(sc, t);
    const double kinetic = 0.5 * sc.m_crank * (z.crank_vx * z.crank_vx + z.crank_vy * z.crank_vy) +
                           0.5 * sc.crank_inertia() * sc.omega * sc.omega +
                           0.5 * sc.m_rod * (z.rod_vx * z.rod_vx + z.rod_vy * z.rod_vy) +
                           0.5 * sc.rod_inertia() * z.rod_omega * z.rod_omega + 0.5 * sc.m_slider * z.slider_vx * z.slider_vx;
    return kinetic + sc.gravity * (sc.m_crank * z.crank_cy + sc.m_rod * z.rod_cy);
  };
  const double d = 1e-5;
  const double rate =
      (-energy(t_end + 2 * d) + 8 * energy(t_end + d) - 8 * energy(t_end - d) + energy(t_end - 2 * d)) / (12 * d);
  m.notes.push_back(format("reference torque = %.12f N m (closed form: d(T+V)/dt / omega with the exact kinematics", z1.torque) +
                    format("; the energy's rate by central differences agrees to %.1e relative)",
                           std::abs(rate / sc.omega - z1.torque) / std::abs(z1.torque)));
  const std::string effort = "motor.effort";
  {
    const jourdain::Netlist& net = keep.make<jourdain::Netlist>(jourdain::load_netlist_text(
        slider_crank_netlist(sc, {}, true, t_end).dump(), "slider_crank_peers.json", registry));
    for (double dt : {1e-1, 5e-2, 2e-2, 1e-2, 1e-3})
      m.settings.push_back({"Jourdain kinematic analysis (no integration)", format("output every %g ms", dt * 1e3),
                            [&net, dt, effort] { return run_jourdain(net, {{"output_interval", dt}}, effort); }});
  }
  jourdain_settings(
      m, " dynamic", effort,
      {{"rk4", kBaumgarte, {1e-3, 5e-4, 2.5e-4, 1e-4}},
       {"rk4", kProjection, {4e-3, 2e-3, 1e-3}},
       {"rk4", kNoStabilization, {1e-3, 5e-4, 2.5e-4, 1e-4}},
       {"dopri5", kBaumgarte, {1e-6, 1e-7, 1e-8, 1e-10, 1e-12}},
       {"dopri5", kProjection, {1e-6, 1e-8, 1e-10}},
       {"dopri5", kNoStabilization, {1e-6, 1e-7, 1e-8, 1e-10}},
       {"adams", kBaumgarte, {1e-6, 1e-7, 1e-8, 1e-10}},
       {"adams", kNoStabilization, {1e-6, 1e-7, 1e-8, 1e-10}}},
      [&](const Constraints& k) -> const jourdain::Netlist& {
        return keep.make<jourdain::Netlist>(jourdain::load_netlist_text(slider_crank_netlist(sc, k, false, t_end).dump(),
                                                                        "slider_crank_peers.json", registry));
      });
  auto& mujoco = keep.make<MujocoModel>(mjcf_slider_crank(sc));
  const jourdain::bench::SliderCrankState z0 = jourdain::bench::slider_crank_state(sc, 0.0);
  const std::vector<double> qvel = {sc.omega, z0.rod_omega - sc.omega, 0.0, 1.0};
  for (double h : {1e-3, 5e-4, 2.5e-4, 1e-4, 5e-5})
    m.settings.push_back(
        {"MuJoCo RK4, solref (2 step, 1), solimp 0.9999", format("step %g ms", h * 1e3), [&mujoco, h, t_end, qvel] {
           mujoco.model->opt.timestep = h;
           mujoco.set_equalities(2 * h, 1.0, mjMAXIMP);
           mujoco.run(t_end, qvel);
           mj_forward(mujoco.model, mujoco.data);
           // The joint equality's row (J = [1, −ω] on crank and clock): its force is the
           // torque on the crank.
           for (int i = 0; i < mujoco.data->nefc; ++i)
             if (mujoco.data->efc_type[i] == mjCNSTR_EQUALITY && mujoco.data->efc_id[i] == 1)
               return Outcome{mujoco.data->efc_force[i], "", ""};
           return Outcome{NAN, "no row of the joint equality", ""};
         }});
  auto& simbody = keep.make<bench::SimbodySliderCrank>(sc.r, sc.l, sc.m_crank, sc.m_rod, sc.m_slider, sc.gravity,
                                                       sc.omega, z0.rod_omega);
  add_simbody_settings(m, simbody, t_end, {1e-3, 5e-4, 2.5e-4, 1e-4}, {1e-8, 1e-9, 1e-10, 1e-12});
  matched_accuracy(m, repeats);
}


// ---- the chain's times ----

struct Way {
  std::string label;
  std::function<Outcome()> run;
  std::vector<double> times;
  Outcome last;
};

bool chain(jourdain::Registry& registry, const std::vector<long>& sizes, double t_end, int repeats) {
  std::printf("N-link chain (N = 1: the pendulum), %g s; median wall time of %d interleaved runs\n"
              "J/this = Jourdain rk4's time / this row's time; err = |theta_N - reference| at t_end (N = 1 only: the "
              "chain is chaotic)\n\n",
              t_end, repeats);
  bool ok = true;
  const std::string theta_of = ".theta";
  for (long n : sizes) {
    jourdain::bench::ChainOptions o;
    o.t_end = t_end;
    o.output_interval = t_end / 10;
    const jourdain::Netlist net =
        jourdain::load_netlist_text(jourdain::bench::make_chain_netlist(n, o), "chain.json", registry);
    const std::string theta = jourdain::bench::chain_link_name(n) + theta_of;
    // MJCF nests each link in the one before, and MuJoCo's XML parser stops at a depth of
    // about 100: a longer chain is one MuJoCo cannot load this way (said, not a failure).
    std::unique_ptr<MujocoModel> mujoco_rk4, mujoco_euler;
    std::string mujoco_refused;
    try {
      mujoco_rk4 = std::make_unique<MujocoModel>(mjcf_chain(n, "RK4"));
      mujoco_euler = std::make_unique<MujocoModel>(mjcf_chain(n, "Euler"));
    } catch (const std::exception& e) {
      mujoco_refused = e.what();
      std::replace(mujoco_refused.begin(), mujoco_refused.end(), '\n', ' ');
    }
    bench::SimbodyChain simbody(n, kLength, kMass, kGravity);
    std::vector<Way> ways = {
        {"Jourdain rk4 1 ms", [&] { return run_jourdain(net, {{"method", "rk4"}, {"step", kStep}}, theta); }, {}, {}},
        {"Jourdain dopri5 rtol 1e-8",
         [&] { return run_jourdain(net, {{"method", "dopri5"}, {"rtol", 1e-8}, {"atol", 1e-10}}, theta); }, {}, {}},
        {"Simbody RK-Merson 1 ms", [&] { return Outcome{simbody.run(t_end, 0.0, kStep), "", ""}; }, {}, {}},
        {"Simbody RK-Merson acc 1e-8", [&] { return Outcome{simbody.run(t_end, 1e-8, 0.0), "", ""}; }, {}, {}},
    };
    if (mujoco_rk4) {
      ways.insert(ways.begin() + 2, {"MuJoCo Euler 1 ms", [&] { return mujoco_chain(*mujoco_euler, t_end); }, {}, {}});
      ways.insert(ways.begin() + 2, {"MuJoCo RK4 1 ms", [&] { return mujoco_chain(*mujoco_rk4, t_end); }, {}, {}});
    }
    for (int r = 0; r < repeats; ++r)
      for (auto& w : ways) {
        const auto t0 = Clock::now();
        w.last = w.run();
        w.times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      }
    double reference = NAN, reference_error = NAN;
    if (n == 1) {
      reference = jourdain::bench::rod_pendulum_angle(t_end, 1e-5, kGravity, kLength);
      reference_error = std::abs(reference - jourdain::bench::rod_pendulum_angle(t_end, 2e-5, kGravity, kLength));
    }
    if (n == 1) std::printf("N = 1  (reference theta = %.12f, its own error ~%.1e)\n", reference, reference_error);
    else std::printf("N = %ld\n", n);
    std::printf("  %-28s %11s %8s %12s %10s\n", "way", "time", "J/this", "theta_N", "err");
    if (!mujoco_refused.empty()) std::printf("  MuJoCo cannot load this chain: %s\n", mujoco_refused.c_str());
    const double base = median(ways[0].times);
    for (const auto& w : ways) {
      if (!w.last.failure.empty()) {
        std::printf("  %-28s failed: %s\n", w.label.c_str(), w.last.failure.c_str());
        ok = false;
        continue;
      }
      const double t = median(w.times);
      char err[32] = "-";
      if (n == 1) std::snprintf(err, sizeof err, "%.2e", std::abs(w.last.value - reference));
      std::printf("  %-28s %9.4f s %8.3f %12.6f %10s\n", w.label.c_str(), t, base / t, w.last.value, err);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> sizes;
  std::vector<std::string> models;
  double t_end = 10.0;
  int repeats = 3;
  const std::vector<std::string> known = {"pendulum", "four-bar", "slider-crank", "chain"};
  auto usage = [&](int code) {
    std::printf("usage: %s [N ...] [--models LIST] [--t-end T] [--repeats R]\n"
                "  LIST: comma-separated, of pendulum,four-bar,slider-crank,chain (default: all; with N given, the\n"
                "  chain, and the pendulum when N = 1 is among them); N = 1 4 16 64, T = 10, R = 3 by default\n",
                argv[0]);
    return code;
  };
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--t-end" && a + 1 < argc) {
      t_end = std::atof(argv[++a]);
    } else if (arg == "--repeats" && a + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++a]));
    } else if (arg == "--models" && a + 1 < argc) {
      std::stringstream list(argv[++a]);
      for (std::string name; std::getline(list, name, ',');) {
        if (std::find(known.begin(), known.end(), name) == known.end()) {
          std::printf("unknown model '%s'\n", name.c_str());
          return usage(2);
        }
        models.push_back(name);
      }
    } else if (!arg.empty() && arg.find_first_not_of("0123456789") == std::string::npos) {
      sizes.push_back(std::atol(arg.c_str()));
    } else {
      return usage(arg == "-h" || arg == "--help" ? 0 : 2);
    }
  }
  if (models.empty()) {
    if (sizes.empty()) models = known;
    else if (std::find(sizes.begin(), sizes.end(), 1L) != sizes.end()) models = {"pendulum", "chain"};
    else models = {"chain"};
  }
  if (sizes.empty()) sizes = {1, 4, 16, 64};
  auto wanted = [&](const std::string& name) { return std::find(models.begin(), models.end(), name) != models.end(); };
  jourdain::Registry registry;
  jourdain::register_builtin_components(registry);

  std::printf("Jourdain against MuJoCo %s and Simbody %s; matched accuracy: median wall time of %d runs (one run when "
              "the first takes over 1 s)\n\n",
              mj_versionString(), "3.7", repeats);
  std::fflush(stdout);
  if (wanted("pendulum")) pendulum(registry, t_end, repeats);
  if (wanted("four-bar")) four_bar(registry, t_end, repeats);
  if (wanted("slider-crank")) slider_crank(registry, repeats);
  bool ok = true;
  if (wanted("chain")) ok = chain(registry, sizes, t_end, repeats);
  return ok ? 0 : 1;
}
