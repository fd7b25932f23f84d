// world.gravity: the gravity vector [gx, gy] in m/s² (default [0, −9.81]) of the plane
// that planar mechanisms move in and that 1D mechanical axes are drawn in. The planar and
// 1D mechanical libraries share it: each registers it (Registry::add_world_setting) and
// reads it once, in configure().
#pragma once

#include <Eigen/Core>

#include "jourdain/registry.hpp"

namespace jourdain {

// Registers "gravity" as a world setting, with its check.
void register_gravity_setting(Registry& registry);
// The world's gravity (validated when the netlist loaded), or the default.
Eigen::Vector2d planar_gravity(const World& world);

}  // namespace jourdain
