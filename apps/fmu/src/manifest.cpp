// resources/jourdain.json of an exported FMU (manifest.hpp).
#include "manifest.hpp"

#include <stdexcept>

namespace jourdain::fmu {

const char* to_string(ManifestVariable::Causality c) {
  switch (c) {
    case ManifestVariable::Causality::Input: return "input";
    case ManifestVariable::Causality::Parameter: return "parameter";
    case ManifestVariable::Causality::Output: return "output";
  }
  return "?";
}

nlohmann::json to_json(const Manifest& m) {
  nlohmann::json variables = nlohmann::json::array();
  for (const auto& v : m.variables)
    variables.push_back({{"value_reference", v.value_reference},
                         {"name", v.name},
                         {"causality", to_string(v.causality)},
                         {"target", v.target}});
  return {{"guid", m.guid}, {"netlist", m.netlist}, {"variables", variables}};
}

Manifest manifest_from_json(const nlohmann::json& j) {
  Manifest m;
  m.guid = j.at("guid").get<std::string>();
  m.netlist = j.at("netlist").get<std::string>();
  for (const auto& v : j.at("variables")) {
    ManifestVariable var;
    var.value_reference = v.at("value_reference").get<unsigned int>();
    var.name = v.at("name").get<std::string>();
    var.target = v.at("target").get<std::string>();
    const std::string c = v.at("causality").get<std::string>();
    if (c == "input") var.causality = ManifestVariable::Causality::Input;
    else if (c == "parameter") var.causality = ManifestVariable::Causality::Parameter;
    else if (c == "output") var.causality = ManifestVariable::Causality::Output;
    else throw std::runtime_error("unknown causality '" + c + "' of variable '" + var.name + "'");
    if (var.value_reference != m.variables.size())
      throw std::runtime_error("value references are not numbered 0, 1, 2, ... in order");
    m.variables.push_back(std::move(var));
  }
  return m;
}

}  // namespace jourdain::fmu
