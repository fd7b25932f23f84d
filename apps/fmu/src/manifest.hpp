// What an FMU exported from a netlist carries beside the netlist: resources/jourdain.json,
// written by `jourdain export-fmu` (export.cpp) and read by the FMU's binary when an
// instance is made (runtime.cpp). It names the netlist and maps each value reference of
// modelDescription.xml to what it stands for in the model.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jourdain::fmu {

// Where the manifest is, inside the FMU's resources folder.
inline constexpr const char* kManifestName = "jourdain.json";

struct ManifestVariable {
  enum class Causality { Input, Parameter, Output };
  unsigned int value_reference = 0;
  std::string name;    // the FMI variable's name
  Causality causality = Causality::Output;
  std::string target;  // inputs, parameters: a numeric parameter "comp.param"; outputs: a recordable variable
};

struct Manifest {
  std::string guid;
  std::string netlist;  // relative to the resources folder
  std::vector<ManifestVariable> variables;  // value reference k is variables[k]
};

nlohmann::json to_json(const Manifest& m);
// Throws nlohmann::json::exception or std::runtime_error for a manifest it cannot read.
Manifest manifest_from_json(const nlohmann::json& j);
const char* to_string(ManifestVariable::Causality c);

}  // namespace jourdain::fmu
