// Exporting a netlist as an FMI 2.0 Co-Simulation FMU (`jourdain export-fmu`; README.md,
// "Co-simulation with FMI"). The FMU is a zip archive holding
//   modelDescription.xml                  its variables, units and capabilities;
//   binaries/linux64/<id>.so              the FMU's binary: Jourdain's libraries and the
//                                         FMI functions (apps/fmu/src/runtime.cpp),
//                                         linked statically, needing glibc and nothing else;
//   resources/jourdain.json               value references -> the model's names;
//   resources/model/...                   the netlist and every file it reads (subsystems,
//                                         nested FMUs), in their relative places.
// Each instance of the FMU loads the netlist into a model of its own and runs it in a
// Context of its own: fmi2DoStep integrates it over the step with the netlist's solver,
// events and algebraic loops as in `jourdain run`.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "jourdain/netlist.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::fmu {

struct ExportOptions {
  std::filesystem::path output;  // the .fmu file to write
  // The FMU's inputs: signal.input components by name (the variable takes the component's
  // name and unit), or numeric parameters "comp.param" (held between steps, like any input).
  // Empty: every signal.input of the netlist.
  std::vector<std::string> inputs;
  // Its outputs: signal.output components by name, or recordable variables "comp.var".
  // Empty: every signal.output of the netlist.
  std::vector<std::string> outputs;
  // Its tunable parameters: numeric parameters "comp.param"; "all" for every one not
  // already an input. Empty: none.
  std::vector<std::string> parameters;
  // The FMU binary to pack: the jourdain_fmu module built beside the command line.
  std::filesystem::path runtime;
  // The model identifier (the binary's name, a C identifier); empty: from the netlist's name.
  std::string model_identifier;
  // How the netlist is loaded (the user's consent to plugins and FMUs, library folders, ...).
  NetlistOverrides load = {};
  // Asked before the archive is put in place (a Ctrl-C during the export): true ends it
  // with nothing written, the file at `output` untouched (ExportResult::stopped).
  std::function<bool()> stop_requested;
};

// What was written.
struct ExportResult {
  std::string model_identifier;
  std::string guid;
  int inputs = 0, outputs = 0, parameters = 0;
  bool can_get_and_set_state = false;
  std::vector<std::filesystem::path> packed;  // the files put in resources/model/, as read
  bool stopped = false;  // stop_requested ended the export: nothing was written
};

// Loads the netlist (its plugins would be refused: a plugin links against Jourdain's
// shared libraries, which the FMU does not carry), checks the names asked for, starts the
// model once (its initialization must succeed: SimulationError otherwise) and writes the
// FMU. Throws InputError for bad names or options, naming the netlist and the option.
ExportResult export_fmu(const std::filesystem::path& netlist, Registry& registry, const ExportOptions& options);

}  // namespace jourdain::fmu
