// Sequencer: transitions on thresholds and on time in state are events located by the
// solver; outputs take each state's values; entry times and durations are recorded; a
// state whose exit condition already holds is passed through in the same instant.
#include <cmath>

#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

std::vector<EventRecord> events_of(const RunResult& r, const std::string& component) {
  std::vector<EventRecord> out;
  for (const auto& e : r.events)
    if (e.component == component) out.push_back(e);
  return out;
}

const std::string ramp = R"("u": {"type": "signal.ramp", "params": {"start_time": 0, "slope": 1, "offset": 0}})";

std::string sequencer(const std::string& params) {
  return R"("seq": {"type": "signal.sequencer", "params": )" + params + "}";
}

}  // namespace

TEST_CASE("sequencer: threshold and timer transitions at their exact times, with each state's outputs") {
  // u = t. idle -> run when u > 1 (t = 1), run -> hold when u > 2.5 (t = 2.5),
  // hold -> done after 0.75 s (t = 3.25).
  const std::string seq = sequencer(R"({"states": "idle run hold done", "inputs": "u", "outputs": "valve lamp",
      "values": {"idle": [0, 0], "run": [1, 0], "hold": [0.5, 1], "done": [0, 2]},
      "transitions": "idle -> run when u > 1; run -> hold when u > 2500 mm;\n hold -> done after 750 ms"})");
  for (const char* method : {"dopri5", "bdf"}) {
    CAPTURE(std::string(method));
    RunResult r = run(netlist(ramp + "," + seq, R"(["u.out", "seq.u"])",
                              R"("seq.valve", "seq.lamp", "seq.state", "seq.time_in_state", "seq.entered_hold",
                                 "seq.duration_run", "seq.duration_hold", "seq.entered_done")",
                              std::string(R"({"method": ")") + method +
                                  R"(", "t_end": 4, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01})"));
    REQUIRE(r.finished);
    const auto events = events_of(r, "seq");
    REQUIRE(events.size() == 3);
    // The input is a function of time: CVODE and dopri5's bracket locate the crossings
    // to ~1e-10 s (event_tolerance 1e-10 for dopri5; CVODE's root tolerance ~100 ulp).
    const double expected[] = {1.0, 2.5, 3.25};
    for (int k = 0; k < 3; ++k) CHECK(events[k].time == doctest::Approx(expected[k]).epsilon(1e-9));
    CHECK(events[0].description == "idle -> run (when u > 1)");
    CHECK(events[2].description == "hold -> done (after 750 ms)");
    // Outputs: each state's values, switching at the events.
    auto valve = [](double t) { return t < 1 ? 0.0 : t < 2.5 ? 1.0 : t < 3.25 ? 0.5 : 0.0; };
    auto lamp = [](double t) { return t < 2.5 ? 0.0 : t < 3.25 ? 1.0 : 2.0; };
    CHECK(max_error(r, "seq.valve", valve, {1.0, 2.5, 3.25}, 1e-8) == 0.0);
    CHECK(max_error(r, "seq.lamp", lamp, {1.0, 2.5, 3.25}, 1e-8) == 0.0);
    // Timing records: the state index, entry times and the length of completed visits.
    CHECK(r.column("seq.state").back() == 3.0);
    CHECK(r.column("seq.entered_hold").back() == doctest::Approx(2.5).epsilon(1e-9));
    CHECK(r.column("seq.duration_run").back() == doctest::Approx(1.5).epsilon(1e-8));
    CHECK(r.column("seq.duration_hold").back() == doctest::Approx(0.75).epsilon(1e-8));
    CHECK(r.column("seq.time_in_state").back() == doctest::Approx(4 - 3.25).epsilon(1e-8));
    CHECK(r.column("seq.entered_done").front() == -1.0);  // never entered yet at the start
  }
}

TEST_CASE("sequencer: falling thresholds, and a state passed through when its exit condition already holds") {
  // u = sin(π t). a -> b when u < −0.5 (t = 7/6); on entering b, "b -> c when u < 0" and
  // "b -> d when u < 0.2" both hold already: b is left in the same instant, and the first
  // listed wins (c). c -> a when u > 0.5 (t = 13/6).
  const std::string sine = R"("u": {"type": "signal.sine", "params": {"frequency": 0.5}})";
  const std::string seq = sequencer(R"({"states": "a b c d", "inputs": "u", "outputs": "y",
      "values": {"a": [0], "b": [1], "c": [2], "d": [3]},
      "transitions": "a -> b when u < -0.5; b -> c when u < 0; b -> d when u < 0.2; c -> a when u > 0.5"})");
  RunResult r = run(netlist(
      sine + "," + seq, R"(["u.out", "seq.u"])", R"("seq.y", "seq.duration_b", "seq.state")",
      R"({"method": "bdf", "t_end": 2.5, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01, "max_step": 0.1})"));
  REQUIRE(r.finished);
  const auto events = events_of(r, "seq");
  REQUIRE(events.size() == 3);
  CHECK(events[0].description.find("a -> b") == 0);
  CHECK(events[1].description.find("b -> c") == 0);
  CHECK(events[2].description.find("c -> a") == 0);
  CHECK(events[0].time == doctest::Approx(7.0 / 6).epsilon(1e-9));
  CHECK(events[1].time == events[0].time);  // the same instant
  CHECK(events[2].time == doctest::Approx(13.0 / 6).epsilon(1e-9));
  CHECK(r.column("seq.duration_b").back() == 0.0);
  CHECK(r.column("seq.y").back() == 0.0);
}

TEST_CASE("sequencer: at the start the initial state is passed through when a condition already holds") {
  // u(0) = 0: "start -> ready when u > -1" holds at t0, so the run begins in ready.
  const std::string seq = sequencer(R"({"states": "start ready", "inputs": "u", "outputs": "y",
      "values": {"start": [5], "ready": [7]}, "transitions": "start -> ready when u > -1"})");
  RunResult r = run(netlist(ramp + "," + seq, R"(["u.out", "seq.u"])", R"("seq.y", "seq.state", "seq.entered_ready")"));
  REQUIRE(r.finished);
  CHECK(r.column("seq.y").front() == 7.0);
  CHECK(r.column("seq.state").front() == 1.0);
  CHECK(r.column("seq.entered_ready").front() == 0.0);
}

TEST_CASE("sequencer: malformed definitions are refused with the parameter named") {
  auto error = [](const std::string& params) {
    return input_error_of(netlist(ramp + "," + sequencer(params), R"(["u.out", "seq.u"])", R"("seq.state")"));
  };
  const std::string base = R"("states": "a b", "inputs": "u", "outputs": "y", "values": {"a": [0], "b": [1]})";
  CHECK(error("{" + base + R"(, "transitions": "a -> c when u > 1"})").find("'c' is not one of the states") !=
        std::string::npos);
  CHECK(error("{" + base + R"(, "transitions": "a -> b when v > 1"})").find("'v' is not one of the inputs") !=
        std::string::npos);
  CHECK(error("{" + base + R"(, "transitions": "a -> a after 1 s"})").find("another state") != std::string::npos);
  CHECK(error("{" + base + R"(, "transitions": "a -> b when u >= 1"})").find("'>' or '<'") != std::string::npos);
  CHECK(error("{" + base + R"(, "transitions": "a -> b after -1 s"})").find("positive") != std::string::npos);
  CHECK(error("{" + base + R"(, "transitions": "a -> b after 2 m"})").find("transitions") != std::string::npos);
  CHECK(error("{" + base + R"(, "transitions": "a b when u > 1"})").find("expected 'from -> to") != std::string::npos);
  CHECK(error("{" + base + R"(, "transitions": "a -> b sometimes"})").find("after the target state") !=
        std::string::npos);
  CHECK(error(R"({"states": "a b", "inputs": "u", "outputs": "y", "values": {"a": [0]}})").find("'b' has no values") !=
        std::string::npos);
  CHECK(error(R"({"states": "a b", "inputs": "u", "outputs": "y", "values": {"a": [0], "b": [1, 2]}})")
            .find("2 values for 1") != std::string::npos);
  CHECK(error(R"({"states": "a a", "inputs": "u"})").find("listed twice") != std::string::npos);
  CHECK(error(R"({"states": "a b", "inputs": "u", "outputs": "state"})").find("clashes") != std::string::npos);
  CHECK(error(R"({"states": "a b", "inputs": "u", "outputs": "y u", "values": {"a": [0, 0], "b": [1, 1]}})")
            .find("used twice") != std::string::npos);
  // Every message names the component and the parameter.
  CHECK(error("{" + base + R"(, "transitions": "a -> c when u > 1"})").find("parameter 'transitions'") !=
        std::string::npos);
}
