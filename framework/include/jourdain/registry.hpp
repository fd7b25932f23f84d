// Registry: component type name -> factory. Filled by the built-in component libraries
// and by plugins; owned by the application (there is no global registry).
//
// Libraries above the framework keep registries of their own inside it as extensions
// (the solvers library's solver methods: jourdain/solvers/solver_registry.hpp), so that a
// plugin, which is handed only this Registry, can reach them and the framework need not
// know what they hold.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <typeindex>
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

// A kind of file that stands for a configured component: an FMU ("*.fmu") is an
// "fmi.cosimulation" whose parameter "fmu" names the file. `jourdain describe FILE`
// describes such a file as that component.
struct FileType {
  std::string extension;  // with its dot, lower case: ".fmu"
  std::string type;       // the component type
  std::string parameter;  // its parameter that takes the file's path
  std::string origin;     // "built-in" or the plugin's path
};

// Base of an extension kept in a Registry (Registry::extension<T>()).
class RegistryExtension {
 public:
  virtual ~RegistryExtension();
  // Who is registering now: "built-in", or the path of the plugin being loaded. The
  // Registry keeps it up to date; an extension stamps what it is given with it.
  const std::string& origin() const { return origin_; }
  // A plugin failed half-way through registering: forget everything stamped with its
  // origin, so that loading stays all or nothing across every extension.
  virtual void remove_origin(const std::string& origin) = 0;

 private:
  friend class Registry;
  std::string origin_ = "built-in";
};

class Registry {
 public:
  // Throws std::invalid_argument if the name is taken: a plugin may not shadow a type.
  void add(ComponentType type);

  template <class C>
  void add(std::string name, std::string summary) {
    add(ComponentType{std::move(name), std::move(summary), origin_, [memory = component_memory_] {
                        std::unique_ptr<Component> c(new (memory) C());
                        c->set_type_evaluation(&EvaluateRun<C>::hooks);
                        return c;
                      }});
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

  // Registers a kind of file (FileType); throws std::invalid_argument if the extension is
  // taken or does not start with a dot.
  void add_file_type(std::string extension, std::string type, std::string parameter);
  // The kind of `file`, by its extension (any case), or nullptr.
  const FileType* file_type(const std::filesystem::path& file) const;
  const std::map<std::string, FileType>& file_types() const { return file_types_; }  // by extension

  const ComponentType* find(const std::string& name) const;
  std::vector<const ComponentType*> all() const;  // sorted by name
  // Close names, for "did you mean" in messages.
  std::vector<std::string> suggestions(const std::string& name) const;

  // Origin stamped on types (and on what extensions hold) added from now on (set while a
  // plugin registers).
  void set_origin(std::string origin);
  const std::string& origin() const { return origin_; }

  // The extension of type T (derived from RegistryExtension, default-constructible),
  // created on first use and owned by this Registry: one per Registry and type, so two
  // applications (or tests) never share one. The type is keyed by its std::type_index;
  // the libraries that define extensions instantiate this in their own code, and a
  // plugin reaches it through their functions (e.g. jourdain::solvers(registry)).
  template <class T>
  T& extension() {
    static_assert(std::is_base_of_v<RegistryExtension, T>, "a Registry extension derives from RegistryExtension");
    auto& slot = extensions_[std::type_index(typeid(T))];
    if (!slot) {
      slot = std::make_unique<T>();
      slot->origin_ = origin_;
    }
    return static_cast<T&>(*slot);
  }
  // The extension of type T if it was ever created, else nullptr.
  template <class T>
  const T* find_extension() const {
    auto it = extensions_.find(std::type_index(typeid(T)));
    return it == extensions_.end() ? nullptr : static_cast<const T*>(it->second.get());
  }

  // Loads a plugin shared library by path (never searched for: see plugin.hpp) and lets
  // it register its types. Loading the same file twice is a no-op. Throws InputError.
  void load_plugin(const std::filesystem::path& path);

 private:
  std::map<std::string, ComponentType> types_;
  std::vector<std::string> added_since_mark_;  // undo list while a plugin registers
  std::vector<std::string> loaded_plugins_;
  std::string origin_ = "built-in";
  std::map<std::string, WorldSetting> world_settings_;
  std::map<std::string, FileType> file_types_;  // by extension
  std::map<std::type_index, std::unique_ptr<RegistryExtension>> extensions_;
  // Where add<C>'s types create their components (ComponentMemory); it lives as long
  // as any of them.
  std::shared_ptr<ComponentMemory> component_memory_ = std::make_shared<ComponentMemory>();
};

}  // namespace jourdain
