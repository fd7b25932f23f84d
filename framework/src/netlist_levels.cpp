// Placing one netlist level: its components, connections and external ports (netlist_levels.hpp).
#include "netlist_levels.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "jourdain/diagnostics.hpp"
#include "jourdain/netlist.hpp"
#include "layout.hpp"
#include "netlist_expression.hpp"

namespace jourdain::netlist_levels {

using nlohmann::json;
using json_check::only_keys;
using json_check::pointer;

namespace {

const ParamSpec* path_parameter(const Component& c, const std::string& name) {
  for (const auto& spec : c.parameter_specs())
    if (spec.name == name) return spec.path ? &spec : nullptr;
  return nullptr;
}

bool is_component_name(const std::string& s) {
  // Spelled out rather than std::isalnum, whose answer for bytes above 0x7f depends on the locale.
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

// The component part of "comp.port", or "".
std::string component_of(const json& endpoint) {
  if (!endpoint.is_string()) return "";
  const std::string& s = endpoint.get_ref<const std::string&>();
  return s.substr(0, s.find('.'));
}

// Places one level into a flat netlist, in the order the level is written: components and
// subsystem instances, then connections, then the level's external ports. In a check
// (LoadState::diagnostics keeps going) a component at fault is recorded and left out, and
// what names it (connections, ports) is not judged again.
class LevelPlacer {
 public:
  LevelPlacer(const json& level, const Level& where, Registry& registry, const World& world, FlatNetlist& flat)
      : level_(level), where_(where), registry_(registry), world_(world), flat_(flat), file_(where.file.string()),
        diagnostics_(where.load ? where.load->diagnostics : nullptr) {}

  PortMap place() {
    if (where_.depth > 32)
      throw InputError(at(where_.json_path), "subsystems nested more than 32 deep: does a subsystem contain itself?");
    types_ = where_.types;
    read_subsystem_types(level_, where_, types_);
    comps_path_ = pointer(where_.json_path, "components");
    if (!level_.contains("components")) throw InputError(at(where_.json_path), "no \"components\" object");
    const json& comps = level_["components"];
    if (!comps.is_object() || comps.empty()) throw InputError(at(comps_path_), "expected an object of named components");

    for (const auto& item : comps.items()) {
      // Named, not a structured binding: clang 14 lambdas cannot capture one.
      const std::string& name = item.key();
      const json& spec = item.value();
      bool placed = false;
      if (!attempt([&] { placed = place_component(name, spec); }) || !placed) left_out_.insert(name);
    }
    place_connections();
    PortMap exported = export_ports();
    if (diagnostics_ && diagnostics_->keep_going() && level_.contains("layout"))
      check_layout(level_["layout"], {file_, pointer(where_.json_path, "layout"), "", ""}, comps,
                   level_.contains("connections") ? level_["connections"] : json::array(), *diagnostics_);
    return exported;
  }

 private:
  // Where one component or instance is written, and what it is given.
  struct Placing {
    std::string name, full, path;  // the level's name, the model's name, the JSON path
    const json& spec;
    json params;                                  // the file's values with --set values over them
    std::map<std::string, InputLocation> set_at;  // where each --set value comes from
  };

  InputLocation at(const std::string& path) const { return {file_, path, "", ""}; }
  // The component's own key `key` ("params", "initial"...), or the component itself ("").
  InputLocation at(const Placing& p, const std::string& key) const {
    return {file_, key.empty() ? p.path : pointer(p.path, key), p.full, ""};
  }
  std::size_t errors_so_far() const { return diagnostics_ ? diagnostics_->error_count() : 0; }

  // Runs one step of placing the level. In a check a fault it throws is recorded and
  // false returned; otherwise the fault is thrown.
  bool attempt(const std::function<void()>& step) {
    if (!diagnostics_) {
      step();
      return true;
    }
    return diagnostics_->attempt(step);
  }

  // Places one component or subsystem instance; false when it was left out (a check).
  bool place_component(const std::string& name, const json& spec) {
    Placing p{name, where_.prefix + name, pointer(comps_path_, name), spec, json::object(), {}};
    const InputLocation w = at(p, "");
    // Names end up in results.csv's header, file names, messages on a terminal and the
    // report's page: plain ASCII keeps all of them valid without quoting or escaping.
    if (!is_component_name(name))
      throw InputError(w, "a component name is ASCII letters, digits, '_' and '-' (no '.', '/', spaces, quotes, commas "
                          "or control characters)");
    only_keys(spec, {"type", "params", "initial", "description"}, w);
    if (!spec.contains("type") || !spec["type"].is_string())
      throw InputError(w, "needs a \"type\" string (see `jourdain list`)");
    const std::string type = spec["type"].get<std::string>();
    p.params = spec.contains("params") ? spec["params"] : json::object();
    if (!p.params.is_object()) throw InputError(at(p, "params"), "expected an object of parameter values");
    count_and_override(p, w);
    if (auto sub = types_.find(type); sub != types_.end()) return place_instance(p, type, sub->second);
    const ComponentType* t = registry_.find(type);
    if (!t) {
      std::string hint;
      for (const auto& n : registry_.suggestions(type)) hint += (hint.empty() ? "; did you mean: " : ", ") + n;
      for (const auto& [n, s] : types_) hint += (hint.empty() ? "; subsystem types here: " : ", ") + n;
      throw InputError(at(p, "type"), "unknown component type '" + type + "'" + hint +
                                                " (`jourdain list` shows them all)");
    }
    return place_library_component(p, *t, type);
  }

  // Counts the placement against the limit, answers a stop request, and puts the --set
  // values for this component over the file's (they answer for themselves).
  void count_and_override(Placing& p, const InputLocation& w) {
    if (!where_.load) return;
    LoadState& load = *where_.load;
    if (load.stop_requested && load.stop_requested())
      throw Stopped("stopped while loading the netlist, at component '" + p.full + "'");
    load.placed.push_back(p.full);
    if (load.max_components > 0 && load.placed.size() > load.max_components)
      throw FatalInputError(w, "the netlist stands for more than " + std::to_string(load.max_components) +
                                   " components and subsystem instances, the limit for one model (subsystems that "
                                   "each place several of the next level multiply); if the model really is that "
                                   "large, raise the limit (command line: --max-components N)");
    if (auto o = load.by_component.find(p.full); o != load.by_component.end())
      for (const auto& [pname, v] : o->second) {
        p.params[pname] = v.value;
        p.set_at[pname] = v.option;
      }
  }

  // A subsystem instance: its definition placed as an inner level under "full/".
  bool place_instance(const Placing& p, const std::string& type, const SubsystemType& sub) {
    if (p.spec.contains("initial"))
      throw InputError(at(p, "initial"), "a subsystem has no states of its own: set initial values in its "
                                               "definition, from its parameters");
    Level inner{p.full + "/", sub.file, sub.json_path, instance_parameters(sub, p.params, where_, p.path, p.set_at),
                types_, where_.depth + 1, where_.load};
    const std::size_t first_new = diagnostics_ ? diagnostics_->all().size() : 0;
    const std::size_t errors_before = errors_so_far();
    try {
      instances_[p.name] = LevelPlacer(sub.definition, inner, registry_, world_, flat_).place();
    } catch (const FatalInputError&) {
      throw;
    } catch (const InputError& e) {
      if (auto said = with_instance(e.where(), e.message(), p.full, type)) throw InputError(e.where(), *said);
      throw;
    }
    if (!diagnostics_) return true;
    // In a check, the faults inside were recorded as they were met: each says it too.
    for (std::size_t k = first_new; k < diagnostics_->all().size(); ++k) {
      Diagnostic& d = diagnostics_->all()[k];
      if (d.severity != Severity::Error) continue;
      if (auto said = with_instance(d.where, d.message, p.full, type)) d.message = *said;
    }
    if (errors_so_far() > errors_before) {
      instances_.erase(p.name);  // its ports may stand for parts left out
      return false;
    }
    return true;
  }

  // A component of a library: created, given its values, configured; then added to the
  // model, or, for a composite, its expansion placed as an inner level.
  bool place_library_component(const Placing& p, const ComponentType& t, const std::string& type) {
    std::unique_ptr<Component> c = t.create();
    c->set_identity(p.full, type);
    if (!take_parameters(*c, p)) return false;
    try {
      c->finish_configuration(world_);
    } catch (const InputError& e) {
      throw e.located(at(p, "params"));  // a missing parameter is located at the params object
    }
    if (json expansion = c->expansion(); !expansion.is_null()) {
      if (p.spec.contains("initial"))
        throw InputError(at(p, "initial"),
                         "a composite component has no states of its own: its parameters set its parts' start");
      Level inner{p.full + "/", where_.file, p.path, {}, {}, where_.depth + 1, where_.load};
      const std::size_t errors_before = errors_so_far();
      instances_[p.name] = LevelPlacer(expansion, inner, registry_, world_, flat_).place();
      if (errors_so_far() > errors_before) {
        instances_.erase(p.name);
        return false;
      }
      return true;
    }
    flat_.add(std::move(c), at(p, ""));
    set_initial_values(p);
    return true;
  }

  // Gives the component its values: those that decide which others exist (an FMU's file)
  // first, then the others. In a check every value is tried, so that each bad one is
  // reported; false when one could not be taken, since what the component would say next
  // (a parameter missing, others it decides) follows from that fault.
  bool take_parameters(Component& c, const Placing& p) {
    InputLocation deciding_at = at(p, "params");
    bool values_taken = true;
    for (const bool deciding : {true, false}) {
      for (const auto& item : p.params.items()) {
        const std::string& pname = item.key();
        const json& value = item.value();
        if (c.decides_parameters(pname) != deciding) continue;
        auto set = p.set_at.find(pname);
        const bool from_option = set != p.set_at.end();
        InputLocation vw = from_option ? set->second : InputLocation{file_, pointer(pointer(p.path, "params"), pname), p.full, ""};
        if (deciding) deciding_at = vw;
        values_taken &= attempt([&] {
          try {
            c.set_parameter(pname, resolve_value(c, pname, value, vw, from_option));
          } catch (const InputError& e) {
            throw e.located(vw);
          }
        });
      }
      if (!values_taken) return false;
      if (deciding) {
        try {
          c.declare_dependents();
        } catch (const InputError& e) {
          throw e.located(deciding_at);
        }
      }
    }
    return true;
  }

  // A parameter value with the level's expressions evaluated; a path parameter's file
  // resolved (relative to the file that writes it; a --set value, to the working folder,
  // and the user's own choice, so not confined), checked against the policy and listed
  // among the files the netlist needs.
  json resolve_value(const Component& c, const std::string& pname, const json& value, const InputLocation& vw,
                     bool from_option) {
    json v = substitute(value, where_.parameters, vw);
    const ParamSpec* path_spec = v.is_string() ? path_parameter(c, pname) : nullptr;
    if (!path_spec) return v;
    std::filesystem::path f = v.get<std::string>();
    if (f.is_relative() && !f.empty()) f = from_option ? std::filesystem::absolute(f) : where_.file.parent_path() / f;
    f = f.lexically_normal();
    if (where_.load && !from_option) where_.load->policy.check_path_allowed(f, *path_spec);
    if (where_.load && where_.load->files) where_.load->files->push_back(f);
    return f.string();
  }

  // The component's "initial" object: state values in the state's unit.
  void set_initial_values(const Placing& p) {
    if (!p.spec.contains("initial")) return;
    const json& init = p.spec["initial"];
    if (!init.is_object()) throw InputError(at(p, "initial"), "expected an object of state values");
    Component* added = flat_.find(p.full);
    for (const auto& item : init.items())
      attempt([&, &sname = item.key(), &value = item.value()] {
        InputLocation iw{file_, pointer(pointer(p.path, "initial"), sname), p.full, ""};
        StateId s = added->find_state(sname);
        std::string unit = s.valid() ? added->states()[s.index].unit : "";
        flat_.set_initial(p.full, sname,
                             s.valid() ? json_check::quantity(substitute(value, where_.parameters, iw), unit, iw) : 0.0,
                             iw);
      });
  }

  void place_connections() {
    if (!level_.contains("connections")) return;
    const json& conns = level_["connections"];
    const std::string cpath = pointer(where_.json_path, "connections");
    if (!conns.is_array()) throw InputError(at(cpath), "expected an array of [\"comp.port\", \"comp.port\"] pairs");
    for (size_t i = 0; i < conns.size(); ++i) {
      const json& c = conns[i];
      // A connection to a component left out for its own fault is not judged again.
      if (c.is_array() && c.size() == 2 && (left_out_.count(component_of(c[0])) || left_out_.count(component_of(c[1]))))
        continue;
      attempt([&] {
        InputLocation w = at(cpath + "/" + std::to_string(i));
        if (!c.is_array() || c.size() != 2 || !c[0].is_string() || !c[1].is_string())
          throw InputError(w, "expected [\"comp.port\", \"comp.port\"]");
        const auto a = endpoints(c[0].get<std::string>(), where_, instances_, w);
        const auto b = endpoints(c[1].get<std::string>(), where_, instances_, w);
        // An external port may stand for several inner ports (a clamp feeding a joint and a
        // spring); it then joins one port on the other side, never several.
        if (a.size() > 1 && b.size() > 1)
          throw InputError(w, "both ends stand for several inner ports (" + std::to_string(a.size()) + " and " +
                                  std::to_string(b.size()) + "): connect one of them to a single port");
        for (const auto& x : a)
          for (const auto& y : b) flat_.connect(x, y, w);
      });
    }
  }

  // The level's "ports" (a subsystem definition's): what each external port stands for.
  PortMap export_ports() {
    PortMap exported;
    if (!level_.contains("ports")) return exported;
    const json& ports = level_["ports"];
    const std::string ppath = pointer(where_.json_path, "ports");
    if (!ports.is_object()) throw InputError(at(ppath), "expected an object: port name → \"comp.port\" or a list of them");
    for (const auto& item : ports.items())
      attempt([&, &name = item.key(), &inner = item.value()] {
        InputLocation w = at(pointer(ppath, name));
        if (!is_name(name)) throw InputError(w, "a port name is letters, digits and '_', not starting with a digit");
        const json list = inner.is_string() ? json::array({inner}) : inner;
        if (!list.is_array() || list.empty()) throw InputError(w, "expected \"comp.port\" or a non-empty list of them");
        for (const auto& entry : list) {
          if (!entry.is_string()) throw InputError(w, "expected \"comp.port\" strings");
          if (left_out_.count(component_of(entry))) continue;
          for (auto& e : endpoints(entry.get<std::string>(), where_, instances_, w)) {
            flat_.check_port(e, w);  // the inner port must exist
            exported[name].push_back(std::move(e));
          }
        }
      });
    return exported;
  }

  const json& level_;
  const Level& where_;
  Registry& registry_;
  const World& world_;
  FlatNetlist& flat_;
  const std::string file_;
  Diagnostics* const diagnostics_;
  std::map<std::string, SubsystemType> types_;  // visible here: the outer levels' and this one's
  std::string comps_path_;
  std::map<std::string, PortMap> instances_;  // subsystems and composites placed at this level
  std::set<std::string> left_out_;            // components and instances of this level not placed
};

}  // namespace

PortMap place(const json& level, const Level& where, Registry& registry, const World& world, FlatNetlist& flat) {
  return LevelPlacer(level, where, registry, world, flat).place();
}

}  // namespace jourdain::netlist_levels
