#include "jourdain/components/builtin.hpp"
#include "thermal_library.hpp"

namespace jourdain {

void register_thermal_components(Registry& registry) {
  thermal_library::register_capacities(registry);
  thermal_library::register_transfer(registry);
  thermal_library::register_sources(registry);
}

}  // namespace jourdain
