// Running a netlist: the solver settings from the netlist, results.csv written as the
// run goes, summary.json at the end (also after a failure, which it records), and the
// results kept in memory on request (tests, reports).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain/netlist.hpp"
#include "jourdain/solvers/simulate.hpp"

namespace jourdain {

struct RunOptions {
  std::filesystem::path output_dir;  // empty: write no files
  std::optional<double> t_end;       // overrides the netlist's solver.t_end
  bool keep_rows = false;            // keep every recorded row in RunResult::rows
  // With an output_dir: also write report.html (report.hpp), after a failure too. The
  // variables that place the model's sketches (its bodies' x, y, theta) are then recorded
  // as well, after the netlist's own, so they also appear in results.csv.
  bool write_report = true;
  std::function<void(double t)> progress;
  // The methods the netlist's solver.method is chosen from; null: the built-in ones. An
  // application with plugins passes its own: &jourdain::solvers(registry).
  const SolverRegistry* solvers = nullptr;
};

struct RunResult {
  bool finished = false;        // false: a SimulationError ended the run (see failure)
  std::string failure;          // its message
  double failure_time = 0.0;
  SolverSettings settings;
  SolverStats stats;
  double wall_time_s = 0.0;
  std::vector<EventRecord> events;
  std::vector<std::string> warnings;
  std::vector<std::string> columns;  // "time" then the recorded variables
  std::vector<std::vector<double>> rows;
  long row_count = 0;
  nlohmann::json summary;

  // A recorded column by name ("time", "mass.x"); throws std::out_of_range.
  std::vector<double> column(const std::string& name) const;
};

// Throws InputError for bad solver settings or a bad output folder (one where
// summary.json cannot be written: results.csv keeps its rows); a failure during the run
// is returned (finished == false) after everything up to it has been written. Any other
// exception (a defect in Jourdain or a plugin, not a property of the model) is rethrown
// after results.csv, summary.json (status "failed", the failure marked as an internal
// error) and the report have been written.
RunResult run_netlist(const Netlist& netlist, const RunOptions& options);

}  // namespace jourdain
