#include "hydraulic_library.hpp"
#include "jourdain/components/builtin.hpp"

namespace jourdain {

void register_hydraulic_components(Registry& registry) {
  registry.add_world_setting("fluid",
                             "fluid properties of hydraulic circuits: density, bulk_modulus, "
                             "kinematic_viscosity, vapour_pressure, atmospheric_pressure, air_fraction, "
                             "air_polytropic_index; and their temperature: temperature, reference_temperature, "
                             "thermal_expansion, bulk_modulus_slope, viscosity_at (Walther)",
                             [](const nlohmann::json& value, const InputLocation& where) {
                               World w;
                               w.file = where.file;
                               w.settings["fluid"] = value;
                               hydraulic_library::parse_fluid(w);
                             });
  hydraulic_library::register_sources(registry);
  hydraulic_library::register_volumes(registry);
  hydraulic_library::register_orifices(registry);
  hydraulic_library::register_pumps(registry);
  hydraulic_library::register_pressure_valves(registry);
  hydraulic_library::register_directional_valves(registry);
  hydraulic_library::register_flow_valves(registry);
  hydraulic_library::register_cylinders(registry);
  hydraulic_library::register_pipes(registry);
  hydraulic_library::register_sensors(registry);
}

}  // namespace jourdain
