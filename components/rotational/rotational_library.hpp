// Internal header of the rotational 1D mechanics (drivelines) component library.
//
// Conventions (components/rotational/README.md): one axis, angles in rad, speeds in
// rad/s, torques in N·m, all positive the same way round the axis. An inertia (and a
// speed source, an engine, a fixed flange, a gear's output) is the state side of a
// rotational port: it gives its angle φ and speed ω and receives the torques of what is
// connected to it, which add up. A shaft, a gear's input, a clutch, a brake, a torque
// source, a sensor or a hydraulic machine is the response side: it reads φ and ω and
// returns the torque it exerts ON the inertia.
#pragma once

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::rotational_library {

void register_inertia(Registry& r);
void register_shaft(Registry& r);
void register_gear(Registry& r);
void register_friction(Registry& r);
void register_sources(Registry& r);
void register_engine(Registry& r);
void register_sensors(Registry& r);

}  // namespace jourdain::rotational_library
