// Writing a plugin: a shared library with component types (and, through the libraries'
// Registry extensions, other things: a solver method, jourdain/solvers/solver_registry.hpp).
//
//   #include <jourdain/plugin.hpp>
//   class MyValve : public jourdain::Component { ... };
//   JOURDAIN_PLUGIN(registry) {
//     registry.add<MyValve>("mylib.valve", "my valve");
//     jourdain::solvers(registry).add(std::make_shared<MyMethod>());  // links Jourdain::solvers
//   }
//
// The macro defines two C-ABI entry points: one reports the framework ABI version the
// plugin was compiled against (checked before anything else is called, so a plugin
// built for another version is refused with a clear message); the other registers.
#pragma once

#include "jourdain/registry.hpp"
#include "jourdain/version.hpp"

#define JOURDAIN_PLUGIN(registry_name)                                                          \
  extern "C" __attribute__((visibility("default"))) int jourdain_plugin_abi_version() {        \
    return JOURDAIN_ABI_VERSION;                                                               \
  }                                                                                            \
  static void jourdain_plugin_register_impl(::jourdain::Registry& registry_name);              \
  extern "C" __attribute__((visibility("default"))) void jourdain_plugin_register(void* r) {   \
    jourdain_plugin_register_impl(*static_cast<::jourdain::Registry*>(r));                     \
  }                                                                                            \
  static void jourdain_plugin_register_impl(::jourdain::Registry& registry_name)
