#include "jourdain/components/builtin.hpp"
#include "mechanical_library.hpp"
#include "planar.hpp"

namespace jourdain {

void register_mechanical_components(Registry& registry) {
  register_gravity_setting(registry);
  registry.add_world_setting("constraints",
                             "settings of planar mechanisms: formulation, alpha, beta, projection, projection_metric, "
                             "projection_tolerance, assembly_tolerance, tolerance, penalty, redundant",
                             [](const nlohmann::json& value, const InputLocation& where) {
                               if (!value.is_object()) throw InputError(where, "expected an object of constraint settings");
                               World w;
                               w.file = where.file;
                               w.settings["constraints"] = value;
                               mechanical::constraint_settings(w);
                             });
  mechanical::register_bodies(registry);
  mechanical::register_joints(registry);
  mechanical::register_drivers(registry);
  mechanical::register_forces(registry);
  mechanical::register_sensors(registry);
  mechanical::register_flexible_beam(registry);
}

}  // namespace jourdain
