// Registration of the planar mechanical library's component types, by file.
#pragma once

#include "jourdain/registry.hpp"

namespace jourdain::mechanical {

void register_bodies(Registry& r);
void register_joints(Registry& r);
void register_drivers(Registry& r);
void register_forces(Registry& r);
void register_sensors(Registry& r);
void register_flexible_beam(Registry& r);

}  // namespace jourdain::mechanical
