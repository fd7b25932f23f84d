// Netlist fuzz harness (netlist_harness.hpp).
//
// Bounding, so that one input costs little time and memory whatever it says:
//   - the run lasts at most 1 s of simulated time after t_start (t_end is lowered; it
//     is never raised, and settings that are already wrong are left wrong so that their
//     checks are exercised: a non-finite t_start or a t_end before t_start stays);
//   - max_steps is at most kMaxSteps and max_output_rows at most kMaxOutputRows (lowered,
//     never raised). These are Jourdain's own guards, so an input that gets past them and
//     still runs long or allocates much is a finding, not something to clamp here;
//   - an output_interval finer than span / kMinOutputIntervals is raised to it, unless
//     it asks for more rows than max_output_rows allows (that refusal is exercised);
//   - no rows kept in memory;
//   - models with an algebraic loop of more than kMaxLoopSize variables, solved by the
//     general Newton method, are loaded and built but not run. Jourdain solves a loop by dense Newton over every output in it
//     (O(n^2) component calls and an O(n^3) factorisation per evaluation), so a loop of
//     100 gains, 7 KB of netlist, takes ~30 s per run under the sanitizers: costly, not
//     wrong, and not what the fuzzer should spend its time on;
//   - a budget of kRunBudget seconds of wall time for the run, checked after each step
//     through RunOptions::progress: a run still making progress when it is spent is
//     stopped and counts as handled (many components times many steps). A hang inside
//     one step never reaches the check and is still reported by libFuzzer's -timeout.
// output_interval is deliberately not clamped: max_output_rows must refuse a tiny one.
// The run writes its files (results.csv, summary.json, report.html) to a folder of its
// own, overwritten by the next input, through the session as the command line does.
// A netlist's plugins are refused as the command line refuses them without the user's
// consent (NetlistOverrides::allow_plugins is false): no input can make the harness load
// a shared library, which would run its code.
#include "netlist_harness.hpp"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <cmath>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "jourdain/components/builtin.hpp"
#include "jourdain/errors.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/registry.hpp"
#include "jourdain/session/session.hpp"
#include "jourdain/solvers/run.hpp"
#include "jourdain/solvers/simulate.hpp"

namespace jourdain::fuzz {

namespace {

constexpr double kMaxSpan = 1.0;  // s of simulated time
constexpr double kRunBudget = 2.0;  // s of wall time
constexpr double kMinOutputIntervals = 200;
constexpr std::size_t kMaxLoopSize = 32;  // loop variables + algebraic unknowns of one block
constexpr long kMaxSteps = 20000;
constexpr long kMaxOutputRows = 1000;
const char* const kFileName = "fuzz.json";

// Thrown by the progress callback when the run's budget is spent (not a std::exception,
// so that nothing in Jourdain can take it for one of its own).
struct BudgetSpent {};

// The folder each input's run writes its files to: one per process, made on first use.
const std::filesystem::path& output_folder() {
  static const std::filesystem::path folder = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "jourdain-fuzz-out.XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a folder for the fuzzer's output");
    return std::filesystem::path(pattern);
  }();
  return folder;
}

// Lowers the run's bounds in netlist.solver (the JSON that run_netlist reads).
void tighten(nlohmann::json& solver, const SolverSettings& s) {
  double t_end = s.t_end;
  const double cap = s.t_start + kMaxSpan;
  if (std::isfinite(s.t_start) && cap > s.t_start && s.t_end > cap) solver["t_end"] = t_end = cap;
  if (s.max_steps > kMaxSteps) solver["max_steps"] = kMaxSteps;
  const long max_rows = std::min(s.max_output_rows, kMaxOutputRows);
  if (s.max_output_rows > kMaxOutputRows) solver["max_output_rows"] = kMaxOutputRows;
  const double span = t_end - s.t_start;
  if (!(std::isfinite(span) && span > 0.0)) return;  // left for Jourdain to refuse
  const double interval = s.output_interval > 0.0 ? s.output_interval : span / 500.0;
  const bool refused = span / interval > static_cast<double>(max_rows);
  if (!refused && interval < span / kMinOutputIntervals) solver["output_interval"] = span / kMinOutputIntervals;
}

bool has_large_loop(const Model& model) {
  const auto& steps = model.schedule().steps;
  for (size_t k = 0; k < steps.size(); ++k)
    if (steps[k].implicit && !model.block_solver(static_cast<int>(k)) &&
        steps[k].tear_outputs.size() + steps[k].unknowns.size() > kMaxLoopSize)
      return true;  // a mechanism's block has its own sparse solver: not limited
  return false;
}

}  // namespace

int fuzz_one_netlist(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Registry registry;  // per input: nothing carries over from one input to the next
  register_builtin_components(registry);
  std::optional<Netlist> net;
  try {
    net.emplace(load_netlist_text(text, kFileName, registry));
  } catch (const InputError&) {
    return 0;  // refused as bad input: expected
  }

  if (has_large_loop(net->model)) return 0;

  try {
    const SolverSettings s = solver_settings_from_json(net->solver, InputLocation{kFileName, "/solver", "", ""});
    tighten(net->solver, s);
  } catch (const InputError&) {
    return 0;  // run_netlist would refuse the same settings
  }

  try {
    RunOptions options;
    options.output_dir = output_folder();
    const auto start = std::chrono::steady_clock::now();
    options.progress = [start](double) {
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > kRunBudget)
        throw BudgetSpent{};
    };
    session::run(*net, options, /*report=*/true);
  } catch (const BudgetSpent&) {
    return 0;  // still running after kRunBudget: costly, not stuck
  } catch (const InputError&) {
    return 0;  // e.g. settings that ask for too many output rows
  } catch (const SimulationError&) {
    return 0;  // a run failure that escaped run_netlist's own handling: still an expected outcome
  }
  return 0;
}

}  // namespace jourdain::fuzz
