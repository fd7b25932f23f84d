// arm_solver.cpp: the Udwadia–Kalaba solution on the reference arm (netlists/
// three_link_arm.json). The torques Q_c must be the inverse dynamics of the path's joint
// motion (three_link_arm.hpp, derived by hand); the drift of the tip away from the path
// must show what seed 002 claims: none drifts and grows, Baumgarte bounds it, projection
// holds it at rounding level.
#include <algorithm>
#include <cmath>
#include <fstream>

#include "jourdain_test.hpp"
#include "three_link_arm.hpp"

using namespace jourdain;
using jourdain::test::netlist_path;
using jourdain::test::run;
using json = nlohmann::json;

namespace {

json reference_netlist() {
  std::ifstream in(netlist_path("three_link_arm"));
  return json::parse(in);
}

double max_of(const std::vector<double>& v, size_t from, size_t to) {
  double m = 0;
  for (size_t k = from; k < to; ++k) m = std::max(m, std::abs(v[k]));
  return m;
}

// Largest |torque − inverse dynamics| over the recorded rows, N·m.
double torque_error(const RunResult& r) {
  const auto t = r.column("time");
  double worst = 0;
  for (size_t k = 0; k < t.size(); ++k) {
    const three_link::JointMotion m = three_link::on_path(t[k]);
    for (int i = 0; i < 3; ++i)
      worst = std::max(worst, std::abs(r.column("arm.torque" + std::to_string(i + 1))[k] - m.torque[i]));
  }
  return worst;
}

struct Drift {
  double max, first_quarter, last_quarter;
};
Drift drift_of(const RunResult& r) {
  const auto e = r.column("path.error");
  const size_t n = e.size();
  return {max_of(e, 0, n), max_of(e, 0, n / 4), max_of(e, 3 * n / 4, n)};
}

RunResult run_with(json doc, const json& path_params) {
  for (const auto& [k, v] : path_params.items()) doc["components"]["path"]["params"][k] = v;
  RunResult r = run(doc.dump());
  REQUIRE_MESSAGE(r.finished, r.failure);
  return r;
}

}  // namespace

TEST_CASE("three-link arm: tip drift with no correction, Baumgarte and projection (seed 002)") {
  const json doc = reference_netlist();
  const RunResult none = run_with(doc, {{"drift", "none"}});
  const RunResult baum = run_with(doc, {{"drift", "baumgarte"}, {"alpha", 10}, {"beta", 10}});
  const RunResult proj = run_with(doc, {{"drift", "projection"}});
  const RunResult mass = run_with(doc, {{"drift", "projection"}, {"projection_metric", "mass"}});
  const Drift dn = drift_of(none), db = drift_of(baum), dp = drift_of(proj), dm = drift_of(mass);
  MESSAGE("max |x − x_d| over 0…4π s (dopri5, rtol 1e-8, atol 1e-10): none " << dn.max << " m (first quarter "
          << dn.first_quarter << ", last quarter " << dn.last_quarter << "); Baumgarte α = β = 10: " << db.max
          << " m (first quarter " << db.first_quarter << ", last " << db.last_quarter << "); projection: " << dp.max
          << " m; mass-weighted projection: " << dm.max << " m");
  MESSAGE("steps: none " << none.stats.steps << ", Baumgarte " << baum.stats.steps << ", projection "
                         << proj.stats.steps);
  // Projection: each step ends on the path to the projection tolerance (1e-12 m), and the
  // recorded points are projected too.
  CHECK(dp.max <= 1e-12);
  CHECK(dm.max <= 1e-12);
  // No correction: the integrator's local errors (rtol 1e-8 of ~1 m) accumulate with
  // nothing pulling the tip back: the error grows and ends far above rounding level.
  CHECK(dn.last_quarter > 2.0 * dn.first_quarter);
  CHECK(dn.max > 1e3 * dp.max);
  // Baumgarte: the error is driven only by the local errors of the last ~1/β s, so it
  // stays at their size, below the uncorrected drift, and does not grow.
  CHECK(db.max < dn.max);
  CHECK(db.last_quarter <= 2.0 * db.first_quarter + 1e-12);
  // Whatever the drift control, the torques are the same to within what the drift moves
  // them: the tip is on the path to these errors.
  const double tn = torque_error(none), tb = torque_error(baum), tp = torque_error(proj), tm = torque_error(mass);
  MESSAGE("max |Q_c − (M q̈ + h)| along the path: none " << tn << ", Baumgarte " << tb << ", projection " << tp
                                                         << ", mass-weighted projection " << tm << " N·m");
  // With the state on the path to 1e-12 m and its rates to 1e-12 m/s, the torques follow
  // to ~1e-10 N·m (sensitivities of O(10–100) N·m per m): 1e-9 leaves a margin of ten.
  CHECK(tp < 1e-9);
  CHECK(tm < 1e-9);
}

TEST_CASE("three-link arm: a redundant constraint (the same path twice) leaves the motion and torques unchanged") {
  // A = [J; J] has rank 3 of 6 rows: the Moore–Penrose inverse splits the tip force
  // between the two paths and Q_c stays the inverse dynamics.
  json doc = reference_netlist();
  doc["components"]["path2"] = doc["components"]["path"];
  doc["connections"].push_back({"arm.tip", "path2.tip"});
  doc["record"].push_back("path2.error");
  const RunResult r = run(doc.dump());
  REQUIRE_MESSAGE(r.finished, r.failure);
  const double te = torque_error(r), err = drift_of(r).max;
  MESSAGE("two identical paths: max |Q_c − (M q̈ + h)| " << te << " N·m, max tracking error " << err << " m");
  CHECK(te < 1e-9);
  CHECK(err <= 1e-12);
}

TEST_CASE("three-link arm: parameters are checked and named") {
  json doc = reference_netlist();
  auto fails_with = [&](const std::string& where, const json& value, const std::string& needle) {
    json d = doc;
    d["components"]["arm"]["params"][where] = value;
    try {
      jourdain::test::load(d.dump());
      FAIL("accepted " << where << " = " << value.dump());
    } catch (const InputError& e) {
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(what.find("'" + where + "'") != std::string::npos);
      CHECK(what.find(needle) != std::string::npos);
    }
  };
  fails_with("joints", "RXR", "neither R");
  fails_with("axes", json::array({{0, 0, 1}, {0, -1, 0}}), "one row per joint");
  fails_with("axes", json::array({{0, 0, 1}, {0, 0, 0}, {0, -1, 0}}), "must not be zero");
  fails_with("masses", json::array({1, 1}), "one mass per link");
  fails_with("inertias", json::array({{1, 1, 0}, {0, -1, 1}, {0, 1, 1}}), "positive semi-definite");
  fails_with("tip", json::array({1, 0}), "3 numbers");
}

TEST_CASE("a free arm (no path) conserves its energy: M, h and the solver agree with T + V") {
  // Without constraints the solver's q̈ = M⁻¹(−h). Energy is conserved only if h is the
  // true C q̇ + G of the M used (a wrong Coriolis or gravity term shows as drift of
  // O(1) J). dopri5 at rtol 1e-10 over 3 s: the drift is bounded by the accumulated
  // local error, ~1e-10 × (steps ~1e3) × (energy ~30 J); 1e-6 J leaves a margin.
  json doc = reference_netlist();
  doc["components"].erase("path");
  doc["connections"] = json::array();
  doc["components"]["arm"]["initial"] = {{"q2", 0.3}, {"q3", -0.5}, {"qd1", 2.0}, {"qd3", 1.0}};
  doc["solver"] = {{"method", "dopri5"}, {"t_end", 3.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.01}};
  doc["record"] = {"arm.kinetic_energy", "arm.potential_energy", "arm.torque1"};
  const RunResult r = run(doc.dump());
  REQUIRE_MESSAGE(r.finished, r.failure);
  const auto T = r.column("arm.kinetic_energy"), V = r.column("arm.potential_energy");
  double drift = 0, swing = 0;
  for (size_t k = 0; k < T.size(); ++k) {
    drift = std::max(drift, std::abs(T[k] + V[k] - T[0] - V[0]));
    swing = std::max(swing, std::abs(T[k] - T[0]));
  }
  MESSAGE("free arm over 3 s: energy drift " << drift << " J while the kinetic energy swings by " << swing << " J");
  CHECK(swing > 1.0);  // the arm really moves
  CHECK(drift < 1e-6);
  CHECK(max_of(r.column("arm.torque1"), 0, T.size()) == 0.0);  // no constraint, no torque
}

TEST_CASE("three-link arm: Baumgarte gains and the projection tolerance set per run, bit for bit") {
  // The arm solver reads the path's numeric parameters through the path, from the run's
  // Context (Model::set_parameter): a loaded model given other values must run as the
  // netlist written with them does. The drift control itself is configuration.
  for (const char* drift : {"baumgarte", "projection"}) {
    INFO(drift);
    json doc = reference_netlist();
    doc["components"]["path"]["params"]["drift"] = drift;
    const json values = std::string(drift) == "baumgarte" ? json{{"alpha", "4 1/s"}, {"beta", 6}}
                                                          : json{{"projection_tolerance", "1 nm"}};
    const Netlist loaded = test::load(doc.dump());
    RunOptions o;
    o.keep_rows = true;
    for (const auto& [k, v] : values.items()) o.parameters.emplace_back("path." + k, v);
    const RunResult per_run = run_netlist(loaded, o);
    REQUIRE_MESSAGE(per_run.finished, per_run.failure);
    const RunResult written = run_with(doc, values);
    CHECK(per_run.rows.size() > 100);
    CHECK(per_run.rows == written.rows);
    CHECK(per_run.stats.steps == written.stats.steps);
    CHECK(per_run.rows != run_with(doc, json::object()).rows);  // the netlist's own values differ

    Context ctx = loaded.model.make_context(0.0);
    CHECK_THROWS_WITH_AS(loaded.model.set_parameter(ctx, "path.drift", "none"),
                         doctest::Contains("parameter 'drift' is configuration"), InputError);
  }
}
