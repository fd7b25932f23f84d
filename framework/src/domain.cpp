#include "jourdain/domain.hpp"
#include "jourdain/domains.hpp"

namespace jourdain {

int Domain::output_count(PortSide side) const { return static_cast<int>(outputs(side).size()); }
int Domain::input_count(PortSide side) const { return static_cast<int>(inputs(side).size()); }

std::vector<const VariableSpec*> Domain::outputs(PortSide side) const {
  std::vector<const VariableSpec*> out;
  for (const auto& v : variables)
    if (v.flow == output_flow(side)) out.push_back(&v);
  return out;
}

std::vector<const VariableSpec*> Domain::inputs(PortSide side) const {
  std::vector<const VariableSpec*> in;
  for (const auto& v : variables)
    if (v.flow != output_flow(side)) in.push_back(&v);
  return in;
}

const char* to_string(PortSide side) { return side == PortSide::State ? "state" : "response"; }

// The standard domains (DESIGN.md §3). Function-local constants: no global mutable state.
const Domain& signal_domain() {
  static const Domain d{"signal", "a scalar signal: output port -> input ports",
                        {{"value", "", Flow::StateToResponse, "signal value"}}};
  return d;
}

const Domain& mech1d_domain() {
  static const Domain d{"mechanical1d", "1D mechanical: mass side gives x, v; the other side returns force",
                        {{"x", "m", Flow::StateToResponse, "position along the axis"},
                         {"v", "m/s", Flow::StateToResponse, "velocity along the axis"},
                         {"f", "N", Flow::ResponseToState, "force on the mass-side component, along the axis"}}};
  return d;
}

const Domain& hydraulic_domain() {
  static const Domain d{"hydraulic", "hydraulic: capacitive side gives pressure; resistive side returns flow",
                        {{"p", "Pa", Flow::StateToResponse, "pressure"},
                         {"q", "m^3/s", Flow::ResponseToState, "volume flow rate into the capacitive side"}}};
  return d;
}

const Domain& planar_domain() {
  static const Domain d{"planar", "planar mechanical: body point kinematics one way, force and torque back",
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
  return d;
}

}  // namespace jourdain
