#include "jourdain/components/builtin.hpp"
#include "rotational_library.hpp"

namespace jourdain {

void register_rotational_components(Registry& registry) {
  rotational_library::register_inertia(registry);
  rotational_library::register_shaft(registry);
  rotational_library::register_gear(registry);
  rotational_library::register_friction(registry);
  rotational_library::register_sources(registry);
  rotational_library::register_engine(registry);
  rotational_library::register_sensors(registry);
}

}  // namespace jourdain
