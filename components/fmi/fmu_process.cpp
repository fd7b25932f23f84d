// An FMU in a process of its own: starting it, the requests, and what its end means
// (fmu_process.hpp).
#include "fmu_process.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

extern char** environ;

namespace jourdain::fmi {

namespace {

using host::Message;
using host::Op;

RemoteInstance& remote(fmi2Component c) { return *static_cast<RemoteInstance*>(c); }

// One request of instance `c`: the operation, the instance, then `arguments` in order.
template <class... Arguments>
fmi2Status request(fmi2Component c, Op op, const char* what, Message& results, const Arguments&... arguments) {
  RemoteInstance& r = remote(c);
  Message m;
  m.put(op).put(r.id);
  (m.put(arguments), ...);
  return r.process->call(r, std::move(m), results, what);
}

// A getter's or setter's request: all the values of one call in one message (one round
// trip), the value references first.
Message values_request(const RemoteInstance& r, Op op, const fmi2ValueReference vr[], size_t n) {
  Message m;
  m.put(op).put(r.id).put<std::uint64_t>(n);
  for (size_t k = 0; k < n; ++k) m.put(vr[k]);
  return m;
}
template <class Value>
fmi2Status get_values(fmi2Component c, Op op, const char* what, const fmi2ValueReference vr[], size_t n, Value v[]) {
  RemoteInstance& r = remote(c);
  Message results;
  const fmi2Status s = r.process->call(r, values_request(r, op, vr, n), results, what);
  if (s > fmi2Warning) return s;
  for (size_t k = 0; k < n; ++k) v[k] = results.get<Value>();
  return s;
}
template <class Value>
fmi2Status set_values(fmi2Component c, Op op, const char* what, const fmi2ValueReference vr[], size_t n, const Value v[]) {
  RemoteInstance& r = remote(c);
  Message m = values_request(r, op, vr, n), results;
  for (size_t k = 0; k < n; ++k) m.put(v[k]);
  return r.process->call(r, std::move(m), results, what);
}

const char* proxy_version() { return "2.0"; }  // the host checked the binary's
const char* proxy_types_platform() { return "default"; }
void proxy_free_instance(fmi2Component c) {
  Message results;
  request(c, Op::Free, "fmi2FreeInstance", results);
}
fmi2Status proxy_setup_experiment(fmi2Component c, fmi2Boolean tolerance_defined, fmi2Real tolerance, fmi2Real start,
                                  fmi2Boolean stop_defined, fmi2Real stop) {
  Message results;
  return request(c, Op::SetupExperiment, "fmi2SetupExperiment", results, tolerance_defined, tolerance, start,
                 stop_defined, stop);
}
fmi2Status proxy_enter_initialization_mode(fmi2Component c) {
  Message results;
  return request(c, Op::EnterInitializationMode, "fmi2EnterInitializationMode", results);
}
fmi2Status proxy_exit_initialization_mode(fmi2Component c) {
  Message results;
  return request(c, Op::ExitInitializationMode, "fmi2ExitInitializationMode", results);
}
fmi2Status proxy_terminate(fmi2Component c) {
  Message results;
  return request(c, Op::Terminate, "fmi2Terminate", results);
}
fmi2Status proxy_get_real(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Real v[]) {
  return get_values(c, Op::GetReal, "fmi2GetReal", vr, n, v);
}
fmi2Status proxy_get_integer(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Integer v[]) {
  return get_values(c, Op::GetInteger, "fmi2GetInteger", vr, n, v);
}
fmi2Status proxy_get_boolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Boolean v[]) {
  return get_values(c, Op::GetBoolean, "fmi2GetBoolean", vr, n, v);
}
fmi2Status proxy_set_real(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Real v[]) {
  return set_values(c, Op::SetReal, "fmi2SetReal", vr, n, v);
}
fmi2Status proxy_set_integer(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Integer v[]) {
  return set_values(c, Op::SetInteger, "fmi2SetInteger", vr, n, v);
}
fmi2Status proxy_set_boolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Boolean v[]) {
  return set_values(c, Op::SetBoolean, "fmi2SetBoolean", vr, n, v);
}
fmi2Status proxy_set_string(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2String v[]) {
  fmi2Status worst = fmi2OK;
  for (size_t k = 0; k < n; ++k) {
    Message results;
    const fmi2Status s = request(c, Op::SetString, "fmi2SetString", results, vr[k], std::string(v[k] ? v[k] : ""));
    if (s > fmi2Warning) return s;
    worst = std::max(worst, s);
  }
  return worst;
}
fmi2Status proxy_do_step(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean) {
  Message results;
  return request(c, Op::DoStep, "fmi2DoStep", results, t, h);
}
fmi2Status proxy_get_boolean_status(fmi2Component c, const fmi2StatusKind kind, fmi2Boolean* value) {
  Message results;
  const fmi2Status s = request(c, Op::GetBooleanStatus, "fmi2GetBooleanStatus", results, kind);
  if (s <= fmi2Warning) *value = results.get<fmi2Boolean>();
  return s;
}
fmi2Status proxy_get_real_status(fmi2Component c, const fmi2StatusKind kind, fmi2Real* value) {
  Message results;
  const fmi2Status s = request(c, Op::GetRealStatus, "fmi2GetRealStatus", results, kind);
  if (s <= fmi2Warning) *value = results.get<fmi2Real>();
  return s;
}

// How long the host may take to load the binary (a library's constructors run then).
constexpr double kLoadTimeout = 60.0;

std::string seconds_text(double s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

}  // namespace

const Functions& FmuProcess::proxies() {
  static const Functions f = [] {
    Functions p;
    p.get_version = &proxy_version;
    p.get_types_platform = &proxy_types_platform;
    p.free_instance = &proxy_free_instance;
    p.setup_experiment = &proxy_setup_experiment;
    p.enter_initialization_mode = &proxy_enter_initialization_mode;
    p.exit_initialization_mode = &proxy_exit_initialization_mode;
    p.terminate = &proxy_terminate;
    p.get_real = &proxy_get_real;
    p.get_integer = &proxy_get_integer;
    p.get_boolean = &proxy_get_boolean;
    p.set_real = &proxy_set_real;
    p.set_integer = &proxy_set_integer;
    p.set_boolean = &proxy_set_boolean;
    p.set_string = &proxy_set_string;
    p.do_step = &proxy_do_step;
    p.get_boolean_status = &proxy_get_boolean_status;
    p.get_real_status = &proxy_get_real_status;
    return p;
  }();
  return f;
}

std::filesystem::path FmuProcess::program() {
  if (const char* given = std::getenv("JOURDAIN_FMU_HOST"); given && *given) return given;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&FmuProcess::program), &info) && info.dli_fname) {
    std::error_code ec;
    const auto self = std::filesystem::weakly_canonical(info.dli_fname, ec);
    if (!ec) return self.parent_path() / "jourdain" / "jourdain-fmu-host";
  }
  return "jourdain-fmu-host";
}

FmuProcess::FmuProcess(const std::filesystem::path& library, bool with_state) {
  const std::filesystem::path exe = program();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(exe, ec))
    throw FmuError("the program that runs an FMU in a process of its own is missing (" + exe.string() +
                   "; $JOURDAIN_FMU_HOST names another): reinstall Jourdain, or give the component isolation: \"none\"");
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    throw FmuError(std::string("cannot make a socket for the FMU's process: ") + std::strerror(errno));
  // The host's end as its descriptor 3, whatever number it has here (dup2 onto itself
  // would keep close-on-exec): moved above the low numbers first.
  const int child = ::fcntl(ends[1], F_DUPFD_CLOEXEC, 10);
  ::close(ends[1]);
  socket_ = ends[0];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child, host::kSocket);
  // What the FMU prints goes to Jourdain's standard error: its standard output carries
  // results (`describe --json`, a pipe).
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  // A process group of its own: a Ctrl-C at the terminal reaches Jourdain, which stops
  // the run and ends this process, not the FMU in the middle of a call.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const std::string exe_text = exe.string(), library_text = library.string();
  char* argv[] = {const_cast<char*>(exe_text.c_str()), const_cast<char*>(library_text.c_str()),
                  const_cast<char*>(with_state ? "1" : "0"), nullptr};
  const int spawned = ::posix_spawn(&pid_, exe_text.c_str(), &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(child);
  if (spawned != 0) {
    ::close(socket_);
    throw FmuError("cannot start " + exe_text + ": " + std::strerror(spawned));
  }
  timeout_ = kLoadTimeout;
  Message ready;
  bool loaded = false;
  std::string why;
  if (!receive(ready, "loading its binary")) {
    why = lost_;
  } else {
    loaded = ready.get<std::int32_t>() == 0;
    why = ready.get_string();
  }
  timeout_ = INFINITY;
  if (!loaded) {
    lose(why);  // no destructor for an object that was never made
    throw FmuError(why);
  }
}

FmuProcess::~FmuProcess() {
  if (pid_ <= 0) return;
  ::close(socket_);  // the host reads the end of the stream and ends
  socket_ = -1;
  for (int k = 0; k < 100; ++k) {  // one second
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid_, SIGKILL);  // an FMU that hangs in fmi2FreeInstance
  ::waitpid(pid_, nullptr, 0);
}

RemoteInstance* FmuProcess::adopt(std::uint32_t id, std::string name, const fmi2CallbackFunctions& callbacks) {
  if (id == 0) return nullptr;
  instances_.push_back(std::make_unique<RemoteInstance>(RemoteInstance{this, id, callbacks, std::move(name)}));
  return instances_.back().get();
}

fmi2Component FmuProcess::instantiate(const std::string& name, const std::string& guid, const std::string& resource_uri,
                                      const fmi2CallbackFunctions& callbacks) {
  // Answers and messages go to the new instance's logger, also before it has an id.
  RemoteInstance asking{this, 0, callbacks, name};
  Message m, results;
  m.put(Op::Instantiate).put(std::uint32_t{0}).put(name).put(guid).put(resource_uri);
  if (call(asking, std::move(m), results, "fmi2Instantiate") > fmi2Warning) return nullptr;
  return adopt(results.get<std::uint32_t>(), name, callbacks);
}

fmi2Component FmuProcess::copy(fmi2Component source, const std::string& name, const std::string& guid,
                               const std::string& resource_uri, const fmi2CallbackFunctions& callbacks) {
  RemoteInstance& from = remote(source);
  Message m, results;
  m.put(Op::Copy).put(from.id).put(name).put(guid).put(resource_uri);
  if (call(from, std::move(m), results, "a copy of the instance (fmi2GetFMUstate, fmi2SetFMUstate)") > fmi2Warning)
    return nullptr;
  return adopt(results.get<std::uint32_t>(), name, callbacks);
}

fmi2Status FmuProcess::call(RemoteInstance& instance, Message request, Message& results, const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto tell = [&](fmi2Status level, const std::string& text) {
    if (instance.callbacks.logger)
      instance.callbacks.logger(instance.callbacks.componentEnvironment, instance.name.c_str(), level, "", "%s",
                                text.c_str());
  };
  if (lost_.empty() && !host::send_frame(socket_, request.bytes()))
    lose("the FMU's process ended (" + ended_how() + ") before " + what);
  Message reply;
  if (lost_.empty()) receive(reply, what);
  if (!lost_.empty()) {
    tell(fmi2Fatal, lost_);
    return fmi2Fatal;
  }
  try {
    const auto status = reply.get<fmi2Status>();
    const auto count = reply.get<std::uint32_t>();
    for (std::uint32_t k = 0; k < count; ++k) {
      const auto level = reply.get<fmi2Status>();
      tell(level, reply.get_string());
    }
    results = std::move(reply);
    return status;
  } catch (const std::exception& e) {
    lose(std::string("its answer to ") + what + " makes no sense: " + e.what());
    tell(fmi2Fatal, lost_);
    return fmi2Fatal;
  }
}

bool FmuProcess::receive(Message& m, const std::string& what) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::string pending;
  for (;;) {
    if (pending.size() >= sizeof(std::uint64_t)) {
      std::uint64_t length = 0;
      std::memcpy(&length, pending.data(), sizeof length);
      if (pending.size() - sizeof length >= length) {
        m.bytes() = pending.substr(sizeof length, length);
        return true;
      }
    }
    // Short waits: a run asked to stop (a Ctrl-C) is seen within 50 ms.
    pollfd ready{socket_, POLLIN, 0};
    const int polled = ::poll(&ready, 1, 50);
    if (polled > 0) {
      char buffer[65536];
      const ssize_t n = ::recv(socket_, buffer, sizeof buffer, 0);
      if (n > 0) {
        pending.append(buffer, static_cast<size_t>(n));
        continue;
      }
      if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        lose("the FMU's process ended (" + ended_how() + ") during " + what);
        return false;
      }
    } else if (polled < 0 && errno != EINTR) {
      lose(std::string("cannot wait for the FMU's process: ") + std::strerror(errno));
      return false;
    }
    if (stop_requested_ && stop_requested_()) {
      lose("stopped during " + what + ", as the run was asked to stop: the FMU's process was ended");
      return false;
    }
    if (std::chrono::duration<double>(Clock::now() - start).count() > timeout_) {
      lose(what + " did not return within " + seconds_text(timeout_) +
           " s (the component's call_timeout): the FMU's process was ended");
      return false;
    }
  }
}

std::string FmuProcess::ended_how() {
  if (pid_ <= 0) return "already gone";
  int status = 0;
  pid_t reaped = 0;
  // The socket's end came first; the process's end follows within moments, unless the
  // FMU closed the socket itself and goes on: then it is ended here.
  for (int k = 0; k < 100 && reaped == 0; ++k) {
    reaped = ::waitpid(pid_, &status, WNOHANG);
    if (reaped == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (reaped == 0) {
    ::kill(pid_, SIGKILL);
    reaped = ::waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  if (reaped < 0) return "its status taken by another part of the program";  // a SIGCHLD handler that reaps all
  if (WIFEXITED(status)) return "with exit status " + std::to_string(WEXITSTATUS(status)) + ", as when the FMU calls exit()";
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + ", " + ::strsignal(WTERMSIG(status));
  return "for an unknown reason";
}

void FmuProcess::lose(const std::string& why) {
  lost_ = why;
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  if (socket_ >= 0) ::close(socket_);
  socket_ = -1;
}

}  // namespace jourdain::fmi
