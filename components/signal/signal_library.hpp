// Internal header of the signal component library.
#pragma once

#include <sstream>
#include <string>

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::signal_library {

void register_sources(Registry& r);
void register_math(Registry& r);
void register_dynamics(Registry& r);
void register_control(Registry& r);
void register_sequencer(Registry& r);

// A number as a user wrote it (up to 10 significant digits), for messages.
inline std::string format_number(double v) {
  std::ostringstream out;
  out.precision(10);
  out << v;
  return out.str();
}

}  // namespace jourdain::signal_library
