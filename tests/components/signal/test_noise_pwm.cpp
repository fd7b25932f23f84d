// Seeded noise and PWM: sources whose changes are time events.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

// A noise source sampled every 10 ms from t = 5 ms (sample_offset), into an integrator,
// over `t_end`; rows every 10 ms fall between the sample instants.
std::string noise_netlist(const std::string& params, double t_end, const std::string& method = "dopri5") {
  return netlist(R"("n": {"type": "signal.noise", "params": {"sample_time": "10 ms", "sample_offset": "5 ms", )" + params +
                     R"(}}, "int": {"type": "signal.integrator"})",
                 R"(["n.out", "int.in"])", R"("n.out", "int.y")",
                 R"({"method": ")" + method + R"(", "t_end": )" + std::to_string(t_end) +
                     R"(, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01})");
}

// The noise's values, one per sample interval: the rows between the instants.
std::vector<double> values(const RunResult& r) {
  const auto time = r.column("time"), v = r.column("n.out");
  std::vector<double> out;
  for (size_t k = 0; k < time.size(); ++k) {
    const double cycles = (time[k] - 0.005) / 0.01;
    if (std::abs(cycles - std::round(cycles)) > 1e-6 && (out.empty() || time[k] != time[k - 1])) out.push_back(v[k]);
  }
  return out;
}

double mean_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / v.size(); }
double variance_of(const std::vector<double>& v) {
  const double m = mean_of(v);
  double s = 0.0;
  for (double x : v) s += (x - m) * (x - m);
  return s / (v.size() - 1);
}

}  // namespace

TEST_CASE("noise: the same seed gives the same noise, in any solver; another seed another") {
  const RunResult a = run(noise_netlist(R"("seed": 7)", 2));
  const RunResult b = run(noise_netlist(R"("seed": 7)", 2, "bdf"));
  const RunResult c = run(noise_netlist(R"("seed": 8)", 2));
  REQUIRE(a.finished);
  REQUIRE(b.finished);
  REQUIRE(c.finished);
  const auto va = values(a), vb = values(b), vc = values(c);
  REQUIRE(va.size() == 201);  // the intervals of the rows at 0, 0.01, ..., 2
  CHECK(va == vb);
  size_t same = 0;
  for (size_t k = 0; k < va.size(); ++k) same += va[k] == vc[k] ? 1 : 0;
  CHECK(same == 0);
  // Two instances with one seed in one model: the same noise (no state shared or kept).
  const RunResult twins = run(netlist(R"("n1": {"type": "signal.noise", "params": {"seed": 3}},
                                         "n2": {"type": "signal.noise", "params": {"seed": 3}},
                                         "int": {"type": "signal.integrator"})",
                                      R"(["n1.out", "int.in"])", R"("n1.out", "n2.out")"));
  REQUIRE(twins.finished);
  CHECK(twins.column("n1.out") == twins.column("n2.out"));
}

TEST_CASE("noise, gaussian: sample mean, variance, tails and correlation within statistical bounds") {
  // N = 10 000 values of mean 2 and standard deviation 0.5. For independent normal
  // values, bounds at 4 standard errors (each exceeded by chance with probability 6e-5):
  //   mean:      |m - 2| <= 4 sigma / sqrt(N) = 0.02
  //   variance:  |s^2/sigma^2 - 1| <= 4 sqrt(2/(N - 1)) = 0.057
  //   tails:     P(|v - 2| > 2 sigma) = 0.0455, within 4 sqrt(0.0455 0.9545 / N) = 0.0083
  //   lag-1 correlation: |rho| <= 4 / sqrt(N) = 0.04
  // The seed is fixed, so the test is deterministic; the bounds say the generator and the
  // Box-Muller transform are right, not that this seed was lucky.
  const RunResult r = run(noise_netlist(R"("seed": 12345, "mean": 2, "std_dev": 0.5)", 100));
  REQUIRE(r.finished);
  const auto v = values(r);
  REQUIRE(v.size() == 10001);
  const double n = static_cast<double>(v.size()), sigma = 0.5;
  const double m = mean_of(v), s2 = variance_of(v);
  size_t tails = 0;
  double lag = 0.0;
  for (size_t k = 0; k < v.size(); ++k) {
    tails += std::abs(v[k] - 2) > 2 * sigma ? 1 : 0;
    if (k > 0) lag += (v[k] - m) * (v[k - 1] - m);
  }
  const double rho = lag / ((n - 1) * s2);
  MESSAGE("gaussian: mean " << m << ", variance " << s2 << ", tail fraction " << tails / n << ", lag-1 correlation " << rho);
  CHECK(std::abs(m - 2) <= 4 * sigma / std::sqrt(n));
  CHECK(std::abs(s2 / (sigma * sigma) - 1) <= 4 * std::sqrt(2 / (n - 1)));
  CHECK(std::abs(tails / n - 0.0455) <= 4 * std::sqrt(0.0455 * 0.9545 / n));
  CHECK(std::abs(rho) <= 4 / std::sqrt(n));
  // The integrator sees a constant over each interval: its value at t_end is the sum of
  // the values times their spans (5 ms for the first, from t0, and the last, to t_end;
  // 10 ms between).
  double integral = 0.0;
  for (size_t k = 0; k < v.size(); ++k) integral += v[k] * (k == 0 || k + 1 == v.size() ? 0.005 : 0.01);
  CHECK(std::abs(r.column("int.y").back() - integral) <= 1e-10);
}

TEST_CASE("noise, uniform: on [mean - sqrt(3) sigma, mean + sqrt(3) sigma], mean and variance within bounds") {
  // Uniform values of variance sigma^2: the sample variance's relative standard error is
  // sqrt((mu_4/sigma^4 - 1)/N) = sqrt(0.8/N); bounds at 4 standard errors as above. With
  // N = 10 000 the extremes come within 0.2 % of the ends but with probability e^-20.
  const RunResult r = run(noise_netlist(R"("seed": 99, "distribution": "uniform", "mean": -1, "std_dev": 2)", 100));
  REQUIRE(r.finished);
  const auto v = values(r);
  REQUIRE(v.size() == 10001);
  const double n = static_cast<double>(v.size()), sigma = 2, half = std::sqrt(3.0) * sigma;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  CHECK(*lo >= -1 - half);
  CHECK(*hi <= -1 + half);
  CHECK(*lo <= -1 - half + 0.002 * 2 * half);
  CHECK(*hi >= -1 + half - 0.002 * 2 * half);
  CHECK(std::abs(mean_of(v) + 1) <= 4 * sigma / std::sqrt(n));
  CHECK(std::abs(variance_of(v) / (sigma * sigma) - 1) <= 4 * std::sqrt(0.8 / n));
}

TEST_CASE("noise: a seed must be a whole number") {
  const std::string msg = input_error_of(netlist(R"("n": {"type": "signal.noise", "params": {"seed": 1.5}})", "", R"("n.out")"));
  CHECK(msg.find("parameter 'seed'") != std::string::npos);
}

TEST_CASE("pwm: constant duty, edges as time events, the mean exact") {
  // f = 10 Hz, d = 0.3, high 2, low -1 over 1 s: 10 rising and 10 falling edges (the
  // rising one at t0 sampled by initialize, the one at t_end ending the run): the
  // integral is 10 (0.03 2 + 0.07 (-1)) = -0.1 to rounding.
  RunResult r = run(netlist(R"("p": {"type": "signal.pwm", "params": {"frequency": "10 Hz", "duty": 0.3, "high": 2, "low": -1}},
                               "int": {"type": "signal.integrator"})",
                            R"(["p.out", "int.in"])", R"("p.out", "int.y")",
                            R"({"method": "dopri5", "t_end": 1, "output_interval": 0.001})"));
  REQUIRE(r.finished);
  CHECK(std::abs(r.column("int.y").back() - (-0.1)) <= 1e-14);
  std::vector<double> edges;
  for (int k = 0; k <= 10; ++k) edges.push_back(k / 10.0), edges.push_back(k / 10.0 + 0.3 / 10.0);
  CHECK(max_error(r, "p.out", [](double t) {
          const double k = std::floor(10 * t + 1e-9);  // the period
          return t - k / 10 < 0.03 ? 2.0 : -1.0;
        }, edges, 1e-9) == 0.0);
}

TEST_CASE("pwm: the duty from an input, read at each period's start") {
  // d = t (a ramp), f = 10 Hz over 1 s: period k is high for d_k T = (k/10)(1/10):
  // integral sum_k k/100 = 0.45. Duty 0 (period 0) gives no pulse; a duty above 1 is
  // taken as 1 (a ramp of slope 2 from t = 0.5: always high from then).
  RunResult r = run(netlist(R"("d": {"type": "signal.ramp"},
                               "p": {"type": "signal.pwm", "params": {"frequency": "10 Hz"}},
                               "int": {"type": "signal.integrator"})",
                            R"(["d.out", "p.duty"], ["p.out", "int.in"])", R"("p.out", "int.y", "p.duty_cycle")",
                            R"({"method": "dopri5", "t_end": 1, "output_interval": 0.001})"));
  REQUIRE(r.finished);
  CHECK(std::abs(r.column("int.y").back() - 0.45) <= 1e-14);
  RunResult full = run(netlist(R"("d": {"type": "signal.ramp", "params": {"slope": 2}},
                                  "p": {"type": "signal.pwm", "params": {"frequency": "10 Hz"}},
                                  "int": {"type": "signal.integrator"})",
                               R"(["d.out", "p.duty"], ["p.out", "int.in"])", R"("p.out", "int.y")",
                               R"({"method": "dopri5", "t_end": 1, "output_interval": 0.001})"));
  REQUIRE(full.finished);
  // d_k = min(2 k/10, 1): 0, 0.2, 0.4, 0.6, 0.8, then 1 for k = 5..9: (2.0 + 5) / 10.
  CHECK(std::abs(full.column("int.y").back() - 0.7) <= 1e-14);
  for (size_t k = 0; k < full.column("time").size(); ++k)
    if (full.column("time")[k] > 0.5 + 1e-9) CHECK(full.column("p.out")[k] == 1.0);
}
