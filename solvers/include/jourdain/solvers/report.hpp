// report.html: one self-contained page (data, script and style inline; nothing is
// fetched, so it opens offline) showing a run the way an engineer looks at it first:
//   - the summary: status and failure, analysis, solver settings and statistics,
//     monitors, events, warnings and final values;
//   - plots of the netlist's recorded variables against time, one per unit (at most six
//     curves each; monitors apart, on a log scale, as their upper envelope when the run is
//     long), with legends and a hover readout;
//   - an animation of the components that draw themselves (Component::sketch(), e.g. the
//     bodies and the ground of a planar mechanism), with play, pause, a time slider and
//     a speed selector.
// Long runs are thinned for the page: a plot keeps, per bucket of rows, the smallest and
// largest value of each curve (at most 2000 points a curve, so peaks survive), and the
// animation at most 2000 frames; results.csv keeps every row.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "jourdain/netlist.hpp"
#include "jourdain/solvers/run.hpp"

namespace jourdain {

// The recordable variables that place the model's sketches ("bob.x", "bob.y",
// "bob.theta", ...), in component order without repeats. A run must record them for
// the report to animate them (run_netlist adds them to the recorded variables).
std::vector<std::string> sketch_variables(const Model& model);

// Writes `report_file` for a run of `netlist` (finished or failed) whose rows
// `results_csv` holds, as the run wrote it. Throws Error if a file cannot be read or
// written.
void write_report(const Netlist& netlist, const RunResult& result, const std::filesystem::path& results_csv,
                  const std::filesystem::path& report_file);

}  // namespace jourdain
