// Unpacking an FMU and loading its binary (fmu_binary.hpp).
#include "fmu_binary.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace jourdain::fmi {

FmuBinary::FmuBinary(const std::filesystem::path& fmu, const ModelDescription& md) : folder_("jourdain-fmu-") {
  const std::string entry = binary_entry(md.model_identifier);
  const auto entries = zip_entries(fmu);
  if (std::find(entries.begin(), entries.end(), entry) == entries.end()) {
    std::string platforms;
    for (const auto& e : entries)
      if (e.rfind("binaries/", 0) == 0 && e.size() > 9 && e.find('/', 9) != std::string::npos) {
        const std::string p = e.substr(9, e.find('/', 9) - 9);
        if (platforms.find(p) == std::string::npos) platforms += (platforms.empty() ? "" : ", ") + p;
      }
    throw FmuError("no binary for this platform (" + platform_folder() + "): the archive holds no '" + entry + "'" +
                   (platforms.empty() ? std::string(" and no binaries at all (a source-only FMU is not supported)")
                                      : "; it has binaries for: " + platforms));
  }
  extract_zip(fmu, folder_.path());
  std::filesystem::create_directories(folder_.path() / "resources");
  resource_uri_ = file_uri(folder_.path() / "resources");

  // RTLD_LOCAL: the FMU's symbols stay its own, whatever another FMU (or this program)
  // defines under the same names.
  const std::filesystem::path library = folder_.path() / entry;
  handle_ = {dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL), dlclose};
  if (!handle_) throw FmuError(std::string("its binary cannot be loaded: ") + dlerror());
  auto find = [&](auto& slot, const char* name, bool required) {
    void* symbol = dlsym(handle_.get(), name);
    if (!symbol && required) throw FmuError(std::string("its binary has no function ") + name);
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(symbol);
  };
  Functions& f = functions_;
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
  find(f.get_fmu_state, "fmi2GetFMUstate", md.can_get_and_set_fmu_state);
  find(f.set_fmu_state, "fmi2SetFMUstate", md.can_get_and_set_fmu_state);
  find(f.free_fmu_state, "fmi2FreeFMUstate", md.can_get_and_set_fmu_state);
  if (const char* version = f.get_version(); !version || std::strcmp(version, "2.0") != 0)
    throw FmuError(std::string("its binary reports FMI version '") + (version ? version : "(none)") + "', not 2.0");
  if (const char* platform = f.get_types_platform(); !platform || std::strcmp(platform, "default") != 0)
    throw FmuError(std::string("its binary uses the types platform '") + (platform ? platform : "(none)") +
                   "', not \"default\"");
}

}  // namespace jourdain::fmi
