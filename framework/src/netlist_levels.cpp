// Placing netlist levels: components, subsystems and composite components (netlist_levels.hpp).
#include "netlist_levels.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <optional>
#include <set>
#include <sstream>

#include "jourdain/diagnostics.hpp"
#include "jourdain/netlist.hpp"
#include "json_reader.hpp"
#include "layout.hpp"

namespace jourdain::netlist_levels {

using nlohmann::json;
using json_check::only_keys;
using json_check::pointer;

std::string read_text(const std::filesystem::path& file) {
  // Regular files only, of a bounded size (issue 18, D14, D16): a directory is named as
  // such, and a device (/dev/zero) or a FIFO would otherwise be read forever or block.
  constexpr std::uintmax_t max_bytes = 64u << 20;
  const InputLocation where{file.string(), "", "", ""};
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (std::filesystem::is_directory(status)) throw InputError(where, "is a directory, not a netlist file");
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw InputError(where, "is not a regular file (a device, a FIFO or a socket): netlists are read from files only");
  if (std::filesystem::is_regular_file(status) && std::filesystem::file_size(file, ec) > max_bytes)
    throw InputError(where, "is larger than 64 MiB, the limit for a netlist file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(where, "cannot read the netlist file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path canonical_folder(const std::filesystem::path& folder) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(folder.empty() ? std::filesystem::path(".") : folder, ec);
  auto canonical = std::filesystem::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : canonical;
}

bool is_within(const std::filesystem::path& file, const std::vector<std::filesystem::path>& folders) {
  const std::filesystem::path resolved = canonical_folder(file);
  for (const auto& folder : folders) {
    // Component by component: /data/lib2/x is not inside /data/lib.
    auto [f, r] = std::mismatch(folder.begin(), folder.end(), resolved.begin(), resolved.end());
    if (f == folder.end() || (std::next(f) == folder.end() && f->empty())) return true;
  }
  return false;
}

namespace {

const ParamSpec* path_parameter(const Component& c, const std::string& name) {
  for (const auto& spec : c.parameter_specs())
    if (spec.name == name) return spec.path ? &spec : nullptr;
  return nullptr;
}

// Why a file the netlist names (`what`: "the subsystem file", "the file") may not be read
// from where it lies, or "": it must lie in the folders the netlist may read from, so that a
// netlist from someone else cannot read (and echo in its error messages) other files of the
// user's. Checked before the file is opened.
std::string unreadable_because(const std::filesystem::path& f, const LoadState& load, const std::string& what,
                               const std::string& folders_are) {
  if (load.read_folders.empty() || is_within(f, load.read_folders)) return "";
  std::string folders;
  for (const auto& d : load.read_folders) folders += (folders.empty() ? "" : ", ") + d.string();
  return what + " '" + f.string() + "' lies outside the folders " + folders_are + " (" + folders +
         "): the netlist's own folder and the library folders you named. If you trust this netlist, name its folder "
         "as a library (command line: --library DIR) or allow any path (--allow-any-path)";
}

void require_readable(const std::filesystem::path& f, const LoadState& load, const InputLocation& where,
                      const std::string& what, const std::string& folders_are) {
  if (std::string why = unreadable_because(f, load, what, folders_are); !why.empty()) throw InputError(where, why);
}

// A file a netlist names in a path parameter: in the folders it may read from, and, for a
// file of code, with the user's consent. Checked before the component opens it; a file
// that needs both is refused with both said at once, so that one correction suffices.
void check_path_allowed(const std::filesystem::path& p, const ParamSpec& spec, const LoadState& load) {
  std::string why = unreadable_because(p, load, "the file", "a netlist may read from");
  if (spec.path_runs_code && !load.allow_code && !is_within(p, load.code_folders))
    why += (why.empty() ? "" : "; and ") +
           std::string("the netlist asks to run the code in '") + p.string() + "' (parameter '" + spec.name +
           "' holds a binary that runs with your rights, as a plugin does), so it loads only with your consent: if "
           "you trust this netlist and the file, allow it (command line: --allow-plugins; Python: "
           "allow_plugins=True) or put the file in a folder named by JOURDAIN_PLUGIN_PATH";
  if (!why.empty()) throw InputError({}, why);
}

bool is_name(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

bool is_component_name(const std::string& s) {
  // Spelled out rather than std::isalnum, whose answer for bytes above 0x7f depends on the locale.
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

std::string list_of(const std::map<std::string, json>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += (s.empty() ? "" : ", ") + k;
  return s.empty() ? "(none)" : s;
}

// Arithmetic over numbers and parameters: + − * / ^, parentheses, unary signs, sqrt(),
// sin(), cos() and pi. Enough to derive one parameter from others ("$L/$N"); anything
// more belongs in a composite component.
class Arithmetic {
 public:
  Arithmetic(const std::string& text, const std::map<std::string, json>& parameters, const InputLocation& where)
      : s_(text), parameters_(parameters), where_(where) {}
  double evaluate() {
    const double v = sum();
    skip();
    if (i_ != s_.size()) fail("unexpected '" + s_.substr(i_) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    // A long expression is shown by its start: the message must stay readable.
    const std::string shown = s_.size() <= 120 ? s_ : s_.substr(0, 100) + "… (" + std::to_string(s_.size()) + " characters)";
    throw InputError(where_, "cannot evaluate '" + shown + "': " + why);
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  double sum() {
    double v = product();
    for (;;) {
      if (eat('+')) v += product();
      else if (eat('-')) v -= product();
      else return v;
    }
  }
  double product() {
    double v = power();
    for (;;) {
      if (eat('*')) v *= power();
      else if (eat('/')) v /= power();
      else return v;
    }
  }
  double power() {
    const double base = unary();
    return eat('^') ? std::pow(base, power()) : base;  // right-associative
  }
  // Every level of nesting (parentheses, a function's argument, signs, powers) passes
  // through here: the depth is bounded so that no expression can exhaust the stack.
  double unary() {
    if (++depth_ > kMaxNesting) fail("nested more than " + std::to_string(kMaxNesting) + " levels deep");
    const double v = eat('-') ? -unary() : eat('+') ? unary() : primary();
    --depth_;
    return v;
  }
  std::string word() {
    const size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    return s_.substr(b, i_ - b);
  }
  double primary() {
    skip();
    if (eat('(')) {
      const double v = sum();
      if (!eat(')')) fail("missing ')'");
      return v;
    }
    if (eat('$')) {
      const std::string name = word();
      auto it = parameters_.find(name);
      if (it == parameters_.end()) fail("no parameter '" + name + "'; the parameters here are: " + list_of(parameters_));
      if (!it->second.is_number()) fail("parameter '" + name + "' is not a number");
      return it->second.get<double>();
    }
    if (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) {
      const std::string f = word();
      if (f == "pi") return std::numbers::pi;
      if (f != "sqrt" && f != "sin" && f != "cos") fail("unknown function '" + f + "' (sqrt, sin, cos, pi)");
      if (!eat('(')) fail("'" + f + "' needs an argument in parentheses");
      const double a = sum();
      if (!eat(')')) fail("missing ')'");
      return f == "sqrt" ? std::sqrt(a) : f == "sin" ? std::sin(a) : std::cos(a);
    }
    const char* begin = s_.c_str() + i_;
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    if (end == begin) fail(i_ < s_.size() ? "unexpected '" + s_.substr(i_) + "'" : "an operand is missing");
    i_ += static_cast<size_t>(end - begin);
    return v;
  }

  static constexpr int kMaxNesting = 64;
  const std::string& s_;
  const std::map<std::string, json>& parameters_;
  const InputLocation& where_;
  size_t i_ = 0;
  int depth_ = 0;
};

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

}  // namespace

json substitute(const json& value, const std::map<std::string, json>& parameters, const InputLocation& where) {
  if (value.is_array() || value.is_object()) {
    json out = value;
    for (auto& item : out) item = substitute(item, parameters, where);
    return out;
  }
  if (!value.is_string()) return value;
  const std::string& s = value.get_ref<const std::string&>();
  if (s.find('$') == std::string::npos) return value;
  // "$name" alone passes the value as it is (a number, a text, a table); anything else is arithmetic.
  if (s.size() > 1 && s[0] == '$' && is_name(s.substr(1))) {
    auto it = parameters.find(s.substr(1));
    if (it == parameters.end())
      throw InputError(where, "no parameter '" + s.substr(1) + "'; the parameters here are: " + list_of(parameters));
    return it->second;
  }
  return Arithmetic(s, parameters, where).evaluate();
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
      if (where.load) require_readable(f, *where.load, w, "the subsystem file", "subsystem files are read from");
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

namespace {

// Runs one step of placing a level. In a check (LoadState::diagnostics keeps going) a
// fault it throws is recorded and false returned; otherwise the fault is thrown.
bool attempt(const Level& where, const std::function<void()>& step) {
  if (!where.load || !where.load->diagnostics) {
    step();
    return true;
  }
  return where.load->diagnostics->attempt(step);
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

// The component part of "comp.port", or "".
std::string component_of(const json& endpoint) {
  if (!endpoint.is_string()) return "";
  const std::string& s = endpoint.get_ref<const std::string&>();
  return s.substr(0, s.find('.'));
}

}  // namespace

PortMap place(const json& level, const Level& where, Registry& registry, const World& world, ModelBuilder& builder) {
  const std::string file = where.file.string();
  auto at = [&](const std::string& path) { return InputLocation{file, path, "", ""}; };
  if (where.depth > 32)
    throw InputError(at(where.json_path), "subsystems nested more than 32 deep: does a subsystem contain itself?");
  std::map<std::string, SubsystemType> types = where.types;
  read_subsystem_types(level, where, types);

  const std::string comps_path = pointer(where.json_path, "components");
  if (!level.contains("components")) throw InputError(at(where.json_path), "no \"components\" object");
  const json& comps = level["components"];
  if (!comps.is_object() || comps.empty()) throw InputError(at(comps_path), "expected an object of named components");

  std::map<std::string, PortMap> instances;  // subsystems and composites placed at this level
  std::set<std::string> left_out;             // components and instances of this level that were not placed
  Diagnostics* const diagnostics = where.load ? where.load->diagnostics : nullptr;
  auto errors_so_far = [&] { return diagnostics ? diagnostics->error_count() : 0; };

  // Places one component or subsystem instance; false when it was left out (a check).
  auto place_component = [&](const std::string& name, const json& spec) -> bool {
    const std::string path = pointer(comps_path, name);
    const std::string full = where.prefix + name;
    InputLocation w{file, path, full, ""};
    // Names end up in results.csv's header, file names, messages on a terminal and the
    // report's page: plain ASCII keeps all of them valid without quoting or escaping.
    if (!is_component_name(name))
      throw InputError(w, "a component name is ASCII letters, digits, '_' and '-' (no '.', '/', spaces, quotes, commas "
                          "or control characters)");
    only_keys(spec, {"type", "params", "initial", "description"}, w);
    if (!spec.contains("type") || !spec["type"].is_string())
      throw InputError(w, "needs a \"type\" string (see `jourdain list`)");
    const std::string type = spec["type"].get<std::string>();
    json params = spec.contains("params") ? spec["params"] : json::object();
    if (!params.is_object()) throw InputError(InputLocation{file, pointer(path, "params"), full, ""}, "expected an object of parameter values");
    // --set values for this component replace the file's, and answer for themselves.
    std::map<std::string, InputLocation> set_at;
    if (where.load) {
      if (where.load->stop_requested && where.load->stop_requested())
        throw Stopped("stopped while loading the netlist, at component '" + full + "'");
      where.load->placed.push_back(full);
      if (where.load->max_components > 0 && where.load->placed.size() > where.load->max_components)
        throw FatalInputError(w, "the netlist stands for more than " + std::to_string(where.load->max_components) +
                                     " components and subsystem instances, the limit for one model (subsystems that "
                                     "each place several of the next level multiply); if the model really is that "
                                     "large, raise the limit (command line: --max-components N)");
      if (auto o = where.load->by_component.find(full); o != where.load->by_component.end())
        for (const auto& [pname, v] : o->second) {
          params[pname] = v.value;
          set_at[pname] = v.option;
        }
    }

    if (auto sub = types.find(type); sub != types.end()) {
      if (spec.contains("initial"))
        throw InputError(InputLocation{file, pointer(path, "initial"), full, ""},
                         "a subsystem has no states of its own: set initial values in its definition, "
                         "from its parameters");
      Level inner{full + "/", sub->second.file, sub->second.json_path,
                  instance_parameters(sub->second, params, where, path, set_at), types, where.depth + 1,
                  where.load};
      const std::size_t first_new = diagnostics ? diagnostics->all().size() : 0;
      const std::size_t errors_before = errors_so_far();
      try {
        instances[name] = place(sub->second.definition, inner, registry, world, builder);
      } catch (const FatalInputError&) {
        throw;
      } catch (const InputError& e) {
        if (auto said = with_instance(e.where(), e.message(), full, type)) throw InputError(e.where(), *said);
        throw;
      }
      // In a check, the faults inside were recorded as they were met: each says it too.
      if (diagnostics) {
        for (std::size_t k = first_new; k < diagnostics->all().size(); ++k) {
          Diagnostic& d = diagnostics->all()[k];
          if (d.severity != Severity::Error) continue;
          if (auto said = with_instance(d.where, d.message, full, type)) d.message = *said;
        }
        if (errors_so_far() > errors_before) {
          instances.erase(name);  // its ports may stand for parts left out
          return false;
        }
      }
      return true;
    }

    const ComponentType* t = registry.find(type);
    if (!t) {
      InputLocation tw = w;
      tw.json_path = pointer(path, "type");
      std::string hint;
      for (const auto& n : registry.suggestions(type)) hint += (hint.empty() ? "; did you mean: " : ", ") + n;
      for (const auto& [n, s] : types) hint += (hint.empty() ? "; subsystem types here: " : ", ") + n;
      throw InputError(tw, "unknown component type '" + type + "'" + hint + " (`jourdain list` shows them all)");
    }
    std::unique_ptr<Component> c = t->create();
    c->set_identity(full, type);
    // Parameters that decide which others exist (an FMU's file) first, then the others.
    // In a check every value is tried, so that each bad one is reported.
    InputLocation deciding_at{file, pointer(path, "params"), full, ""};
    bool values_taken = true;
    for (const bool deciding : {true, false}) {
      for (const auto& item : params.items()) {
        const std::string& pname = item.key();
        const json& value = item.value();
        if (c->decides_parameters(pname) != deciding) continue;
        auto set = set_at.find(pname);
        InputLocation vw = set != set_at.end() ? set->second : InputLocation{file, pointer(pointer(path, "params"), pname), full, ""};
        if (deciding) deciding_at = vw;
        values_taken &= attempt(where, [&] {
          try {
            json v = substitute(value, where.parameters, vw);
            const ParamSpec* path_spec = v.is_string() ? path_parameter(*c, pname) : nullptr;
            if (path_spec) {
              // Relative to the file that writes it; a --set value, to the working folder
              // (and the user's own choice, so not confined).
              std::filesystem::path p = v.get<std::string>();
              if (p.is_relative() && !p.empty())
                p = set != set_at.end() ? std::filesystem::absolute(p) : where.file.parent_path() / p;
              p = p.lexically_normal();
              if (where.load && set == set_at.end()) check_path_allowed(p, *path_spec, *where.load);
              if (where.load && where.load->files) where.load->files->push_back(p);
              v = p.string();
            }
            c->set_parameter(pname, v);
          } catch (const InputError& e) {
            throw e.located(vw);
          }
        });
      }
      // A value that could not be taken leaves the component unfinished: what it would
      // say next (a parameter missing, others it decides) follows from that fault.
      if (!values_taken) return false;
      if (deciding) {
        try {
          c->declare_dependents();
        } catch (const InputError& e) {
          throw e.located(deciding_at);
        }
      }
    }
    try {
      c->finish_configuration(world);
    } catch (const InputError& e) {
      // A missing parameter is located at the component's params object.
      throw e.located(InputLocation{file, pointer(path, "params"), full, ""});
    }
    if (json expansion = c->expansion(); !expansion.is_null()) {
      if (spec.contains("initial"))
        throw InputError(InputLocation{file, pointer(path, "initial"), full, ""},
                         "a composite component has no states of its own: its parameters set its parts' start");
      Level inner{full + "/", where.file, path, {}, {}, where.depth + 1, where.load};
      const std::size_t errors_before = errors_so_far();
      instances[name] = place(expansion, inner, registry, world, builder);
      if (errors_so_far() > errors_before) {
        instances.erase(name);
        return false;
      }
      return true;
    }
    builder.add(std::move(c), w);
    if (spec.contains("initial")) {
      const json& init = spec["initial"];
      if (!init.is_object()) throw InputError(InputLocation{file, pointer(path, "initial"), full, ""}, "expected an object of state values");
      Component* added = builder.find(full);
      for (const auto& item : init.items())
        attempt(where, [&, &sname = item.key(), &value = item.value()] {
          InputLocation iw{file, pointer(pointer(path, "initial"), sname), full, ""};
          StateId s = added->find_state(sname);
          std::string unit = s.valid() ? added->states()[s.index].unit : "";
          builder.set_initial(full, sname,
                              s.valid() ? json_check::quantity(substitute(value, where.parameters, iw), unit, iw) : 0.0, iw);
        });
    }
    return true;
  };

  for (const auto& item : comps.items()) {
    // Named, not a structured binding: clang 14 lambdas cannot capture one.
    const std::string& name = item.key();
    const json& spec = item.value();
    bool placed = false;
    if (!attempt(where, [&] { placed = place_component(name, spec); }) || !placed) left_out.insert(name);
  }

  if (level.contains("connections")) {
    const json& conns = level["connections"];
    const std::string cpath = pointer(where.json_path, "connections");
    if (!conns.is_array()) throw InputError(at(cpath), "expected an array of [\"comp.port\", \"comp.port\"] pairs");
    for (size_t i = 0; i < conns.size(); ++i) {
      const json& c = conns[i];
      // A connection to a component left out for its own fault is not judged again.
      if (c.is_array() && c.size() == 2 && (left_out.count(component_of(c[0])) || left_out.count(component_of(c[1]))))
        continue;
      attempt(where, [&] {
        InputLocation w = at(cpath + "/" + std::to_string(i));
        if (!c.is_array() || c.size() != 2 || !c[0].is_string() || !c[1].is_string())
          throw InputError(w, "expected [\"comp.port\", \"comp.port\"]");
        const auto a = endpoints(c[0].get<std::string>(), where, instances, w);
        const auto b = endpoints(c[1].get<std::string>(), where, instances, w);
        // An external port may stand for several inner ports (a clamp feeding a joint and a
        // spring); it then joins one port on the other side, never several.
        if (a.size() > 1 && b.size() > 1)
          throw InputError(w, "both ends stand for several inner ports (" + std::to_string(a.size()) + " and " +
                                  std::to_string(b.size()) + "): connect one of them to a single port");
        for (const auto& x : a)
          for (const auto& y : b) builder.connect(x, y, w);
      });
    }
  }

  PortMap exported;
  if (level.contains("ports")) {
    const json& ports = level["ports"];
    const std::string ppath = pointer(where.json_path, "ports");
    if (!ports.is_object()) throw InputError(at(ppath), "expected an object: port name → \"comp.port\" or a list of them");
    for (const auto& item : ports.items())
      attempt(where, [&, &name = item.key(), &inner = item.value()] {
        InputLocation w = at(pointer(ppath, name));
        if (!is_name(name)) throw InputError(w, "a port name is letters, digits and '_', not starting with a digit");
        const json list = inner.is_string() ? json::array({inner}) : inner;
        if (!list.is_array() || list.empty()) throw InputError(w, "expected \"comp.port\" or a non-empty list of them");
        for (const auto& item : list) {
          if (!item.is_string()) throw InputError(w, "expected \"comp.port\" strings");
          if (left_out.count(component_of(item))) continue;
          for (auto& e : endpoints(item.get<std::string>(), where, instances, w)) {
            builder.check_port(e, w);  // the inner port must exist
            exported[name].push_back(std::move(e));
          }
        }
      });
  }
  if (where.load && where.load->diagnostics && where.load->diagnostics->keep_going() && level.contains("layout"))
    check_layout(level["layout"], {file, pointer(where.json_path, "layout"), "", ""}, comps,
                 level.contains("connections") ? level["connections"] : json::array(), *where.load->diagnostics);
  return exported;
}

}  // namespace jourdain::netlist_levels
