// A minimal FMI 2.0 Co-Simulation importer for the tests, written against the standard
// only (jourdain/components/fmi2.hpp, which declares its C interface): it loads an
// unpacked FMU's binary with dlopen and calls it in the standard's order (FMI 2.0,
// section 4.2.4): fmi2Instantiate, fmi2SetupExperiment, fmi2EnterInitializationMode,
// fmi2ExitInitializationMode, fmi2DoStep ..., fmi2Terminate, fmi2FreeInstance.
// Header-only and free of Jourdain's libraries, so that a program made of it alone
// (fmu_standalone_run.cpp) shows the FMU runs with nothing of Jourdain beside it.
#pragma once

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "jourdain/components/fmi2.hpp"

namespace fmi_test {

// The binary of an unpacked FMU: binaries/linux64/<model identifier>.so under `folder`.
class Binary {
 public:
  Binary(const std::filesystem::path& folder, const std::string& model_identifier) : folder_(folder) {
    const auto library = folder / "binaries" / "linux64" / (model_identifier + ".so");
    handle_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw std::runtime_error(std::string("dlopen: ") + dlerror());
    load(instantiate, "fmi2Instantiate");
    load(free_instance, "fmi2FreeInstance");
    load(setup_experiment, "fmi2SetupExperiment");
    load(enter_initialization_mode, "fmi2EnterInitializationMode");
    load(exit_initialization_mode, "fmi2ExitInitializationMode");
    load(terminate, "fmi2Terminate");
    load(reset, "fmi2Reset");
    load(get_real, "fmi2GetReal");
    load(get_integer, "fmi2GetInteger");
    load(get_real_status, "fmi2GetRealStatus");
    load(set_real, "fmi2SetReal");
    load(do_step, "fmi2DoStep");
    load(get_fmu_state, "fmi2GetFMUstate");
    load(set_fmu_state, "fmi2SetFMUstate");
    load(free_fmu_state, "fmi2FreeFMUstate");
    load(serialized_size, "fmi2SerializedFMUstateSize");
    load(set_debug_logging, "fmi2SetDebugLogging");
    load(get_version, "fmi2GetVersion");
    load(get_types_platform, "fmi2GetTypesPlatform");
  }
  ~Binary() { dlclose(handle_); }
  Binary(const Binary&) = delete;
  Binary& operator=(const Binary&) = delete;

  // The resources folder as a file URI (the test folders need no percent-encoding).
  std::string resource_uri() const { return "file://" + std::filesystem::absolute(folder_ / "resources").string(); }

  decltype(&fmi2Instantiate) instantiate = nullptr;
  decltype(&fmi2FreeInstance) free_instance = nullptr;
  decltype(&fmi2SetupExperiment) setup_experiment = nullptr;
  decltype(&fmi2EnterInitializationMode) enter_initialization_mode = nullptr;
  decltype(&fmi2ExitInitializationMode) exit_initialization_mode = nullptr;
  decltype(&fmi2Terminate) terminate = nullptr;
  decltype(&fmi2Reset) reset = nullptr;
  decltype(&fmi2GetReal) get_real = nullptr;
  decltype(&fmi2GetInteger) get_integer = nullptr;
  decltype(&fmi2GetRealStatus) get_real_status = nullptr;
  decltype(&fmi2SetReal) set_real = nullptr;
  decltype(&fmi2DoStep) do_step = nullptr;
  decltype(&fmi2GetFMUstate) get_fmu_state = nullptr;
  decltype(&fmi2SetFMUstate) set_fmu_state = nullptr;
  decltype(&fmi2FreeFMUstate) free_fmu_state = nullptr;
  decltype(&fmi2SerializedFMUstateSize) serialized_size = nullptr;
  decltype(&fmi2SetDebugLogging) set_debug_logging = nullptr;
  decltype(&fmi2GetVersion) get_version = nullptr;
  decltype(&fmi2GetTypesPlatform) get_types_platform = nullptr;

 private:
  template <class F>
  void load(F& slot, const char* name) {
    slot = reinterpret_cast<F>(dlsym(handle_, name));
    if (!slot) throw std::runtime_error(std::string("the FMU's binary has no ") + name);
  }
  std::filesystem::path folder_;
  void* handle_ = nullptr;
};

// What the FMU logged: status, category, message.
struct Message {
  fmi2Status status;
  std::string category;
  std::string text;
};

// One instance, freed (after fmi2Terminate once initialized) when the object goes.
class Instance {
 public:
  Instance(const Binary& binary, const std::string& name, const std::string& guid, bool logging = false)
      : b_(binary), callbacks_{&Instance::logger, &std::calloc, &std::free, nullptr, this} {
    c_ = b_.instantiate(name.c_str(), fmi2CoSimulation, guid.c_str(), b_.resource_uri().c_str(), &callbacks_,
                        fmi2False, logging ? fmi2True : fmi2False);
  }
  ~Instance() {
    if (!c_) return;
    if (initialized_) b_.terminate(c_);
    b_.free_instance(c_);
  }
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  bool valid() const { return c_ != nullptr; }
  fmi2Component handle() const { return c_; }
  const Binary& binary() const { return b_; }

  // setup experiment, enter and exit initialization mode, with `inputs` (value reference,
  // value) set in initialization mode.
  fmi2Status start(double t0, const std::vector<std::pair<fmi2ValueReference, double>>& inputs = {}) {
    fmi2Status s = b_.setup_experiment(c_, fmi2False, 0.0, t0, fmi2False, 0.0);
    if (s != fmi2OK) return s;
    if ((s = b_.enter_initialization_mode(c_)) != fmi2OK) return s;
    for (const auto& [vr, v] : inputs)
      if ((s = set(vr, v)) != fmi2OK) return s;
    s = b_.exit_initialization_mode(c_);
    initialized_ = s <= fmi2Warning;
    return s;
  }
  fmi2Status set(fmi2ValueReference vr, double value) { return b_.set_real(c_, &vr, 1, &value); }
  double get(fmi2ValueReference vr) {
    double v = 0.0;
    if (b_.get_real(c_, &vr, 1, &v) > fmi2Warning) throw std::runtime_error("fmi2GetReal failed");
    return v;
  }
  fmi2Status step(double t, double h) { return b_.do_step(c_, t, h, fmi2True); }

  std::vector<Message> messages;

 private:
  static void logger(fmi2ComponentEnvironment env, fmi2String, fmi2Status status, fmi2String category,
                     fmi2String message, ...) {
    va_list args;
    va_start(args, message);
    char text[4096];
    std::vsnprintf(text, sizeof text, message, args);
    va_end(args);
    static_cast<Instance*>(env)->messages.push_back({status, category ? category : "", text});
  }

  const Binary& b_;
  fmi2CallbackFunctions callbacks_;
  fmi2Component c_ = nullptr;
  bool initialized_ = false;
};

}  // namespace fmi_test
