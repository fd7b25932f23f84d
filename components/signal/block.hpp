// What the signal blocks share beyond Component:
//   - the unit of what a block carries (parameter "unit", as signal.input's): its
//     output's unit and that of its parameters in the signal's unit (a saturation's or a
//     dead zone's limits, a rate limiter's rates in unit/s);
//   - conditions and cells kept as discrete states and changed at events, watched
//     through zero-crossing functions whose sign is the condition's truth at every value.
//
// Why the sign matters. The solvers and Model::handle_zero_crossings see a crossing when
// a function's sign changes: from < 0 to >= 0 (rising) or from > 0 to <= 0 (falling),
// and, for a jump at an event, to strictly the other side. A function that sits at
// exactly 0 (an input equal to its threshold: a constant, a step onto it) is on neither
// side, so that a later move off 0 in the watched direction would go unseen. Watching
// the condition "v >= 0" through at_or_above(v), which counts an exact 0 as positive,
// makes the function's sign the condition's truth for every v: each change of the
// condition, continuous or by a jump at another component's event, is a sign change and
// so an event, and the handler sets the discrete state from the condition evaluated
// there (components/signal/README.md, "Events").
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "jourdain/units.hpp"
#include "signal_library.hpp"

namespace jourdain::signal_library {

// v, with an exact 0 counted as positive: the sign of the condition v >= 0.
inline double at_or_above(double v) { return v == 0.0 ? std::numeric_limits<double>::min() : v; }
// v, with an exact 0 counted as negative: the sign of the condition v > 0.
inline double strictly_above(double v) { return v == 0.0 ? -std::numeric_limits<double>::min() : v; }

// Why `unit` (a unit expression of units.hpp, or "" for dimensionless) is no unit, or "".
inline std::string unit_problem(const std::string& unit) {
  if (unit.empty()) return "";
  try {
    parse_unit(unit);
    return "";
  } catch (const UnitError& err) {
    return err.what();
  }
}

// The cell of an input on an axis cut at increasing edges e_0 < ... < e_m-1, as a
// discrete state changed at events: cell k holds e_k-1 <= u < e_k (cell 0 everything
// below e_0, cell m everything from e_m-1 on). Two zero crossings watch the cell's
// ends: `below`, u - e_k-1 falling under 0, and `above`, u - e_k reaching 0. At an event
// of either, update() sets the cell from u, however many edges a jump of u has passed.
struct CellWatch {
  std::vector<double> edges;
  DiscreteId cell;
  ZeroCrossingId below, above;

  size_t locate(double u) const {
    return static_cast<size_t>(std::upper_bound(edges.begin(), edges.end(), u) - edges.begin());
  }
  size_t current(const Eval& e) const { return static_cast<size_t>(e.discrete(cell)); }
  bool valid() const { return cell.valid(); }
  bool owns(ZeroCrossingId z) const { return z == below || z == above; }
  // calc_zero_crossings: the cell's ends relative to u (+1 and -1 where the cell has
  // none: values that never cross).
  void watch(Eval& e, double u) const {
    const size_t k = current(e);
    e.set_zero_crossing(below, k > 0 ? at_or_above(u - edges[k - 1]) : 1.0);
    e.set_zero_crossing(above, k < edges.size() ? at_or_above(u - edges[k]) : -1.0);
  }
  // initialize and on_zero_crossing: the cell of u now; true when it changed.
  bool update(Eval& e, double u) const {
    const double k = static_cast<double>(locate(u));
    if (k == e.discrete(cell)) return false;
    e.set_discrete(cell, k);
    return true;
  }
};

// The edges of a range check on [lo, hi]: cell 0 below lo, 1 inside (hi included), 2 above.
inline std::vector<double> range_edges(double lo, double hi) {
  return {lo, std::nextafter(hi, std::numeric_limits<double>::infinity())};
}

class SignalBlock : public Component {
 protected:
  // Constructor: declares the parameter "unit" and makes it decide the parameters that
  // declare_unit_parameters(unit) declares in it.
  void declare_unit() {
    declare_text("unit", "", "SI unit of the signal the block carries, e.g. \"m\", \"Pa\" (empty: dimensionless)");
    set_decides_parameters("unit");
  }
  virtual void declare_unit_parameters(const std::string& /*unit*/) {}
  // The unit of a rate of change of the signal: unit/s ("1/s" for a dimensionless one).
  static std::string per_second(const std::string& unit) { return unit.empty() ? "1/s" : unit + "/s"; }
  // A parameter_error about `lo_name` unless lo < hi (signal_library.hpp, order_problem):
  // from configure() on the netlist's values, from initialize() on a run's.
  void require_order(const std::string& lo_name, double lo, const std::string& hi_name, double hi) const {
    if (std::string why = order_problem(lo_name, lo, hi_name, hi); !why.empty()) parameter_error(lo_name, why);
  }
  // configure(): the output carries the block's unit.
  void set_output_unit(PortId p) {
    if (const std::string u = text("unit"); !u.empty()) set_unit(p, u);
  }

  // configure(): a cell watch on `edges` (increasing), named after `name`.
  CellWatch declare_cells(const std::string& name, std::vector<double> edges, const std::string& what,
                          double initial_input = 0.0) {
    CellWatch w;
    w.edges = std::move(edges);
    w.cell = declare_discrete(name, static_cast<double>(w.locate(initial_input)), what);
    w.below = declare_zero_crossing(name + "_below", CrossingDirection::Falling, what + ": input below the cell");
    w.above = declare_zero_crossing(name + "_above", CrossingDirection::Rising, what + ": input above the cell");
    return w;
  }

 private:
  void declare_dependent_parameters() final {
    const std::string unit = text("unit");
    if (const std::string problem = unit_problem(unit); !problem.empty()) parameter_error("unit", problem);
    if (const std::string problem = unit_problem(per_second(unit)); !problem.empty())
      parameter_error("unit", "a signal whose rate of change has no unit (" + problem + "): give it in SI (K, not degC)");
    declare_unit_parameters(unit);
  }
};

// Base of the blocks that act at sample instants t_k = sample_offset + k sample_time
// (sample-and-hold, discrete controllers, noise): the two parameters, the discrete state
// "next_sample" = k of the first instant after the present time, and the time event
// "sample" there (Component::next_time_event), so that every solver stops on each t_k to
// the bit. The block samples at t0 and then at every t_k > t0: sample(e, first) updates
// its discrete states from its inputs; `first` (at t0, from initialize) asks it to start
// from its initial state rather than from its discrete states, because initialize()
// runs again until the model's discrete states settle and must give the same every time.
// At an instant where other components' events change its input too, the block samples
// the input as it was just before them (all events of an instant are handled from the
// values before it): so does a chain of sampled blocks, each a sample behind the one
// that feeds it.
class SampledBlock : public SignalBlock {
 protected:
  explicit SampledBlock(double default_sample_time) {
    sample_time_ = declare_real("sample_time", "s", default_sample_time, "sample time Ts", Range::positive());
    sample_offset_ = declare_real("sample_offset", "s", 0.0, "a sample instant: samples at sample_offset + k Ts");
  }
  // configure(): the discrete state and the time event.
  void declare_sampling() {
    next_ = declare_discrete("next_sample", first_after(0.0, netlist_value(sample_time_), netlist_value(sample_offset_)),
                             "index k of the next sample instant sample_offset + k Ts");
    tick_ = declare_zero_crossing("sample", CrossingDirection::Rising, "t - (sample_offset + k Ts)");
  }
  virtual void sample(Eval& e, bool first) const = 0;
  RealParam sample_time() const { return sample_time_; }
  // The index of the sample interval [t_k, t_k+1) the present time lies in.
  double interval(const Eval& e) const { return e.discrete(next_) - 1.0; }

 public:
  void initialize(Eval& e) const override {
    e.set_discrete(next_, first_after(e.time(), e.param(sample_time_), e.param(sample_offset_)));
    sample(e, true);
  }
  void calc_zero_crossings(Eval& e) const override { e.set_zero_crossing(tick_, e.time() - instant(e)); }
  double next_time_event(const Eval& e) const override { return instant(e); }
  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    if (z != tick_) return;
    e.set_discrete(next_, e.discrete(next_) + 1.0);
    sample(e, false);
  }

 private:
  // t_k for k = next_sample: one expression, so that the crossing t - t_k is exactly 0
  // at the time event t_k.
  double instant(const Eval& e) const { return e.param(sample_offset_) + e.discrete(next_) * e.param(sample_time_); }
  // The smallest k with offset + k ts > t.
  static double first_after(double t, double ts, double offset) {
    double k = std::floor((t - offset) / ts) + 1.0;
    while (offset + (k - 1.0) * ts > t) k -= 1.0;
    while (offset + k * ts <= t) k += 1.0;
    return k;
  }

  RealParam sample_time_, sample_offset_;
  DiscreteId next_;
  ZeroCrossingId tick_;
};

}  // namespace jourdain::signal_library
