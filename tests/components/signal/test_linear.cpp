// Continuous linear blocks: transfer function, state space, Butterworth filter, against
// their closed forms (step responses, the Butterworth magnitude |H(i w)|^2 = 1/(1 +
// (w/w_c)^2n)) and through the linear analysis.
#include <cmath>
#include <complex>
#include <numbers>

#include <Eigen/Dense>

#include "jourdain/solvers/linear.hpp"
#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const double pi = std::numbers::pi;
const std::string tight = R"({"method": "dopri5", "t_end": 4, "rtol": 1e-11, "atol": 1e-13, "output_interval": 0.01})";

// G(i w) = C (i w I - A)^-1 B + D of a linear model's first input/output pair.
std::complex<double> response(const LinearModel& lm, double w) {
  const Eigen::Index n = lm.A.rows();
  Eigen::MatrixXcd M = std::complex<double>(0.0, w) * Eigen::MatrixXcd::Identity(n, n) - lm.A.cast<std::complex<double>>();
  const Eigen::VectorXcd x = M.partialPivLu().solve(lm.B.col(0).cast<std::complex<double>>());
  return (lm.C.row(0).cast<std::complex<double>>() * x)(0) + lm.D(0, 0);
}

}  // namespace

TEST_CASE("transfer function: step response of w^2/(s^2 + 2 zeta w s + w^2) against its closed form") {
  // w = 4 rad/s, zeta = 0.3, from rest, a unit step at t = 0:
  //   y = 1 - e^(-zeta w t) (cos(w_d t) + zeta/sqrt(1 - zeta^2) sin(w_d t)),  w_d = w sqrt(1 - zeta^2).
  const double w = 4.0, zeta = 0.3, wd = w * std::sqrt(1 - zeta * zeta);
  RunResult r = run(netlist(R"("u": {"type": "signal.step", "params": {"step_time": 0}},
                               "tf": {"type": "signal.transfer_function",
                                      "params": {"numerator": [16], "denominator": [1, 2.4, 16]}})",
                            R"(["u.out", "tf.in"])", R"("tf.out", "tf.x1", "tf.x2")", tight));
  REQUIRE(r.finished);
  auto exact = [&](double t) {
    return 1.0 - std::exp(-zeta * w * t) * (std::cos(wd * t) + zeta / std::sqrt(1 - zeta * zeta) * std::sin(wd * t));
  };
  const double err = max_error(r, "tf.out", exact);
  MESSAGE("second-order step response, max error " << err);
  // dopri5 at rtol 1e-11 on a response of order 1 over 4 s (about 2.5 periods): the
  // global error measured ~1e-11; bound 1e-9.
  CHECK(err <= 1e-9);
  // Controllable canonical form: x1 = y / 16 (the numerator's constant), x2 = dx1/dt.
  CHECK(max_error(r, "tf.x1", [&](double t) { return exact(t) / 16.0; }) <= 1e-10);
  CHECK(at_time(r, "tf.out", 0.0) == 0.0);
}

TEST_CASE("transfer function: a biproper lead-lag feeds through, starts at rest or in steady state") {
  // H(s) = (2 s + 1)/(0.5 s + 1): D = 4, step response from rest y = 1 + 3 e^(-2 t).
  const std::string tf = R"("tf": {"type": "signal.transfer_function", "params": {"numerator": [2, 1], "denominator": [0.5, 1]}})";
  RunResult r = run(netlist(R"("u": {"type": "signal.step", "params": {"step_time": 0}},)" + tf, R"(["u.out", "tf.in"])",
                            R"("tf.out")", tight));
  REQUIRE(r.finished);
  CHECK(max_error(r, "tf.out", [](double t) { return 1.0 + 3.0 * std::exp(-2.0 * t); }) <= 1e-10);
  // Its output reads its input: a loop through it is algebraic; a strictly proper one is not.
  CHECK(load(netlist(tf + R"(, "g": {"type": "signal.gain", "params": {"k": -0.1}})", R"(["tf.out", "g.in"], ["g.out", "tf.in"])",
                     R"("tf.out")")).model.schedule().loop_count() == 1);
  CHECK(load(netlist(R"("tf": {"type": "signal.transfer_function", "params": {"numerator": [1], "denominator": [1, 1]}},
                        "g": {"type": "signal.gain", "params": {"k": -0.1}})",
                     R"(["tf.out", "g.in"], ["g.out", "tf.in"])", R"("tf.out")")).model.schedule().loop_count() == 0);
  // Started in the steady state of a constant input 2: y = H(0) 2 = 2 throughout.
  RunResult s = run(netlist(R"("u": {"type": "signal.constant", "params": {"value": 2}},
                               "tf": {"type": "signal.transfer_function",
                                      "params": {"numerator": [16], "denominator": [1, 2.4, 16], "start": "steady_state"}})",
                            R"(["u.out", "tf.in"])", R"("tf.out")"));
  REQUIRE(s.finished);
  CHECK(max_error(s, "tf.out", [](double) { return 2.0; }) <= 1e-14);
}

TEST_CASE("transfer function: improper or without a steady state is refused by name") {
  auto error_of = [](const std::string& params) {
    return input_error_of(netlist(R"("u": {"type": "signal.constant"}, "tf": {"type": "signal.transfer_function", "params": )" +
                                      params + "}",
                                  R"(["u.out", "tf.in"])", R"("tf.out")"));
  };
  std::string msg = error_of(R"({"numerator": [1, 0, 0], "denominator": [1, 1]})");
  CHECK(msg.find("component 'tf'") != std::string::npos);
  CHECK(msg.find("parameter 'numerator'") != std::string::npos);
  CHECK(msg.find("proper") != std::string::npos);
  // Leading zeros do not count: 0 s^2 + s + 1 over s + 2 is proper (biproper).
  CHECK(error_of(R"({"numerator": [0, 1, 1], "denominator": [1, 2]})").empty());
  msg = error_of(R"({"numerator": [1], "denominator": [0, 1]})");
  CHECK(msg.find("parameter 'denominator'") != std::string::npos);
  msg = error_of(R"({"numerator": [1], "denominator": [1, 0], "start": "steady_state"})");
  CHECK(msg.find("parameter 'start'") != std::string::npos);
  CHECK(msg.find("s = 0") != std::string::npos);
}

TEST_CASE("state space: a MIMO oscillator with feedthrough against its closed form") {
  // x1' = x2, x2' = -w^2 x1 + u1;  y1 = x1, y2 = x2 + 3 u2.  u1 = 1 (step at 0), u2 = sin(2 pi t):
  //   y1 = (1 - cos(w t)) / w^2,  y2 = sin(w t) / w + 3 sin(2 pi t).
  const double w = 3.0;
  const std::string ss = R"("ss": {"type": "signal.state_space", "params": {
        "A": [[0, 1], [-9, 0]], "B": [[0, 0], [1, 0]], "C": [[1, 0], [0, 1]], "D": [[0, 0], [0, 3]]}})";
  RunResult r = run(netlist(R"("u1": {"type": "signal.step", "params": {"step_time": 0}},
                               "u2": {"type": "signal.sine"},)" + ss,
                            R"(["u1.out", "ss.in1"], ["u2.out", "ss.in2"])", R"("ss.out1", "ss.out2")", tight));
  REQUIRE(r.finished);
  CHECK(max_error(r, "ss.out1", [&](double t) { return (1 - std::cos(w * t)) / (w * w); }) <= 1e-10);
  CHECK(max_error(r, "ss.out2", [&](double t) { return std::sin(w * t) / w + 3 * std::sin(2 * pi * t); }) <= 1e-10);
  // Only out2 feeds through, and only from in2.
  const Netlist n = load(netlist(R"("u": {"type": "signal.constant"},)" + ss, R"(["u.out", "ss.in1"], ["u.out", "ss.in2"])",
                                 R"("ss.out1")"));
  const Component& c = *n.model.find_component("ss");
  CHECK(c.ports()[c.find_port("out1").index].depends_on.empty());
  REQUIRE(c.ports()[c.find_port("out2").index].depends_on.size() == 1);
  CHECK(c.ports()[c.find_port("out2").index].depends_on[0] == c.find_port("in2"));
}

TEST_CASE("state space: matrices of the wrong size are refused by name") {
  const std::string msg = input_error_of(netlist(R"("ss": {"type": "signal.state_space", "params": {
      "A": [[0, 1], [-9, 0]], "B": [[1]], "C": [[1, 0]], "D": [[0]]}})", "", R"("ss.out")"));
  CHECK(msg.find("component 'ss'") != std::string::npos);
  CHECK(msg.find("parameter 'B'") != std::string::npos);
  CHECK(msg.find("2×1") != std::string::npos);
  const std::string ragged = input_error_of(netlist(R"("ss": {"type": "signal.state_space", "params": {
      "A": [[0, 1], [-9]]}})", "", R"("ss.out")"));
  CHECK(ragged.find("parameter 'A'") != std::string::npos);
}

TEST_CASE("Butterworth: |H(i w_c)| = 1/sqrt(2), -20 n dB per decade, poles on the circle (linear analysis)") {
  const double fc = 10.0, wc = 2 * pi * fc;
  for (int n : {1, 2, 3, 4, 5, 8}) {
    CAPTURE(n);
    const std::string text = netlist(R"("u": {"type": "signal.constant"},
                                        "bw": {"type": "signal.butterworth", "params": {"order": )" + std::to_string(n) +
                                         R"(, "cutoff": "10 Hz"}})",
                                     R"(["u.out", "bw.in"])", R"("bw.out")");
    LinearSettings s;
    s.at = LinearSettings::At::Initial;
    s.inputs = {"u.value"};
    s.outputs = {"bw.out"};
    const LinearRunResult r = run_linear(load(text), s, {});
    REQUIRE(r.finished);
    const LinearModel& lm = r.linear;
    REQUIRE(lm.A.rows() == n);
    // The exact magnitude |H(i w)| = (1 + (w/w_c)^2n)^-1/2, at w_c and a decade apart above.
    auto exact = [&](double w) { return 1.0 / std::sqrt(1.0 + std::pow(w / wc, 2 * n)); };
    // Central differences of a linear model: A, B, C to ~1e-10 relative (linear.hpp).
    CHECK(std::abs(response(lm, wc)) == doctest::Approx(1 / std::sqrt(2.0)).epsilon(1e-8));
    for (double ratio : {0.1, 0.5, 2.0, 10.0, 100.0})
      CHECK(std::abs(response(lm, ratio * wc)) == doctest::Approx(exact(ratio * wc)).epsilon(1e-7));
    // A decade from 100 w_c to 1000 w_c: 10 log10((1 + 100^2n)/(1 + 1000^2n)), -20 n dB but
    // for 4e-4 dB at n = 1.
    const double slope_db = 20 * std::log10(std::abs(response(lm, 1000 * wc)) / std::abs(response(lm, 100 * wc)));
    CHECK(slope_db == doctest::Approx(10 * std::log10((1 + std::pow(100.0, 2 * n)) / (1 + std::pow(1000.0, 2 * n))))
                          .epsilon(1e-7));
    CHECK(std::abs(slope_db + 20.0 * n) <= 5e-4);
    // Poles evenly spread on the circle |s| = w_c in the left half plane.
    for (const auto& l : lm.eigenvalues) {
      CHECK(std::abs(l) == doctest::Approx(wc).epsilon(1e-7));
      CHECK(l.real() < 0.0);
    }
    CHECK(std::abs(response(lm, 0.0)) == doctest::Approx(1.0).epsilon(1e-9));  // unit DC gain
  }
}

TEST_CASE("Butterworth: a sine at the cut-off comes out 1/sqrt(2) as large, in the run") {
  // Order 3, f_c = 10 Hz, input sin(2 pi 10 t) from rest. The slowest pole decays as
  // e^(-w_c/2 t) (Re s = -w_c/2 for the pair, -w_c for the real pole): below 1e-13 after
  // 1 s. Over the last 10 periods the output's amplitude, from its projections on sin
  // and cos sampled 100 times a period (exact for a pure sinusoid), is 1/sqrt(2).
  const double f = 10.0;
  RunResult r = run(netlist(R"("u": {"type": "signal.sine", "params": {"frequency": "10 Hz"}},
                               "bw": {"type": "signal.butterworth", "params": {"order": 3, "cutoff": "10 Hz"}})",
                            R"(["u.out", "bw.in"])", R"("bw.out")",
                            R"({"method": "dopri5", "t_end": 2, "rtol": 1e-11, "atol": 1e-13, "output_interval": 0.001})"));
  REQUIRE(r.finished);
  const auto time = r.column("time"), y = r.column("bw.out");
  double a = 0.0, b = 0.0;
  int count = 0;
  for (size_t k = 0; k < time.size(); ++k) {
    if (time[k] < 1.0 - 1e-9 || time[k] >= 2.0 - 1e-9) continue;
    a += y[k] * std::sin(2 * pi * f * time[k]);
    b += y[k] * std::cos(2 * pi * f * time[k]);
    ++count;
  }
  REQUIRE(count == 1000);
  const double amplitude = 2.0 / count * std::hypot(a, b);
  MESSAGE("amplitude at the cut-off " << amplitude << ", 1/sqrt(2) = " << 1 / std::sqrt(2.0));
  CHECK(amplitude == doctest::Approx(1 / std::sqrt(2.0)).epsilon(1e-8));
  // The phase of a third-order Butterworth at w_c: -3 pi/4 (each pole pair and the real pole
  // add their angles: -pi/2 - pi/4).
  CHECK(std::atan2(b, a) == doctest::Approx(-3 * pi / 4).epsilon(1e-7));
}

TEST_CASE("Butterworth: a run may change the cut-off") {
  // First order: 1/(s/w_c + 1), step response 1 - e^(-w_c t); f_c = 2 Hz in the run.
  const Netlist n = load(netlist(R"("u": {"type": "signal.step", "params": {"step_time": 0}},
                                    "bw": {"type": "signal.butterworth", "params": {"order": 1, "cutoff": "10 Hz"}})",
                                 R"(["u.out", "bw.in"])", R"("bw.out")", tight));
  RunOptions options;
  options.keep_rows = true;
  options.parameters = {{"bw.cutoff", "2 Hz"}};
  RunResult r = run_netlist(n, options);
  REQUIRE(r.finished);
  CHECK(max_error(r, "bw.out", [](double t) { return 1 - std::exp(-4 * pi * t); }) <= 1e-10);
}
