// Netlist: the JSON file a user writes (its format: netlists/README.md; its JSON Schema:
// `jourdain schema`, schema.hpp). Loading checks every key (an unknown key is an error,
// so a typo never passes silently), converts units, creates the components from the
// registry and builds the Model. Every error names the file and the JSON path, and the
// component and port where there is one.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain/diagnostics.hpp"
#include "jourdain/flat_netlist.hpp"
#include "jourdain/model.hpp"
#include "jourdain/registry.hpp"

namespace jourdain {

// What the user, never the netlist, decides about loading it: values given on the command
// line, and the limits and permissions that keep a netlist written by someone else (a
// colleague, a forum) from running code, reading files or exhausting the machine.
struct NetlistOverrides {
  // "component.parameter=value"; value is JSON if it parses as JSON, else a string
  // (so --set pump.speed="1500 rpm" and --set mass.mass=2 both work). The component is
  // named as the model names it: "arm/link2.mass" for a part of subsystem instance "arm",
  // "arm.length" for the instance's own parameter. Messages about a value name the
  // option ("--set arm/link2.mass"), not a place in the file.
  std::vector<std::string> parameters;
  // Components and subsystem instances one netlist may stand for (0: no limit).
  std::size_t max_components = 100'000;
  // A plugin is a shared library: loading it runs its code. The plugins a netlist names
  // ("plugins": [...]) load only when allowed here, or when they lie in one of
  // plugin_folders (folders the user trusts); otherwise loading fails with InputError.
  bool allow_plugins = false;
  std::vector<std::filesystem::path> plugin_folders = {};
  // Subsystem files are read from the netlist's folder (and its subfolders) and from
  // library_folders only, unless allow_any_path: a netlist must not read ../../etc/passwd.
  std::vector<std::filesystem::path> library_folders = {};
  bool allow_any_path = false;
  // Asked as each component is placed: true ends the load with Stopped (a Ctrl-C while a
  // netlist of 10^5 components loads). Empty: never asked.
  std::function<bool()> stop_requested = {};
};

struct Netlist {
  std::filesystem::path file;
  std::string name;
  std::string description;
  nlohmann::json document;  // the netlist as read (--set values apply to the model, not to this)
  Model model;
  nlohmann::json solver = nlohmann::json::object();  // validated by the solvers library
  std::vector<std::string> record;                  // variables to record
  Analysis analysis = Analysis::Dynamic;
  // "analysis": "linear": the run linearizes the model at an operating point (the
  // solvers library's linear.hpp) instead of integrating it; `analysis` stays Dynamic,
  // the analysis the operating point is reached with.
  bool linear_analysis = false;
  // "linear": its settings (operating point, inputs, outputs, frequencies), checked by
  // the solvers library; {} when absent. `jourdain linearize` reads it whatever the
  // analysis.
  nlohmann::json linear = nlohmann::json::object();
  // "display": {"units": {...}}: the units a report shows, keyed by a quantity's name
  // ("pressure": "bar", units.hpp's quantities()) or by a recordable variable
  // ("press.x": "mm", which wins over its quantity's). Checked at load: a known key, a
  // unit of the right dimension. Only reports read it: results.csv stays SI.
  std::map<std::string, std::string> display_units = {};
  // The files the netlist reads besides its own text, as the loader found them: its
  // plugins, its subsystems' files and the files its components' path parameters name
  // (an FMU), in the order met (a file may appear more than once). What a copy of the
  // netlist elsewhere must take along (`jourdain export-fmu` packs them).
  std::vector<std::filesystem::path> files = {};
  // "strict": true: a run that ends with an accuracy warning fails (RunOptions::strict,
  // the command line's --strict).
  bool strict = false;
  // "energy": true: the run keeps an energy account (energy.hpp) and summary.json says
  // where the energy went (RunOptions::energy, the command line's --energy).
  bool energy = false;
  // The registry the netlist was loaded with: its types, for what describes them again
  // later (the report's schematic). The registry outlives the netlist anyway (its plugins
  // hold the components' code).
  const Registry* registry = nullptr;
};

// Parses and checks the file, loads the plugins it names (relative to its folder)
// into `registry`, and builds the model. Throws InputError.
Netlist load_netlist(const std::filesystem::path& file, Registry& registry,
                     const NetlistOverrides& overrides = {});
// The same from text already in memory; `file` is used in messages and for plugins.
Netlist load_netlist_text(const std::string& text, const std::filesystem::path& file, Registry& registry,
                          const NetlistOverrides& overrides = {});

// The netlist's second stage alone (flat_netlist.hpp): subsystems and composites
// expanded, parameters substituted, names resolved, no model built. Throws InputError,
// as load_netlist_text does, for the faults of the first two stages.
FlatNetlist flatten_netlist_text(const std::string& text, const std::filesystem::path& file, Registry& registry,
                                 const NetlistOverrides& overrides = {});

// A check of a netlist (`jourdain check`, an editor): every problem it has, rather than
// the first (diagnostics.hpp), and the netlist itself when none is an error. A file that
// is no JSON gives one diagnostic; a faulty component is left out, and what names it
// (connections, records) is not reported again.
struct NetlistCheck {
  Diagnostics diagnostics{/*keep_going=*/true};
  std::optional<Netlist> netlist;
};
NetlistCheck check_netlist(const std::filesystem::path& file, Registry& registry, const NetlistOverrides& overrides = {});
NetlistCheck check_netlist_text(const std::string& text, const std::filesystem::path& file, Registry& registry,
                                const NetlistOverrides& overrides = {});

// Small helpers shared with the solvers library for validating its own JSON sections.
namespace json_check {
// Throws InputError if `object` has a key outside `allowed`, naming the closest match.
void only_keys(const nlohmann::json& object, const std::vector<std::string>& allowed, const InputLocation& where);
// The same, each unknown key given to `diagnostics` (which throws the first, or keeps all).
void each_unknown_key(const nlohmann::json& object, const std::vector<std::string>& allowed,
                      const InputLocation& where, Diagnostics& diagnostics);
// A number or a string with a unit, converted to SI in `unit`.
double quantity(const nlohmann::json& value, const std::string& unit, const InputLocation& where);
std::string pointer(const std::string& parent, const std::string& key);
}  // namespace json_check

}  // namespace jourdain
