// Singular configurations and the results a run vouches for (components/mechanical/
// README.md, "Singular configurations" and "Accuracy warnings"): passes through a singular
// pose are logged as events; a run whose constraints drift beyond
// world.constraints.tolerance, whose projection moves the mechanism that far (it may have
// changed branch) or that passes a singular pose with a formulation that cannot follow it
// ends with an accuracy warning, and a strict run fails on it, its results kept.
#include <cmath>

#include "mechanism_netlist.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const json ground = {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}}}}}};

// A slider-crank whose rod is as long as its crank (r = 0.1 m): the slider moves as
// x = 2 r cos θ and, at θ = 90°, reaches the crank's pivot, where the rod folds back onto
// the crank. There the Jacobian loses rank and a second branch crosses the motion (the
// slider staying at the pivot while crank and rod turn together). No gravity: the crank,
// started at 30° with 10 rad/s, turns on through its folds.
json folding_slider_crank() {
  const double r = 0.1, th = M_PI / 6, w = 10.0;
  const double ax = r * std::cos(th), ay = r * std::sin(th);
  json comps = {{"ground", ground},
                {"crank", rod(r, 1.0, ax / 2, ay / 2, th, w)},
                {"link", rod(r, 1.0, 1.5 * ax, ay / 2, -th, -w)},
                {"slider", {{"type", "mechanical.body"}, {"params", {{"mass", 0.5}, {"inertia", 0.01}}},
                            {"initial", {{"x", 2 * ax}, {"y", 0.0}, {"vx", -2 * r * std::sin(th) * w}}}}},
                {"pin_O", {{"type", "mechanical.revolute"}}},
                {"pin_A", {{"type", "mechanical.revolute"}}},
                {"pin_B", {{"type", "mechanical.revolute"}}},
                {"rail", {{"type", "mechanical.translational"}}}};
  // The link's centre moves with (A + B)/2: its velocity, from A's and B's.
  comps["crank"]["initial"]["vx"] = -ay / 2 * w;
  comps["crank"]["initial"]["vy"] = ax / 2 * w;
  comps["link"]["initial"]["vx"] = 0.5 * (-ay * w - 2 * r * std::sin(th) * w);
  comps["link"]["initial"]["vy"] = 0.5 * ax * w;
  json conns = links({{"ground.O", "pin_O.a"}, {"crank.p", "pin_O.b"}, {"crank.q", "pin_A.a"}, {"link.p", "pin_A.b"},
                      {"link.q", "pin_B.a"}, {"slider.cm", "pin_B.b"}, {"ground.O", "rail.a"}, {"slider.cm", "rail.b"}});
  json doc = mechanism(comps, conns, 1.0, json::array({"crank.theta", "crank.omega", "slider.x"}), json::object(), 0.0);
  doc["solver"]["rtol"] = 1e-10;
  doc["solver"]["atol"] = 1e-12;
  doc["solver"]["output_interval"] = 0.005;
  return doc;
}

std::vector<const EventRecord*> entering(const RunResult& r) {
  std::vector<const EventRecord*> out;
  for (const auto& e : r.events)
    if (e.description.rfind("enters a singular configuration", 0) == 0) out.push_back(&e);
  return out;
}

}  // namespace

TEST_CASE("a slider-crank with rod = crank: each fold is logged as a singular pass, and the run follows its branch") {
  RunResult r = run(folding_slider_crank().dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  CHECK(r.accuracy_warnings.empty());
  // The slider stays on x = 2 r cos θ through the folds (the other branch would keep it at 0).
  const auto th = r.column("crank.theta"), x = r.column("slider.x");
  double off = 0;
  for (size_t k = 0; k < th.size(); ++k) off = std::max(off, std::abs(x[k] - 0.2 * std::cos(th[k])));
  MESSAGE("largest |x − 2 r cos θ| " << off << " m");
  CHECK(off < 1e-9);  // positions projected to 1e-12 at every step and recorded point
  // The crank turns through θ = 90° + k·180° during the second; each crossing is one pass,
  // logged where the crank angle is at the fold (interpolated on 5 ms rows, θ̇ ~ 10 rad/s).
  const auto passes = entering(r);
  int folds = 0;
  for (size_t k = 1; k < th.size(); ++k)
    folds += std::floor((th[k] - M_PI / 2) / M_PI) != std::floor((th[k - 1] - M_PI / 2) / M_PI);
  REQUIRE(folds >= 2);
  CHECK(static_cast<int>(passes.size()) == folds);
  for (const EventRecord* e : passes) {
    const double angle = at_time(r, "crank.theta", e->time);
    CAPTURE(e->time);
    CHECK(std::abs(std::remainder(angle - M_PI / 2, M_PI)) < 1e-3);
    CHECK(e->description.find("pin_") != std::string::npos);  // the joints involved are named
  }
  // Each pass is left as soon as it is entered: a leaving event follows each entering one.
  int leaving = 0;
  for (const auto& e : r.events) leaving += e.description.rfind("leaves the singular configuration", 0) == 0;
  CHECK(leaving == folds);
}

TEST_CASE("passing a singular configuration with the KKT formulation is never a quiet finish") {
  json doc = folding_slider_crank();
  doc["world"]["constraints"] = {{"formulation", "kkt"}, {"projection", true}};
  RunResult r = run(doc.dump());
  MESSAGE("KKT: " << (r.finished ? "finished" : "failed: " + r.failure) << ", " << r.accuracy_warnings.size()
                  << " accuracy warning(s)");
  CHECK((!r.finished || !r.accuracy_warnings.empty()));
  if (r.finished) {
    CHECK(r.accuracy_warnings.front().find("singular configuration") != std::string::npos);
    CHECK(r.summary["accuracy_warnings"].size() == r.accuracy_warnings.size());
  }
}

TEST_CASE("a kinematic analysis through the fold logs it as a singular pass") {
  json doc = folding_slider_crank();
  doc["components"]["motor"] = {{"type", "mechanical.driver_angle"},
                                {"params", {{"law", "polynomial"}, {"coefficients", {M_PI / 6, 10.0}}}}};
  doc["connections"].push_back({"crank.cm", "motor.a"});
  doc["analysis"] = "kinematic";
  doc["solver"] = {{"t_end", 0.5}, {"output_interval", 0.01}};
  RunResult r = run(doc.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  // θ = π/6 + 10 t crosses π/2 at t = π/30 and 3π/2 at t = 4π/30.
  const auto passes = entering(r);
  REQUIRE(passes.size() == 2);
  CHECK(passes[0]->time == doctest::Approx(M_PI / 30).epsilon(1e-5));
  CHECK(passes[1]->time == doctest::Approx(4 * M_PI / 30).epsilon(1e-5));
}

namespace {

// The pendulum of a rigid rod pinned at one end, run by rk4 at a step so long that each
// step leaves the hinge by millimetres: the projection after it moves the rod that far,
// as it does when a step jumps to another assembly branch.
json coarse_pendulum() {
  json comps = {{"ground", ground}, {"rod", rod(1.0, 2.0, 0.5, 0.0, 0.0)}, {"hinge", {{"type", "mechanical.revolute"}}}};
  json doc = mechanism(comps, links({{"ground.O", "hinge.a"}, {"rod.p", "hinge.b"}}), 2.0, json::array({"rod.theta"}));
  doc["solver"] = {{"method", "rk4"}, {"t_end", 2.0}, {"step", 0.1}, {"output_interval", 0.1}};
  return doc;
}

}  // namespace

TEST_CASE("a projection beyond world.constraints.tolerance warns that the run may have changed branch; strict runs "
          "fail on it, with everything written") {
  RunResult r = run(coarse_pendulum().dump());
  INFO(r.failure);
  REQUIRE(r.finished);  // not strict: finished, but not vouched for
  REQUIRE(r.accuracy_warnings.size() == 1);
  CHECK(r.accuracy_warnings[0].find("another assembly branch") != std::string::npos);
  CHECK(r.accuracy_warnings[0].find("world.constraints.tolerance") != std::string::npos);
  CHECK(r.summary["status"] == "finished");
  CHECK(r.summary["accuracy_warnings"].size() == 1);
  CHECK(r.summary["strict"] == false);

  // A looser tolerance vouches for it.
  json loose = coarse_pendulum();
  loose["world"]["constraints"]["tolerance"] = 0.1;
  RunResult l = run(loose.dump());
  REQUIRE(l.finished);
  CHECK(l.accuracy_warnings.empty());

  // Strict, from the netlist: the run fails at its end, its rows kept and its summary
  // written with the failure.
  json strict = coarse_pendulum();
  strict["strict"] = true;
  TempDir dir;
  RunResult s = run_file([&] {
    write_text(dir.path() / "coarse.json", strict.dump());
    return dir.path() / "coarse.json";
  }(), {}, dir.path() / "out");
  CHECK_FALSE(s.finished);
  CHECK(s.failure.rfind("strict run: the results are not vouched for", 0) == 0);
  CHECK(s.rows.size() == r.rows.size());
  const json summary = json::parse(read_text(dir.path() / "out" / "summary.json"));
  CHECK(summary["status"] == "failed");
  CHECK(summary["strict"] == true);
  CHECK(summary["failure"]["message"].get<std::string>().find("another assembly branch") != std::string::npos);
  CHECK(std::filesystem::exists(dir.path() / "out" / "results.csv"));

  // Strict from the run's options, the same.
  Netlist net = load(coarse_pendulum().dump());
  RunOptions options;
  options.keep_rows = true;
  options.strict = true;
  RunResult o = run_netlist(net, options);
  CHECK_FALSE(o.finished);
  CHECK(o.rows.size() == r.rows.size());
}

TEST_CASE("a constraint violation beyond world.constraints.tolerance is an accuracy warning") {
  // The four-bar without stabilization or projection at a loose rtol drifts off its
  // constraints (test_formulations.cpp); its largest violation is reported against the
  // tolerance.
  json doc = json::parse(read_text(netlist_path("four_bar")));
  doc["world"]["constraints"] = {{"formulation", "kkt"}, {"alpha", 0}, {"beta", 0}, {"projection", false}};
  doc["solver"]["rtol"] = 1e-6;
  doc["solver"]["atol"] = 1e-8;
  RunResult r = run(doc.dump());
  REQUIRE(r.finished);
  const double drift = r.summary["monitors"]["mechanism.constraint_norm"]["max_abs"];
  MESSAGE("largest ‖Φ‖ " << drift << " m");
  REQUIRE(drift > 1e-6);
  REQUIRE(r.accuracy_warnings.size() == 1);
  CHECK(r.accuracy_warnings[0].find("mechanism.constraint_norm reached") != std::string::npos);
  CHECK(r.accuracy_warnings[0].find("world.constraints.tolerance = 1e-06 m") != std::string::npos);
  // Held (the netlist's own settings): nothing to report.
  RunResult held = run_file(netlist_path("four_bar"));
  REQUIRE(held.finished);
  CHECK(held.accuracy_warnings.empty());
}

TEST_CASE("world.constraints.tolerance and penalty are checked with their JSON path") {
  json doc = coarse_pendulum();
  doc["world"]["constraints"]["tolerance"] = 0;
  CHECK_THROWS_WITH_AS(load(doc.dump()), doctest::Contains("/world/constraints/tolerance"), InputError);
  doc = coarse_pendulum();
  doc["world"]["constraints"]["penalty"] = -1;
  CHECK_THROWS_WITH_AS(load(doc.dump()), doctest::Contains("/world/constraints/penalty"), InputError);
  doc = coarse_pendulum();
  doc["strict"] = "yes";
  CHECK_THROWS_WITH_AS(load(doc.dump()), doctest::Contains("/strict"), InputError);
}
