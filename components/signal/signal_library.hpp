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
void register_external(Registry& r);
void register_nonlinear(Registry& r);
void register_logic(Registry& r);
void register_discrete(Registry& r);
void register_linear(Registry& r);

// A number as a user wrote it (up to 10 significant digits), for messages.
inline std::string format_number(double v) {
  std::ostringstream out;
  out.precision(10);
  out << v;
  return out.str();
}

// "" when lo < hi; otherwise why not, for a parameter_error about `lo_name`. Parameters
// that must stay ordered (lower < upper) are checked on the netlist's values in
// configure() and on a run's values in initialize(): Model::set_parameter checks each
// value against its own range only.
inline std::string order_problem(const std::string& lo_name, double lo, const std::string& hi_name, double hi) {
  if (lo < hi) return {};
  return "must be less than " + hi_name + " (" + lo_name + " = " + format_number(lo) + ", " + hi_name + " = " +
         format_number(hi) + ")";
}

}  // namespace jourdain::signal_library
