// The hydraulic domain (domains.hpp): pressure one way, volume flow rate back.
#include "jourdain/components/domains.hpp"

namespace jourdain {

const Domain& hydraulic_domain() {
  static const Domain d = [] {
    Domain m{"hydraulic", "hydraulic: capacitive side gives pressure; resistive side returns flow",
             {{"p", "Pa", Flow::StateToResponse, "pressure"},
              {"q", "m^3/s", Flow::ResponseToState, "volume flow rate into the capacitive side"}}};
    m.power = {{0, 0}};  // p q
    return m;
  }();
  return d;
}

}  // namespace jourdain
