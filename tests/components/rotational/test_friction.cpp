// The clutch and the brake: slipping at the kinetic capacity, locking when the slip speed
// reaches zero (an event), holding below the static capacity, breaking away above it.
#include <cmath>

#include "../hydraulic/hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

// ∫ column dt up to t_max by the trapezoidal rule over the recorded rows (events included).
double integral(const RunResult& r, const std::string& column, double t_max) {
  const auto t = r.column("time"), y = r.column(column);
  double sum = 0.0;
  for (size_t i = 1; i < t.size() && t[i] <= t_max; ++i) sum += 0.5 * (y[i] + y[i - 1]) * (t[i] - t[i - 1]);
  return sum;
}

const json accurate = {{"method", "dopri5"}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.005}};

}  // namespace

TEST_CASE("clutch: two inertias lock at t = dw0 / (T_k (1/J_a + 1/J_b)) and turn together afterwards") {
  // J_a = 0.1 kg m² at 100 rad/s, J_b = 0.3 kg m² at rest; T_k = N μ_k R F_n = 2 · 0.3 ·
  // 0.1 m · 500 N = 30 N m: t_lock = 100 / (30 · 13.33) = 0.25 s, then both at the
  // momentum's speed J_a ω0 / (J_a + J_b) = 25 rad/s.
  const double Ja = 0.1, Jb = 0.3, w0 = 100.0, Tk = 30.0;
  json solver = accurate;
  solver["t_end"] = 0.6;
  json n = circuit(
      {{"ja", {{"type", "rotational.inertia"}, {"params", {{"inertia", Ja}}}, {"initial", {{"w", w0}}}}},
       {"jb", {{"type", "rotational.inertia"}, {"params", {{"inertia", Jb}}}}},
       {"clutch",
        {{"type", "rotational.clutch"},
         {"params", {{"normal_force", "500 N"}, {"friction_radius", "100 mm"}, {"kinetic_friction", 0.3}}}}}},
      {{"ja.b", "clutch.a"}, {"jb.a", "clutch.b"}},
      {"ja.w", "jb.w", "clutch.torque", "clutch.loss", "clutch.slip_speed", "clutch.lock_energy", "clutch.mode"},
      solver);
  RunResult r = run_circuit(n);
  const double t_lock = w0 / (Tk * (1 / Ja + 1 / Jb));
  // The slip speed is linear in t while slipping: the event is located to the solver's
  // root tolerance, far below 1e-9 s.
  MESSAGE("lock at " << event_time(r, "clutch", "sticks") << " s");
  CHECK(event_time(r, "clutch", "sticks") == doctest::Approx(t_lock).epsilon(1e-9));
  CHECK(at_time(r, "clutch.torque", 0.1) == -Tk);
  CHECK(at_time(r, "ja.w", 0.2) == doctest::Approx(w0 - Tk / Ja * 0.2).epsilon(1e-10));
  // Afterwards they turn together at 25 rad/s: the stuck spring–damper (1e5 N m/rad, 1000
  // N m s/rad) has damped the speed left at the event in 0.35 s; what differs is the
  // integration's error at rtol 1e-10 on 25 rad/s.
  CHECK(last(r, "clutch.mode") == 2.0);
  CHECK(std::abs(last(r, "ja.w") - last(r, "jb.w")) < 1e-8);
  CHECK(last(r, "ja.w") == doctest::Approx(Ja * w0 / (Ja + Jb)).epsilon(1e-10));
  // The friction turned ½ J_a ω0² − ½ (J_a + J_b) 25² = 375 J into heat: T_k ∫Δω dt over
  // a slip speed linear in t (the trapezoids are exact but across the event, a row).
  CHECK(integral(r, "clutch.loss", 0.6) == doctest::Approx(375.0).epsilon(1e-6));
  CHECK(last(r, "clutch.lock_energy") < 1e-12);
}

TEST_CASE("clutch: open until its engagement steps up, then slips and locks") {
  // The same pair with the engagement 0 until 0.1 s, 1 from then on.
  json solver = accurate;
  solver["t_end"] = 0.5;
  json n =
      circuit({{"ja", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.1}}}, {"initial", {{"w", 100.0}}}}},
               {"jb", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.3}}}}},
               {"pedal", {{"type", "signal.step"}, {"params", {{"step_time", 0.1}}}}},
               {"clutch",
                {{"type", "rotational.clutch"},
                 {"params", {{"normal_force", 500}, {"kinetic_friction", 0.3}, {"command", "engagement"}}}}}},
              {{"ja.b", "clutch.a"}, {"jb.a", "clutch.b"}, {"pedal.out", "clutch.engagement"}},
              {"ja.w", "jb.w", "clutch.torque", "clutch.static_capacity"}, solver);
  RunResult r = run_circuit(n);
  CHECK(at_time(r, "ja.w", 0.09) == 100.0);
  CHECK(at_time(r, "clutch.torque", 0.05) == 0.0);
  CHECK(event_time(r, "clutch", "closes, slipping") == doctest::Approx(0.1).epsilon(1e-12));
  CHECK(event_time(r, "clutch", "sticks") == doctest::Approx(0.1 + 0.25).epsilon(1e-9));
  CHECK(at_time(r, "clutch.static_capacity", 0.2) == doctest::Approx(40.0).epsilon(1e-14));
  CHECK(std::abs(last(r, "ja.w") - last(r, "jb.w")) < 1e-8);
}

TEST_CASE("brake: stops an inertia in J w0 / T_k, holds below the static capacity, breaks away above it") {
  // J = 0.5 kg m² at 20 rad/s; the brake's defaults: N = 2, R = 0.1 m, F_n = 1000 N, μ_k
  // = 0.3, μ_s = 0.4: T_k = 60 N m, T_s = 80 N m. It stops at 0.5 · 20 / 60 = 1/6 s. At
  // 0.5 s a torque source steps to T_d.
  const double J = 0.5, w0 = 20.0, Tk = 60.0;
  auto run_with = [&](double drive) {
    json solver = accurate;
    solver["t_end"] = 1.0;
    json n =
        circuit({{"rotor", {{"type", "rotational.inertia"}, {"params", {{"inertia", J}}}, {"initial", {{"w", w0}}}}},
                 {"brake", {{"type", "rotational.brake"}}},
                 {"step", {{"type", "signal.step"}, {"params", {{"step_time", 0.5}, {"after", drive}}}}},
                 {"drive", {{"type", "rotational.torque_source"}, {"params", {{"source", "signal"}}}}}},
                {{"rotor.a", "brake.flange"}, {"rotor.b", "drive.flange"}, {"step.out", "drive.command"}},
                {"rotor.w", "rotor.phi", "brake.torque", "brake.loss", "brake.mode"}, solver);
    return run_circuit(n);
  };
  // Holding 70 N m (< T_s): still stopped at the end, the brake's torque −70 N m, the
  // rotor twisted by 70 / k_l = 7e-4 rad from where it stopped (ω0² J / (2 T_k) = 5/3 rad).
  // Until the step the friction has turned the ½ J ω0² = 100 J into heat (the stuck
  // spring–damper then takes its share of the work of the step, ½ · 70² / k_l, too).
  RunResult hold = run_with(70.0);
  CHECK(event_time(hold, "brake", "sticks") == doctest::Approx(J * w0 / Tk).epsilon(1e-9));
  CHECK(integral(hold, "brake.loss", 0.4) == doctest::Approx(0.5 * J * w0 * w0).epsilon(1e-6));
  CHECK(at_time(hold, "rotor.phi", 0.4) == doctest::Approx(w0 * w0 * J / (2 * Tk)).epsilon(1e-9));
  CHECK(std::abs(last(hold, "rotor.w")) < 1e-9);
  CHECK(last(hold, "brake.torque") == doctest::Approx(-70.0).epsilon(1e-9));
  CHECK(last(hold, "rotor.phi") - at_time(hold, "rotor.phi", 0.4) == doctest::Approx(70.0 / 1e5).epsilon(1e-6));
  CHECK(event_time(hold, "brake", "breaks away") < 0.0);
  // 90 N m (> T_s): the stuck spring–damper winds up towards 90 N m (the stuck model's lag)
  // and lets go when its spring holds T_s = 80 N m, then the rotor slips at (90 − 60) / J =
  // 60 rad/s². Stuck, J ẍ = T_d − k x − c ẋ from rest: overdamped (ζ = c / (2 √(k J)) ≈
  // 2.2), x / x_∞ = 1 − (s2 e^(s1 t) − s1 e^(s2 t)) / (s2 − s1); it reaches 8/9 about 21 ms
  // after the step.
  const double k = 1e5, c = 1000.0, wn = std::sqrt(k / J), zeta = c / (2 * std::sqrt(k * J));
  const double s1 = wn * (-zeta + std::sqrt(zeta * zeta - 1)), s2 = wn * (-zeta - std::sqrt(zeta * zeta - 1));
  auto wound = [&](double t) { return 1 - (s2 * std::exp(s1 * t) - s1 * std::exp(s2 * t)) / (s2 - s1); };
  double lo = 0.0, hi = 0.1;
  for (int i = 0; i < 100; ++i) (wound(0.5 * (lo + hi)) < 8.0 / 9.0 ? lo : hi) = 0.5 * (lo + hi);
  RunResult slip = run_with(90.0);
  const double t_break = event_time(slip, "brake", "breaks away");
  MESSAGE("breaks away at " << t_break << " s, expected " << 0.5 + lo << " s");
  CHECK(t_break == doctest::Approx(0.5 + lo).epsilon(1e-7));
  CHECK(last(slip, "brake.mode") == 1.0);
  // From the speed the winding spring left at break-away (T_d / c_l e^(−k_l t / c_l), 0.01 rad/s).
  CHECK(std::abs(last(slip, "rotor.w") - (90.0 - Tk) / J * (1.0 - t_break)) < 0.02);
  CHECK(last(slip, "brake.torque") == -Tk);
}

TEST_CASE("brake: a normal force from a signal sets the capacity; mu_k above mu_s is refused") {
  // 500 N from a signal: T_k = 2 · 0.3 · 0.1 m · 500 N = 30 N m stops 0.5 kg m² from 20 rad/s in 1/3 s.
  json solver = accurate;
  solver["t_end"] = 0.5;
  json n = circuit(
      {{"rotor", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.5}}}, {"initial", {{"w", 20.0}}}}},
       {"brake", {{"type", "rotational.brake"}, {"params", {{"command", "force"}}}}},
       {"press", {{"type", "signal.constant"}, {"params", {{"value", 500}}}}}},
      {{"rotor.a", "brake.flange"}, {"press.out", "brake.force"}}, {"rotor.w", "brake.static_capacity"}, solver);
  RunResult r = run_circuit(n);
  CHECK(event_time(r, "brake", "sticks") == doctest::Approx(0.5 * 20 / 30.0).epsilon(1e-9));
  CHECK(last(r, "brake.static_capacity") == doctest::Approx(40.0).epsilon(1e-14));
  // The relation between the two coefficients is checked where the netlist gives them.
  n["components"]["brake"]["params"]["kinetic_friction"] = 0.5;
  const std::string message = load_error(n);
  CHECK(message.find("kinetic_friction") != std::string::npos);
  CHECK(message.find("must not exceed static_friction") != std::string::npos);
}
