// Heat ports of the hydraulic components that lose power ("heat_port": true): an
// orifice's heat is Δp q by the orifice law; a relief valve's and a pump's losses warm
// the oil's heat capacity, and the energy account counts them once, as port power; every
// other heat port (directional valve, motor, cylinder) closes its balance the same way.
#include <cmath>
#include <string>
#include <vector>

#include "hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const double rho = 850.0;  // the default fluid


// ∫ y dt over a run's rows, by the trapezoidal rule.
double integral(const RunResult& r, const std::string& column) {
  const auto t = r.column("time"), y = r.column(column);
  double sum = 0.0;
  for (size_t k = 1; k < t.size(); ++k) sum += 0.5 * (y[k] + y[k - 1]) * (t[k] - t[k - 1]);
  return sum;
}

// The energy account of a component with a heat port: it loses nothing itself (no Loss
// role: "lost" absent or 0); its port `heat` carries out what it lost, ∫ power_loss dt.
// `relative` bounds the trapezoidal rule's error on the recorded rows.
void check_heat_port(const RunResult& r, const std::string& name, double relative) {
  CAPTURE(name);
  const json& c = r.summary.at("energy").at("components").at(name);
  CHECK(c.value("lost", 0.0) == 0.0);
  REQUIRE(c["ports"].contains("heat"));
  CHECK(c["ports"]["heat"]["domain"] == "thermal");
  CHECK(c["ports"]["heat"]["in"].get<double>() == 0.0);  // losses are never negative
  const double out = c["ports"]["heat"]["out"].get<double>(), lost = integral(r, name + ".power_loss");
  CHECK(out > 0.0);
  CHECK(out == doctest::Approx(lost).epsilon(relative));
}

}  // namespace

TEST_CASE("orifice heat port: the heat it gives the surroundings is Δp q, by the orifice law") {
  // As the orifice's own test: p_a sweeps −2 MPa ... +2 MPa, b is the tank, through the
  // laminar region and the turbulent law; the heat port is on a fixed temperature, which
  // takes whatever heat flow it is given. The flow is an algebraic function of Δp, so the
  // heat flow is too: every row against Δp q(Δp), both ways (Δp q ≥ 0).
  const double cd = 0.65, d = 0.002, A = pi * d * d / 4, lc = 200;
  json n = circuit(
      {{"ramp", {{"type", "signal.ramp"}, {"params", {{"start_time", 0}, {"slope", 1e6}, {"offset", -2e6}}}}},
       {"pa", {{"type", "hydraulic.pressure_source"}, {"params", {{"source", "signal"}}}}},
       {"tank", {{"type", "hydraulic.tank"}}},
       {"orifice",
        {{"type", "hydraulic.orifice"},
         {"params", {{"diameter", d}, {"discharge_coefficient", cd}, {"critical_flow_number", lc}, {"heat_port", true}}}}},
       {"air", {{"type", "thermal.fixed_temperature"}, {"params", {{"temperature", "40 degC"}}}}}},
      {{"ramp.out", "pa.command"}, {"pa.p", "orifice.a"}, {"tank.p", "orifice.b"}, {"orifice.heat", "air.p"}},
      {"orifice.pressure_drop", "orifice.flow", "orifice.power_loss", "orifice.heat.Q", "air.heat_flow"},
      {{"method", "rk4"}, {"t_end", 4.0}, {"step", 1e-3}, {"output_interval", 1e-2}});
  RunResult r = run_circuit(n);
  const auto dp = r.column("orifice.pressure_drop"), q = r.column("orifice.flow");
  const auto loss = r.column("orifice.power_loss"), port = r.column("orifice.heat.Q"), air = r.column("air.heat_flow");
  for (size_t k = 0; k < dp.size(); ++k) {
    CAPTURE(dp[k]);
    const double heat = dp[k] * orifice_law(cd, A, dp[k], lc);
    CHECK(port[k] == doctest::Approx(heat).epsilon(1e-12));
    CHECK(air[k] == port[k]);   // what the port returns is what the surroundings receive
    CHECK(loss[k] == port[k]);  // and it is the observable power_loss, Δp q
    CHECK(q[k] == doctest::Approx(orifice_law(cd, A, dp[k], lc)).epsilon(1e-12));
  }
  // At the ends, turbulent: Δp C_d A sqrt(2Δp/ρ) = 2e6 · 0.65 · 3.14e-6 · 68.6 = 280 W.
  CHECK(port.back() == doctest::Approx(2e6 * turbulent_flow(cd, A, 2e6, rho)).epsilon(1e-12));
  CHECK(port.front() == doctest::Approx(port.back()).epsilon(1e-12));
}

TEST_CASE("relief valve and pump heat ports warm the oil; the energy account counts the heat once") {
  // A pump (η_v 0.9 at 10 MPa, η_hm 0.95) fills a 10 L volume guarded by a relief valve
  // (p_c = 10 MPa, G = 2e-9 m³/(s Pa)); both heat ports go to the oil's heat capacity
  // (C = 20 kJ/K). The pressure reaches p_c after about V p_c/(β Q) = 67 ms and settles
  // at p_c + q/G with the volume's time constant V/(β G) = 3.3 ms; from then on the
  // relief valve throttles about 9 kW and the pump loses k_leak Δp² + D ω Δp (1/η_hm − 1),
  // about 1.6 kW.
  const double C = 20e3;
  json n = circuit(
      {{"tank", {{"type", "hydraulic.tank"}}},
       {"pump",
        {{"type", "hydraulic.pump"},
         {"params",
          {{"displacement", 1e-5},
           {"speed", 100},
           {"volumetric_efficiency", 0.9},
           {"rated_pressure", 10e6},
           {"hydromechanical_efficiency", 0.95},
           {"heat_port", true}}}}},
       {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", 1e-2}, {"ports", 1}}}}},
       {"relief",
        {{"type", "hydraulic.relief_valve"},
         {"params", {{"cracking_pressure", 10e6}, {"gradient", 2e-9}, {"critical_flow_number", 10}, {"heat_port", true}}}}},
       {"oil", {{"type", "thermal.heat_capacity"}, {"params", {{"heat_capacity", C}}}, {"initial", {{"T", "40 degC"}}}}}},
      {{"tank.p", "pump.inlet"},
       {"vol.p1", "pump.outlet"},
       {"vol.p1", "relief.p"},
       {"tank.p", "relief.t"},
       {"pump.heat", "oil.p"},
       {"relief.heat", "oil.p"}},
      {"vol.pressure", "relief.power_loss", "pump.power_loss", "oil.T"},
      {{"method", "dopri5"}, {"t_end", 0.3}, {"rtol", 1e-10}, {"atol", 1e-8}, {"output_interval", 1e-4}});
  n["energy"] = true;
  RunResult r = run_circuit(n);
  const json& e = r.summary.at("energy");
  // The account closes to the integrator's accuracy (its quadrature is exact to degree 5
  // on each step): dopri5 at rtol 1e-10 keeps the global error well below 1e-8 of the
  // energy moved (3e-12 when this test was written), so 1e-8 is a wide margin; a loss
  // counted twice (as Loss and as port power) would leave a residual as large as the
  // heat itself, 2.5 kJ.
  check_energy_balance(r, 1e-8);
  // The trapezoidal rule on rows 0.1 ms apart: its error, h²/12 ∫|P''| dt, is largest
  // where the relief valve opens (P turns on from 0 within the 3.3 ms transient, |P''|
  // ~ P/τ²): about (h/τ)²/12 · P τ ≈ 8e-5 · 30 J = 2 mJ against the 2.1 kJ the relief
  // valve loses: 1e-6 relative.
  check_heat_port(r, "relief", 1e-5);
  check_heat_port(r, "pump", 1e-5);
  // The oil stored all of it: C ΔT = the heat out of the two ports (the capacity's own
  // balance, to the integrator's accuracy).
  const json& c = e["components"];
  const double heat = c["relief"]["ports"]["heat"]["out"].get<double>() + c["pump"]["ports"]["heat"]["out"].get<double>();
  CHECK(c["oil"]["stored"]["change"].get<double>() == doctest::Approx(heat).epsilon(1e-8));
  CHECK(C * (last(r, "oil.T") - 313.15) == doctest::Approx(heat).epsilon(1e-8));
  // No Loss in the hydraulic domain: all of it went to the thermal domain.
  CHECK(e["domains"]["hydraulic"]["lost"].get<double>() == 0.0);
  CHECK(e["domains"]["thermal"]["in"].get<double>() == doctest::Approx(heat).epsilon(1e-12));
}

TEST_CASE("directional valve, motor and cylinder heat ports: their losses reach the oil, the account closes") {
  // A pressure source feeds, through a 4/3 valve half open, a cylinder with friction and
  // leakage pushing a mass against a spring, and a motor (η_hm 0.9, leakage, viscous
  // friction) on an inertia across the cylinder's chambers; every loss goes to one heat
  // capacity.
  json n = circuit(
      {{"supply", {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", 10e6}}}}},
       {"tank", {{"type", "hydraulic.tank"}}},
       {"cmd", {{"type", "signal.constant"}, {"params", {{"value", 5e-4}}}}},
       {"valve",
        {{"type", "hydraulic.valve_4_3"},
         {"params", {{"max_opening", 1e-3}, {"max_area", 2e-5}, {"dynamics", "none"}, {"heat_port", true}}}}},
       {"motor",
        {{"type", "hydraulic.motor"},
         {"params",
          {{"displacement", 1e-6},
           {"volumetric_efficiency", 0.9},
           {"hydromechanical_efficiency", 0.9},
           {"viscous_friction", 1e-3},
           {"heat_port", true}}}}},
       {"J", {{"type", "rotational.inertia"}, {"params", {{"inertia", 1e-3}}}}},
       {"cyl",
        {{"type", "hydraulic.cylinder"},
         {"params",
          {{"bore_diameter", 0.04},
           {"rod_diameter", 0.02},
           {"stroke", 0.2},
           {"viscous_friction", 2e3},
           {"coulomb_friction", 100},
           {"leakage", 1e-13},
           {"dead_volume_a", 1e-4},
           {"dead_volume_b", 1e-4},
           {"heat_port", true}}}}},
       {"m", {{"type", "mechanical1d.mass"}, {"params", {{"mass", 10}}}}},
       {"k", {{"type", "mechanical1d.spring"}, {"params", {{"stiffness", 1e5}}}}},
       {"wall", {{"type", "mechanical1d.fixed"}}},
       {"oil", {{"type", "thermal.heat_capacity"}, {"params", {{"heat_capacity", 1e3}}}}}},
      {{"supply.p", "valve.p"},
       {"tank.p", "valve.t"},
       {"cmd.out", "valve.command"},
       {"cyl.a", "valve.a"},
       {"cyl.b", "valve.b"},
       {"cyl.a", "motor.a"},
       {"cyl.b", "motor.b"},
       {"motor.shaft", "J.a"},
       {"cyl.rod", "m.p"},
       {"k.a", "m.p"},
       {"k.b", "wall.p"},
       {"valve.heat", "oil.p"},
       {"motor.heat", "oil.p"},
       {"cyl.heat", "oil.p"}},
      {"valve.power_loss", "motor.power_loss", "cyl.power_loss", "oil.T"},
      {{"method", "dopri5"}, {"t_end", 0.2}, {"rtol", 1e-10}, {"atol", 1e-8}, {"output_interval", 1e-5}});
  n["energy"] = true;
  RunResult r = run_circuit(n);
  const json& e = r.summary.at("energy");
  check_energy_balance(r, 1e-8);
  // The valve opens at once: the chambers fill with a time constant of about 0.1 ms at
  // the start, which rows 10 µs apart resolve; the trapezoidal rule's error there,
  // (h/τ)²/12 of the energy of that transient, stays below 1e-6 of what is lost.
  for (const std::string name : {"valve", "motor", "cyl"}) check_heat_port(r, name, 1e-5);
  double heat = 0.0;
  for (const std::string name : {"valve", "motor", "cyl"})
    heat += e["components"][name]["ports"]["heat"]["out"].get<double>();
  CHECK(e["components"]["oil"]["stored"]["change"].get<double>() == doctest::Approx(heat).epsilon(1e-8));
}

TEST_CASE("oil temperature: a volume's oil warmed by an orifice's loss, the orifice's fluid at that temperature") {
  // A flow source pushes Q = 1 L/min through a 1 mm orifice (λ_crit = 20000: mostly
  // laminar, so its pressure drop follows the viscosity) out of a 0.1 L volume whose oil
  // is a heat capacity (oil_temperature). The orifice's heat port is on that oil: its loss
  // Δp q warms it, and it reads the oil's temperature, so its fluid is at T: ν(T) by
  // Walther (ISO VG 46), ρ(T) by thermal expansion. As the oil warms, ν falls and so do
  // Δp and the heating.
  const double Q = 1e-3 / 60.0, d = 1e-3, lambda_crit = 2e4, cd = 0.7, rho15 = 870.0, alpha = 7e-4;
  const json fluid = {{"reference_temperature", "15 degC"},
                      {"density", rho15},
                      {"thermal_expansion", alpha},
                      {"viscosity_at", json::array({json::array({"40 degC", "46 cSt"}), json::array({"100 degC", "6.8 cSt"})})}};
  json n = circuit(
      {{"pump", {{"type", "hydraulic.flow_source"}, {"params", {{"flow", Q}}}}},
       {"oil", {{"type", "hydraulic.volume"}, {"params", {{"volume", "0.1 L"}, {"oil_temperature", true}}}}},
       {"orifice",
        {{"type", "hydraulic.orifice"},
         {"params", {{"diameter", d}, {"critical_flow_number", lambda_crit}, {"heat_port", true}}}}},
       {"tank", {{"type", "hydraulic.tank"}}}},
      {{"oil.p1", "pump.p"}, {"oil.p2", "orifice.a"}, {"tank.p", "orifice.b"}, {"oil.heat", "orifice.heat"}},
      {"oil.T", "oil.pressure", "orifice.flow", "orifice.pressure_drop", "orifice.power_loss"},
      {{"method", "bdf"}, {"t_end", 20.0}, {"rtol", 1e-10}, {"atol", 1e-10}, {"output_interval", 0.01}}, fluid);
  n["components"]["oil"]["initial"] = {{"T", "40 degC"}};
  n["energy"] = true;
  RunResult r = run_circuit(n);
  // Walther through the two points (ASTM D341), ν in cSt, T in K; ρ(T) from 15 °C.
  auto W = [](double v) { return std::log10(std::log10(v + 0.7)); };
  const double B = (W(46.0) - W(6.8)) / (std::log10(373.15) - std::log10(313.15));
  const double A = W(46.0) + B * std::log10(313.15);
  auto viscosity = [&](double T) { return (std::pow(10.0, std::pow(10.0, A - B * std::log10(T))) - 0.7) * 1e-6; };
  auto density = [&](double T) { return rho15 / (1.0 + alpha * (T - 288.15)); };
  // At every row the orifice's flow is the orifice law with the oil's ν(T) and ρ(T).
  const auto T = r.column("oil.T"), dp = r.column("orifice.pressure_drop"), q = r.column("orifice.flow");
  const double area = pi * d * d / 4.0;
  for (size_t k = 0; k < T.size(); ++k) {
    CAPTURE(k);
    CHECK(q[k] == doctest::Approx(orifice_law(cd, area, dp[k], lambda_crit, density(T[k]), viscosity(T[k]))).epsilon(1e-12));
  }
  // The oil warms (C = ρ_15 V c_p = 165.3 J/K) by exactly the heat the orifice's port
  // carried (the account's quadrature), and its warmer, thinner oil passes the same flow
  // at a lower pressure drop.
  const double C = rho15 * 1e-4 * 1900.0;
  const json& e = r.summary.at("energy");
  const double heat = e["components"]["orifice"]["ports"]["heat"]["out"].get<double>();
  CHECK(T.back() > T.front() + 5.0);
  CHECK(C * (T.back() - T.front()) == doctest::Approx(heat).epsilon(1e-8));
  MESSAGE("oil " << T.front() << " -> " << T.back() << " K; pressure drop at its peak " << *std::max_element(dp.begin(), dp.end())
                  << " Pa, at the end " << dp.back() << " Pa");
  CHECK(dp.back() < 0.8 * *std::max_element(dp.begin(), dp.end()));
  // The energy account: the orifice loses nothing itself, and its heat port carries ∫ Δp q
  // (the trapezoidal rule on 10 ms rows, through the first milliseconds' pressure rise:
  // 1e-3); the balance closes to the run's accuracy.
  check_heat_port(r, "orifice", 1e-3);
  check_energy_balance(r, 1e-8);
}
