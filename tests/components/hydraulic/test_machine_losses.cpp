// The loss models of the pumps and motors (machine_losses.hpp): Wilson's coefficients
// against their closed form in the four quadrants, the efficiency maps against
// hand-interpolated values, the viscosity of the oil at its temperature; the
// variable-displacement motor; the load-sensing pump's margin and cut-off; and the
// energy account of a Wilson pump and motor.
//
// Operating points far from ω = 0 and Δp = 0 (|ω| > 50 ω_s, |Δp| > 50 Δp_s): there the
// smoothing tanh is 1 to the double's resolution, and the models are their sharp laws.
#include <cmath>

#include "hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

json source(double p) { return {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", p}}}}; }
json constant_signal(double v) { return {{"type", "signal.constant"}, {"params", {{"value", v}}}}; }

const json quick = {{"method", "bdf"}, {"t_end", 0.01}, {"output_interval", 0.005}};

double sign(double x) { return (x > 0) - (x < 0); }

// A machine's four recorded values at one operating point.
struct Point {
  double flow, torque, loss, power;
};

// A pump between pressure sources at p_in and p_out, turned at ω by a speed signal.
Point pump_at(json pump, double w, double p_in, double p_out, const json& fluid = nullptr) {
  pump["params"]["speed_source"] = "signal";
  json n = circuit({{"in", source(p_in)}, {"out", source(p_out)}, {"w", constant_signal(w)}, {"pump", pump}},
                   {{"in.p", "pump.inlet"}, {"out.p", "pump.outlet"}, {"w.out", "pump.speed"}},
                   {"pump.flow", "pump.torque", "pump.power_loss", "pump.power"}, quick, fluid);
  RunResult r = run_circuit(n);
  return {last(r, "pump.flow"), last(r, "pump.torque"), last(r, "pump.power_loss"), last(r, "pump.power")};
}

// A motor between pressure sources at p_a and p_b, its shaft at ω (speed signal, torque
// output).
Point motor_at(json motor, double w, double p_a, double p_b) {
  motor["params"]["shaft"] = "signal";
  json n = circuit({{"a", source(p_a)}, {"b", source(p_b)}, {"w", constant_signal(w)}, {"motor", motor}},
                   {{"a.p", "motor.a"}, {"b.p", "motor.b"}, {"w.out", "motor.speed"}},
                   {"motor.flow", "motor.torque", "motor.power_loss", "motor.power"}, quick);
  RunResult r = run_circuit(n);
  return {last(r, "motor.flow"), last(r, "motor.torque"), last(r, "motor.power_loss"), last(r, "motor.power")};
}

// Wilson's coefficients for a 63 cm³/rev unit (D = 1e-5 m³/rad): at 250 bar, 150 rad/s
// and ISO VG 46 at 40 °C (μ = 0.039 Pa s) they make 2% slip and a 3.8% torque loss.
const double D = 1e-5, Cs = 5e-9, Cv = 5e4, Cf = 0.02, Tc = 1.5;
json wilson_params() {
  return {{"loss_model", "wilson"},
          {"slip_coefficient", Cs},
          {"viscous_coefficient", Cv},
          {"friction_coefficient", Cf},
          {"constant_torque_loss", Tc}};
}

// The closed forms, in the pump's convention (ω, Δp = p_out − p_in, q into the outlet,
// T given by the drive), for |ω| far above ω_s.
double wilson_flow(double eps, double w, double dp, double mu) { return eps * D * w - Cs * D * dp / mu; }
double wilson_torque(double eps, double w, double dp, double mu) {
  return eps * D * dp + Cv * mu * D * w + (Cf * D * std::abs(dp) + Tc) * sign(w);
}
// The loss T ω − q Δp, term by term: never negative.
double wilson_loss(double w, double dp, double mu) {
  return Cv * mu * D * w * w + (Cf * D * std::abs(dp) + Tc) * std::abs(w) + Cs * D * dp * dp / mu;
}

}  // namespace

TEST_CASE("Wilson pump: flow, torque and loss in the four quadrants") {
  // The fluid: ρ = 870 kg/m³, ν = 32 cSt: μ = 0.02784 Pa s.
  const json fluid = {{"density", 870}, {"kinematic_viscosity", 3.2e-5}};
  const double mu = 870 * 3.2e-5;
  json pump = {{"type", "hydraulic.pump"}, {"params", wilson_params()}};
  pump["params"]["displacement"] = D;
  pump["params"]["speed"] = 150;  // the rated speed: ω_s = 1.5 rad/s
  // (ω, p_in, p_out): pumping, driven back by the pressure (motoring), pumping the other
  // way, and motoring the other way.
  const double points[4][3] = {{150, 0, 25e6}, {-150, 0, 25e6}, {-150, 25e6, 0}, {150, 25e6, 0}};
  for (const auto& pt : points) {
    const double w = pt[0], dp = pt[2] - pt[1];
    CAPTURE(w);
    CAPTURE(dp);
    const Point p = pump_at(pump, w, pt[1], pt[2], fluid);
    // The law is a few products and sums: agreement to rounding (1e-12 of the largest term).
    CHECK(p.flow == doctest::Approx(wilson_flow(1, w, dp, mu)).epsilon(1e-12));
    CHECK(p.torque == doctest::Approx(wilson_torque(1, w, dp, mu)).epsilon(1e-12));
    CHECK(p.loss == doctest::Approx(wilson_loss(w, dp, mu)).epsilon(1e-9));
    CHECK(p.loss > 0.0);
    CHECK(p.loss == doctest::Approx(p.torque * w - p.flow * dp).epsilon(1e-12));
  }
  // Near standstill the friction's sign is smoothed: (C_f D |Δp| + T_c) tanh(ω / ω_s).
  const Point slow = pump_at(pump, 0.5, 0, 25e6, fluid);
  CHECK(slow.torque ==
        doctest::Approx(D * 25e6 + Cv * mu * D * 0.5 + (Cf * D * 25e6 + Tc) * std::tanh(0.5 / 1.5)).epsilon(1e-12));
  // A variable pump at half stroke (compensator band 2 MPa, cut-off 26 MPa, Δp = 25 MPa):
  // the ideal flow and torque take ε D, the slip and the friction the largest D.
  json var = {{"type", "hydraulic.variable_pump"}, {"params", wilson_params()}};
  var["params"]["max_displacement"] = D;
  var["params"]["speed"] = 150;
  var["params"]["cutoff_pressure"] = 26e6;
  var["params"]["regulation_band"] = 2e6;
  const Point half = pump_at(var, 150, 0, 25e6, fluid);
  CHECK(half.flow == doctest::Approx(wilson_flow(0.5, 150, 25e6, mu)).epsilon(1e-12));
  CHECK(half.torque == doctest::Approx(wilson_torque(0.5, 150, 25e6, mu)).epsilon(1e-12));
}

TEST_CASE("Wilson motor: flow and torque at a given pressure and speed, four quadrants") {
  // The motor is the pump run with a as its outlet and ω reversed: flow a -> b
  // q = D ω + C_s D Δp / μ, torque T = D Δp − C_v μ D ω − (C_f D |Δp| + T_c) sign ω,
  // Δp = p_a − p_b; default fluid, μ = 850 · 4.6e-5; rated speed 157 rad/s.
  const double mu = 850 * 4.6e-5;
  json motor = {{"type", "hydraulic.motor"}, {"params", wilson_params()}};
  motor["params"]["displacement"] = D;
  const double points[4][3] = {{100, 20e6, 0}, {-100, 0, 20e6}, {100, 0, 20e6}, {-100, 20e6, 0}};
  for (const auto& pt : points) {
    const double w = pt[0], dp = pt[1] - pt[2];
    CAPTURE(w);
    CAPTURE(dp);
    const Point m = motor_at(motor, w, pt[1], pt[2]);
    CHECK(m.flow == doctest::Approx(D * w + Cs * D * dp / mu).epsilon(1e-12));
    CHECK(m.torque ==
          doctest::Approx(D * dp - Cv * mu * D * w - (Cf * D * std::abs(dp) + Tc) * sign(w)).epsilon(1e-12));
    // The motor's loss q Δp − T ω is the pump's at −ω: the same three terms.
    CHECK(m.loss == doctest::Approx(wilson_loss(w, dp, mu)).epsilon(1e-9));
    CHECK(m.loss == doctest::Approx(m.flow * dp - m.torque * w).epsilon(1e-12));
  }
}

TEST_CASE("Wilson model: the viscosity is the oil's at the temperature of the heat port") {
  // ISO VG 46 (Walther through 46 cSt at 40 °C and 6.8 cSt at 100 °C) with a thermal
  // expansion: the run is at 40 °C, but the pump's heat port is on oil held at 60 °C,
  // and its slip and viscous drag follow μ(60 °C) = ρ(60 °C) ν(60 °C).
  const json fluid = {
      {"viscosity_at", json::array({json::array({"40 degC", "46 cSt"}), json::array({"100 degC", "6.8 cSt"})})},
      {"thermal_expansion", 7e-4}};
  // Walther's equation, log10 log10(ν + 0.7) = A − B log10 T (ν in cSt, T in K), restated.
  const double t1 = 313.15, t2 = 373.15, T = 333.15;
  const double y1 = std::log10(std::log10(46 + 0.7)), y2 = std::log10(std::log10(6.8 + 0.7));
  const double B = (y1 - y2) / (std::log10(t2) - std::log10(t1)), A = y1 + B * std::log10(t1);
  const double nu = (std::pow(10.0, std::pow(10.0, A - B * std::log10(T))) - 0.7) * 1e-6;
  CHECK(nu == doctest::Approx(20.6e-6).epsilon(2e-3));  // the README's figure for this oil
  const double mu = 850 / (1 + 7e-4 * 20) * nu;
  json pump = {{"type", "hydraulic.pump"}, {"params", wilson_params()}};
  pump["params"]["displacement"] = D;
  pump["params"]["speed"] = 150;
  pump["params"]["speed_source"] = "constant";
  pump["params"]["heat_port"] = true;
  json n = circuit({{"in", source(0)},
                    {"out", source(25e6)},
                    {"pump", pump},
                    {"oil", {{"type", "thermal.fixed_temperature"}, {"params", {{"temperature", "60 degC"}}}}}},
                   {{"in.p", "pump.inlet"}, {"out.p", "pump.outlet"}, {"pump.heat", "oil.p"}},
                   {"pump.flow", "pump.torque", "pump.heat.Q"}, quick, fluid);
  RunResult r = run_circuit(n);
  // The fluid's ν(T) is computed in the library as here, to rounding; 1e-12.
  CHECK(last(r, "pump.flow") == doctest::Approx(wilson_flow(1, 150, 25e6, mu)).epsilon(1e-12));
  CHECK(last(r, "pump.torque") == doctest::Approx(wilson_torque(1, 150, 25e6, mu)).epsilon(1e-12));
  CHECK(last(r, "pump.heat.Q") == doctest::Approx(wilson_loss(150, 25e6, mu)).epsilon(1e-9));
}

TEST_CASE("efficiency maps: η_v and η_hm interpolated over speed and pressure, in the direction power flows") {
  // A 2 × 3 grid: speeds 100 and 200 rad/s, pressures 0, 10 and 20 MPa.
  const json vmap =
      json::array({json::array({100, 0, 0.98}), json::array({100, 10e6, 0.95}), json::array({100, 20e6, 0.90}),
                   json::array({200, 0, 0.99}), json::array({200, 10e6, 0.97}), json::array({200, 20e6, 0.94})});
  const json hmap =
      json::array({json::array({100, 0, 0.80}), json::array({100, 10e6, 0.90}), json::array({100, 20e6, 0.92}),
                   json::array({200, 0, 0.78}), json::array({200, 10e6, 0.88}), json::array({200, 20e6, 0.91})});
  // At 130 rad/s and 14 MPa: u = 0.3 in the speed cell, v = 0.4 in the 10-20 MPa cell:
  //   η_v  = 0.7 (0.6 · 0.95 + 0.4 · 0.90) + 0.3 (0.6 · 0.97 + 0.4 · 0.94) = 0.9384
  //   η_hm = 0.7 (0.6 · 0.90 + 0.4 · 0.92) + 0.3 (0.6 · 0.88 + 0.4 · 0.91) = 0.9032
  const double ev = 0.9384, ehm = 0.9032, w = 130, dp = 14e6;
  json pump = {{"type", "hydraulic.pump"},
               {"params",
                {{"displacement", D},
                 {"speed", 150},
                 {"loss_model", "map"},
                 {"volumetric_efficiency_map", vmap},
                 {"hydromechanical_efficiency_map", hmap}}}};
  // Bilinear interpolation of tabulated values: rounding only.
  // Pumping: q = η_v D ω, T = D Δp / η_hm.
  Point p = pump_at(pump, w, 0, dp);
  CHECK(p.flow == doctest::Approx(ev * D * w).epsilon(1e-12));
  CHECK(p.torque == doctest::Approx(D * dp / ehm).epsilon(1e-12));
  // Driven back by the pressure (ω < 0, Δp > 0): the map is read at (|ω|, |Δp|), the
  // flow back through it is D ω / η_v and the torque it gives D Δp η_hm.
  p = pump_at(pump, -w, 0, dp);
  CHECK(p.flow == doctest::Approx(-D * w / ev).epsilon(1e-12));
  CHECK(p.torque == doctest::Approx(D * dp * ehm).epsilon(1e-12));
  CHECK(p.loss > 0.0);
  // Beyond the grid the map holds its edge: at 250 rad/s and 25 MPa, the (200, 20) point.
  p = pump_at(pump, 250, 0, 25e6);
  CHECK(p.flow == doctest::Approx(0.94 * D * 250).epsilon(1e-12));
  CHECK(p.torque == doctest::Approx(D * 25e6 / 0.91).epsilon(1e-12));
  // The motor, with the same maps, motoring: q = D ω / η_v, T = η_hm D Δp.
  json motor = pump;
  motor["type"] = "hydraulic.motor";
  motor["params"].erase("speed");
  const Point m = motor_at(motor, w, dp, 0);
  CHECK(m.flow == doctest::Approx(D * w / ev).epsilon(1e-12));
  CHECK(m.torque == doctest::Approx(D * dp * ehm).epsilon(1e-12));
  CHECK(m.loss == doctest::Approx(m.flow * dp - m.torque * w).epsilon(1e-12));
  // A map whose efficiency is out of (0, 1] is refused.
  pump["params"]["volumetric_efficiency_map"][0][2] = 1.2;
  json n = circuit({{"pump", pump}}, {}, {}, quick);
  CHECK(load_error(n).find("volumetric_efficiency_map") != std::string::npos);
}

TEST_CASE("variable motor: speed q η_v / (ε D) at a given flow; its displacement lag and minimum") {
  // An ideal pump delivers q = 1e-3 m³/s into a 1 L line; the motor (largest
  // displacement D, map with uniform η_v = 0.92 and η_hm = 0.9) turns an inertia against
  // its own viscous friction c. At steady state it passes q: ω = q η_v / (ε D), and its
  // torque η_hm ε D Δp balances c ω.
  const double q = 1e-3, ev = 0.92, ehm = 0.9, c = 0.25;
  auto uniform = [](double eta) {
    return json::array(
        {json::array({0, 0, eta}), json::array({1, 0, eta}), json::array({0, 1, eta}), json::array({1, 1, eta})});
  };
  json motor = {{"type", "hydraulic.variable_motor"},
                {"params",
                 {{"max_displacement", D},
                  {"min_fraction", 0.2},
                  {"time_constant", 0.01},
                  {"viscous_friction", c},
                  {"loss_model", "map"},
                  {"volumetric_efficiency_map", uniform(ev)},
                  {"hydromechanical_efficiency_map", uniform(ehm)}}}};
  json n = circuit({{"tank", {{"type", "hydraulic.tank"}}},
                    {"pump", {{"type", "hydraulic.pump"}, {"params", {{"displacement", q / 100}, {"speed", 100}}}}},
                    {"line", {{"type", "hydraulic.volume"}, {"params", {{"volume", 1e-3}, {"ports", 1}}}}},
                    {"cmd", constant_signal(0.5)},
                    {"motor", motor},
                    {"J", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.002}}}}}},
                   {{"tank.p", "pump.inlet"},
                    {"line.p1", "pump.outlet"},
                    {"line.p1", "motor.a"},
                    {"tank.p", "motor.b"},
                    {"cmd.out", "motor.displacement"},
                    {"motor.shaft", "J.a"}},
                   {"J.w", "line.pressure", "motor.displacement_fraction", "motor.flow"},
                   {{"method", "bdf"}, {"t_end", 1.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.001}});
  RunResult r = run_circuit(n);
  // From full displacement, ε follows 0.5 + 0.5 e^(−t/T): the lag's closed form, to the
  // integrator's tolerance (rtol 1e-10; 1e-7 leaves room for the output interpolation).
  CHECK(at_time(r, "motor.displacement_fraction", 0.01) == doctest::Approx(0.5 + 0.5 * std::exp(-1.0)).epsilon(1e-7));
  // The inertia (J = 0.002 kg m²) on the line's compliance: s² + (c/J) s + ω_n² = 0,
  // ω_n² = η_hm ε² D² β / (η_v V J); c/J = 125 /s. Its slowest root is that of the
  // smallest ε, 0.2 (overdamped, ω_n = 54 rad/s): −62.5 + sqrt(62.5² − 54²) ≈ −31 /s;
  // the lag decays at 100 /s. After 1 s both are below e^−31 ≈ 3e-14.
  for (double eps : {0.5, 1.0}) {
    CAPTURE(eps);
    n["components"]["cmd"]["params"]["value"] = eps;
    r = run_circuit(n);
    const double w = q * ev / (eps * D);
    CHECK(last(r, "J.w") == doctest::Approx(w).epsilon(1e-8));
    CHECK(last(r, "motor.flow") == doctest::Approx(q).epsilon(1e-8));
    CHECK(last(r, "line.pressure") == doctest::Approx(c * w / (ehm * eps * D)).epsilon(1e-8));
  }
  // A command below the minimum holds ε_min = 0.2.
  n["components"]["cmd"]["params"]["value"] = 0.05;
  r = run_circuit(n);
  CHECK(last(r, "motor.displacement_fraction") == doctest::Approx(0.2).epsilon(1e-9));
  CHECK(last(r, "J.w") == doctest::Approx(q * ev / (0.2 * D)).epsilon(1e-8));
}

TEST_CASE("variable motor, pressure control: full displacement as the pressure drop rises") {
  // ε = ε_min + (1 − ε_min) clamp((|Δp| − p_c) / Δp_band, 0, 1), no lag, no loss:
  // ε_min 0.3, p_c 15 MPa, band 5 MPa; at 17 MPa ε = 0.3 + 0.7 · 0.4 = 0.58.
  json motor = {{"type", "hydraulic.variable_motor"},
                {"params",
                 {{"max_displacement", D},
                  {"control", "pressure"},
                  {"min_fraction", 0.3},
                  {"control_pressure", 15e6},
                  {"regulation_band", 5e6},
                  {"dynamics", "none"}}}};
  for (const auto& [p, eps] : {std::pair{10e6, 0.3}, std::pair{17e6, 0.58}, std::pair{25e6, 1.0}}) {
    const double p_now = p, eps_now = eps;  // not the bindings: clang 14 cannot CAPTURE them
    CAPTURE(p_now);
    const Point m = motor_at(motor, 100, p_now, 0);
    CHECK(m.flow == doctest::Approx(eps_now * D * 100).epsilon(1e-12));
    CHECK(m.torque == doctest::Approx(eps_now * D * p_now).epsilon(1e-12));
  }
}

namespace {

// A load-sensing pump (D = 1e-5 m³/rad at 150 rad/s: 1.5 L/s at full stroke, lossless
// unless `leak`) into a 1 L line, which feeds the load through a metering orifice; the
// LS port reads the load's pressure. `load` is the element downstream of the orifice,
// `load_port` its port.
json ls_circuit(const json& load, const std::string& load_port, double leak) {
  json pump = {{"type", "hydraulic.variable_pump"},
               {"params",
                {{"max_displacement", D},
                 {"speed", 150},
                 {"control", "load_sensing"},
                 {"ls_margin", 2e6},
                 {"regulation_band", 1e6},
                 {"cutoff_pressure", 25e6},
                 {"volumetric_efficiency", 1 - leak},
                 {"dynamics", "first_order"},
                 {"time_constant", 0.02}}}};
  return circuit({{"tank", {{"type", "hydraulic.tank"}}},
                  {"pump", pump},
                  {"line", {{"type", "hydraulic.volume"}, {"params", {{"volume", 1e-3}, {"ports", 1}}}}},
                  {"metering",
                   {{"type", "hydraulic.orifice"},
                    {"params", {{"area", 2e-5}, {"discharge_coefficient", 0.65}, {"critical_flow_number", 10}}}}},
                  {"load", load}},
                 {{"tank.p", "pump.inlet"},
                  {"line.p1", "pump.outlet"},
                  {"line.p1", "metering.a"},
                  {load_port, "metering.b"},
                  {load_port, "pump.ls"}},
                 {"line.pressure", "pump.flow", "pump.displacement_fraction", "pump.ls_difference"},
                 {{"method", "bdf"}, {"t_end", 3.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.01}});
}

}  // namespace

TEST_CASE("load-sensing pump: the margin at steady state, with the band's droop") {
  // At steady state the pump passes the orifice's flow and its spool sits within the band:
  //   ε D ω = C_d A sqrt(2 Δp_m / ρ),   Δp_m = p_out − p_LS = m − ε b
  // (m = 2 MPa, b = 1 MPa). Squared: a ε² + k b ε − k m = 0 with a = (D ω)² and
  // k = 2 (C_d A)² / ρ, whose positive root is ε. (λ_crit = 10 makes the orifice turbulent
  // to the double's resolution at these drops.)
  const double p_load = 10e6, m = 2e6, b = 1e6, Dw = D * 150, CdA = 0.65 * 2e-5;
  const double a = Dw * Dw, k = 2 * CdA * CdA / 850;
  const double eps = (-k * b + std::sqrt(k * k * b * b + 4 * a * k * m)) / (2 * a);
  CHECK(eps == doctest::Approx(0.513).epsilon(1e-3));  // half stroke: within the band
  RunResult r = run_circuit(ls_circuit(source(p_load), "load.p", 0.0));
  // The loop (line compliance V/β, orifice conductance G = q/(2 Δp_m), lag T = 20 ms)
  // decays at (G β/V + 1/T)/2 ≈ 220 /s: after 3 s it has settled to the integrator's
  // tolerance, well below the 1e-8 checked here.
  CHECK(last(r, "pump.ls_difference") == doctest::Approx(m - eps * b).epsilon(1e-8));
  CHECK(last(r, "line.pressure") == doctest::Approx(p_load + m - eps * b).epsilon(1e-8));
  CHECK(last(r, "pump.displacement_fraction") == doctest::Approx(eps).epsilon(1e-8));
  CHECK(last(r, "pump.flow") == doctest::Approx(eps * Dw).epsilon(1e-8));
  // The margin is within the droop: between m − b (full stroke) and m (none).
  CHECK(last(r, "pump.ls_difference") < m);
  CHECK(last(r, "pump.ls_difference") > m - b);
}

TEST_CASE("load-sensing pump: the cut-off overrides it when the load stalls") {
  // The load is a closed 0.5 L volume: no flow, p_LS = p_out, the LS spool asks for full
  // stroke, and the compensator holds Δp = p_cut − ε b with ε D ω = k_leak Δp
  // (η_v = 0.95 at the 25 MPa rated pressure and at this speed: k_leak = 0.05 D ω / p_r):
  //   Δp = p_cut / (1 + b (1 − η_v) / p_r),   ε = (1 − η_v) Δp / p_r.
  const double p_cut = 25e6, b = 1e6, leak = 0.05;
  const double p = p_cut / (1 + b * leak / 25e6);
  RunResult r = run_circuit(
      ls_circuit({{"type", "hydraulic.volume"}, {"params", {{"volume", 5e-4}, {"ports", 1}}}}, "load.p1", leak));
  CHECK(last(r, "line.pressure") == doctest::Approx(p).epsilon(1e-8));
  CHECK(last(r, "pump.displacement_fraction") == doctest::Approx(leak * p / 25e6).epsilon(1e-7));
  // No flow through the orifice: p_LS = p_out, to the integrator's tolerance (rtol 1e-10
  // of 25 MPa: mPa); 1 Pa is a wide margin.
  CHECK(std::abs(last(r, "pump.ls_difference")) < 1.0);
}

TEST_CASE("energy: a Wilson pump drives a Wilson motor on an inertia; the account closes") {
  // Pump (150 rad/s, speed parameter: its drive is outside the model) -> 1 L line ->
  // motor (2 D, with a viscous load c = 2 N m s/rad) -> tank, the motor spinning up an
  // inertia until it takes the pump's flow, at about 75 rad/s and 7.5 MPa. (The load
  // damps the inertia on the line's compliance, ζ ≈ c / (2 sqrt(J (2D)² β / V)) = 0.4,
  // so that the line does not cavitate as the motor overshoots.)
  // Supplied: the pump's drive T ω; stored: the line's compression and ½ J ω²; lost:
  // each machine's Wilson losses and the motor's viscous load.
  const double c = 2.0;
  json pump = {{"type", "hydraulic.pump"}, {"params", wilson_params()}};
  pump["params"]["displacement"] = D;
  pump["params"]["speed"] = 150;
  json motor = {{"type", "hydraulic.motor"}, {"params", wilson_params()}};
  motor["params"]["displacement"] = 2 * D;
  motor["params"]["viscous_friction"] = c;
  json n = circuit({{"tank", {{"type", "hydraulic.tank"}}},
                    {"pump", pump},
                    {"line", {{"type", "hydraulic.volume"}, {"params", {{"volume", 1e-3}, {"ports", 1}}}}},
                    {"motor", motor},
                    {"J", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.01}}}}}},
                   {{"tank.p", "pump.inlet"},
                    {"line.p1", "pump.outlet"},
                    {"line.p1", "motor.a"},
                    {"tank.p", "motor.b"},
                    {"motor.shaft", "J.a"}},
                   {"J.w", "line.pressure", "pump.power_loss", "motor.power_loss"},
                   {{"method", "dopri5"}, {"t_end", 2.0}, {"rtol", 1e-10}, {"atol", 1e-8}, {"output_interval", 1e-3}});
  n["energy"] = true;
  RunResult r = run_circuit(n);
  // dopri5 at rtol 1e-10: the account's quadrature follows the integrator's steps, so
  // the residual is the integration error, orders below 1e-8 of the energy moved.
  check_energy_balance(r, 1e-8);
  // The loss observables are the closed-form Wilson losses at the last row (the motor at
  // −ω in the pump's convention has the same three terms), the motor's with c ω².
  const double mu = 850 * 4.6e-5, p = last(r, "line.pressure"), w = last(r, "J.w");
  CHECK(w > 50.0);
  CHECK(p > 5e6);
  CHECK(last(r, "pump.power_loss") == doctest::Approx(wilson_loss(150, p, mu)).epsilon(1e-9));
  const double motor_loss = Cv * mu * 2 * D * w * w + (Cf * 2 * D * p + Tc) * w * std::tanh(w / 1.5707963267948966) +
                            Cs * 2 * D * p * p / mu + c * w * w;
  CHECK(last(r, "motor.power_loss") == doctest::Approx(motor_loss).epsilon(1e-9));
  const json& e = r.summary.at("energy");
  CHECK(e["components"]["pump"]["lost"].get<double>() > 0.0);
  CHECK(e["components"]["motor"]["lost"].get<double>() > 0.0);
}
