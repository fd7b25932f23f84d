// Relational operators, logic gates and the switch: outputs that jump, each jump an event
// at the instant its condition changes.
#include <cmath>
#include <numbers>

#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const double pi = std::numbers::pi;

// A staircase in time: y = values[i] from times[i] on (signal.time_table, "previous").
std::string staircase(const std::string& name, const std::vector<std::pair<double, double>>& rows) {
  std::string table;
  for (const auto& [t, v] : rows) table += (table.empty() ? "" : ", ") + ("[" + std::to_string(t) + ", " + std::to_string(v) + "]");
  return "\"" + name + R"(": {"type": "signal.time_table", "params": {"interpolation": "previous", "table": [)" + table + "]}}";
}

const std::string events_solver =
    R"({"method": "dopri5", "t_end": 4, "max_step": 0.05, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01})";

}  // namespace

TEST_CASE("relational on a sine: the output jumps at the crossings, located as events") {
  // sin(pi t) > 0.5 on (1/6, 5/6) + 2k: rises at 1/6 + 2k, falls at 5/6 + 2k. ">=" gives
  // the same instants (the sine does not dwell on 0.5), "<" the complement.
  const std::vector<double> expected = {1.0 / 6, 5.0 / 6, 13.0 / 6, 17.0 / 6};
  auto above = [](double t) {
    const double phase = std::fmod(t, 2.0);
    return phase > 1.0 / 6 && phase < 5.0 / 6 ? 1.0 : 0.0;
  };
  for (const char* method : {"dopri5", "bdf"}) {
    INFO("method: " << std::string(method));
    RunResult r = run(netlist(R"("s": {"type": "signal.sine", "params": {"frequency": 0.5}},
                                 "half": {"type": "signal.constant", "params": {"value": 0.5}},
                                 "gt": {"type": "signal.relational", "params": {"operator": ">"}},
                                 "lt": {"type": "signal.relational", "params": {"operator": "<"}},
                                 "int": {"type": "signal.integrator"})",
                              R"(["s.out", "gt.in1"], ["half.out", "gt.in2"], ["s.out", "lt.in1"], ["half.out", "lt.in2"],
                                 ["gt.out", "int.in"])",
                              R"("gt.out", "lt.out", "int.y")",
                              std::string(R"({"method": ")") + method +
                                  R"(", "t_end": 4, "max_step": 0.05, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01})"));
    REQUIRE(r.finished);
    const auto times = event_times(r, "gt");
    REQUIRE(times.size() == expected.size());
    for (size_t k = 0; k < times.size(); ++k) CHECK(std::abs(times[k] - expected[k]) <= 1e-9);
    REQUIRE(event_times(r, "lt").size() == expected.size());
    CHECK(max_error(r, "gt.out", above, expected) == 0.0);
    CHECK(max_error(r, "lt.out", [&](double t) { return 1.0 - above(t); }, expected) == 0.0);
    // Its integral: 2/3 per period of 2 s, to the event placement.
    CHECK(std::abs(r.column("int.y").back() - 4.0 / 3.0) <= 1e-8);
  }
}

TEST_CASE("relational: == and != on a staircase that lands exactly on the other input") {
  // in1 steps 0 -> 1 -> 2 at t = 1, 2; in2 = 1. == holds on [1, 2), >= from 1, > from 2.
  RunResult r = run(netlist(staircase("u", {{0, 0}, {1, 1}, {2, 2}}) + R"(,
                               "one": {"type": "signal.constant", "params": {"value": 1}},
                               "eq": {"type": "signal.relational", "params": {"operator": "=="}},
                               "ne": {"type": "signal.relational", "params": {"operator": "!="}},
                               "ge": {"type": "signal.relational", "params": {"operator": ">="}},
                               "gt": {"type": "signal.relational", "params": {"operator": ">"}},
                               "le": {"type": "signal.relational", "params": {"operator": "<="}})",
                            R"(["u.out", "eq.in1"], ["one.out", "eq.in2"], ["u.out", "ne.in1"], ["one.out", "ne.in2"],
                               ["u.out", "ge.in1"], ["one.out", "ge.in2"], ["u.out", "gt.in1"], ["one.out", "gt.in2"],
                               ["u.out", "le.in1"], ["one.out", "le.in2"])",
                            R"("eq.out", "ne.out", "ge.out", "gt.out", "le.out")", events_solver));
  REQUIRE(r.finished);
  const std::vector<double> steps = {1, 2};
  CHECK(max_error(r, "eq.out", [](double t) { return t >= 1 && t < 2 ? 1.0 : 0.0; }, steps) == 0.0);
  CHECK(max_error(r, "ne.out", [](double t) { return t >= 1 && t < 2 ? 0.0 : 1.0; }, steps) == 0.0);
  CHECK(max_error(r, "ge.out", [](double t) { return t >= 1 ? 1.0 : 0.0; }, steps) == 0.0);
  CHECK(max_error(r, "gt.out", [](double t) { return t >= 2 ? 1.0 : 0.0; }, steps) == 0.0);
  CHECK(max_error(r, "le.out", [](double t) { return t < 2 ? 1.0 : 0.0; }, steps) == 0.0);
  // Each switched at the staircase's own instant.
  CHECK(event_times(r, "eq") == std::vector<double>{1.0, 2.0});
  CHECK(event_times(r, "gt") == std::vector<double>{2.0});
}

TEST_CASE("relational: a continuous input that sits on the threshold and leaves it is seen leaving") {
  // in1 = 0 until t = 1, then the ramp t - 1 (continuous, starting exactly on in2 = 0).
  // ">" holds from t = 1 on (as soon as in1 leaves 0); "==" holds until then.
  RunResult r = run(netlist(R"("rp": {"type": "signal.ramp", "params": {"start_time": 1}},
                               "gt": {"type": "signal.relational", "params": {"operator": ">"}},
                               "eq": {"type": "signal.relational", "params": {"operator": "=="}})",
                            R"(["rp.out", "gt.in1"], ["rp.out", "eq.in1"])", R"("gt.out", "eq.out")", events_solver));
  REQUIRE(r.finished);
  REQUIRE(event_times(r, "gt").size() == 1);
  CHECK(event_times(r, "gt")[0] == doctest::Approx(1.0).epsilon(1e-9));
  REQUIRE(event_times(r, "eq").size() == 1);
  CHECK(max_error(r, "gt.out", [](double t) { return t > 1 ? 1.0 : 0.0; }, {1.0}, 1e-8) == 0.0);
  CHECK(max_error(r, "eq.out", [](double t) { return t > 1 ? 0.0 : 1.0; }, {1.0}, 1e-8) == 0.0);
}

TEST_CASE("logic gates: the truth tables, switching at the inputs' instants") {
  // a = 0 1 0 1 and b = 0 0 1 1 over [0,1), [1,2), [2,3), [3,4).
  RunResult r = run(netlist(staircase("a", {{0, 0}, {1, 1}, {2, 0}, {3, 1}}) + "," +
                                staircase("b", {{0, 0}, {2, 1}}) + R"(,
                               "and": {"type": "signal.logic", "params": {"operator": "and"}},
                               "or": {"type": "signal.logic", "params": {"operator": "or"}},
                               "xor": {"type": "signal.logic", "params": {"operator": "xor"}},
                               "nand": {"type": "signal.logic", "params": {"operator": "nand"}},
                               "nor": {"type": "signal.logic", "params": {"operator": "nor"}},
                               "not": {"type": "signal.logic", "params": {"operator": "not"}},
                               "xor3": {"type": "signal.logic", "params": {"operator": "xor", "inputs": 3}},
                               "one": {"type": "signal.constant", "params": {"value": 1}})",
                            R"(["a.out", "and.in1"], ["b.out", "and.in2"], ["a.out", "or.in1"], ["b.out", "or.in2"],
                               ["a.out", "xor.in1"], ["b.out", "xor.in2"], ["a.out", "nand.in1"], ["b.out", "nand.in2"],
                               ["a.out", "nor.in1"], ["b.out", "nor.in2"], ["a.out", "not.in1"],
                               ["a.out", "xor3.in1"], ["b.out", "xor3.in2"], ["one.out", "xor3.in3"])",
                            R"("and.out", "or.out", "xor.out", "nand.out", "nor.out", "not.out", "xor3.out")", events_solver));
  REQUIRE(r.finished);
  auto a = [](double t) { return (t >= 1 && t < 2) || t >= 3; };
  auto b = [](double t) { return t >= 2; };
  auto bit = [](bool v) { return v ? 1.0 : 0.0; };
  const std::vector<double> steps = {1, 2, 3};
  CHECK(max_error(r, "and.out", [&](double t) { return bit(a(t) && b(t)); }, steps) == 0.0);
  CHECK(max_error(r, "or.out", [&](double t) { return bit(a(t) || b(t)); }, steps) == 0.0);
  CHECK(max_error(r, "xor.out", [&](double t) { return bit(a(t) != b(t)); }, steps) == 0.0);
  CHECK(max_error(r, "nand.out", [&](double t) { return bit(!(a(t) && b(t))); }, steps) == 0.0);
  CHECK(max_error(r, "nor.out", [&](double t) { return bit(!(a(t) || b(t))); }, steps) == 0.0);
  CHECK(max_error(r, "not.out", [&](double t) { return bit(!a(t)); }, steps) == 0.0);
  // xor of a, b and 1: odd count of true inputs = not (a xor b).
  CHECK(max_error(r, "xor3.out", [&](double t) { return bit(a(t) == b(t)); }, steps) == 0.0);
  // The gates switch at the staircases' instants, not a step later.
  CHECK(event_times(r, "and") == std::vector<double>{3.0});
  CHECK(event_times(r, "xor") == std::vector<double>{1.0, 3.0});
}

TEST_CASE("logic: a continuous input crossing 0.5 switches the gate at the crossing") {
  // not(0.5 + sin(pi t)): the input falls through 0.5 at t = 1, rises at t = 2, falls at 3.
  RunResult r = run(netlist(R"("s": {"type": "signal.sine", "params": {"frequency": 0.5, "offset": 0.5}},
                               "not": {"type": "signal.logic", "params": {"operator": "not"}})",
                            R"(["s.out", "not.in1"])", R"("not.out")", events_solver));
  REQUIRE(r.finished);
  const auto times = event_times(r, "not");
  REQUIRE(times.size() == 3);
  for (size_t k = 0; k < 3; ++k) CHECK(std::abs(times[k] - (k + 1.0)) <= 1e-9);
  CHECK(max_error(r, "not.out", [](double t) { return std::fmod(t, 2.0) < 1.0 ? 0.0 : 1.0; }, {1, 2, 3, 4}) == 0.0);
  const std::string msg = input_error_of(netlist(R"("n": {"type": "signal.logic", "params": {"operator": "not", "inputs": 2}})",
                                                 "", R"("n.out")"));
  CHECK(msg.find("parameter 'inputs'") != std::string::npos);
}

TEST_CASE("switch: passes in1 from the instant the control reaches the threshold") {
  // control = t (a ramp), threshold 1.5: in1 = sin(2 pi t) from t = 1.5, in2 = 3 before.
  // The output feeds in1 and in2 through, not the control: a loop through control is
  // not algebraic.
  const std::string parts = R"("c": {"type": "signal.ramp"},
      "s": {"type": "signal.sine"},
      "k": {"type": "signal.constant", "params": {"value": 3}},
      "sw": {"type": "signal.switch", "params": {"threshold": 1.5}})";
  RunResult r = run(netlist(parts, R"(["s.out", "sw.in1"], ["c.out", "sw.control"], ["k.out", "sw.in2"])", R"("sw.out")",
                            events_solver));
  REQUIRE(r.finished);
  REQUIRE(event_times(r, "sw").size() == 1);
  CHECK(std::abs(event_times(r, "sw")[0] - 1.5) <= 1e-9);
  CHECK(max_error(r, "sw.out", [](double t) { return t >= 1.5 ? std::sin(2 * pi * t) : 3.0; }, {1.5}) <= 1e-15);
  CHECK(load(netlist(R"("sw": {"type": "signal.switch"}, "g": {"type": "signal.gain"}, "k": {"type": "signal.constant"})",
                     R"(["sw.out", "g.in"], ["g.out", "sw.control"], ["k.out", "sw.in1"], ["k.out", "sw.in2"])", R"("sw.out")"))
            .model.schedule()
            .loop_count() == 0);
}

TEST_CASE("switch: >= and > differ when the control sits exactly on the threshold") {
  RunResult r = run(netlist(staircase("c", {{0, 0}, {1, 1}, {2, 2}}) + R"(,
                               "one": {"type": "signal.constant", "params": {"value": 1}},
                               "two": {"type": "signal.constant", "params": {"value": 2}},
                               "ge": {"type": "signal.switch", "params": {"threshold": 1, "criterion": ">="}},
                               "gt": {"type": "signal.switch", "params": {"threshold": 1, "criterion": ">"}})",
                            R"(["one.out", "ge.in1"], ["c.out", "ge.control"], ["two.out", "ge.in2"],
                               ["one.out", "gt.in1"], ["c.out", "gt.control"], ["two.out", "gt.in2"])",
                            R"("ge.out", "gt.out")", events_solver));
  REQUIRE(r.finished);
  CHECK(max_error(r, "ge.out", [](double t) { return t >= 1 ? 1.0 : 2.0; }, {1, 2}) == 0.0);
  CHECK(max_error(r, "gt.out", [](double t) { return t >= 2 ? 1.0 : 2.0; }, {1, 2}) == 0.0);
}
