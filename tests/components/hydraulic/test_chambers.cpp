// Capacitive elements: pressure build-up in a closed volume (dp/dt = β Q / V, also with
// entrained air), decompression through an orifice, the vapour limit (a cavity opens and
// must refill), the accumulator's gas law, and the volume balance of a closed circuit.
#include <cmath>

#include "hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const json bdf_tight = {{"method", "bdf"}, {"t_end", 2.0}, {"rtol", 1e-9}, {"atol", 1e-12}, {"output_interval", 0.01}};

}  // namespace

TEST_CASE("pressure build-up in a closed volume: dp/dt = beta Q / V, and the tank gives what the volume stores") {
  // A leak-free pump (D = 1e-6 m³/rad at 10 rad/s: Q = 1e-5 m³/s) fills V = 10 L of oil with
  // β = 1.5 GPa (the default fluid): p = β Q t / V = 1.5 MPa/s · t.
  const double Q = 1e-5, V = 0.01, beta = 1.5e9;
  json n = circuit({{"tank", {{"type", "hydraulic.tank"}}},
                    {"pump", {{"type", "hydraulic.pump"}, {"params", {{"displacement", 1e-6}, {"speed", 10}}}}},
                    {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", V}, {"ports", 1}}}}}},
                   {{"tank.p", "pump.inlet"}, {"vol.p1", "pump.outlet"}},
                   {"vol.pressure", "vol.p", "tank.volume", "pump.flow"}, bdf_tight);
  RunResult r = run_circuit(n);
  const auto t = r.column("time"), p = r.column("vol.pressure"), tank = r.column("tank.volume");
  for (size_t k = 0; k < t.size(); ++k) {
    // The right-hand side is constant: BDF integrates a straight line exactly, and CVODE's
    // Newton iteration solves the linear corrector in one step; only rounding remains.
    CHECK(p[k] == doctest::Approx(beta * Q * t[k] / V).epsilon(1e-10).scale(1.0));
    // Volume balance: what the tank gave, the volume holds compressed, V p / β.
    CHECK(tank[k] + V * p[k] / beta == doctest::Approx(0.0).scale(1e-15));
  }
  CHECK(last(r, "pump.flow") == doctest::Approx(Q).epsilon(1e-14));
}

TEST_CASE(
    "with entrained air the bulk modulus depends on pressure, and the build-up follows t = (V/Q) integral dp/beta(p)") {
  // α = 1% air at atmospheric pressure, isothermal (n = 1): β(p) = β_l (1 + x)/(1 + x β_l/(n p_abs)),
  // x = α p_atm/p_abs. The closed form of the build-up is t(p) = (V/Q) ∫_0^p dp'/β(p').
  const double Q = 1e-4, V = 0.01, beta_l = 1.5e9, alpha = 0.01, p_atm = 101325.0;
  json n = circuit({{"tank", {{"type", "hydraulic.tank"}}},
                    {"pump", {{"type", "hydraulic.pump"}, {"params", {{"displacement", 1e-5}, {"speed", 10}}}}},
                    {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", V}, {"ports", 1}}}}}},
                   {{"tank.p", "pump.inlet"}, {"vol.p1", "pump.outlet"}}, {"vol.pressure", "vol.bulk_modulus"},
                   bdf_tight, {{"air_fraction", alpha}});
  RunResult r = run_circuit(n);
  auto beta = [&](double p) {
    const double p_abs = p + p_atm, x = alpha * p_atm / p_abs;
    return beta_l * (1 + x) / (1 + x * beta_l / p_abs);
  };
  // At atmospheric pressure the 1% of air brings β down to about 1% of β_l's hundredth.
  CHECK(r.column("vol.bulk_modulus").front() == doctest::Approx(beta(0.0)).epsilon(1e-12));
  CHECK(beta(0.0) < 0.01 * beta_l);
  // t(p) by Simpson's rule on 20 000 intervals: 1/β is smooth, the quadrature error is
  // far below the 1e-6 s we ask for.
  auto t_of = [&](double p) {
    const int m = 20000;
    const double h = p / m;
    double s = 1 / beta(0) + 1 / beta(p);
    for (int i = 1; i < m; ++i) s += (i % 2 ? 4.0 : 2.0) / beta(i * h);
    return V / Q * s * h / 3.0;
  };
  const auto t = r.column("time"), p = r.column("vol.pressure");
  double worst = 0.0;
  for (size_t k = 10; k < t.size(); k += 10) worst = std::max(worst, std::abs(t_of(p[k]) - t[k]));
  MESSAGE("p(2 s) = " << p.back() << " Pa; largest |t(p) - t| = " << worst << " s");
  // rtol 1e-9 on p; dt = dp/(dp/dt): the time error is about 1e-9 t: 1e-6 s is a wide margin.
  CHECK(worst < 1e-6);
  CHECK(p.back() > 1e6);  // the run went well past the air's soft region
}

TEST_CASE("decompression of a volume through an orifice takes (2V/(beta Cd A)) sqrt(rho/2) (sqrt(p0) - sqrt(p1))") {
  // V = 10 L at 20 MPa, β = 1 GPa, ρ = 850, an orifice of 1 mm² with C_d 0.7 to the tank.
  // With constant β, V dp/dt = −β C_d A sqrt(2p/ρ) integrates to the reference's formula.
  // critical_flow_number 10 keeps the orifice turbulent down to p1 = 1 MPa: λ = D_h
  // sqrt(2p/ρ)/ν = 1190 there, tanh(2λ/λ_crit) = 1 to double precision.
  const double V = 0.01, beta = 1e9, rho = 850, cd = 0.7, A = 1e-6, p0 = 20e6, p1 = 1e6;
  json n = circuit(
      {{"tank", {{"type", "hydraulic.tank"}}},
       {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", V}, {"ports", 1}}}, {"initial", {{"p", p0}}}}},
       {"orifice",
        {{"type", "hydraulic.orifice"},
         {"params", {{"area", A}, {"discharge_coefficient", cd}, {"critical_flow_number", 10}}}}},
       {"sensor", {{"type", "hydraulic.pressure_sensor"}}},
       {"switch", {{"type", "signal.comparator"}, {"params", {{"lower", p1}, {"upper", 19e6}}}}}},
      {{"vol.p1", "orifice.a"}, {"tank.p", "orifice.b"}, {"vol.p1", "sensor.p"}, {"sensor.out", "switch.in"}},
      {"vol.pressure", "orifice.flow"},
      {{"method", "bdf"}, {"t_end", 3.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.01}},
      {{"density", rho}, {"bulk_modulus", beta}});
  RunResult r = run_circuit(n);
  const double expected = 2 * V / (beta * cd * A) * std::sqrt(rho / 2) * (std::sqrt(p0) - std::sqrt(p1));
  const double t1 = event_time(r, "switch", "fell below lower");
  MESSAGE("decompression to 1 MPa: " << t1 << " s, closed form " << expected << " s");
  // CVODE at rtol 1e-10: the located crossing is within ~1e-9 relative of the exact one.
  CHECK(t1 == doctest::Approx(expected).epsilon(1e-7));
  // The flow at the start is the turbulent law at 20 MPa.
  CHECK(r.column("orifice.flow").front() == doctest::Approx(turbulent_flow(cd, A, p0, rho)).epsilon(1e-12));
}

TEST_CASE("no pressure below the vapour pressure: a cavity opens, and must refill before the pressure rises") {
  // A pump draws Q = 1e-6 m³/s out of V = 10 L (β = 1.5 GPa) from 0.1 MPa, then reverses at
  // t = 2 s. Vapour pressure 1 kPa abs, atmosphere 101 325 Pa: p_min = −100 325 Pa (gauge).
  //   p = p0 − β Q t / V until t_c = (p0 − p_min) V / (β Q) = 1.33550 s,
  //   cavity = Q (t − t_c) until t = 2 s, then it shrinks at Q: empty at t_r = 4 − t_c,
  //   then p = p_min + β Q (t − t_r) / V.
  const double Q = 1e-6, V = 0.01, beta = 1.5e9, p0 = 1e5, p_min = 1000.0 - 101325.0;
  json n = circuit(
      {{"tank", {{"type", "hydraulic.tank"}}},
       {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", V}, {"ports", 1}}}, {"initial", {{"p", p0}}}}},
       {"pump",
        {{"type", "hydraulic.pump"}, {"params", {{"displacement", 1e-6}, {"speed", 1}, {"speed_source", "signal"}}}}},
       {"speed", {{"type", "signal.step"}, {"params", {{"step_time", 2}, {"before", 1}, {"after", -1}}}}}},
      {{"vol.p1", "pump.inlet"}, {"tank.p", "pump.outlet"}, {"speed.out", "pump.speed"}},
      {"vol.pressure", "vol.cavity", "tank.volume"},
      {{"method", "bdf"}, {"t_end", 3.5}, {"rtol", 1e-10}, {"atol", 1e-14}, {"output_interval", 0.005}},
      {{"vapour_pressure", 1000.0}});
  RunResult r = run_circuit(n);
  const double t_c = (p0 - p_min) * V / (beta * Q), t_r = 4.0 - t_c;
  const auto t = r.column("time"), p = r.column("vol.pressure"), cavity = r.column("vol.cavity"),
             tank = r.column("tank.volume");
  for (size_t k = 0; k < t.size(); ++k) {
    CAPTURE(t[k]);
    CHECK(p[k] >= p_min);  // never below the vapour pressure, not even by rounding
    double p_exact, cavity_exact;
    if (t[k] < t_c)
      p_exact = p0 - beta * Q * t[k] / V, cavity_exact = 0.0;
    else if (t[k] < 2.0)
      p_exact = p_min, cavity_exact = Q * (t[k] - t_c);
    else if (t[k] < t_r)
      p_exact = p_min, cavity_exact = Q * (t_r - t[k]);
    else
      p_exact = p_min + beta * Q * (t[k] - t_r) / V, cavity_exact = 0.0;
    // Piecewise linear: exact for BDF between the kinks; CVODE steps across a kink (no
    // event) with an error bounded by its tolerances, here ~1e-9 of the scales involved.
    const bool near_kink = std::abs(t[k] - t_c) < 0.02 || std::abs(t[k] - t_r) < 0.02;
    if (!near_kink) {
      CHECK(p[k] == doctest::Approx(p_exact).scale(1.0).epsilon(1e-6));
      CHECK(cavity[k] == doctest::Approx(cavity_exact).epsilon(1e-6).scale(1e-9));
    }
    // Volume balance, cavity included: what left the volume is the decompression plus the cavity.
    CHECK(tank[k] + V * (p[k] - p0) / beta - cavity[k] == doctest::Approx(0.0).scale(1e-12));
  }
  MESSAGE("largest cavity " << column_max(r, "vol.cavity") << " m³ (closed form " << Q * (2.0 - t_c) << ")");
  CHECK(column_max(r, "vol.cavity") == doctest::Approx(Q * (2.0 - t_c)).epsilon(1e-5));
}

TEST_CASE("accumulator: the gas follows p V^n = const above the precharge") {
  // V0 = 10 L of nitrogen precharged at 5 MPa, n = 1.4, charged by Q = 1e-4 m³/s from
  // 5 MPa (its start, just at the precharge). The stored liquid is V_l = V0 − V_g with
  // V_g = V0 ((p0 + p_atm)/(p + p_atm))^(1/n), and the dead volume V_d = 0.1 L stores V_d (p − p0)/β:
  //   Q t = V0 − V_g(p) + V_d (p − p0)/β.
  const double Q = 1e-4, V0 = 0.01, p0 = 5e6, n_poly = 1.4, Vd = 1e-4, beta = 1.5e9, p_atm = 101325.0;
  json n =
      circuit({{"tank", {{"type", "hydraulic.tank"}}},
               {"pump", {{"type", "hydraulic.pump"}, {"params", {{"displacement", 1e-5}, {"speed", 10}}}}},
               {"acc",
                {{"type", "hydraulic.accumulator"},
                 {"params", {{"gas_volume", V0}, {"precharge", p0}, {"polytropic_index", n_poly}, {"dead_volume", Vd}}},
                 {"initial", {{"p", p0}}}}}},
              {{"tank.p", "pump.inlet"}, {"acc.p", "pump.outlet"}},
              {"acc.pressure", "acc.gas_volume", "acc.liquid_volume", "tank.volume"},
              {{"method", "bdf"}, {"t_end", 40.0}, {"rtol", 1e-10}, {"atol", 1e-14}, {"output_interval", 0.1}});
  RunResult r = run_circuit(n);
  const auto t = r.column("time"), p = r.column("acc.pressure"), vg = r.column("acc.gas_volume"),
             tank = r.column("tank.volume");
  for (size_t k = 1; k < t.size(); ++k) {
    const double vg_exact = V0 * std::pow((p0 + p_atm) / (p[k] + p_atm), 1 / n_poly);
    CHECK(vg[k] == doctest::Approx(vg_exact).epsilon(1e-12));
    // The state is the pressure; the volume it stores is a function of it: the balance
    // holds to the integration error (rtol 1e-10 on p, amplified by dV/dp·p/V ~ 1/n).
    CHECK(Q * t[k] == doctest::Approx(V0 - vg[k] + Vd * (p[k] - p0) / beta).epsilon(1e-8));
    CHECK(-tank[k] == doctest::Approx(Q * t[k]).epsilon(1e-12));
  }
  MESSAGE("after 4 L: p = " << p.back() << " Pa");
  // 4 L into 10 L of gas: (V0/(V0 − 4 L))^1.4 p0_abs − p_atm ≈ 10.3 MPa.
  CHECK(p.back() == doctest::Approx(std::pow(V0 / (V0 - 4e-3), n_poly) * (p0 + p_atm) - p_atm).epsilon(2e-3));
}

TEST_CASE("volume balance of a closed circuit: pump, volumes, accumulator, pipe, orifice and relief valve") {
  // tank -> pump -> volume a -> orifice -> pipe (2 nodes) -> relief -> tank, with an
  // accumulator on volume a through a second orifice.
  // Every resistive element passes on what it takes, so the tank's account plus the
  // liquid stored in each capacitive element (V p/β for a rigid volume or a pipe node;
  // V_l + V_d p/β for the accumulator) stays zero.
  const double beta = 1.5e9, Va = 2e-3, pipe_volume = pi * 0.01 * 0.01 / 4 * 2.0;
  json n = circuit(
      {{"tank", {{"type", "hydraulic.tank"}}},
       {"pump", {{"type", "hydraulic.pump"}, {"params", {{"displacement", 1e-5}, {"speed", 100}}}}},
       {"a", {{"type", "hydraulic.volume"}, {"params", {{"volume", Va}, {"ports", 3}}}}},
       {"acc",
        {{"type", "hydraulic.accumulator"},
         {"params", {{"gas_volume", 1e-3}, {"precharge", 2e6}, {"dead_volume", 1e-5}}}}},
       {"orifice", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", 0.006}}}}},
       {"acc_line", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", 0.003}}}}},
       {"pipe",
        {{"type", "hydraulic.pipe"},
         {"params", {{"length", 2.0}, {"diameter", 0.01}, {"segments", 1}, {"ends", "state_state"}}}}},
       {"relief", {{"type", "hydraulic.relief_valve"}, {"params", {{"cracking_pressure", 5e6}, {"gradient", 1e-9}}}}}},
      {{"tank.p", "pump.inlet"},
       {"a.p1", "pump.outlet"},
       {"a.p2", "acc_line.a"},
       {"acc.p", "acc_line.b"},
       {"a.p3", "orifice.a"},
       {"pipe.a", "orifice.b"},
       {"pipe.b", "relief.p"},
       {"tank.p", "relief.t"}},
      {"tank.volume", "a.pressure", "acc.pressure", "acc.liquid_volume", "pipe.p1", "pipe.p2"},
      {{"method", "bdf"}, {"t_end", 3.0}, {"rtol", 1e-9}, {"atol", 1e-13}, {"output_interval", 0.01}});
  RunResult r = run_circuit(n);
  const auto tank = r.column("tank.volume"), pa = r.column("a.pressure"), pacc = r.column("acc.pressure"),
             vl = r.column("acc.liquid_volume"), p1 = r.column("pipe.p1"), p2 = r.column("pipe.p2");
  double worst = 0.0;
  for (size_t k = 0; k < tank.size(); ++k) {
    const double stored = Va * pa[k] / beta + vl[k] + 1e-5 * pacc[k] / beta + pipe_volume / 2 * (p1[k] + p2[k]) / beta;
    worst = std::max(worst, std::abs(tank[k] + stored));
  }
  MESSAGE("net volume out of the tank " << -tank.back() << " m³; largest imbalance " << worst
                                        << " m³; p_a = " << pa.back() << " Pa");
  // The pump delivered 3e-3 m³, most of it back to the tank through the relief valve. The
  // rigid volumes and the pipe hold linear invariants that BDF keeps exactly; the
  // accumulator's volume is nonlinear in its pressure state: its error is the global
  // integration error, rtol 1e-9 of the ~5e-4 m³ it holds per step, accumulated over the
  // run's steps: 1e-10 m³ (2e-7 of its content) bounds it.
  CHECK(worst < 1e-10);
  CHECK(pa.back() > 5e6);    // the relief valve is open: the circuit went through its whole range
  CHECK(pacc.back() > 5e6);  // and the accumulator is charged
}
