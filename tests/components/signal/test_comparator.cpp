// Comparator with hysteresis: switches are events located by the solver.
#include <cmath>
#include <numbers>

#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const double pi = std::numbers::pi;

}  // namespace

TEST_CASE("comparator on a sine: switch times are the sine's threshold crossings") {
  // u = sin(pi t) (0.5 Hz); upper = 0.5, lower = -0.5. u(0) = 0 lies between the
  // thresholds and initially_high is false: low. u rises through 0.5 at t = 1/6 + 2k and
  // falls through -0.5 at t = 7/6 + 2k. Dips that stay above lower (none here) would not
  // switch. The integral of the output checks that the solver saw the switches:
  // y(4) = -1 (1/6) + 2 (1) - 1 (1) + 2 (1) - 1 (5/6) = 2.
  const std::string components =
      R"("s": {"type": "signal.sine", "params": {"frequency": 0.5}},
         "cmp": {"type": "signal.comparator", "params": {"lower": -0.5, "upper": 0.5, "high_value": 2, "low_value": -1}},
         "int": {"type": "signal.integrator"})";
  const std::vector<double> expected = {1.0 / 6, 7.0 / 6, 13.0 / 6, 19.0 / 6};
  auto level = [](double t) {
    double phase = std::fmod(t, 2.0);
    return (phase > 1.0 / 6 && phase < 7.0 / 6) ? 2.0 : -1.0;
  };
  // The input is a function of time only, so the located time is off by the event
  // bracket only: event_tolerance = 1e-10 s for dopri5; CVODE locates roots to about
  // 100 ulp of t, and its interpolated input adds nothing here. Bound 1e-9 s for both.
  // max_step: the solvers look for a zero crossing as a sign change between the ends of
  // a step, and with a piecewise-constant integrand nothing else limits the step (dopri5
  // crosses the 4 s in 6 steps and sees none of the switches). u stays above upper, or
  // below lower, for 2/3 s at a time: steps of at most 0.1 s cannot step over that.
  for (const char* method : {"dopri5", "bdf"}) {
    INFO("method: " << std::string(method));
    RunResult r = run(netlist(components, R"(["s.out", "cmp.in"], ["cmp.out", "int.in"])",
                              R"("s.out", "cmp.out", "cmp.high", "int.y")",
                              std::string(R"({"method": ")") + method +
                                  R"(", "t_end": 4, "max_step": 0.1, "rtol": 1e-9, "atol": 1e-12, "output_interval": 0.01})"));
    REQUIRE(r.finished);
    const auto times = event_times(r, "cmp");
    REQUIRE(times.size() == expected.size());
    for (size_t k = 0; k < times.size(); ++k) {
      MESSAGE(std::string(method) << " switch " << k << " at " << times[k] << ", error " << times[k] - expected[k]);
      CHECK(std::abs(times[k] - expected[k]) <= 1e-9);
    }
    CHECK(r.events[0].description.find("rose above upper = 0.5") != std::string::npos);
    CHECK(r.events[1].description.find("fell below lower = -0.5") != std::string::npos);
    CHECK(max_error(r, "cmp.out", level, expected) == 0.0);
    CHECK(max_error(r, "cmp.high", [&](double t) { return level(t) > 0 ? 1.0 : 0.0; }, expected) == 0.0);
    // Piecewise-constant input between located events: integrated exactly, up to the
    // event placement (1e-9 s times a jump of 3, four times) and rounding.
    CHECK(std::abs(r.column("int.y").back() - 2.0) <= 2e-8);
  }
}

TEST_CASE("comparator in a loop: relay control of a first-order plant") {
  // Heater on (1) while the plant output y is below 0.4, off (0) once it exceeds 0.6:
  // the comparator reads -y with upper = -0.4, lower = -0.6. Plant T y' = u - y, T = 1,
  // y(0) = 0, so the comparator starts high (-y = 0 >= upper).
  //   heating from y0 to 0.6: y = 1 - (1 - y0) e^-t, lasting ln((1 - y0)/0.4);
  //   cooling from 0.6 to 0.4: y = 0.6 e^-t, lasting ln(1.5);
  //   heating from 0.4 to 0.6 lasts ln(0.6/0.4) = ln(1.5) too.
  // Switch k (from 0) at ln(2.5) + k ln(1.5).
  const std::string n = netlist(
      R"("cmp": {"type": "signal.comparator", "params": {"lower": -0.6, "upper": -0.4, "high_value": 1, "low_value": 0}},
         "plant": {"type": "signal.first_order_lag", "params": {"K": 1, "T": 1}},
         "neg": {"type": "signal.gain", "params": {"k": -1}})",
      R"(["cmp.out", "plant.in"], ["plant.out", "neg.in"], ["neg.out", "cmp.in"])", R"("plant.y", "cmp.out")",
      R"({"method": "dopri5", "t_end": 6, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01})");
  CHECK(load(n).model.schedule().loop_count() == 0);  // the comparator's output reads no input
  RunResult r = run(n);
  REQUIRE(r.finished);
  const auto times = event_times(r, "cmp");
  REQUIRE(times.size() == 13);  // ln 2.5 + 12 ln 1.5 = 5.78 < 6 < ln 2.5 + 13 ln 1.5
  // The crossing is found on the integrated y, so the switch time carries y's error
  // divided by |y'| at the threshold (>= 0.4): with rtol = 1e-10, y is good to ~1e-10
  // and errors do not grow (the plant is contracting): bound 1e-8 s.
  double worst = 0.0;
  for (size_t k = 0; k < times.size(); ++k) worst = std::max(worst, std::abs(times[k] - (std::log(2.5) + k * std::log(1.5))));
  MESSAGE("relay switch times, max error " << worst);
  CHECK(worst <= 1e-8);
  // Hysteresis: after the first switch (y reaching 0.6), y stays within [0.4, 0.6] (to the event bracket).
  const auto time = r.column("time");
  const auto y = r.column("plant.y");
  for (size_t k = 0; k < time.size(); ++k)
    if (time[k] > times[0]) CHECK((y[k] >= 0.4 - 1e-8 && y[k] <= 0.6 + 1e-8));
}

TEST_CASE("comparator: initial state from the input at t0") {
  auto initial_out = [](double u0, bool initially_high) {
    RunResult r = run(netlist(R"("c": {"type": "signal.constant", "params": {"value": )" + std::to_string(u0) + R"(}},
                                 "cmp": {"type": "signal.comparator", "params": {"lower": 0, "upper": 1, "initially_high": )" +
                                  std::string(initially_high ? "true" : "false") + R"(}},
                                 "int": {"type": "signal.integrator"})",
                              R"(["c.out", "cmp.in"], ["cmp.out", "int.in"])", R"("cmp.out")"));
    REQUIRE(r.finished);
    CHECK(r.events.empty());
    return r.column("cmp.out").front();
  };
  CHECK(initial_out(1.5, false) == 1.0);   // above upper: high
  CHECK(initial_out(1.0, false) == 1.0);   // at upper: high
  CHECK(initial_out(-0.5, true) == 0.0);   // below lower: low
  CHECK(initial_out(0.5, false) == 0.0);   // between: as initially_high says
  CHECK(initial_out(0.5, true) == 1.0);
}

TEST_CASE("comparator: initialized from a step that has already happened at t0") {
  // The step's output at t0 = 0 is `after` = 2 (step_time = 0), above upper: high.
  RunResult r = run(netlist(R"("st": {"type": "signal.step", "params": {"step_time": 0, "before": 0, "after": 2}},
                               "cmp": {"type": "signal.comparator", "params": {"lower": 0, "upper": 1}},
                               "int": {"type": "signal.integrator"})",
                            R"(["st.out", "cmp.in"], ["cmp.out", "int.in"])", R"("cmp.out", "int.y")"));
  REQUIRE(r.finished);
  for (double v : r.column("cmp.out")) CHECK(v == 1.0);
  CHECK(r.column("int.y").back() == doctest::Approx(2.0));
}

// ---- Events that cause events, and initialization order.

// A zero crossing pushed across zero *by* another component's event (the step jumps the
// comparator's input from 0 to 2, across upper = 0.5, at t = 0.5) is handled at the
// same instant: Model::handle_zero_crossings iterates until no function changes sign.
TEST_CASE("comparator switches when its input jumps across a threshold at another event") {
  for (const char* method : {"dopri5", "bdf"}) {
    INFO("method: " << std::string(method));
    RunResult r = run(netlist(R"("st": {"type": "signal.step", "params": {"step_time": 0.5, "before": 0, "after": 2}},
                                 "cmp": {"type": "signal.comparator", "params": {"lower": -0.5, "upper": 0.5}},
                                 "int": {"type": "signal.integrator"})",
                              R"(["st.out", "cmp.in"], ["cmp.out", "int.in"])", R"("cmp.out", "int.y")",
                              std::string(R"({"method": ")") + method +
                                  R"(", "t_end": 1, "max_step": 0.1, "rtol": 1e-9, "atol": 1e-12, "output_interval": 0.25})"));
    REQUIRE(r.finished);
    CHECK(event_times(r, "cmp").size() == 1);
    CHECK(r.column("cmp.out").back() == 1.0);
    CHECK(r.column("int.y").back() == doctest::Approx(0.5));
  }
}

// Model::initialize repeats the initialize() hooks until the discrete states settle, so a
// comparator sees its driver's initialized output: from t_start = 1 the step (step_time
// 0.5) has already happened and the comparator starts high.
TEST_CASE("comparator initial state sees its driver's initialized output") {
  RunResult r = run(netlist(R"("st": {"type": "signal.step", "params": {"step_time": 0.5, "before": 0, "after": 2}},
                               "cmp": {"type": "signal.comparator", "params": {"lower": 0, "upper": 1}},
                               "int": {"type": "signal.integrator"})",
                            R"(["st.out", "cmp.in"], ["cmp.out", "int.in"])", R"("cmp.out")",
                            R"({"method": "dopri5", "t_start": 1, "t_end": 2, "output_interval": 0.5})"));
  REQUIRE(r.finished);
  CHECK(r.column("cmp.out").front() == 1.0);
}

TEST_CASE("comparator refuses lower >= upper") {
  for (const char* params : {R"({"lower": 1, "upper": 1})", R"({"lower": 1, "upper": 0})"}) {
    const std::string msg = input_error_of(
        netlist(std::string(R"("cmp": {"type": "signal.comparator", "params": )") + params + "}", "", R"("cmp.out")"));
    CHECK(msg.find("component 'cmp'") != std::string::npos);
    CHECK(msg.find("parameter 'lower'") != std::string::npos);
    CHECK(msg.find("less than upper") != std::string::npos);
  }
}
