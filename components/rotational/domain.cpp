// The rotational domain (domains.hpp): angle and speed one way, torque back.
#include "jourdain/components/domains.hpp"

namespace jourdain {

const Domain& rotational_domain() {
  static const Domain d = [] {
    Domain r{"rotational", "rotational: inertia side gives angle, speed; the other side returns torque",
             {{"phi", "rad", Flow::StateToResponse, "angle about the axis"},
              {"w", "rad/s", Flow::StateToResponse, "angular speed about the axis"},
              {"tau", "N*m", Flow::ResponseToState, "torque on the inertia-side component, about the axis"}}};
    r.connection_hint = "a connection joins a state side (an inertia, a machine's rotor) to a response side "
                        "(a shaft, a gear's input, a pump, a brake)";
    r.power = {{1, 0}};  // τ ω
    return r;
  }();
  return d;
}

}  // namespace jourdain
