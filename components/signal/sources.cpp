// Signal sources: outputs that depend on time only.
#include <cmath>
#include <numbers>

#include "interpolation.hpp"
#include "signal_library.hpp"

namespace jourdain::signal_library {

// y = value
class Constant final : public Component {
 public:
  Constant() { value_ = declare_real("value", "", 0.0, "output value"); }
  void configure() override {
    out_ = declare_port("out", signal_domain(), PortSide::State, "constant value");
    set_dependencies(out_, {});
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.param(value_)); }

 private:
  RealParam value_;
  PortId out_;
};

// y = before for t < step_time, after from then on. The switch is an event, so the
// solver stops exactly on it instead of smearing the jump over a step.
class Step final : public Component {
 public:
  Step() {
    step_time_ = declare_real("step_time", "s", 1.0, "time of the step");
    before_ = declare_real("before", "", 0.0, "output before the step");
    after_ = declare_real("after", "", 1.0, "output from the step on");
  }
  void configure() override {
    out_ = declare_port("out", signal_domain(), PortSide::State, "step signal");
    set_dependencies(out_, {});
    // initialize() sets it from t0 and the run's step_time. The declared value is right
    // for t0 = 0 and the netlist's step_time: the framework computes every output once
    // before any initialize(), so a component reading this output in its own
    // initialize() (a comparator, a PID) sees the output made from the declared value.
    // Should a run's step_time make it wrong, the step's initialize() changes it and
    // Model::initialize runs the initialize() hooks again until nothing changes.
    stepped_ = declare_discrete("stepped", netlist_value(step_time_) <= 0.0 ? 1.0 : 0.0,
                                "1 once the step has happened");
    crossing_ = declare_zero_crossing("step", CrossingDirection::Rising, "t - step_time");
  }
  void initialize(Eval& e) const override {
    e.set_discrete(stepped_, e.time() >= e.param(step_time_) ? 1.0 : 0.0);
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(out_, signal::value, e.param(e.discrete(stepped_) > 0.5 ? after_ : before_));
  }
  void calc_zero_crossings(Eval& e) const override { e.set_zero_crossing(crossing_, e.time() - e.param(step_time_)); }
  double next_time_event(const Eval& e) const override {
    return e.discrete(stepped_) > 0.5 ? std::numeric_limits<double>::infinity() : e.param(step_time_);
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    e.set_discrete(stepped_, 1.0);
    e.log_event("step to " + format_number(e.param(after_)));
  }

 private:
  RealParam step_time_, before_, after_;
  PortId out_;
  DiscreteId stepped_;
  ZeroCrossingId crossing_;
};

// y = offset                              for t < start_time,
// y = offset + slope (t - start_time)     from start_time on.
// The output is continuous but its slope jumps at start_time. That instant is an event,
// like Step's: the formula follows a discrete state, so that the solver restarts on
// the kink instead of stepping over it (an integral of the ramp stays exact).
class Ramp final : public Component {
 public:
  Ramp() {
    start_time_ = declare_real("start_time", "s", 0.0, "time the ramp starts");
    slope_ = declare_real("slope", "1/s", 1.0, "rate of change of the output after start_time (output units per second)");
    offset_ = declare_real("offset", "", 0.0, "output before start_time");
  }
  void configure() override {
    out_ = declare_port("out", signal_domain(), PortSide::State, "ramp signal");
    set_dependencies(out_, {});
    started_ = declare_discrete("started", netlist_value(start_time_) <= 0.0 ? 1.0 : 0.0,  // a first guess: see Step
                                "1 once the ramp has started");
    crossing_ = declare_zero_crossing("start", CrossingDirection::Rising, "t - start_time");
  }
  void initialize(Eval& e) const override {
    e.set_discrete(started_, e.time() >= e.param(start_time_) ? 1.0 : 0.0);
  }
  void calc_outputs(Eval& e) const override {
    const bool started = e.discrete(started_) > 0.5;
    e.set_out(out_, signal::value,
              e.param(offset_) + (started ? e.param(slope_) * (e.time() - e.param(start_time_)) : 0.0));
  }
  void calc_zero_crossings(Eval& e) const override { e.set_zero_crossing(crossing_, e.time() - e.param(start_time_)); }
  double next_time_event(const Eval& e) const override {
    return e.discrete(started_) > 0.5 ? std::numeric_limits<double>::infinity() : e.param(start_time_);
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    e.set_discrete(started_, 1.0);
    e.log_event("ramp starts, slope " + format_number(e.param(slope_)) + " 1/s");
  }

 private:
  RealParam start_time_, slope_, offset_;
  PortId out_;
  DiscreteId started_;
  ZeroCrossingId crossing_;
};

// y = offset + amplitude sin(2 pi f t + phase), f in Hz.
class Sine final : public Component {
 public:
  Sine() {
    amplitude_ = declare_real("amplitude", "", 1.0, "amplitude (half the peak-to-peak swing)");
    frequency_ = declare_real("frequency", "Hz", 1.0, "frequency f", Range::non_negative());
    phase_ = declare_real("phase", "rad", 0.0, "phase at t = 0 (e.g. \"90 deg\")");
    offset_ = declare_real("offset", "", 0.0, "mean value");
  }
  void configure() override {
    out_ = declare_port("out", signal_domain(), PortSide::State, "sine signal");
    set_dependencies(out_, {});
  }
  void calc_outputs(Eval& e) const override {
    const double omega = 2.0 * std::numbers::pi * e.param(frequency_);  // rad/s
    e.set_out(out_, signal::value, e.param(offset_) + e.param(amplitude_) * std::sin(omega * e.time() + e.param(phase_)));
  }

 private:
  RealParam amplitude_, frequency_, phase_, offset_;
  PortId out_;
};

// y = table(t): piecewise-linear interpolation of the rows [t_i, y_i] (interpolation.hpp),
// with the end values held ("hold") or the end segments extended ("linear") outside
// [t_0, t_n-1]. The output is continuous but its slope jumps at each breakpoint t_i, so
// each breakpoint is an event (not logged: nothing jumps). The discrete state `segment`
// = number of breakpoints passed selects the formula, so a step that the solver takes
// up to a breakpoint sees one straight line, and integrals of the table stay exact.
class TimeTable final : public CurveComponent {
 public:
  TimeTable() : CurveComponent("s") {}
  void configure() override {
    load_curve();
    out_ = declare_port("out", signal_domain(), PortSide::State, "y(t) interpolated in the table");
    set_dependencies(out_, {});
    segment_ = declare_discrete("segment", static_cast<double>(curve_.passed(0.0)),  // right for t0 = 0: see Step
                                "number of breakpoints t_i passed (0 before t_0)");
    next_ = declare_zero_crossing("breakpoint", CrossingDirection::Rising, "t - (next breakpoint)");
  }
  void initialize(Eval& e) const override { e.set_discrete(segment_, static_cast<double>(curve_.passed(e.time()))); }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, curve_.on_segment(segment(e), e.time())); }
  void calc_zero_crossings(Eval& e) const override {
    const size_t k = segment(e);
    // After the last breakpoint there is none left: a value that never rises through 0.
    e.set_zero_crossing(next_, k < curve_.size() ? e.time() - curve_.x(k) : -1.0);
  }
  double next_time_event(const Eval& e) const override {
    const size_t k = segment(e);
    return k < curve_.size() ? curve_.x(k) : std::numeric_limits<double>::infinity();
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    e.set_discrete(segment_, static_cast<double>(curve_.passed(e.time())));
  }

 private:
  size_t segment(const Eval& e) const { return static_cast<size_t>(e.discrete(segment_)); }

  PortId out_;
  DiscreteId segment_;
  ZeroCrossingId next_;
};

void register_sources(Registry& r) {
  r.add<Constant>("signal.constant", "constant value");
  r.add<Step>("signal.step", "step from one value to another at a given time (an event)");
  r.add<Ramp>("signal.ramp", "y = offset + slope (t - start_time) from start_time on, offset before");
  r.add<Sine>("signal.sine", "y = offset + amplitude sin(2 pi f t + phase)");
  r.add<TimeTable>("signal.time_table", "y(t) interpolated linearly in a table [t, y]");
}

}  // namespace jourdain::signal_library
