// Failures during a run: a NaN is caught where it appears and named; the run stops
// with everything recorded up to it.
#include <cmath>

#include "jourdain_test.hpp"
#include "test_components.hpp"

using namespace jourdain;

namespace {

// out = sqrt(in): NaN once the input goes negative.
class TestSquareRoot final : public Component {
 public:
  void configure() override {
    in_ = declare_port("in", signal_domain(), PortSide::Response, "u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "sqrt(u)");
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, std::sqrt(e.in(in_, signal::value))); }

 private:
  PortId in_, out_;
};

// Discrete logic that contradicts itself: from t = 0.5 on, "set" fires whenever the latch
// is clear and "clear" whenever it is set, each the consequence of the other.
class TestChatter final : public Component {
 public:
  void configure() override {
    latch_ = declare_discrete("latch", 0.0, "0 or 1");
    set_ = declare_zero_crossing("set", CrossingDirection::Rising, "t >= 0.5 while clear");
    clear_ = declare_zero_crossing("clear", CrossingDirection::Rising, "while set");
  }
  void calc_zero_crossings(Eval& e) const override {
    const bool on = e.discrete(latch_) > 0.5;
    e.set_zero_crossing(set_, !on && e.time() >= 0.5 ? 1.0 : -1.0);
    e.set_zero_crossing(clear_, on ? 1.0 : -1.0);
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override { e.set_discrete(latch_, z == set_ ? 1.0 : 0.0); }

 private:
  DiscreteId latch_;
  ZeroCrossingId set_, clear_;
};

RunResult run_sqrt_of_falling_ramp(const std::string& method) {
  Registry r = jourdain::test::builtin_registry();
  jourdain::test::register_test_components(r);
  r.add<TestSquareRoot>("test.sqrt", "sqrt");
  // u = 1 - t through an integrator of -1: sqrt(u) is NaN after t = 1.
  Netlist n = load_netlist_text(R"({
    "components": {
      "slope": {"type": "test.source", "params": {"value": -1}},
      "u":     {"type": "signal.integrator", "initial": {"y": 1}},
      "root":  {"type": "test.sqrt"}
    },
    "connections": [["slope.out", "u.in"], ["u.out", "root.in"]],
    "record": ["u.y", "root.out"],
    "solver": {"method": ")" + method + R"(", "t_end": 2, "output_interval": 0.1, "step": 0.01}
  })", "nan.json", r);
  RunOptions o;
  o.keep_rows = true;
  return run_netlist(n, o);
}

}  // namespace

TEST_CASE("a NaN stops the run naming the component and the variable") {
  for (std::string method : {"rk4", "dopri5", "bdf"}) {
    CAPTURE(method);
    RunResult r = run_sqrt_of_falling_ramp(method);
    REQUIRE_FALSE(r.finished);
    CHECK(r.failure.find("'root'") != std::string::npos);
    CHECK(r.failure.find("root.out") != std::string::npos);
    CHECK(r.failure.find("not finite") != std::string::npos);
    // The failure is at the step where u crosses zero, not later.
    INFO(r.failure);
    CHECK(r.failure_time == doctest::Approx(1.0).epsilon(0.02));
    // Every row before it was recorded and is finite.
    auto t = r.column("time");
    REQUIRE(!t.empty());
    CHECK(t.back() <= 1.0 + 1e-9);
    CHECK(t.back() >= 0.9 - 1e-9);
    for (double v : r.column("root.out")) CHECK(std::isfinite(v));
    CHECK(r.summary["status"] == "failed");
    CHECK(r.summary["failure"]["message"].get<std::string>().find("root.out") != std::string::npos);
  }
}

TEST_CASE("events that keep triggering each other stop the run at that instant") {
  Registry r = jourdain::test::builtin_registry();
  r.add<TestChatter>("test.chatter", "contradictory latch");
  for (std::string method : {"rk4", "dopri5", "bdf"}) {
    CAPTURE(method);
    Netlist n = load_netlist_text(R"({"components": {"flip": {"type": "test.chatter"}},
                                      "solver": {"method": ")" + method + R"(", "t_end": 1, "step": 0.01}})",
                                  "chatter.json", r);
    RunResult res = run_netlist(n, {});
    REQUIRE_FALSE(res.finished);
    CHECK(res.failure.find("keep triggering each other") != std::string::npos);
    CHECK(res.failure.find("'flip'") != std::string::npos);
    // The crossing t >= 0.5 is placed to the solver's event accuracy.
    CHECK(std::abs(res.failure_time - 0.5) < 1e-6);
  }
}
