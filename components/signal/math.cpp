// Static signal operations: outputs computed directly from inputs.
#include <algorithm>
#include <string>

#include "jourdain/components/interpolation.hpp"
#include "jourdain/errors.hpp"
#include "block.hpp"
#include "interpolation.hpp"

namespace jourdain::signal_library {

// y = k u
class Gain final : public Component {
 public:
  Gain() { k_ = declare_real("k", "", 1.0, "gain"); }
  void configure() override {
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "output k u");
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.param(k_) * e.in(in_, signal::value)); }

 private:
  RealParam k_;
  PortId in_, out_;
};

// y = sum of s_i u_i, with the signs s_i given as a string such as "+-+" (ports in1..inN).
class Sum final : public Component {
 public:
  Sum() { declare_text("signs", "++", "one '+' or '-' per input, in order (in1, in2, ...)"); }
  void configure() override {
    const std::string signs = text("signs");
    if (signs.empty() || signs.find_first_not_of("+-") != std::string::npos)
      parameter_error("signs", "must be a non-empty string of '+' and '-'");
    for (size_t i = 0; i < signs.size(); ++i) {
      inputs_.push_back(declare_port("in" + std::to_string(i + 1), signal_domain(), PortSide::Response, "input"));
      signs_.push_back(signs[i] == '+' ? 1.0 : -1.0);
    }
    out_ = declare_port("out", signal_domain(), PortSide::State, "signed sum of the inputs");
  }
  void calc_outputs(Eval& e) const override {
    double y = 0.0;
    for (size_t i = 0; i < inputs_.size(); ++i) y += signs_[i] * e.in(inputs_[i], signal::value);
    e.set_out(out_, signal::value, y);
  }

 private:
  std::vector<PortId> inputs_;
  std::vector<double> signs_;
  PortId out_;
};

// y = prod of u_i^(s_i), s_i = +1 for '*' and -1 for '/', with the operations given as a
// string such as "**/" (ports in1..inN): "*/" gives y = u1 / u2, "/" gives y = 1 / u1.
class Product final : public Component {
 public:
  Product() {
    declare_text("operations", "**", "one '*' (multiply) or '/' (divide) per input, in order (in1, in2, ...)");
  }
  void configure() override {
    const std::string ops = text("operations");
    if (ops.empty() || ops.find_first_not_of("*/") != std::string::npos)
      parameter_error("operations", "must be a non-empty string of '*' and '/', got '" + ops + "'");
    for (size_t i = 0; i < ops.size(); ++i) {
      inputs_.push_back(declare_port("in" + std::to_string(i + 1), signal_domain(), PortSide::Response, "input"));
      divide_.push_back(ops[i] == '/');
    }
    out_ = declare_port("out", signal_domain(), PortSide::State, "product of the inputs");
  }
  void calc_outputs(Eval& e) const override {
    double y = 1.0;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const double u = e.in(inputs_[i], signal::value);
      if (!divide_[i]) {
        y *= u;
        continue;
      }
      if (u == 0.0)
        throw SimulationError(e.time(), {name()},
                              "division by zero: input 'in" + std::to_string(i + 1) + "' is 0");
      y /= u;
    }
    e.set_out(out_, signal::value, y);
  }

 private:
  std::vector<PortId> inputs_;
  std::vector<bool> divide_;
  PortId out_;
};

// y = min(max(u, lower), upper)
class Saturation final : public SignalBlock {
 public:
  Saturation() { declare_unit(); }
  void declare_unit_parameters(const std::string& unit) override {
    lower_ = declare_real("lower", unit, -1.0, "lower limit");
    upper_ = declare_real("upper", unit, 1.0, "upper limit (greater than lower)");
  }
  void configure() override {
    require_order("lower", netlist_value(lower_), "upper", netlist_value(upper_));
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "u clamped to [lower, upper]");
    set_output_unit(out_);
  }
  void initialize(Eval& e) const override { require_order("lower", e.param(lower_), "upper", e.param(upper_)); }
  void calc_outputs(Eval& e) const override {
    e.set_out(out_, signal::value, std::clamp(e.in(in_, signal::value), e.param(lower_), e.param(upper_)));
  }

 private:
  RealParam lower_, upper_;
  PortId in_, out_;
};

// y = table(u), interpolated in the rows [x_i, y_i] (interpolation.hpp): linearly, as a
// staircase ("previous") or to the nearest row; outside [x_0, x_n-1] the end values held
// ("hold"), the end segments extended ("linear"), or the end values held while the input's
// leaving the table ends the run ("error") or is reported as a warning ("warn").
//   - Linear interpolation is continuous: y(u) is evaluated at the input (its slope jumps
//     at the breakpoints; no events, as for signal.saturation), so the output feeds the
//     input through.
//   - The staircases jump where the input crosses an edge (the breakpoints, or the
//     midpoints between them for "nearest"): the cell the input lies in is a discrete
//     state changed at events (CellWatch, block.hpp), and the output is its value, which
//     reads no input between events.
//   - "error" and "warn" watch the input's range the same way: cells below x_0, inside,
//     and above x_n-1 (x_n-1 itself inside). An input outside at t0 gives the warning
//     once the start settles (initialize runs until the discrete states do), or the
//     error as the run starts: at the first evaluation of the zero crossings, which
//     comes after initialize has settled, so that an input not yet initialized (a
//     switch's, say) is not taken for the start's.
// For y as a function of time, use signal.time_table.
class Table final : public CurveComponent {
 public:
  Table() : CurveComponent("", {"hold", "linear", "error", "warn"}) {}
  void configure() override {
    load_curve();
    in_ = declare_port("in", signal_domain(), PortSide::Response, "abscissa x");
    out_ = declare_port("out", signal_domain(), PortSide::State, "y(x) interpolated in the table");
    if (steps()) {
      set_dependencies(out_, {});
      cells_ = declare_cells("cell", curve_.edges(), "cell of the input between the table's steps");
    }
    if (extrapolation_ == "error" || extrapolation_ == "warn")
      range_ = declare_cells("range", range_edges(curve_.x(0), curve_.x(curve_.size() - 1)),
                             "0 below the table, 1 inside, 2 above", curve_.x(0));
  }
  void initialize(Eval& e) const override {
    const double u = e.in(in_, signal::value);
    if (steps()) cells_.update(e, u);
    if (range_.valid() && range_.update(e, u) && range_.current(e) != 1 && extrapolation_ == "warn") left(e, u);
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(out_, signal::value, steps() ? curve_.in_cell(cells_.current(e), 0.0) : curve_(e.in(in_, signal::value)));
  }
  void calc_zero_crossings(Eval& e) const override {
    const double u = e.in(in_, signal::value);
    if (steps()) cells_.watch(e, u);
    if (range_.valid()) {
      if (range_.current(e) != 1 && extrapolation_ == "error") left(e, u);  // outside from the start
      range_.watch(e, u);
    }
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    const double u = e.in(in_, signal::value);
    if (steps() && cells_.owns(z)) {
      const double before = curve_.in_cell(cells_.current(e), u);
      if (cells_.update(e, u) && curve_.in_cell(cells_.current(e), u) != before)
        e.log_event("step to " + format_number(curve_.in_cell(cells_.current(e), u)));
    }
    if (range_.valid() && range_.owns(z) && range_.update(e, u) && range_.current(e) != 1) left(e, u);
  }

 private:
  // The input left [x_0, x_n-1]: an error or a warning.
  void left(Eval& e, double u) const {
    const std::string what = "the input " + format_number(u) + " left the table's range [" + format_number(curve_.x(0)) +
                             ", " + format_number(curve_.x(curve_.size() - 1)) + "]";
    if (extrapolation_ == "error")
      throw SimulationError(e.time(), {name()}, what + " (extrapolation \"error\")");
    e.warn(what + ": the end value is held");
  }

  PortId in_, out_;
  CellWatch cells_, range_;
};

// z = table(u1, u2): rows [x, y, z], one per point of a rectangular grid (every x with
// every y, in any order), interpolated by the shared GridMap (interpolation.hpp):
// bilinearly ("linear") or to the nearest grid point ("nearest"), and outside the grid
// held at its edges ("hold"), extended from the edge cells ("linear"), or held while the
// input's leaving the grid ends the run ("error") or gives a warning ("warn"). As for
// signal.table, bilinear interpolation is evaluated at the inputs (it feeds them
// through), while the nearest point is a discrete state per axis (the cell between the
// midpoints) changed at events, and so is the range check per axis (at t0 as there).
class Table2D final : public SignalBlock {
 public:
  Table2D() {
    declare_table("table", {"", "", ""}, "rows [x, y, z], one per point of a grid (every x with every y)");
    set_example("table", nlohmann::json::parse("[[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 2]]"));
    declare_text("interpolation", "linear", "bilinear, or the value of the nearest grid point (its steps are events)",
                 {"linear", "nearest"});
    declare_text("extrapolation", "hold",
                 "outside the grid: hold the edge values, extend the edge cells' planes (linear interpolation), end "
                 "the run with an error as an input leaves the grid, or hold with a warning each time",
                 {"hold", "linear", "error", "warn"});
  }
  void configure() override {
    const auto rows = table("table");
    if (std::string why = GridMap::check(rows, "x", "y"); !why.empty()) parameter_error("table", why);
    nearest_ = text("interpolation") == "nearest";
    extrapolation_ = text("extrapolation");
    if (nearest_ && extrapolation_ == "linear")
      parameter_error("extrapolation", "'linear' extends bilinear interpolation; with 'nearest' the edge values are held");
    grid_ = GridMap(rows, extrapolation_ == "linear" ? GridMap::Extrapolation::Linear : GridMap::Extrapolation::Hold);
    u1_ = declare_port("in1", signal_domain(), PortSide::Response, "x: first abscissa");
    u2_ = declare_port("in2", signal_domain(), PortSide::Response, "y: second abscissa");
    out_ = declare_port("out", signal_domain(), PortSide::State, "z(x, y) interpolated in the grid");
    if (nearest_) {
      set_dependencies(out_, {});
      cells_[0] = declare_cells("cell_x", midpoints(grid_.x()), "nearest grid point along x");
      cells_[1] = declare_cells("cell_y", midpoints(grid_.y()), "nearest grid point along y");
    }
    if (extrapolation_ == "error" || extrapolation_ == "warn") {
      range_[0] = declare_cells("range_x", range_edges(grid_.x().front(), grid_.x().back()),
                                "0 below the grid's x, 1 inside, 2 above", grid_.x().front());
      range_[1] = declare_cells("range_y", range_edges(grid_.y().front(), grid_.y().back()),
                                "0 below the grid's y, 1 inside, 2 above", grid_.y().front());
    }
  }
  void initialize(Eval& e) const override {
    const double u[2] = {e.in(u1_, signal::value), e.in(u2_, signal::value)};
    for (int a = 0; a < 2; ++a) {
      if (nearest_) cells_[a].update(e, u[a]);
      if (range_[a].valid() && range_[a].update(e, u[a]) && range_[a].current(e) != 1 && extrapolation_ == "warn")
        left(e, a, u[a]);
    }
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(out_, signal::value,
              nearest_ ? grid_.z(cells_[0].current(e), cells_[1].current(e))
                       : grid_(e.in(u1_, signal::value), e.in(u2_, signal::value)));
  }
  void calc_zero_crossings(Eval& e) const override {
    const double u[2] = {e.in(u1_, signal::value), e.in(u2_, signal::value)};
    for (int a = 0; a < 2; ++a) {
      if (nearest_) cells_[a].watch(e, u[a]);
      if (!range_[a].valid()) continue;
      if (range_[a].current(e) != 1 && extrapolation_ == "error") left(e, a, u[a]);  // outside from the start
      range_[a].watch(e, u[a]);
    }
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    const double u[2] = {e.in(u1_, signal::value), e.in(u2_, signal::value)};
    for (int a = 0; a < 2; ++a) {
      if (nearest_ && cells_[a].owns(z)) {
        const double before = grid_.z(cells_[0].current(e), cells_[1].current(e));
        if (cells_[a].update(e, u[a]) && grid_.z(cells_[0].current(e), cells_[1].current(e)) != before)
          e.log_event("step to " + format_number(grid_.z(cells_[0].current(e), cells_[1].current(e))));
      }
      if (range_[a].valid() && range_[a].owns(z) && range_[a].update(e, u[a]) && range_[a].current(e) != 1)
        left(e, a, u[a]);
    }
  }

 private:
  void left(Eval& e, int axis, double u) const {
    const auto& values = axis == 0 ? grid_.x() : grid_.y();
    const std::string what = std::string("the input ") + (axis == 0 ? "in1 (x) = " : "in2 (y) = ") + format_number(u) +
                             " left the grid's range [" + format_number(values.front()) + ", " +
                             format_number(values.back()) + "]";
    if (extrapolation_ == "error")
      throw SimulationError(e.time(), {name()}, what + " (extrapolation \"error\")");
    e.warn(what + ": the edge value is held");
  }

  GridMap grid_;
  bool nearest_ = false;
  std::string extrapolation_;
  PortId u1_, u2_, out_;
  CellWatch cells_[2], range_[2];
};

void register_math(Registry& r) {
  r.add<Gain>("signal.gain", "y = k u");
  r.add<Sum>("signal.sum", "y = sum of signed inputs (signs \"+-...\")");
  r.add<Product>("signal.product", "y = product of inputs, each multiplied or divided (operations \"*/...\")");
  r.add<Saturation>("signal.saturation", "y = u clamped to [lower, upper]");
  r.add<Table>("signal.table", "y(u) interpolated in a table [x, y]: linearly, as a staircase or to the nearest row");
  r.add<Table2D>("signal.table_2d", "z(u1, u2) interpolated in a grid [x, y, z]: bilinear or nearest point");
}

}  // namespace jourdain::signal_library
