// Component descriptors (descriptor.hpp).
#include "jourdain/descriptor.hpp"

#include <cctype>
#include <cmath>
#include <sstream>

#include "jourdain/errors.hpp"

namespace jourdain {

namespace {

// A value inside a required parameter's range, for a probe instance of a type that gave
// no example for it.
nlohmann::json value_in_range(const ParamSpec& p) {
  switch (p.kind) {
    case ParamKind::Real: return std::isfinite(p.range.min) ? p.range.min + 1.0 : 1.0;
    case ParamKind::Integer: return std::isfinite(p.range.min) ? static_cast<long>(p.range.min) + 1 : 1L;
    case ParamKind::Boolean: return false;
    case ParamKind::Text: return p.choices.empty() ? std::string("x") : p.choices.front();
    case ParamKind::RealList: return nlohmann::json::array({1.0});
    case ParamKind::NamedVectors: return {{"p", std::vector<double>(std::max(p.vector_size, 1), 0.0)}};
    case ParamKind::Table: {
      nlohmann::json rows = nlohmann::json::array();
      for (int row = 0; row < 2; ++row) rows.push_back(std::vector<double>(p.column_units.size(), row));
      return rows;
    }
  }
  return nullptr;
}

std::unique_ptr<Component> fresh(const ComponentType& type) {
  auto c = type.create();
  c->set_identity(type.name, type.name);
  return c;
}

// One port as the descriptor shows it; `owner` declared it.
nlohmann::json describe_port(const Component& owner, const PortSpec& p) {
  using nlohmann::json;
  json outs = json::array(), ins = json::array();
  for (const auto* v : p.domain->outputs(p.side))
    outs.push_back({{"name", v->name}, {"unit", p.output_unit(*v)}, {"description", v->description}});
  for (const auto* v : p.domain->inputs(p.side)) ins.push_back({{"name", v->name}, {"unit", v->unit}, {"description", v->description}});
  json j = {{"name", p.name},       {"domain", p.domain->name}, {"side", to_string(p.side)},
            {"description", p.description}, {"outputs", outs},  {"inputs", ins},
            {"optional", p.optional}};
  if (!p.depends_on_all_inputs) {
    json deps = json::array();
    for (PortId d : p.depends_on) deps.push_back(owner.ports()[d.index].name);
    j["direct_feedthrough_from"] = deps;
  }
  return j;
}

// A composite's ports are those of its parts (Component::expansion): each external port
// described as the first inner port it stands for, found by building that part.
nlohmann::json composite_ports(const nlohmann::json& expansion, const Registry& registry) {
  nlohmann::json out = nlohmann::json::array();
  if (!expansion.contains("ports") || !expansion["ports"].is_object()) return out;
  for (const auto& [name, inner] : expansion["ports"].items()) {
    const nlohmann::json first = inner.is_array() ? inner.at(0) : inner;
    const std::string dotted = first.get<std::string>();
    const std::string part = dotted.substr(0, dotted.find('.')), port = dotted.substr(dotted.find('.') + 1);
    const nlohmann::json& spec = expansion.at("components").at(part);
    const ComponentType* t = registry.find(spec.at("type").get<std::string>());
    if (!t) continue;
    auto c = fresh(*t);
    if (spec.contains("params"))
      for (const auto& [k, v] : spec["params"].items()) c->set_parameter(k, v);
    c->finish_configuration(World{}, Component::Purpose::Describe);
    const PortId id = c->find_port(port);
    if (!id.valid()) continue;
    nlohmann::json j = describe_port(*c, c->ports()[id.index]);
    j["name"] = name;
    j["description"] = c->ports()[id.index].description + " (port " + port + " of part '" + part + "', a " + t->name + ")";
    out.push_back(j);
  }
  return out;
}

}  // namespace

nlohmann::json describe_ports(const Component& component) {
  nlohmann::json ports = nlohmann::json::array();
  for (const auto& p : component.ports()) ports.push_back(describe_port(component, p));
  return ports;
}

Probe probe_instance(const ComponentType& type, const nlohmann::json& values) {
  Probe probe{fresh(type), false, ""};
  if (values.is_object() && !values.empty()) {
    // An instance for given values (a file's component): what goes wrong is the caller's
    // to report. Parameters that decide others first, as the netlist loader sets them.
    for (const bool deciding : {true, false}) {
      for (const auto& [name, value] : values.items())
        if (probe.component->decides_parameters(name) == deciding) probe.component->set_parameter(name, value);
      if (deciding) probe.component->declare_dependents();
    }
    // A required parameter the values leave out (an FMU without a default step) gets a
    // value from its range, as a type described alone does: the ports do not wait for it.
    std::string used;
    for (const auto& p : probe.component->parameter_specs()) {
      if (values.contains(p.name) || p.default_value) continue;
      const nlohmann::json value = p.example ? *p.example : value_in_range(p);
      probe.component->set_parameter(p.name, value);
      used += (used.empty() ? "" : ", ") + p.name + " = " + value.dump();
    }
    probe.component->finish_configuration(World{}, Component::Purpose::Describe);
    probe.configured = true;
    if (!used.empty()) probe.note = "ports and variables shown for " + used + " (no default: a netlist must give it)";
    return probe;
  }
  std::string used;
  try {
    for (const auto& p : probe.component->parameter_specs()) {
      if (!p.example && p.default_value) continue;
      const nlohmann::json value = p.example ? *p.example : value_in_range(p);
      probe.component->set_parameter(p.name, value);
      used += (used.empty() ? "" : ", ") + p.name + " = " + value.dump();
    }
    probe.component->finish_configuration(World{}, Component::Purpose::Describe);
    probe.configured = true;
    if (!used.empty()) probe.note = "ports and variables shown for " + used;
  } catch (const InputError& e) {
    // Keep what the failed instance declared (its parameters), and say why.
    probe.note = "ports and variables depend on parameters that need values (" + e.message() + ")";
  }
  return probe;
}

nlohmann::json describe_type(const ComponentType& type, const Registry* registry, const nlohmann::json& values) {
  using nlohmann::json;
  Probe probe = probe_instance(type, values);
  const Component* c = probe.component.get();
  const std::string configured_note = probe.note;
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
  json ports = describe_ports(*c);
  if (registry && probe.configured) {
    if (const json expansion = c->expansion(); !expansion.is_null()) {
      try {
        ports = composite_ports(expansion, *registry);
      } catch (const std::exception&) {
        // A part that cannot be built alone: show the composite's own declarations.
      }
    }
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

std::string describe_type_text(const ComponentType& type, const Registry* registry, const nlohmann::json& values) {
  nlohmann::json d = describe_type(type, registry, values);
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
    // A file's component (an FMU) gives its own texts, which need not be UTF-8: shown with
    // U+FFFD as `describe --json` shows them, not thrown at the user as an internal error.
    if (p.contains("default")) out << " = " << p["default"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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

namespace {

// Text in a Markdown table cell: '|' would end the cell, a new line the row.
std::string cell(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|') out += "\\|";
    else if (ch == '\n') out += ' ';
    else out += ch;
  }
  return out;
}

std::string code(const std::string& text) { return "`" + text + "`"; }

std::string with_unit(const nlohmann::json& v) {
  const std::string unit = v.value("unit", "");
  return code(v["name"].get<std::string>()) + (unit.empty() ? "" : " [" + unit + "]");
}

// One type's section of the reference.
void type_markdown(std::ostringstream& out, const nlohmann::json& d) {
  using nlohmann::json;
  const std::string name = d["type"].get<std::string>();
  out << "## " << name << "\n\n" << d["summary"].get<std::string>() << ".\n\n";
  if (d["origin"].get<std::string>() != "built-in") out << "From the plugin " << code(d["origin"].get<std::string>()) << ".\n\n";
  if (d.contains("note")) {
    std::string note = d["note"].get<std::string>();
    note[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(note[0])));
    out << "*" << note << ".*\n\n";
  }

  out << "**Ports**";
  if (d["ports"].empty()) {
    out << ": none.\n\n";
  } else {
    out << "\n\n| port | domain | side | outputs | inputs | description |\n|---|---|---|---|---|---|\n";
    for (const auto& p : d["ports"]) {
      auto vars = [&](const char* key) {
        std::string s;
        for (const auto& v : p[key]) s += (s.empty() ? "" : ", ") + with_unit(v);
        return s.empty() ? std::string("—") : s;
      };
      out << "| " << code(p["name"].get<std::string>()) << " | " << p["domain"].get<std::string>() << " | "
          << p["side"].get<std::string>() << (p["optional"].get<bool>() ? " (optional)" : "") << " | " << vars("outputs")
          << " | " << vars("inputs") << " | " << cell(p["description"].get<std::string>()) << " |\n";
    }
    out << "\n";
  }

  out << "**Parameters**";
  if (d["parameters"].empty()) {
    out << ": none.\n\n";
  } else {
    out << "\n\n| name | kind | unit | default | range | description |\n|---|---|---|---|---|---|\n";
    for (const auto& p : d["parameters"]) {
      std::string unit = p.value("unit", "");
      if (p.contains("column_units")) {
        unit.clear();
        for (const auto& u : p["column_units"]) unit += (unit.empty() ? "" : ", ") + (u.get<std::string>().empty() ? std::string("1") : u.get<std::string>());
        unit = "[" + unit + "]";
      }
      std::string kind = p["kind"].get<std::string>();
      if (p.contains("choices")) {
        kind += ": ";
        for (size_t i = 0; i < p["choices"].size(); ++i) kind += (i ? ", " : "") + code(p["choices"][i].get<std::string>());
      }
      const std::string dflt = p.contains("default") ? code(p["default"].dump()) : std::string("**required**");
      std::string description = p["description"].get<std::string>();
      if (p.value("role", "") == "configuration") description += " *(configuration)*";
      out << "| " << code(p["name"].get<std::string>()) << " | " << cell(kind) << " | " << cell(unit) << " | "
          << cell(dflt) << " | " << cell(p.value("range", "")) << " | " << cell(description) << " |\n";
    }
    out << "\n";
  }

  auto listing = [&](const char* key, const std::string& title) {
    if (d[key].empty()) return;
    out << "**" << title << "**\n\n| name | unit | description |\n|---|---|---|\n";
    for (const auto& v : d[key])
      out << "| " << code(v["name"].get<std::string>()) << " | " << cell(v.value("unit", "")) << " | "
          << cell(v["description"].get<std::string>()) << " |\n";
    out << "\n";
  };
  listing("states", "States (recordable; start values in the netlist's \"initial\")");
  listing("observables", "Recordable variables");
  listing("discrete_states", "Discrete states (recordable)");
  listing("algebraic_unknowns", "Algebraic unknowns");
  listing("zero_crossings", "Events (zero crossings)");
}

// The anchor GitHub and most renderers give a heading: lower case, '.' dropped.
std::string anchor(const std::string& heading) {
  std::string a;
  for (char ch : heading)
    if (ch != '.') a += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return a;
}

}  // namespace

std::string reference_markdown(const Registry& registry, const std::string& how_made) {
  std::ostringstream out;
  out << "<!-- Generated by `" << how_made << "`: do not edit; change the components' declarations and run it again. -->\n"
      << "# Component reference\n\n"
      << "Every component type, from its descriptor (what `jourdain describe TYPE` prints). Values in a netlist are SI "
         "unless written with a unit (\"250 bar\"); ranges are in the unit shown. A variable is recorded as "
         "\"component.name\" (\"component.port.variable\" for a port's output). Numeric parameters can change between "
         "runs of one model; *configuration* parameters shape the model (its ports, states or tables).\n\n"
      << "Generated with: `" << how_made << "`\n\n";
  // A contents line per library (the part of the name before the first dot).
  std::string library;
  for (const ComponentType* t : registry.all()) {
    const std::string lib = t->name.substr(0, t->name.find('.'));
    if (lib != library) out << (library.empty() ? "" : "\n") << "- **" << lib << "**:", library = lib;
    else out << ",";
    out << " [" << t->name.substr(t->name.find('.') + 1) << "](#" << anchor(t->name) << ")";
  }
  out << "\n\n";
  for (const ComponentType* t : registry.all()) type_markdown(out, describe_type(*t, &registry));
  std::string text = out.str();
  while (text.size() > 1 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n') text.pop_back();
  return text;
}

}  // namespace jourdain
