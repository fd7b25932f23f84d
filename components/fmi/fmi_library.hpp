// Internal header of the FMI component library (components/fmi).
#pragma once

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::fmi {

void register_cosimulation(Registry& r);

}  // namespace jourdain::fmi
