// Component descriptors (descriptor.hpp).
#include "jourdain/descriptor.hpp"

#include <cmath>
#include <sstream>

#include "jourdain/errors.hpp"

namespace jourdain {

nlohmann::json describe_type(const ComponentType& type) {
  using nlohmann::json;
  auto c = type.create();
  c->set_identity(type.name, type.name);
  std::string configured_note;
  try {
    c->finish_configuration();
  } catch (const InputError& e) {
    // Required parameters have no default: configure a second instance with example
    // values so that its ports can still be shown.
    c = type.create();
    c->set_identity(type.name, type.name);
    try {
      for (const auto& p : c->parameter_specs()) {
        if (p.default_value) continue;
        nlohmann::json example;
        switch (p.kind) {
          case ParamKind::Real: example = std::isfinite(p.range.min) ? p.range.min + 1.0 : 1.0; break;
          case ParamKind::Integer: example = std::isfinite(p.range.min) ? static_cast<long>(p.range.min) + 1 : 1; break;
          case ParamKind::Boolean: example = false; break;
          case ParamKind::Text: example = p.choices.empty() ? std::string("x") : p.choices.front(); break;
          case ParamKind::RealList: example = nlohmann::json::array({1.0}); break;
          case ParamKind::NamedVectors:
            example = {{"p", std::vector<double>(std::max(p.vector_size, 1), 0.0)}};
            break;
          case ParamKind::Table: {
            example = nlohmann::json::array();
            for (int row = 0; row < 2; ++row) example.push_back(std::vector<double>(p.column_units.size(), row));
            break;
          }
        }
        c->set_parameter(p.name, example);
      }
      c->finish_configuration();
      configured_note = "ports shown for example values of the required parameters";
    } catch (const InputError&) {
      configured_note = "ports depend on required parameters (" + e.message() + ")";
    }
  }
  json params = json::array();
  for (const auto& p : c->parameter_specs()) {
    json j = {{"name", p.name},
              {"kind", to_string(p.kind)},
              {"role", p.numeric() ? "numeric" : "configuration"},
              {"description", p.description}};
    if (!p.unit.empty()) j["unit"] = p.unit;
    if (!p.column_units.empty()) j["column_units"] = p.column_units;
    if (p.default_value) {
      // JSON has no infinity (nlohmann writes null): say "inf" / "-inf", as a netlist may.
      const auto& d = *p.default_value;
      j["default"] = d.is_number() && std::isinf(d.get<double>()) ? nlohmann::json(d.get<double>() > 0 ? "inf" : "-inf") : d;
    }
    else j["required"] = true;
    if (!std::isinf(p.range.min) || !std::isinf(p.range.max)) j["range"] = p.range.to_string(p.unit);
    if (!p.choices.empty()) j["choices"] = p.choices;
    params.push_back(j);
  }
  json ports = json::array();
  for (const auto& p : c->ports()) {
    json outs = json::array(), ins = json::array();
    for (const auto* v : p.domain->outputs(p.side))
      outs.push_back({{"name", v->name}, {"unit", v->unit.empty() ? p.unit : v->unit}, {"description", v->description}});
    for (const auto* v : p.domain->inputs(p.side)) ins.push_back({{"name", v->name}, {"unit", v->unit}, {"description", v->description}});
    json j = {{"name", p.name},       {"domain", p.domain->name}, {"side", to_string(p.side)},
              {"description", p.description}, {"outputs", outs},  {"inputs", ins},
              {"optional", p.optional}};
    if (!p.depends_on_all_inputs) {
      json deps = json::array();
      for (PortId d : p.depends_on) deps.push_back(c->ports()[d.index].name);
      j["direct_feedthrough_from"] = deps;
    }
    ports.push_back(j);
  }
  auto named = [](const auto& list) {
    json a = json::array();
    for (const auto& s : list) {
      json j = {{"name", s.name}, {"description", s.description}};
      if (!s.unit.empty()) j["unit"] = s.unit;
      a.push_back(j);
    }
    return a;
  };
  json out = {{"type", type.name},          {"summary", type.summary},       {"origin", type.origin},
              {"parameters", params},       {"ports", ports},                {"states", named(c->states())},
              {"discrete_states", named(c->discrete_states())}, {"observables", named(c->observables())},
              {"algebraic_unknowns", named(c->unknowns())},     {"zero_crossings", named(c->zero_crossings())}};
  if (!configured_note.empty()) out["note"] = configured_note;
  return out;
}

std::string describe_type_text(const ComponentType& type) {
  nlohmann::json d = describe_type(type);
  std::ostringstream out;
  out << d["type"].get<std::string>() << " - " << d["summary"].get<std::string>() << "\n";
  out << "  from: " << d["origin"].get<std::string>() << "\n";
  if (d.contains("note")) out << "  note: " << d["note"].get<std::string>() << "\n";
  out << "\nParameters:\n";
  if (d["parameters"].empty()) out << "  (none)\n";
  for (const auto& p : d["parameters"]) {
    out << "  " << p["name"].get<std::string>() << " (" << p["kind"].get<std::string>();
    if (p.contains("unit") && !p["unit"].get<std::string>().empty()) out << ", " << p["unit"].get<std::string>();
    out << ")";
    if (p.contains("default")) out << " = " << p["default"].dump();
    else out << " REQUIRED";
    if (p.contains("range")) out << "  range " << p["range"].get<std::string>();
    if (p.contains("choices")) out << "  one of " << p["choices"].dump();
    // Numeric parameters can be changed per run; configuration shapes the model.
    if (p.value("role", "") == "configuration") out << "  [configuration]";
    out << "\n      " << p["description"].get<std::string>() << "\n";
  }
  out << "\nPorts:\n";
  if (d["ports"].empty()) out << "  (none)\n";
  for (const auto& p : d["ports"]) {
    out << "  " << p["name"].get<std::string>() << "  [" << p["domain"].get<std::string>() << ", "
        << p["side"].get<std::string>() << " side" << (p["optional"].get<bool>() ? ", optional" : "") << "]  "
        << p["description"].get<std::string>() << "\n";
    auto vars = [&](const char* key, const char* label) {
      if (p[key].empty()) return;
      out << "      " << label << ":";
      for (const auto& v : p[key])
        out << " " << v["name"].get<std::string>() << (v["unit"].get<std::string>().empty() ? "" : " [" + v["unit"].get<std::string>() + "]");
      out << "\n";
    };
    vars("outputs", "out");
    vars("inputs", "in ");
    if (p.contains("direct_feedthrough_from")) {
      out << "      outputs read directly: " << (p["direct_feedthrough_from"].empty() ? std::string("nothing (state only)") : p["direct_feedthrough_from"].dump()) << "\n";
    }
  }
  auto section = [&](const char* key, const char* title) {
    if (d[key].empty()) return;
    out << "\n" << title << ":\n";
    for (const auto& s : d[key]) {
      out << "  " << s["name"].get<std::string>();
      if (s.contains("unit")) out << " [" << s["unit"].get<std::string>() << "]";
      out << "  " << s["description"].get<std::string>() << "\n";
    }
  };
  section("states", "States (initial values via the netlist's \"initial\")");
  section("observables", "Recordable variables");
  section("discrete_states", "Discrete states");
  section("algebraic_unknowns", "Algebraic unknowns");
  section("zero_crossings", "Events (zero crossings)");
  return out.str();
}

}  // namespace jourdain
