// Static signal operations: gain, sum, product, saturation, table. They are algebraic,
// so fed by sources (functions of time) their outputs must equal the closed forms to
// rounding; 1e-12 leaves room for a few operations on values of order 1-10.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {
const double pi = std::numbers::pi;
}

TEST_CASE("gain and sum with signs") {
  RunResult r = run(netlist(
      R"("s": {"type": "signal.sine", "params": {"frequency": 1}},
         "rp": {"type": "signal.ramp"},
         "c": {"type": "signal.constant", "params": {"value": 4}},
         "g": {"type": "signal.gain", "params": {"k": -3}},
         "sum": {"type": "signal.sum", "params": {"signs": "+-+"}})",
      R"(["s.out", "g.in"], ["g.out", "sum.in1"], ["rp.out", "sum.in2"], ["c.out", "sum.in3"])",
      R"("g.out", "sum.out")"));
  REQUIRE(r.finished);
  CHECK(max_error(r, "g.out", [](double t) { return -3.0 * std::sin(2 * pi * t); }) <= 1e-12);
  CHECK(max_error(r, "sum.out", [](double t) { return -3.0 * std::sin(2 * pi * t) - t + 4.0; }) <= 1e-12);
}

TEST_CASE("sum refuses signs other than + and -") {
  const std::string msg =
      input_error_of(netlist(R"("sum": {"type": "signal.sum", "params": {"signs": "+*"}})", "", R"("sum.out")"));
  CHECK(msg.find("component 'sum'") != std::string::npos);
  CHECK(msg.find("parameter 'signs'") != std::string::npos);
}

TEST_CASE("product multiplies and divides, one operation per input") {
  // y = u1 * u2 / u3 with u1 = sin(2 pi t), u2 = 1 + t, u3 = 2 + cos(2 pi t) (never 0).
  RunResult r = run(netlist(
      R"("s": {"type": "signal.sine"},
         "rp": {"type": "signal.ramp", "params": {"offset": 1}},
         "den": {"type": "signal.sine", "params": {"phase": "90 deg", "offset": 2}},
         "p": {"type": "signal.product", "params": {"operations": "**/"}},
         "inv": {"type": "signal.product", "params": {"operations": "/"}})",
      R"(["s.out", "p.in1"], ["rp.out", "p.in2"], ["den.out", "p.in3"], ["den.out", "inv.in1"])",
      R"("p.out", "inv.out")"));
  REQUIRE(r.finished);
  CHECK(max_error(r, "p.out", [](double t) { return std::sin(2 * pi * t) * (1 + t) / (2 + std::cos(2 * pi * t)); }) <=
        1e-12);
  CHECK(max_error(r, "inv.out", [](double t) { return 1.0 / (2 + std::cos(2 * pi * t)); }) <= 1e-12);
  CHECK(at_time(r, "p.out", 0.25) == doctest::Approx(1.25 / 2.0));
}

TEST_CASE("product: a division by zero ends the run naming the component and input") {
  RunResult r = run(netlist(R"("one": {"type": "signal.constant", "params": {"value": 1}},
                               "rp": {"type": "signal.ramp", "params": {"start_time": 0, "offset": -1}},
                               "p": {"type": "signal.product", "params": {"operations": "*/"}},
                               "int": {"type": "signal.integrator"})",
                            R"(["one.out", "p.in1"], ["rp.out", "p.in2"], ["p.out", "int.in"])", R"("p.out")",
                            R"({"method": "rk4", "t_end": 2, "step": 0.25, "output_interval": 0.25})"));
  // rk4 with h = 0.25 evaluates t = 1 exactly (the end of its 4th step), where rp = 0.
  CHECK_FALSE(r.finished);
  CHECK(r.failure.find("'p'") != std::string::npos);
  CHECK(r.failure.find("division by zero") != std::string::npos);
  CHECK(r.failure.find("in2") != std::string::npos);
  CHECK(r.failure_time == doctest::Approx(1.0));
}

TEST_CASE("product refuses operations other than * and /") {
  for (const char* ops : {R"("")", R"("*+")"}) {
    const std::string msg = input_error_of(
        netlist(std::string(R"("p": {"type": "signal.product", "params": {"operations": )") + ops + "}}", "",
                R"("p.out")"));
    CHECK(msg.find("component 'p'") != std::string::npos);
    CHECK(msg.find("parameter 'operations'") != std::string::npos);
  }
}

TEST_CASE("saturation clamps to [lower, upper]") {
  RunResult r = run(netlist(R"("s": {"type": "signal.sine", "params": {"amplitude": 2}},
                               "sat": {"type": "signal.saturation", "params": {"lower": -1, "upper": 0.5}})",
                            R"(["s.out", "sat.in"])", R"("s.out", "sat.out")"));
  REQUIRE(r.finished);
  CHECK(max_error(r, "sat.out", [](double t) { return std::clamp(2 * std::sin(2 * pi * t), -1.0, 0.5); }) <= 1e-12);
  const auto out = r.column("sat.out");
  CHECK(*std::max_element(out.begin(), out.end()) == 0.5);
  CHECK(*std::min_element(out.begin(), out.end()) == -1.0);
  CHECK(at_time(r, "sat.out", 0.03) == doctest::Approx(2 * std::sin(0.06 * pi)));  // inside the limits
}

TEST_CASE("saturation refuses lower >= upper") {
  for (const char* params : {R"({"lower": 1, "upper": 1})", R"({"lower": 2, "upper": -2})"}) {
    const std::string msg = input_error_of(
        netlist(std::string(R"("sat": {"type": "signal.saturation", "params": )") + params + "}", "", R"("sat.out")"));
    CHECK(msg.find("component 'sat'") != std::string::npos);
    CHECK(msg.find("parameter 'lower'") != std::string::npos);
    CHECK(msg.find("less than upper") != std::string::npos);
  }
}

TEST_CASE("table: y(u) interpolated, held or extended outside the table") {
  // u = ramp from -1 at t = 0 with slope 3: covers x from -1 to 5, beyond both ends of
  // the table's x in [0, 4].
  auto make = [](const std::string& extrapolation) {
    return netlist(R"("u": {"type": "signal.ramp", "params": {"slope": 3, "offset": -1}},
                     "tab": {"type": "signal.table", "params": {"table": [[0, 1], [1, 3], [4, 0]], "extrapolation": ")" +
                       extrapolation + R"("}})",
                   R"(["u.out", "tab.in"])", R"("u.out", "tab.out")");
  };
  auto inside = [](double x) { return x <= 1 ? 1.0 + 2.0 * x : 3.0 - (x - 1.0); };
  SUBCASE("hold") {
    RunResult r = run(make("hold"));
    REQUIRE(r.finished);
    CHECK(max_error(r, "tab.out", [&](double t) {
            double x = -1.0 + 3.0 * t;
            return x < 0 ? 1.0 : x > 4 ? 0.0 : inside(x);
          }) <= 1e-12);
    CHECK(at_time(r, "tab.out", 0.5) == doctest::Approx(2.0));  // x = 0.5, inside
    CHECK(at_time(r, "tab.out", 2.0) == doctest::Approx(0.0));  // x = 5, held
  }
  SUBCASE("linear") {
    RunResult r = run(make("linear"));
    REQUIRE(r.finished);
    CHECK(max_error(r, "tab.out", [&](double t) {
            double x = -1.0 + 3.0 * t;
            return x < 0 ? 1.0 + 2.0 * x : inside(x);
          }) <= 1e-12);
    CHECK(at_time(r, "tab.out", 0.0) == doctest::Approx(-1.0));  // x = -1, first segment extended
    CHECK(at_time(r, "tab.out", 2.0) == doctest::Approx(-1.0));  // x = 5, last segment extended
  }
}

TEST_CASE("table: its output feeds through from its input, so a loop through it is algebraic") {
  // In a loop table -> gain -> table.in the table is a direct feedthrough: the scheduler
  // must see an algebraic loop (1 = table, gain).
  Netlist n = load(netlist(R"("tab": {"type": "signal.table", "params": {"table": [[0, 0], [1, 0.5]], "extrapolation": "linear"}},
                              "g": {"type": "signal.gain", "params": {"k": 1}})",
                           R"(["tab.out", "g.in"], ["g.out", "tab.in"])", R"("tab.out")"));
  CHECK(n.model.schedule().loop_count() == 1);
}

TEST_CASE("table: x must be strictly increasing") {
  const std::string msg = input_error_of(
      netlist(R"("tab": {"type": "signal.table", "params": {"table": [[0, 1], [2, 3], [1, 0]]}})", "", R"("tab.out")"));
  CHECK(msg.find("component 'tab'") != std::string::npos);
  CHECK(msg.find("parameter 'table'") != std::string::npos);
  CHECK(msg.find("strictly increasing") != std::string::npos);
  CHECK(msg.find("row 2 has x = 1 after x = 2") != std::string::npos);
  const std::string wrong_width = input_error_of(
      netlist(R"("tab": {"type": "signal.table", "params": {"table": [[0, 1, 2], [1, 3, 4]]}})", "", R"("tab.out")"));
  CHECK(wrong_width.find("parameter 'table'") != std::string::npos);
  const std::string missing =
      input_error_of(netlist(R"("tab": {"type": "signal.table"})", "", R"("tab.out")"));
  CHECK(missing.find("parameter 'table'") != std::string::npos);
}
