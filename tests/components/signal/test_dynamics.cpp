// Signal blocks with states: integrator, first-order lag, PID controller.
// Tolerances: dopri5 and CVODE BDF control the local error per step to
// atol + rtol |y|; the global error of these stable, smooth problems stays within a
// small multiple of that. Each check states the bound it uses and what was measured.
#include <cmath>
#include <numbers>

#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {
const double pi = std::numbers::pi;
}

TEST_CASE("integrator of a sine: y = A/w (1 - cos w t)") {
  RunResult r = run(netlist(R"("s": {"type": "signal.sine", "params": {"amplitude": 2, "frequency": 0.5}},
                               "int": {"type": "signal.integrator", "params": {"k": 1}})",
                            R"(["s.out", "int.in"])", R"("int.y", "int.out")",
                            R"({"method": "dopri5", "t_end": 6, "rtol": 1e-8, "atol": 1e-10, "output_interval": 0.01})"));
  REQUIRE(r.finished);
  // A pure quadrature does not damp errors: the global error is at most the sum of the
  // local ones, each held below atol + rtol |y|max = 1e-10 + 1e-8 * 4/pi by the error
  // control, so the bound is that times the number of steps.
  const double err = max_error(r, "int.y", [](double t) { return 2.0 / pi * (1.0 - std::cos(pi * t)); });
  const double bound = static_cast<double>(r.stats.steps) * (1e-10 + 1e-8 * 4.0 / pi);
  MESSAGE("integrator of a sine, max error " << err << " (bound " << bound << " for " << r.stats.steps << " steps)");
  CHECK(err <= bound);
  CHECK(r.column("int.out") == r.column("int.y"));
}

TEST_CASE("first-order lag: step response y = K u (1 - exp(-(t - ts)/T))") {
  // u steps from 0 to 2 at ts = 0.5 (an event); K = 3, T = 0.4 s.
  const std::string components =
      R"("st": {"type": "signal.step", "params": {"step_time": 0.5, "before": 0, "after": 2}},
         "lag": {"type": "signal.first_order_lag", "params": {"K": 3, "T": "400 ms"}})";
  auto exact = [](double t) { return t < 0.5 ? 0.0 : 6.0 * (1.0 - std::exp(-(t - 0.5) / 0.4)); };
  SUBCASE("dopri5") {
    RunResult r = run(netlist(components, R"(["st.out", "lag.in"])", R"("lag.out", "lag.y")",
                              R"({"method": "dopri5", "t_end": 3, "rtol": 1e-8, "atol": 1e-10, "output_interval": 0.01})"));
    REQUIRE(r.finished);
    // |y| <= 6, rtol 1e-8: local errors ~6e-8 at most; the lag is contracting, so the
    // global error stays of that order. Bound 1e-7.
    const double err = max_error(r, "lag.out", exact, {0.5});
    MESSAGE("first-order lag (dopri5), max error " << err);
    CHECK(err <= 1e-7);
    CHECK(r.events.size() == 1);
  }
  SUBCASE("bdf") {
    RunResult r = run(netlist(components, R"(["st.out", "lag.in"])", R"("lag.out", "lag.y")",
                              R"({"method": "bdf", "t_end": 3, "rtol": 1e-8, "atol": 1e-10, "output_interval": 0.01})"));
    REQUIRE(r.finished);
    // CVODE's BDF controls the local error less tightly than dopri5 (its error test
    // constants and low orders at the restart after the event): global error within
    // 100 rtol |y|max = 6e-6.
    const double err = max_error(r, "lag.out", exact, {0.5});
    MESSAGE("first-order lag (bdf), max error " << err);
    CHECK(err <= 6e-6);
  }
}

TEST_CASE("first-order lag: initial value decays, and the lag breaks a feedback loop") {
  // Loop r - y -> lag: T y' = K (r - y) - y, so y -> K r/(1 + K) with time constant
  // T/(1 + K). With y(0) = 1, r = 1, K = 4, T = 1: y = 0.8 + 0.2 exp(-5 t).
  const std::string n = netlist(R"("r": {"type": "signal.constant", "params": {"value": 1}},
                                   "e": {"type": "signal.sum", "params": {"signs": "+-"}},
                                   "lag": {"type": "signal.first_order_lag", "params": {"K": 4, "T": 1}, "initial": {"y": 1}})",
                                R"(["r.out", "e.in1"], ["lag.out", "e.in2"], ["e.out", "lag.in"])", R"("lag.out")");
  CHECK(load(n).model.schedule().loop_count() == 0);  // the lag's output reads no input
  RunResult r = run(n);
  REQUIRE(r.finished);
  const double err = max_error(r, "lag.out", [](double t) { return 0.8 + 0.2 * std::exp(-5.0 * t); });
  MESSAGE("lag in a loop, max error " << err);
  CHECK(err <= 1e-8);  // |y| <= 1, rtol 1e-8
}

TEST_CASE("first-order lag: T must be positive") {
  const std::string msg = input_error_of(
      netlist(R"("lag": {"type": "signal.first_order_lag", "params": {"T": 0}})", "", R"("lag.out")"));
  CHECK(msg.find("component 'lag'") != std::string::npos);
  CHECK(msg.find("parameter 'T'") != std::string::npos);
}

// ------------------------------------------------------------------- PID

TEST_CASE("PID, open loop: the three terms against their closed forms") {
  // e = 1 + t (a ramp with offset). Filter x_f starts at e(0) = 1, so w = e - x_f obeys
  // w' = 1 - w/Tf, w(0) = 0: w = Tf (1 - exp(-t/Tf)) and the derivative term
  // D = kd w/Tf = kd (1 - exp(-t/Tf)). The integral term is ki (t + t^2/2).
  // kp = 2, ki = 3 1/s, kd = 0.5 s, Tf = 0.1 s.
  const std::string pid =
      R"("e": {"type": "signal.ramp", "params": {"offset": 1}},
         "pid": {"type": "signal.pid", "params": {"kp": 2, "ki": "3 1/s", "kd": "0.5 s", "Tf": "100 ms")";
  const std::string solver = R"({"method": "dopri5", "t_end": 2, "rtol": 1e-9, "atol": 1e-12, "output_interval": 0.01})";
  const double kp = 2, ki = 3, kd = 0.5, tf = 0.1;
  SUBCASE("filter starts at e(t0): no derivative kick") {
    RunResult r = run(netlist(pid + "}}", R"(["e.out", "pid.error"])",
                              R"("pid.command", "pid.integral", "pid.filter", "pid.unsaturated")", solver));
    REQUIRE(r.finished);
    auto exact = [&](double t) { return kp * (1 + t) + ki * (t + t * t / 2) + kd * (1 - std::exp(-t / tf)); };
    // |u| <= 17 and rtol = 1e-9: bound 1e-7 (measured: see MESSAGE).
    const double err = max_error(r, "pid.command", exact);
    MESSAGE("PID open loop, max error " << err);
    CHECK(err <= 1e-7);
    CHECK(r.column("pid.command") == r.column("pid.unsaturated"));  // no limits set
    CHECK(r.column("pid.filter").front() == 1.0);
  }
  SUBCASE("filter starts at its initial value 0: derivative kick kd e(0)/Tf") {
    RunResult r = run(netlist(pid + R"(, "start_filter_at_error": false}})", R"(["e.out", "pid.error"])",
                              R"("pid.command")", solver));
    REQUIRE(r.finished);
    // w(0) = 1: w = Tf + (1 - Tf) exp(-t/Tf).
    auto exact = [&](double t) {
      return kp * (1 + t) + ki * (t + t * t / 2) + kd / tf * (tf + (1 - tf) * std::exp(-t / tf));
    };
    CHECK(r.column("pid.command").front() == doctest::Approx(kp + kd / tf));
    const double err = max_error(r, "pid.command", exact);
    MESSAGE("PID open loop with kick, max error " << err);
    CHECK(err <= 1e-7);
  }
}

TEST_CASE("PID anti-windup, open loop: back-calculation holds the integral near the limit") {
  // e = 1, kp = kd = 0, ki = 1: I' = 1 + (u - I)/Tt with u = min(I, 0.5).
  // Until t = 0.5, I = t. Then I = 0.5 + Tt (1 - exp(-(t - 0.5)/Tt)) -> 0.5 + Tt.
  // With Tt huge the back-calculation is negligible and I = t winds up.
  auto make = [](const std::string& tt) {
    return netlist(R"("e": {"type": "signal.constant", "params": {"value": 1}},
                     "pid": {"type": "signal.pid", "params": {"kp": 0, "ki": 1, "u_max": 0.5, "Tt": )" +
                       tt + R"(}})",
                   R"(["e.out", "pid.error"])", R"("pid.command", "pid.integral", "pid.unsaturated")",
                   R"({"method": "dopri5", "t_end": 3, "rtol": 1e-9, "atol": 1e-12, "output_interval": 0.01})");
  };
  // kp = kd = 0: the command reads the integral state only, no input.
  CHECK(load(make("0.2")).model.schedule().loop_count() == 0);
  RunResult aw = run(make("0.2"));
  RunResult windup = run(make("1e12"));
  REQUIRE(aw.finished);
  REQUIRE(windup.finished);
  const double tt = 0.2;
  auto exact = [&](double t) { return t <= 0.5 ? t : 0.5 + tt * (1 - std::exp(-(t - 0.5) / tt)); };
  // The kink at t = 0.5 (saturation begins) is not an event: dopri5's error control
  // alone steps over it, where its error estimate is least reliable (a kink breaks the
  // smoothness it assumes). Away from it the local error is below rtol |I| <= 3e-9; the
  // step over the kink dominates (measured 1.5e-8). Bound 1e-7 = 30 rtol |I|max.
  const double err = max_error(aw, "pid.integral", exact);
  MESSAGE("anti-windup integral, max error " << err);
  CHECK(err <= 1e-7);
  CHECK(max_error(aw, "pid.command", [](double t) { return std::min(t, 0.5); }) <= 1e-7);
  CHECK(aw.column("pid.integral").back() == doctest::Approx(0.7).epsilon(1e-6));
  CHECK(windup.column("pid.integral").back() == doctest::Approx(3.0).epsilon(1e-6));
  CHECK(windup.column("pid.command").back() == 0.5);
}

namespace {

// Set point r -> e = r - y -> PID -> plant(s) -> y. `pid_params` and `plant` are JSON.
std::string loop(const std::string& pid_params, const std::string& plant_params, double t_end) {
  return netlist(R"("r": {"type": "signal.constant", "params": {"value": 1}},
                   "e": {"type": "signal.sum", "params": {"signs": "+-"}},
                   "pid": {"type": "signal.pid", "params": )" +
                     pid_params + R"(},
                   "plant": {"type": "signal.first_order_lag", "params": )" +
                     plant_params + "}",
                 R"(["r.out", "e.in1"], ["plant.out", "e.in2"], ["e.out", "pid.error"], ["pid.command", "plant.in"])",
                 R"("plant.y", "pid.command", "pid.unsaturated", "pid.integral")",
                 R"({"method": "dopri5", "t_end": )" + std::to_string(t_end) +
                     R"(, "rtol": 1e-9, "atol": 1e-12, "output_interval": 0.01})");
}

}  // namespace

TEST_CASE("PI on a first-order plant: pole-zero cancellation gives a first-order closed loop") {
  // Plant K/(T s + 1) with K = 2, T = 0.5; PI kp (1 + 1/(Ti s)) with Ti = kp/ki = T
  // cancels the plant's pole: the loop is kp K/(T s), the closed loop 1/(tau s + 1) with
  // tau = T/(kp K) = 1/6 s. From rest and r = 1: y = 1 - exp(-6 t), exactly.
  RunResult r = run(loop(R"({"kp": 1.5, "ki": 3})", R"({"K": 2, "T": 0.5})", 3.0));
  REQUIRE(r.finished);
  const double err = max_error(r, "plant.y", [](double t) { return 1.0 - std::exp(-6.0 * t); });
  MESSAGE("PI closed loop, max error " << err);
  CHECK(err <= 1e-8);  // |y| <= 1, rtol 1e-9
  // Integral action: no steady-state error (the plant's static gain 2 needs u = 0.5,
  // all of it from the integral term).
  CHECK(std::abs(r.column("plant.y").back() - 1.0) <= 1e-7);
  CHECK(r.column("pid.integral").back() == doctest::Approx(0.5).epsilon(1e-6));
}

TEST_CASE("PID with limits on a first-order plant: zero steady-state error, anti-windup limits overshoot") {
  // Plant 1/(s + 1); PID kp = 1, ki = 4, kd = 0.05 (Tf automatic, Td/10 = 5 ms), command
  // limited to [0, 1.2]; r = 1 needs u = 1 at steady state, inside the limits. The
  // command saturates at the start while the integral grows.
  const std::string plant = R"({"K": 1, "T": 1})";
  // Once off the limits the loop is linear, s^2 + (1 + kp) s + ki (plus the fast filter):
  // its error decays like exp(-t), so after 25 s it is below 1e-9.
  RunResult aw = run(loop(R"({"kp": 1, "ki": 4, "kd": 0.05, "u_min": 0, "u_max": 1.2})", plant, 25.0));
  RunResult windup = run(loop(R"({"kp": 1, "ki": 4, "kd": 0.05, "u_min": 0, "u_max": 1.2, "Tt": 1e12})", plant, 25.0));
  REQUIRE(aw.finished);
  REQUIRE(windup.finished);
  for (const RunResult* r : {&aw, &windup}) {
    CHECK(std::abs(r->column("plant.y").back() - 1.0) <= 1e-6);
    CHECK(r->column("pid.command").back() == doctest::Approx(1.0).epsilon(1e-6));
    for (double u : r->column("pid.command")) CHECK((u >= 0.0 && u <= 1.2));
  }
  const double overshoot_aw = max_of(aw, "plant.y") - 1.0;
  const double overshoot_windup = max_of(windup, "plant.y") - 1.0;
  const double peak_integral_aw = max_of(aw, "pid.integral");
  const double peak_integral_windup = max_of(windup, "pid.integral");
  MESSAGE("overshoot with anti-windup " << overshoot_aw << ", without " << overshoot_windup);
  MESSAGE("peak integral with anti-windup " << peak_integral_aw << ", without " << peak_integral_windup);
  CHECK(overshoot_windup > 0.05);
  CHECK(overshoot_aw < 0.5 * overshoot_windup);
  CHECK(peak_integral_aw < peak_integral_windup);
}

TEST_CASE("PID refuses u_min >= u_max, and a derivative without kp nor Tf") {
  const std::string limits = input_error_of(
      netlist(R"("pid": {"type": "signal.pid", "params": {"u_min": 1, "u_max": 1}})", "", R"("pid.command")"));
  CHECK(limits.find("component 'pid'") != std::string::npos);
  CHECK(limits.find("parameter 'u_min'") != std::string::npos);
  const std::string tf = input_error_of(
      netlist(R"("pid": {"type": "signal.pid", "params": {"kp": 0, "kd": 1}})", "", R"("pid.command")"));
  CHECK(tf.find("component 'pid'") != std::string::npos);
  CHECK(tf.find("parameter 'Tf'") != std::string::npos);
  const std::string negative = input_error_of(
      netlist(R"("pid": {"type": "signal.pid", "params": {"ki": -1}})", "", R"("pid.command")"));
  CHECK(negative.find("parameter 'ki'") != std::string::npos);
}
