// The trust policy (jourdain/session/trust.hpp).
#include "jourdain/session/trust.hpp"

#include <cstdlib>

namespace jourdain::session {

namespace {

void append_folders_named_by(const char* variable, std::vector<std::filesystem::path>& folders) {
  const char* value = std::getenv(variable);
  for (std::string rest = value ? value : ""; !rest.empty();) {
    const auto colon = rest.find(':');
    if (std::string item = rest.substr(0, colon); !item.empty()) folders.emplace_back(item);
    rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
  }
}

}  // namespace

void Trust::add_environment_folders() {
  append_folders_named_by("JOURDAIN_PLUGIN_PATH", plugin_folders);
  append_folders_named_by("JOURDAIN_LIBRARY_PATH", library_folders);
}

NetlistOverrides Trust::overrides(const std::vector<std::string>& sets, std::function<bool()> stop_requested) const {
  NetlistOverrides o;
  o.parameters = sets;
  o.max_components = max_components;
  o.allow_plugins = allow_plugins;
  o.allow_any_path = allow_any_path;
  o.plugin_folders = plugin_folders;
  o.library_folders = library_folders;
  o.stop_requested = std::move(stop_requested);
  return o;
}

Trust packed_files(const std::filesystem::path& folder) {
  Trust trust;
  trust.allow_plugins = true;
  trust.library_folders = {folder};
  return trust;
}

}  // namespace jourdain::session
