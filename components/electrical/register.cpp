#include "jourdain/components/builtin.hpp"
#include "electrical_library.hpp"

namespace jourdain {

void register_electrical_components(Registry& registry) {
  electrical_library::register_ground_and_node(registry);
  electrical_library::register_passive(registry);
  electrical_library::register_sources(registry);
  electrical_library::register_switch(registry);
  electrical_library::register_dc_machine(registry);
  electrical_library::register_battery(registry);
  electrical_library::register_converters(registry);
  electrical_library::register_pmsm(registry);
  electrical_library::register_map_machine(registry);
}

}  // namespace jourdain
