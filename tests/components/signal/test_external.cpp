// A netlist's external signals (components/signal/external.cpp): signal.input holds a value
// given in its unit, which a run may change like any numeric parameter; signal.output
// offers its input as a variable named after it.
#include "jourdain_test.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const char* kNetlist = R"({"components": {
    "stroke": {"type": "signal.input", "params": {"value": "250 mm", "unit": "m"}},
    "twice": {"type": "signal.gain", "params": {"k": 2}},
    "out": {"type": "signal.output", "params": {"unit": "m"}}},
  "connections": [["stroke.out", "twice.in"], ["twice.out", "out.in"]],
  "solver": {"method": "rk4", "t_end": 0.1}, "record": ["stroke.out", "out.value"]})";

}  // namespace

TEST_CASE("signal.input: a value in its unit (given before the unit or after), changed per run") {
  const RunResult r = run(kNetlist);
  REQUIRE(r.finished);
  CHECK(r.column("stroke.out").back() == doctest::Approx(0.25));
  CHECK(r.column("out.value").back() == doctest::Approx(0.5));
  const Netlist n = load(kNetlist);
  CHECK(n.model.recordable("stroke.out").unit == "m");
  CHECK(n.model.recordable("out.value").unit == "m");
  const ParameterInfo& p = n.model.parameter("stroke.value");
  CHECK(p.unit == "m");
  RunOptions o;
  o.keep_rows = true;
  o.parameters = {{"stroke.value", "0.4 m"}};
  CHECK(run_netlist(n, o).column("out.value").back() == doctest::Approx(0.8));
  // Without a unit, a dimensionless value.
  CHECK(load(R"({"components": {"u": {"type": "signal.input", "params": {"value": 3}}}, "connections": []})")
            .model.parameter("u.value").unit.empty());
}

TEST_CASE("signal.input and signal.output: a unit that is none is refused, naming the parameter") {
  CHECK_THROWS_WITH_AS(load(R"({"components": {"u": {"type": "signal.input", "params": {"unit": "furlong"}}},
                                 "connections": []})"),
                       doctest::Contains("component 'u': parameter 'unit'"), InputError);
  CHECK_THROWS_WITH_AS(load(R"({"components": {"y": {"type": "signal.output", "params": {"unit": "m//s"}}},
                                 "connections": []})"),
                       doctest::Contains("component 'y': parameter 'unit'"), InputError);
  // A value of another dimension than the unit's.
  CHECK_THROWS_WITH_AS(load(R"({"components": {"u": {"type": "signal.input", "params": {"unit": "m", "value": "3 s"}}},
                                 "connections": []})"),
                       doctest::Contains("parameter 'value'"), InputError);
}
