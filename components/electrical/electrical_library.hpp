// Internal header of the electrical circuits and machines component library.
#pragma once

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::electrical_library {

}  // namespace jourdain::electrical_library
