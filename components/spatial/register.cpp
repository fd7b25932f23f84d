#include "jourdain/components/builtin.hpp"
#include "spatial.hpp"

namespace jourdain {

void register_spatial_components(Registry& registry) {
  spatial::register_arm(registry);
  spatial::register_tip_path(registry);
}

}  // namespace jourdain
