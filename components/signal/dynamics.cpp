// Signal blocks with states.
#include "signal_library.hpp"

namespace jourdain::signal_library {

// dy/dt = k u, y(0) from the netlist's "initial": {"y": ...}
class Integrator final : public Component {
 public:
  Integrator() { k_ = declare_real("k", "", 1.0, "gain on the input"); }
  void configure() override {
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "integral y");
    set_dependencies(out_, {});
    y_ = declare_state("y", "", 0.0, "integral");
    declare_state_output(out_, signal::value, y_);
  }
  void calc_derivatives(Eval& e) const override { e.set_derivative(y_, e.param(k_) * e.in(in_, signal::value)); }

 private:
  RealParam k_;
  PortId in_, out_;
  StateId y_;
};

// First-order lag:  T dy/dt = K u - y,  y(0) from the netlist's "initial": {"y": ...}
// (0 by default). Its step response from rest is y = K u (1 - exp(-t / T)).
class FirstOrderLag final : public Component {
 public:
  FirstOrderLag() {
    gain_ = declare_real("K", "", 1.0, "static gain");
    time_constant_ = declare_real("T", "s", 1.0, "time constant", Range::positive());
  }
  void configure() override {
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "lagged output y");
    set_dependencies(out_, {});  // y is the state: no direct feedthrough
    y_ = declare_state("y", "", 0.0, "output");
    declare_state_output(out_, signal::value, y_);
  }
  void calc_derivatives(Eval& e) const override {
    e.set_derivative(y_, (e.param(gain_) * e.in(in_, signal::value) - e.state(y_)) / e.param(time_constant_));
  }

 private:
  RealParam gain_, time_constant_;
  PortId in_, out_;
  StateId y_;
};

void register_dynamics(Registry& r) {
  r.add<Integrator>("signal.integrator", "dy/dt = k u");
  r.add<FirstOrderLag>("signal.first_order_lag", "T dy/dt = K u - y");
}

}  // namespace jourdain::signal_library
