#include "jourdain/components/builtin.hpp"
#include "rotational_library.hpp"

namespace jourdain {

void register_rotational_components(Registry& registry) {
  (void)registry;
}

}  // namespace jourdain
