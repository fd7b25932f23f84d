// Nonlinear blocks: rate limiter, dead zone, backlash, min, max, abs, each against its law.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const double pi = std::numbers::pi;
const std::string tight =
    R"({"method": "dopri5", "t_end": 3, "max_step": 0.01, "rtol": 1e-11, "atol": 1e-13, "output_interval": 0.001})";

}  // namespace

TEST_CASE("rate limiter: a step is followed at the limit rates, then within Td") {
  // u steps 0 -> 1 at t = 0.5 and back to 0 at t = 1.5; rising 2 /s, falling 4 /s, Td = 1 ms.
  //   from 0.5: y = 2 (t - 0.5) while 1 - y > 2 Td, i.e. until t1 = 0.5 + (1 - 2 Td)/2,
  //             then y = 1 - 2 Td e^(-(t - t1)/Td);
  //   from 1.5: y falls at 4 /s from y(1.5) while y > 4 Td, until t2 = 1.5 + (y(1.5) - 4 Td)/4,
  //             then y = 4 Td e^(-(t - t2)/Td).
  const double td = 1e-3;
  const double t1 = 0.5 + (1 - 2 * td) / 2;
  const double y15 = 1 - 2 * td * std::exp(-(1.5 - t1) / td);
  const double t2 = 1.5 + (y15 - 4 * td) / 4;
  auto exact = [&](double t) {
    if (t <= 0.5) return 0.0;
    if (t <= t1) return 2 * (t - 0.5);
    if (t <= 1.5) return 1 - 2 * td * std::exp(-(t - t1) / td);
    if (t <= t2) return y15 - 4 * (t - 1.5);
    return 4 * td * std::exp(-(t - t2) / td);
  };
  RunResult r = run(netlist(R"("u": {"type": "signal.time_table", "params": {"interpolation": "previous",
                                     "table": [[0, 0], [0.5, 1], [1.5, 0]]}},
                               "rl": {"type": "signal.rate_limiter", "params": {"rising": 2, "falling": 4, "Td": "1 ms"}})",
                            R"(["u.out", "rl.in"])", R"("rl.out")", tight));
  REQUIRE(r.finished);
  const double err = max_error(r, "rl.out", exact);
  MESSAGE("rate limiter against its closed form, max error " << err);
  // The switch between the limit and following is a kink of y' (no event): the error
  // there is the solver's, bounded by the 10 ms steps around it at rtol 1e-11.
  CHECK(err <= 1e-8);
  // The slopes, from the run.
  CHECK((at_time(r, "rl.out", 0.9) - at_time(r, "rl.out", 0.6)) / 0.3 == doctest::Approx(2.0).epsilon(1e-9));
  CHECK((at_time(r, "rl.out", 1.7) - at_time(r, "rl.out", 1.6)) / 0.1 == doctest::Approx(-4.0).epsilon(1e-9));
  // Starts at the input by default.
  CHECK(r.column("rl.out").front() == 0.0);
}

TEST_CASE("rate limiter: rates in the signal's unit") {
  // unit "Pa": "rising" in Pa/s accepts "2 bar/s" = 2e5 Pa/s; from 0 towards 1e5 Pa: 0.5 s.
  RunResult r = run(netlist(R"("u": {"type": "signal.constant", "params": {"value": 1e5}},
                               "rl": {"type": "signal.rate_limiter",
                                      "params": {"unit": "Pa", "rising": "2 bar/s", "start_at_input": false}})",
                            R"(["u.out", "rl.in"])", R"("rl.out")", tight));
  REQUIRE(r.finished);
  CHECK(at_time(r, "rl.out", 0.25) == doctest::Approx(5e4).epsilon(1e-9));
  const std::string u = R"("u": {"type": "signal.constant"}, )";
  const Netlist n = load(netlist(u + R"("rl": {"type": "signal.rate_limiter", "params": {"unit": "Pa"}})", R"(["u.out", "rl.in"])",
                                 R"("rl.out")"));
  CHECK(n.model.find_component("rl")->ports()[1].unit == "Pa");
  const std::string msg = input_error_of(netlist(
      u + R"("rl": {"type": "signal.rate_limiter", "params": {"unit": "Pa", "rising": "2 m/s"}})", R"(["u.out", "rl.in"])",
      R"("rl.out")"));
  CHECK(msg.find("parameter 'rising'") != std::string::npos);
}

TEST_CASE("dead zone: zero inside [lower, upper], the input less the nearer limit outside") {
  RunResult r = run(netlist(R"("s": {"type": "signal.sine", "params": {"amplitude": 2}},
                               "dz": {"type": "signal.dead_zone", "params": {"lower": -0.5, "upper": 1}})",
                            R"(["s.out", "dz.in"])", R"("dz.out")"));
  REQUIRE(r.finished);
  CHECK(max_error(r, "dz.out", [](double t) {
          const double u = 2 * std::sin(2 * pi * t);
          return u > 1 ? u - 1 : u < -0.5 ? u + 0.5 : 0.0;
        }) <= 1e-15);
  const std::string msg = input_error_of(netlist(R"("s": {"type": "signal.sine"},
                                                   "dz": {"type": "signal.dead_zone", "params": {"lower": 1, "upper": 1}})",
                                                 R"(["s.out", "dz.in"])", R"("dz.out")"));
  CHECK(msg.find("parameter 'lower'") != std::string::npos);
}

TEST_CASE("backlash on a sine: the play operator, with the output held between pushes") {
  // u = sin(pi t), width 0.4, y(0) = 0. The exact output is the play operator
  //   y(t) = min(max(y(t-), u - w/2), u + w/2),
  // computed here on a grid of 1e-6 s (its error at the turns, |u''| h^2/8, is 1e-12).
  // The block sees a turn Tr = 1 ms late: the held values are low by about
  // |u''| Tr^2/2 = pi^2 1e-6 / 2 = 5e-6.
  RunResult r = run(netlist(R"("s": {"type": "signal.sine", "params": {"frequency": 0.5}},
                               "bl": {"type": "signal.backlash", "params": {"width": 0.4}})",
                            R"(["s.out", "bl.in"])", R"("bl.out", "bl.mode")",
                            R"({"method": "dopri5", "t_end": 4, "max_step": 0.01, "rtol": 1e-10, "atol": 1e-12,
                                "output_interval": 0.001})"));
  REQUIRE(r.finished);
  const auto time = r.column("time"), y = r.column("bl.out");
  double play = 0.0, t_grid = 0.0, worst = 0.0;
  const double h = 1e-6;
  for (size_t k = 0; k < time.size(); ++k) {
    while (t_grid + h <= time[k]) {
      t_grid += h;
      const double u = std::sin(pi * t_grid);
      play = std::clamp(play, u - 0.2, u + 0.2);
    }
    const double u = std::sin(pi * time[k]);
    worst = std::max(worst, std::abs(y[k] - std::clamp(play, u - 0.2, u + 0.2)));
  }
  MESSAGE("backlash against the play operator, max error " << worst);
  CHECK(worst <= 1e-5);
  // Pushed up from asin(0.2)/pi, free past the top (t = 0.5 + Tr), pushed down once
  // u + 0.2 falls below the held 0.8 (t = 1 - asin(0.6)/pi), free past the bottom, pushed
  // up again once u - 0.2 rises above -0.8: 4 mode changes a period, 9 in 4 s.
  const auto times = event_times(r, "bl");
  REQUIRE(times.size() == 9);
  CHECK(times[0] == doctest::Approx(std::asin(0.2) / pi).epsilon(1e-8));
  CHECK(times[1] == doctest::Approx(0.5).epsilon(3e-3));  // the turn, seen Tr late
  CHECK(times[2] == doctest::Approx(1 - std::asin(0.6) / pi).epsilon(1e-5));
  CHECK(max_of(r, "bl.out") == doctest::Approx(0.8).epsilon(1e-5));
}

TEST_CASE("backlash: an input that jumps back within the gap leaves the output where it was") {
  // u: 0, 1 at t = 1, 0.9 at t = 2, 0 at t = 3; width 0.4:
  // y: 0, then pushed to 0.8, held at 0.8 (0.9 - 0.2 < 0.8 < 0.9 + 0.2), then pushed down to 0.2.
  RunResult r = run(netlist(R"("u": {"type": "signal.time_table", "params": {"interpolation": "previous",
                                     "table": [[0, 0], [1, 1], [2, 0.9], [3, 0]]}},
                               "bl": {"type": "signal.backlash", "params": {"width": 0.4}})",
                            R"(["u.out", "bl.in"])", R"("bl.out")",
                            R"({"method": "dopri5", "t_end": 4, "output_interval": 0.1})"));
  REQUIRE(r.finished);
  auto exact = [](double t) { return t < 1 ? 0.0 : t < 3 ? 0.8 : 0.2; };
  // The held value comes from the input lag (1 - 0.2), which has followed the input for
  // 1 s after its jump (e^-1000): exact but for the lag's integration error.
  CHECK(max_error(r, "bl.out", exact, {1, 2, 3}) <= 1e-10);
}

TEST_CASE("min, max and abs") {
  RunResult r = run(netlist(R"("s": {"type": "signal.sine"},
                               "c": {"type": "signal.sine", "params": {"phase": "90 deg", "amplitude": 0.5}},
                               "rp": {"type": "signal.ramp", "params": {"slope": -1}},
                               "mn": {"type": "signal.min", "params": {"inputs": 3}},
                               "mx": {"type": "signal.max", "params": {"inputs": 3}},
                               "ab": {"type": "signal.abs"})",
                            R"(["s.out", "mn.in1"], ["c.out", "mn.in2"], ["rp.out", "mn.in3"],
                               ["s.out", "mx.in1"], ["c.out", "mx.in2"], ["rp.out", "mx.in3"], ["s.out", "ab.in"])",
                            R"("mn.out", "mx.out", "ab.out")"));
  REQUIRE(r.finished);
  auto u = [](double t) {
    return std::array<double, 3>{std::sin(2 * pi * t), 0.5 * std::sin(2 * pi * t + pi / 2), -t};
  };
  CHECK(max_error(r, "mn.out", [&](double t) { auto v = u(t); return *std::min_element(v.begin(), v.end()); }) <= 1e-15);
  CHECK(max_error(r, "mx.out", [&](double t) { auto v = u(t); return *std::max_element(v.begin(), v.end()); }) <= 1e-15);
  CHECK(max_error(r, "ab.out", [&](double t) { return std::abs(std::sin(2 * pi * t)); }) <= 1e-15);
}
