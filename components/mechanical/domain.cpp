// The planar mechanical domain (domains.hpp): a body point's kinematics one way, the
// force and torque applied there back.
#include "jourdain/components/domains.hpp"

namespace jourdain {

const Domain& planar_domain() {
  static const Domain d = [] {
    Domain m{"planar", "planar mechanical: body point kinematics one way, force and torque back",
             {{"x", "m", Flow::StateToResponse, "point position x"},
              {"y", "m", Flow::StateToResponse, "point position y"},
              {"theta", "rad", Flow::StateToResponse, "body angle"},
              {"vx", "m/s", Flow::StateToResponse, "point velocity x"},
              {"vy", "m/s", Flow::StateToResponse, "point velocity y"},
              {"omega", "rad/s", Flow::StateToResponse, "body angular velocity"},
              {"ax", "m/s^2", Flow::StateToResponse, "point acceleration x"},
              {"ay", "m/s^2", Flow::StateToResponse, "point acceleration y"},
              {"alpha", "rad/s^2", Flow::StateToResponse, "body angular acceleration"},
              {"fx", "N", Flow::ResponseToState, "force on the body at the point, x"},
              {"fy", "N", Flow::ResponseToState, "force on the body at the point, y"},
              {"tz", "N*m", Flow::ResponseToState, "torque on the body"}}};
    m.power = {{3, 0}, {4, 1}, {5, 2}};  // fx vx + fy vy + tz ω
    return m;
  }();
  return d;
}

}  // namespace jourdain
