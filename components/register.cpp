#include "jourdain/components/builtin.hpp"

namespace jourdain {

void register_builtin_components(Registry& registry) {
  register_signal_components(registry);
  register_mechanical1d_components(registry);
  register_mechanical_components(registry);
  register_rotational_components(registry);
  register_hydraulic_components(registry);
  register_electrical_components(registry);
  register_thermal_components(registry);
  register_spatial_components(registry);
  register_fmi_components(registry);
}

}  // namespace jourdain
