// The netlist's "solver" object as a JSON Schema (solver_registry.hpp), for the netlist
// schema (jourdain/schema.hpp). It follows solver_settings_from_json (settings.cpp): the
// keys of every registered method are allowed (a key of another method is read with a
// warning, so one block can serve several methods), any other key is refused; each
// method's own declarations (its ranges) apply when "method" names it.
#include <cmath>

#include "jourdain/schema.hpp"
#include "jourdain/solvers/solver_registry.hpp"

namespace jourdain {

namespace {

nlohmann::json setting_schema(const SolverSetting& s) {
  nlohmann::json out;
  if (s.kind == SolverSetting::Kind::Integer) {
    out = {{"type", "integer"}};
    if (std::isfinite(s.range.min)) out[s.range.min_inclusive ? "minimum" : "exclusiveMinimum"] = s.range.min;
    if (std::isfinite(s.range.max)) out[s.range.max_inclusive ? "maximum" : "exclusiveMaximum"] = s.range.max;
  } else {
    out = quantity_schema(s.range);
  }
  std::string text = s.description + (s.unit.empty() ? "" : " [" + s.unit + "]");
  if (const std::string r = range_words(s.range, s.unit); !r.empty()) text += ", " + r;
  out["description"] = text;
  out["default"] = s.default_value;
  return out;
}

}  // namespace

nlohmann::json solver_settings_schema(const SolverRegistry& solvers) {
  const std::string default_method = SolverSettings{}.method;
  nlohmann::json names = nlohmann::json::array(), summaries = nlohmann::json::array();
  nlohmann::json properties = nlohmann::json::object(), per_method = nlohmann::json::array();
  for (const auto& name : solvers.names()) {
    const SolverMethod& m = *solvers.find(name);
    names.push_back(name);
    summaries.push_back(m.summary());
    nlohmann::json own = nlohmann::json::object();
    for (const auto& s : solvers.schema(m)) {
      own[s.key] = setting_schema(s);
      if (properties.contains(s.key)) continue;
      // Here only what it is: its kind and range are those of the method that reads it.
      std::string users;
      for (const auto& u : solvers.methods_using(s.key)) users += (users.empty() ? "" : ", ") + u;
      properties[s.key] = {{"description", own[s.key]["description"].get<std::string>() + " (read by " + users + ")"}};
    }
    // With no "method" the default one runs: its rule applies to an object without the key.
    nlohmann::json when = {{"properties", {{"method", {{"const", name}}}}}};
    if (name != default_method) when["required"] = nlohmann::json::array({"method"});
    per_method.push_back({{"if", when}, {"then", {{"properties", own}}}});
  }
  properties["method"] = {{"enum", names},
                          {"enumDescriptions", summaries},
                          {"default", default_method},
                          {"description", "the integration method (`jourdain solvers` lists them)"}};
  return {{"type", "object"},
          {"description", "how the run integrates: a method and its settings"},
          {"properties", properties},
          {"additionalProperties", false},
          {"allOf", per_method}};
}

}  // namespace jourdain
