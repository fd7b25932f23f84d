#include "jourdain/components/builtin.hpp"
#include "thermal_library.hpp"

namespace jourdain {

void register_thermal_components(Registry& registry) {
  (void)registry;
}

}  // namespace jourdain
