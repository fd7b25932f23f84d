// The binary of an FMU exported from a netlist: the FMI 2.0 Co-Simulation functions
// (jourdain/components/fmi2.hpp) over Jourdain's libraries, which are linked into the same
// shared object (apps/fmu/CMakeLists.txt). The netlist comes from the FMU's
// resources (export.hpp).
//
// One instance is one loaded model and one Context: instances share nothing, so any
// number may run at once, in any threads. fmi2DoStep(t, h) integrates the model from t to
// t + h with the netlist's solver method and settings (simulate(): events located and
// handled, algebraic loops solved, as in `jourdain run`); the integrator starts afresh at
// each step, which is what a step's new inputs (held constant over it) call for anyway.
// Inputs and tunable parameters are numeric parameters of the model (a signal.input's
// value), written straight into the Context. The state saved by fmi2GetFMUstate is a copy
// of the Context.
//
// No exception leaves this file: each function turns one into fmi2Error and a message
// through the importer's logger.
#include <algorithm>
#include <cmath>
#include <exception>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "jourdain/components/builtin.hpp"
#include "jourdain/components/fmi.hpp"
#include "jourdain/components/fmi2.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/session/trust.hpp"
#include "jourdain/solvers/simulate.hpp"
#include "jourdain/solvers/solver_registry.hpp"
#include "manifest.hpp"

namespace {

using namespace jourdain;
using jourdain::fmu::Manifest;
using jourdain::fmu::ManifestVariable;

// The states of an instance (FMI 2.0 section 4.2.5, Co-Simulation's state machine).
enum class Phase { Instantiated, Initialization, StepComplete, Terminated, Failed };

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::Instantiated: return "instantiated";
    case Phase::Initialization: return "initialization mode";
    case Phase::StepComplete: return "step complete";
    case Phase::Terminated: return "terminated";
    case Phase::Failed: return "error";
  }
  return "?";
}

struct Variable {
  ManifestVariable::Causality causality;
  std::string name;
  std::string target;
  int parameter = -1;                       // inputs, parameters: into Context::parameters
  const RecordableVariable* output = nullptr;  // outputs
};

// A copy of an instance's run (fmi2GetFMUstate).
struct SavedState {
  Context ctx;
  Phase phase;
  bool evaluated;
};

class EndOfStep final : public jourdain::Observer {
 public:
  void output(const Context&) override {}  // the importer reads the end of the step
};

struct Instance {
  std::string name;
  fmi2CallbackLogger logger = nullptr;
  fmi2ComponentEnvironment environment = nullptr;
  bool logging = false;
  std::set<std::string> categories;  // enabled by fmi2SetDebugLogging; empty: all
  Registry registry;
  Netlist netlist;
  SolverSettings netlist_settings;  // as the netlist gives them
  SolverSettings settings;          // with the experiment's tolerance
  std::vector<Variable> variables;  // by value reference
  Context ctx;
  Phase phase = Phase::Instantiated;
  bool evaluated = false;  // ctx reflects its present inputs and parameters

  void log(fmi2Status status, const char* category, const std::string& message) const {
    if (!logger) return;
    // Errors always; the rest when the importer asked for them.
    const bool wanted = status >= fmi2Error ||
                        (logging && (categories.empty() || categories.count(category) || categories.count("logAll")));
    if (wanted) logger(environment, name.c_str(), status, category, "%s", message.c_str());
  }
  void error(const std::string& function, const std::string& message) const {
    log(fmi2Error, "logStatusError", function + ": " + message);
  }
  // What the run reported since the last call: events and warnings, through the logger.
  // fmi2Warning when there were warnings.
  fmi2Status report() {
    for (const auto& e : ctx.events) log(fmi2OK, "logEvents", "t = " + std::to_string(e.time) + " s: " + e.component + ": " + e.description);
    for (const auto& w : ctx.warnings) log(fmi2Warning, "logStatusWarning", (w.accuracy() ? "not vouched for: " : "") + w.message);
    const bool warned = !ctx.warnings.empty();
    ctx.events.clear();
    ctx.warnings.clear();
    return warned ? fmi2Warning : fmi2OK;
  }
  // The model's values for its present inputs: a new start in initialization mode, a new
  // evaluation at (t, x) afterwards.
  void evaluate() {
    if (evaluated) return;
    if (phase == Phase::Initialization) netlist.model.initialize(ctx);
    else netlist.model.evaluate(ctx);
    evaluated = true;
  }
};

Instance* instance_of(fmi2Component c) { return static_cast<Instance*>(c); }

// Runs `body` on the instance, when it is in one of `allowed` phases; exceptions become
// fmi2Error with their message logged (a failed run leaves the instance in error).
template <class Body>
fmi2Status guarded(fmi2Component c, const char* function, std::initializer_list<Phase> allowed, Body&& body) {
  Instance* inst = instance_of(c);
  if (!inst) return fmi2Error;
  if (std::find(allowed.begin(), allowed.end(), inst->phase) == allowed.end()) {
    inst->error(function, std::string("not allowed in state '") + phase_name(inst->phase) + "'");
    return fmi2Error;
  }
  try {
    return body(*inst);
  } catch (const SimulationError& e) {
    inst->phase = Phase::Failed;
    inst->error(function, e.what());
  } catch (const std::exception& e) {
    inst->error(function, e.what());
  } catch (...) {
    inst->error(function, "an exception of unknown type");
  }
  return fmi2Error;
}

constexpr std::initializer_list<Phase> kAny = {Phase::Instantiated, Phase::Initialization, Phase::StepComplete,
                                                Phase::Terminated, Phase::Failed};

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The variables of value references vr[0..n), checked against what they may be.
template <class Check>
std::vector<Variable*> variables_of(Instance& inst, const fmi2ValueReference vr[], size_t n, Check&& check) {
  std::vector<Variable*> out;
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] >= inst.variables.size())
      throw std::runtime_error("no variable has value reference " + std::to_string(vr[k]));
    Variable& v = inst.variables[vr[k]];
    check(v);
    out.push_back(&v);
  }
  return out;
}

// Functions for variables of a type the FMU has none of.
fmi2Status no_variables_of(fmi2Component c, const char* function, const char* type, size_t n) {
  if (n == 0) return fmi2OK;
  if (Instance* inst = instance_of(c)) inst->error(function, std::string("the FMU has no ") + type + " variables");
  return fmi2Error;
}

fmi2Status unsupported(fmi2Component c, const char* function, const std::string& why) {
  if (Instance* inst = instance_of(c)) inst->error(function, why);
  return fmi2Error;
}

}  // namespace

extern "C" {

const char* fmi2GetTypesPlatform(void) { return "default"; }
const char* fmi2GetVersion(void) { return "2.0"; }

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                               const fmi2String categories[]) {
  return guarded(c, "fmi2SetDebugLogging", kAny, [&](Instance& inst) {
    static const std::set<std::string> known = {"logEvents", "logStatusWarning", "logStatusError", "logAll"};
    std::set<std::string> chosen;
    for (size_t k = 0; k < nCategories; ++k) {
      const std::string name = categories[k] ? categories[k] : "";
      if (!known.count(name)) throw std::runtime_error("unknown log category '" + name + "'");
      chosen.insert(name);
    }
    inst.logging = loggingOn != fmi2False;
    inst.categories = std::move(chosen);
    return fmi2OK;
  });
}

fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                              fmi2String fmuResourceLocation, const fmi2CallbackFunctions* functions,
                              fmi2Boolean /*visible*/, fmi2Boolean loggingOn) {
  auto inst = std::make_unique<Instance>();
  inst->name = instanceName ? instanceName : "";
  if (functions) {
    inst->logger = functions->logger;
    inst->environment = functions->componentEnvironment;
  }
  inst->logging = loggingOn != fmi2False;
  try {
    if (fmuType != fmi2CoSimulation) throw std::runtime_error("this FMU is for Co-Simulation only");
    if (!fmuResourceLocation) throw std::runtime_error("no resource location given");
    const std::filesystem::path resources = fmi::path_of_file_uri(fmuResourceLocation);
    const Manifest manifest =
        fmu::manifest_from_json(nlohmann::json::parse(read_text(resources / fmu::kManifestName)));
    if (!fmuGUID || manifest.guid != fmuGUID)
      throw std::runtime_error(std::string("GUID ") + (fmuGUID ? fmuGUID : "(none)") + " is not this FMU's (" +
                               manifest.guid + "): the modelDescription.xml read is another FMU's");
    register_builtin_components(inst->registry);
    // The netlist and the files packed with it (resources/model/): the importer chose to run
    // this FMU, and with it the FMUs it packs; its files are read from the FMU only.
    inst->netlist = load_netlist(resources / manifest.netlist, inst->registry,
                                 session::packed_files(resources / "model").overrides());
    const std::string file = inst->netlist.file.string();
    inst->netlist_settings = solver_settings_from_json(inst->netlist.solver, {file, "/solver", "", ""}, solvers(inst->registry));
    // A fixed-step method's default step follows the netlist's output interval, not the
    // communication step: the FMU steps as `jourdain run` does.
    SolverSettings& s = inst->netlist_settings;
    if (s.step == 0.0) s.step = (s.output_interval > 0.0 ? s.output_interval : (s.t_end - s.t_start) / 500.0) / 10.0;
    inst->settings = s;
    const Model& m = inst->netlist.model;
    for (const auto& v : manifest.variables) {
      Variable var{v.causality, v.name, v.target};
      if (v.causality == ManifestVariable::Causality::Output) var.output = &m.recordable(v.target);
      else var.parameter = m.parameter(v.target).index;
      inst->variables.push_back(std::move(var));
    }
    inst->ctx = m.make_context(s.t_start);
  } catch (const std::exception& e) {
    inst->error("fmi2Instantiate", e.what());
    return nullptr;
  }
  return inst.release();
}

void fmi2FreeInstance(fmi2Component c) { delete instance_of(c); }

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance, fmi2Real startTime,
                               fmi2Boolean /*stopTimeDefined*/, fmi2Real /*stopTime*/) {
  return guarded(c, "fmi2SetupExperiment", {Phase::Instantiated}, [&](Instance& inst) {
    // The importer's tolerance is the integrator's relative tolerance (FMI 2.0 section
    // 4.2.1); without one, the netlist's.
    inst.settings.rtol = toleranceDefined && tolerance > 0.0 ? tolerance : inst.netlist_settings.rtol;
    inst.ctx.t = startTime;
    return fmi2OK;
  });
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  return guarded(c, "fmi2EnterInitializationMode", {Phase::Instantiated}, [&](Instance& inst) {
    inst.phase = Phase::Initialization;
    inst.evaluated = false;
    return fmi2OK;
  });
}

fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  return guarded(c, "fmi2ExitInitializationMode", {Phase::Initialization}, [&](Instance& inst) {
    inst.evaluate();  // the model's start, for the inputs and parameters given
    inst.phase = Phase::StepComplete;
    return inst.report();
  });
}

fmi2Status fmi2Terminate(fmi2Component c) {
  return guarded(c, "fmi2Terminate", {Phase::Initialization, Phase::StepComplete}, [&](Instance& inst) {
    inst.phase = Phase::Terminated;
    return fmi2OK;
  });
}

fmi2Status fmi2Reset(fmi2Component c) {
  return guarded(c, "fmi2Reset", kAny, [&](Instance& inst) {
    inst.settings = inst.netlist_settings;
    inst.ctx = inst.netlist.model.make_context(inst.settings.t_start);
    inst.phase = Phase::Instantiated;
    inst.evaluated = false;
    return fmi2OK;
  });
}

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]) {
  return guarded(c, "fmi2GetReal", {Phase::Instantiated, Phase::Initialization, Phase::StepComplete, Phase::Terminated},
                 [&](Instance& inst) {
                   const auto vars = variables_of(inst, vr, nvr, [](const Variable&) {});
                   const bool outputs = std::any_of(vars.begin(), vars.end(), [](const Variable* v) { return v->output; });
                   if (outputs) {
                     if (inst.phase == Phase::Instantiated)
                       throw std::runtime_error("outputs are known from initialization mode on");
                     inst.evaluate();
                   }
                   for (size_t k = 0; k < vars.size(); ++k)
                     value[k] = vars[k]->output ? inst.netlist.model.value(inst.ctx, *vars[k]->output)
                                                : inst.ctx.parameters[vars[k]->parameter];
                   return fmi2OK;
                 });
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]) {
  return guarded(c, "fmi2SetReal", {Phase::Instantiated, Phase::Initialization, Phase::StepComplete},
                 [&](Instance& inst) {
                   const auto vars = variables_of(inst, vr, nvr, [](const Variable& v) {
                     if (v.output) throw std::runtime_error("'" + v.name + "' is an output: it cannot be set");
                   });
                   // Checked as a run's parameter is (its unit's range): nothing is set
                   // when one value is refused.
                   Context trial;
                   trial.parameters = inst.ctx.parameters;
                   for (size_t k = 0; k < vars.size(); ++k)
                     inst.netlist.model.set_parameter(trial, vars[k]->target, value[k]);
                   inst.ctx.parameters = std::move(trial.parameters);
                   inst.ctx.derived_outdated = true;
                   inst.evaluated = false;
                   return fmi2OK;
                 });
}

fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference[], size_t nvr, fmi2Integer[]) {
  return no_variables_of(c, "fmi2GetInteger", "Integer", nvr);
}
fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference[], size_t nvr, fmi2Boolean[]) {
  return no_variables_of(c, "fmi2GetBoolean", "Boolean", nvr);
}
fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference[], size_t nvr, fmi2String[]) {
  return no_variables_of(c, "fmi2GetString", "String", nvr);
}
fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference[], size_t nvr, const fmi2Integer[]) {
  return no_variables_of(c, "fmi2SetInteger", "Integer", nvr);
}
fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference[], size_t nvr, const fmi2Boolean[]) {
  return no_variables_of(c, "fmi2SetBoolean", "Boolean", nvr);
}
fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference[], size_t nvr, const fmi2String[]) {
  return no_variables_of(c, "fmi2SetString", "String", nvr);
}

fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate* state) {
  return guarded(c, "fmi2GetFMUstate", kAny, [&](Instance& inst) {
    auto saved = std::make_unique<SavedState>(SavedState{inst.ctx, inst.phase, inst.evaluated});
    if (saved->ctx.component_workspaces.uncopied() > 0)
      throw std::runtime_error("a part of the model (an FMU inside it) cannot save its state");
    if (state && *state) delete static_cast<SavedState*>(*state);  // the standard lets a state be overwritten
    *state = saved.release();
    return fmi2OK;
  });
}

fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state) {
  return guarded(c, "fmi2SetFMUstate", kAny, [&](Instance& inst) {
    if (!state) throw std::runtime_error("no state given");
    const auto& saved = *static_cast<const SavedState*>(state);
    Context ctx = saved.ctx;
    if (ctx.component_workspaces.uncopied() > 0)
      throw std::runtime_error("a part of the model (an FMU inside it) cannot restore its state");
    inst.ctx = std::move(ctx);
    inst.phase = saved.phase;
    inst.evaluated = saved.evaluated;
    return fmi2OK;
  });
}

fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate* state) {
  return guarded(c, "fmi2FreeFMUstate", kAny, [&](Instance&) {
    if (state) {
      delete static_cast<SavedState*>(*state);
      *state = nullptr;
    }
    return fmi2OK;
  });
}

fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate, size_t*) {
  return unsupported(c, "fmi2SerializedFMUstateSize", "canSerializeFMUstate is false");
}
fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate, fmi2Byte[], size_t) {
  return unsupported(c, "fmi2SerializeFMUstate", "canSerializeFMUstate is false");
}
fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte[], size_t, fmi2FMUstate*) {
  return unsupported(c, "fmi2DeSerializeFMUstate", "canSerializeFMUstate is false");
}
fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference[], size_t, const fmi2ValueReference[],
                                        size_t, const fmi2Real[], fmi2Real[]) {
  return unsupported(c, "fmi2GetDirectionalDerivative", "providesDirectionalDerivative is false");
}
fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference[], size_t, const fmi2Integer[],
                                       const fmi2Real[]) {
  return unsupported(c, "fmi2SetRealInputDerivatives", "canInterpolateInputs is false: inputs are held over a step");
}
fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference[], size_t, const fmi2Integer[],
                                        fmi2Real[]) {
  return unsupported(c, "fmi2GetRealOutputDerivatives", "maxOutputDerivativeOrder is 0");
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint, fmi2Real communicationStepSize,
                      fmi2Boolean /*noSetFMUStatePriorToCurrentPoint*/) {
  return guarded(c, "fmi2DoStep", {Phase::StepComplete}, [&](Instance& inst) {
    const double t = currentCommunicationPoint, h = communicationStepSize;
    if (!(h > 0.0) || !std::isfinite(h))
      throw std::runtime_error("the communication step must be positive and finite (got " + std::to_string(h) + ")");
    if (!std::isfinite(t)) throw std::runtime_error("the communication point must be finite (got " + std::to_string(t) + ")");
    // The importer's time and the FMU's agree to rounding (steps of variable size are
    // accepted; going back needs fmi2SetFMUstate). The run goes on from its own time, not
    // the importer's rounding of it: a jump of one rounding unit could land a zero-crossing
    // function (an event due exactly there) on zero, where no crossing is seen any more.
    if (std::abs(t - inst.ctx.t) > 1e-9 * std::max(1.0, std::abs(t)))
      throw std::runtime_error("the communication point " + std::to_string(t) + " s is not the FMU's time " +
                               std::to_string(inst.ctx.t) + " s");
    SolverSettings s = inst.settings;
    s.t_start = inst.ctx.t;
    s.t_end = std::max(t + h, inst.ctx.t);
    // A time event of the model (an FMU's communication point inside it) that the
    // importer's t + h misses by rounding (k h + h against t_0 + (k + 1) h) is this step's
    // end: met here, not a rounding unit into the next step, after the outputs were read.
    if (const double due = inst.netlist.model.next_time_event(inst.ctx);
        due > s.t_end && due - s.t_end <= 1e-12 * std::max(1.0, std::abs(s.t_end)))
      s.t_end = due;
    s.output_interval = s.t_end - s.t_start;
    EndOfStep observer;
    SolverStats stats;
    if (s.t_end > s.t_start) simulate(inst.netlist.model, inst.ctx, s, observer, stats, solvers(inst.registry));
    inst.netlist.model.evaluate(inst.ctx);
    inst.evaluated = true;
    return inst.report();
  });
}

fmi2Status fmi2CancelStep(fmi2Component c) {
  return unsupported(c, "fmi2CancelStep", "steps are synchronous (canRunAsynchronuously is false)");
}

fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind, fmi2Status*) {
  return unsupported(c, "fmi2GetStatus", "steps are synchronous: there is no pending step to ask about");
}
fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real* value) {
  return guarded(c, "fmi2GetRealStatus", kAny, [&](Instance& inst) {
    if (s != fmi2LastSuccessfulTime) throw std::runtime_error("only fmi2LastSuccessfulTime is a Real status");
    *value = inst.ctx.t;
    return fmi2OK;
  });
}
fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind, fmi2Integer*) {
  return unsupported(c, "fmi2GetIntegerStatus", "there is no Integer status");
}
fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean* value) {
  return guarded(c, "fmi2GetBooleanStatus", kAny, [&](Instance&) {
    if (s != fmi2Terminated) throw std::runtime_error("only fmi2Terminated is a Boolean status");
    *value = fmi2False;  // the model never asks to end the simulation
    return fmi2OK;
  });
}
fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind, fmi2String*) {
  return unsupported(c, "fmi2GetStringStatus", "there is no String status");
}

}  // extern "C"
