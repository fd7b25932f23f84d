// jourdain-fmu-host: runs one FMU's binary for Jourdain, in a process of its own
// (fmi.cosimulation's isolation "process", components/fmi/README.md), so that an FMU that
// crashes, calls exit() or hangs takes this process with it and never the run that uses
// it: the run ends with a message that says what happened.
//
//   jourdain-fmu-host LIBRARY WITH_STATE   (the socket to Jourdain on descriptor 3)
//
// It loads LIBRARY (WITH_STATE 1: the state functions are required), says whether that
// worked, then answers requests (fmu_host_protocol.hpp) until Jourdain closes the socket.
#include <dlfcn.h>
#include <sys/prctl.h>

#include <csignal>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fmu_functions.hpp"
#include "fmu_host_protocol.hpp"

namespace {

using jourdain::fmi::Functions;
using jourdain::fmi::host::Message;
using jourdain::fmi::host::Op;

// Reads exactly n bytes; false at the end of the stream.
bool read_exactly(int socket, char* into, std::size_t n) {
  for (std::size_t got = 0; got < n;) {
    const ssize_t r = ::read(socket, into + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    got += static_cast<std::size_t>(r);
  }
  return true;
}

bool receive(Message& m) {
  std::uint64_t length = 0;
  if (!read_exactly(jourdain::fmi::host::kSocket, reinterpret_cast<char*>(&length), sizeof length)) return false;
  m.bytes().resize(length);
  return read_exactly(jourdain::fmi::host::kSocket, m.bytes().data(), length);
}

// What the FMU logs during one call, sent back with its answer (before the results).
using Log = std::vector<std::pair<fmi2Status, std::string>>;

void log_message(fmi2ComponentEnvironment environment, fmi2String, fmi2Status status, fmi2String category,
                 fmi2String message, ...) {
  if (!environment || !message) return;
  Log& logged = *static_cast<Log*>(environment);
  va_list args, again;
  va_start(args, message);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, message, args);
  std::string text(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, message, again);
  va_end(again);
  va_end(args);
  if (category && *category) text = std::string("[") + category + "] " + text;
  // Bounded as Jourdain bounds it in process: an FMU logging without end must not grow
  // this process's memory between two answers.
  if (logged.size() < 1000) logged.emplace_back(status, std::move(text));
}

class Host {
 public:
  explicit Host(const Functions& f) : f_(f) {}

  // Answers one request.
  Message answer(Message& request) {
    const auto op = request.get<Op>();
    const auto id = request.get<std::uint32_t>();
    Message results;
    fmi2Status status = fmi2OK;
    const fmi2Component c = op == Op::Instantiate ? nullptr : instance(id);
    if (op != Op::Instantiate && !c) {
      status = fmi2Error;
      logged_.emplace_back(fmi2Error, "no instance " + std::to_string(id) + " in the FMU's process");
    } else {
      switch (op) {
        case Op::Instantiate: {
          const std::string name = request.get_string(), guid = request.get_string(), uri = request.get_string();
          results.put<std::uint32_t>(instantiate(name, guid, uri));
          break;
        }
        case Op::Copy: {
          const std::string name = request.get_string(), guid = request.get_string(), uri = request.get_string();
          const std::uint32_t copy = instantiate(name, guid, uri);
          fmi2FMUstate state = nullptr;
          if (copy == 0 || !f_.get_fmu_state) {
            status = fmi2Error;
          } else if ((status = f_.get_fmu_state(c, &state)) <= fmi2Warning) {
            status = std::max(status, f_.set_fmu_state(instances_[copy], state));
            f_.free_fmu_state(c, &state);
          }
          results.put<std::uint32_t>(status <= fmi2Warning ? copy : 0);
          break;
        }
        case Op::Free:
          f_.free_instance(c);
          instances_.erase(id);
          break;
        case Op::SetupExperiment: {
          const auto tolerance_defined = request.get<fmi2Boolean>();
          const auto tolerance = request.get<fmi2Real>();
          const auto start = request.get<fmi2Real>();
          const auto stop_defined = request.get<fmi2Boolean>();
          const auto stop = request.get<fmi2Real>();
          status = f_.setup_experiment(c, tolerance_defined, tolerance, start, stop_defined, stop);
          break;
        }
        case Op::EnterInitializationMode: status = f_.enter_initialization_mode(c); break;
        case Op::ExitInitializationMode: status = f_.exit_initialization_mode(c); break;
        case Op::Terminate: status = f_.terminate(c); break;
        case Op::GetReal: status = get_values(request, results, c, f_.get_real); break;
        case Op::GetInteger: status = get_values(request, results, c, f_.get_integer); break;
        case Op::GetBoolean: status = get_values(request, results, c, f_.get_boolean); break;
        case Op::SetReal: status = set_values(request, c, f_.set_real); break;
        case Op::SetInteger: status = set_values(request, c, f_.set_integer); break;
        case Op::SetBoolean: status = set_values(request, c, f_.set_boolean); break;
        case Op::SetString: {
          const auto vr = request.get<fmi2ValueReference>();
          const std::string v = request.get_string();
          const fmi2String s = v.c_str();
          status = f_.set_string(c, &vr, 1, &s);
          break;
        }
        case Op::DoStep: {
          const auto t = request.get<double>();
          const auto h = request.get<double>();
          status = f_.do_step(c, t, h, fmi2True);
          break;
        }
        case Op::GetBooleanStatus: {
          const auto kind = request.get<fmi2StatusKind>();
          fmi2Boolean v = fmi2False;
          status = f_.get_boolean_status ? f_.get_boolean_status(c, kind, &v) : fmi2Discard;
          results.put(v);
          break;
        }
        case Op::GetRealStatus: {
          const auto kind = request.get<fmi2StatusKind>();
          fmi2Real v = 0.0;
          status = f_.get_real_status ? f_.get_real_status(c, kind, &v) : fmi2Discard;
          results.put(v);
          break;
        }
      }
    }
    Message reply;
    reply.put(status);
    reply.put<std::uint32_t>(static_cast<std::uint32_t>(logged_.size()));
    for (const auto& [level, text] : logged_) reply.put(level).put(text);
    logged_.clear();
    reply.bytes() += results.bytes();
    return reply;
  }

 private:
  // A getter's or setter's value references (a count, then that many), as the FMU takes
  // them: one call for all (the component asks for all its Real outputs at once).
  static std::vector<fmi2ValueReference> references(Message& request) {
    const auto n = request.get<std::uint64_t>();
    if (n > request.remaining() / sizeof(fmi2ValueReference)) throw std::runtime_error("a request cut short");
    std::vector<fmi2ValueReference> out(n);
    for (auto& vr : out) vr = request.get<fmi2ValueReference>();
    return out;
  }
  template <class Value>
  static fmi2Status get_values(Message& request, Message& results, fmi2Component c,
                               fmi2Status (*get)(fmi2Component, const fmi2ValueReference[], size_t, Value[])) {
    const std::vector<fmi2ValueReference> references = Host::references(request);
    const size_t n = references.size();
    std::vector<Value> values(n);
    const fmi2Status status = get(c, references.data(), n, values.data());
    for (const Value& v : values) results.put(v);
    return status;
  }
  template <class Value>
  static fmi2Status set_values(Message& request, fmi2Component c,
                               fmi2Status (*set)(fmi2Component, const fmi2ValueReference[], size_t, const Value[])) {
    const std::vector<fmi2ValueReference> references = Host::references(request);
    std::vector<Value> values(references.size());
    for (auto& v : values) v = request.get<Value>();
    return set(c, references.data(), references.size(), values.data());
  }

  fmi2Component instance(std::uint32_t id) const {
    const auto it = instances_.find(id);
    return it == instances_.end() ? nullptr : it->second;
  }
  std::uint32_t instantiate(const std::string& name, const std::string& guid, const std::string& uri) {
    const fmi2Component c = f_.instantiate(name.c_str(), fmi2CoSimulation, guid.c_str(), uri.c_str(), &callbacks_,
                                           fmi2False, fmi2False);
    if (!c) return 0;
    instances_[++last_id_] = c;
    return last_id_;
  }

  const Functions& f_;
  Log logged_;
  fmi2CallbackFunctions callbacks_{&log_message, &std::calloc, &std::free, nullptr, &logged_};
  std::map<std::uint32_t, fmi2Component> instances_;
  std::uint32_t last_id_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "jourdain-fmu-host runs an FMU for jourdain; it is not meant to be started by hand\n");
    return 2;
  }
  // Jourdain gone (killed, or crashed) while the FMU hangs: this process goes too.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) return 1;
  Functions f;
  Message ready;
  // RTLD_LOCAL as in process: the FMU's symbols stay its own.
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  try {
    if (!library) throw jourdain::fmi::FmuError(std::string("its binary cannot be loaded: ") + dlerror());
    f = jourdain::fmi::find_functions(library, std::string(argv[2]) == "1");
    ready.put<std::int32_t>(0).put(std::string());
  } catch (const std::exception& e) {
    ready.put<std::int32_t>(1).put(std::string(e.what()));
  }
  if (!jourdain::fmi::host::send_frame(jourdain::fmi::host::kSocket, ready.bytes())) return 1;
  if (!f.do_step) return 1;
  Host host(f);
  for (Message request; receive(request); request = Message()) {
    Message reply;
    try {
      reply = host.answer(request);
    } catch (const std::exception&) {
      return 1;  // a request cut short: Jourdain is gone or broken; nothing to answer
    }
    if (!jourdain::fmi::host::send_frame(jourdain::fmi::host::kSocket, reply.bytes())) return 1;
  }
  return 0;  // Jourdain closed the socket: the instances are freed, the run is over
}
