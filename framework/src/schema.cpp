// The netlist's JSON Schema from the registry (schema.hpp). The shape of a netlist is
// the one the loader reads (netlist.cpp, netlist_levels.cpp); keep the two in step.
#include "jourdain/schema.hpp"

#include <cmath>

#include "jourdain/context.hpp"
#include "jourdain/descriptor.hpp"
#include "jourdain/units.hpp"
#include "jourdain/version.hpp"

namespace jourdain {

using nlohmann::json;

namespace {

// A number as strtod reads it, then a unit expression (units.hpp): letters, µ or %
// first (or "1/"), then symbols, digits, exponents and the operators * . / and spaces.
// "inf" is a number here too (a stop that is never reached).
constexpr const char* kQuantityPattern =
    "^ *[-+]?(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?|[iI][nN][fF]([iI][nN][iI][tT][yY])?)"
    "( *(1/|[A-Za-z%\\u00b5])[A-Za-z0-9%\\u00b5^*./ -]*)?$";
// A name at one level of a netlist: a component, subsystem instance or named vector.
constexpr const char* kComponentName = "^[^./ ]+$";
// A subsystem type, parameter or external port name (netlist_levels.cpp: is_name).
constexpr const char* kIdentifier = "^[A-Za-z_][A-Za-z0-9_]*$";
// "component.port"; the component may be "sub/part" inside a subsystem instance.
constexpr const char* kPortName = "^[^.\\s]+\\.[^.\\s]+$";
// "component.variable" or "component.port.variable", as `jourdain check` lists them.
constexpr const char* kVariableName = "^[^.\\s]+\\.\\S+$";

json ref(const std::string& def) { return {{"$ref", "#/$defs/" + def}}; }

// JSON has no infinity: a default of inf is written "inf", as a netlist may.
json plain(const json& v) {
  if (v.is_number_float() && std::isinf(v.get<double>())) return v.get<double>() > 0 ? "inf" : "-inf";
  if (v.is_array() || v.is_object()) {
    json out = v;
    for (auto& item : out) item = plain(item);
    return out;
  }
  return v;
}

std::string unit_words(const std::string& unit) { return unit.empty() ? "" : " [" + unit + "]"; }

json number_schema(const Range& r, bool integer) {
  json s = {{"type", integer ? "integer" : "number"}};
  if (std::isfinite(r.min)) s[r.min_inclusive ? "minimum" : "exclusiveMinimum"] = r.min;
  if (std::isfinite(r.max)) s[r.max_inclusive ? "maximum" : "exclusiveMaximum"] = r.max;
  return s;
}

// The value of one parameter, as the loader accepts it (Component::set_parameter), or a
// "$parameter" expression of a subsystem definition.
json parameter_value_schema(const ParamSpec& p) {
  json value;
  switch (p.kind) {
    case ParamKind::Real: value = quantity_schema(p.range); break;
    case ParamKind::Integer: value = number_schema(p.range, true); break;
    case ParamKind::Boolean: value = {{"type", "boolean"}}; break;
    case ParamKind::Text:
      value = {{"type", "string"}};
      if (!p.choices.empty()) value["enum"] = p.choices;
      break;
    case ParamKind::RealList: value = {{"type", "array"}, {"items", ref("quantity")}}; break;
    case ParamKind::Table: {
      const auto columns = p.column_units.size();
      json row = {{"type", "array"}, {"items", ref("quantity")}, {"minItems", columns}, {"maxItems", columns}};
      if (columns == 0) row = {{"type", "array"}, {"items", ref("quantity")}, {"minItems", 1}};  // a matrix
      value = {{"type", "array"}, {"minItems", 1}, {"items", row}};
      break;
    }
    case ParamKind::NamedVectors: {
      json vec = {{"type", "array"}, {"items", ref("quantity")}};
      if (p.vector_size > 0) vec["minItems"] = vec["maxItems"] = p.vector_size;
      value = {{"type", "object"}, {"propertyNames", {{"pattern", kComponentName}}}, {"additionalProperties", vec}};
      break;
    }
  }
  std::string text = p.description;
  if (p.kind == ParamKind::Table) {
    std::string columns;
    for (const auto& u : p.column_units) columns += (columns.empty() ? "" : ", ") + (u.empty() ? std::string("1") : u);
    text += p.column_units.empty() ? " (a matrix: rows of numbers, all of one length)" : " (rows of [" + columns + "])";
  } else {
    text += unit_words(p.unit);
  }
  if (const std::string r = range_words(p.range, p.unit); !r.empty()) text += ", " + r;
  text += p.default_value ? "" : "; required";
  text += p.numeric() ? "" : "; configuration (shapes the model)";
  json s = {{"anyOf", json::array({value, ref("expression")})}, {"description", text}};
  if (p.default_value) s["default"] = plain(*p.default_value);
  if (p.example) s["examples"] = json::array({plain(*p.example)});
  return s;
}

// What a type's descriptor says about its ports and variables, for the editor's hover.
std::string type_words(const ComponentType& type, const json& d) {
  std::string s = type.name + ": " + type.summary + ".";
  if (!d["ports"].empty()) {
    s += " Ports:";
    for (const auto& p : d["ports"])
      s += " " + p["name"].get<std::string>() + " (" + p["domain"].get<std::string>() + ", " +
           p["side"].get<std::string>() + " side" + (p["optional"].get<bool>() ? ", optional" : "") + ")";
    s += ".";
  }
  std::string vars;
  for (const char* key : {"states", "observables", "discrete_states"})
    for (const auto& v : d[key])
      vars += (vars.empty() ? "" : ", ") + v["name"].get<std::string>() + (v.contains("unit") ? " [" + v["unit"].get<std::string>() + "]" : "");
  if (!vars.empty()) s += " Recordable: " + vars + ".";
  if (d.contains("note")) s += " (" + d["note"].get<std::string>() + ")";
  return s;
}

// "params" and "initial" of a component of one type; applied when "type" names it.
json type_schema(const ComponentType& type, const Registry& registry) {
  const Probe probe = probe_instance(type);
  const Component& c = *probe.component;
  const json d = describe_type(type, &registry);
  const std::string words = type_words(type, d);

  json params = json::object(), required = json::array();
  bool shapes_model = false, open_parameters = false;
  for (const auto& p : c.parameter_specs()) {
    params[p.name] = parameter_value_schema(p);
    if (!p.default_value) required.push_back(p.name);
    shapes_model = shapes_model || !p.numeric();
    // Parameters that depend on a value (an FMU's, from its file) are the loader's to check.
    open_parameters = open_parameters || p.decides_parameters;
  }
  json params_schema = {{"type", "object"},
                        {"description", "parameters of " + words},
                        {"properties", params},
                        {"additionalProperties", !open_parameters ? json(false) : json(true)}};
  if (!required.empty()) params_schema["required"] = required;

  // States are fixed by the type unless configuration may change them (a sequencer's
  // states, an arm's joints): then names beyond the probe's are left to the loader.
  json states = json::object();
  for (const auto& s : c.states()) {
    states[s.name] = {{"anyOf", json::array({ref("quantity"), ref("expression")})},
                      {"description", s.description + unit_words(s.unit)}};
  }
  const bool fixed_states = probe.configured && !shapes_model;
  json initial = {{"type", "object"},
                  {"description", "initial values of the states of " + type.name},
                  {"properties", states},
                  {"additionalProperties", fixed_states ? json(false) : ref("initial_value")}};
  json then = {{"description", words}, {"properties", {{"params", params_schema}, {"initial", initial}}}};
  if (!required.empty()) then["required"] = json::array({"params"});
  return {{"if", {{"properties", {{"type", {{"const", type.name}}}}}, {"required", json::array({"type"})}}},
          {"then", then}};
}

// "layout": how an editor draws a level (netlists/README.md, "Layout"). The solver reads
// none of it; keys not named here are an editor's own and are allowed.
json layout_schema() {
  const json number = {{"type", "number"}};
  const json point = {{"type", "array"}, {"items", number}, {"minItems", 2}, {"maxItems", 2}};
  const json placement = {
      {"type", "object"},
      {"description", "where the component is drawn: its symbol's centre on the canvas, turned and mirrored"},
      {"properties",
       {{"x", number},
        {"y", {{"type", "number"}, {"description", "downwards, as on a screen"}}},
        {"rotation", {{"enum", json::array({0, 90, 180, 270})}, {"default", 0}, {"description", "degrees, clockwise"}}},
        {"flip", {{"enum", json::array({"none", "horizontal", "vertical"})}, {"default", "none"}}}}},
      {"required", json::array({"x", "y"})}};
  const json wire = {{"type", "object"},
                     {"description", "the route of a connection: its two ports (in either order) and the corners between"},
                     {"properties", {{"from", ref("port_name")}, {"to", ref("port_name")}, {"points", {{"type", "array"}, {"items", point}}}}},
                     {"required", json::array({"from", "to"})}};
  const json note = {{"type", "object"},
                     {"properties", {{"x", number}, {"y", number}, {"text", {{"type", "string"}}}}},
                     {"required", json::array({"x", "y", "text"})}};
  return {{"type", "object"},
          {"description", "how an editor draws this level; ignored by the solver, checked by `jourdain check` (warnings)"},
          {"properties",
           {{"canvas", {{"type", "object"},
                        {"properties", {{"width", number}, {"height", number}, {"grid", number}}}}},
            {"components", {{"type", "object"}, {"description", "component name → its placement"},
                            {"additionalProperties", placement}}},
            {"wires", {{"type", "array"}, {"items", wire}}},
            {"notes", {{"type", "array"}, {"items", note}}}}}};
}

json subsystem_definition_schema() {
  json parameter = {{"type", "object"},
                    {"properties",
                     {{"unit", {{"type", "string"}, {"description", "unit the value is converted to (SI), e.g. \"m\""}}},
                      {"default", {{"description", "value when an instance gives none"}}},
                      {"description", {{"type", "string"}}}}},
                    {"additionalProperties", false}};
  json port = {{"anyOf", json::array({ref("port_name"), {{"type", "array"}, {"minItems", 1}, {"items", ref("port_name")}}})},
               {"description", "the inner \"component.port\" (or several) this external port stands for"}};
  return {{"type", "object"},
          {"description", "a subsystem: components, connections and external ports, with parameters its "
                          "components' values may use as \"$name\" or in arithmetic (\"$L/2\")"},
          {"properties",
           {{"$schema", {{"type", "string"}}},
            {"name", {{"type", "string"}}},
            {"description", {{"type", "string"}}},
            {"parameters", {{"type", "object"}, {"propertyNames", {{"pattern", kIdentifier}}}, {"additionalProperties", parameter}}},
            {"ports", {{"type", "object"}, {"propertyNames", {{"pattern", kIdentifier}}}, {"additionalProperties", port}}},
            {"components", ref("components")},
            {"connections", ref("connections")},
            {"subsystems", ref("subsystems")},
            {"layout", ref("layout")}}},
          {"required", json::array({"components"})},
          {"additionalProperties", false}};
}

}  // namespace

std::string range_words(const Range& range, const std::string& unit) {
  if (std::isinf(range.min) && std::isinf(range.max)) return "";
  return "in " + range.to_string(unit);
}

json quantity_schema(const Range& range) {
  return {{"anyOf", json::array({number_schema(range, false), ref("quantity_text")})}};
}

json netlist_schema(const Registry& registry, const json& solver, const json& linear) {
  json defs = json::object();
  defs["quantity_text"] = {{"type", "string"},
                           {"pattern", kQuantityPattern},
                           {"description", "a number and a unit, e.g. \"250 bar\", \"100 L/min\", \"450 mm\""}};
  defs["quantity"] = quantity_schema(Range::any());
  defs["expression"] = {{"type", "string"},
                        {"pattern", "\\$"},
                        {"description", "inside a subsystem definition: \"$name\" (one of its parameters) or "
                                        "arithmetic over them (\"$L/$N\", + - * / ^, sqrt, sin, cos, pi)"}};
  defs["initial_value"] = {{"anyOf", json::array({ref("quantity"), ref("expression")})}};
  defs["port_name"] = {{"type", "string"}, {"pattern", kPortName}, {"description", "\"component.port\""}};
  defs["variable_name"] = {{"type", "string"},
                           {"pattern", kVariableName},
                           {"description", "\"component.variable\" (`jourdain describe TYPE` lists a type's "
                                           "variables, `jourdain check NETLIST` a netlist's)"}};
  defs["connections"] = {{"type", "array"},
                         {"description", "pairs of ports joined: [\"comp.port\", \"comp.port\"]"},
                         {"items", {{"type", "array"}, {"items", ref("port_name")}, {"minItems", 2}, {"maxItems", 2}}}};

  json names = json::array(), summaries = json::array(), rules = json::array();
  for (const ComponentType* t : registry.all()) {
    names.push_back(t->name);
    summaries.push_back(t->summary + (t->origin == "built-in" ? "" : " [" + t->origin + "]"));
    defs[t->name] = type_schema(*t, registry);
    rules.push_back(ref(t->name));
  }
  // A name without a dot is a subsystem type of the netlist (or of an enclosing one).
  json type = {{"anyOf", json::array({{{"enum", names}, {"enumDescriptions", summaries}},
                                      {{"type", "string"}, {"pattern", kIdentifier}, {"description", "a subsystem type"}}})},
               {"description", "a component type (`jourdain list`) or a subsystem type defined in \"subsystems\""}};
  defs["component"] = {{"type", "object"},
                       {"properties",
                        {{"type", type},
                         {"params", {{"type", "object"}}},
                         {"initial", {{"type", "object"}}},
                         {"description", {{"type", "string"}}}}},
                       {"required", json::array({"type"})},
                       {"additionalProperties", false},
                       {"allOf", rules}};
  defs["components"] = {{"type", "object"},
                        {"description", "component name → component (a name has no '.', '/' or space)"},
                        {"minProperties", 1},
                        {"propertyNames", {{"pattern", kComponentName}}},
                        {"additionalProperties", ref("component")}};
  defs["subsystem_definition"] = subsystem_definition_schema();
  defs["layout"] = layout_schema();
  defs["subsystems"] = {{"type", "object"},
                        {"description", "subsystem type name → its definition, or the path of a file holding it "
                                        "(relative to this file)"},
                        {"propertyNames", {{"pattern", kIdentifier}}},
                        {"additionalProperties", {{"anyOf", json::array({{{"type", "string"}}, ref("subsystem_definition")})}}}};

  json world = json::object();
  for (const auto& [name, setting] : registry.world_settings()) world[name] = {{"description", setting.description}};
  // "display": {"units": {quantity or "component.variable": unit}}; the loader checks
  // each unit's dimension, the schema offers the quantities and their everyday units.
  json display_units = {{"type", "object"},
                        {"description", "units report.html shows, by quantity or by variable (results.csv stays SI)"},
                        {"additionalProperties", {{"type", "string"}}}};
  for (const Quantity& q : quantities())
    display_units["properties"][q.name] = {{"type", "string"}, {"examples", q.everyday_units},
                                           {"description", "every " + q.name + " variable (SI: " + q.si_unit + ")"}};
  json analyses = json::array();
  for (Analysis a : {Analysis::Dynamic, Analysis::Kinematic, Analysis::Static}) analyses.push_back(to_string(a));
  analyses.push_back("linear");  // the solvers library's linear analysis ("linear" section)

  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"title", "Jourdain netlist"},
          {"description", "A Jourdain " JOURDAIN_VERSION " netlist, generated by `jourdain schema` from the component "
                          "types and solver methods registered (built-in and plugins)"},
          {"type", "object"},
          {"properties",
           {{"$schema", {{"type", "string"}, {"description", "this schema's location, for editors; ignored by Jourdain"}}},
            {"name", {{"type", "string"}, {"description", "the system's name (default: the file's stem)"}}},
            {"description", {{"type", "string"}}},
            {"analysis", {{"enum", analyses}, {"default", "dynamic"}, {"description", "what the run computes"}}},
            {"strict", {{"type", "boolean"}, {"default", false},
                        {"description", "fail a run that ends with an accuracy warning (results are kept)"}}},
            {"energy", {{"type", "boolean"}, {"default", false},
                        {"description", "keep an energy account: summary.json's \"energy\" says, per component and "
                                        "domain, the energy in, out, lost, supplied and stored, and the balance"}}},
            {"world", {{"type", "object"}, {"description", "settings the component libraries own"}, {"properties", world},
                       {"additionalProperties", false}}},
            {"plugins", {{"type", "array"}, {"items", {{"type", "string"}}},
                         {"description", "plugin shared libraries to load, relative to this file"}}},
            {"subsystems", ref("subsystems")},
            {"components", ref("components")},
            {"connections", ref("connections")},
            {"layout", ref("layout")},
            {"solver", solver},
            {"linear", linear.empty() ? json{{"type", "object"}} : linear},
            {"record", {{"type", "array"}, {"items", ref("variable_name")},
                        {"description", "variables to record (absent: the model's default set)"}}},
            {"display", {{"type", "object"},
                         {"description", "how report.html shows the recorded variables"},
                         {"properties", {{"units", display_units}}},
                         {"additionalProperties", false}}}}},
          {"required", json::array({"components"})},
          {"additionalProperties", false},
          {"$defs", defs}};
}

}  // namespace jourdain
