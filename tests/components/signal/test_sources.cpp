// Signal sources: constant, step (an event), ramp, sine, time table.
// Sources depend on time only, so their recorded outputs must match the closed forms
// to rounding (1e-12); integrals of them carry the solver's error and are checked
// against tolerances explained where they appear.
#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

TEST_CASE("constant and step: values, and the step is an event located at step_time") {
  // The integral of the step is piecewise linear, y = t before 0.5 and 0.5 + 3 (t - 0.5)
  // after. Every Runge-Kutta method integrates a piecewise-constant input exactly between
  // events, so what is left is where the event was placed (event_tolerance = 1e-10 s
  // times the jump of 2 in the slope) and rounding: 1e-9 covers it.
  const std::string n = netlist(
      R"("c": {"type": "signal.constant", "params": {"value": -2.5}},
         "st": {"type": "signal.step", "params": {"step_time": "500 ms", "before": 1, "after": 3}},
         "int": {"type": "signal.integrator"})",
      R"(["st.out", "int.in"])", R"("c.out", "st.out", "st.stepped", "int.y")",
      R"({"method": "dopri5", "t_end": 1, "rtol": 1e-8, "atol": 1e-10, "output_interval": 0.1})");
  RunResult r = run(n);
  REQUIRE(r.finished);
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].component == "st");
  CHECK(r.events[0].description == "step to 3");
  CHECK(std::abs(r.events[0].time - 0.5) <= 2e-10);
  for (double c : r.column("c.out")) CHECK(c == -2.5);
  auto step = [](double t) { return t < 0.5 ? 1.0 : 3.0; };
  CHECK(max_error(r, "st.out", step, {0.5}) == 0.0);
  CHECK(max_error(r, "int.y", [](double t) { return t < 0.5 ? t : 0.5 + 3.0 * (t - 0.5); }) <= 1e-9);
  // The recorder keeps a row just before the event (still 1) and one just after (3).
  const auto time = r.column("time");
  const auto out = r.column("st.out");
  std::vector<double> at_event;
  for (size_t k = 0; k < time.size(); ++k)
    if (std::abs(time[k] - 0.5) <= 1e-9) at_event.push_back(out[k]);
  REQUIRE(at_event.size() >= 2);
  CHECK(at_event.front() == 1.0);
  CHECK(at_event.back() == 3.0);
  CHECK(r.column("st.stepped").back() == 1.0);
}

TEST_CASE("a step whose time is before the start is already stepped at t0") {
  RunResult r = run(netlist(R"("st": {"type": "signal.step", "params": {"step_time": -1, "before": 1, "after": 3}},
                               "int": {"type": "signal.integrator"})",
                            R"(["st.out", "int.in"])", R"("st.out")"));
  REQUIRE(r.finished);
  CHECK(r.events.empty());
  for (double v : r.column("st.out")) CHECK(v == 3.0);
}

TEST_CASE("ramp: offset before start_time, offset + slope (t - start_time) after; the start is an event") {
  RunResult r = run(netlist(R"("rp": {"type": "signal.ramp", "params": {"start_time": 0.75, "slope": "2 1/s", "offset": -1}},
                               "int": {"type": "signal.integrator"})",
                            R"(["rp.out", "int.in"])", R"("rp.out", "rp.started", "int.y")"));
  REQUIRE(r.finished);
  auto ramp = [](double t) { return t < 0.75 ? -1.0 : -1.0 + 2.0 * (t - 0.75); };
  // Except at the event, where the row just before it is recorded at the located time,
  // up to event_tolerance past 0.75, still on the formula before the start.
  CHECK(max_error(r, "rp.out", ramp, {0.75}) <= 1e-12);
  CHECK(at_time(r, "rp.out", 2.0) == doctest::Approx(1.5));
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].component == "rp");
  CHECK(std::abs(r.events[0].time - 0.75) <= 2e-10);
  // Integral: -t, then + (t - 0.75)^2. Because the solver restarts on the kink, every
  // step integrates a polynomial of degree <= 1, which dopri5 does exactly: only
  // rounding is left (measured ~1e-15), so 1e-12.
  auto integral = [](double t) { return -t + (t < 0.75 ? 0.0 : (t - 0.75) * (t - 0.75)); };
  const double err = max_error(r, "int.y", integral);
  MESSAGE("integral of the ramp, max error " << err);
  CHECK(err <= 1e-12);
}

TEST_CASE("sine: offset + amplitude sin(2 pi f t + phase), f in Hz, phase with a unit") {
  RunResult r = run(netlist(
      R"("s": {"type": "signal.sine", "params": {"amplitude": 2, "frequency": "0.5 Hz", "phase": "90 deg", "offset": 1}},
         "int": {"type": "signal.integrator"})",
      R"(["s.out", "int.in"])", R"("s.out", "int.y")",
      R"({"method": "dopri5", "t_end": 4, "rtol": 1e-9, "atol": 1e-12, "output_interval": 0.01})"));
  REQUIRE(r.finished);
  const double pi = std::numbers::pi;
  CHECK(max_error(r, "s.out", [&](double t) { return 1.0 + 2.0 * std::cos(pi * t); }) <= 1e-12);
  CHECK(at_time(r, "s.out", 1.0) == doctest::Approx(-1.0));
  // Integral: t + (2/pi) sin(pi t). A pure quadrature does not damp errors: the global
  // error is at most the sum of the local ones, each kept below atol + rtol |y| <=
  // 1e-12 + 1e-9 * 5 by dopri5's error control.
  const double err = max_error(r, "int.y", [&](double t) { return t + 2.0 / pi * std::sin(pi * t); });
  const double bound = static_cast<double>(r.stats.steps) * (1e-12 + 1e-9 * 5.0);
  MESSAGE("integral of the sine, max error " << err << " (bound " << bound << " for " << r.stats.steps << " steps)");
  CHECK(err <= bound);
}

namespace {

// Exact integral from t0 to t of a piecewise-linear f with the given breakpoints: the
// trapezoidal rule is exact on each linear piece.
double integral_of_piecewise_linear(const std::function<double(double)>& f, std::vector<double> breaks, double t0,
                                    double t) {
  std::vector<double> nodes{t0};
  for (double b : breaks)
    if (b > t0 && b < t) nodes.push_back(b);
  nodes.push_back(t);
  double sum = 0.0;
  for (size_t k = 1; k < nodes.size(); ++k) sum += 0.5 * (f(nodes[k - 1]) + f(nodes[k])) * (nodes[k] - nodes[k - 1]);
  return sum;
}

}  // namespace

TEST_CASE("time_table: y(t) interpolated, held or extended outside the table; breakpoints are events") {
  // t from -1 to 5 s over rows at 0, 1 and 3 s: both ends are extrapolated.
  const std::string solver =
      R"({"method": "dopri5", "t_start": -1, "t_end": 5, "rtol": 1e-8, "atol": 1e-10, "output_interval": 0.05})";
  auto make = [&](const std::string& extrapolation) {
    return netlist(R"("tt": {"type": "signal.time_table", "params": {"table": [[0, 0], ["1000 ms", 2], [3, -2]],
                                                                    "extrapolation": ")" +
                       extrapolation + R"("}},
                     "int": {"type": "signal.integrator"})",
                   R"(["tt.out", "int.in"])", R"("tt.out", "tt.segment", "int.y")", solver);
  };
  auto inside = [](double t) { return t <= 1.0 ? 2.0 * t : 2.0 - 2.0 * (t - 1.0); };
  std::function<double(double)> exact;
  RunResult r;
  SUBCASE("hold") {
    exact = [&](double t) { return t < 0 ? 0.0 : t > 3 ? -2.0 : inside(t); };
    r = run(make("hold"));
    CHECK(at_time(r, "tt.out", 0.5) == doctest::Approx(1.0));
    CHECK(at_time(r, "tt.out", 2.0) == doctest::Approx(0.0));
  }
  SUBCASE("linear") {
    exact = [&](double t) { return t > 3 ? -2.0 - 2.0 * (t - 3.0) : inside(t); };
    r = run(make("linear"));
    CHECK(at_time(r, "tt.out", -1.0) == doctest::Approx(-2.0));
    CHECK(at_time(r, "tt.out", 5.0) == doctest::Approx(-6.0));
  }
  REQUIRE(r.finished);
  // Rows at the breakpoints (recorded just before and after each event, the first one up
  // to event_tolerance past the breakpoint on the previous segment) are left out.
  CHECK(max_error(r, "tt.out", exact, {0, 1, 3}) <= 1e-12);
  // The solver stopped at the three breakpoints (events that change no value, so the
  // event log stays empty) ...
  CHECK(r.stats.events == 3);
  CHECK(r.events.empty());
  CHECK(r.column("tt.segment").back() == 3.0);
  // ... so each step integrates a straight line, exactly: rounding only (measured ~1e-15).
  const double err =
      max_error(r, "int.y", [&](double t) { return integral_of_piecewise_linear(exact, {0, 1, 3}, -1.0, t); });
  MESSAGE("integral of the time table, max error " << err);
  CHECK(err <= 1e-12);
}

TEST_CASE("time_table: rows that do not increase in time are refused by name") {
  const std::string msg = input_error_of(netlist(
      R"("tt": {"type": "signal.time_table", "params": {"table": [[0, 0], [1, 2], [1, 3]]}})", "", R"("tt.out")"));
  CHECK(msg.find("component 'tt'") != std::string::npos);
  CHECK(msg.find("parameter 'table'") != std::string::npos);
  CHECK(msg.find("strictly increasing") != std::string::npos);
  CHECK(msg.find("/components/tt/params") != std::string::npos);
  const std::string one_row =
      input_error_of(netlist(R"("tt": {"type": "signal.time_table", "params": {"table": [[0, 0]]}})", "", R"("tt.out")"));
  CHECK(one_row.find("at least two rows") != std::string::npos);
  const std::string bad_choice = input_error_of(netlist(
      R"("tt": {"type": "signal.time_table", "params": {"table": [[0, 0], [1, 1]], "extrapolation": "cubic"}})", "",
      R"("tt.out")"));
  CHECK(bad_choice.find("parameter 'extrapolation'") != std::string::npos);
}

TEST_CASE("sine frequency may not be negative") {
  const std::string msg =
      input_error_of(netlist(R"("s": {"type": "signal.sine", "params": {"frequency": -1}})", "", R"("s.out")"));
  CHECK(msg.find("component 's'") != std::string::npos);
  CHECK(msg.find("parameter 'frequency'") != std::string::npos);
}
