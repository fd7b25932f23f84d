// The constraint formulations of a dynamic analysis (world.constraints.formulation): the
// augmented Lagrangian (the default), the stabilized KKT system and the Udwadia–Kalaba
// equation must give the same motion and the same reactions; redundant constraints are
// solved when asked (world.constraints.redundant = "least_squares"); and the corrections
// after steps may be mass-weighted (world.constraints.projection_metric).
#include <algorithm>
#include <cmath>
#include <fstream>

#include "mechanism_netlist.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

json read_netlist(const std::string& name) {
  std::ifstream in(netlist_path(name));
  return json::parse(in);
}

json with_formulation(json doc, const std::string& formulation) {
  doc["world"]["constraints"]["formulation"] = formulation;
  return doc;
}

// Largest |a − b| over the rows, relative to the largest |a| of the column (or 1 for
// columns of small values, angles and positions in m and rad).
double largest_difference(const RunResult& a, const RunResult& b, const std::string& column) {
  const auto x = a.column(column), y = b.column(column);
  REQUIRE(x.size() == y.size());
  double scale = 1.0, worst = 0.0;
  for (double v : x) scale = std::max(scale, std::abs(v));
  for (size_t k = 0; k < x.size(); ++k) worst = std::max(worst, std::abs(x[k] - y[k]));
  return worst / scale;
}

// Runs `doc` with the KKT formulation and with `other`, and compares every recorded column
// at the common output times.
//
// Why 1e-8: both runs integrate the same ODE with dopri5 at rtol 1e-10; their q̈ differ
// only by rounding (the KKT system's LU against the Udwadia–Kalaba pseudo-inverse or the
// augmented Lagrangian's iteration, converged to rounding; ~1e-15 relative times the
// Jacobian's condition), so each run is within its own global error, a few rtol over these
// short runs, of the exact motion, and the two within the sum. Should the step sequences
// part (an error estimate straddling the acceptance threshold), the bound still holds;
// 1e-8 leaves a factor ~10 over that sum and still catches any formulation error, which
// shows from the first step at the size of the terms themselves. The projection settings
// are the netlist's, the same for both (the augmented Lagrangian's defaults, projection
// with the mass metric, apply only where the netlist leaves them out).
void compare_formulations(const std::string& what, json doc, const std::string& other = "udwadia_kalaba") {
  RunResult kkt = run(with_formulation(doc, "kkt").dump());
  RunResult uk = run(with_formulation(doc, other).dump());
  INFO(what << " (" << other << "): " << kkt.failure << uk.failure);
  REQUIRE(kkt.finished);
  REQUIRE(uk.finished);
  REQUIRE(kkt.columns == uk.columns);
  const auto t1 = kkt.column("time"), t2 = uk.column("time");
  REQUIRE(t1 == t2);
  double worst = 0.0;
  std::string where;
  for (size_t c = 1; c < kkt.columns.size(); ++c) {
    const std::string& name = kkt.columns[c];
    if (name.rfind("mechanism.", 0) == 0) continue;  // constraint norms: rounding either way
    const double d = largest_difference(kkt, uk, name);
    CHECK_MESSAGE(d <= 1e-8, what << ": " << name << " differs by " << d << " (relative)");
    if (d > worst) worst = d, where = name;
  }
  MESSAGE(what << ": " << t1.size() << " rows, KKT vs " << other << " largest relative difference " << worst << " ("
               << where << "); steps " << kkt.stats.steps << " vs " << uk.stats.steps);
  // Two different computations: were the formulation setting ignored, the second run
  // would repeat the first to the last bit and the agreement above would prove nothing.
  CHECK(worst > 0.0);
}

}  // namespace

#ifdef JOURDAIN_TEST_INSTRUMENTED
// Under the sanitizers (~40 times slower) the runs below are shortened: the same code.
constexpr double kSpanScale = 1.0 / 3.0;
#else
constexpr double kSpanScale = 1.0;
#endif

TEST_CASE("KKT, Udwadia-Kalaba and the augmented Lagrangian agree on the planar netlists: states and joint reactions") {
  // pendulum and four_bar as shipped (Baumgarte 10/10 and projection after steps).
  json pendulum = read_netlist("pendulum");
  pendulum["solver"]["t_end"] = 3.0 * kSpanScale;
  compare_formulations("pendulum", pendulum);
  pendulum["world"]["constraints"]["projection_metric"] = "euclidean";  // as KKT's default
  compare_formulations("pendulum", pendulum, "augmented_lagrangian");

  json four_bar = read_netlist("four_bar");
  four_bar["solver"]["t_end"] = 3.0 * kSpanScale;
  for (const std::string b : {"coupler", "rocker"})
    for (const std::string v : {"constraint_fx", "constraint_fy", "constraint_tz"}) four_bar["record"].push_back(b + "." + v);
  for (const std::string j : {"pin_A", "pin_B"})
    for (const std::string v : {"fx", "fy"}) four_bar["record"].push_back(j + "." + v);
  compare_formulations("four_bar", four_bar);
  four_bar["world"]["constraints"]["projection_metric"] = "euclidean";
  compare_formulations("four_bar", four_bar, "augmented_lagrangian");

  // Andrews' squeezer (no projection, Baumgarte defaults): seven bodies, a closed loop.
  json squeezer = read_netlist("andrews_squeezer");
  for (const std::string j : {"joint_O", "joint_F", "joint_B", "joint_E34", "joint_G"})
    for (const std::string v : {"fx", "fy"}) squeezer["record"].push_back(j + "." + v);
  compare_formulations("andrews_squeezer", squeezer);
  squeezer["world"]["constraints"] = {{"projection", false}};  // KKT's defaults, as the netlist leaves them out
  compare_formulations("andrews_squeezer", squeezer, "augmented_lagrangian");

  // The slider-crank, run dynamically: the motor (a rheonomic driver, Φ_t ≠ 0) drives it,
  // so its effort is a multiplier of each formulation.
  json slider = read_netlist("slider_crank");
  slider["analysis"] = "dynamic";
  slider["solver"] = {
      {"method", "dopri5"}, {"t_end", 1.0 * kSpanScale}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.005}};
  compare_formulations("slider_crank (dynamic)", slider);
  slider["world"]["constraints"] = {{"projection", false}};
  compare_formulations("slider_crank (dynamic)", slider, "augmented_lagrangian");
}

namespace {

// A parallelogram: cranks of L = 0.5 m (1 kg) pinned at O = (0, 0), Q = (0.5, 0) and
// P = (1, 0), their tips pinned to a coupler (1 m, 2 kg) at its ends and its centre. The
// middle crank is redundant: 4 bodies, 12 equations, rank 11, one degree of freedom. It
// hangs below the ground line: folded flat onto it (θ = 0 or π) a parallelogram is at a
// change point, where the rank drops further and the motion may switch branch.
json parallelogram(double theta0) {
  const double L = 0.5, c = std::cos(theta0), s = std::sin(theta0);
  json ground = {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}, {"Q", {0.5, 0}}, {"P", {1, 0}}}}}}};
  json comps = {{"ground", ground},
                {"left", rod(L, 1.0, L / 2 * c, L / 2 * s, theta0)},
                {"middle", rod(L, 1.0, 0.5 + L / 2 * c, L / 2 * s, theta0)},
                {"right", rod(L, 1.0, 1.0 + L / 2 * c, L / 2 * s, theta0)},
                {"coupler", rod(1.0, 2.0, 0.5 + L * c, L * s, 0.0)}};
  for (const std::string pin : {"pin_O", "pin_Q", "pin_P", "pin_A", "pin_M", "pin_B"})
    comps[pin] = {{"type", "mechanical.revolute"}};
  json conns = links({{"ground.O", "pin_O.a"}, {"left.p", "pin_O.b"}, {"ground.Q", "pin_Q.a"}, {"middle.p", "pin_Q.b"},
                      {"ground.P", "pin_P.a"}, {"right.p", "pin_P.b"}, {"left.q", "pin_A.a"}, {"coupler.p", "pin_A.b"},
                      {"middle.q", "pin_M.a"}, {"coupler.cm", "pin_M.b"}, {"right.q", "pin_B.a"}, {"coupler.q", "pin_B.b"}});
  json record = {"left.theta", "left.omega", "left.alpha", "coupler.theta", "middle.theta", "right.theta"};
  for (const std::string pin : {"pin_O", "pin_Q", "pin_P", "pin_A", "pin_M", "pin_B"})
    for (const std::string v : {"fx", "fy"}) record.push_back(pin + "." + v);
  for (const std::string b : {"left", "middle", "right", "coupler"})
    for (const std::string v : {"kinetic_energy", "potential_energy"}) record.push_back(b + "." + v);
  json doc = mechanism(comps, conns, 2.0, record);
  doc["solver"]["rtol"] = 1e-10;
  doc["solver"]["atol"] = 1e-12;
  return doc;
}

}  // namespace

TEST_CASE("Udwadia-Kalaba solves a redundant parallelogram when asked: the motion of one degree of freedom, "
          "minimum-norm reactions") {
  const double theta0 = -1.2, g = 9.81;  // swings between −1.2 and −π + 1.2 rad
  json doc = parallelogram(theta0);
  // With redundant = "error" (the default) the netlist is refused, naming the dependent
  // equations, whatever the formulation.
  for (const std::string formulation : {"augmented_lagrangian", "kkt", "udwadia_kalaba"})
    CHECK_THROWS_WITH_AS(run(with_formulation(doc, formulation).dump()), doctest::Contains("redundant constraints"),
                         InputError);

  doc["world"]["constraints"]["redundant"] = "least_squares";
  RunResult uk = run(with_formulation(doc, "udwadia_kalaba").dump());
  INFO(uk.failure);
  REQUIRE(uk.finished);
  // Closed form: the cranks turn together and the coupler translates on a circle of
  // radius L, one pendulum with J = 3 m L²/3 + m_c L² = 0.75 kg m² and potential
  // g (3 m L/2 + m_c L) sin θ = 1.75 g sin θ: θ̈ = −1.75 g cos θ / 0.75.
  CHECK(uk.column("left.alpha")[0] == doctest::Approx(-1.75 * g * std::cos(theta0) / 0.75).epsilon(1e-10));
  const std::vector<std::string> bodies = {"left", "middle", "right", "coupler"};
  double drift = 0.0, parallel = 0.0;
  const double e0 = energy(uk, bodies, 0);
  for (size_t k = 0; k < uk.column("time").size(); ++k) {
    drift = std::max(drift, std::abs(energy(uk, bodies, k) - e0));
    parallel = std::max({parallel, std::abs(uk.column("middle.theta")[k] - uk.column("left.theta")[k]),
                         std::abs(uk.column("right.theta")[k] - uk.column("left.theta")[k]),
                         std::abs(uk.column("coupler.theta")[k])});
  }
  MESSAGE("redundant parallelogram (UK): energy drift " << drift << " J over 2 s, largest departure from parallel "
                                                        << parallel << " rad, constraint norm "
                                                        << uk.summary["monitors"]["mechanism.constraint_norm"]["max_abs"]);
  // |E| ≈ 1.75 g |sin θ| ≈ 16 J held to 1e-9 relative: a rtol 1e-10 run keeps it to a few
  // 1e-11 relative.
  CHECK(drift < 1e-8);
  CHECK(parallel < 1e-9);  // Baumgarte-held constraints
  CHECK(!uk.warnings.empty());

  // The same motion and the same (minimum-norm) multipliers as the KKT system solved in the
  // least-squares sense: the pseudo-inverse of the KKT matrix picks the least ‖λ‖ among
  // the multipliers that give the one q̈, as λ = −(Φ_qᵀ)⁺Q_c does.
  compare_formulations("redundant parallelogram (KKT least squares)", doc);
}

TEST_CASE("Udwadia-Kalaba with a duplicated hinge, asked to solve it: the load is shared equally") {
  json comps = {{"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}}}}}}},
                {"rod", rod(1.0, 2.0, 0.5, 0.0, 0.0)},
                {"hinge", {{"type", "mechanical.revolute"}}},
                {"hinge2", {{"type", "mechanical.revolute"}}}};
  json conns = links({{"ground.O", "hinge.a"}, {"rod.p", "hinge.b"}, {"ground.O", "hinge2.a"}, {"rod.p", "hinge2.b"}});
  json doc = mechanism(comps, conns, 0.5, json::array({"rod.alpha", "hinge.fy", "hinge2.fy", "rod.constraint_fy"}));
  CHECK_THROWS_WITH_AS(run(doc.dump()), doctest::Contains("redundant"), InputError);

  doc["world"]["constraints"]["redundant"] = "least_squares";
  RunResult r = run(with_formulation(doc, "udwadia_kalaba").dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  // Horizontal rod pinned at one end: α = −3g/(2L), the hinge carries m g/4, half each.
  const double g = 9.81, m = 2.0;
  CHECK(r.column("rod.alpha")[0] == doctest::Approx(-1.5 * g).epsilon(1e-12));
  CHECK(r.column("hinge.fy")[0] == doctest::Approx(m * g / 8).epsilon(1e-12));
  CHECK(r.column("hinge2.fy")[0] == doctest::Approx(m * g / 8).epsilon(1e-12));
  // Q_c on the body: the hinges' m g/4 upwards.
  CHECK(r.column("rod.constraint_fy")[0] == doctest::Approx(m * g / 4).epsilon(1e-12));
}

namespace {

// A horizontal rod (1 m, 2 kg) pinned at the origin and started with its mass centre
// moving up at 1 m/s: inconsistent with the hinge, which only allows vy = ω L/2.
json struck_rod(const std::string& formulation, const std::string& metric) {
  json comps = {{"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}}}}}}},
                {"rod", rod(1.0, 2.0, 0.5, 0.0, 0.0)},
                {"hinge", {{"type", "mechanical.revolute"}}}};
  comps["rod"]["initial"]["vy"] = 1.0;
  json doc = mechanism(comps, links({{"ground.O", "hinge.a"}, {"rod.p", "hinge.b"}}), 0.1, json::array({"rod.omega", "rod.vy"}),
                       {{"formulation", formulation}, {"projection_metric", metric}});
  return doc;
}

}  // namespace

TEST_CASE("mass-weighted velocity projection is the hinge's impulse: it keeps the angular momentum about the pivot") {
  // Euclidean: the least ‖δq̇‖ with δvy − δω/2 = −1 gives δ ∝ (0, 1, −1/2): ω = 0.4 rad/s.
  // Mass metric: δ ∝ M⁻¹(0, 1, −1/2) = (0, 1/m, −1/(2I)), ω = 1.5 rad/s, the value with
  // I_O ω = m L/2 · 1 m/s (angular momentum about O before = after, I_O = m L²/3).
  for (const std::string formulation : {"augmented_lagrangian", "kkt", "udwadia_kalaba"}) {
    CAPTURE(formulation);
    RunResult e = run(struck_rod(formulation, "euclidean").dump());
    RunResult m = run(struck_rod(formulation, "mass").dump());
    INFO(e.failure << m.failure);
    REQUIRE(e.finished);
    REQUIRE(m.finished);
    CHECK(e.column("rod.omega")[0] == doctest::Approx(0.4).epsilon(1e-12));
    CHECK(m.column("rod.omega")[0] == doctest::Approx(1.5).epsilon(1e-12));
    CHECK(m.column("rod.vy")[0] == doctest::Approx(0.75).epsilon(1e-12));
  }
}

TEST_CASE("projection after steps, Euclidean and mass-weighted, holds the four-bar to tolerance without Baumgarte") {
  // The four-bar as shipped but with α = β = 0 and a loose rtol (1e-6), so that drift is
  // real: without projection Φ grows; projected (either metric), every recorded point is
  // within the projection tolerance (1e-12 on each |Φ_i|, so ‖Φ‖ ≤ √8 · 1e-12), and the
  // energy error is the integrator's own, of the same size for both metrics.
  json doc = read_netlist("four_bar");
  doc["solver"]["rtol"] = 1e-6;
  doc["solver"]["atol"] = 1e-8;
  const std::vector<std::string> bodies = {"crank", "coupler", "rocker"};
  auto measure = [&](const std::string& formulation, bool projection, const std::string& metric, double& drift,
                     double& norm) {
    json d = doc;
    d["world"]["constraints"] = {{"alpha", 0}, {"beta", 0}, {"projection", projection}, {"projection_metric", metric},
                                 {"formulation", formulation}};
    RunResult r = run(d.dump());
    INFO(r.failure);
    REQUIRE(r.finished);
    drift = 0.0;
    const double e0 = energy(r, bodies, 0);
    for (size_t k = 0; k < r.column("time").size(); ++k) drift = std::max(drift, std::abs(energy(r, bodies, k) - e0));
    norm = r.summary["monitors"]["mechanism.constraint_norm"]["max_abs"].get<double>();
    MESSAGE(formulation << ", projection " << (projection ? metric : "off") << ": max ‖Φ‖ = " << norm
                        << ", max |E − E0| = " << drift << " J over " << d["solver"]["t_end"] << " s");
  };
  for (const std::string formulation : {"augmented_lagrangian", "kkt", "udwadia_kalaba"}) {
    double drift_off, norm_off, drift_e, norm_e, drift_m, norm_m;
    measure(formulation, false, "euclidean", drift_off, norm_off);
    measure(formulation, true, "euclidean", drift_e, norm_e);
    measure(formulation, true, "mass", drift_m, norm_m);
    CHECK(norm_e <= std::sqrt(8.0) * 1e-12);
    CHECK(norm_m <= std::sqrt(8.0) * 1e-12);
    CHECK(norm_off > 1e3 * norm_m);  // the drift projection removes
    // Comparable energy errors: neither metric does worse than twice the other.
    CHECK(drift_m <= 2.0 * drift_e);
    CHECK(drift_e <= 2.0 * drift_m);
  }
}

TEST_CASE("world.constraints.formulation and projection_metric are checked; servo constraints need KKT") {
  json doc = read_netlist("pendulum");
  doc["world"]["constraints"]["formulation"] = "lagrange";
  CHECK_THROWS_WITH_AS(load(doc.dump()), doctest::Contains("/world/constraints/formulation"), InputError);
  doc = read_netlist("pendulum");
  doc["world"]["constraints"]["projection_metric"] = "l1";
  CHECK_THROWS_WITH_AS(load(doc.dump()), doctest::Contains("/world/constraints/projection_metric"), InputError);

  // A servo driver (its motion imposed by an actuator's force) has no Udwadia–Kalaba form.
  doc = read_netlist("pendulum");
  doc["components"]["hold"] = {{"type", "mechanical.driver_angle"}, {"params", {{"servo", true}}}};
  doc["connections"].push_back({"bob.cm", "hold.a"});
  doc["world"]["constraints"]["formulation"] = "udwadia_kalaba";
  CHECK_THROWS_WITH_AS(run(doc.dump()), doctest::Contains("'hold'"), InputError);
}

TEST_CASE("jourdain check says how the default formulation solves: along the tree for an arm, iterating for a loop") {
  auto path_of = [](const std::string& name) {
    Netlist net = load(read_netlist(name).dump());
    Context ctx = net.model.make_context(0.0);
    net.model.initialize(ctx);
    return net.model.describe_blocks(ctx);
  };
  // The cantilever: a chain of revolutes (two equations per pair of bodies); the flexible
  // spin-up: a chain whose first joint is driven (three on that pair).
  const std::string chain = path_of("cantilever"), driven = path_of("flexible_spinup");
  CAPTURE(chain);
  CAPTURE(driven);
  CHECK(chain.find("one elimination along the tree (10 pairs of bodies, 2×2 blocks)") != std::string::npos);
  CHECK(driven.find("one elimination along the tree (11 pairs of bodies, 3×3 blocks)") != std::string::npos);
  // The four-bar closes a loop through the ground.
  const std::string loop = path_of("four_bar");
  CAPTURE(loop);
  CHECK(loop.find("accelerations by the multipliers' iteration (the constraints close loops") != std::string::npos);
}

TEST_CASE("augmented Lagrangian: a factorization kept from another evaluation gives what a fresh one does") {
  // The hydraulic excavator's bucket linkage closes a loop: its accelerations come from the
  // multipliers' iteration on the factorized M + Φ_qᵀAΦ_q, which is kept while Φ_q is what
  // it was factorized at. One Context is evaluated at a pose, at another pose (positions
  // moved: refactorized), then at that pose with other velocities and pressures (kept);
  // each must equal a Context that never saw the points before (the iteration starts cold,
  // so to the bit).
  Netlist net = load(read_text(netlist_path("excavator_hydraulic")));
  const Context start = state_at(net, 3.0);
  const auto names = net.model.state_names();
  Eigen::VectorXd moved = start.x, other_rates = start.x;
  for (int j = 0; j < net.model.state_count(); ++j) {
    const bool position = names[j].ends_with(".x") || names[j].ends_with(".y") || names[j].ends_with(".theta");
    if (position) moved[j] += 1e-7;
    other_rates[j] = moved[j] + (position ? 0.0 : 1e-4 * (1.0 + std::abs(moved[j])));
  }
  Context kept = start;
  const Eigen::VectorXd* points[] = {&start.x, &moved, &other_rates};
  for (const Eigen::VectorXd* x : points) {
    net.model.derivatives(kept, start.t, *x);
    Context fresh = net.model.make_context(0.0);
    net.model.initialize(fresh);
    fresh.discrete = start.discrete;  // the valves and the cycle as they are at t
    net.model.derivatives(fresh, start.t, *x);
    CHECK(kept.xdot == fresh.xdot);
    CHECK(kept.y == fresh.y);
  }
}
