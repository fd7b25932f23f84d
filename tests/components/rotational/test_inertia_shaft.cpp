// The inertia and the shaft: an inertia under a constant torque, two inertias on a shaft
// (the torsional oscillator), their energies.
#include <cmath>

// The netlist helpers (circuit, run_circuit, last) are the hydraulic tests': they build
// any netlist.
#include "../hydraulic/hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

TEST_CASE("an inertia under a constant torque: w = T t / J, phi = T t^2 / (2 J), kinetic energy = work done") {
  // J = 0.2 kg m², T = 3 N m on flange b: α = 15 rad/s²; from ω0 = 2 rad/s.
  const double J = 0.2, T = 3.0, w0 = 2.0;
  json n = circuit(
      {{"rotor", {{"type", "rotational.inertia"}, {"params", {{"inertia", "0.2 kg*m^2"}}}, {"initial", {{"w", w0}}}}},
       {"drive", {{"type", "rotational.torque_source"}, {"params", {{"torque", "3 N*m"}}}}}},
      {{"rotor.b", "drive.flange"}},
      {"rotor.phi", "rotor.w", "rotor.alpha", "rotor.kinetic_energy", "drive.power", "rotor.a.w"},
      {{"method", "dopri5"}, {"t_end", 2.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.1}});
  RunResult r = run_circuit(n);
  const auto t = r.column("time"), phi = r.column("rotor.phi"), w = r.column("rotor.w"),
             ke = r.column("rotor.kinetic_energy"), p = r.column("drive.power"), wa = r.column("rotor.a.w");
  for (size_t i = 0; i < t.size(); ++i) {
    CAPTURE(t[i]);
    // A polynomial of degree 2 in t: dopri5 (order 5) integrates it to rounding.
    CHECK(w[i] == doctest::Approx(w0 + T / J * t[i]).epsilon(1e-12));
    CHECK(phi[i] == doctest::Approx(w0 * t[i] + T / J * t[i] * t[i] / 2).epsilon(1e-12).scale(1e-12));
    CHECK(wa[i] == w[i]);  // both flanges give the same speed
    CHECK(ke[i] == doctest::Approx(0.5 * J * w[i] * w[i]).epsilon(1e-14));
    CHECK(p[i] == doctest::Approx(T * w[i]).epsilon(1e-14));
  }
  CHECK(last(r, "rotor.alpha") == doctest::Approx(T / J).epsilon(1e-14));
  // Work T Δφ equals the change of kinetic energy.
  CHECK(T * phi.back() == doctest::Approx(ke.back() - 0.5 * J * w0 * w0).epsilon(1e-12));
}

TEST_CASE("two inertias on a shaft oscillate at sqrt(k (J1 + J2) / (J1 J2)); momentum and energy are kept") {
  // J1 = 0.1, J2 = 0.4 kg m², k = 200 N m/rad: Ω = sqrt(200 · 0.5 / 0.04) = 50 rad/s. The
  // shaft starts twisted by 0.02 rad, both at rest: Δφ(t) = 0.02 cos Ω t.
  const double J1 = 0.1, J2 = 0.4, k = 200.0, twist0 = 0.02;
  const double omega = std::sqrt(k * (J1 + J2) / (J1 * J2));
  json n =
      circuit({{"j1", {{"type", "rotational.inertia"}, {"params", {{"inertia", J1}}}}},
               {"j2", {{"type", "rotational.inertia"}, {"params", {{"inertia", J2}}}, {"initial", {{"phi", twist0}}}}},
               {"shaft", {{"type", "rotational.shaft"}, {"params", {{"stiffness", "200 N*m/rad"}}}}}},
              {{"j1.b", "shaft.a"}, {"j2.a", "shaft.b"}},
              {"j1.w", "j2.w", "shaft.twist", "shaft.torque", "shaft.spring_energy", "j1.kinetic_energy",
               "j2.kinetic_energy", "shaft.damper_loss"},
              {{"method", "dopri5"}, {"t_end", 1.0}, {"rtol", 1e-11}, {"atol", 1e-13}, {"output_interval", 0.002}});
  RunResult r = run_circuit(n);
  const auto t = r.column("time"), twist = r.column("shaft.twist"), w1 = r.column("j1.w"), w2 = r.column("j2.w"),
             es = r.column("shaft.spring_energy"), e1 = r.column("j1.kinetic_energy"),
             e2 = r.column("j2.kinetic_energy"), torque = r.column("shaft.torque"),
             loss = r.column("shaft.damper_loss");
  const double e0 = 0.5 * k * twist0 * twist0;
  double max_error = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    CAPTURE(t[i]);
    max_error = std::max(max_error, std::abs(twist[i] - twist0 * std::cos(omega * t[i])));
    CHECK(std::abs(J1 * w1[i] + J2 * w2[i]) < 1e-12);  // the shaft's torques cancel
    CHECK(es[i] + e1[i] + e2[i] == doctest::Approx(e0).epsilon(1e-8));
    CHECK(torque[i] == doctest::Approx(k * twist[i]).epsilon(1e-14).scale(1e-14));
    CHECK(loss[i] == 0.0);
  }
  // About 8 periods at rtol 1e-11: the phase error stays below 1e-8 of the amplitude.
  MESSAGE("max |twist error| " << max_error << " rad");
  CHECK(max_error < 1e-9);
}

TEST_CASE("a damped shaft dissipates c dw^2: the energy lost equals the integral of the damper loss") {
  // J1 = J2 = 0.1 kg m², k = 100 N m/rad, c = 0.5 N m s/rad, J2 spun at 10 rad/s.
  json n =
      circuit({{"j1", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.1}}}}},
               {"j2", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.1}}}, {"initial", {{"w", 10.0}}}}},
               {"shaft", {{"type", "rotational.shaft"}, {"params", {{"stiffness", 100}, {"damping", 0.5}}}}}},
              {{"j1.b", "shaft.a"}, {"j2.a", "shaft.b"}},
              {"j1.w", "j2.w", "shaft.spring_energy", "j1.kinetic_energy", "j2.kinetic_energy", "shaft.damper_loss"},
              {{"method", "dopri5"}, {"t_end", 2.0}, {"rtol", 1e-11}, {"atol", 1e-13}, {"output_interval", 0.00025}});
  RunResult r = run_circuit(n);
  const auto t = r.column("time"), loss = r.column("shaft.damper_loss");
  // The trapezoidal sum of the loss over 8000 intervals (error ~ h²/12 ∫|P''| dt: P ≤ 50 W
  // swings at 2 Ω ≈ 89 rad/s and decays at 10 /s, so about 5e-9 · 50 · 89² / 10 ≈ 2e-4 J
  // at most, 4e-5 of the 5 J) against the energy that left the inertias and the spring.
  double dissipated = 0.0;
  for (size_t i = 1; i < t.size(); ++i) dissipated += 0.5 * (loss[i] + loss[i - 1]) * (t[i] - t[i - 1]);
  const double e_end = last(r, "shaft.spring_energy") + last(r, "j1.kinetic_energy") + last(r, "j2.kinetic_energy");
  MESSAGE("dissipated " << dissipated << " J, energy lost " << 5.0 - e_end << " J");
  CHECK(5.0 - e_end == doctest::Approx(dissipated).epsilon(4e-5));
  // Momentum is kept: both end at half the initial speed (the oscillation has died out:
  // decay rate c (1/J1 + 1/J2) / 2 = 5 /s over 2 s).
  CHECK(last(r, "j1.w") == doctest::Approx(5.0).epsilon(1e-3));
  CHECK(last(r, "j1.w") + last(r, "j2.w") == doctest::Approx(10.0).epsilon(1e-12));
}
