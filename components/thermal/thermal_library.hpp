// Internal header of the heat transfer component library.
#pragma once

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::thermal_library {

}  // namespace jourdain::thermal_library
