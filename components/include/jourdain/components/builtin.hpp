// The component libraries that ship with Jourdain.
#pragma once

#include "jourdain/registry.hpp"

namespace jourdain {

void register_signal_components(Registry& registry);
void register_mechanical1d_components(Registry& registry);
void register_mechanical_components(Registry& registry);  // planar
void register_hydraulic_components(Registry& registry);
void register_rotational_components(Registry& registry);  // rotational 1D mechanics
void register_electrical_components(Registry& registry);
void register_thermal_components(Registry& registry);
void register_spatial_components(Registry& registry);  // spatial serial arms
void register_fmi_components(Registry& registry);      // FMI 2.0 Co-Simulation FMUs as components

// All of the above.
void register_builtin_components(Registry& registry);

}  // namespace jourdain
