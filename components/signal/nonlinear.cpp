// Nonlinear signal blocks: rate limiter, dead zone, backlash, min, max, abs. Each carries
// a signal of one unit (parameter "unit", block.hpp): its output and its parameters in
// the signal's unit are in it.
#include <algorithm>
#include <cmath>
#include <limits>

#include "block.hpp"

namespace jourdain::signal_library {

// Rate limiter (the law of Modelica.Blocks.Nonlinear.SlewRateLimiter):
//
//   dy/dt = min(max((u - y) / Td, -falling), rising)
//
// Far from the input (u - y > rising Td, or y - u > falling Td) the output moves at the
// limit rate exactly; near it, y follows u as a first-order lag of time constant Td, so
// that a ramp slower than the limits is followed Td behind (a lag of slope Td). A small
// Td makes y the rate-limited input; its price is a mode -1/Td while y follows u (a
// stiff one for dopri5 when Td is far below the model's time scales). The output is the
// state: no direct feedthrough. y starts at u(t0), or at the netlist's "initial" y.
class RateLimiter final : public SignalBlock {
 public:
  RateLimiter() {
    declare_unit();
    td_ = declare_real("Td", "s", 1e-3, "time constant of following the input within the rate limits", Range::positive());
    declare_boolean("start_at_input", true, "start the output at u(t0); false: at its \"initial\" value y");
  }
  void declare_unit_parameters(const std::string& unit) override {
    rising_ = declare_real("rising", per_second(unit), 1.0, "largest rate of rise of the output", Range::positive());
    falling_ = declare_real("falling", per_second(unit), 1.0, "largest rate of fall of the output (a positive number)",
                            Range::positive());
  }
  void configure() override {
    start_at_input_ = boolean("start_at_input");
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "rate-limited output y");
    set_output_unit(out_);
    set_dependencies(out_, {});
    y_ = declare_state("y", text("unit"), 0.0, "output");
    declare_state_output(out_, signal::value, y_);
  }
  void initialize(Eval& e) const override {
    if (start_at_input_) e.set_state(y_, e.in(in_, signal::value));
  }
  void calc_derivatives(Eval& e) const override {
    const double following = (e.in(in_, signal::value) - e.state(y_)) / e.param(td_);
    e.set_derivative(y_, std::clamp(following, -e.param(falling_), e.param(rising_)));
  }

 private:
  RealParam td_, rising_, falling_;
  bool start_at_input_ = true;
  PortId in_, out_;
  StateId y_;
};

// Dead zone:  y = u - upper above upper,  u - lower below lower,  0 in between.
// Continuous (its slope jumps at the limits; no events, as for signal.saturation).
class DeadZone final : public SignalBlock {
 public:
  DeadZone() { declare_unit(); }
  void declare_unit_parameters(const std::string& unit) override {
    lower_ = declare_real("lower", unit, -0.5, "lower end of the dead zone");
    upper_ = declare_real("upper", unit, 0.5, "upper end of the dead zone (greater than lower)");
  }
  void configure() override {
    require_order("lower", netlist_value(lower_), "upper", netlist_value(upper_));
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "u less the dead zone");
    set_output_unit(out_);
  }
  void initialize(Eval& e) const override { require_order("lower", e.param(lower_), "upper", e.param(upper_)); }
  void calc_outputs(Eval& e) const override {
    const double u = e.in(in_, signal::value), lower = e.param(lower_), upper = e.param(upper_);
    e.set_out(out_, signal::value, u > upper ? u - upper : u < lower ? u - lower : 0.0);
  }

 private:
  RealParam lower_, upper_;
  PortId in_, out_;
};

// Backlash (play) of total width w: the output moves with the input only when the input
// pushes it from one side of the gap,
//
//   pushed up:    y = u - w/2     (the input drives the output upward)
//   pushed down:  y = u + w/2
//   free:         y = y_h         (held, while |u - y_h| < w/2)
//
// The mode and the held output are discrete states changed at events:
//   free -> pushed up     when u - w/2 rises above y_h (zero crossing "engage_up"),
//   free -> pushed down   when u + w/2 falls below y_h ("engage_down"),
//   pushed -> free        when the input turns back ("release"), y_h = the output there.
// A turn of the input is a zero of du/dt, which the block does not see: it watches
// u - z, where z is the input through a first-order lag, Tr dz/dt = u - z (the state
// "input_lag"): while u rises, z trails it below; past a maximum, u falls through z a time
// Tr after the turn. The output held there is then low by the input's fall in that time,
// about |d²u/dt²| Tr²/2 (2e-5 of the amplitude of a 1 Hz sine at Tr = 1 ms), and the held
// value is taken from z (the input where it turned), so that an input that jumps back
// (a step) leaves the output where it was. A reversal within a few Tr of a jump of the
// input is seen late, by up to the jump's size. At t0 the output starts at "initial_output",
// taken into the gap [u - w/2, u + w/2] if outside it (and then pushed from that side).
class Backlash final : public SignalBlock {
 public:
  Backlash() {
    declare_unit();
    tr_ = declare_real("Tr", "s", 1e-3, "time constant of the input lag that sees the input turn", Range::positive());
  }
  void declare_unit_parameters(const std::string& unit) override {
    width_ = declare_real("width", unit, 1.0, "total width w of the gap (the input moves w/2 either side freely)",
                          Range::positive());
    initial_ = declare_real("initial_output", unit, 0.0, "output at t0 (taken into [u - w/2, u + w/2])");
  }
  void configure() override {
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "output y, within w/2 of u");
    set_output_unit(out_);
    const std::string unit = text("unit");
    lag_ = declare_state("input_lag", unit, 0.0, "the input through the lag Tr (sees the input turn)");
    mode_ = declare_discrete("mode", 0.0, "1 while pushed up, -1 while pushed down, 0 while free");
    held_ = declare_discrete("held", netlist_value(initial_), "output while free", unit);
    engage_up_ = declare_zero_crossing("engage_up", CrossingDirection::Rising, "u - w/2 - held (free)");
    engage_down_ = declare_zero_crossing("engage_down", CrossingDirection::Rising, "held - (u + w/2) (free)");
    release_ = declare_zero_crossing("release", CrossingDirection::Rising, "(input_lag - u) mode (pushed)");
  }
  void initialize(Eval& e) const override {
    const double u = e.in(in_, signal::value), half = 0.5 * e.param(width_), y0 = e.param(initial_);
    e.set_state(lag_, u);
    e.set_discrete(held_, std::clamp(y0, u - half, u + half));
    e.set_discrete(mode_, y0 < u - half ? 1.0 : y0 > u + half ? -1.0 : 0.0);
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, output(e, e.in(in_, signal::value))); }
  void calc_derivatives(Eval& e) const override {
    e.set_derivative(lag_, (e.in(in_, signal::value) - e.state(lag_)) / e.param(tr_));
  }
  void calc_zero_crossings(Eval& e) const override {
    const double u = e.in(in_, signal::value), half = 0.5 * e.param(width_), mode = e.discrete(mode_);
    const double held = e.discrete(held_);
    // Conditions that leave the present mode, each > 0 when met (-1: not watched in it).
    e.set_zero_crossing(engage_up_, mode == 0.0 ? strictly_above(u - half - held) : -1.0);
    e.set_zero_crossing(engage_down_, mode == 0.0 ? strictly_above(held - (u + half)) : -1.0);
    e.set_zero_crossing(release_, mode == 0.0 ? -1.0 : strictly_above(mode * (e.state(lag_) - u)));
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    const double u = e.in(in_, signal::value), half = 0.5 * e.param(width_), z = e.state(lag_);
    double mode = e.discrete(mode_), held = e.discrete(held_);
    if (mode != 0.0 && mode * (z - u) > 0.0) {  // the input turned (or jumped) back
      held = z - mode * half;
      mode = 0.0;
    }
    if (mode == 0.0) mode = u - half > held ? 1.0 : u + half < held ? -1.0 : 0.0;
    if (mode == e.discrete(mode_) && held == e.discrete(held_)) return;
    e.set_discrete(mode_, mode);
    e.set_discrete(held_, held);
    // The lag restarts at the input: after a jump it would otherwise trail it by the jump.
    e.set_state(lag_, u);
    e.log_event(mode > 0.0   ? "pushed up"
                : mode < 0.0 ? "pushed down"
                             : "free: output held at " + format_number(held));
  }

 private:
  double output(const Eval& e, double u) const {
    const double mode = e.discrete(mode_);
    return mode == 0.0 ? e.discrete(held_) : u - mode * 0.5 * e.param(width_);
  }

  RealParam tr_, width_, initial_;
  PortId in_, out_;
  StateId lag_;
  DiscreteId mode_, held_;
  ZeroCrossingId engage_up_, engage_down_, release_;
};

// y = min or max of the inputs in1..inN (N = "inputs"). Continuous; where the extreme
// input changes its slope jumps (no event, as for signal.saturation).
template <bool Max>
class Extremum final : public SignalBlock {
 public:
  Extremum() {
    declare_unit();
    declare_integer("inputs", 2, "number of inputs N (ports in1..inN)", Range::at_least(1));
  }
  void configure() override {
    const long n = integer("inputs");
    for (long i = 1; i <= n; ++i)
      inputs_.push_back(declare_port("in" + std::to_string(i), signal_domain(), PortSide::Response, "input"));
    out_ = declare_port("out", signal_domain(), PortSide::State, Max ? "largest input" : "smallest input");
    set_output_unit(out_);
  }
  void calc_outputs(Eval& e) const override {
    double y = e.in(inputs_.front(), signal::value);
    for (size_t i = 1; i < inputs_.size(); ++i) {
      const double u = e.in(inputs_[i], signal::value);
      y = Max ? std::max(y, u) : std::min(y, u);
    }
    e.set_out(out_, signal::value, y);
  }

 private:
  std::vector<PortId> inputs_;
  PortId out_;
};

// y = |u|
class Abs final : public SignalBlock {
 public:
  Abs() { declare_unit(); }
  void configure() override {
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "|u|");
    set_output_unit(out_);
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, std::abs(e.in(in_, signal::value))); }

 private:
  PortId in_, out_;
};

void register_nonlinear(Registry& r) {
  r.add<RateLimiter>("signal.rate_limiter", "output follows the input at rates within [-falling, rising]");
  r.add<DeadZone>("signal.dead_zone", "y = 0 within [lower, upper], u less the nearer limit outside");
  r.add<Backlash>("signal.backlash", "backlash of width w: the output moves only while the input pushes it (events)");
  r.add<Extremum<false>>("signal.min", "y = smallest of N inputs");
  r.add<Extremum<true>>("signal.max", "y = largest of N inputs");
  r.add<Abs>("signal.abs", "y = |u|");
}

}  // namespace jourdain::signal_library
