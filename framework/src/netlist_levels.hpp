// Placing a netlist's components into a flat netlist (flat_netlist.hpp), level by level:
// the top of the netlist, the subsystems it instantiates (netlist-defined
// supercomponents, with their own parameters and external ports) and the sub-netlists of
// composite C++ components
// (Component::expansion()). Everything is flattened: an inner component of instance
// "arm" is the model's component "arm/<inner>". Internal to the framework library; its
// parts live in
//   netlist_levels.cpp      placing one level: components, connections, external ports;
//   subsystems.cpp          subsystem types, an instance's parameters and ports;
//   netlist_expression.cpp  "$name" references and arithmetic in values;
//   netlist_files.cpp       which files a netlist may read and which code it may run.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain/diagnostics.hpp"
#include "jourdain/model.hpp"
#include "jourdain/registry.hpp"
#include "netlist_files.hpp"

namespace jourdain::netlist_levels {

// A subsystem type: its definition and where it is written (for messages).
struct SubsystemType {
  nlohmann::json definition;
  std::filesystem::path file;
  std::string json_path;  // pointer of the definition inside `file` ("" for a file of its own)
};

// What loading one netlist keeps across its levels.
// - Parameter values given on the command line (--set comp.param=value), by the model's
//   name of the component: "relief" at the top, "arm/link2" for a part of subsystem
//   instance "arm" (or of a composite component), "arm" for the instance's own
//   parameters. They are applied over the file's values where the component is placed,
//   at whatever level, and messages about them name the option, not a place in the file.
// - Every component and instance placed (for --set names that match none, and for the
//   limit on their number: a few kilobytes of subsystems that each place ten of the next
//   level would stand for millions).
// - The folders the netlist's files (subsystem files, path parameters) may be read from,
//   and whether files of code (an FMU's binary) may be loaded (FilePolicy).
// - The files the netlist needs (subsystem files, FMUs, ...), for whoever packs it.
struct LoadState {
  struct Value {
    nlohmann::json value;
    InputLocation option;  // {netlist, "--set comp.param", comp, ""}
  };
  std::map<std::string, std::map<std::string, Value>> by_component;
  std::vector<std::string> placed;  // every component and instance placed, in order
  std::size_t max_components = 0;   // 0: no limit
  std::function<bool()> stop_requested;  // NetlistOverrides::stop_requested
  FilePolicy policy;  // which files it may read, which code it may run (netlist_files.hpp)
  std::vector<std::filesystem::path>* files = nullptr;   // files the netlist needs (Netlist::files), appended to
  // Where faults go: thrown at once, or, in a check, each recorded while placing goes on
  // past the component at fault (netlist.hpp, NetlistCheck). Null: thrown.
  Diagnostics* diagnostics = nullptr;
};

// One level being placed.
struct Level {
  std::string prefix;                                 // "" at the top, "arm/" inside instance "arm"
  std::filesystem::path file;                         // the file this level is written in
  std::string json_path;                              // pointer of this level's object inside `file`
  std::map<std::string, nlohmann::json> parameters;   // this level's parameter values (SI numbers or raw)
  std::map<std::string, SubsystemType> types;         // subsystem types visible here
  int depth = 0;
  LoadState* load = nullptr;                          // shared by every level of one load
};

// The inner endpoints ("arm/link.b") an external port of a placed level stands for.
using PortMap = std::map<std::string, std::vector<std::string>>;

// Places `level`'s "components" and "connections" (and its "subsystems" types) into
// `flat`; returns what its "ports" stand for. Throws InputError located in the file
// and at the JSON path where the fault is written.
PortMap place(const nlohmann::json& level, const Level& where, Registry& registry, const World& world,
              FlatNetlist& flat);

// Reads the "subsystems" object of a level into `types` (files relative to `where.file`).
void read_subsystem_types(const nlohmann::json& level, const Level& where, std::map<std::string, SubsystemType>& types);

// The values of a subsystem instance's parameters (`given` at `instance_path` of `level`):
// given ones converted to the declared units, the others from their defaults. `set_at`:
// where the values given by --set come from (the option), by parameter name.
std::map<std::string, nlohmann::json> instance_parameters(const SubsystemType& type, const nlohmann::json& given,
                                                          const Level& level, const std::string& instance_path,
                                                          const std::map<std::string, InputLocation>& set_at);

// "comp.port" written at `level` → the model's endpoints it stands for (`instances`: the
// external ports of the subsystems and composites placed at that level).
std::vector<std::string> endpoints(const std::string& dotted, const Level& level,
                                   const std::map<std::string, PortMap>& instances, const InputLocation& where);

// A fault met inside subsystem instance `full` (of type `type`) says which instance it
// was met in, or nullopt when it says so already or lies elsewhere.
std::optional<std::string> with_instance(const InputLocation& w, const std::string& message, const std::string& full,
                                         const std::string& type);

}  // namespace jourdain::netlist_levels
