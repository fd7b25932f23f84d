#include "jourdain/components/builtin.hpp"
#include "mechanical1d_library.hpp"

namespace jourdain {

void register_mechanical1d_components(Registry& registry) {
  register_gravity_setting(registry);
  mechanical1d_library::register_mass(registry);
  mechanical1d_library::register_elements(registry);
  mechanical1d_library::register_sensors(registry);
}

}  // namespace jourdain
