// The thermal domain (domains.hpp): temperature one way, heat flow back.
#include "jourdain/components/domains.hpp"

namespace jourdain {

const Domain& thermal_domain() {
  static const Domain d = [] {
    Domain t{"thermal", "thermal: capacity side gives temperature; the other side returns heat flow",
             {{"T", "K", Flow::StateToResponse, "temperature"},
              {"Q", "W", Flow::ResponseToState, "heat flow into the capacity-side component"}}};
    t.connection_hint = "a connection joins a state side (a heat capacity, a fixed temperature) to a response "
                        "side (a conductance, convection, heat source, a component's heat port)";
    t.power = {{-1, 0}};  // the heat flow is a power
    t.carries_heat = true;
    return t;
  }();
  return d;
}

}  // namespace jourdain
