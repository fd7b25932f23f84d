// The combustion engine (rotational.engine) on drivelines whose answers are closed forms:
// a viscous damper to a wall takes τ = c ω, so at a set speed the operating point, the
// fuel map's value there and the fuel burnt over a run are known; a torque source gives
// the load as a function of time, so the instants it crosses the full-load curve are
// known.
#include <cmath>
#include <string>

#include "../hydraulic/hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const double rpm = pi / 30.0;  // rad/s per rpm
const double kg_per_h = 1.0 / 3600.0;

// The map of the tests: fuel flow in kg/h over speeds in rpm and torques in N·m.
const double map_speeds[3] = {800.0, 1400.0, 2000.0};
const double map_torques[3] = {0.0, 300.0, 600.0};
const double map_fuel[3][3] = {{2.0, 6.0, 11.0}, {3.5, 10.0, 18.0}, {5.5, 14.8, 27.0}};

json fuel_flow_rows() {
  json rows = json::array();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      rows.push_back({std::to_string(map_speeds[i]) + " rpm", std::to_string(map_torques[j]) + " N*m",
                      std::to_string(map_fuel[i][j]) + " kg/h"});
  return rows;
}

// Full load: 650 N·m at 1400 rpm, 550 N·m at 2200 rpm, so 600 N·m at 1800 rpm.
json max_torque_rows() {
  return json::array(
      {json::array({"800 rpm", "500 N*m"}), json::array({"1400 rpm", "650 N*m"}), json::array({"2200 rpm", "550 N*m"})});
}

json engine(const json& extra = json::object()) {
  json params = {{"fuel_flow", fuel_flow_rows()}, {"max_torque", max_torque_rows()}};
  params.update(extra);
  return {{"type", "rotational.engine"}, {"params", params}};
}

// The map's value at (ω, τ), by the bilinear formula on the cell [i, i+1] × [j, j+1] that
// holds the point (inside the map), in kg/s.
double fuel_flow_at(double w, double tau) {
  const double n = w / rpm;
  const int i = n < map_speeds[1] ? 0 : 1, j = tau < map_torques[1] ? 0 : 1;
  const double u = (n - map_speeds[i]) / (map_speeds[i + 1] - map_speeds[i]);
  const double v = (tau - map_torques[j]) / (map_torques[j + 1] - map_torques[j]);
  const double z = (1 - u) * (1 - v) * map_fuel[i][j] + (1 - u) * v * map_fuel[i][j + 1] +
                   u * (1 - v) * map_fuel[i + 1][j] + u * v * map_fuel[i + 1][j + 1];
  return z * kg_per_h;
}

// The engine drives a viscous damper c to a wall.
json on_damper(const json& eng, double c, double t_end) {
  return circuit({{"engine", eng},
                  {"damper", {{"type", "rotational.shaft"}, {"params", {{"stiffness", 0}, {"damping", c}}}}},
                  {"wall", {{"type", "rotational.fixed"}}}},
                 {{"engine.flange", "damper.a"}, {"damper.b", "wall.flange"}},
                 {"engine.phi", "engine.fuel_mass", "engine.torque", "engine.shaft_power", "engine.fuel_rate",
                  "engine.fuel_volume", "engine.fuel_power", "engine.loss", "engine.efficiency", "engine.overload",
                  "engine.full_load_torque", "damper.damper_loss"},
                 {{"method", "dopri5"}, {"t_end", t_end}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.1}});
}

// The engine at 1800 rpm against a torque source whose torque is a signal.
json against_torque(const json& load_signal, double t_end) {
  return circuit({{"engine", engine({{"speed", "1800 rpm"}})},
                  {"load", {{"type", "rotational.torque_source"}, {"params", {{"source", "signal"}}}}},
                  {"profile", load_signal}},
                 {{"engine.flange", "load.flange"}, {"profile.out", "load.command"}},
                 {"engine.torque", "engine.overload", "engine.first_overload"},
                 {{"method", "dopri5"}, {"t_end", t_end}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.01}});
}

int events_containing(const RunResult& r, const std::string& part) {
  int n = 0;
  for (const auto& e : r.events) n += e.component == "engine" && e.description.find(part) != std::string::npos;
  return n;
}

}  // namespace

TEST_CASE("engine at 1800 rpm on a damper: torque c ω, fuel from the map, fuel burnt ṁ T") {
  const double w = 1800 * rpm, c = 2.0, t_end = 10.0, rho = 832.0, lhv = 42.6e6;
  RunResult r = run_circuit(on_damper(engine({{"speed", "1800 rpm"}}), c, t_end));
  // The damper reads the imposed speed and returns −c ω: the engine gives c ω exactly.
  const double tau = c * w;
  CHECK(last(r, "engine.torque") == doctest::Approx(tau).epsilon(1e-14));
  CHECK(last(r, "engine.shaft_power") == doctest::Approx(tau * w).epsilon(1e-14));
  CHECK(last(r, "engine.shaft_power") == doctest::Approx(last(r, "damper.damper_loss")).epsilon(1e-14));
  // (ω, τ) = (1800 rpm, 377 N·m) lies inside the cell 1400–2000 rpm × 300–600 N·m.
  const double fuel_rate = fuel_flow_at(w, tau);
  CHECK(last(r, "engine.fuel_rate") == doctest::Approx(fuel_rate).epsilon(1e-13));
  CHECK(last(r, "engine.fuel_power") == doctest::Approx(fuel_rate * lhv).epsilon(1e-13));
  CHECK(last(r, "engine.loss") == doctest::Approx(fuel_rate * lhv - tau * w).epsilon(1e-13));
  CHECK(last(r, "engine.efficiency") == doctest::Approx(tau * w / (fuel_rate * lhv)).epsilon(1e-13));
  MESSAGE("fuel " << fuel_rate / kg_per_h << " kg/h, efficiency " << last(r, "engine.efficiency"));
  // The derivatives of the angle and of the fuel mass are constants (ω, ṁ): every step
  // of any Runge–Kutta method integrates a constant exactly, so what is left is the
  // rounding of the sum over the steps (a few hundred: 1e-13 is wide).
  CHECK(last(r, "engine.phi") == doctest::Approx(w * t_end).epsilon(1e-13));
  CHECK(last(r, "engine.fuel_mass") == doctest::Approx(fuel_rate * t_end).epsilon(1e-13));
  CHECK(last(r, "engine.fuel_volume") == doctest::Approx(fuel_rate * t_end / rho).epsilon(1e-13));
  // 377 N·m is below the full-load 600 N·m at 1800 rpm: no overload, no warning.
  CHECK(last(r, "engine.full_load_torque") == doctest::Approx(600.0).epsilon(1e-14));
  CHECK(column_max(r, "engine.overload") == 0.0);
  CHECK(r.warnings.empty());
}

TEST_CASE("engine's energy account: the fuel supplies, the loss is what the shaft does not carry") {
  // The speed from a signal, 50 + 100 t rad/s over 2 s: across the map's speed lines,
  // with the load c ω across its torque lines.
  const double w0 = 50.0, a = 100.0, c = 2.0, t_end = 2.0;
  json n = on_damper(engine({{"speed_source", "signal"}}), c, t_end);
  n["components"]["ramp"] = {{"type", "signal.ramp"}, {"params", {{"offset", w0}, {"slope", a}}}};
  n["connections"].push_back({"ramp.out", "engine.speed"});
  n["energy"] = true;
  RunResult r = run_circuit(n);
  // The angle: ∫ (ω0 + a t) dt, a polynomial dopri5 integrates exactly.
  CHECK(last(r, "engine.phi") == doctest::Approx(w0 * t_end + 0.5 * a * t_end * t_end).epsilon(1e-13));
  const json& e = r.summary.at("energy");
  CHECK(e["total"]["relative_balance_residual"].get<double>() < 1e-9);
  // The shaft carries ∫ c ω² dt = c ((ω0 + a T)³ − ω0³) / (3 a) to the damper; the
  // account's quadrature is exact for the quadratic τ ω on each step, so only rounding is
  // left of it. Supplied − lost is that energy, since loss = P_f − τ ω at every instant.
  const double shaft_energy = c * (std::pow(w0 + a * t_end, 3) - std::pow(w0, 3)) / (3 * a);
  const json& eng = e["components"]["engine"];
  const double supplied = eng["supplied"].get<double>(), lost = eng["lost"].get<double>();
  CHECK(supplied > shaft_energy);
  CHECK(supplied - lost == doctest::Approx(shaft_energy).epsilon(1e-9));
  CHECK(eng["ports"]["flange"]["out"].get<double>() == doctest::Approx(shaft_energy).epsilon(1e-9));
  CHECK(std::abs(eng["residual"].get<double>()) < 1e-9 * supplied);
  CHECK(e["components"]["damper"]["lost"].get<double>() == doctest::Approx(shaft_energy).epsilon(1e-9));
  // The fuel burnt is the fuel power's integral over the heating value.
  CHECK(last(r, "engine.fuel_mass") == doctest::Approx(supplied / 42.6e6).epsilon(1e-8));
}

TEST_CASE("engine overloaded: events where the load crosses the full-load curve, one accuracy warning") {
  // Load torque 500 + 200 sin(2π t) N·m against 600 N·m at 1800 rpm: above it while
  // sin(2π t) > 1/2, for t in (1/12, 5/12) and (13/12, 17/12).
  json profile = {{"type", "signal.sine"},
                  {"params", {{"offset", -500.0}, {"amplitude", -200.0}, {"frequency", "1 Hz"}}}};
  RunResult r = run_circuit(against_torque(profile, 1.5));
  CHECK(last(r, "engine.torque") == doctest::Approx(500 + 200 * std::sin(2 * pi * 1.5)).epsilon(1e-12));
  CHECK(events_containing(r, "overload:") == 2);
  CHECK(events_containing(r, "back within") == 2);
  std::vector<double> entries, exits;
  for (const auto& ev : r.events) {
    if (ev.component != "engine") continue;
    (ev.description.find("overload:") != std::string::npos ? entries : exits).push_back(ev.time);
  }
  REQUIRE(entries.size() == 2);
  REQUIRE(exits.size() == 2);
  // The solver locates each crossing to well below 1e-6 s.
  CHECK(entries[0] == doctest::Approx(1.0 / 12).epsilon(1e-6));
  CHECK(exits[0] == doctest::Approx(5.0 / 12).epsilon(1e-6));
  CHECK(entries[1] == doctest::Approx(13.0 / 12).epsilon(1e-6));
  CHECK(exits[1] == doctest::Approx(17.0 / 12).epsilon(1e-6));
  CHECK(at_time(r, "engine.overload", 0.05) == 0.0);
  CHECK(at_time(r, "engine.overload", 0.25) == 1.0);
  CHECK(at_time(r, "engine.overload", 0.75) == 0.0);
  CHECK(at_time(r, "engine.overload", 1.25) == 1.0);
  CHECK(last(r, "engine.first_overload") == doctest::Approx(1.0 / 12).epsilon(1e-6));
  // The governor is ideal: the torque is delivered above the curve (700 N·m at t = 1/4).
  CHECK(at_time(r, "engine.torque", 0.25) == doctest::Approx(700.0).epsilon(1e-9));
  // Warned once, as an accuracy warning, for the first overload only.
  REQUIRE(r.accuracy_warnings.size() == 1);
  CHECK(r.warnings.size() == 1);
  CHECK(r.accuracy_warnings[0].find("engine overloaded") != std::string::npos);
}

TEST_CASE("engine overloaded from the start: the flag is set and the warning given at t = 0") {
  json profile = {{"type", "signal.constant"}, {"params", {{"value", -650.0}}}};
  RunResult r = run_circuit(against_torque(profile, 0.1));
  CHECK(r.column("engine.overload").front() == 1.0);
  CHECK(last(r, "engine.overload") == 1.0);
  CHECK(last(r, "engine.first_overload") == 0.0);
  REQUIRE(r.accuracy_warnings.size() == 1);
  CHECK(r.accuracy_warnings[0].find("the load torque is 650.0 N*m, above the full-load torque 600.0 N*m at 1800 rpm") !=
        std::string::npos);
}

TEST_CASE("engine parameters: errors name the parameter and say what is wrong") {
  const auto error_for = [](const json& params) {
    return load_error(on_damper(engine(params), 1.0, 1.0));
  };
  // The map must be a grid: a point left out.
  json holed = fuel_flow_rows();
  holed.erase(holed.begin() + 4);
  std::string e = error_for({{"speed", "1800 rpm"}, {"fuel_flow", holed}});
  CHECK(e.find("parameter 'fuel_flow'") != std::string::npos);
  CHECK(e.find("every speed with every torque (3 speeds × 3 torques, 8 rows)") != std::string::npos);
  // No negative fuel flow.
  json negative = fuel_flow_rows();
  negative[0][2] = "-1 kg/h";
  e = error_for({{"speed", "1800 rpm"}, {"fuel_flow", negative}});
  CHECK(e.find("parameter 'fuel_flow'") != std::string::npos);
  CHECK(e.find("must not be negative") != std::string::npos);
  // A map that would turn more than the fuel's energy into work (g/h written for kg/h).
  json too_little = fuel_flow_rows();
  for (auto& row : too_little) row[2] = "1 g/h";
  e = error_for({{"speed", "1800 rpm"}, {"fuel_flow", too_little}});
  CHECK(e.find("parameter 'fuel_flow'") != std::string::npos);
  CHECK(e.find("efficiency P / (ṁ H_u) of") != std::string::npos);
  CHECK(e.find("above 100 %") != std::string::npos);
  // The full-load curve's speeds must increase.
  const json decreasing = json::array({json::array({"1400 rpm", "650 N*m"}), json::array({"800 rpm", "500 N*m"})});
  e = error_for({{"speed", "1800 rpm"}, {"max_torque", decreasing}});
  CHECK(e.find("parameter 'max_torque'") != std::string::npos);
  CHECK(e.find("strictly increasing") != std::string::npos);
  // The set speed is required unless it is a signal.
  e = error_for(json::object());
  CHECK(e.find("parameter 'speed'") != std::string::npos);
}
