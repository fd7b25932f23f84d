#include "jourdain/components/builtin.hpp"
#include "mechanical_library.hpp"

namespace jourdain {

void register_mechanical_components(Registry& registry) {
  registry.add_world_section("constraints", "settings of planar mechanisms: alpha, beta, projection, "
                                            "projection_tolerance, assembly_tolerance, redundant");
  mechanical::register_bodies(registry);
  mechanical::register_joints(registry);
  mechanical::register_drivers(registry);
  mechanical::register_forces(registry);
  mechanical::register_sensors(registry);
  mechanical::register_flexible_beam(registry);
}

}  // namespace jourdain
