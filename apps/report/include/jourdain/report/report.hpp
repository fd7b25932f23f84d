// report.html: one self-contained page (data, script and style inline; nothing is
// fetched, so it opens offline) showing a run the way an engineer looks at it first:
//   - the summary: status and failure, analysis, solver settings and statistics,
//     monitors, events, warnings and final values;
//   - plots of the plotted variables (the netlist's record list) against time, one per
//     quantity and display unit (at most six curves each; monitors apart, on a log
//     scale, as their upper envelope when the run is long), with legends, a hover
//     readout and a unit selector;
//   - an animation of the components that draw themselves (Component::sketch(), e.g. the
//     bodies and the ground of a planar mechanism), with play, pause, a time slider and
//     a speed selector;
//   - for a linear analysis (set_linear): the operating point and the stability, the
//     eigenvalues on the complex plane, a table of the modes (frequencies, damping, time
//     constants, participating states), Bode plots of each input -> output pair, the
//     modes' shapes animated (mode_frame) and the state-space matrices.
//
// The report is a module of its own: it knows the framework (Model, Context, the
// Recorder's RowListener) and nothing of the solvers. A Report listens to the run's
// Recorder and keeps, in memory, what the page shows; what the run concluded (summary.json's
// object) is handed to it as plain JSON when the page is written. The command line
// wires the two (apps/session/src/session.cpp).
//
// Memory stays bounded however long the run (results.csv keeps every row; the page
// need not):
//   - plots: consecutive rows are merged into buckets that keep each curve's smallest and
//     largest value (so peaks survive), two points a bucket; when the buckets would give
//     more than `plot_points` points, neighbours are merged pairwise (each bucket then
//     spans twice as many rows). The first and the last row, and the rows at events (two
//     or more rows at one time: just before and just after the discrete change; up to
//     `pinned_rows` of them), are kept exactly, and no bucket spans an event.
//   - animation: every s-th row, s doubling whenever more than `animation_frames` frames
//     are kept, plus the kept event rows and the last row.
// Both depend only on the sequence of rows: the page is deterministic.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain/model.hpp"
#include "jourdain/recorder.hpp"

namespace jourdain::report {

struct ReportSettings {
  long plot_points = 2000;       // at most about this many points a curve (plus pinned rows)
  long animation_frames = 2000;  // at most this many ordinary frames (plus pinned rows)
  long pinned_rows = 400;        // event rows kept exactly (the first ones); must be < plot_points / 2
  size_t table_events = 500;     // rows of the events table (the count says how many in all)
};

// What the page says the run was: the netlist's name, description and file.
struct ReportHeading {
  std::string name;
  std::string description;
  std::string netlist;
  // The netlist as a diagram (jourdain/schematic.hpp), or null: the page draws it.
  nlohmann::json schematic = nullptr;
};

// The recordable variables that place the model's sketches ("bob.x", "bob.y",
// "bob.theta", ...; for a link, the positions of the points its ports are connected
// to: "boom.rod_eye.x", ...), in component order without repeats. The report reads them from
// each recorded row's context: they need not be (and are not made) part of results.csv.
std::vector<std::string> sketch_variables(const Model& model);

class Report final : public RowListener {
 public:
  // `plotted`: the variables to plot ("comp.var", each recordable; repeats are ignored),
  // usually the netlist's record list. Throws InputError for an unknown name and for
  // settings out of range. The model must outlive the Report.
  // `display_units`: the netlist's "display" units (Netlist::display_units), by
  // quantity ("pressure": "bar") or by variable ("press.x": "mm"), already checked by the
  // loader; the page shows the plots in them (and offers the quantity's other everyday
  // units), results.csv stays SI.
  Report(const Model& model, const std::vector<std::string>& plotted, ReportSettings settings = {},
         std::map<std::string, std::string> display_units = {});

  // RowListener: takes in one recorded row (reads the plotted and the sketch variables
  // from ctx; `row` is not used, so what results.csv records does not matter).
  void row_recorded(const Context& ctx, const std::vector<double>& row) override;

  long rows() const { return rows_; }

  // The linear analysis of this model: linear.json's object (operating point, states,
  // inputs, outputs, A, B, C, D, stability, eigenvalues, modes, bode; README.md). The
  // page gets a "Linear analysis" section from it. Call before data(). Throws InputError
  // unless it is an object whose "modes", when present, is an array.
  void set_linear(nlohmann::json linear);

  // One frame of mode `mode` (index into linear["modes"]) animated: ctx is the model
  // evaluated at the operating point displaced along the mode shape at one phase of its
  // cycle. The report reads the same pose variables as for the rows (sketch_variables)
  // from ctx. Frames of a mode come in phase order over one cycle (e.g. 24); the page
  // loops them. Ignored when nothing in the model moves (no animation); at most
  // settings.animation_frames frames a mode are kept (the cycle's first ones). Throws
  // InputError for a negative mode, or one past linear["modes"] once set_linear was called.
  void mode_frame(int mode, const Context& ctx);

  // The page's data: heading, summary (summary.json's object, as the run wrote it; its
  // event list shortened to settings.table_events), the plotted series and the animation,
  // and with a linear analysis "linear" (set_linear's object as it was given) and
  // "mode_animation" (the sketches and, per mode with frames, the poses of its frames).
  // Callable at any time, e.g. after a failed run: it shows the rows taken in so far.
  nlohmann::json data(const ReportHeading& heading, const nlohmann::json& summary) const;

 private:
  // One plotted variable's extremes over a bucket, with the row index of each, so that
  // the two points a bucket keep the order in which the values came.
  struct Extremes {
    double lo, hi;
    long at_lo, at_hi;
  };
  // Consecutive rows summarized (ordinary), or one row kept as it is (pinned).
  struct Bucket {
    double t_first, t_last;
    long rows;
    bool pinned;
    std::vector<Extremes> values;  // per plotted variable
  };
  struct Row {
    long index = -1;
    double t = 0.0;
    bool event = false;
    std::vector<double> plotted, pose;
  };
  struct Frame {
    long index;
    bool pinned;
    double t;
    std::vector<double> pose;
  };

  void commit(const Row& row);  // a row whose neighbours are known: into buckets and frames
  void add_to_buckets(const Row& row, bool pinned);
  void merge_buckets();
  void add_frame(const Row& row, bool pinned);

  const Model& model_;
  ReportSettings settings_;
  std::map<std::string, std::string> display_units_;
  std::vector<const RecordableVariable*> plotted_, pose_;
  std::vector<bool> monitor_;      // per plotted variable: a monitor (a norm; its size matters)
  nlohmann::json sketches_;        // the components' sketches, named
  long rows_ = 0;
  Row pending_;                    // the last row, held until the next tells whether it is an event's
  std::vector<Bucket> buckets_;
  long bucket_rows_ = 1;           // rows an ordinary bucket takes before the next begins
  long ordinary_buckets_ = 0;
  long pinned_ = 0;
  std::vector<Frame> frames_;
  long frame_stride_ = 1;
  long ordinary_frames_ = 0;
  nlohmann::json linear_;                               // set_linear's object, or null
  std::vector<std::vector<std::vector<double>>> mode_frames_;  // [mode][frame][pose variable]
};

// The page: the page toolkit's report.html (apps/page: page.html with the toolkit's
// and the report's style and script) showing `data` (Report::data). `data["name"]` makes
// the title.
std::string render_page(const nlohmann::json& data);

// Writes render_page(data) to `file`. Throws Error if it cannot.
void write_page(const std::filesystem::path& file, const nlohmann::json& data);

}  // namespace jourdain::report
