// Registry: component type name -> factory. Filled by the built-in component libraries
// and by plugins; owned by the application (there is no global registry).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "jourdain/component.hpp"
#include "jourdain/errors.hpp"

namespace jourdain {

struct ComponentType {
  std::string name;         // e.g. "signal.gain", "mechanical1d.mass"
  std::string summary;      // one line, for `jourdain list`
  std::string origin;       // "built-in" or the plugin's path
  std::function<std::unique_ptr<Component>()> create;
};

class Registry {
 public:
  // Throws std::invalid_argument if the name is taken: a plugin may not shadow a type.
  void add(ComponentType type);

  template <class C>
  void add(std::string name, std::string summary) {
    add(ComponentType{std::move(name), std::move(summary), origin_, [] { return std::make_unique<C>(); }});
  }

  // A setting of the netlist's "world" object that a component library owns (e.g.
  // "gravity", "constraints", "fluid"). `validate` checks a value as written (it throws
  // InputError naming `where`, the setting's JSON path, or a place inside it); the
  // netlist loader calls it when the netlist loads and refuses settings nobody
  // registered. Two libraries may share a setting (the planar and 1D mechanical
  // libraries both read gravity): every validator registered for it runs.
  using WorldValidator = std::function<void(const nlohmann::json& value, const InputLocation& where)>;
  struct WorldSetting {
    std::string description;
    std::vector<WorldValidator> validators;
  };
  void add_world_setting(const std::string& name, std::string description, WorldValidator validate = {});
  const std::map<std::string, WorldSetting>& world_settings() const { return world_settings_; }

  const ComponentType* find(const std::string& name) const;
  std::vector<const ComponentType*> all() const;  // sorted by name
  // Close names, for "did you mean" in messages.
  std::vector<std::string> suggestions(const std::string& name) const;

  // Origin stamped on types added from now on (set while a plugin registers).
  void set_origin(std::string origin) { origin_ = std::move(origin); }

  // Loads a plugin shared library by path (never searched for: see plugin.hpp) and lets
  // it register its types. Loading the same file twice is a no-op. Throws InputError.
  void load_plugin(const std::filesystem::path& path);

 private:
  std::map<std::string, ComponentType> types_;
  std::vector<std::string> added_since_mark_;  // undo list while a plugin registers
  std::vector<std::string> loaded_plugins_;
  std::string origin_ = "built-in";
  std::map<std::string, WorldSetting> world_settings_;
};

}  // namespace jourdain
