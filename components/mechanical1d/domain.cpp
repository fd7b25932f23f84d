// The 1D mechanical domain (domains.hpp): position and velocity one way, force back.
#include "jourdain/components/domains.hpp"

namespace jourdain {

const Domain& mech1d_domain() {
  static const Domain d = [] {
    Domain m{"mechanical1d", "1D mechanical: mass side gives x, v; the other side returns force",
             {{"x", "m", Flow::StateToResponse, "position along the axis"},
              {"v", "m/s", Flow::StateToResponse, "velocity along the axis"},
              {"f", "N", Flow::ResponseToState, "force on the mass-side component, along the axis"}}};
    m.power = {{1, 0}};  // f v
    return m;
  }();
  return d;
}

}  // namespace jourdain
