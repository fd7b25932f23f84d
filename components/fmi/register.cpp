#include "fmi_library.hpp"
#include "jourdain/components/builtin.hpp"

namespace jourdain {

void register_fmi_components(Registry& registry) { fmi::register_cosimulation(registry); }

}  // namespace jourdain
