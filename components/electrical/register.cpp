#include "jourdain/components/builtin.hpp"
#include "electrical_library.hpp"

namespace jourdain {

void register_electrical_components(Registry& registry) {
  (void)registry;
}

}  // namespace jourdain
