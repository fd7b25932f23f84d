// Running a netlist: the solver settings from the netlist, results.csv written as the
// run goes, summary.json's object made at the end (also after a failure, which it
// records; the session writes it: apps/session), and the rows handed as they are
// recorded to any listeners (RowListener, recorder.hpp) and kept in memory on request
// (tests).
#pragma once

#include <exception>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain/netlist.hpp"
#include "jourdain/recorder.hpp"
#include "jourdain/solvers/simulate.hpp"

namespace jourdain {

struct RunOptions {
  std::filesystem::path output_dir;  // where results.csv goes; empty: no file
  std::optional<double> t_end;       // overrides the netlist's solver.t_end
  bool keep_rows = false;            // keep every recorded row in RunResult::rows
  // Told of each row as it is recorded (results.csv holds the netlist's record list
  // only; a listener reads whatever else it needs from the row's context). The run knows
  // nothing of who listens: the command line adds the report (apps/report) here,
  // so the solvers do not depend on it. They must outlive the call.
  std::vector<RowListener*> listeners;
  std::function<void(double t)> progress;
  // Asked after every step and row: true ends the run as "interrupted" at once (the rows
  // so far are kept whole and the summary says so), e.g. on Ctrl-C.
  std::function<bool()> stop_requested;
  // Called once the run's input is checked and its output folder taken, as it starts: a
  // caller says "running ..." here, never before an error that refuses the input. It may
  // refuse the run itself by throwing, nothing having run yet: the session does when
  // summary.json cannot be created in the folder.
  std::function<void()> started;
  // Numeric parameter values for this run ("component.parameter" -> a number in SI or a
  // string with a unit), given to the run's Context (Model::set_parameter): the model
  // itself is not touched, so one loaded netlist serves runs with different values, in
  // any number of threads at once. Bad names or values are InputErrors.
  std::vector<std::pair<std::string, nlohmann::json>> parameters;
  // Initial values of continuous states for this run ("mass.x" -> a number in SI or a
  // string with a unit), given to the run's Context (Model::set_initial_state) like the
  // parameters above.
  std::vector<std::pair<std::string, nlohmann::json>> initial;
  // Solver settings for this run: keys of the netlist's "solver" object ("method",
  // "rtol", "t_end", ...) that replace the netlist's own, checked as if written there.
  nlohmann::json solver = nlohmann::json::object();
  // The methods the netlist's solver.method is chosen from; null: the built-in ones. An
  // application with plugins passes its own: &jourdain::solvers(registry).
  const SolverRegistry* solvers = nullptr;
  // A strict run (jourdain run --strict) fails when it ends with an accuracy warning
  // (context.hpp, Warning): status "failed", exit 1, everything written kept. The netlist's
  // top-level "strict": true asks for the same; either is enough.
  bool strict = false;
  // An energy account (framework energy.hpp): summary.json's "energy", integrated along
  // every accepted step. The netlist's top-level "energy": true asks for the same.
  bool energy = false;
};

struct RunResult {
  bool finished = false;        // false: the run failed or was interrupted (see failure)
  bool interrupted = false;     // stop_requested ended it
  // A component ended the run before t_end (Eval::terminate): finished all the same.
  std::optional<Context::Termination> termination;
  std::string failure;          // what ended it: a SimulationError, a file that could not be written
  double failure_time = 0.0;
  SolverSettings settings;
  SolverStats stats;
  double wall_time_s = 0.0;
  std::vector<EventRecord> events;  // the first Context::kMaxLoggedEvents
  long events_not_logged = 0;        // the rest, counted
  std::vector<std::string> warnings;           // every warning, in order
  std::vector<std::string> accuracy_warnings;  // those that say the results are not vouched for
  bool strict = false;                          // the run was strict (options or netlist)
  std::vector<std::string> columns;  // "time" then the recorded variables (the netlist's record list)
  std::vector<std::vector<double>> rows;
  long row_count = 0;
  nlohmann::json summary;  // summary.json's object
  // A defect (an exception that is no Jourdain error, from Jourdain or a plugin) that
  // ended the run: the run is failed and its failure says "internal error". Handed back
  // rather than thrown so that the caller writes summary.json first; session::run then
  // rethrows it.
  std::exception_ptr defect;

  // A recorded column by name ("time", "mass.x"); throws std::out_of_range.
  std::vector<double> column(const std::string& name) const;
};

// Throws InputError for bad solver settings or values, and InputError or OutputError for
// an output folder where results.csv cannot be created, before anything runs (or what
// RunOptions::started throws). A failure during the run (a SimulationError, an
// interruption, results.csv that cannot be written any more, e.g. on a full disk) is
// returned (finished == false) after every row up to it has been written. Any other
// exception (a defect in Jourdain or a plugin, not a property of the model) ends the run
// as failed, the failure marked as an internal error, and is returned in
// RunResult::defect. summary.json is not written here: session::run (apps/session) writes
// it from RunResult::summary, then rethrows a defect.
RunResult run_netlist(const Netlist& netlist, const RunOptions& options);

}  // namespace jourdain
