// Internal header of the 1D mechanical component library.
#pragma once

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/components/gravity.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::mechanical1d_library {

void register_mass(Registry& r);
void register_elements(Registry& r);
void register_sensors(Registry& r);

}  // namespace jourdain::mechanical1d_library
