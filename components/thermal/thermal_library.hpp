// Internal header of the heat transfer component library.
#pragma once

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::thermal_library {

void register_capacities(Registry& r);
void register_transfer(Registry& r);
void register_sources(Registry& r);

}  // namespace jourdain::thermal_library
