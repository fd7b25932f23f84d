// Lookup tables: signal.table's interpolation and extrapolation choices, signal.table_2d,
// and the staircases of signal.time_table.
#include <algorithm>
#include <cmath>

#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

// The table [[0, 1], [1, 3], [2, 2], [4, 0]] read with the input u = t - 1 (a ramp from -1
// at t = 0, slope 1) over 6 s: u from -1 to 5, past both ends.
std::string ramp_into_table(const std::string& params, double offset = -1) {
  return netlist(R"("u": {"type": "signal.ramp", "params": {"offset": )" + std::to_string(offset) + R"(}},
                    "tab": {"type": "signal.table", "params": {"table": [[0, 1], [1, 3], [2, 2], [4, 0]], )" +
                     params + R"(}},
                    "int": {"type": "signal.integrator"})",
                 R"(["u.out", "tab.in"], ["tab.out", "int.in"])", R"("tab.out", "int.y")",
                 R"({"method": "dopri5", "t_end": 6, "max_step": 0.1, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01})");
}

}  // namespace

TEST_CASE("table, previous: a staircase whose steps are events at the breakpoints") {
  // y = 1 below 1 (held before x_0 = 0 too), 3 on [1, 2), 2 on [2, 4), 0 from 4; with
  // u = t - 1 the steps are at t = 2, 3, 5 (x = 0 changes nothing: y_0 is held below it).
  RunResult r = run(ramp_into_table(R"("interpolation": "previous")"));
  REQUIRE(r.finished);
  auto exact = [](double t) {
    const double u = t - 1;
    return u < 1 ? 1.0 : u < 2 ? 3.0 : u < 4 ? 2.0 : 0.0;
  };
  const auto times = event_times(r, "tab");
  REQUIRE(times.size() == 3);
  CHECK(std::abs(times[0] - 2) <= 1e-9);
  CHECK(std::abs(times[1] - 3) <= 1e-9);
  CHECK(std::abs(times[2] - 5) <= 1e-9);
  CHECK(max_error(r, "tab.out", exact, {1, 2, 3, 5}) == 0.0);
  // Its integral: 1 (2 s) + 3 + 2 (2 s) + 0, to the event placement (1e-9 s per step).
  CHECK(std::abs(r.column("int.y").back() - 9.0) <= 1e-8);
  // The output reads the discrete cell only: a loop through it is not algebraic.
  CHECK(load(netlist(R"("tab": {"type": "signal.table", "params": {"table": [[0, 0], [1, 1]], "interpolation": "previous"}},
                        "g": {"type": "signal.gain"})",
                     R"(["tab.out", "g.in"], ["g.out", "tab.in"])", R"("tab.out")")).model.schedule().loop_count() == 0);
}

TEST_CASE("table, nearest: steps halfway between the breakpoints") {
  // Edges at 0.5, 1.5, 3 (u) = t 1.5, 2.5, 4: y = 1, 3, 2, 0.
  RunResult r = run(ramp_into_table(R"("interpolation": "nearest")"));
  REQUIRE(r.finished);
  auto exact = [](double t) {
    const double u = t - 1;
    return u < 0.5 ? 1.0 : u < 1.5 ? 3.0 : u < 3 ? 2.0 : 0.0;
  };
  const std::vector<double> steps = {1.5, 2.5, 4};
  REQUIRE(event_times(r, "tab").size() == 3);
  for (size_t k = 0; k < 3; ++k) CHECK(std::abs(event_times(r, "tab")[k] - steps[k]) <= 1e-9);
  CHECK(max_error(r, "tab.out", exact, steps) == 0.0);
  // 'linear' extrapolation extends linear interpolation only.
  const std::string msg =
      input_error_of(ramp_into_table(R"("interpolation": "nearest", "extrapolation": "linear")"));
  CHECK(msg.find("parameter 'extrapolation'") != std::string::npos);
}

TEST_CASE("table, extrapolation error: the run ends as the input leaves the table") {
  // u = t reaches x_3 = 4 at t = 4 (still inside: the last breakpoint belongs to the
  // table) and leaves it just after: the run ends there, its rows up to it kept.
  RunResult r = run(ramp_into_table(R"("extrapolation": "error")", 0.0));
  CHECK_FALSE(r.finished);
  CHECK(r.failure.find("'tab'") != std::string::npos);
  CHECK(r.failure.find("left the table's range [0, 4]") != std::string::npos);
  CHECK(r.failure_time == doctest::Approx(4.0).epsilon(1e-9));
  CHECK(r.column("time").back() == doctest::Approx(4.0).epsilon(1e-9));
  // An input outside at the start (u(0) = -1) ends the run as it starts.
  RunResult outside = run(ramp_into_table(R"("extrapolation": "error")"));
  CHECK_FALSE(outside.finished);
  CHECK(outside.failure.find("the input -1 left the table's range") != std::string::npos);
  CHECK(outside.failure_time == 0.0);
}

TEST_CASE("table, extrapolation warn: the end values held, a warning each time the input leaves") {
  // The ramp starts below the table (a warning at t0) and leaves above it at t = 5.
  RunResult r = run(ramp_into_table(R"("extrapolation": "warn")"));
  REQUIRE(r.finished);
  size_t count = 0;
  for (const auto& w : r.warnings) count += w.find("left the table's range") != std::string::npos ? 1 : 0;
  CHECK(count == 2);
  CHECK(at_time(r, "tab.out", 5.5) == 0.0);
  CHECK(at_time(r, "tab.out", 0.5) == 1.0);
}

TEST_CASE("time_table, previous and nearest: staircases in time") {
  RunResult r = run(netlist(R"("p": {"type": "signal.time_table", "params": {"interpolation": "previous",
                                     "table": [[0, 1], [1, 3], [3, 2]]}},
                               "n": {"type": "signal.time_table", "params": {"interpolation": "nearest",
                                     "table": [[0, 1], [1, 3], [3, 2]]}},
                               "int": {"type": "signal.integrator"})",
                            R"(["p.out", "int.in"])", R"("p.out", "n.out", "int.y")",
                            R"({"method": "dopri5", "t_end": 4, "output_interval": 0.01})"));
  REQUIRE(r.finished);
  CHECK(max_error(r, "p.out", [](double t) { return t < 1 ? 1.0 : t < 3 ? 3.0 : 2.0; }, {1, 3}) == 0.0);
  CHECK(max_error(r, "n.out", [](double t) { return t < 0.5 ? 1.0 : t < 2 ? 3.0 : 2.0; }, {0.5, 2}) == 0.0);
  // The steps are time events: the integral 1 + 3 (2) + 2 is exact to rounding.
  CHECK(std::abs(r.column("int.y").back() - 9.0) <= 1e-13);
}

TEST_CASE("table_2d: bilinear interpolation reproduces a bilinear function, held or extended outside") {
  // z = 1 + 2 x + 3 y + 0.5 x y on the grid x in {0, 1, 3}, y in {-1, 2}: bilinear
  // interpolation gives it exactly inside, "linear" extrapolation outside too, "hold"
  // the values at the clamped point. Inputs x = t - 1, y = 3 - 2 t over [0, 5].
  auto f = [](double x, double y) { return 1 + 2 * x + 3 * y + 0.5 * x * y; };
  std::string rows;
  for (double x : {3.0, 0.0, 1.0})  // any order
    for (double y : {2.0, -1.0})
      rows += (rows.empty() ? "" : ", ") + ("[" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                                            std::to_string(f(x, y)) + "]");
  auto make = [&](const std::string& extrapolation) {
    return netlist(R"("x": {"type": "signal.ramp", "params": {"offset": -1}},
                      "y": {"type": "signal.ramp", "params": {"offset": 3, "slope": -2}},
                      "map": {"type": "signal.table_2d", "params": {"table": [)" + rows + R"(], "extrapolation": ")" +
                       extrapolation + R"("}})",
                   R"(["x.out", "map.in1"], ["y.out", "map.in2"])", R"("map.out")",
                   R"({"method": "dopri5", "t_end": 5, "output_interval": 0.01})");
  };
  RunResult linear = run(make("linear"));
  REQUIRE(linear.finished);
  CHECK(max_error(linear, "map.out", [&](double t) { return f(t - 1, 3 - 2 * t); }) <= 1e-12);
  RunResult hold = run(make("hold"));
  REQUIRE(hold.finished);
  CHECK(max_error(hold, "map.out", [&](double t) {
          return f(std::clamp(t - 1, 0.0, 3.0), std::clamp(3 - 2 * t, -1.0, 2.0));
        }) <= 1e-12);
  // x(0) = -1 lies outside the grid: "error" ends the run as it starts, naming the input.
  RunResult error = run(make("error"));
  CHECK_FALSE(error.finished);
  CHECK(error.failure.find("in1 (x) = -1 left the grid's range [0, 3]") != std::string::npos);
  CHECK(error.failure_time == 0.0);
  // From inside: x = t stays in [0, 3] until t = 3, y = 2 - 2 t leaves [-1, 2] at t = 1.5.
  RunResult exit = run(netlist(R"("x": {"type": "signal.ramp"},
                                  "y": {"type": "signal.ramp", "params": {"offset": 2, "slope": -2}},
                                  "map": {"type": "signal.table_2d", "params": {"table": [)" + rows +
                                   R"(], "extrapolation": "error"}})",
                               R"(["x.out", "map.in1"], ["y.out", "map.in2"])", R"("map.out")",
                               R"({"method": "dopri5", "t_end": 5, "max_step": 0.1, "output_interval": 0.01})"));
  CHECK_FALSE(exit.finished);
  CHECK(exit.failure.find("in2 (y)") != std::string::npos);
  CHECK(exit.failure_time == doctest::Approx(1.5).epsilon(1e-9));
}

TEST_CASE("table_2d: nearest grid point, its steps events on either input") {
  // Grid x in {0, 2}, y in {0, 1}, z = 10 x + y: midpoints x = 1, y = 0.5. Inputs
  // x = t (steps at t = 1), y = 1 - t/4 (steps at t = 2).
  RunResult r = run(netlist(R"("x": {"type": "signal.ramp"},
                               "y": {"type": "signal.ramp", "params": {"offset": 1, "slope": -0.25}},
                               "map": {"type": "signal.table_2d", "params": {"interpolation": "nearest",
                                       "table": [[0, 0, 0], [0, 1, 1], [2, 0, 20], [2, 1, 21]]}})",
                            R"(["x.out", "map.in1"], ["y.out", "map.in2"])", R"("map.out")",
                            R"({"method": "dopri5", "t_end": 3, "max_step": 0.1, "output_interval": 0.01})"));
  REQUIRE(r.finished);
  CHECK(max_error(r, "map.out", [](double t) { return (t < 1 ? 0.0 : 20.0) + (t < 2 ? 1.0 : 0.0); }, {1, 2}, 1e-8) == 0.0);
  const auto times = event_times(r, "map");
  REQUIRE(times.size() == 2);
  CHECK(std::abs(times[0] - 1) <= 1e-9);
  CHECK(std::abs(times[1] - 2) <= 1e-9);
}

TEST_CASE("table_2d: rows that do not cover a grid are refused by name") {
  const std::string msg = input_error_of(netlist(
      R"("map": {"type": "signal.table_2d", "params": {"table": [[0, 0, 0], [0, 1, 1], [1, 0, 1]]}})", "", R"("map.out")"));
  CHECK(msg.find("component 'map'") != std::string::npos);
  CHECK(msg.find("parameter 'table'") != std::string::npos);
  CHECK(msg.find("grid") != std::string::npos);
}
