// The runs the page starts: each one `jourdain run` (or `linearize`) in a child process of
// its own process group, so that a run that crashes or hangs cannot take the server down,
// a cancel is the Ctrl-C a terminal would send (the run stops and keeps what it wrote),
// and stopping the server stops them the same way.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace jourdain::studio {

struct RunRequest {
  std::string analysis = "run";  // "run", "linearize" or "sweep"
  std::filesystem::path netlist;
  std::filesystem::path output;  // the run's folder
  std::optional<double> t_end;
  // A sweep's study, as `jourdain sweep` takes it: each --param NAME=VALUES and --output
  // SPEC, and --zip.
  std::vector<std::string> params, outputs;
  bool zip = false;
};

class Runs {
 public:
  // `program`: the jourdain executable; `arguments`: what every run is given besides
  // (plugins, trust flags).
  Runs(std::filesystem::path program, std::vector<std::string> arguments);
  ~Runs();  // stop_all()
  Runs(const Runs&) = delete;
  Runs& operator=(const Runs&) = delete;

  // Starts a run; its id. Throws Error when the process cannot be started.
  std::string start(const RunRequest& request);
  // The command line of a request (program first).
  std::vector<std::string> command(const RunRequest& request) const;
  // {"id", "analysis", "state", "progress", "t", "t_end", "log", "exit_code", "output"}
  // (a sweep's t and t_end count runs); null for no such run.
  nlohmann::json status(const std::string& id) const;
  // Asks the run to stop (SIGINT); false for no such run.
  bool cancel(const std::string& id);
  // Stops every run still going and waits for them (SIGKILL after `grace`).
  void stop_all(std::chrono::milliseconds grace = std::chrono::seconds(20));

 private:
  struct Run;
  void follow(Run& run);  // reads the child's output until it ends, then reaps it

  std::filesystem::path program_;
  std::vector<std::string> arguments_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Run>> runs_;
  int next_id_ = 1;
};

}  // namespace jourdain::studio
