// Small components used only by the framework tests, so that these tests do not depend
// on the component libraries' choices.
#pragma once

#include <cmath>

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::test {

// out = value (time only)
class TestSource final : public Component {
 public:
  TestSource() { value_ = declare_real("value", "", 1.0, "output"); }
  void configure() override {
    out_ = declare_port("out", signal_domain(), PortSide::State, "value");
    set_dependencies(out_, {});
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.param(value_)); }

 private:
  RealParam value_;
  PortId out_;
};

// Two outputs of different nature: `held` is a state (reads no input), `echo` = 2 * in
// reads its input directly. A component-level scheduler would see a false loop when
// `held` feeds back into `in`; the port-level one must not.
class TestTwoFaced final : public Component {
 public:
  void configure() override {
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input");
    held_ = declare_port("held", signal_domain(), PortSide::State, "state value");
    echo_ = declare_port("echo", signal_domain(), PortSide::State, "2 * in");
    set_dependencies(held_, {});
    set_dependencies(echo_, {in_});
    s_ = declare_state("s", "", 3.0, "held value");
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(held_, signal::value, e.state(s_));
    e.set_out(echo_, signal::value, 2.0 * e.in(in_, signal::value));
  }
  void calc_derivatives(Eval& e) const override { e.set_derivative(s_, 0.0); }

 private:
  PortId in_, held_, echo_;
  StateId s_;
};

// Solves z^3 + z = u for z: an algebraic unknown with its residual.
class TestCubicRoot final : public Component {
 public:
  void configure() override {
    in_ = declare_port("in", signal_domain(), PortSide::Response, "u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "z with z^3 + z = u");
    z_ = declare_unknown("z", "", 0.0, "root");
  }
  void calc_outputs(Eval& e) const override {
    const double z = e.unknown(z_);
    e.set_residual(z_, z * z * z + z - e.in(in_, signal::value));
    e.set_out(out_, signal::value, z);
  }

 private:
  PortId in_, out_;
  UnknownId z_;
};

// Needs a table (a required parameter).
class TestNeedsTable final : public Component {
 public:
  TestNeedsTable() { declare_table("curve", {"s", "Pa"}, "time, pressure"); }
};

inline void register_test_components(Registry& r) {
  r.add<TestSource>("test.source", "constant");
  r.add<TestTwoFaced>("test.two_faced", "state output and feedthrough output");
  r.add<TestCubicRoot>("test.cubic_root", "z^3 + z = u");
  r.add<TestNeedsTable>("test.needs_table", "required table");
}

}  // namespace jourdain::test
