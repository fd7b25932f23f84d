// The signal domain (domains.hpp): one value from an output port to input ports.
#include "jourdain/components/domains.hpp"

namespace jourdain {

// A function-local constant: no global mutable state.
const Domain& signal_domain() {
  static const Domain d = [] {
    Domain s{"signal", "a scalar signal: output port -> input ports",
             {{"value", "", Flow::StateToResponse, "signal value"}}};
    s.state_port_term = "output";
    s.response_port_term = "input";
    s.connection_hint = "connect an output to an input";
    s.recorded_by_port_name = true;
    return s;
  }();
  return d;
}

}  // namespace jourdain
