// Internal header of the signal component library.
#pragma once

#include "jourdain/component.hpp"
#include "jourdain/domains.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::signal_library {

void register_sources(Registry& r);
void register_math(Registry& r);
void register_dynamics(Registry& r);

}  // namespace jourdain::signal_library
