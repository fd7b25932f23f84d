// Internal header of the rotational 1D mechanics (drivelines) component library.
#pragma once

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::rotational_library {

}  // namespace jourdain::rotational_library
