// What the user allows a netlist that may come from someone else (README.md, "Running
// netlists from others"): the trust policy every application applies before loading.
// The command line fills it from its flags, the Python package from its keyword
// arguments, an exported FMU from its own resources; each then hands the loader the
// same NetlistOverrides.
//
// This part of the session library needs the framework only, so that an FMU's binary,
// which links no shared Jourdain library, can carry it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "jourdain/netlist.hpp"

namespace jourdain::session {

struct Trust {
  // Load the plugins (and FMUs) a netlist names: they run code.
  bool allow_plugins = false;
  // Read subsystem files from anywhere the netlist names.
  bool allow_any_path = false;
  // Components and subsystem instances one netlist may stand for (0: no limit).
  std::size_t max_components = NetlistOverrides{}.max_components;
  // Folders whose plugins load without allow_plugins.
  std::vector<std::filesystem::path> plugin_folders;
  // Folders subsystem files may be read from besides the netlist's own.
  std::vector<std::filesystem::path> library_folders;

  // Appends the folders the user trusts through the environment, ':'-separated:
  // JOURDAIN_PLUGIN_PATH to plugin_folders, JOURDAIN_LIBRARY_PATH to library_folders.
  void add_environment_folders();

  // What the loader takes: this policy, the "component.parameter=value" overrides
  // (--set) and what is asked while loading whether to stop (empty: never).
  NetlistOverrides overrides(const std::vector<std::string>& sets = {},
                             std::function<bool()> stop_requested = {}) const;
};

// The trust of a netlist packed with its files (an FMU's resources/model): its plugins
// and FMUs load (whoever runs the package chose to run them), its subsystem files come
// from `folder` only, and nothing of the environment applies.
Trust packed_files(const std::filesystem::path& folder);

}  // namespace jourdain::session
