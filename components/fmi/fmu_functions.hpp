// The functions of the FMI 2.0 Co-Simulation interface an importer calls, and how they are
// found in a loaded binary: shared by the component (fmu_binary.cpp) and the program that
// runs an FMU in a process of its own (fmu_host.cpp). Internal to components/fmi.
#pragma once

#include <dlfcn.h>

#include <cstring>
#include <string>
#include <type_traits>

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

// Looks the functions up in a library opened with dlopen and checks the version and types
// platform it reports. `with_state`: the FMU says canGetAndSetFMUstate, so the state
// functions are required. Throws FmuError naming what is missing or wrong.
inline Functions find_functions(void* library, bool with_state) {
  auto find = [&](auto& slot, const char* name, bool required) {
    void* symbol = dlsym(library, name);
    if (!symbol && required) throw FmuError(std::string("its binary has no function ") + name);
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(symbol);
  };
  Functions f;
  find(f.get_version, "fmi2GetVersion", true);
  find(f.get_types_platform, "fmi2GetTypesPlatform", true);
  find(f.instantiate, "fmi2Instantiate", true);
  find(f.free_instance, "fmi2FreeInstance", true);
  find(f.setup_experiment, "fmi2SetupExperiment", true);
  find(f.enter_initialization_mode, "fmi2EnterInitializationMode", true);
  find(f.exit_initialization_mode, "fmi2ExitInitializationMode", true);
  find(f.terminate, "fmi2Terminate", true);
  find(f.get_real, "fmi2GetReal", true);
  find(f.get_integer, "fmi2GetInteger", true);
  find(f.get_boolean, "fmi2GetBoolean", true);
  find(f.set_real, "fmi2SetReal", true);
  find(f.set_integer, "fmi2SetInteger", true);
  find(f.set_boolean, "fmi2SetBoolean", true);
  find(f.set_string, "fmi2SetString", true);
  find(f.do_step, "fmi2DoStep", true);
  find(f.get_boolean_status, "fmi2GetBooleanStatus", false);
  find(f.get_real_status, "fmi2GetRealStatus", false);
  find(f.get_fmu_state, "fmi2GetFMUstate", with_state);
  find(f.set_fmu_state, "fmi2SetFMUstate", with_state);
  find(f.free_fmu_state, "fmi2FreeFMUstate", with_state);
  if (const char* version = f.get_version(); !version || std::strcmp(version, "2.0") != 0)
    throw FmuError(std::string("its binary reports FMI version '") + (version ? version : "(none)") + "', not 2.0");
  if (const char* platform = f.get_types_platform(); !platform || std::strcmp(platform, "default") != 0)
    throw FmuError(std::string("its binary uses the types platform '") + (platform ? platform : "(none)") +
                   "', not \"default\"");
  return f;
}

}  // namespace jourdain::fmi
