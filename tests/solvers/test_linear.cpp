// The linear analysis (solvers/include/jourdain/solvers/linear.hpp) against closed forms
// and an independent minimal-coordinate formulation.
//
// Tolerances: A, B, C, D come from central differences with steps ε^(1/3) max(1, |x|)
// ≈ 6e-6: truncation h² |f'''| / 6 and round-off ε |f| / h are both about 1e-11 of an
// entry's scale, and simple eigenvalues follow A to that order times their condition
// number (1 for the normal matrices of these small systems). 1e-7 relative leaves two
// orders of margin and would still catch a one-sided difference (error ~h ≈ 6e-6).
#include <cmath>
#include <cstdio>
#include <complex>
#include <numbers>

#include "linear_helpers.hpp"
#include "oscillator.hpp"

using namespace jourdain;

namespace {

constexpr double kRel = 1e-7;

using test::linear;
using test::num;

// The solver tests' oscillator with a force input ("push.value"). Its numbers go through
// std::to_string: keep them exact in six decimals.
std::string msd(double m, double k, double c, double x0) {
  test::Oscillator osc{m, k, c, x0, true};
  return osc.netlist(R"({"method": "dopri5", "t_end": 1})");
}

}  // namespace

TEST_CASE("mass-spring-damper: natural frequency, damping ratio and frequency response") {
  const double m = 2.0, k = 800.0, c = 8.0;
  const LinearRunResult r =
      linear(msd(m, k, c, 0.05), R"({"at": "equilibrium", "inputs": ["push.value"], "outputs": ["mass.x"]})");
  const LinearModel& lm = r.linear;
  // The equilibrium: the spring relaxed (its free length 0 from the wall at 0).
  CHECK(std::abs(lm.x[0]) < 1e-12);
  REQUIRE(lm.A.rows() == 2);
  REQUIRE(lm.modes.size() == 1);
  const double wn = std::sqrt(k / m), zeta = c / (2.0 * std::sqrt(k * m));
  const LinearMode& mode = lm.modes[0];
  CHECK(mode.oscillatory);
  CHECK(mode.natural_frequency == doctest::Approx(wn).epsilon(kRel));
  CHECK(mode.damping_ratio == doctest::Approx(zeta).epsilon(kRel));
  CHECK(mode.eigenvalue.imag() == doctest::Approx(wn * std::sqrt(1 - zeta * zeta)).epsilon(kRel));
  CHECK(mode.time_constant == doctest::Approx(1.0 / (zeta * wn)).epsilon(kRel));
  CHECK(lm.stability == "asymptotically stable");
  // Both states take part in the mode, half each (a lightly damped oscillator).
  CHECK(mode.participation[0].second == doctest::Approx(0.5).epsilon(0.05));

  // Bode magnitude |G(iω)| = 1 / |k − m ω² + i c ω| at frequencies through the resonance.
  REQUIRE(lm.response.size() == 1);
  for (Eigen::Index i = 0; i < lm.frequencies_hz.size(); i += 17) {
    const double w = 2.0 * std::numbers::pi * lm.frequencies_hz[i];
    const std::complex<double> exact = 1.0 / std::complex<double>(k - m * w * w, c * w);
    CAPTURE(lm.frequencies_hz[i]);
    CHECK(std::abs(lm.response[0][i]) == doctest::Approx(std::abs(exact)).epsilon(kRel));
    CHECK(std::arg(lm.response[0][i]) == doctest::Approx(std::arg(exact)).epsilon(kRel));
  }
  // The default range spans a decade below and above the mode.
  CHECK(lm.frequencies_hz[0] == doctest::Approx(wn / (2 * std::numbers::pi) / 10).epsilon(1e-6));
  // D = 0: a force does not move the mass instantaneously.
  CHECK(std::abs(lm.D(0, 0)) < 1e-12);
  // The summary says what was held fixed (nothing here) and how the point was found.
  CHECK(r.summary["linear"]["stability"] == "asymptotically stable");
  CHECK(r.summary["linear"].contains("frozen"));
}

TEST_CASE("mass-spring-damper: the equilibrium under a constant force") {
  // Newton's method finds x = F / k from the initial state.
  Netlist net = test::load(msd(1.0, 100.0, 2.0, 0.0));
  LinearRunOptions options;
  options.parameters = {{"push.value", 5.0}};
  const LinearRunResult pushed = run_linear(net, {}, options);
  REQUIRE(pushed.finished);
  CHECK(pushed.operating_point.x[0] == doctest::Approx(0.05).epsilon(1e-10));
  CHECK(pushed.linear.residual < 1e-9);
}

namespace {

// The pendulum of netlists/pendulum.json (1 kg bob, 1 m rod, I = 1e-6 kg·m² about the
// bob's centre) placed at angle `theta` of its rod from the x axis.
std::string pendulum(double theta, double alpha_beta) {
  const double x = std::cos(theta), y = std::sin(theta);
  return R"({
    "world": {"gravity": [0, -9.81], "constraints": {"alpha": )" + num(alpha_beta) +
         R"(, "beta": )" + num(alpha_beta) + R"(}},
    "components": {
      "ground": {"type": "mechanical.ground", "params": {"points": {"pivot": [0, 0]}}},
      "bob":    {"type": "mechanical.body", "params": {"mass": "1 kg", "inertia": "1e-6 kg*m^2", "points": {"pin": [-1, 0]}},
                 "initial": {"x": )" + num(x) + R"(, "y": )" + num(y) + R"(, "theta": )" +
         num(theta) + R"(}},
      "hinge":  {"type": "mechanical.revolute"}
    },
    "connections": [["ground.pivot", "hinge.a"], ["bob.pin", "hinge.b"]],
    "solver": {"method": "dopri5", "t_end": 1}
  })";
}

}  // namespace

TEST_CASE("pendulum: sqrt(m g l / I_O) below, one unstable real pair above") {
  const double m = 1.0, g = 9.81, l = 1.0, I_O = 1e-6 + m * l * l;
  const double w = std::sqrt(m * g * l / I_O);
  // Hanging down, found by Newton's method from 30° off the vertical.
  const LinearRunResult down = linear(pendulum(-std::numbers::pi / 2 + 0.5, 10), R"({"at": "equilibrium"})");
  const LinearModel& lm = down.linear;
  CHECK(down.operating_point.x[2] == doctest::Approx(-std::numbers::pi / 2).epsilon(1e-9));
  // 6 body coordinates, 2 constraints at position and velocity level: 2 independent.
  REQUIRE(lm.A.rows() == 2);
  CHECK(lm.dependent.size() == 4);
  REQUIRE(lm.modes.size() == 1);
  CHECK(lm.modes[0].oscillatory);
  CHECK(lm.modes[0].natural_frequency == doctest::Approx(w).epsilon(kRel));
  CHECK(std::abs(lm.modes[0].eigenvalue.real()) < kRel * w);
  CHECK(lm.stability == "marginally stable");

  // Upright: λ = ±w, real.
  const LinearRunResult up = linear(pendulum(std::numbers::pi / 2, 10), R"({"at": "initial"})");
  REQUIRE(up.linear.modes.size() == 2);
  CHECK(up.linear.stability == "unstable");
  for (const LinearMode& mode : up.linear.modes) {
    CHECK_FALSE(mode.oscillatory);
    CHECK(std::abs(mode.eigenvalue.real()) == doctest::Approx(w).epsilon(kRel));
  }
  CHECK(up.linear.modes[0].eigenvalue.real() * up.linear.modes[1].eigenvalue.real() < 0);
}

namespace {

// The netlist of a four-bar of uniform bars (mass 1 kg/m × length, I = m L² / 12) under
// gravity: crank O2A (length a), coupler AB (b), rocker O4B (c), ground pivots O2 = (0, 0)
// and O4 = (d, 0), at the pose whose joints A and B are given; `world_constraints`, when
// not empty, is the world's "constraints" object.
std::string four_bar_netlist(double a, double b, double c, double d, double ax, double ay, double bx, double by,
                             const std::string& world_constraints = "") {
  auto body = [](const std::string& name, double len, double px, double py, double qx, double qy, const std::string& p,
                 const std::string& q) {
    return "\"" + name + "\": {\"type\": \"mechanical.body\", \"params\": {\"mass\": " + num(len) +
           ", \"inertia\": " + num(len * len * len / 12) + ", \"points\": {\"" + p + "\": [" + num(-len / 2) +
           ", 0], \"" + q + "\": [" + num(len / 2) + ", 0]}}, \"initial\": {\"x\": " + num((px + qx) / 2) +
           ", \"y\": " + num((py + qy) / 2) + ", \"theta\": " + num(std::atan2(qy - py, qx - px)) + "}}";
  };
  const std::string constraints = world_constraints.empty() ? "" : R"(, "constraints": )" + world_constraints;
  return R"({"world": {"gravity": [0, -9.81])" + constraints + R"(},
    "components": {
      "ground": {"type": "mechanical.ground", "params": {"points": {"O2": [0, 0], "O4": [)" +
         num(d) + R"(, 0]}}},
      )" + body("crank", a, 0, 0, ax, ay, "O2", "A") + ",\n" + body("coupler", b, ax, ay, bx, by, "A", "B") + ",\n" +
         body("rocker", c, d, 0, bx, by, "O4", "B") + R"(,
      "j1": {"type": "mechanical.revolute"}, "j2": {"type": "mechanical.revolute"},
      "j3": {"type": "mechanical.revolute"}, "j4": {"type": "mechanical.revolute"}},
    "connections": [["ground.O2", "j1.a"], ["crank.O2", "j1.b"], ["crank.A", "j2.a"], ["coupler.A", "j2.b"],
                    ["coupler.B", "j3.a"], ["rocker.B", "j3.b"], ["ground.O4", "j4.a"], ["rocker.O4", "j4.b"]],
    "solver": {"method": "dopri5", "t_end": 1}})";
}

// A four-bar under gravity (four_bar_netlist) and its closed forms.
struct FourBar {
  double a = 0.1, b = 0.35, c = 0.3, d = 0.4, g = 9.81;

  // Positions of A and B for crank angle t (the branch with B above the ground line).
  void points(double t, double& ax, double& ay, double& bx, double& by) const {
    ax = a * std::cos(t), ay = a * std::sin(t);
    const double dx = d - ax, dy = -ay, e = std::hypot(dx, dy);
    const double along = (b * b - c * c + e * e) / (2 * e), across = std::sqrt(b * b - along * along);
    bx = ax + (along * dx - across * dy) / e;
    by = ay + (along * dy + across * dx) / e;
  }
  // Potential energy and the generalized mass M(t) = Σ m |dr_i/dt|² + I (dθ_i/dt)², the
  // derivatives by central differences of the closed-form positions.
  double potential(double t) const {
    double ax, ay, bx, by;
    points(t, ax, ay, bx, by);
    return g * (a * (ay / 2) + b * ((ay + by) / 2) + c * (by / 2));
  }
  double generalized_mass(double t) const {
    const double h = 1e-6;
    double ax1, ay1, bx1, by1, ax2, ay2, bx2, by2;
    points(t + h, ax1, ay1, bx1, by1);
    points(t - h, ax2, ay2, bx2, by2);
    auto bar = [&](double len, double px1, double py1, double qx1, double qy1, double px2, double py2, double qx2,
                   double qy2) {
      const double vx = ((px1 + qx1) - (px2 + qx2)) / (4 * h), vy = ((py1 + qy1) - (py2 + qy2)) / (4 * h);
      double w = std::atan2(qy1 - py1, qx1 - px1) - std::atan2(qy2 - py2, qx2 - px2);
      w /= 2 * h;
      return len * (vx * vx + vy * vy) + len * len * len / 12 * w * w;
    };
    return bar(a, 0, 0, ax1, ay1, 0, 0, ax2, ay2) + bar(b, ax1, ay1, bx1, by1, ax2, ay2, bx2, by2) +
           bar(c, d, 0, bx1, by1, d, 0, bx2, by2);
  }

  std::string netlist(double t, double alpha, double beta) const {
    double ax, ay, bx, by;
    points(t, ax, ay, bx, by);
    return four_bar_netlist(a, b, c, d, ax, ay, bx, by, R"({"alpha": )" + num(alpha) + R"(, "beta": )" + num(beta) + "}");
  }
};

}  // namespace

TEST_CASE("four-bar: one mode pair, whatever the Baumgarte gains, equal to the minimal-coordinate value") {
  const FourBar fb;
  // The stable equilibrium: V'(t) = 0 by bisection on the crank angle in a bracket where
  // V' changes sign from − to + (a minimum of V).
  auto dV = [&](double t) { return (fb.potential(t + 1e-5) - fb.potential(t - 1e-5)) / 2e-5; };
  double lo = -2.5, hi = -0.5;
  REQUIRE(dV(lo) < 0);
  REQUIRE(dV(hi) > 0);
  for (int i = 0; i < 200; ++i) (dV(0.5 * (lo + hi)) < 0 ? lo : hi) = 0.5 * (lo + hi);
  const double t_eq = 0.5 * (lo + hi);
  const double h = 1e-4;
  const double V2 = (fb.potential(t_eq + h) - 2 * fb.potential(t_eq) + fb.potential(t_eq - h)) / (h * h);
  const double w_exact = std::sqrt(V2 / fb.generalized_mass(t_eq));

  std::vector<double> frequencies;
  for (const auto& gains : {std::pair{10.0, 10.0}, std::pair{1.0, 100.0}, std::pair{200.0, 5.0}}) {
    const double alpha = gains.first, beta = gains.second;
    // Started 0.3 rad from the equilibrium: Newton's method finds it.
    const LinearRunResult r = linear(fb.netlist(t_eq + 0.3, alpha, beta), R"({"at": "equilibrium"})");
    const LinearModel& lm = r.linear;
    CAPTURE(alpha);
    CAPTURE(beta);
    REQUIRE(lm.A.rows() == 2);  // 9 coordinates, 8 constraint equations: one degree of freedom
    REQUIRE(lm.modes.size() == 1);
    CHECK(lm.modes[0].oscillatory);
    frequencies.push_back(lm.modes[0].natural_frequency);
    // The minimal-coordinate value: its second difference of V (h = 1e-4) carries round-off
    // ε V / h² ≈ 1e-8 of V'' and truncation h² V'''' / 12 ≈ 1e-9: 1e-6 relative.
    CHECK(lm.modes[0].natural_frequency == doctest::Approx(w_exact).epsilon(1e-6));
  }
  CHECK(frequencies[1] == doctest::Approx(frequencies[0]).epsilon(kRel));
  CHECK(frequencies[2] == doctest::Approx(frequencies[0]).epsilon(kRel));

  // Away from equilibrium (released at rest at another pose), still one pair.
  const LinearRunResult off = linear(fb.netlist(t_eq + 0.6, 10, 10), R"({"at": "initial"})");
  CHECK(off.linear.A.rows() == 2);
}

TEST_CASE("independent states are a coordinate and its own rate, also while the mechanism moves") {
  // netlists/four_bar.json starts with the crank at 10 rad/s: ∂Φ̇/∂q is then far from zero,
  // and a partition over (q, q̇) together could keep two rates and no coordinate.
  Netlist net = test::load(test::read_text(test::netlist_path("four_bar")));
  LinearSettings s;
  s.at = LinearSettings::At::Initial;
  const LinearRunResult r = run_linear(net, s, {});
  REQUIRE(r.finished);
  const LinearModel& lm = r.linear;
  REQUIRE(lm.independent.size() == 2);
  const std::string q = lm.state_names[lm.independent[0]], rate = lm.state_names[lm.independent[1]];
  CAPTURE(q);
  CAPTURE(rate);
  const auto dot = q.rfind('.');
  REQUIRE(dot != std::string::npos);
  CHECK(rate.substr(0, dot) == q.substr(0, dot));  // one body
  const std::string coordinate = q.substr(dot + 1), its_rate = rate.substr(dot + 1);
  CHECK(((coordinate == "x" && its_rate == "vx") || (coordinate == "y" && its_rate == "vy") ||
         (coordinate == "theta" && its_rate == "omega")));
}

TEST_CASE("linear settings: bad input names its path") {
  Netlist net = test::load(msd(1, 100, 2, 0));
  auto settings = [](const char* text) {
    return linear_settings_from_json(nlohmann::json::parse(text), {"x.json", "/linear", "", ""});
  };
  CHECK_THROWS_WITH_AS(settings(R"({"at": "sometime"})"), doctest::Contains("/linear/at"), InputError);
  CHECK_THROWS_WITH_AS(settings(R"({"inputz": []})"), doctest::Contains("inputs"), InputError);
  CHECK_THROWS_WITH_AS(settings(R"({"frequency": {"from": "10 Hz", "to": "1 Hz"}})"), doctest::Contains("/linear/frequency"),
                       InputError);
  CHECK_THROWS_WITH_AS(run_linear(net, settings(R"({"inputs": ["push.valu"]})"), {}), doctest::Contains("push.value"),
                       InputError);
  CHECK_THROWS_WITH_AS(run_linear(net, settings(R"({"outputs": ["mass.q"]})"), {}), doctest::Contains("mass.q"), InputError);
  // A constant force on a free mass: no equilibrium, a failure that says so.
  Netlist free_mass = test::load(R"({"components": {"mass": {"type": "mechanical1d.mass"},
      "push": {"type": "signal.constant", "params": {"value": 1}}, "actuator": {"type": "mechanical1d.force_source"}},
      "connections": [["push.out", "actuator.f"], ["actuator.p", "mass.p"]]})");
  const LinearRunResult r = run_linear(free_mass, {}, {});
  CHECK_FALSE(r.finished);
  CHECK(r.failure.find("no equilibrium") != std::string::npos);
  // At its initial state it is a double integrator: λ = 0, 0, marginally stable.
  const LinearRunResult initial = run_linear(free_mass, settings(R"({"at": "initial"})"), {});
  REQUIRE(initial.finished);
  CHECK(initial.linear.stability == "marginally stable");
}

TEST_CASE("a fully driven mechanism and a model with no states: no independent state, y = D u") {
  // The slider-crank's crank is driven: every coordinate follows the constraints.
  Netlist crank = test::load(test::read_text(test::netlist_path("slider_crank")));
  const LinearRunResult r = run_linear(crank, {}, {});
  REQUIRE(r.finished);
  CHECK(r.linear.A.rows() == 0);
  CHECK(r.linear.dependent.size() == 18);
  CHECK(r.linear.modes.empty());
  CHECK(r.linear.stability.find("no dynamics") == 0);
  // An amplifier with feedback (an algebraic loop, no state): D is its closed-loop gain.
  Netlist amp = test::load(test::read_text(test::netlist_path("feedback_amplifier")));
  LinearSettings s;
  s.inputs = {"input.before"};
  s.outputs = {"amplifier.out"};
  const LinearRunResult g = run_linear(amp, s, {});
  REQUIRE(g.finished);
  CHECK(g.linear.A.rows() == 0);
  // The loop is linear, so Newton's method solves each perturbed evaluation to round-off:
  // the difference quotient carries ε |y| / h ≈ 1e-10.
  CHECK(g.linear.D(0, 0) == doctest::Approx(1e5 / (1 + 1e5 * 0.1)).epsilon(1e-8));
  REQUIRE(g.linear.response.size() == 1);
  CHECK(std::abs(g.linear.response[0][0]) == doctest::Approx(1e5 / (1 + 1e4)).epsilon(1e-8));
}

// ------------------------------------------------------------------ issue 38

TEST_CASE("pendulum started horizontal: the globalized search finds the hanging pose and ±i sqrt(g/L_eq)") {
  // Released with the rod horizontal, the restoring stiffness is zero (the torque m g l
  // cos θ is stationary there) and Newton's method alone has no direction to go: it once
  // failed with "the mechanism cannot be brought back onto its constraints, |Φ| = 1.3e6".
  // The hanging pose is a quarter turn away; there λ = ±i sqrt(g/L_eq), L_eq = I_O/(m l)
  // for the bob's inertia 1e-6 about its centre (I_O = I + m l²). Tolerance: kRel, as for
  // the pendulum found from 30° (the same differentiation at the same pose).
  const double m = 1.0, g = 9.81, l = 1.0, I_O = 1e-6 + m * l * l, L_eq = I_O / (m * l);
  const double w = std::sqrt(g / L_eq);
  const LinearRunResult r = linear(pendulum(0.0, 10), R"({"at": "equilibrium"})");
  const LinearModel& lm = r.linear;
  // Hanging: θ = −π/2, the bob at (0, −1); Newton's method finishes to ~1e-15 rad, the
  // assembly tolerance leaves 1e-10 in the position.
  CHECK(r.operating_point.x[2] == doctest::Approx(-std::numbers::pi / 2).epsilon(1e-9));
  CHECK(std::abs(r.operating_point.x[0]) < 1e-9);
  CHECK(r.operating_point.x[1] == doctest::Approx(-1.0).epsilon(1e-9));
  REQUIRE(lm.modes.size() == 1);
  CHECK(lm.modes[0].oscillatory);
  CHECK(lm.modes[0].eigenvalue.imag() == doctest::Approx(w).epsilon(kRel));
  CHECK(std::abs(lm.modes[0].eigenvalue.real()) < kRel * w);
  CHECK(lm.stability == "marginally stable");
  // Which search found it, and how far it moved, are said.
  const std::string how = r.summary["linear"]["operating_point"]["how"];
  CHECK(how.find("pseudo-transient continuation") != std::string::npos);
  CHECK(how.find("bob.theta") != std::string::npos);

  // Started upright but a hair off (1e-3 rad), Newton's method finds the upright pose
  // itself, and the analysis says it is unstable.
  const LinearRunResult up = linear(pendulum(std::numbers::pi / 2 - 1e-3, 10), R"({"at": "equilibrium"})");
  CHECK(up.linear.stability == "unstable");
  bool warned = false;
  for (const auto& text : up.warnings) warned = warned || text.find("equilibrium found is unstable") != std::string::npos;
  CHECK(warned);
}

TEST_CASE("undamped modes: ζ is exactly 0, not a rounding's -0 or -4e-16") {
  // The pendulum's pair has Re λ at rounding level (a few 1e-16 of |λ|, either sign):
  // within axis_tolerance (1e-7 |λ|) it is on the axis, and ζ is reported as 0.
  const LinearRunResult r = linear(pendulum(-std::numbers::pi / 2 + 0.5, 10), R"({"at": "equilibrium"})");
  REQUIRE(r.linear.modes.size() == 1);
  const double zeta = r.linear.modes[0].damping_ratio;
  CHECK(zeta == 0.0);
  CHECK_FALSE(std::signbit(zeta));
  const nlohmann::json lj = to_json(r.linear);
  CHECK(lj["modes"][0]["damping_ratio"].get<double>() == 0.0);
  CHECK_FALSE(std::signbit(lj["modes"][0]["damping_ratio"].get<double>()));
  // A damped one keeps its ζ (the mass-spring-damper's c/(2 sqrt(k m)) is checked above).
}

namespace {

// A parallelogram four-bar (crank = rocker = a, coupler = ground = b) at crank angle t:
// flat (t = 0) its links are collinear, Φ_q loses a rank and the other assembly branch
// (the antiparallelogram) crosses this one.
std::string parallelogram(double t) {
  const double a = 0.3, b = 0.4;
  const double ax = a * std::cos(t), ay = a * std::sin(t), bx = ax + b, by = ay;
  return four_bar_netlist(a, b, a, b, ax, ay, bx, by);
}

}  // namespace

TEST_CASE("a singular configuration is refused, a pose near one warned, a regular one neither") {
  // Flat, the partition would find two independent coordinates (4 states) where the
  // mechanism has one: the linear model once came out with a spurious pair.
  Netlist flat = test::load(parallelogram(0.0));
  LinearSettings initial;
  initial.at = LinearSettings::At::Initial;
  const LinearRunResult r = run_linear(flat, initial, {});
  CHECK_FALSE(r.finished);
  CAPTURE(r.failure);
  CHECK(r.failure.find("singular configuration") != std::string::npos);
  CHECK(r.failure.find("4 independent states where poses nearby have 2") != std::string::npos);

  // 1e-6 rad off flat the rank is full (pivots 1e-6 of the largest, above the rank
  // threshold 1e-9) but the partition amplifies errors by ~1e7: one pair, and a warning.
  Netlist near = test::load(parallelogram(1e-6));
  const LinearRunResult n = run_linear(near, initial, {});
  REQUIRE(n.finished);
  CHECK(n.linear.A.rows() == 2);
  REQUIRE(n.linear.warnings.size() == 1);
  CHECK(n.linear.warnings[0].find("near a singular configuration") != std::string::npos);
  bool in_summary = false;
  for (const auto& w : n.warnings) in_summary = in_summary || w.find("near a singular configuration") != std::string::npos;
  CHECK(in_summary);

  // Hanging (its equilibrium, found from 1.2 rad below horizontal): a regular pose, no
  // warning. Each bar swings as a pendulum of the parallelogram's coupled motion: the
  // coupler translates (its centre on a circle of radius a), so with bar masses 1 kg/m
  // the generalized mass about the crank angle is I_crank + I_rocker + m_coupler a²
  // = 2 (m a² / 3) + m_c a², and the gravity stiffness 2 m g a/2 + m_c g a.
  const LinearRunResult h = linear(parallelogram(-1.2), R"({"at": "equilibrium"})");
  CHECK(h.linear.warnings.empty());
  REQUIRE(h.linear.modes.size() == 1);
  const double a = 0.3, b = 0.4, g = 9.81, m = a, mc = b;
  const double w = std::sqrt((2 * m * g * a / 2 + mc * g * a) / (2 * m * a * a / 3 + mc * a * a));
  CHECK(h.linear.modes[0].natural_frequency == doctest::Approx(w).epsilon(kRel));
}

TEST_CASE("discrete states are reported held only where an event could change them") {
  // A mass without end stops has no zero crossing: its contact flag is a constant of the
  // run, and "held at 0" would say nothing (it once warned on every linear model).
  const LinearRunResult free_mass = linear(msd(2.0, 800.0, 8.0, 0.05), R"({"at": "equilibrium"})");
  CHECK(free_mass.linear.frozen.empty());
  CHECK(free_mass.warnings.empty());
  // With an end stop the contact can change at an event: held, and said so.
  test::Oscillator osc{2.0, 800.0, 8.0, 0.05, true};
  nlohmann::json doc = nlohmann::json::parse(osc.netlist(R"({"method": "dopri5", "t_end": 1})"));
  doc["components"]["mass"]["params"]["x_min"] = -1.0;
  const LinearRunResult stopped = linear(doc.dump(), R"({"at": "equilibrium"})");
  REQUIRE(stopped.linear.frozen.size() == 2);
  CHECK(stopped.linear.frozen[0].find("mass.contact = 0") != std::string::npos);
  CHECK(stopped.linear.frozen[1].find("zero-crossing") != std::string::npos);
}

TEST_CASE("a frequency range: ends positive and finite, in order; else bad input naming the end") {
  LinearSettings s;
  const InputLocation from{"x.json", "/linear/frequency/from", "", ""}, to{"x.json", "/linear/frequency/to", "", ""};
  CHECK_THROWS_WITH_AS(set_frequency_range(s, std::nullopt, std::numeric_limits<double>::infinity(), from, to),
                       doctest::Contains("/linear/frequency/to"), InputError);
  CHECK_THROWS_WITH_AS(set_frequency_range(s, 0.0, std::nullopt, from, to), doctest::Contains("/linear/frequency/from"),
                       InputError);
  CHECK_THROWS_WITH_AS(set_frequency_range(s, 100.0, 1.0, from, to), doctest::Contains("must be above"), InputError);
  CHECK_THROWS_AS(linear_settings_from_json(nlohmann::json::parse(R"({"frequency": {"from": 0}})"), {"x.json", "/linear", "", ""}),
                  InputError);
  // One end given, the other automatic: the automatic one keeps to its side.
  set_frequency_range(s, std::nullopt, 1e-4, from, to);
  CHECK(s.frequency_to == 1e-4);
  CHECK(s.frequency_from == 0.0);
  const LinearRunResult r = linear(msd(2.0, 800.0, 8.0, 0.05),
                                   R"({"inputs": ["push.value"], "outputs": ["mass.x"], "frequency": {"to": "0.01 Hz"}})");
  CHECK(r.linear.frequencies_hz[r.linear.frequencies_hz.size() - 1] == doctest::Approx(0.01).epsilon(1e-14));
  CHECK(r.linear.frequencies_hz[0] == doctest::Approx(1e-5).epsilon(1e-12));
}

TEST_CASE("a badly scaled model (pressures in Pa beside flows in m³/s): its eigenvalues survive, balanced") {
  // 20 m of 10 mm pipe in 40 segments with their oil columns' inertance, fed at 20 bar and
  // closed at the far end by a tiny volume: A's entries run from ~1e-5 (Pa per m³/s over
  // an inertance) to ~1e13 (a node's β/V), and without balancing the QR iterations called
  // this passive line unstable (an eigenvalue at 1601 + 2106i) and put its first mode at
  // 132 rad/s. The first mode is the quarter-wave resonance, ω = 2π c/(4L) with
  // c = sqrt(β/ρ), damped by the laminar friction σ: Im λ = sqrt(ω² − σ²). Bound 1e-3:
  // the chain's dispersion (π/(4N))²/6 = 6e-5 and the end volume's share of the line's,
  // 6e-5, are the model's departures from the continuous line.
  const std::string netlist = R"({"name": "pipe40", "components": {
      "src": {"type": "hydraulic.pressure_source", "params": {"pressure": "20 bar"}},
      "pipe": {"type": "hydraulic.pipe", "params": {"length": "20 m", "diameter": "10 mm", "segments": 40,
               "ends": "response_response", "inertance": true, "initial_pressure": "20 bar"}},
      "end": {"type": "hydraulic.volume", "params": {"volume": "1e-7 m^3", "ports": 1}, "initial": {"p": "20 bar"}}},
    "connections": [["src.p", "pipe.a"], ["pipe.b", "end.p1"]],
    "solver": {"method": "bdf", "t_end": 0.1}})";
  const LinearRunResult r = linear(netlist, R"({"at": "initial"})");
  const LinearModel& lm = r.linear;
  double largest_real = -1e300;
  for (const auto& l : lm.eigenvalues) largest_real = std::max(largest_real, l.real());
  CHECK(largest_real < 1e-6);  // nothing grows
  CHECK(lm.stability != "unstable");
  const LinearMode* first = nullptr;
  for (const auto& m : lm.modes)
    if (m.oscillatory && (!first || m.natural_frequency < first->natural_frequency)) first = &m;
  REQUIRE(first != nullptr);
  const double c = std::sqrt(1.5e9 / 850.0), w = 2.0 * std::numbers::pi * c / 80.0;
  const double sigma = -first->eigenvalue.real();
  CHECK(first->eigenvalue.imag() == doctest::Approx(std::sqrt(w * w - sigma * sigma)).epsilon(1e-3));
  // The laminar friction's decay: Poiseuille's resistance per length R' = 32 μ/(d² A)
  // against the inertance per length L' = ρ/A, σ = R'/(2 L') = 16 ν/d², every mode alike.
  CHECK(sigma == doctest::Approx(16.0 * 4.6e-5 / 1e-4).epsilon(1e-6));
}
