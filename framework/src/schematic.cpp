// The netlist as a diagram (schematic.hpp).
#include "jourdain/schematic.hpp"

#include <deque>
#include <map>
#include <string>

#include "jourdain/descriptor.hpp"
#include "jourdain/document.hpp"
#include "jourdain/errors.hpp"
#include "jourdain/model.hpp"
#include "netlist_files.hpp"

namespace jourdain {

namespace {

using ordered = nlohmann::ordered_json;
using nlohmann::json;

// A subsystem definition as a level sees it: its body, the file it is written in (where
// its own file references are relative to) and whether an editor may change it there.
struct Definition {
  const ordered* body = nullptr;
  std::filesystem::path file;
  bool editable = false;
  std::string error;  // why the definition could not be read
};

// The subsystem names a level can use: its own, then its enclosing levels'.
struct Scope {
  std::map<std::string, Definition> names;
  const Scope* parent = nullptr;
  const Definition* find(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent)
      if (auto it = s->names.find(name); it != s->names.end()) return &it->second;
    return nullptr;
  }
};

std::string library_of(const std::string& type) {
  const auto dot = type.find('.');
  return dot == std::string::npos ? "" : type.substr(0, dot);
}

class SchematicWriter {
 public:
  SchematicWriter(const Registry& registry, const Model* model, const std::filesystem::path& file)
      : registry_(registry), model_(model), read_folders_{netlist_levels::canonical_folder(file.parent_path())} {}

  ordered levels = ordered::object();

  // Writes the level `key` (an instance path, "" for the top) and, first, the levels of
  // its subsystem instances.
  void level(const std::string& key, const ordered& body, const std::filesystem::path& file, const Scope* outer,
             const std::string& definition, bool editable, int depth) {
    levels[key] = nullptr;  // its place, before its children's
    ordered out = ordered::object();
    if (!body.is_object()) {
      out["error"] = "not a netlist object";
      levels[key] = std::move(out);
      return;
    }
    Scope scope{{}, outer};
    if (auto it = body.find("subsystems"); it != body.end() && it->is_object())
      for (const auto& [name, spec] : it->items()) scope.names[name] = definition_of(spec, file, editable);

    ordered components = ordered::object();
    if (auto it = body.find("components"); it != body.end() && it->is_object()) {
      for (const auto& [name, spec] : it->items()) {
        const std::string type = spec.is_object() && spec.contains("type") && spec["type"].is_string()
                                     ? spec["type"].get<std::string>()
                                     : std::string();
        const std::string path = key.empty() ? name : key + "/" + name;
        if (const Definition* d = scope.find(type); d && depth < max_depth_ && levels.size() < max_levels_) {
          components[name] = subsystem_instance(path, type, *d, scope, depth);
        } else {
          components[name] = component(path, type, spec);
        }
      }
    }
    out["components"] = std::move(components);
    out["connections"] = body.contains("connections") ? body["connections"] : ordered::array();
    if (body.contains("layout")) out["layout"] = body["layout"];
    out["definition"] = definition.empty() ? ordered(nullptr) : ordered(definition);
    // A subsystem's exported ports (external name: "component.port" inside), drawn as
    // terminals in its level.
    if (body.contains("ports") && body["ports"].is_object()) out["ports"] = body["ports"];
    out["editable"] = editable;
    out["file"] = file.string();
    if (body.contains("description") && body["description"].is_string()) out["description"] = body["description"];
    levels[key] = std::move(out);
  }

 private:
  static constexpr int max_depth_ = 32;               // a definition that names itself stops here
  static constexpr std::size_t max_levels_ = 20'000;  // the diagram of a very large netlist stays bounded

  Definition definition_of(const ordered& spec, const std::filesystem::path& file, bool editable) {
    if (spec.is_object()) return {&spec, file, editable, ""};
    if (!spec.is_string()) return {nullptr, file, false, "a subsystem is a definition object or a file name"};
    const std::filesystem::path definition_file = file.parent_path() / spec.get<std::string>();
    if (!netlist_levels::is_within(definition_file, read_folders_))
      return {nullptr, definition_file, false, "lies outside the netlist's folder: not shown"};
    try {
      owned_.push_back(NetlistDocument::parse(netlist_levels::read_text(definition_file), definition_file).root());
      return {&owned_.back(), definition_file, false, ""};
    } catch (const Error& e) {
      return {nullptr, definition_file, false, e.what()};
    }
  }

  // A subsystem instance: its level first, then its ports, those of the inner ports its
  // definition's "ports" map them to.
  ordered subsystem_instance(const std::string& path, const std::string& type, const Definition& d, const Scope& scope,
                             int depth) {
    ordered instance = {{"type", type}, {"library", "subsystem"}, {"subsystem", path}};
    ordered ports = ordered::array();
    if (!d.body) {
      levels[path] = {{"error", d.error}, {"definition", type}, {"editable", false}, {"file", d.file.string()},
                      {"components", ordered::object()}, {"connections", ordered::array()}};
    } else {
      level(path, *d.body, d.file, &scope, type, d.editable, depth + 1);
      const ordered& inner = levels[path]["components"];
      if (d.body->contains("description") && (*d.body)["description"].is_string())
        instance["summary"] = (*d.body)["description"];
      if (auto it = d.body->find("ports"); it != d.body->end() && it->is_object()) {
        for (const auto& [external, target] : it->items()) {
          const ordered& first = target.is_array() && !target.empty() ? target[0] : target;
          ordered port = {{"name", external}, {"domain", "unknown"}, {"side", ""}, {"optional", true}};
          if (first.is_string()) {
            const std::string dotted = first.get<std::string>();
            const auto dot = dotted.find('.');
            const std::string part = dotted.substr(0, dot), inner_port = dot == std::string::npos ? "" : dotted.substr(dot + 1);
            if (inner.contains(part))
              for (const auto& p : inner[part]["ports"])
                if (p["name"] == inner_port) port = p;
            port["name"] = external;
            port["description"] = "port " + inner_port + " of '" + part + "'";
          }
          ports.push_back(std::move(port));
        }
      }
    }
    if (!instance.contains("summary")) instance["summary"] = "subsystem " + type;
    instance["ports"] = std::move(ports);
    return instance;
  }

  ordered component(const std::string& path, const std::string& type, const ordered& spec) {
    ordered out = {{"type", type}, {"library", library_of(type)}, {"subsystem", nullptr}};
    const ComponentType* t = registry_.find(type);
    if (!t) {
      out["summary"] = type.empty() ? "no type" : "unknown type '" + type + "'";
      out["ports"] = ordered::array();
      return out;
    }
    out["summary"] = t->summary;
    json ports;
    if (model_)
      if (const Component* c = model_->find_component(path)) ports = describe_ports(*c);
    if (ports.is_null()) ports = configured_ports(*t, spec);
    out["ports"] = ordered(ports);
    return out;
  }

  // The ports of an instance configured with the component's configuration parameters
  // (those that shape the ports), or the type's own when they do not configure one.
  json configured_ports(const ComponentType& t, const ordered& spec) {
    const json& plain = described(t);
    json values = json::object();
    if (spec.is_object() && spec.contains("params") && spec["params"].is_object())
      for (const auto& p : plain["parameters"])
        if (p["role"] == "configuration" && spec["params"].contains(p["name"].get<std::string>()))
          values[p["name"].get<std::string>()] = json(spec["params"][p["name"].get<std::string>()]);
    if (values.empty()) return plain["ports"];
    try {
      return describe_type(t, &registry_, values)["ports"];
    } catch (const std::exception&) {
      return plain["ports"];  // values the loader would refuse: its check says why
    }
  }

  const json& described(const ComponentType& t) {
    auto it = described_.find(t.name);
    if (it == described_.end()) it = described_.emplace(t.name, describe_type(t, &registry_)).first;
    return it->second;
  }

  const Registry& registry_;
  const Model* model_;
  std::vector<std::filesystem::path> read_folders_;
  std::deque<ordered> owned_;  // definitions read from files (levels point into them while written)
  std::map<std::string, json> described_;
};

}  // namespace

nlohmann::ordered_json schematic(const nlohmann::ordered_json& netlist, const std::filesystem::path& file,
                                 const Registry& registry, const Model* model) {
  SchematicWriter writer(registry, model, file);
  writer.level("", netlist, file, nullptr, "", true, 0);
  ordered out = ordered::object();
  out["file"] = file.string();
  out["netlist"] = netlist;
  out["levels"] = std::move(writer.levels);
  // Whether a page must lay some level out itself (ELK): a component without a position.
  bool needs_layout = false;
  for (const auto& [key, level] : out["levels"].items()) {
    if (!level.is_object() || !level.contains("components")) continue;
    const bool placed = level.contains("layout") && level["layout"].is_object() && level["layout"].contains("components") &&
                        level["layout"]["components"].is_object();
    for (const auto& [name, c] : level["components"].items())
      if (!placed || !level["layout"]["components"].contains(name)) needs_layout = true;
  }
  out["needs_layout"] = needs_layout;
  out["recorded"] = netlist.is_object() && netlist.contains("record") ? netlist["record"] : ordered::array();
  return out;
}

}  // namespace jourdain
