// Netlist loading and validation (netlist.hpp).
#include "jourdain/netlist.hpp"

#include <algorithm>
#include <map>

#include "jourdain/diagnostics.hpp"
#include "jourdain/suggest.hpp"
#include "jourdain/units.hpp"
#include "json_reader.hpp"
#include "netlist_levels.hpp"

namespace jourdain {

using nlohmann::json;

namespace json_check {

std::string pointer(const std::string& parent, const std::string& key) {
  // JSON pointer escaping (RFC 6901): '~' -> '~0', '/' -> '~1'
  std::string k;
  for (char c : key) k += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return parent + "/" + k;
}

void each_unknown_key(const json& object, const std::vector<std::string>& allowed, const InputLocation& where,
                      Diagnostics& diagnostics) {
  if (!object.is_object()) throw InputError(where, "expected a JSON object, got " + std::string(object.type_name()));
  for (const auto& item : object.items()) {
    const std::string& key = item.key();  // a name of its own: clang 14 lambdas cannot capture a structured binding
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    InputLocation w = where;
    w.json_path = pointer(where.json_path, key);
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    diagnostics.attempt([&] { throw InputError(w, "unknown key '" + key + "'; allowed here: " + list); });
  }
}

void only_keys(const json& object, const std::vector<std::string>& allowed, const InputLocation& where) {
  Diagnostics first_ends(/*keep_going=*/false);
  each_unknown_key(object, allowed, where, first_ends);
}

double quantity(const json& value, const std::string& unit, const InputLocation& where) {
  try {
    if (value.is_number()) return value.get<double>();
    if (value.is_string()) return parse_quantity(value.get<std::string>(), unit);
  } catch (const UnitError& e) {
    throw InputError(where, e.what());
  }
  throw InputError(where, "expected a number or a string with a unit (" + (unit.empty() ? std::string("1") : unit) +
                              "), got " + value.type_name());
}

}  // namespace json_check

namespace {

using json_check::only_keys;
using json_check::pointer;

// --set comp.param=value, where comp is the model's name of a component ("relief",
// "arm/link2") or of a subsystem instance ("arm"). Read here; applied where the component
// is placed (netlist_levels.cpp), so that a part of a subsystem can be given a value too.
netlist_levels::LoadState read_overrides(const NetlistOverrides& o, const std::string& file) {
  netlist_levels::LoadState out;
  for (const auto& item : o.parameters) {
    auto eq = item.find('=');
    auto dot = item.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot > eq || dot == 0 || eq == dot + 1)
      throw InputError({file, "--set " + item, "", ""}, "expected component.parameter=value");
    std::string comp = item.substr(0, dot), param = item.substr(dot + 1, eq - dot - 1), text = item.substr(eq + 1);
    // Not JSON: a text ("250 bar", a choice name, 1e400 read as a quantity).
    json value = json_reader::try_parse_value(text).value_or(json(text));
    out.by_component[comp][param] = {std::move(value), InputLocation{file, "--set " + comp + "." + param, comp, ""}};
  }
  return out;
}

// Every --set must have met its component: a name that was never placed is a typo.
void check_overrides_placed(const netlist_levels::LoadState& o) {
  for (const auto& [comp, values] : o.by_component) {
    if (std::find(o.placed.begin(), o.placed.end(), comp) != o.placed.end()) continue;
    const std::string near = closest_name(comp, o.placed);
    throw InputError(values.begin()->second.option,
                     "no component of that name in the netlist" + (near.empty() ? "" : "; did you mean '" + near + "'?") +
                         " (a part of a subsystem is named \"instance/part\")");
  }
}

World load_world(const json& w, const InputLocation& where, const Registry& registry) {
  World world;
  world.file = where.file;
  if (!w.is_object()) throw InputError(where, "expected an object of world settings");
  std::vector<std::string> keys;
  for (const auto& [name, setting] : registry.world_settings()) keys.push_back(name);
  only_keys(w, keys, where);
  for (const auto& [name, setting] : registry.world_settings()) {
    if (!w.contains(name)) continue;
    const InputLocation at{where.file, pointer(where.json_path, name), "", ""};
    for (const auto& validate : setting.validators) validate(w[name], at);
    world.settings[name] = w[name];
  }
  return world;
}

}  // namespace

Netlist load_netlist(const std::filesystem::path& file, Registry& registry, const NetlistOverrides& overrides) {
  return load_netlist_text(netlist_levels::read_text(file), file, registry, overrides);
}

namespace {

// "display": {"units": {"pressure": "bar", "press.x": "mm"}}: each key a quantity
// (units.hpp) or a recordable variable ("comp.var"), each value a unit of that
// quantity's (or variable's) dimension.
std::map<std::string, std::string> load_display_units(const json& display, const Model& model,
                                                      const InputLocation& where) {
  if (!display.is_object()) throw InputError(where, "expected an object: {\"units\": {\"pressure\": \"bar\", ...}}");
  json_check::only_keys(display, {"units"}, where);
  std::map<std::string, std::string> out;
  if (!display.contains("units")) return out;
  InputLocation units_at = where;
  units_at.json_path = json_check::pointer(where.json_path, "units");
  const json& units = display["units"];
  if (!units.is_object())
    throw InputError(units_at, "expected an object of units by quantity or variable, e.g. {\"pressure\": \"bar\"}");
  for (const auto& [key, value] : units.items()) {
    InputLocation w = units_at;
    w.json_path = json_check::pointer(units_at.json_path, key);
    // The unit the display unit must fit: the quantity's SI unit, or the variable's.
    std::string si_unit, what;
    if (key.find('.') != std::string::npos) {
      try {
        si_unit = model.recordable(key).unit;
      } catch (const InputError& e) {
        throw InputError(w, e.message());
      }
      what = "variable '" + key + "'";
    } else if (const Quantity* q = find_quantity(key)) {
      si_unit = q->si_unit;
      what = "quantity '" + key + "'";
    } else {
      std::vector<std::string> names;
      std::string list;
      for (const auto& q : quantities()) {
        names.push_back(q.name);
        list += (list.empty() ? "" : ", ") + q.name;
      }
      const std::string near = closest_name(key, names);
      throw InputError(w, "unknown quantity '" + key + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?") +
                              " A key is a quantity (" + list + ") or a recorded variable \"component.variable\"");
    }
    if (!value.is_string()) throw InputError(w, "expected a unit, e.g. \"bar\"");
    const std::string unit = value.get<std::string>();
    try {
      const Unit given = parse_unit(unit), expected = parse_unit(si_unit);
      if (!(given.dimension == expected.dimension))
        throw InputError(w, "unit '" + unit + "' (" + given.dimension.to_string() + ") does not fit " + what +
                                " in '" + si_unit + "' (" + expected.dimension.to_string() + ")");
    } catch (const UnitError& e) {
      throw InputError(w, e.what());
    }
    out[key] = unit;
  }
  return out;
}

}  // namespace

namespace {

// Loads the netlist; in a check (diags.keep_going()) every problem is recorded and the
// loading goes on past what it can leave out, in a load for a run the first is thrown.
// Returns the netlist when there was no error. With `stop_at_flat`, loading stops after
// the second stage and hands the flat netlist over there, building no model.
std::optional<Netlist> load(const std::string& text, const std::filesystem::path& file, Registry& registry,
                            const NetlistOverrides& overrides, Diagnostics& diags,
                            FlatNetlist* stop_at_flat = nullptr) {
  const std::string fname = file.string();
  InputLocation top{fname, "", "", ""};
  json doc;
  try {
    doc = json_reader::parse(text, fname);
  } catch (const InputError& e) {
    throw FatalInputError(e.where(), e.message());
  }
  if (!doc.is_object()) throw FatalInputError(top, "a netlist is a JSON object");
  netlist_levels::LoadState set = read_overrides(overrides, fname);
  set.max_components = overrides.max_components;
  set.stop_requested = overrides.stop_requested;
  set.diagnostics = &diags;
  if (!overrides.allow_any_path) {
    set.policy.read_folders.push_back(netlist_levels::canonical_folder(file.parent_path()));
    for (const auto& folder : overrides.library_folders)
      set.policy.read_folders.push_back(netlist_levels::canonical_folder(folder));
  }
  set.policy.allow_code = overrides.allow_plugins;
  for (const auto& folder : overrides.plugin_folders)
    set.policy.code_folders.push_back(netlist_levels::canonical_folder(folder));
  json_check::each_unknown_key(doc,
                               {"$schema", "name", "description", "world", "plugins", "subsystems", "components",
                                "connections", "solver", "record", "analysis", "linear", "display", "strict", "energy", "layout"},
                               top, diags);

  auto at = [&](const std::string& path) { return InputLocation{fname, path, "", ""}; };
  auto text_of = [&](const char* key) -> std::string {
    if (!doc.contains(key)) return "";
    if (!doc[key].is_string()) throw InputError(at(pointer("", key)), "expected a string");
    return doc[key].get<std::string>();
  };

  Netlist net{file, "", "", doc, {}, json::object(), {}, Analysis::Dynamic};
  net.registry = &registry;
  diags.attempt([&] { net.name = text_of("name"); });
  diags.attempt([&] { net.description = text_of("description"); });
  if (net.name.empty()) net.name = file.stem().string();
  if (doc.contains("analysis"))
    diags.attempt([&] {
      const std::string analysis = text_of("analysis");
      const auto parsed = parse_analysis(analysis);
      if (analysis == "linear") net.linear_analysis = true;
      else if (!parsed)
        throw InputError(at("/analysis"),
                         "analysis '" + analysis + "' is not available; choose: dynamic, kinematic, static, linear");
      else net.analysis = *parsed;
    });
  if (doc.contains("strict"))
    diags.attempt([&] {
      if (!doc["strict"].is_boolean()) throw InputError(at("/strict"), "expected true or false");
      net.strict = doc["strict"].get<bool>();
    });
  if (doc.contains("energy"))
    diags.attempt([&] {
      if (!doc["energy"].is_boolean()) throw InputError(at("/energy"), "expected true or false");
      net.energy = doc["energy"].get<bool>();
    });
  if (doc.contains("linear"))
    diags.attempt([&] {
      if (!doc["linear"].is_object()) throw InputError(at("/linear"), "expected an object of linear-analysis settings");
      net.linear = doc["linear"];
    });

  // Plugins first: they may provide the component types used below.
  if (doc.contains("plugins")) {
    const json& plugins = doc["plugins"];
    diags.attempt([&] {
      if (!plugins.is_array()) throw InputError(at("/plugins"), "expected an array of paths");
    });
    for (size_t i = 0; plugins.is_array() && i < plugins.size(); ++i)
      diags.attempt([&] {
        InputLocation w = at("/plugins/" + std::to_string(i));
        if (!plugins[i].is_string()) throw InputError(w, "expected a path string");
        std::filesystem::path p = plugins[i].get<std::string>();
        if (p.is_relative()) p = file.parent_path() / p;  // relative to the netlist, never searched
        // A shared library runs code as it loads (its constructors run before any entry
        // point is looked up): only with the user's consent.
        if (!set.policy.may_run(p))
          throw InputError(w, "the netlist asks to load the plugin '" + p.string() + "'. A plugin is a program that runs "
                              "with your rights as it loads, so the plugins a netlist names load only with your consent: "
                              "if you trust this netlist and the library, allow them (command line: --allow-plugins; "
                              "Python: allow_plugins=True), put the library in a folder named by JOURDAIN_PLUGIN_PATH, "
                              "or load it yourself (--plugin PATH) and remove it from \"plugins\"");
        net.files.push_back(p.lexically_normal());
        try {
          registry.load_plugin(p);
        } catch (const InputError& e) {
          throw InputError(w, e.message() + " (" + p.string() + ")");
        }
      });
  }

  // A world that cannot be read leaves the defaults in place: the components are still
  // worth checking.
  World world;
  if (doc.contains("world")) diags.attempt([&] { world = load_world(doc["world"], at("/world"), registry); });
  world.file = fname;
  FlatNetlist flat(world);  // the second stage: subsystems expanded, names resolved

  if (!doc.contains("components")) throw InputError(top, "the netlist has no \"components\" object");
  set.files = &net.files;
  netlist_levels::Level top_level{"", file, "", {}, {}, 0, &set};
  netlist_levels::place(doc, top_level, registry, world, flat);
  diags.attempt([&] { check_overrides_placed(set); });
  if (stop_at_flat) {
    if (diags.has_errors()) return std::nullopt;
    *stop_at_flat = std::move(flat);
    return net;
  }

  // The model is built only from a netlist without errors: a model of what is left would
  // report what the faults already explain (the inputs their components would drive).
  bool whole = !diags.has_errors();
  ModelBuilder builder(std::move(flat));  // the third stage
  if (whole) {
    net.model = std::move(builder).build(&diags);  // in a check: every problem it finds
    whole = !diags.has_errors();  // if any, the builder keeps its components for the record
    if (whole && net.analysis != Analysis::Dynamic && !net.model.supports(net.analysis))
      diags.attempt([&] {
        throw InputError(at("/analysis"), std::string("no part of this model can carry out a ") +
                                              to_string(net.analysis) +
                                              " analysis (a component library offers it for the loops it solves, as "
                                              "the mechanical library does for mechanisms with drivers)");
      });
  }

  if (doc.contains("solver"))
    diags.attempt([&] {
      if (!doc["solver"].is_object()) throw InputError(at("/solver"), "expected an object of solver settings");
      net.solver = doc["solver"];
    });

  if (doc.contains("record")) {
    const json& rec = doc["record"];
    diags.attempt([&] {
      if (!rec.is_array()) throw InputError(at("/record"), "expected an array of \"component.variable\" names");
    });
    std::map<std::string, size_t> first;  // name -> its first position in the list
    for (size_t i = 0; rec.is_array() && i < rec.size(); ++i)
      diags.attempt([&] {
        InputLocation w = at("/record/" + std::to_string(i));
        if (!rec[i].is_string()) throw InputError(w, "expected a \"component.variable\" name");
        std::string name = rec[i].get<std::string>();
        const std::string component = name.substr(0, name.find('.'));
        try {
          if (whole) net.model.recordable(name);
          else builder.check_variable(name);
        } catch (const InputError& e) {
          w.component = component;
          throw InputError(w, e.message());
        }
        // Twice in the list would give two identical columns: a slip (a copied line), never
        // what was meant.
        if (auto [it, fresh] = first.emplace(name, i); !fresh)
          throw InputError(w, "'" + name + "' is recorded twice: already at /record/" + std::to_string(it->second) +
                                  "; name each variable once");
        net.record.push_back(name);
      });
  } else if (whole) {
    net.record = net.model.default_record();
  }
  if (doc.contains("display") && whole)
    diags.attempt([&] { net.display_units = load_display_units(doc["display"], net.model, at("/display")); });
  if (diags.has_errors()) return std::nullopt;
  return net;
}

}  // namespace

Netlist load_netlist_text(const std::string& text, const std::filesystem::path& file, Registry& registry,
                          const NetlistOverrides& overrides) {
  Diagnostics first_error_ends(/*keep_going=*/false);
  return *load(text, file, registry, overrides, first_error_ends);
}

FlatNetlist flatten_netlist_text(const std::string& text, const std::filesystem::path& file, Registry& registry,
                                 const NetlistOverrides& overrides) {
  Diagnostics first_error_ends(/*keep_going=*/false);
  FlatNetlist flat;
  load(text, file, registry, overrides, first_error_ends, &flat);
  return flat;
}

NetlistCheck check_netlist_text(const std::string& text, const std::filesystem::path& file, Registry& registry,
                                const NetlistOverrides& overrides) {
  NetlistCheck out;
  try {
    out.netlist = load(text, file, registry, overrides, out.diagnostics);
  } catch (const FatalInputError& e) {
    out.diagnostics.add(e);
  }
  if (out.diagnostics.has_errors()) out.netlist.reset();
  return out;
}

NetlistCheck check_netlist(const std::filesystem::path& file, Registry& registry, const NetlistOverrides& overrides) {
  std::string text;
  try {
    text = netlist_levels::read_text(file);
  } catch (const InputError& e) {
    NetlistCheck out;
    out.diagnostics.add(e);
    return out;
  }
  return check_netlist_text(text, file, registry, overrides);
}

}  // namespace jourdain
