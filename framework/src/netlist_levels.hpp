// Placing a netlist's components into a ModelBuilder, level by level: the top of the
// netlist, the subsystems it instantiates (netlist-defined supercomponents, with their
// own parameters and external ports) and the sub-netlists of composite C++ components
// (Component::expansion()). Everything is flattened: an inner component of instance
// "arm" is the model's component "arm/<inner>". Internal to the framework library.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain/model.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::netlist_levels {

// A subsystem type: its definition and where it is written (for messages).
struct SubsystemType {
  nlohmann::json definition;
  std::filesystem::path file;
  std::string json_path;  // pointer of the definition inside `file` ("" for a file of its own)
};

// Parameter values given on the command line (--set comp.param=value), by the model's
// name of the component: "relief" at the top, "arm/link2" for a part of subsystem
// instance "arm" (or of a composite component), "arm" for the instance's own
// parameters. They are applied over the file's values where the component is placed,
// at whatever level, and messages about them name the option, not a place in the file.
struct ParameterOverrides {
  struct Value {
    nlohmann::json value;
    InputLocation option;  // {netlist, "--set comp.param", comp, ""}
  };
  std::map<std::string, std::map<std::string, Value>> by_component;
  std::vector<std::string> placed;  // every component and instance placed, for unknown names
};

// One level being placed.
struct Level {
  std::string prefix;                                 // "" at the top, "arm/" inside instance "arm"
  std::filesystem::path file;                         // the file this level is written in
  std::string json_path;                              // pointer of this level's object inside `file`
  std::map<std::string, nlohmann::json> parameters;   // this level's parameter values (SI numbers or raw)
  std::map<std::string, SubsystemType> types;         // subsystem types visible here
  int depth = 0;
  ParameterOverrides* overrides = nullptr;            // --set values (none: nullptr)
  std::vector<std::filesystem::path>* files = nullptr;  // files the netlist needs (Netlist::files), appended to
};

// The inner endpoints ("arm/link.b") an external port of a placed level stands for.
using PortMap = std::map<std::string, std::vector<std::string>>;

// Places `level`'s "components" and "connections" (and its "subsystems" types) into
// `builder`; returns what its "ports" stand for. Throws InputError located in the file
// and at the JSON path where the fault is written.
PortMap place(const nlohmann::json& level, const Level& where, Registry& registry, const World& world,
              ModelBuilder& builder);

// Reads the "subsystems" object of a level into `types` (files relative to `where.file`).
void read_subsystem_types(const nlohmann::json& level, const Level& where, std::map<std::string, SubsystemType>& types);

// Reading JSON text, with line and column in the messages.
std::string read_text(const std::filesystem::path& file);
nlohmann::json parse_json(const std::string& text, const std::string& file);

// Evaluates "$name" references and arithmetic on them ("-$length/2", "2*$EI/$l") in a
// parameter value; other values are returned as they are. Exposed for tests.
nlohmann::json substitute(const nlohmann::json& value, const std::map<std::string, nlohmann::json>& parameters,
                          const InputLocation& where);

}  // namespace jourdain::netlist_levels
