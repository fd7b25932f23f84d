// The best wall time of repeated runs of one loaded netlist, for the benchmarks.
#pragma once

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "jourdain/netlist.hpp"
#include "jourdain/solvers/run.hpp"

namespace jourdain::bench {

struct BestRun {
  double wall = 1e300;  // s, run_netlist, the best of the runs
  SolverStats stats;
  std::vector<std::vector<double>> rows;  // the last run's recorded rows
  std::string failure;                    // empty: every run finished
};

// At least `repeats` runs, and more (up to max_runs) until min_seconds have been spent, so
// that short runs are not just timer noise. Stops at the first run that fails.
inline BestRun best_run(const Netlist& net, RunOptions options, int repeats, double min_seconds, int max_runs) {
  BestRun best;
  options.keep_rows = true;
  double spent = 0.0;
  for (int r = 0; r < max_runs && (r < repeats || spent < min_seconds); ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    RunResult res = run_netlist(net, options);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!res.finished) {
      best.failure = res.failure;
      return best;
    }
    spent += s;
    best.wall = std::min(best.wall, s);
    best.stats = res.stats;
    best.rows = std::move(res.rows);
  }
  return best;
}

}  // namespace jourdain::bench
