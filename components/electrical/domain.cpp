// The electrical domain (domains.hpp): potential one way, current back.
#include "jourdain/components/domains.hpp"

namespace jourdain {

const Domain& electrical_domain() {
  static const Domain d = [] {
    Domain e{"electrical", "electrical: node side gives potential; branch side returns current",
             {{"v", "V", Flow::StateToResponse, "potential against the common reference (ground)"},
              {"i", "A", Flow::ResponseToState, "current into the node-side component"}}};
    e.connection_hint = "a connection joins a state side (a ground, capacitor, voltage source, battery, node) to a "
                        "response side (a resistor, inductor, current source, winding); join two branches "
                        "through an electrical.node";
    e.power = {{0, 0}};  // v i
    return e;
  }();
  return d;
}

}  // namespace jourdain
