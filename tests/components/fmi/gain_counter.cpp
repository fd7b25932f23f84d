// gain_counter: a small FMI 2.0 Co-Simulation FMU written for the tests, as another tool
// would make one (gain_counter.xml describes it): its input u is in mm and its output y in
// bar (y = gain u while the Boolean input enable holds, else y keeps its value), it counts
// its steps (an Integer output), carries a String parameter and a String output, and on
// request fails (fmi2Error), warns or ends the simulation (fmi2Discard, fmi2Terminated) at a
// given step; and misbehaves as some FMUs do, at a given step: crashes (SIGSEGV), calls
// exit(0) or hangs. It links nothing of Jourdain. Like
// many tools' FMUs it keeps state in its binary, a count of the instances alive, which
// tells whether two instances share one loaded copy of it.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "jourdain/components/fmi2.hpp"

namespace {

// Loading the binary runs code before any FMI function is called, as a library's
// constructors do: with GAIN_COUNTER_LOAD_TRACE set, it writes that file, which tells a
// test whether the binary was loaded at all (`jourdain describe` must not load it).
struct LoadTrace {
  LoadTrace() {
    if (const char* file = std::getenv("GAIN_COUNTER_LOAD_TRACE"))
      if (std::FILE* f = std::fopen(file, "w")) std::fclose(f);
  }
} load_trace;

int instances_alive = 0;  // in this loaded copy of the binary

struct Unit {
  Unit(const fmi2CallbackFunctions& f, std::string n) : functions(f), name(std::move(n)) {}
  fmi2CallbackFunctions functions;  // copied: valid as long as the instance
  std::string name;
  double u = 0.0, y = 0.0, gain = 2.0;
  int steps = 0, fail_at = -1, warn_at = -1, stop_at = -1, crash_at = -1, exit_at = -1, hang_at = -1;
  bool terminated = false;
  double time = 0.0;  // reached by the last step
  bool enable = true;
  std::string label = "unnamed", note;
  bool initializing = false;

  void log(fmi2Status status, const char* category, const std::string& text) const {
    functions.logger(functions.componentEnvironment, name.c_str(), status, category, "%s", text.c_str());
  }
  void compute() {
    if (enable) y = gain * u;
    note = label + " after " + std::to_string(steps) + " steps";
  }
};

Unit* unit(fmi2Component c) { return static_cast<Unit*>(c); }

}  // namespace

extern "C" {

const char* fmi2GetTypesPlatform(void) { return "default"; }
const char* fmi2GetVersion(void) { return "2.0"; }

fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid, fmi2String, const fmi2CallbackFunctions* f,
                              fmi2Boolean, fmi2Boolean) {
  if (type != fmi2CoSimulation || !f || !guid || std::string(guid) != "{8c4e810f-3df3-4a00-8276-176fa3c9f000}")
    return nullptr;
  ++instances_alive;
  return new Unit(*f, name ? name : "");
}
void fmi2FreeInstance(fmi2Component c) {
  --instances_alive;
  delete unit(c);
}
fmi2Status fmi2SetupExperiment(fmi2Component, fmi2Boolean, fmi2Real, fmi2Real, fmi2Boolean, fmi2Real) { return fmi2OK; }
fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
  unit(c)->initializing = true;
  return fmi2OK;
}
fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
  unit(c)->initializing = false;
  unit(c)->compute();
  return fmi2OK;
}
fmi2Status fmi2Terminate(fmi2Component) { return fmi2OK; }
fmi2Status fmi2Reset(fmi2Component) { return fmi2Error; }

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Real v[]) {
  Unit* s = unit(c);
  if (s->initializing) s->compute();
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] == 0) v[k] = s->u;
    else if (vr[k] == 1) v[k] = s->y;
    else if (vr[k] == 2) v[k] = s->gain;
    else return fmi2Error;
  }
  return fmi2OK;
}
fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Real v[]) {
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] == 0) unit(c)->u = v[k];
    else if (vr[k] == 2) unit(c)->gain = v[k];
    else return fmi2Error;
  }
  return fmi2OK;
}
fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Integer v[]) {
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] == 0) v[k] = unit(c)->steps;
    else if (vr[k] == 1) v[k] = unit(c)->fail_at;
    else if (vr[k] == 2) v[k] = unit(c)->warn_at;
    else if (vr[k] == 3) v[k] = instances_alive;
    else if (vr[k] == 4) v[k] = unit(c)->stop_at;
    else if (vr[k] == 5) v[k] = unit(c)->crash_at;
    else if (vr[k] == 6) v[k] = unit(c)->exit_at;
    else if (vr[k] == 7) v[k] = unit(c)->hang_at;
    else return fmi2Error;
  }
  return fmi2OK;
}
fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Integer v[]) {
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] == 1) unit(c)->fail_at = v[k];
    else if (vr[k] == 2) unit(c)->warn_at = v[k];
    else if (vr[k] == 4) unit(c)->stop_at = v[k];
    else if (vr[k] == 5) unit(c)->crash_at = v[k];
    else if (vr[k] == 6) unit(c)->exit_at = v[k];
    else if (vr[k] == 7) unit(c)->hang_at = v[k];
    else return fmi2Error;
  }
  return fmi2OK;
}
fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Boolean v[]) {
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] != 0) return fmi2Error;
    v[k] = unit(c)->enable ? fmi2True : fmi2False;
  }
  return fmi2OK;
}
fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Boolean v[]) {
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] != 0) return fmi2Error;
    unit(c)->enable = v[k] != fmi2False;
  }
  return fmi2OK;
}
fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2String v[]) {
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] == 0) v[k] = unit(c)->label.c_str();
    else if (vr[k] == 1) v[k] = unit(c)->note.c_str();
    else return fmi2Error;
  }
  return fmi2OK;
}
fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2String v[]) {
  for (size_t k = 0; k < n; ++k) {
    if (vr[k] != 0 || !v[k]) return fmi2Error;
    unit(c)->label = v[k];
  }
  return fmi2OK;
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean) {
  Unit* s = unit(c);
  const int step = s->steps + 1;
  if (step == s->crash_at) std::raise(SIGSEGV);
  if (step == s->exit_at) std::exit(0);
  if (step == s->hang_at)
    for (;;) ::pause();
  if (step == s->fail_at) {
    char text[128];
    std::snprintf(text, sizeof text, "failing at step %d (t = %g s + %g s) as asked", step, t, h);
    s->log(fmi2Error, "logStatusError", text);
    return fmi2Error;
  }
  s->steps = step;
  s->time = t + h;
  s->compute();
  if (step == s->stop_at) {
    // Ends the simulation the way the Reference FMUs do (FMI 2.0 section 4.2.3).
    s->log(fmi2Discard, "logStatusDiscard", "the simulation ends at step " + std::to_string(step) + " as asked");
    s->terminated = true;
    return fmi2Discard;
  }
  if (step == s->warn_at || s->warn_at == 0) {  // 0: at every step
    s->log(fmi2Warning, "logStatusWarning", "warning at step " + std::to_string(step) + " as asked");
    return fmi2Warning;
  }
  return fmi2OK;
}

fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind kind, fmi2Boolean* value) {
  if (kind != fmi2Terminated) return fmi2Discard;
  *value = unit(c)->terminated ? fmi2True : fmi2False;
  return fmi2OK;
}
fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind kind, fmi2Real* value) {
  if (kind != fmi2LastSuccessfulTime) return fmi2Discard;
  *value = unit(c)->time;
  return fmi2OK;
}

}  // extern "C"
