// Electrical circuits against their closed forms: RC charging, the series RLC step
// response, the LC oscillator's energy, the Kirchhoff node (series R–L, a star of
// branches, an open branch), sources and the switch; the resistor's heat port.
//
// Tolerances: dopri5 at rtol 1e-10, atol 1e-12 keeps the local error of each step near
// 1e-10 of the values (volts and amperes of order 1 to 10); over a few hundred steps the
// global error stays below about 1e-8 of the scale, so the checks allow 1e-7 of it. Values
// at t = 0 involve no integration (only the algebraic solve, to 1e-10) and are checked to
// 1e-9.
#include <cmath>

#include <nlohmann/json.hpp>

#include "electrical_test_util.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

const json kTight = {{"method", "dopri5"}, {"rtol", 1e-10}, {"atol", 1e-12}};

json solver(double t_end, double interval) {
  json s = kTight;
  s["t_end"] = t_end;
  s["output_interval"] = interval;
  return s;
}

}  // namespace

TEST_CASE("RC charging from a voltage source follows V (1 − e^(−t/RC))") {
  // 10 V through 1 kΩ into 1 mF: τ = 1 s.
  json n = {
      {"components",
       {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "10 V"}}}}},
        {"R", {{"type", "electrical.resistor"}, {"params", {{"resistance", "1 kV/A"}}}}},
        {"C", {{"type", "electrical.capacitor"}, {"params", {{"capacitance", "1 mA*s/V"}}}}},
        {"gnd", {{"type", "electrical.ground"}}}}},
      {"connections", test::wires({{"src.p", "R.p"}, {"R.n", "C.p"}, {"C.n", "gnd.p"}, {"src.n", "gnd.p"}})},
      {"record", {"C.v", "R.current", "src.current", "src.power", "R.loss", "C.energy", "gnd.current"}},
      {"solver", solver(5.0, 0.05)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const double V = 10.0, R = 1000.0, C = 1e-3, tau = R * C;
  CHECK(test::max_error(r, "C.v", [&](double t) { return V * (1 - std::exp(-t / tau)); }) < 1e-7 * V);
  CHECK(test::max_error(r, "R.current", [&](double t) { return V / R * std::exp(-t / tau); }) < 1e-7 * V / R);
  // The source drives the same current out of p; it delivers V i, the resistor burns R i².
  CHECK(test::max_error(r, "src.current", [&](double t) { return V / R * std::exp(-t / tau); }) < 1e-7 * V / R);
  CHECK(test::max_error(r, "src.power", [&](double t) { return V * V / R * std::exp(-t / tau); }) < 1e-7 * V * V / R);
  CHECK(test::max_error(r, "R.loss", [&](double t) { return V * V / R * std::exp(-2 * t / tau); }) <
        1e-7 * V * V / R);
  CHECK(test::max_error(r, "C.energy", [&](double t) {
          const double v = V * (1 - std::exp(-t / tau));
          return 0.5 * C * v * v;
        }) < 1e-7 * C * V * V);
  // Energy roles: what the source supplies is what the resistor loses plus the rate of
  // the capacitor's stored energy, d(½ C v²)/dt = v i, at every row (no integration).
  {
    const auto ps = r.column("src.power"), loss = r.column("R.loss"), v = r.column("C.v"), i = r.column("R.current");
    for (size_t k = 0; k < ps.size(); ++k) CHECK(ps[k] == doctest::Approx(loss[k] + v[k] * i[k]).epsilon(1e-12));
  }
  // The current returns to the source through the ground: Σ into the ground is zero.
  CHECK(test::max_error(r, "gnd.current", [](double) { return 0.0; }) < 1e-15);
}

TEST_CASE("series RLC: underdamped step response of the capacitor voltage and the current") {
  // 1 V step into R = 2 Ω, L = 0.1 H, C = 1 mF in series: ω0 = 1/√(LC) = 100 rad/s,
  // ζ = (R/2) √(C/L) = 0.1. The resistor and the inductor, two branches, meet at a node.
  json n = {
      {"components",
       {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "1 V"}}}}},
        {"R", {{"type", "electrical.resistor"}, {"params", {{"resistance", "2 V/A"}}}}},
        {"mid", {{"type", "electrical.node"}}},
        {"L", {{"type", "electrical.inductor"}, {"params", {{"inductance", "0.1 V*s/A"}}}}},
        {"C", {{"type", "electrical.capacitor"}, {"params", {{"capacitance", "1 mA*s/V"}}}}},
        {"gnd", {{"type", "electrical.ground"}}}}},
      {"connections",
       test::wires({{"src.p", "R.p"}, {"R.n", "mid.p"}, {"L.p", "mid.p"}, {"L.n", "C.p"}, {"C.n", "gnd.p"}, {"src.n", "gnd.p"}})},
      {"record", {"C.v", "L.i", "mid.p.v", "mid.current_balance"}},
      {"solver", solver(0.3, 1e-4)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const double V = 1.0, R = 2.0, L = 0.1, C = 1e-3;
  const double w0 = 1 / std::sqrt(L * C), zeta = R / 2 * std::sqrt(C / L);
  const double sigma = zeta * w0, wd = w0 * std::sqrt(1 - zeta * zeta);
  auto vc = [&](double t) {
    return V * (1 - std::exp(-sigma * t) * (std::cos(wd * t) + sigma / wd * std::sin(wd * t)));
  };
  auto i = [&](double t) { return V / (L * wd) * std::exp(-sigma * t) * std::sin(wd * t); };
  CHECK(test::max_error(r, "C.v", vc) < 1e-7);
  CHECK(test::max_error(r, "L.i", i) < 1e-7 * V / (L * wd));
  // The node sits at V − R i, and Kirchhoff's law holds there to the Newton tolerance.
  CHECK(test::max_error(r, "mid.p.v", [&](double t) { return V - R * i(t); }) < 1e-7);
  CHECK(test::max_error(r, "mid.current_balance", [](double) { return 0.0; }) < 1e-9);
  // First overshoot: 1 + e^(−πζ/√(1−ζ²)) at t = π/ω_d (read between rows 0.1 ms apart:
  // the linear interpolation misses the peak by v'' Δt²/8 ≈ 1e-5).
  CHECK(test::at_time(r, "C.v", M_PI / wd) ==
        doctest::Approx(1 + std::exp(-M_PI * zeta / std::sqrt(1 - zeta * zeta))).epsilon(1e-4));
}

TEST_CASE("LC oscillator: ½ L i² + ½ C v² is conserved to the integrator's accuracy") {
  // C = 1 mF charged to 10 V discharges into L = 10 mH: ω = 1/√(LC) ≈ 316 rad/s, 10 periods.
  json n = {
      {"components",
       {{"L", {{"type", "electrical.inductor"}, {"params", {{"inductance", "10 mV*s/A"}}}}},
        {"C", {{"type", "electrical.capacitor"}, {"params", {{"capacitance", "1 mA*s/V"}}}, {"initial", {{"v", 10}}}}},
        {"gnd", {{"type", "electrical.ground"}}}}},
      {"connections", test::wires({{"L.p", "C.p"}, {"L.n", "gnd.p"}, {"C.n", "gnd.p"}})},
      {"record", {"C.v", "L.i", "L.energy", "C.energy"}},
      {"solver", solver(0.2, 1e-4)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const double L = 0.01, C = 1e-3, V0 = 10.0, w = 1 / std::sqrt(L * C), E0 = 0.5 * C * V0 * V0;
  const auto el = r.column("L.energy"), ec = r.column("C.energy");
  double drift = 0.0;
  for (size_t k = 0; k < el.size(); ++k) drift = std::max(drift, std::abs(el[k] + ec[k] - E0));
  // dopri5 is not symplectic: its energy error grows with the number of steps (a few
  // thousand here, each near rtol): well below 1e-6 of E0.
  CHECK(drift < 1e-6 * E0);
  // v = V0 cos ωt; the inductor's current, from p to n, is drawn out of the capacitor:
  // i = V0 √(C/L) sin ωt.
  CHECK(test::max_error(r, "C.v", [&](double t) { return V0 * std::cos(w * t); }) < 1e-6 * V0);
  CHECK(test::max_error(r, "L.i", [&](double t) { return V0 * std::sqrt(C / L) * std::sin(w * t); }) <
        1e-6 * V0 * std::sqrt(C / L));
}

TEST_CASE("node between a resistor and an inductor: i = V/R (1 − e^(−Rt/L)), v = V − R i") {
  // 12 V, R = 4 Ω, L = 20 mH: τ = 5 ms.
  json n = {
      {"components",
       {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "12 V"}}}}},
        {"R", {{"type", "electrical.resistor"}, {"params", {{"resistance", "4 V/A"}}}}},
        {"x", {{"type", "electrical.node"}}},
        {"L", {{"type", "electrical.inductor"}, {"params", {{"inductance", "20 mV*s/A"}}}}},
        {"gnd", {{"type", "electrical.ground"}}}}},
      {"connections", test::wires({{"src.p", "R.p"}, {"R.n", "x.p"}, {"L.p", "x.p"}, {"L.n", "gnd.p"}, {"src.n", "gnd.p"}})},
      {"record", {"L.i", "x.p.v", "R.current", "L.voltage"}},
      {"solver", solver(0.03, 2.5e-4)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const double V = 12, R = 4, L = 0.02, tau = L / R;
  auto i = [&](double t) { return V / R * (1 - std::exp(-t / tau)); };
  CHECK(test::max_error(r, "L.i", i) < 1e-7 * V / R);
  CHECK(test::max_error(r, "R.current", i) < 1e-7 * V / R);
  CHECK(test::max_error(r, "x.p.v", [&](double t) { return V - R * i(t); }) < 1e-7 * V);
  CHECK(test::max_error(r, "L.voltage", [&](double t) { return V * std::exp(-t / tau); }) < 1e-7 * V);
  CHECK(r.column("x.p.v").front() == doctest::Approx(V).epsilon(1e-9));
  // The node and the resistor's pin at it make one implicit block: the node's potential
  // (its unknown) and the loop variables, solved by Newton's method at every evaluation.
  Netlist built = test::load(n.dump());
  int blocks = 0;
  for (const auto& step : built.model.schedule().steps)
    if (step.implicit) {
      ++blocks;
      CHECK(step.unknowns.size() == 1);
      CHECK(step.components.size() == 2);
    }
  CHECK(blocks == 1);
  CHECK(r.stats.algebraic_iterations > 0);
}

TEST_CASE("node joining a star of branches: Millman's theorem; an open branch carries nothing") {
  // Three sources behind resistors meet at one node (a tree: no mesh but through the
  // ground); a fourth resistor hangs from the node with its other end at a node of its
  // own and nothing else there: it carries no current and that node sits at the star's
  // potential. v = Σ (V_k/R_k) / Σ (1/R_k).
  json n = {{"components", json::object()}, {"connections", json::array()}, {"record", json::array()}};
  auto& c = n["components"];
  c["gnd"] = {{"type", "electrical.ground"}};
  c["star"] = {{"type", "electrical.node"}};
  c["tip"] = {{"type", "electrical.node"}};
  c["Rtip"] = {{"type", "electrical.resistor"}, {"params", {{"resistance", "3 V/A"}}}};
  const double V[] = {10.0, -4.0, 6.0}, R[] = {1.0, 2.0, 5.0};
  for (int k = 0; k < 3; ++k) {
    const std::string s = std::to_string(k);
    c["V" + s] = {{"type", "electrical.voltage_source"}, {"params", {{"voltage", V[k]}}}};
    c["R" + s] = {{"type", "electrical.resistor"}, {"params", {{"resistance", R[k]}}}};
    n["connections"].push_back({"V" + s + ".n", "gnd.p"});
    n["connections"].push_back({"V" + s + ".p", "R" + s + ".p"});
    n["connections"].push_back({"R" + s + ".n", "star.p"});
    n["record"].push_back("R" + s + ".current");
  }
  n["connections"].push_back({"Rtip.p", "star.p"});
  n["connections"].push_back({"Rtip.n", "tip.p"});
  n["record"].push_back("star.p.v");
  n["record"].push_back("tip.p.v");
  n["record"].push_back("Rtip.current");
  n["solver"] = solver(0.01, 0.005);
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  double num = 0, den = 0;
  for (int k = 0; k < 3; ++k) num += V[k] / R[k], den += 1 / R[k];
  const double v = num / den;
  for (double x : r.column("star.p.v")) CHECK(x == doctest::Approx(v).epsilon(1e-9));
  for (double x : r.column("tip.p.v")) CHECK(x == doctest::Approx(v).epsilon(1e-9));
  for (double x : r.column("Rtip.current")) CHECK(std::abs(x) < 1e-9);
  double sum = 0;
  for (int k = 0; k < 3; ++k) {
    const double i = r.column("R" + std::to_string(k) + ".current").front();
    CHECK(i == doctest::Approx((V[k] - v) / R[k]).epsilon(1e-9));
    sum += i;
  }
  CHECK(std::abs(sum) < 1e-9);
}

TEST_CASE("a node joining only current-imposing branches is refused by the block solver") {
  // Two inductors in series through a node: the node's residual (the sum of two state
  // currents) does not depend on its potential, which is then undetermined.
  json n = {
      {"components",
       {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "1 V"}}}}},
        {"L1", {{"type", "electrical.inductor"}}},
        {"x", {{"type", "electrical.node"}}},
        {"L2", {{"type", "electrical.inductor"}}},
        {"gnd", {{"type", "electrical.ground"}}}}},
      {"connections", test::wires({{"src.p", "L1.p"}, {"L1.n", "x.p"}, {"L2.p", "x.p"}, {"L2.n", "gnd.p"}, {"src.n", "gnd.p"}})},
      {"solver", solver(0.01, 0.005)}};
  RunResult r = test::run(n.dump());
  CHECK_FALSE(r.finished);
  CHECK(r.failure.find("singular") != std::string::npos);
  CHECK(r.failure.find("x") != std::string::npos);
}

TEST_CASE("current source into a resistor: v = I R, and the power it supplies is I² R") {
  json n = {
      {"components",
       {{"I", {{"type", "electrical.current_source"}, {"params", {{"current", "2 A"}}}}},
        {"x", {{"type", "electrical.node"}}},
        {"R", {{"type", "electrical.resistor"}, {"params", {{"resistance", "5 V/A"}}}}},
        {"gnd", {{"type", "electrical.ground"}}}}},
      // I drives 2 A out of its p into x; R takes it from x to the ground.
      {"connections", test::wires({{"I.p", "x.p"}, {"I.n", "gnd.p"}, {"R.p", "x.p"}, {"R.n", "gnd.p"}})},
      {"record", {"x.p.v", "I.voltage", "I.power", "R.loss"}},
      {"solver", solver(0.01, 0.005)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  CHECK(r.column("x.p.v").front() == doctest::Approx(10.0).epsilon(1e-9));
  CHECK(r.column("I.voltage").front() == doctest::Approx(10.0).epsilon(1e-9));
  CHECK(r.column("I.power").front() == doctest::Approx(20.0).epsilon(1e-9));
  CHECK(r.column("R.loss").front() == doctest::Approx(20.0).epsilon(1e-9));
}

TEST_CASE("resistor heat port: it returns R(T) i² as heat, R(T) = R (1 + α (T − T_ref)), counted once") {
  // 2 A from a current source through R = 5 Ω at 60 °C (α = 0.004/K, T_ref = 20 °C):
  // R(T) = 5 (1 + 0.004 · 40) = 5.8 Ω, so v = 11.6 V and the heat flow is I² R(T) = 23.2 W,
  // all of it into the surroundings the heat port is on.
  json n = {
      {"components",
       {{"I", {{"type", "electrical.current_source"}, {"params", {{"current", "2 A"}}}}},
        {"x", {{"type", "electrical.node"}}},
        {"R", {{"type", "electrical.resistor"},
               {"params", {{"resistance", "5 V/A"}, {"heat_port", true}, {"temperature_coefficient", "0.004 1/K"}}}}},
        {"air", {{"type", "thermal.fixed_temperature"}, {"params", {{"temperature", "60 degC"}}}}},
        {"gnd", {{"type", "electrical.ground"}}}}},
      {"connections", test::wires({{"I.p", "x.p"}, {"I.n", "gnd.p"}, {"R.p", "x.p"}, {"R.n", "gnd.p"}, {"R.heat", "air.p"}})},
      {"record", {"x.p.v", "R.loss", "R.heat.Q", "air.heat_flow"}},
      {"energy", true},
      {"solver", solver(0.01, 0.005)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const double resistance = 5.0 * (1.0 + 0.004 * 40.0), heat = 2.0 * 2.0 * resistance;
  CHECK(r.column("x.p.v").front() == doctest::Approx(2.0 * resistance).epsilon(1e-9));
  CHECK(r.column("R.heat.Q").front() == doctest::Approx(heat).epsilon(1e-9));
  CHECK(r.column("R.loss").front() == r.column("R.heat.Q").front());
  CHECK(r.column("air.heat_flow").front() == r.column("R.heat.Q").front());
  // The heat leaves through the port, not as a loss: the resistor loses nothing itself,
  // its port carries I² R(T) t, which the surroundings take.
  const json& e = r.summary.at("energy");
  CHECK(e["components"]["R"].value("lost", 0.0) == 0.0);
  CHECK(e["components"]["R"]["ports"]["heat"]["out"].get<double>() == doctest::Approx(heat * 0.01).epsilon(1e-9));
  CHECK(e["total"]["lost"].get<double>() == 0.0);
  CHECK(e["total"]["relative_balance_residual"].get<double>() < 1e-9);
}

TEST_CASE("resistor heat port: charging a capacitor heats the resistor by ½ C V², whatever R(T)") {
  // 10 V through 1 kΩ (α = 0.004/K) into 1 mF. The resistor's heat warms its own heat
  // capacity (10 mJ/K), and R follows that temperature; the charge takes τ ≈ 1 s. Whatever
  // R does, the source gives C V² and the capacitor keeps ½ C V²: the resistor turns
  // ½ C V² = 50 mJ into heat, 5 K on its capacity. At every row its heat flow is
  // i² R(T) at the recorded temperature.
  const double V = 10.0, C = 1e-3, C_th = 1e-2, alpha = 0.004;
  json n = {
      {"components",
       {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "10 V"}}}}},
        {"R", {{"type", "electrical.resistor"},
               {"params", {{"resistance", "1 kV/A"}, {"heat_port", true}, {"temperature_coefficient", alpha}}}}},
        {"body", {{"type", "thermal.heat_capacity"}, {"params", {{"heat_capacity", C_th}}}, {"initial", {{"T", 293.15}}}}},
        {"C", {{"type", "electrical.capacitor"}, {"params", {{"capacitance", "1 mA*s/V"}}}}},
        {"gnd", {{"type", "electrical.ground"}}}}},
      {"connections",
       test::wires({{"src.p", "R.p"}, {"R.n", "C.p"}, {"C.n", "gnd.p"}, {"src.n", "gnd.p"}, {"R.heat", "body.p"}})},
      {"record", {"R.current", "R.heat.Q", "body.T"}},
      {"energy", true},
      {"solver", solver(30.0, 0.05)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const auto i = r.column("R.current"), q = r.column("R.heat.Q"), temperature = r.column("body.T");
  for (size_t k = 0; k < i.size(); ++k)
    CHECK(q[k] == doctest::Approx(i[k] * i[k] * 1000.0 * (1.0 + alpha * (temperature[k] - 293.15))).epsilon(1e-12));
  // e^(−30) of the charge is left: the heat is ½ C V² to the integrator's accuracy.
  const double heat = 0.5 * C * V * V;
  CHECK(C_th * (temperature.back() - 293.15) == doctest::Approx(heat).epsilon(1e-7));
  const json& e = r.summary.at("energy");
  CHECK(e["components"]["R"].value("lost", 0.0) == 0.0);
  CHECK(e["components"]["R"]["ports"]["heat"]["out"].get<double>() == doctest::Approx(heat).epsilon(1e-7));
  CHECK(e["total"]["relative_balance_residual"].get<double>() < 1e-8);
}

TEST_CASE("voltage source from a signal, and a switch that closes and opens at its control's events") {
  // A 5 V source through a switch (R_on 0.1 Ω) into a 4.9 Ω load; the switch closes at
  // 0.1 s and opens at 0.3 s.
  json n = {
      {"components",
       {{"u", {{"type", "signal.constant"}, {"params", {{"value", 5}}}}},
        {"src", {{"type", "electrical.voltage_source"}, {"params", {{"source", "signal"}}}}},
        {"on", {{"type", "signal.step"}, {"params", {{"step_time", "0.1 s"}}}}},
        {"off", {{"type", "signal.step"}, {"params", {{"step_time", "0.3 s"}, {"after", -1}}}}},
        {"sum", {{"type", "signal.sum"}, {"params", {{"signs", "++"}}}}},
        {"S", {{"type", "electrical.switch"}, {"params", {{"on_resistance", "0.1 V/A"}}}}},
        {"x", {{"type", "electrical.node"}}},
        {"R", {{"type", "electrical.resistor"}, {"params", {{"resistance", "4.9 V/A"}}}}},
        {"gnd", {{"type", "electrical.ground"}}}}},
      {"connections",
       test::wires({{"u.out", "src.command"},
        {"on.out", "sum.in1"},
        {"off.out", "sum.in2"},
        {"sum.out", "S.control"},
        {"src.p", "S.p"},
        {"S.n", "x.p"},
        {"R.p", "x.p"},
        {"R.n", "gnd.p"},
        {"src.n", "gnd.p"}})},
      {"record", {"R.current", "S.closed", "S.loss"}},
      {"solver", solver(0.5, 0.05)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const double open = 5.0 / (1e6 + 4.9);
  CHECK(test::at_time(r, "R.current", 0.05) == doctest::Approx(open).epsilon(1e-9));
  CHECK(test::at_time(r, "R.current", 0.2) == doctest::Approx(1.0).epsilon(1e-9));
  CHECK(test::at_time(r, "S.loss", 0.2) == doctest::Approx(0.1).epsilon(1e-9));
  CHECK(test::at_time(r, "R.current", 0.4) == doctest::Approx(open).epsilon(1e-9));
  int closes = 0, opens = 0;
  for (const auto& ev : r.events) {
    closes += ev.description.find("closes") != std::string::npos;
    opens += ev.description.find("opens") != std::string::npos;
  }
  CHECK(closes == 1);
  CHECK(opens == 1);
}
