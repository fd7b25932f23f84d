// Cylinders: speed v = Q/A under a flow source, the hydraulic natural frequency of a
// cylinder-mass, the static hold p = m g / A_B (and the drift that internal leakage
// causes), the end stops, and the planar cylinder lifting a pinned boom.
#include <cmath>

#include "hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

TEST_CASE("cylinder speed v = Q / A_A under a flow source, and the rod side's flow A_B v") {
  // A leak-free pump pushes Q = 1e-4 m³/s into chamber A (A_A = 1e-3 m²); chamber B
  // (A_B = 5e-4 m²) drains through an orifice. Once the oil spring's transient has died
  // (ω ≈ 870 rad/s, damped by the orifice and 1000 N s/m of friction), dp/dt = 0 in both
  // chambers: v = Q/A_A exactly, and B delivers A_B v.
  const double Q = 1e-4, Aa = 1e-3, Ab = 5e-4;
  json n = circuit(
      {{"tank", {{"type", "hydraulic.tank"}}},
       {"pump", {{"type", "hydraulic.pump"}, {"params", {{"displacement", 1e-6}, {"speed", 100}}}}},
       {"cyl",
        {{"type", "hydraulic.cylinder"},
         {"params",
          {{"area_a", Aa},
           {"area_b", Ab},
           {"stroke", 1},
           {"dead_volume_a", 1e-4},
           {"dead_volume_b", 1e-4},
           {"viscous_friction", 1000}}}}},
       {"drain", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", 0.004}, {"critical_flow_number", 10}}}}},
       {"load", {{"type", "mechanical1d.mass"}, {"params", {{"mass", 10}}}, {"initial", {{"x", 0.1}}}}}},
      {{"tank.p", "pump.inlet"},
       {"cyl.a", "pump.outlet"},
       {"cyl.b", "drain.a"},
       {"tank.p", "drain.b"},
       {"load.p", "cyl.rod"}},
      {"load.x", "load.v", "cyl.pressure_a", "cyl.pressure_b", "drain.flow", "cyl.force"},
      {{"method", "bdf"}, {"t_end", 1.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.01}});
  RunResult r = run_circuit(n);
  const double v = Q / Aa;
  CHECK(last(r, "load.v") == doctest::Approx(v).epsilon(1e-8));
  CHECK(last(r, "drain.flow") == doctest::Approx(Ab * v).epsilon(1e-8));
  // The position: x = x0 + v t less the volume the chambers' compression took (a few
  // 1e-6 of the stroke covered here).
  CHECK(last(r, "load.x") == doctest::Approx(0.1 + v * 1.0).epsilon(1e-4));
  // Force balance in steady motion: p_A A_A − p_B A_B = c v (the mass does not accelerate).
  CHECK(last(r, "cyl.pressure_a") * Aa - last(r, "cyl.pressure_b") * Ab == doctest::Approx(1000 * v).epsilon(1e-6));
}

TEST_CASE("hydraulic natural frequency of a cylinder-mass: omega^2 = beta A^2 (1/V1 + 1/V2) / m") {
  // Both chambers closed at 10 MPa, V1 = V2 = 5e-4 m³, A = 1e-3 m², β = 1 GPa, m = 100 kg:
  // the oil springs add to k = β A² (1/V1 + 1/V2) = 4e6 N/m, ω = 200 rad/s. A step force
  // of 100 N at t = 0 gives x = x0 + (F/k)(1 − cos ω t) (a 25 µm swing: linear to 1e-8).
  const double beta = 1e9, A = 1e-3, V = 5e-4, m = 100, F = 100, x0 = 0.25;
  const double k = beta * A * A * (2 / V), w = std::sqrt(k / m);
  json n = circuit({{"cyl",
                     {{"type", "hydraulic.cylinder"},
                      {"params",
                       {{"area_a", A},
                        {"area_b", A},
                        {"stroke", 0.5},
                        {"dead_volume_a", V - A * x0},
                        {"dead_volume_b", V - A * (0.5 - x0)}}},
                      {"initial", {{"p_a", 10e6}, {"p_b", 10e6}}}}},
                    {"load", {{"type", "mechanical1d.mass"}, {"params", {{"mass", m}}}, {"initial", {{"x", x0}}}}},
                    {"force", {{"type", "mechanical1d.force_source"}}},
                    {"f", {{"type", "signal.constant"}, {"params", {{"value", F}}}}}},
                   {{"load.p", "cyl.rod"}, {"load.p", "force.p"}, {"f.out", "force.f"}}, {"load.x", "load.v"},
                   {{"method", "bdf"}, {"t_end", 0.3}, {"rtol", 1e-11}, {"atol", 1e-15}, {"output_interval", 2e-4}},
                   {{"bulk_modulus", beta}});
  RunResult r = run_circuit(n);
  const auto t = r.column("time"), x = r.column("load.x"), v = r.column("load.v");
  double worst = 0.0;
  for (size_t i = 0; i < t.size(); ++i)
    worst = std::max(worst, std::abs(x[i] - (x0 + F / k * (1 - std::cos(w * t[i])))));
  // Period from the velocity's downward zero crossings (linear interpolation between rows,
  // 2e-4 s apart: error ~1e-9 s on each crossing), averaged over the run's ~9 periods.
  std::vector<double> crossings;
  for (size_t i = 1; i < t.size(); ++i)
    if (v[i - 1] > 0 && v[i] <= 0) crossings.push_back(t[i - 1] + (t[i] - t[i - 1]) * v[i - 1] / (v[i - 1] - v[i]));
  REQUIRE(crossings.size() >= 5);
  const double period = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  MESSAGE("omega measured " << 2 * pi / period << " rad/s, closed form " << w << "; largest |x - x_exact| " << worst
                            << " m of a " << 2 * F / k << " m swing");
  CHECK(2 * pi / period == doctest::Approx(w).epsilon(1e-5));
  // The swing is 5e-5 m; rtol 1e-11 of x ≈ 0.25 m is 2.5e-12 m per step, accumulated over
  // ~1000 steps: 1e-3 of the swing (5e-8 m) is a wide bound for the closed form's fit.
  CHECK(worst < 1e-3 * 2 * F / k);
}

TEST_CASE(
    "static hold: a hanging load settles at p_B = m g / A_B and does not drift; leakage makes it creep at k p_B / "
    "A_B") {
  // 1000 kg hangs from the rod (axis pointing down, gravity pulls x up), chamber B closed,
  // chamber A vented through an orifice. From p_B = 0 the load drops onto its oil spring
  // (ω = 50 rad/s, ζ = 0.5 with 5e4 N s/m of friction) and comes to rest with
  // p_B A_B = m g: 9.81 MPa on A_B = 1e-3 m².
  const double m = 1000, g = 9.81, Aa = 2e-3, Ab = 1e-3;
  json n = circuit(
      {{"tank", {{"type", "hydraulic.tank"}}},
       {"vent", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", 0.004}, {"critical_flow_number", 10}}}}},
       {"cyl",
        {{"type", "hydraulic.cylinder"},
         {"params",
          {{"area_a", Aa},
           {"area_b", Ab},
           {"stroke", 1},
           {"dead_volume_a", 1e-4},
           {"dead_volume_b", 1e-4},
           {"viscous_friction", 5e4}}}}},
       {"load",
        {{"type", "mechanical1d.mass"},
         {"params", {{"mass", m}, {"inclination", "-90 deg"}}},
         {"initial", {{"x", 0.5}}}}}},
      {{"cyl.a", "vent.a"}, {"tank.p", "vent.b"}, {"load.p", "cyl.rod"}},
      {"load.x", "load.v", "cyl.pressure_a", "cyl.pressure_b"},
      {{"method", "bdf"}, {"t_end", 6.0}, {"rtol", 1e-10}, {"atol", 1e-13}, {"output_interval", 0.01}});
  RunResult r = run_circuit(n);
  CHECK(last(r, "cyl.pressure_b") == doctest::Approx(m * g / Ab).epsilon(1e-9));
  // The transient decays as e^(−ζωt) = e^(−25 t): after 4 s the load has stopped to
  // rounding; no leakage, no drift.
  const double drift = last(r, "load.x") - at_time(r, "load.x", 4.0);
  MESSAGE("drift over the last 2 s: " << drift << " m");
  CHECK(std::abs(drift) < 1e-12);

  // With internal leakage k = 1e-13 m³/(s Pa) the oil of B seeps into A: the load creeps
  // down at v = k (p_B − p_A) / A_B ≈ 1e-13 · 9.81e6 / 1e-3 ≈ 1 mm/s.
  const double k = 1e-13;
  n["components"]["cyl"]["params"]["leakage"] = k;
  r = run_circuit(n);
  const double pa = last(r, "cyl.pressure_a"), pb = last(r, "cyl.pressure_b");
  MESSAGE("creep " << last(r, "load.v") << " m/s at p_B = " << pb << " Pa");
  CHECK(last(r, "load.v") == doctest::Approx(k * (pb - pa) / Ab).epsilon(1e-7));
  // Still holding the load (less the friction the creep brings): p_B A_B − p_A A_A = m g − c v.
  CHECK(pb * Ab - pa * Aa == doctest::Approx(m * g - 5e4 * last(r, "load.v")).epsilon(1e-9));
}

TEST_CASE("cylinder end stops hold the rod at the end of its stroke") {
  // A pump keeps pushing a free 10 kg rod out: it runs into the end of its 0.2 m stroke and
  // stays there, pressed by p_A A_A against the stop (stiffness 1e9 N/m): 0.2 m plus the
  // stop's deflection F / k_s, while the pressure climbs (no relief in this circuit).
  json n = circuit(
      {{"tank", {{"type", "hydraulic.tank"}}},
       {"source", {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", 1e6}}}}},
       {"inlet", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", 0.003}}}}},
       {"vent", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", 0.003}}}}},
       {"cyl",
        {{"type", "hydraulic.cylinder"},
         {"params", {{"area_a", 1e-3}, {"area_b", 5e-4}, {"stroke", 0.2}, {"viscous_friction", 100}}}}},
       {"load", {{"type", "mechanical1d.mass"}, {"params", {{"mass", 10}}}, {"initial", {{"x", 0.15}}}}}},
      {{"source.p", "inlet.a"}, {"cyl.a", "inlet.b"}, {"cyl.b", "vent.a"}, {"tank.p", "vent.b"}, {"load.p", "cyl.rod"}},
      {"load.x", "cyl.stop_force", "cyl.pressure_a"},
      // One atol serves every state: pressures (Pa) resting near 0 on the vented
      // side must not be held to 1e-12 Pa, which their coupling to the rod's
      // position (1e-13 m of it moves 10 mL of dead volume by 1e-2 Pa) cannot
      // give: the solver would chase it with millions of steps. 1e-6 suits both.
      {{"method", "bdf"}, {"t_end", 2.0}, {"rtol", 1e-9}, {"atol", 1e-6}, {"output_interval", 0.01}});
  RunResult r = run_circuit(n);
  // At rest against the stop: p_A = 1 MPa (no flow), p_B = 0: the stop takes 1000 N.
  CHECK(last(r, "cyl.pressure_a") == doctest::Approx(1e6).epsilon(1e-6));
  CHECK(last(r, "cyl.stop_force") == doctest::Approx(-1000.0).epsilon(1e-5));
  CHECK(last(r, "load.x") == doctest::Approx(0.2 + 1000.0 / 1e9).epsilon(1e-9));
}

TEST_CASE("planar cylinder holding a pinned boom: in equilibrium p_A A_A times its arm balances gravity's moment") {
  // A 100 kg, 2 m boom pinned at the origin, released horizontal; a cylinder (A_A = 1e-3
  // m²) from a ground point at (0.3, −0.6) to the boom's eye, 0.8 m from the pin, with
  // chamber A closed at 1.3 MPa and chamber B vented. The boom settles on its oil spring
  // (hinge damping takes the swing out) where the cylinder's moment about the pin equals
  // gravity's: checked at the end, from the recorded pose,
  //   r_eye × (F u) + r_cm × (0, −m g) = 0,   F = p_A A_A − p_B A_B.
  const double m = 100, g = 9.81, Aa = 1e-3, Ab = 5e-4;
  json n = circuit(
      {{"ground",
        {{"type", "mechanical.ground"}, {"params", {{"points", {{"pivot", {0, 0}}, {"mount", {0.3, -0.6}}}}}}}},
       {"boom",
        {{"type", "mechanical.body"},
         {"params", {{"mass", m}, {"inertia", m * 4.0 / 12.0}, {"points", {{"pin", {-1, 0}}, {"eye", {-0.2, 0}}}}}},
         {"initial", {{"x", 1}, {"y", 0}, {"theta", 0}}}}},
       {"hinge", {{"type", "mechanical.revolute"}}},
       {"damper", {{"type", "mechanical.rotational_spring_damper"}, {"params", {{"damping", 500}}}}},
       {"cyl",
        {{"type", "hydraulic.planar_cylinder"},
         {"params",
          {{"area_a", Aa},
           {"area_b", Ab},
           {"stroke", 0.6},
           {"retracted_length", 0.6},
           {"dead_volume_a", 1e-4},
           {"dead_volume_b", 1e-4}}},
         {"initial", {{"p_a", 1.3e6}}}}},
       {"tank", {{"type", "hydraulic.tank"}}},
       {"vent", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", 0.002}}}}}},
      {{"ground.pivot", "hinge.a"},
       {"boom.pin", "hinge.b"},
       {"ground.pivot", "damper.a"},
       {"boom.pin", "damper.b"},
       {"ground.mount", "cyl.base"},
       {"boom.eye", "cyl.rod"},
       {"cyl.b", "vent.a"},
       {"tank.p", "vent.b"}},
      {"boom.x", "boom.y", "boom.theta", "boom.omega", "cyl.pressure_a", "cyl.pressure_b", "cyl.force", "cyl.length",
       "cyl.extension"},
      {{"method", "bdf"}, {"t_end", 10.0}, {"rtol", 1e-9}, {"atol", 1e-12}, {"output_interval", 0.01}});
  RunResult r = run_circuit(n);
  const double th = last(r, "boom.theta"), x = last(r, "boom.x"), y = last(r, "boom.y");
  const double c = std::cos(th), s = std::sin(th);
  const double ex = x + c * -0.2, ey = y + s * -0.2;  // the eye: r + A(θ) (−0.2, 0)
  const double dx = ex - 0.3, dy = ey + 0.6, L = std::hypot(dx, dy);
  const double pa = last(r, "cyl.pressure_a"), pb = last(r, "cyl.pressure_b"), F = last(r, "cyl.force");
  const double moment_cylinder = ex * (F * dy / L) - ey * (F * dx / L);
  const double moment_gravity = x * (-m * g);
  MESSAGE("boom at " << th * 180 / pi << " deg; p_A = " << pa << " Pa, cylinder " << F << " N; moments "
                     << moment_cylinder << " and " << moment_gravity << " N m");
  CHECK(std::abs(last(r, "boom.omega")) < 1e-9);  // at rest
  // It sank a little (a few thousandths of a degree: the oil spring is stiff) and the
  // compressed oil took the load: p_A rose from the 1.3 MPa it started with.
  CHECK(th < 0.0);
  CHECK(pa > 1.5e6);
  CHECK(std::abs(pb) < 1e-3);  // the vented side is at the tank's pressure
  // At rest the cylinder's force is its pressures times its areas (no friction, no stop).
  CHECK(F == doctest::Approx(pa * Aa - pb * Ab).epsilon(1e-9));
  CHECK(L == doctest::Approx(last(r, "cyl.length")).epsilon(1e-9));
  // Static balance about the pin (the joint is held by Baumgarte stabilization to ~1e-9 m).
  CHECK(moment_cylinder + moment_gravity == doctest::Approx(0.0).scale(1e-6 * m * g));
}
