// The hydraulic machines on rotational shafts: a motor driving an inertia against a
// viscous load, a pump driven through its shaft by a speed source.
#include <cmath>

#include "../hydraulic/hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {
// A pump of displacement D (m³/rad) on a rotational shaft, η_v = 0.95 at the rated speed
// w and pressure p, and η_hm.
json shaft_driven_pump(double D, double w, double p, double eta_hm) {
  return {{"type", "hydraulic.pump"},
          {"params",
           {{"displacement", D},
            {"speed", w},
            {"speed_source", "shaft"},
            {"volumetric_efficiency", 0.95},
            {"rated_pressure", p},
            {"hydromechanical_efficiency", eta_hm}}}};
}
}  // namespace

TEST_CASE("hydraulic motor on a rotational inertia: steady speed q / D, less what its losses take") {
  // A flow source of 1e-3 m³/s fills a 0.1 L volume feeding a motor of D = 1e-5 m³/rad to
  // the tank; the motor turns an inertia (0.01 kg m²) against a damper (0.5 N m s/rad) to
  // a wall.
  const double q = 1e-3, D = 1e-5, c_load = 0.5;
  json n = circuit({{"pump", {{"type", "hydraulic.flow_source"}, {"params", {{"flow", q}}}}},
                    {"line", {{"type", "hydraulic.volume"}, {"params", {{"volume", "0.1 L"}}}}},
                    {"tank", {{"type", "hydraulic.tank"}}},
                    {"motor", {{"type", "hydraulic.motor"}, {"params", {{"displacement", D}}}}},
                    {"rotor", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.01}}}}},
                    {"load", {{"type", "rotational.shaft"}, {"params", {{"stiffness", 0}, {"damping", c_load}}}}},
                    {"wall", {{"type", "rotational.fixed"}}}},
                   {{"line.p1", "pump.p"},
                    {"line.p2", "motor.a"},
                    {"tank.p", "motor.b"},
                    {"rotor.a", "motor.shaft"},
                    {"rotor.b", "load.a"},
                    {"wall.flange", "load.b"}},
                   {"rotor.w", "line.pressure", "motor.torque", "motor.power", "load.damper_loss"},
                   {{"method", "bdf"}, {"t_end", 1.5}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.01}});
  // The oscillation of the oil spring (β D² / V = 1500 N m/rad on 0.01 kg m²) decays at
  // c / (2 J) = 25 /s: e^(−37) left at 1.5 s.
  // What is left is bdf's global error at rtol 1e-10 over ~90 lightly damped periods
  // (ζ = c / (2 √(J β D² / V)) ≈ 0.065): below 1e-8.
  RunResult ideal = run_circuit(n);
  CHECK(last(ideal, "rotor.w") == doctest::Approx(q / D).epsilon(1e-8));
  CHECK(last(ideal, "line.pressure") == doctest::Approx(c_load * q / D / D).epsilon(1e-8));  // D Δp = c ω
  CHECK(last(ideal, "motor.power") == doctest::Approx(last(ideal, "load.damper_loss")).epsilon(1e-8));
  // With its losses (η_hm = 0.9, friction c_m = 0.005 N m s/rad, η_v = 0.95 at 10 MPa and
  // 100 rad/s: k_leak = 0.05 D · 100 / 1e7): the flow q = D ω + k_leak Δp and the torque
  // balance η_hm D Δp = (c_m + c) ω give ω = q / (D + k_leak (c_m + c) / (η_hm D)).
  const double eta_hm = 0.9, c_m = 0.005, k_leak = 0.05 * D * 100 / 1e7;
  n["components"]["motor"]["params"] = {{"displacement", D},          {"hydromechanical_efficiency", eta_hm},
                                        {"viscous_friction", c_m},    {"volumetric_efficiency", 0.95},
                                        {"rated_pressure", "10 MPa"}, {"rated_speed", 100}};
  RunResult lossy = run_circuit(n);
  const double w = q / (D + k_leak * (c_m + c_load) / (eta_hm * D));
  MESSAGE("steady speed " << last(lossy, "rotor.w") << " rad/s, q / D = " << q / D);
  CHECK(last(lossy, "rotor.w") == doctest::Approx(w).epsilon(1e-8));
  CHECK(last(lossy, "line.pressure") == doctest::Approx((c_m + c_load) * w / (eta_hm * D)).epsilon(1e-8));
  CHECK(last(lossy, "motor.torque") == doctest::Approx(c_load * w).epsilon(1e-8));
}

TEST_CASE("pump driven through its shaft by a speed source: the torque it takes is D dp / eta_hm") {
  // D = 1e-5 m³/rad at 150 rad/s against 10 MPa; η_hm = 0.9, η_v = 0.95 at 10 MPa and the
  // rated 150 rad/s.
  const double D = 1e-5, w = 150.0, p = 10e6;
  json n = circuit({{"tank", {{"type", "hydraulic.tank"}}},
                    {"out", {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", p}}}}},
                    {"pump", shaft_driven_pump(D, w, p, 0.9)},
                    {"motor", {{"type", "rotational.speed_source"}, {"params", {{"speed", w}}}}}},
                   {{"tank.p", "pump.inlet"}, {"out.p", "pump.outlet"}, {"motor.flange", "pump.shaft"}},
                   {"pump.flow", "pump.torque", "pump.power", "motor.torque", "motor.power", "pump.shaft.tau"},
                   {{"method", "bdf"}, {"t_end", 0.01}, {"output_interval", 0.005}});
  RunResult r = run_circuit(n);
  CHECK(last(r, "motor.torque") == doctest::Approx(D * p / 0.9).epsilon(1e-12));
  CHECK(last(r, "pump.torque") == last(r, "motor.torque"));
  CHECK(last(r, "pump.shaft.tau") == -last(r, "pump.torque"));
  CHECK(last(r, "pump.flow") == doctest::Approx(0.95 * D * w).epsilon(1e-12));
  // The drive supplies T ω; the oil receives q Δp: η_v η_hm of it.
  CHECK(last(r, "pump.power") == doctest::Approx(0.95 * 0.9 * last(r, "motor.power")).epsilon(1e-12));
  // The speed the pump runs at is its shaft's, not the parameter (here only the rated speed).
  n["components"]["motor"]["params"]["speed"] = 100.0;
  r = run_circuit(n);
  CHECK(last(r, "pump.flow") == doctest::Approx(D * 100 - 0.05 * D * w).epsilon(1e-12));
}

TEST_CASE("four quadrants: a pump the pressure drives back and a motor its shaft drives lose eta_hm too") {
  // The pump of the case above, its outlet at 0 and its inlet at 10 MPa: the pressure drives
  // it (Δp = −10 MPa), as a load lowered through an electro-hydraulic actuator does. Its
  // shaft then gives back η_hm of the fluid's torque, T = D Δp η_hm, not D Δp / η_hm (which
  // would return more power than the fluid gives). Leakage runs from inlet to outlet.
  const double D = 1e-5, w = 150.0, p = 10e6, eta_hm = 0.9, k_leak = 0.05 * D * w / p;
  json n = circuit({{"tank", {{"type", "hydraulic.tank"}}},
                    {"high", {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", p}}}}},
                    {"pump", shaft_driven_pump(D, w, p, eta_hm)},
                    {"drive", {{"type", "rotational.speed_source"}, {"params", {{"speed", w}}}}}},
                   {{"high.p", "pump.inlet"}, {"tank.p", "pump.outlet"}, {"drive.flange", "pump.shaft"}},
                   {"pump.flow", "pump.torque", "pump.power", "pump.power_loss", "drive.power"},
                   {{"method", "bdf"}, {"t_end", 0.01}, {"output_interval", 0.005}});
  RunResult r = run_circuit(n);
  CHECK(last(r, "pump.torque") == doctest::Approx(-D * p * eta_hm).epsilon(1e-12));
  CHECK(last(r, "pump.flow") == doctest::Approx(D * w + k_leak * p).epsilon(1e-12));
  // The loss: the fluid gives q |Δp|, the shaft returns D ω |Δp| η_hm.
  const double loss = (D * w + k_leak * p) * p - D * w * p * eta_hm;
  CHECK(last(r, "pump.power_loss") == doctest::Approx(loss).epsilon(1e-10));
  CHECK(last(r, "pump.power_loss") > 0.0);

  // Below 1% of the rated speed the switch is smoothed: at ω = 0.5% of it the torque lies
  // between D Δp η_hm and D Δp, at D Δp η_hm^tanh(0.5), and the loss stays positive.
  n["components"]["drive"]["params"]["speed"] = 0.005 * w;
  r = run_circuit(n);
  CHECK(last(r, "pump.torque") == doctest::Approx(-D * p * std::pow(eta_hm, std::tanh(0.5))).epsilon(1e-12));
  CHECK(last(r, "pump.power_loss") > 0.0);
  // Turning backwards against the pressure it pumps again: T = D Δp / η_hm.
  n["components"]["drive"]["params"]["speed"] = -w;
  r = run_circuit(n);
  CHECK(last(r, "pump.torque") == doctest::Approx(-D * p / eta_hm).epsilon(1e-12));
  CHECK(last(r, "pump.power_loss") > 0.0);

  // A motor whose shaft a speed source drives against the flow it would make: it pumps from
  // b to a, and the shaft must give T = −D Δp / η_hm (Δp = p_a − p_b = 10 MPa, ω < 0).
  json m = circuit({{"tank", {{"type", "hydraulic.tank"}}},
                    {"high", {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", p}}}}},
                    {"motor",
                     {{"type", "hydraulic.motor"},
                      {"params", {{"displacement", D}, {"rated_speed", w}, {"hydromechanical_efficiency", eta_hm}}}}},
                    {"drive", {{"type", "rotational.speed_source"}, {"params", {{"speed", -w}}}}}},
                   {{"high.p", "motor.a"}, {"tank.p", "motor.b"}, {"drive.flange", "motor.shaft"}},
                   {"motor.torque", "motor.power_loss"},
                   {{"method", "bdf"}, {"t_end", 0.01}, {"output_interval", 0.005}});
  r = run_circuit(m);
  CHECK(last(r, "motor.torque") == doctest::Approx(D * p / eta_hm).epsilon(1e-12));
  CHECK(last(r, "motor.power_loss") == doctest::Approx(D * w * p * (1.0 / eta_hm - 1.0)).epsilon(1e-10));
}
