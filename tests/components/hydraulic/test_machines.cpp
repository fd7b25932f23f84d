// Pumps and motors: leakage from the volumetric efficiency, the pressure compensator and
// the constant-power curve of the variable pump, the motor's torque and speed.
#include <cmath>

#include "hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

json source(double p) { return {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", p}}}}; }

const json quick = {{"method", "bdf"}, {"t_end", 0.01}, {"output_interval", 0.005}};

// Flow, torque and power of a pump between the tank and a source at `p_out`.
struct PumpPoint {
  double flow, torque, power, fraction;
};
PumpPoint pump_at(const json& pump, double p_out) {
  json n =
      circuit({{"tank", {{"type", "hydraulic.tank"}}}, {"out", source(p_out)}, {"pump", pump}},
              {{"tank.p", "pump.inlet"}, {"out.p", "pump.outlet"}}, {"pump.flow", "pump.torque", "pump.power"}, quick);
  const bool variable = pump["type"] == "hydraulic.variable_pump";
  if (variable) n["record"].push_back("pump.displacement_fraction");
  RunResult r = run_circuit(n);
  return {last(r, "pump.flow"), last(r, "pump.torque"), last(r, "pump.power"),
          variable ? last(r, "pump.displacement_fraction") : 1.0};
}

}  // namespace

TEST_CASE("fixed pump: q = D w - k_leak dp with k_leak from the volumetric efficiency, T = D dp / eta_hm") {
  // D = 1e-5 m³/rad at 100 rad/s: 1e-3 m³/s ideal. η_v = 0.9 at 10 MPa: k_leak = 0.1 · 1e-3 / 1e7.
  const double D = 1e-5, w = 100;
  json pump = {{"type", "hydraulic.pump"},
               {"params",
                {{"displacement", D},
                 {"speed", w},
                 {"volumetric_efficiency", 0.9},
                 {"rated_pressure", 10e6},
                 {"hydromechanical_efficiency", 0.95}}}};
  for (double p : {0.0, 5e6, 10e6, 20e6}) {
    CAPTURE(p);
    const PumpPoint pt = pump_at(pump, p);
    CHECK(pt.flow == doctest::Approx(D * w - 0.1 * D * w / 10e6 * p).epsilon(1e-12));
    CHECK(pt.torque == doctest::Approx(D * p / 0.95).epsilon(1e-12).scale(1e-12));
    CHECK(pt.power == doctest::Approx(pt.flow * p).epsilon(1e-12).scale(1e-9));
  }
  // "1470 rpm" and "63 cm^3/rev" in units: 92.6 L/min.
  pump["params"] = {{"displacement", "63 cm^3/rev"}, {"speed", "1470 rpm"}};
  CHECK(pump_at(pump, 0.0).flow == doctest::Approx(63e-6 * 1470 / 60).epsilon(1e-12));
}

TEST_CASE("variable pump: the pressure compensator and the constant-power hyperbola") {
  const double D = 1e-5, w = 100, full = D * w;
  // Pressure compensated: full displacement below 18 MPa, none at the 20 MPa cut-off,
  // linear in between.
  json pc = {{"type", "hydraulic.variable_pump"},
             {"params",
              {{"max_displacement", D},
               {"speed", w},
               {"control", "pressure_compensated"},
               {"cutoff_pressure", 20e6},
               {"regulation_band", 2e6}}}};
  CHECK(pump_at(pc, 10e6).flow == doctest::Approx(full).epsilon(1e-12));
  CHECK(pump_at(pc, 19e6).flow == doctest::Approx(0.5 * full).epsilon(1e-12));
  CHECK(pump_at(pc, 19.5e6).fraction == doctest::Approx(0.25).epsilon(1e-12));
  CHECK(pump_at(pc, 21e6).flow == 0.0);
  // Constant power 10 kW: full flow (1e-3 m³/s) up to 10 MPa, then q Δp = P.
  json cp = pc;
  cp["params"] = {{"max_displacement", D}, {"speed", w}, {"control", "constant_power"}, {"power", 10e3}};
  CHECK(pump_at(cp, 5e6).flow == doctest::Approx(full).epsilon(1e-12));
  for (double p : {15e6, 20e6, 30e6}) {
    CAPTURE(p);
    CHECK(pump_at(cp, p).power == doctest::Approx(10e3).epsilon(1e-12));
  }
  // Both: the smaller of the two.
  json both = pc;
  both["params"]["control"] = "both";
  both["params"]["power"] = 10e3;
  CHECK(pump_at(both, 15e6).flow == doctest::Approx(10e3 / 15e6).epsilon(1e-12));
  CHECK(pump_at(both, 19.5e6).fraction == doctest::Approx(0.25).epsilon(1e-12));
  // The swashplate's first-order lag: from rest the displacement follows 1 − e^(−t/T).
  json lag = cp;
  lag["params"]["dynamics"] = "first_order";
  lag["params"]["time_constant"] = 0.01;
  json n = circuit({{"tank", {{"type", "hydraulic.tank"}}}, {"out", source(5e6)}, {"pump", lag}},
                   {{"tank.p", "pump.inlet"}, {"out.p", "pump.outlet"}}, {"pump.displacement_fraction"},
                   {{"method", "bdf"}, {"t_end", 0.05}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.001}});
  RunResult r = run_circuit(n);
  CHECK(at_time(r, "pump.displacement_fraction", 0.02) == doctest::Approx(1 - std::exp(-2.0)).epsilon(1e-7));
}

TEST_CASE("motor: torque eta D dp accelerates an inertia; with viscous friction it settles at eta D dp / c") {
  // 10 MPa across D = 1e-5 m³/rad on J = 0.1 kg m²: α = D Δp / J = 1000 rad/s².
  const double D = 1e-5, dp = 10e6, J = 0.1;
  json n = circuit({{"in", source(dp)},
                    {"tank", {{"type", "hydraulic.tank"}}},
                    {"motor", {{"type", "hydraulic.motor"}, {"params", {{"displacement", D}}}}},
                    {"shaft", {{"type", "rotational.inertia"}, {"params", {{"inertia", J}}}}}},
                   {{"in.p", "motor.a"}, {"tank.p", "motor.b"}, {"shaft.a", "motor.shaft"}},
                   {"shaft.w", "motor.flow", "motor.torque", "tank.volume"},
                   {{"method", "bdf"}, {"t_end", 0.1}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.01}});
  RunResult r = run_circuit(n);
  CHECK(last(r, "shaft.w") == doctest::Approx(D * dp / J * 0.1).epsilon(1e-9));
  CHECK(last(r, "motor.flow") == doctest::Approx(D * last(r, "shaft.w")).epsilon(1e-12));
  // The tank received the volume that turned the motor: D θ = D ∫ω dt = D α t²/2.
  CHECK(last(r, "tank.volume") == doctest::Approx(D * (D * dp / J) * 0.1 * 0.1 / 2).epsilon(1e-8));
  // Viscous friction c = 0.01 N m s/rad and η_hm = 0.9: steady ω = η D Δp / c = 9000 rad/s.
  n["components"]["motor"]["params"]["viscous_friction"] = 0.01;
  n["components"]["motor"]["params"]["hydromechanical_efficiency"] = 0.9;
  n["solver"]["t_end"] = 200.0;  // J/c = 10 s: 20 time constants
  r = run_circuit(n);
  CHECK(last(r, "shaft.w") == doctest::Approx(0.9 * D * dp / 0.01).epsilon(1e-7));
  // Leakage (η_v = 0.9 at 10 MPa and 100 rad/s) adds k_leak Δp to the flow through it.
  n["components"]["motor"]["params"]["volumetric_efficiency"] = 0.9;
  n["components"]["motor"]["params"]["rated_pressure"] = dp;
  n["components"]["motor"]["params"]["rated_speed"] = 100;
  r = run_circuit(n);
  CHECK(last(r, "motor.flow") == doctest::Approx(D * last(r, "shaft.w") + 0.1 * D * 100).epsilon(1e-9));
  // With speed and torque as signals instead of a shaft port.
  json s = circuit({{"in", source(dp)},
                    {"tank", {{"type", "hydraulic.tank"}}},
                    {"motor", {{"type", "hydraulic.motor"}, {"params", {{"displacement", D}, {"shaft", "signal"}}}}},
                    {"speed", {{"type", "signal.constant"}, {"params", {{"value", 50}}}}}},
                   {{"in.p", "motor.a"}, {"tank.p", "motor.b"}, {"speed.out", "motor.speed"}},
                   {"motor.torque", "motor.flow"}, quick);
  r = run_circuit(s);
  CHECK(last(r, "motor.torque") == doctest::Approx(D * dp).epsilon(1e-12));
  CHECK(last(r, "motor.flow") == doctest::Approx(D * 50).epsilon(1e-12));
}
