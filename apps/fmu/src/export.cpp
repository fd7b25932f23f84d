// Writing an FMI 2.0 Co-Simulation FMU from a netlist (jourdain/fmu/export.hpp).
#include "jourdain/fmu/export.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "jourdain/components/fmi.hpp"
#include "jourdain/solvers/simulate.hpp"
#include "jourdain/solvers/solver_registry.hpp"
#include "jourdain/units.hpp"
#include "jourdain/version.hpp"
#include "manifest.hpp"

namespace jourdain::fmu {

namespace {

// A variable of the FMU as modelDescription.xml describes it.
struct Variable {
  ManifestVariable manifest;
  std::string unit;  // SI, as Jourdain writes it; "" dimensionless
  std::optional<double> start;
  std::string description;
};

bool is_c_identifier(const std::string& s) {
  return !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_') &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// The model identifier names the FMU's binary (binaries/linux64/<id>.so) and prefixes its
// functions: a C identifier, short enough for a file name anywhere.
constexpr size_t kMaxIdentifier = 64;

std::string c_identifier(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "model_" + out;
  return out.substr(0, kMaxIdentifier);
}

// Text for an XML attribute: XML 1.0 has no control characters but tab, newline and
// carriage return (a netlist's name may hold any), so the others become spaces; the
// writer escapes the rest.
std::string xml_text(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == '\x7f') c = ' ';
  return out;
}

std::string read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// FNV-1a (Fowler, Noll, Vo), 64 bits: a stable fingerprint of the FMU's content, so that
// the same netlist exported twice gets the same GUID and a changed one another.
std::uint64_t fnv1a(const std::string& text, std::uint64_t hash) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string guid_of(const std::string& content) {
  const std::uint64_t a = fnv1a(content, 0xcbf29ce484222325ULL), b = fnv1a(content, 0x84222325cbf29ce4ULL);
  char text[40];
  std::snprintf(text, sizeof text, "{%08x-%04x-%04x-%04x-%012llx}", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xffff),
                static_cast<unsigned>(b >> 48), static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return text;
}

// The exponent of rad in a unit expression ("rad/s": 1), which Jourdain's dimensions leave
// out (an angle is a ratio) and FMI's BaseUnit keeps. As units.hpp reads it: '/' divides
// by the factor after it only.
int radian_exponent(const std::string& unit) {
  int total = 0;
  bool divide = false;
  size_t i = 0;
  while (i < unit.size()) {
    if (unit[i] == '/' || unit[i] == '*' || unit[i] == '.' || unit[i] == ' ') {
      divide = unit[i] == '/';
      ++i;
      continue;
    }
    std::string symbol;
    while (i < unit.size() && std::isalpha(static_cast<unsigned char>(unit[i]))) symbol += unit[i++];
    if (i < unit.size() && unit[i] == '^') ++i;
    const char* digits = unit.c_str() + i;
    char* end = nullptr;
    const long power = std::strtol(digits, &end, 10);
    i = end == digits ? i + (symbol.empty() ? 1 : 0) : static_cast<size_t>(end - unit.c_str());
    if (symbol == "rad") total += static_cast<int>((divide ? -1 : 1) * (end == digits ? 1 : power));
  }
  return total;
}

std::string number_text(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

std::string model_description(const Netlist& net, const std::string& id, const std::string& guid,
                              const std::vector<Variable>& variables, const SolverSettings& settings,
                              bool can_get_and_set_state) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  pugi::xml_node root = doc.append_child("fmiModelDescription");
  root.append_attribute("fmiVersion") = "2.0";
  root.append_attribute("modelName") = xml_text(net.name).c_str();
  root.append_attribute("guid") = guid.c_str();
  if (!net.description.empty()) root.append_attribute("description") = xml_text(net.description).c_str();
  root.append_attribute("generationTool") = "Jourdain " JOURDAIN_VERSION;
  root.append_attribute("variableNamingConvention") = "flat";

  // Capabilities (FMI 2.0 section 4.3.1): steps of any size, no input interpolation and no
  // output derivatives (inputs are held over a step), one instance no bother to another,
  // and the state saved and restored when the model's run state can be copied (a Context
  // copy; an imported FMU inside that cannot save its own state prevents it). Serializing
  // a state to bytes is not offered.
  pugi::xml_node cs = root.append_child("CoSimulation");
  cs.append_attribute("modelIdentifier") = id.c_str();
  cs.append_attribute("needsExecutionTool") = "false";
  cs.append_attribute("canHandleVariableCommunicationStepSize") = "true";
  cs.append_attribute("canInterpolateInputs") = "false";
  cs.append_attribute("maxOutputDerivativeOrder") = "0";
  cs.append_attribute("canRunAsynchronuously") = "false";
  cs.append_attribute("canBeInstantiatedOnlyOncePerProcess") = "false";
  cs.append_attribute("canNotUseMemoryManagementFunctions") = "true";
  cs.append_attribute("canGetAndSetFMUstate") = can_get_and_set_state ? "true" : "false";
  cs.append_attribute("canSerializeFMUstate") = "false";
  cs.append_attribute("providesDirectionalDerivative") = "false";

  // Every unit used, defined by its SI base units (2.2.2).
  std::set<std::string> units;
  for (const auto& v : variables)
    if (!v.unit.empty()) units.insert(v.unit);
  if (!units.empty()) {
    pugi::xml_node defs = root.append_child("UnitDefinitions");
    for (const std::string& name : units) {
      pugi::xml_node unit = defs.append_child("Unit");
      unit.append_attribute("name") = name.c_str();
      const Unit u = parse_unit(name);
      pugi::xml_node base = unit.append_child("BaseUnit");
      static const char* symbols[] = {"m", "kg", "s", "A", "K", "mol", "cd"};
      for (int k = 0; k < 7; ++k)
        if (u.dimension.exponent[k] != 0) base.append_attribute(symbols[k]) = u.dimension.exponent[k];
      if (const int rad = radian_exponent(name); rad != 0) base.append_attribute("rad") = rad;
      if (u.scale != 1.0) base.append_attribute("factor") = number_text(u.scale).c_str();
      if (u.offset != 0.0) base.append_attribute("offset") = number_text(u.offset).c_str();
    }
  }

  pugi::xml_node categories = root.append_child("LogCategories");
  const std::pair<const char*, const char*> logged[] = {
      {"logEvents", "the model's discrete events (a valve closing, a step, a state machine's transition)"},
      {"logStatusWarning", "warnings of the run (fmi2Warning)"},
      {"logStatusError", "errors: bad values, a run that cannot go on (fmi2Error); always reported"},
      {"logAll", "every message"}};
  for (const auto& [name, text] : logged) {
    pugi::xml_node c = categories.append_child("Category");
    c.append_attribute("name") = name;
    c.append_attribute("description") = text;
  }

  pugi::xml_node experiment = root.append_child("DefaultExperiment");
  experiment.append_attribute("startTime") = number_text(settings.t_start).c_str();
  experiment.append_attribute("stopTime") = number_text(settings.t_end).c_str();
  experiment.append_attribute("tolerance") = number_text(settings.rtol).c_str();
  const double interval =
      settings.output_interval > 0.0 ? settings.output_interval : (settings.t_end - settings.t_start) / 500.0;
  experiment.append_attribute("stepSize") = number_text(interval).c_str();

  // Variables (2.2.7): inputs are continuous with a start value; parameters tunable
  // (a new value takes effect at the next step) with initial="exact"; outputs continuous,
  // calculated.
  pugi::xml_node list = root.append_child("ModelVariables");
  std::vector<size_t> outputs;
  for (size_t k = 0; k < variables.size(); ++k) {
    const Variable& v = variables[k];
    pugi::xml_node sv = list.append_child("ScalarVariable");
    sv.append_attribute("name") = v.manifest.name.c_str();
    sv.append_attribute("valueReference") = v.manifest.value_reference;
    if (!v.description.empty()) sv.append_attribute("description") = xml_text(v.description).c_str();
    sv.append_attribute("causality") = to_string(v.manifest.causality);
    using C = ManifestVariable::Causality;
    sv.append_attribute("variability") = v.manifest.causality == C::Parameter ? "tunable" : "continuous";
    if (v.manifest.causality == C::Parameter) sv.append_attribute("initial") = "exact";
    if (v.manifest.causality == C::Output) {
      sv.append_attribute("initial") = "calculated";
      outputs.push_back(k + 1);  // ModelStructure counts from 1
    }
    pugi::xml_node real = sv.append_child("Real");
    if (v.start) real.append_attribute("start") = number_text(*v.start).c_str();
    if (!v.unit.empty()) real.append_attribute("unit") = v.unit.c_str();
  }
  // Every output may depend on every input (no dependencies attribute): the netlist's
  // structure is not declared.
  pugi::xml_node structure = root.append_child("ModelStructure");
  pugi::xml_node outs = structure.append_child("Outputs");
  pugi::xml_node initial = structure.append_child("InitialUnknowns");
  for (size_t index : outputs) {
    outs.append_child("Unknown").append_attribute("index") = static_cast<unsigned>(index);
    initial.append_child("Unknown").append_attribute("index") = static_cast<unsigned>(index);
  }
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

// The deepest folder holding every file.
std::filesystem::path common_folder(const std::vector<std::filesystem::path>& files) {
  std::filesystem::path common = files.front().parent_path();
  for (const auto& f : files) {
    std::filesystem::path folder = f.parent_path();
    std::filesystem::path shared;
    auto a = common.begin(), b = folder.begin();
    for (; a != common.end() && b != folder.end() && *a == *b; ++a, ++b) shared /= *a;
    common = shared;
  }
  return common;
}

}  // namespace

ExportResult export_fmu(const std::filesystem::path& netlist_file, Registry& registry, const ExportOptions& options) {
  const std::string file = netlist_file.string();
  auto bad = [&](const std::string& option, const std::string& message) {
    throw InputError({file, option, "", ""}, message);
  };
  Netlist net = load_netlist(netlist_file, registry, options.load);
  if (net.document.contains("plugins") && !net.document["plugins"].empty())
    bad("/plugins", "a netlist with plugins cannot be exported yet: a plugin is a shared library built against "
                    "Jourdain's shared libraries, which the FMU does not carry (it holds its own copy inside)");
  if (net.linear_analysis || net.analysis != Analysis::Dynamic)
    bad("/analysis", "only a dynamic netlist can be exported as an FMU (fmi2DoStep integrates it)");
  const Model& m = net.model;
  const SolverSettings settings =
      solver_settings_from_json(net.solver, {file, "/solver", "", ""}, solvers(registry));

  std::vector<Variable> variables;
  std::set<std::string> names, input_targets;
  auto add = [&](ManifestVariable::Causality causality, const std::string& name, const std::string& target,
                 const std::string& unit, std::optional<double> start, std::string description,
                 const std::string& option) {
    if (!names.insert(name).second) bad(option, "the FMU would have two variables named '" + name + "'");
    Variable v{{static_cast<unsigned>(variables.size()), name, causality, target}, unit, start, std::move(description)};
    variables.push_back(std::move(v));
  };
  auto of_type = [&](const std::string& type) {
    std::vector<std::string> found;
    for (const auto& c : m.components())
      if (c->type_name() == type) found.push_back(c->name());
    return found;
  };
  auto located = [&](const InputError& e, const std::string& option) {
    return InputError({file, option, e.where().component, ""}, e.message());
  };
  // What a numeric parameter "comp.param" is, in its component's words.
  auto described = [&](const ParameterInfo& p) {
    const Component& c = *m.components()[p.component];
    const std::string name = p.name.substr(p.name.rfind('.') + 1);
    for (const auto& spec : c.parameter_specs())
      if (spec.name == name && !spec.description.empty()) return spec.description + " (" + p.name + ")";
    return "parameter " + p.name + " of the netlist";
  };

  // Inputs: signal.input components, or numeric parameters.
  for (const std::string& name : options.inputs.empty() ? of_type("signal.input") : options.inputs) {
    const std::string option = "--inputs " + name;
    const Component* c = m.find_component(name);
    const bool component = c && c->type_name() == "signal.input";
    if (!component && name.find('.') == std::string::npos)
      bad(option, "'" + name + "' is neither a signal.input component nor a numeric parameter \"component.parameter\"");
    const std::string target = component ? name + ".value" : name;
    try {
      const ParameterInfo& p = m.parameter(target);
      add(ManifestVariable::Causality::Input, name, target, p.unit, p.default_value,
          component ? "external input '" + name + "'" : described(p) + ", held over each step", option);
      input_targets.insert(target);
    } catch (const InputError& e) {
      throw located(e, option);
    }
  }
  // Parameters.
  std::vector<std::string> parameters = options.parameters;
  if (parameters.size() == 1 && parameters.front() == "all") {
    parameters.clear();
    for (const auto& p : m.parameters())
      if (!input_targets.count(p.name)) parameters.push_back(p.name);
  }
  for (const std::string& name : parameters) {
    const std::string option = "--parameters " + name;
    try {
      const ParameterInfo& p = m.parameter(name);
      if (input_targets.count(name)) bad(option, "'" + name + "' is an input already");
      add(ManifestVariable::Causality::Parameter, name, name, p.unit, p.default_value, described(p), option);
    } catch (const InputError& e) {
      if (!e.where().json_path.empty()) throw;  // located already (by bad())
      throw located(e, option);
    }
  }
  // Outputs: signal.output components, or recordable variables. By default the netlist's
  // declared outputs, its signal.output components, as other exporters take a model's
  // output connectors; a netlist that declares none, its record list: the variables its
  // author chose to look at.
  std::vector<std::string> outputs = options.outputs;
  if (outputs.empty()) outputs = of_type("signal.output");
  if (outputs.empty()) outputs = net.record;
  for (const std::string& name : outputs) {
    const std::string option = "--outputs " + name;
    const Component* c = m.find_component(name);
    const bool component = c && c->type_name() == "signal.output";
    const std::string target = component ? name + ".value" : name;
    try {
      const RecordableVariable& r = m.recordable(target);
      add(ManifestVariable::Causality::Output, name, target, r.unit, std::nullopt,
          component ? "external output '" + name + "'" : target + " of the netlist", option);
    } catch (const InputError& e) {
      throw located(e, option);
    }
  }
  if (std::none_of(variables.begin(), variables.end(),
                   [](const Variable& v) { return v.manifest.causality == ManifestVariable::Causality::Output; }))
    bad("--outputs", "the FMU would have no outputs: name them with --outputs (recordable variables "
                     "\"component.variable\") or add signal.output components to the netlist");

  // Start the model once, as an instance will: a model that cannot start is no FMU worth
  // writing, and whether its run state can be copied decides canGetAndSetFMUstate.
  Context probe = m.make_context(settings.t_start);
  m.initialize(probe);
  const Context copy = probe;
  const bool can_copy = copy.component_workspaces.uncopied() == 0;

  const std::string id = options.model_identifier.empty() ? c_identifier(net.name) : options.model_identifier;
  if (!is_c_identifier(id)) bad("--model-identifier", "'" + id + "' is not a C identifier (letters, digits, '_')");
  if (id.size() > kMaxIdentifier)
    bad("--model-identifier", "longer than " + std::to_string(kMaxIdentifier) +
                                  " characters: it names the FMU's binary file, which every importer must unpack");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(options.runtime, ec))
    throw InputError({options.runtime.string(), "", "", ""},
                     "the FMU binary (jourdain_fmu.so, built with the command line) is not there");

  // The netlist and the files it reads, where they are relative to each other.
  std::vector<std::filesystem::path> files{std::filesystem::canonical(netlist_file)};
  for (const auto& f : net.files) {
    const std::filesystem::path p = std::filesystem::canonical(f, ec);
    if (!ec && std::find(files.begin(), files.end(), p) == files.end()) files.push_back(p);
  }
  // The archive must not be written over what it packs (the netlist itself, a subsystem
  // or an FMU inside it): the packed copy would be a half-written copy of the archive.
  if (const auto output = std::filesystem::weakly_canonical(std::filesystem::absolute(options.output), ec); !ec)
    for (const auto& f : files)
      if (f == output)
        throw InputError({options.output.string(), "-o", "", ""},
                         f == files.front() ? "the output is the netlist itself: writing the FMU there would destroy "
                                              "it; choose another file name"
                                            : "the output is '" + f.string() + "', a file the FMU packs (the netlist "
                                              "reads it): writing the FMU there would destroy it; choose another "
                                              "file name");
  const std::filesystem::path root = common_folder(files);
  Manifest manifest;
  manifest.netlist = "model/" + files.front().lexically_relative(root).generic_string();
  for (const auto& v : variables) manifest.variables.push_back(v.manifest);
  std::string fingerprint = to_json(manifest).dump();
  for (const auto& f : files) fingerprint += f.lexically_relative(root).generic_string() + read_bytes(f);
  manifest.guid = guid_of(fingerprint);

  ExportResult result{id, manifest.guid, 0, 0, 0, can_copy, {}};
  for (const auto& v : variables) {
    using C = ManifestVariable::Causality;
    (v.manifest.causality == C::Input ? result.inputs : v.manifest.causality == C::Output ? result.outputs : result.parameters)++;
  }
  try {
    fmi::ZipWriter zip(options.output);
    zip.add("modelDescription.xml", model_description(net, id, manifest.guid, variables, settings, can_copy));
    zip.add_file(fmi::binary_entry(id), options.runtime, /*fast=*/true);  // megabytes: speed over a few percent
    zip.add(std::string("resources/") + kManifestName, to_json(manifest).dump(2) + "\n");
    for (const auto& f : files) {
      zip.add_file("resources/model/" + f.lexically_relative(root).generic_string(), f);
      result.packed.push_back(f);
    }
    // Stopped now: the archive is abandoned (ZipWriter removes its own partial file), what
    // was at the output stays.
    if (options.stop_requested && options.stop_requested()) {
      result.stopped = true;
      return result;
    }
    zip.close();
  } catch (const fmi::FmuError& e) {
    throw InputError({options.output.string(), "", "", ""}, e.what());
  }
  return result;
}

}  // namespace jourdain::fmu
