// Component type registry and plugin loading (registry.hpp, plugin.hpp).
#include "jourdain/registry.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "jourdain/errors.hpp"
#include "jourdain/suggest.hpp"
#include "jourdain/version.hpp"

namespace jourdain {

// Out of line: the key function places RegistryExtension's vtable and type information in
// the framework library, shared by every library and plugin that derives from it.
RegistryExtension::~RegistryExtension() = default;

void Registry::set_origin(std::string origin) {
  origin_ = std::move(origin);
  for (auto& [type, extension] : extensions_) extension->origin_ = origin_;
}

void Registry::add(ComponentType type) {
  if (types_.count(type.name))
    throw std::invalid_argument("component type '" + type.name + "' is registered twice (" + types_[type.name].origin +
                                " and " + type.origin + ")");
  std::string key = type.name;
  added_since_mark_.push_back(key);
  types_.emplace(std::move(key), std::move(type));
}

void Registry::add_world_setting(const std::string& name, std::string description, WorldValidator validate) {
  WorldSetting& s = world_settings_[name];
  if (s.description.empty()) s.description = std::move(description);
  if (validate) s.validators.push_back(std::move(validate));
}

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

void Registry::add_file_type(std::string extension, std::string type, std::string parameter) {
  extension = lower(std::move(extension));
  if (extension.size() < 2 || extension.front() != '.')
    throw std::invalid_argument("file type '" + extension + "': an extension starts with a dot (\".fmu\")");
  if (auto it = file_types_.find(extension); it != file_types_.end())
    throw std::invalid_argument("file type '" + extension + "' is registered twice (" + it->second.origin + " and " +
                                origin_ + ")");
  file_types_.emplace(extension, FileType{extension, std::move(type), std::move(parameter), origin_});
}

const FileType* Registry::file_type(const std::filesystem::path& file) const {
  auto it = file_types_.find(lower(file.extension().string()));
  return it == file_types_.end() ? nullptr : &it->second;
}

const ComponentType* Registry::find(const std::string& name) const {
  auto it = types_.find(name);
  return it == types_.end() ? nullptr : &it->second;
}

std::vector<const ComponentType*> Registry::all() const {
  std::vector<const ComponentType*> out;
  for (const auto& [name, t] : types_) out.push_back(&t);
  return out;
}

std::vector<std::string> Registry::suggestions(const std::string& name) const {
  // Types sharing the last part of the name ("mass" -> "mechanical1d.mass"), or
  // starting with what was given; else the nearest name, whole ("hydraulic.orifce") or
  // by its last part ("orifce").
  std::vector<std::string> out, names, tails;
  auto tail_of = [](const std::string& n) { return n.substr(n.rfind('.') == std::string::npos ? 0 : n.rfind('.') + 1); };
  const std::string tail = tail_of(name);
  for (const auto& [n, t] : types_) {
    if (tail_of(n) == tail || n.rfind(name, 0) == 0) out.push_back(n);
    names.push_back(n);
    tails.push_back(tail_of(n));
  }
  if (!out.empty()) return out;
  if (std::string close = closest_name(name, names); !close.empty()) return {close};
  if (std::string close = closest_name(tail, tails); !close.empty())
    for (const auto& n : names)
      if (tail_of(n) == close) out.push_back(n);
  return out;
}

void Registry::load_plugin(const std::filesystem::path& path) {
  InputLocation where{path.string(), "", "", ""};
  std::error_code ec;
  // Only the file the user named: an absolute path, so dlopen never searches.
  std::filesystem::path file = std::filesystem::absolute(path, ec);
  if (ec || !std::filesystem::is_regular_file(file))
    throw InputError(where, "plugin file does not exist");
  std::string canonical = std::filesystem::canonical(file, ec).string();
  if (std::find(loaded_plugins_.begin(), loaded_plugins_.end(), canonical) != loaded_plugins_.end()) return;

  // The handle is never closed: component objects made by the plugin keep pointers
  // into it for as long as the process lives.
  void* handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw InputError(where, std::string("cannot load plugin: ") + dlerror());
  using VersionFn = int (*)();
  using RegisterFn = void (*)(void*);
  auto version = reinterpret_cast<VersionFn>(dlsym(handle, "jourdain_plugin_abi_version"));
  auto registrar = reinterpret_cast<RegisterFn>(dlsym(handle, "jourdain_plugin_register"));
  if (!version || !registrar)
    throw InputError(where, "not a Jourdain plugin (no JOURDAIN_PLUGIN entry points)");
  int v = version();
  if (v != JOURDAIN_ABI_VERSION)
    throw InputError(where, "plugin was built for Jourdain ABI version " + std::to_string(v) +
                                ", this is Jourdain " JOURDAIN_VERSION " with ABI version " +
                                std::to_string(JOURDAIN_ABI_VERSION) + "; rebuild the plugin against it");
  // All or nothing: a plugin that fails half-way leaves none of its types behind, nor
  // anything it put in an extension (a solver method).
  std::string previous = origin_;
  set_origin(canonical);
  added_since_mark_.clear();
  try {
    registrar(this);
  } catch (const std::exception& e) {
    for (const auto& name : added_since_mark_) types_.erase(name);
    std::erase_if(file_types_, [&](const auto& entry) { return entry.second.origin == canonical; });
    for (auto& [type, extension] : extensions_) extension->remove_origin(canonical);
    set_origin(previous);
    throw InputError(where, std::string("plugin failed to register: ") + e.what());
  }
  set_origin(previous);
  loaded_plugins_.push_back(canonical);
}

}  // namespace jourdain
