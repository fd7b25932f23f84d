// Runs as child processes (runs.hpp).
#include "runs.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <sstream>

#include "jourdain/errors.hpp"

extern char** environ;

namespace jourdain::studio {

struct Runs::Run {
  std::string id;
  pid_t pid = -1;
  std::string analysis;  // the request's: "run", "linearize" or "sweep"
  std::filesystem::path output;
  std::string state = "running";  // running, finished, failed, cancelled
  bool cancel_asked = false;
  double t = 0.0, t_end = 0.0;
  int exit_code = -1;
  std::string log;  // the last lines the run printed
  std::thread reader;
};

namespace {

constexpr std::size_t max_log_bytes = 64 * 1024;

void keep_tail(std::string& log) {
  if (log.size() > max_log_bytes) log.erase(0, log.size() - max_log_bytes);
}

}  // namespace

Runs::Runs(std::filesystem::path program, std::vector<std::string> arguments)
    : program_(std::move(program)), arguments_(std::move(arguments)) {}

Runs::~Runs() { stop_all(); }

std::vector<std::string> Runs::command(const RunRequest& request) const {
  const auto seconds = [](double t) {
    std::ostringstream out;
    out.precision(17);
    out << t;
    return out.str();
  };
  std::vector<std::string> args = {program_.string()};
  if (request.analysis == "sweep") {
    // `jourdain sweep` (Python) takes the plugins and the consent before the command, and
    // none of the run's other options.
    for (std::size_t i = 0; i < arguments_.size(); ++i) {
      const std::string& a = arguments_[i];
      if (a == "--plugin" && i + 1 < arguments_.size()) args.insert(args.end(), {a, arguments_[++i]});
      else if (a == "--allow-plugins") args.push_back(a);
      else if (a == "--library" || a == "--allow-any-path")
        throw Error("studio: a sweep cannot read subsystems from other folders (" + a +
                    "): run `jourdain sweep` from the command line");
      else if (a == "--max-components") ++i;  // (with its number) a run's option only
    }
    args.insert(args.end(), {"sweep", request.netlist.string(), "-o", request.output.string(), "--progress-lines"});
    // NAME=VALUES glued to its option: a value starting with '-' is not taken for one.
    for (const auto& p : request.params) args.push_back("--param=" + p);
    for (const auto& o : request.outputs) args.push_back("--output=" + o);
    if (request.zip) args.push_back("--zip");
    if (request.t_end) args.push_back("--t-end=" + seconds(*request.t_end));
    return args;
  }
  args.insert(args.end(), {request.analysis, request.netlist.string(), "-o", request.output.string()});
  if (request.analysis == "run") args.push_back("--progress-lines");
  if (request.t_end && request.analysis == "run") args.insert(args.end(), {"--t-end", seconds(*request.t_end)});
  args.insert(args.end(), arguments_.begin(), arguments_.end());
  return args;
}

std::string Runs::start(const RunRequest& request) {
  std::vector<std::string> args = command(request);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw Error(std::string("studio: cannot start a run: pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // A group of its own: a Ctrl-C in the server's terminal reaches the server, which then
  // stops its runs itself (and waits for them), rather than racing them.
  posix_spawnattr_setpgroup(&attributes, 0);
  // The child starts with the default handlers: the server's own are not inherited.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, program_.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    throw Error("studio: cannot start " + program_.string() + ": " + std::strerror(spawned));
  }

  auto run = std::make_shared<Run>();
  run->pid = pid;
  run->analysis = request.analysis;
  run->output = request.output;
  {
    std::lock_guard lock(mutex_);
    run->id = std::to_string(next_id_++);
    runs_[run->id] = run;
  }
  run->reader = std::thread([this, run, fd = pipe_fds[0]] {
    std::string pending;
    char buffer[4096];
    for (;;) {
      const ssize_t n = read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      pending.append(buffer, static_cast<std::size_t>(n));
      std::size_t end;
      while ((end = pending.find('\n')) != std::string::npos) {
        const std::string line = pending.substr(0, end);
        pending.erase(0, end + 1);
        std::lock_guard lock(mutex_);
        double t = 0, t_end = 0;
        if (std::sscanf(line.c_str(), "progress %lf %lf", &t, &t_end) == 2) {
          run->t = t;
          run->t_end = t_end;
        } else {
          run->log += line + "\n";
          keep_tail(run->log);
        }
      }
    }
    close(fd);
    int status = 0;
    while (waitpid(run->pid, &status, 0) < 0 && errno == EINTR) {
    }
    std::lock_guard lock(mutex_);
    if (!pending.empty()) run->log += pending;
    run->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    // 130: the run stopped on the SIGINT of a cancel, its results kept.
    run->state = run->exit_code == 0 ? "finished" : run->cancel_asked ? "cancelled" : "failed";
  });
  return run->id;
}

nlohmann::json Runs::status(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = runs_.find(id);
  if (it == runs_.end()) return nullptr;
  const Run& r = *it->second;
  const double progress = r.state == "finished" ? 1.0 : r.t_end > 0 ? std::clamp(r.t / r.t_end, 0.0, 1.0) : 0.0;
  return {{"id", r.id},       {"analysis", r.analysis}, {"state", r.state}, {"progress", progress},
          {"t", r.t},         {"t_end", r.t_end},       {"log", r.log},     {"exit_code", r.exit_code},
          {"output", r.output.string()}};
}

bool Runs::cancel(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = runs_.find(id);
  if (it == runs_.end()) return false;
  Run& r = *it->second;
  if (r.state == "running") {
    r.cancel_asked = true;
    kill(r.pid, SIGINT);
  }
  return true;
}

void Runs::stop_all(std::chrono::milliseconds grace) {
  std::vector<std::shared_ptr<Run>> all;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, r] : runs_) {
      all.push_back(r);
      if (r->state == "running") {
        r->cancel_asked = true;
        kill(r->pid, SIGINT);
      }
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + grace;
  for (auto& r : all) {
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        if (r->state != "running") break;
        if (std::chrono::steady_clock::now() > deadline) {
          kill(r->pid, SIGKILL);
          break;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (r->reader.joinable()) r->reader.join();
  }
}

}  // namespace jourdain::studio
