// The linear analysis's settings (linear.hpp): the netlist's "linear" object, the
// operating point as text, the frequency range, and their JSON Schema.
#include <cmath>
#include <optional>
#include <sstream>

#include "jourdain/solvers/linear.hpp"
#include "jourdain/units.hpp"

namespace jourdain {

using nlohmann::json;

void parse_operating_point(const std::string& text, LinearSettings& settings, const InputLocation& where) {
  if (text == "equilibrium") {
    settings.at = LinearSettings::At::Equilibrium;
    return;
  }
  if (text == "initial") {
    settings.at = LinearSettings::At::Initial;
    return;
  }
  double t = 0.0;
  try {
    t = parse_quantity(text, "s");
  } catch (const std::exception& e) {
    throw InputError(where, "operating point '" + text + "': expected \"equilibrium\", \"initial\" or a time (" +
                                e.what() + ")");
  }
  if (!std::isfinite(t)) throw InputError(where, "the operating point's time must be finite");
  settings.at = LinearSettings::At::Time;
  settings.time = t;
}

LinearSettings linear_settings_from_json(const json& section, const InputLocation& where) {
  LinearSettings s;
  if (!section.is_object()) throw InputError(where, "expected an object of linear-analysis settings");
  json_check::only_keys(section, {"at", "inputs", "outputs", "frequency"}, where);
  auto at = [&](const std::string& key) {
    InputLocation w = where;
    w.json_path = json_check::pointer(where.json_path, key);
    return w;
  };
  if (section.contains("at")) {
    const json& v = section["at"];
    if (v.is_number()) {
      s.at = LinearSettings::At::Time;
      s.time = v.get<double>();
    } else if (v.is_string()) {
      parse_operating_point(v.get<std::string>(), s, at("at"));
    } else {
      throw InputError(at("at"), "expected \"equilibrium\", \"initial\" or a time");
    }
  }
  for (const char* key : {"inputs", "outputs"}) {
    if (!section.contains(key)) continue;
    const json& list = section[key];
    if (!list.is_array()) throw InputError(at(key), "expected an array of names");
    auto& target = std::string(key) == "inputs" ? s.inputs : s.outputs;
    for (size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_string()) throw InputError(at(std::string(key) + "/" + std::to_string(i)), "expected a name");
      target.push_back(list[i].get<std::string>());
    }
  }
  if (section.contains("frequency")) {
    const json& f = section["frequency"];
    const InputLocation w = at("frequency");
    if (!f.is_object()) throw InputError(w, "expected {\"from\": ..., \"to\": ..., \"points\": ...}");
    json_check::only_keys(f, {"from", "to", "points"}, w);
    auto sub = [&](const char* key) {
      InputLocation k = w;
      k.json_path = json_check::pointer(w.json_path, key);
      return k;
    };
    if (f.contains("points")) {
      const json& p = f["points"];
      if (!p.is_number() || p.get<double>() != std::floor(p.get<double>()) || p.get<double>() < 2 ||
          p.get<double>() > 100000)
        throw InputError(sub("points"), "expected a whole number from 2 to 100000");
      s.frequency_points = static_cast<int>(p.get<double>());
    }
    std::optional<double> from, to;
    if (f.contains("from")) from = json_check::quantity(f["from"], "Hz", sub("from"));
    if (f.contains("to")) to = json_check::quantity(f["to"], "Hz", sub("to"));
    set_frequency_range(s, from, to, sub("from"), sub("to"));
  }
  return s;
}

void set_frequency_range(LinearSettings& settings, std::optional<double> from_hz, std::optional<double> to_hz,
                         const InputLocation& from_where, const InputLocation& to_where) {
  // A log-spaced range: 0, a negative or an infinite end has no place on it (inf wrote
  // rows of inf and NaN, 0 was silently made automatic).
  auto check = [](double v, const InputLocation& where, const char* end) {
    if (!std::isfinite(v) || v <= 0.0) {
      std::ostringstream msg;
      msg << "the " << end << " frequency must be positive and finite (got " << v
          << " Hz; the response is log-spaced)";
      throw InputError(where, msg.str());
    }
  };
  if (from_hz) check(*from_hz, from_where, "lowest");
  if (to_hz) check(*to_hz, to_where, "highest");
  const double from = from_hz.value_or(settings.frequency_from), to = to_hz.value_or(settings.frequency_to);
  if (from > 0 && to > 0 && !(to > from)) {
    std::ostringstream msg;
    msg << "the highest frequency (" << to << " Hz) must be above the lowest (" << from << " Hz)";
    throw InputError(to_hz ? to_where : from_where, msg.str());
  }
  settings.frequency_from = from;
  settings.frequency_to = to;
}

json linear_settings_schema() {
  auto described = [](json schema, const char* text) {
    schema["description"] = text;
    return schema;
  };
  const json name_list = {{"type", "array"}, {"items", {{"type", "string"}}}};
  const json quantity = {{"type", json::array({"number", "string"})}};
  return {{"type", "object"},
          {"description", "the linear analysis (\"analysis\": \"linear\", or `jourdain linearize`)"},
          {"properties",
           {{"at", {{"type", json::array({"number", "string"})},
                    {"description", "operating point: \"equilibrium\" (default), \"initial\", or a time (s, or a "
                                    "string with a unit) the netlist's solver integrates to"}}},
            {"inputs", described(name_list, "numeric parameters perturbed as inputs (\"component.parameter\")")},
            {"outputs", described(name_list, "recordable variables (\"component.variable\")")},
            {"frequency", {{"type", "object"},
                           {"description", "frequency response range (default: a decade around the modes)"},
                           {"properties", {{"from", quantity}, {"to", quantity}, {"points", {{"type", "integer"}}}}},
                           {"additionalProperties", false}}}}},
          {"additionalProperties", false}};
}

}  // namespace jourdain
