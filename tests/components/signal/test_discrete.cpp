// Blocks at a sample time: sample-and-hold, discrete PID, discrete transfer function.
// Their outputs change at the sample instants only, which are time events: each is
// checked against its difference equation computed here, sample by sample.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const double pi = std::numbers::pi;

// The sample instants 0, Ts, 2 Ts, ... up to t_end, each as the block computes it
// (sample_offset + k Ts).
std::vector<double> instants(double ts, double t_end) {
  std::vector<double> t;
  for (double k = 0; 0.0 + k * ts <= t_end; k += 1) t.push_back(0.0 + k * ts);
  return t;
}

// The sample interval k the time t lies in (t not a sample instant).
size_t interval(double t, double ts) { return static_cast<size_t>(std::floor(t / ts)); }

// The largest |column(t) - held[k(t)]| over the rows between sample instants.
double max_error_held(const RunResult& r, const std::string& column, const std::vector<double>& held, double ts) {
  const auto time = r.column("time"), y = r.column(column);
  const auto at = instants(ts, time.back());
  double worst = 0.0;
  for (size_t i = 0; i < time.size(); ++i)
    if (!near_any(time[i], at)) worst = std::max(worst, std::abs(y[i] - held[interval(time[i], ts)]));
  return worst;
}

}  // namespace

TEST_CASE("sample-and-hold: holds u(t_k), and the solvers stop on every sample instant") {
  // u = sin(2 pi t), Ts = 0.1 s over 2 s: y = sin(2 pi t_k) on [t_k, t_k+1). Its integral
  // is Ts sum sin(2 pi t_k) at each t_k, exactly: each step integrates a constant.
  const double ts = 0.1;
  for (const char* method : {"dopri5", "bdf", "rk4"}) {
    INFO("method: " << std::string(method));
    RunResult r = run(netlist(R"("u": {"type": "signal.sine"},
                                 "sh": {"type": "signal.sample_hold", "params": {"sample_time": "100 ms"}},
                                 "int": {"type": "signal.integrator"})",
                              R"(["u.out", "sh.in"], ["sh.out", "int.in"])", R"("sh.out", "int.y")",
                              std::string(R"({"method": ")") + method +
                                  R"(", "t_end": 2, "rtol": 1e-10, "atol": 1e-12, "step": 0.03, "output_interval": 0.01})"));
    REQUIRE(r.finished);
    const auto at = instants(ts, 2.0);
    std::vector<double> held;
    for (double t : at) held.push_back(std::sin(2 * pi * t));
    CHECK(max_error_held(r, "sh.out", held, ts) <= 1e-15);
    CHECK(r.stats.events == 20);  // t_1 .. t_20 (t_0 = t0 is sampled by initialize)
    double integral = 0.0;
    for (size_t k = 0; k + 1 < at.size(); ++k) integral += ts * held[k];
    CHECK(std::abs(r.column("int.y").back() - integral) <= 1e-13);
  }
}

TEST_CASE("discrete PID: the velocity form against the position form's difference equation") {
  // e(t) = 1 + sin(2 pi t) - 0.3 t, Ts = 50 ms, kp = 2, ki = 3, kd = 0.1, Tf = 20 ms, from
  // rest (u_start = 0.5). Computed here in position form with a backward-Euler integral:
  //   I_k = I_k-1 + ki Ts e_k (I_-1 = u_start),  D_k = (Tf D_k-1 + kd (e_k - e_k-1)) / (Tf + Ts),
  //   u_k = kp e_k + I_k + D_k,                   e_-1 = 0, D_-1 = 0.
  const double ts = 0.05, kp = 2, ki = 3, kd = 0.1, tf = 0.02;
  RunResult r = run(netlist(R"("s": {"type": "signal.sine", "params": {"offset": 1}},
                               "rp": {"type": "signal.ramp", "params": {"slope": -0.3}},
                               "e": {"type": "signal.sum"},
                               "pid": {"type": "signal.discrete_pid",
                                       "params": {"sample_time": "50 ms", "kp": 2, "ki": 3, "kd": 0.1, "Tf": "20 ms",
                                                  "u_start": 0.5}})",
                            R"(["s.out", "e.in1"], ["rp.out", "e.in2"], ["e.out", "pid.error"])",
                            R"("pid.command", "e.out")",
                            R"({"method": "dopri5", "t_end": 3, "output_interval": 0.01})"));
  REQUIRE(r.finished);
  std::vector<double> u;
  double integral = 0.5, d = 0.0, e_prev = 0.0;
  for (double t : instants(ts, 3.0)) {
    const double e = (1 + std::sin(2 * pi * t)) + (0.0 + -0.3 * t);
    integral += ki * ts * e;
    d = (tf * d + kd * (e - e_prev)) / (tf + ts);
    u.push_back(kp * e + integral + d);
    e_prev = e;
  }
  const double err = max_error_held(r, "pid.command", u, ts);
  MESSAGE("discrete PID against the difference equation, max error " << err);
  // Rounding only: the velocity form sums the same terms in another order (u of order 10).
  CHECK(err <= 1e-12);
}

TEST_CASE("discrete PID: a command held on its limit does not wind up") {
  // A pure integral controller (kp = 0, ki = 1) on e = +1 for 1 s then -1: the command
  // rises by Ts per sample to u_max = 0.3, stays there, and starts down at the first sample
  // after the error turns, since the state is the command itself. Computed here:
  //   u_k = min(max(u_k-1 + ki Ts e_k, u_min), u_max).
  const double ts = 0.1;
  RunResult r = run(netlist(R"("e": {"type": "signal.step", "params": {"step_time": 1.05, "before": 1, "after": -1}},
                               "pid": {"type": "signal.discrete_pid",
                                       "params": {"sample_time": 0.1, "kp": 0, "ki": 1, "u_max": 0.3, "u_min": -1}})",
                            R"(["e.out", "pid.error"])", R"("pid.command")",
                            R"({"method": "dopri5", "t_end": 2, "output_interval": 0.01})"));
  REQUIRE(r.finished);
  std::vector<double> u;
  double prev = 0.0;
  for (double t : instants(ts, 2.0)) {
    prev = std::clamp(prev + ts * (t < 1.05 ? 1.0 : -1.0), -1.0, 0.3);
    u.push_back(prev);
  }
  CHECK(max_error_held(r, "pid.command", u, ts) <= 1e-15);
  CHECK(at_time(r, "pid.command", 1.15) == doctest::Approx(0.2));  // off the limit at the first sample
}

TEST_CASE("discrete transfer function: against filter(b, a, u) computed here") {
  // H(z) = (0.2 + 0.1 z^-1) / (1 - 1.2 z^-1 + 0.5 z^-2) (poles |z| = sqrt(0.5)), given
  // scaled by 2 (a_0 = 2) to check the normalisation, on u = sin(2 pi 0.7 t), Ts = 0.1:
  //   y_k = 0.2 u_k + 0.1 u_k-1 + 1.2 y_k-1 - 0.5 y_k-2, from rest.
  const double ts = 0.1;
  RunResult r = run(netlist(R"("u": {"type": "signal.sine", "params": {"frequency": 0.7}},
                               "h": {"type": "signal.discrete_transfer_function",
                                     "params": {"sample_time": 0.1, "numerator": [0.4, 0.2], "denominator": [2, -2.4, 1]}})",
                            R"(["u.out", "h.in"])", R"("h.out")",
                            R"({"method": "dopri5", "t_end": 3, "output_interval": 0.01})"));
  REQUIRE(r.finished);
  std::vector<double> y;
  double u1 = 0, y1 = 0, y2 = 0;
  for (double t : instants(ts, 3.0)) {
    const double u = std::sin(2 * pi * 0.7 * t);
    const double yk = 0.2 * u + 0.1 * u1 + 1.2 * y1 - 0.5 * y2;
    y.push_back(yk);
    u1 = u, y2 = y1, y1 = yk;
  }
  const double err = max_error_held(r, "h.out", y, ts);
  MESSAGE("discrete transfer function against its difference equation, max error " << err);
  CHECK(err <= 1e-14);
}

TEST_CASE("discrete transfer function: started in the steady state, a constant input gives H(1) u") {
  // H(1) = (0.2 + 0.1) / (1 - 1.2 + 0.5) = 1, u = 3: y = 3 at every sample.
  RunResult r = run(netlist(R"("u": {"type": "signal.constant", "params": {"value": 3}},
                               "h": {"type": "signal.discrete_transfer_function",
                                     "params": {"numerator": [0.2, 0.1], "denominator": [1, -1.2, 0.5], "start": "steady_state"}})",
                            R"(["u.out", "h.in"])", R"("h.out", "h.w1", "h.w2")"));
  REQUIRE(r.finished);
  CHECK(max_error(r, "h.out", [](double) { return 3.0; }) <= 1e-14);
  const std::string msg = input_error_of(netlist(R"("h": {"type": "signal.discrete_transfer_function",
      "params": {"numerator": [1], "denominator": [1, -1], "start": "steady_state"}})", "", R"("h.out")"));
  CHECK(msg.find("parameter 'start'") != std::string::npos);
  CHECK(msg.find("z = 1") != std::string::npos);
}

TEST_CASE("discrete PID in a loop with a first-order plant: the exact sampled-data solution") {
  // Plant T y' = K u - y (T = 0.5, K = 2) under a discrete PI (kp = 0.4, ki = 1, Ts = 0.1)
  // on e = 1 - y. u is constant over each sample interval, so at the instants
  //   y_k+1 = a y_k + (1 - a) K u_k,  a = e^(-Ts/T)   (the plant's zero-order-hold model),
  // and the controller's u_k = u_k-1 + kp (e_k - e_k-1) + ki Ts e_k (e_-1 = 0, u_-1 = 0).
  // The loop is not algebraic: the controller's output is a discrete state.
  const std::string text = netlist(
      R"("r": {"type": "signal.constant", "params": {"value": 1}},
         "e": {"type": "signal.sum", "params": {"signs": "+-"}},
         "pid": {"type": "signal.discrete_pid", "params": {"sample_time": 0.1, "kp": 0.4, "ki": 1}},
         "plant": {"type": "signal.first_order_lag", "params": {"K": 2, "T": 0.5}})",
      R"(["r.out", "e.in1"], ["plant.out", "e.in2"], ["e.out", "pid.error"], ["pid.command", "plant.in"])",
      R"("plant.y", "pid.command")",
      R"({"method": "dopri5", "t_end": 3, "rtol": 1e-11, "atol": 1e-13, "output_interval": 0.1})");
  CHECK(load(text).model.schedule().loop_count() == 0);
  RunResult r = run(text);
  REQUIRE(r.finished);
  const double ts = 0.1, a = std::exp(-ts / 0.5);
  double y = 0, u = 0, e_prev = 0, worst = 0;
  for (double t : instants(ts, 3.0)) {
    worst = std::max(worst, std::abs(at_time(r, "plant.y", t) - y));
    const double e = 1 - y;
    u = u + 0.4 * (e - e_prev) + 1.0 * ts * e;
    e_prev = e;
    y = a * y + (1 - a) * 2 * u;
  }
  MESSAGE("sampled-data loop, max error of y at the instants " << worst);
  CHECK(worst <= 1e-9);
}
