// An FMU run in a process of its own (fmi.cosimulation's isolation "process"; the program
// is fmu_host.cpp, the conversation fmu_host_protocol.hpp). Internal to components/fmi.
//
// Why: an FMU is someone else's compiled code. In Jourdain's process a crash in it ends
// the run with nothing written, an exit() in it ends Jourdain with exit status 0 and the
// rows cut, and a hang can be ended only by killing Jourdain. In a process of its own each
// of these is an answer: the calls return fmi2Fatal with what happened ("the FMU's process
// was killed by signal 11 (Segmentation fault)"), the run ends as failed with its rows and
// summary.json, and the temporary folders go. A call that takes longer than the timeout,
// or one under way when the run is asked to stop, ends the process the same way.
//
// The functions (proxies()) have the FMI signatures, so the component calls them as it
// calls a binary loaded in process; the fmi2Component they take is this process's handle
// of an instance (instantiate(), copy()).
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fmu_functions.hpp"
#include "fmu_host_protocol.hpp"

namespace jourdain::fmi {

class FmuProcess;

// An instance in the FMU's process: what the proxies get as their fmi2Component.
struct RemoteInstance {
  FmuProcess* process = nullptr;
  std::uint32_t id = 0;
  fmi2CallbackFunctions callbacks{};  // the instance's logger, given what the FMU logs
  std::string name;
};

class FmuProcess {
 public:
  // Starts the host program for the FMU's unpacked binary `library`; `with_state`: the FMU
  // can get and set its state. Throws FmuError when the program cannot be found or
  // started, or cannot load the binary (its reason).
  FmuProcess(const std::filesystem::path& library, bool with_state);
  // Closes the socket (the host then ends), waits a moment for it, then kills it.
  ~FmuProcess();
  FmuProcess(const FmuProcess&) = delete;
  FmuProcess& operator=(const FmuProcess&) = delete;

  // The FMI functions, each a request to the instance's process. The state functions are
  // left out: copy() takes a copy of an instance inside its process.
  static const Functions& proxies();
  // The program that runs FMUs: $JOURDAIN_FMU_HOST, else jourdain/jourdain-fmu-host
  // beside the library that holds this code (the build tree and an installation alike).
  static std::filesystem::path program();

  // fmi2Instantiate in the process; null when it gives no instance (or the process is
  // lost: the logger has been told why).
  fmi2Component instantiate(const std::string& name, const std::string& guid, const std::string& resource_uri,
                            const fmi2CallbackFunctions& callbacks);
  // A new instance in this process, in the state of `source` (fmi2GetFMUstate, then
  // fmi2SetFMUstate on the new one); null when that fails.
  fmi2Component copy(fmi2Component source, const std::string& name, const std::string& guid,
                     const std::string& resource_uri, const fmi2CallbackFunctions& callbacks);

  // How long one call may take (s; infinity: no limit), and what says the run wants to
  // stop: both end a call under way by ending the process.
  void set_timeout(double seconds) { timeout_ = seconds; }
  void set_stop_requested(std::function<bool()> stop) { stop_requested_ = std::move(stop); }

  // One request for `instance`; returns the FMU's status and leaves the results in
  // `results`. When the process dies, overruns the timeout or is stopped, returns
  // fmi2Fatal and tells the instance's logger why. `what`: the call, for that message.
  fmi2Status call(RemoteInstance& instance, host::Message request, host::Message& results, const std::string& what);

 private:
  RemoteInstance* adopt(std::uint32_t id, std::string name, const fmi2CallbackFunctions& callbacks);
  // Reads one frame, waiting at most the timeout and asking stop_requested_ meanwhile;
  // empty with lost_ set when the process is gone or had to be ended.
  bool receive(host::Message& m, const std::string& what);
  void lose(const std::string& why);  // ends the process (if alive) and keeps why
  std::string ended_how();            // reaps the process: "exit status 0", "signal 11 (...)"

  pid_t pid_ = -1;
  int socket_ = -1;
  double timeout_ = 0.0;
  std::function<bool()> stop_requested_;
  std::string lost_;  // why the process is gone; empty while it serves
  std::mutex mutex_;  // one request at a time (a copy of a run's context shares the process)
  std::vector<std::unique_ptr<RemoteInstance>> instances_;
};

}  // namespace jourdain::fmi
