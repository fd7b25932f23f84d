// Parameter declarations: name, kind, unit, default, allowed range, description.
// Values arrive from the netlist as JSON; parse_parameter converts them to SI (units.hpp)
// and checks them, once, into a typed ParamValue: nothing reads the JSON again.
//
// Two roles (framework/README.md, "Model and Context"):
//   - numeric parameters (Real, declared with Component::declare_real) live in the
//     Context: a run may be given other values by name (Model::set_parameter) with no
//     reload, and components read them through the handle their declaration returned
//     (Eval::param). The netlist's value is the model's default.
//   - configuration (every other kind, and reals declared with declare_config_real)
//     shapes the model: it decides ports, states, tables or counts, or an initial state.
//     It is read once, by name, in Component::configure(), and changing it means building
//     the model again.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace jourdain {

enum class ParamKind {
  Real,      // a number, or a string with a unit
  Integer,
  Boolean,
  Text,      // a string, optionally one of `choices`
  RealList,  // an array of numbers (each may carry a unit)
  Table,     // an array of rows, each an array of numbers; columns carry units
  NamedVectors,  // an object of name -> array of numbers (each may carry a unit), e.g. a
                 // body's points {"pin": [-0.5, 0], "tip": ["500 mm", 0]}
};

const char* to_string(ParamKind kind);

// Closed or open interval for Real and Integer parameters, in SI units.
struct Range {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_inclusive = true;
  bool max_inclusive = true;

  static Range any() { return {}; }
  static Range positive() { return {0.0, std::numeric_limits<double>::infinity(), false, true}; }
  static Range non_negative() { return {0.0, std::numeric_limits<double>::infinity(), true, true}; }
  static Range between(double lo, double hi) { return {lo, hi, true, true}; }
  static Range at_least(double lo) { return {lo, std::numeric_limits<double>::infinity(), true, true}; }
  bool contains(double v) const;
  std::string to_string(const std::string& unit) const;
};

// Handle on a numeric parameter of a component; its value is read with Eval::param.
struct RealParam {
  int index = -1;  // among the component's numeric parameters
  bool valid() const { return index >= 0; }
};

struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::Real;
  std::string unit;                       // Real, RealList: SI unit expression ("" = 1)
  std::vector<std::string> column_units;  // Table: one unit per column; none: a matrix (any width, dimensionless)
  std::optional<nlohmann::json> default_value;  // none: the parameter is required
  Range range;
  std::vector<std::string> choices;  // Text: allowed values (empty = any)
  std::string description;
  int vector_size = 0;  // NamedVectors: entries per vector (0 = any)
  int numeric_index = -1;  // numeric parameters (in the Context): their RealParam index; -1: configuration
  // A value that makes a typical instance, as a netlist would write it (Component::set_example).
  std::optional<nlohmann::json> example{};
  // Text: the path of a file the component reads (Component::declare_path); the netlist
  // loader makes a relative one relative to the file that writes it.
  bool path = false;
  // A path to a file that holds code to be run (an FMU's binary): the loader treats it
  // like a plugin, loading it only with the user's consent (NetlistOverrides::allow_plugins).
  bool path_runs_code = false;
  // Its value decides which other parameters the component has (an FMU's file, whose
  // parameters become the component's): set before any other (Component::set_decides_parameters).
  bool decides_parameters = false;
  bool numeric() const { return numeric_index >= 0; }
};

// An object of name -> numbers (ParamKind::NamedVectors), in the order of its names.
using NamedVectors = std::vector<std::pair<std::string, std::vector<double>>>;
// A parameter's value, in SI, one alternative per ParamKind: Real (double), Integer
// (long), Boolean, Text, RealList, Table (rows), NamedVectors.
using ParamValue =
    std::variant<double, long, bool, std::string, std::vector<double>, std::vector<std::vector<double>>, NamedVectors>;

// The value `value` (as a netlist, a --set or a run writes it: a number in SI or a
// string with a unit, ...) of the parameter `spec` declares, converted to SI and checked
// against its kind, unit, range and choices. The one place a parameter's value is read:
// the netlist's values (Component::set_parameter) and a run's (Model::set_parameter)
// both come through here. Throws UnitError with what is wrong (the caller names the
// parameter and where it was written).
ParamValue parse_parameter(const ParamSpec& spec, const nlohmann::json& value);
// The value as JSON (SI numbers), for tools that show it.
nlohmann::json to_json(const ParamValue& value);

}  // namespace jourdain
