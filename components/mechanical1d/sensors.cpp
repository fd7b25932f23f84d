// Sensors and sources between the 1D mechanical and signal domains.
#include "mechanical1d_library.hpp"

namespace jourdain::mechanical1d_library {

void register_sensors(Registry&) {}

}  // namespace jourdain::mechanical1d_library
