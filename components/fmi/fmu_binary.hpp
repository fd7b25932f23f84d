// An FMU unpacked and its binary loaded: the functions of the FMI 2.0 Co-Simulation
// interface, looked up by name (jourdain/components/fmi2.hpp). Internal to components/fmi.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "jourdain/components/fmi.hpp"
#include "jourdain/components/fmi2.hpp"

namespace jourdain::fmi {

// The functions an importer of a Co-Simulation FMU calls (each the standard's signature).
struct Functions {
  decltype(&fmi2GetVersion) get_version = nullptr;
  decltype(&fmi2GetTypesPlatform) get_types_platform = nullptr;
  decltype(&fmi2Instantiate) instantiate = nullptr;
  decltype(&fmi2FreeInstance) free_instance = nullptr;
  decltype(&fmi2SetupExperiment) setup_experiment = nullptr;
  decltype(&fmi2EnterInitializationMode) enter_initialization_mode = nullptr;
  decltype(&fmi2ExitInitializationMode) exit_initialization_mode = nullptr;
  decltype(&fmi2Terminate) terminate = nullptr;
  decltype(&fmi2GetReal) get_real = nullptr;
  decltype(&fmi2GetInteger) get_integer = nullptr;
  decltype(&fmi2GetBoolean) get_boolean = nullptr;
  decltype(&fmi2SetReal) set_real = nullptr;
  decltype(&fmi2SetInteger) set_integer = nullptr;
  decltype(&fmi2SetBoolean) set_boolean = nullptr;
  decltype(&fmi2SetString) set_string = nullptr;
  decltype(&fmi2DoStep) do_step = nullptr;
  // Asked after fmi2DoStep returns fmi2Discard (whether the FMU wants to end, and where it
  // got to); optional, as some FMUs leave them out.
  decltype(&fmi2GetBooleanStatus) get_boolean_status = nullptr;
  decltype(&fmi2GetRealStatus) get_real_status = nullptr;
  // Only when the FMU says canGetAndSetFMUstate (copies of a run's context).
  decltype(&fmi2GetFMUstate) get_fmu_state = nullptr;
  decltype(&fmi2SetFMUstate) set_fmu_state = nullptr;
  decltype(&fmi2FreeFMUstate) free_fmu_state = nullptr;
};

// The unpacked archive (a temporary folder, removed with this object) and its binary for
// this platform, opened with dlopen (closed with this object). Immutable once made: the
// instances of every run share it.
class FmuBinary {
 public:
  // Unpacks `fmu` (whose modelDescription.xml says `md`) and loads its binary. Throws
  // FmuError naming what is missing (the binary for this platform, a function) or cannot
  // be loaded.
  FmuBinary(const std::filesystem::path& fmu, const ModelDescription& md);
  FmuBinary(const FmuBinary&) = delete;
  FmuBinary& operator=(const FmuBinary&) = delete;

  const Functions& functions() const { return functions_; }
  // The resources folder as the URI fmi2Instantiate takes.
  const std::string& resource_uri() const { return resource_uri_; }

 private:
  TemporaryFolder folder_;                                // removed after the library is closed
  std::unique_ptr<void, int (*)(void*)> handle_{nullptr, nullptr};  // dlopen's, closed by dlclose
  Functions functions_;
  std::string resource_uri_;
};

}  // namespace jourdain::fmi
