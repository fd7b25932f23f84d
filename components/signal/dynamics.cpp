// Signal blocks with states.
#include "signal_library.hpp"

namespace jourdain::signal_library {

// dy/dt = k u, y(0) from the netlist's "initial": {"y": ...}
class Integrator final : public Component {
 public:
  Integrator() { declare_real("k", "", 1.0, "gain on the input"); }
  void configure() override {
    k_ = real("k");
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "integral y");
    set_dependencies(out_, {});
    y_ = declare_state("y", "", 0.0, "integral");
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.state(y_)); }
  void calc_derivatives(Eval& e) const override { e.set_derivative(y_, k_ * e.in(in_, signal::value)); }

 private:
  double k_ = 1.0;
  PortId in_, out_;
  StateId y_;
};

void register_dynamics(Registry& r) { r.add<Integrator>("signal.integrator", "dy/dt = k u"); }

}  // namespace jourdain::signal_library
