#include "jourdain/components/builtin.hpp"
#include "signal_library.hpp"

namespace jourdain {

void register_signal_components(Registry& registry) {
  signal_library::register_sources(registry);
  signal_library::register_math(registry);
  signal_library::register_dynamics(registry);
  signal_library::register_control(registry);
  signal_library::register_sequencer(registry);
  signal_library::register_external(registry);
  signal_library::register_nonlinear(registry);
  signal_library::register_logic(registry);
  signal_library::register_discrete(registry);
  signal_library::register_linear(registry);
}

}  // namespace jourdain
