// The reference potential and the Kirchhoff node: state-side elements that hold no
// charge.
//
//   ground:  v = 0                          (any number of connections)
//   node:    v such that Σ i_k = 0          (Kirchhoff's current law)
//
// A node's potential is an algebraic unknown: the node outputs it, and its residual is
// the sum of the currents the branches deliver into it. Its output declares that it
// reads those currents, so a branch whose current follows from the node's potential (a
// resistor) closes a loop through the node, and the scheduler makes node and branch one
// implicit block, which the Newton block solver solves for the potential and the
// currents together (framework/README.md, "Ports and causality"). A node fed only by
// branches whose currents are states or imposed (inductors, current sources) has a
// residual that does not depend on its potential: its potential is undetermined and the
// block solver stops on a singular Jacobian. Join such branches through a resistor, a
// capacitor or a voltage source instead.
#include "electrical_library.hpp"

namespace jourdain::electrical_library {

class Ground final : public Component {
 public:
  void configure() override {
    port_ = declare_port("p", electrical_domain(), PortSide::State,
                         "0 V; any number of connections, whose currents add up");
    set_dependencies(port_, {});
    current_ = declare_observable("current", "A", "net current delivered into the ground by its branches");
  }
  void calc_outputs(Eval& e) const override { e.set_out(port_, electrical::voltage, 0.0); }
  void calc_derivatives(Eval& e) const override { e.set_observable(current_, e.in(port_, electrical::current)); }

 private:
  PortId port_;
  ObservableId current_;
};

class Node final : public Component {
 public:
  Node() {
    declare_config_real("initial_guess", "V", 0.0,
                        "first guess of the potential for the algebraic solver (later solves start from the "
                        "previous solution)");
  }
  void configure() override {
    port_ = declare_port("p", electrical_domain(), PortSide::State,
                         "joins branches (any number of connections); their currents sum to zero");
    set_dependencies(port_, {port_});
    v_ = declare_unknown("v", "V", config_real("initial_guess"), "potential of the node");
    current_ = declare_observable("current_balance", "A",
                                  "Σ of the currents into the node: zero to the algebraic solver's tolerance");
  }
  void calc_outputs(Eval& e) const override {
    const double sum = e.in(port_, electrical::current);
    e.set_out(port_, electrical::voltage, e.unknown(v_));
    e.set_residual(v_, sum);
    e.set_observable(current_, sum);
  }

 private:
  PortId port_;
  UnknownId v_;
  ObservableId current_;
};

void register_ground_and_node(Registry& r) {
  r.add<Ground>("electrical.ground", "reference potential, 0 V (any number of connections)");
  r.add<Node>("electrical.node", "Kirchhoff node joining branches: potential solved so that Σ i = 0");
}

}  // namespace jourdain::electrical_library
