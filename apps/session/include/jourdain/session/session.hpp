// The session: what every application of Jourdain does with a netlist, written once.
//   trust policy (trust.hpp) -> load -> run or linearize -> the run's files:
//   results.csv (streamed by the run's recorder as it goes), summary.json (written here
//   from the summary the run returns, once it has ended, whatever became of it) and
//   report.html (the report fed from the run's rows in memory, written here last, after
//   a failure too).
// The command line, the Python package and the FMU export call it; what they add is
// their own: options and messages, a progress bar, Python's objects, the FMI functions.
// Nothing below apps/ includes it (tests/architecture checks).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "jourdain/netlist.hpp"
#include "jourdain/registry.hpp"
#include "jourdain/session/trust.hpp"
#include "jourdain/solvers/linear.hpp"
#include "jourdain/solvers/run.hpp"

namespace jourdain::session {

// A netlist file loaded under `trust`, with the --set overrides `sets`; `stop_requested`
// is asked as each component is placed (empty: never).
Netlist load(const std::filesystem::path& file, Registry& registry, const Trust& trust,
             const std::vector<std::string>& sets = {}, std::function<bool()> stop_requested = {});
// The same from netlist text; `file` names it in messages and places its relative paths.
Netlist load_text(const std::string& text, const std::filesystem::path& file, Registry& registry, const Trust& trust,
                  const std::vector<std::string>& sets = {});

// A check of a netlist (`jourdain check`, the studio): every problem it has
// (check_netlist_text), then what the model's block solvers find at the start (a
// mechanism that cannot be assembled, redundant constraints), each problem with its line
// and column in the text. When the model builds, `model` holds its facts (name,
// components, states, loops, unconnected ports, recorded) and `model_text` the evaluation
// order as `jourdain check` prints it.
struct Check {
  Diagnostics diagnostics{/*keep_going=*/true};
  nlohmann::json model = nullptr;
  std::string model_text;
  // As `jourdain check --json` writes it: the diagnostics, "netlist", "ok" and "model".
  nlohmann::json to_json(const std::string& netlist) const;
};
Check check_text(const std::string& text, const std::filesystem::path& file, Registry& registry, const Trust& trust,
                 std::function<bool()> stop_requested = {});
// The same for a file (one that is no JSON is one diagnostic).
Check check_file(const std::filesystem::path& file, Registry& registry, const Trust& trust,
                 std::function<bool()> stop_requested = {});

// The folder a run writes to when none is given: results/<name>, the netlist's name made
// one plain folder name, so that a "name" of "../../x" or "/tmp/x" cannot place files
// outside results/.
std::filesystem::path default_output_folder(const std::string& netlist_name);

// A run and what became of its report.
struct Run {
  RunResult result;
  std::filesystem::path report;  // report.html once written; empty when none was asked for, or on report_failure
  // Why report.html could not be written (a full disk), with a word on the other files,
  // which are whole; empty otherwise. Each application decides what it makes of it.
  std::string report_failure;
};

// Runs `net` (run_netlist with `options`). With an output folder, summary.json is
// checked before the run (an OutputError when it cannot be created) and written once the
// run has ended, whether it finished, failed or was interrupted; a summary that cannot be
// written fails the run, the message naming the file and the rows results.csv keeps. With
// `report` too, a report::Report listens to the recorded rows and report.html is written
// after summary.json. A defect (RunResult::defect) is rethrown once summary.json is
// written.
Run run(const Netlist& net, RunOptions options, bool report);

// A linear analysis and what became of its report.
struct LinearRun {
  LinearRunResult result;
  std::filesystem::path report;  // as Run::report
  std::string report_failure;    // as Run::report_failure
};

// The linear analysis of `net` (run_linear). With an output folder, summary.json as for
// run; with `report` too, report.html shows the operating point's row and, when the
// analysis finished, the linear model with each mode animated through one cycle.
LinearRun linearize(const Netlist& net, const LinearSettings& settings, LinearRunOptions options, bool report);

}  // namespace jourdain::session
