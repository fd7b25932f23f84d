// Helpers shared by the tests: build models from netlist text, run them, read columns.
#pragma once

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "jourdain/components/builtin.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/session/session.hpp"
#include "jourdain/solvers/run.hpp"

namespace jourdain::test {

// The source tree (for netlists/) and the built `jourdain` executable.
std::filesystem::path source_dir();
std::filesystem::path netlist_path(const std::string& name);  // netlists/<name>.json
std::string jourdain_exe();

// A registry with every built-in component.
Registry builtin_registry();

// Loads netlist text (JSON) with the built-in components. Throws InputError.
Netlist load(const std::string& json_text, const NetlistOverrides& overrides = {});

// Loads and runs, keeping every row in memory (no files unless output_dir is given: then
// results.csv and summary.json, through the session as an application runs).
RunResult run(const std::string& json_text, const NetlistOverrides& overrides = {});
RunResult run_file(const std::filesystem::path& file, const NetlistOverrides& overrides = {},
                   const std::filesystem::path& output_dir = {});

// The model's Context at `t` along its netlist's own run (its solver settings, t_end
// moved to t), evaluated there.
Context state_at(const Netlist& net, double t);

// Linear interpolation of a recorded column at time t.
double at_time(const RunResult& r, const std::string& column, double t);

// A run's energy account (summary.json's "energy", framework/README.md "Energy") closes:
// the model's balance residual and every component's own are below `relative` of the
// energy moved.
inline void check_energy_balance(const RunResult& r, double relative) {
  const nlohmann::json& e = r.summary.at("energy");
  const double moved = e["total"]["moved"].get<double>();
  CHECK(moved > 0.0);
  CHECK(e["total"]["relative_balance_residual"].get<double>() < relative);
  for (const auto& component : e["components"].items()) {
    const std::string name = component.key();  // a copy: clang 14 cannot CAPTURE a binding
    CAPTURE(name);
    CHECK(std::abs(component.value()["residual"].get<double>()) < relative * moved);
  }
}

// Result of running the command line: exit code and what it printed.
struct CommandResult {
  int exit_code;
  std::string output;  // stdout and stderr together
};
CommandResult run_command(const std::string& command_line);

// Files and shell words, for tests that drive the command line.
std::string read_text(const std::filesystem::path& file);
void write_text(const std::filesystem::path& file, const std::string& text);
std::string shell_quote(const std::filesystem::path& p);  // safe as one shell word

// A fresh, empty temporary folder, removed when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace jourdain::test
