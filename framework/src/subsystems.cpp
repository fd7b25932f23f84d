// Subsystem types and instances of a netlist level: reading the types, an instance's
// parameter values, and the inner ports its external ports stand for (netlist_levels.hpp).
#include <optional>

#include "jourdain/netlist.hpp"
#include "json_reader.hpp"
#include "netlist_expression.hpp"
#include "netlist_files.hpp"
#include "netlist_levels.hpp"

namespace jourdain::netlist_levels {

using nlohmann::json;
using json_check::only_keys;
using json_check::pointer;

// "comp.port" written at this level → the model's endpoints it stands for.
std::vector<std::string> endpoints(const std::string& dotted, const Level& level,
                                   const std::map<std::string, PortMap>& instances, const InputLocation& where) {
  const auto dot = dotted.find('.');
  if (dot == std::string::npos) throw InputError(where, "'" + dotted + "' must name a port as \"component.port\"");
  const std::string comp = dotted.substr(0, dot), port = dotted.substr(dot + 1);
  auto it = instances.find(comp);
  if (it == instances.end()) return {level.prefix + dotted};
  auto p = it->second.find(port);
  if (p == it->second.end()) {
    std::string names;
    for (const auto& [n, e] : it->second) names += (names.empty() ? "" : ", ") + n;
    InputLocation w = where;
    w.component = level.prefix + comp;
    w.port = port;
    throw InputError(w, "the subsystem has no external port '" + port + "'; its ports are: " +
                            (names.empty() ? "(none)" : names));
  }
  return p->second;
}

// The values of a subsystem instance's parameters: given ones converted to the declared
// units, the others from their defaults.
// `set_at`: where the values given by --set come from (the option), by parameter name.
std::map<std::string, json> instance_parameters(const SubsystemType& type, const json& given, const Level& level,
                                                const std::string& instance_path,
                                                const std::map<std::string, InputLocation>& set_at) {
  std::map<std::string, json> values;
  const json& declared = type.definition.contains("parameters") ? type.definition["parameters"] : json::object();
  const InputLocation decl{type.file.string(), pointer(type.json_path, "parameters"), "", ""};
  if (!declared.is_object()) throw InputError(decl, "expected an object of parameter declarations");
  auto given_at = [&](const std::string& name) {
    auto it = set_at.find(name);
    return it != set_at.end() ? it->second
                              : InputLocation{level.file.string(), pointer(pointer(instance_path, "params"), name), "", ""};
  };
  for (const auto& [name, value] : given.items()) {
    InputLocation w = given_at(name);
    if (!declared.contains(name)) {
      std::string names;
      for (const auto& [n, d] : declared.items()) names += (names.empty() ? "" : ", ") + n;
      throw InputError(w, "the subsystem has no parameter '" + name + "'; its parameters are: " +
                              (names.empty() ? "(none)" : names));
    }
  }
  for (const auto& [name, d] : declared.items()) {
    InputLocation dw{decl.file, pointer(decl.json_path, name), "", ""};
    if (!is_name(name)) throw InputError(dw, "a parameter name is letters, digits and '_', not starting with a digit");
    only_keys(d, {"unit", "default", "description"}, dw);
    const bool has = given.contains(name);
    if (!has && !d.contains("default"))
      throw InputError(InputLocation{level.file.string(), pointer(instance_path, "params"), "", ""},
                       "parameter '" + name + "' has no default: give it a value");
    const json& v = has ? given[name] : d["default"];
    InputLocation vw = has ? given_at(name) : InputLocation{dw.file, pointer(dw.json_path, "default"), "", ""};
    const json resolved = substitute(v, level.parameters, vw);  // defaults and values may use the outer level's
    if (d.contains("unit")) {
      if (!d["unit"].is_string()) throw InputError(InputLocation{dw.file, pointer(dw.json_path, "unit"), "", ""}, "expected a unit string");
      values[name] = json_check::quantity(resolved, d["unit"].get<std::string>(), vw);
    } else {
      values[name] = resolved;
    }
  }
  return values;
}

void read_subsystem_types(const json& level, const Level& where, std::map<std::string, SubsystemType>& types) {
  if (!level.contains("subsystems")) return;
  const json& subs = level["subsystems"];
  const std::string path = pointer(where.json_path, "subsystems");
  if (!subs.is_object())
    throw InputError({where.file.string(), path, "", ""}, "expected an object: type name → definition or file");
  for (const auto& [name, def] : subs.items()) {
    InputLocation w{where.file.string(), pointer(path, name), "", ""};
    if (!is_name(name)) throw InputError(w, "a subsystem type name is letters, digits and '_', not starting with a digit");
    if (def.is_string()) {
      std::filesystem::path f = def.get<std::string>();
      if (f.is_relative()) f = where.file.parent_path() / f;  // relative to the file that names it
      if (where.load) where.load->policy.require_readable(f, w, "the subsystem file", "subsystem files are read from");
      json d;
      try {
        d = json_reader::parse(read_text(f), f.string());
      } catch (const InputError& e) {
        throw InputError(w, e.message() + " (" + f.string() + ")");
      }
      if (where.load && where.load->files) where.load->files->push_back(f.lexically_normal());
      types[name] = {std::move(d), f, ""};
    } else if (def.is_object()) {
      types[name] = {def, where.file, w.json_path};
    } else {
      throw InputError(w, "expected a subsystem definition (an object) or the path of its file");
    }
    const SubsystemType& t = types[name];
    only_keys(t.definition, {"$schema", "name", "description", "parameters", "ports", "components", "connections", "subsystems", "layout"},
              {t.file.string(), t.json_path, "", ""});
  }
}

// A fault met inside subsystem instance `full` says which instance it was met in (its
// definition may serve several), unless an inner instance said it already: the
// innermost one says it, its name holding the outer ones'.
std::optional<std::string> with_instance(const InputLocation& w, const std::string& message, const std::string& full,
                                         const std::string& type) {
  const bool said = message.find(" (in subsystem '") != std::string::npos;
  if (said || !(w.component.rfind(full + "/", 0) == 0 || w.component.empty())) return std::nullopt;
  return message + " (in subsystem '" + full + "' of type '" + type + "')";
}

}  // namespace jourdain::netlist_levels
