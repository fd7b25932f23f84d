// Signal sources: outputs that depend on time only.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "block.hpp"
#include "interpolation.hpp"

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

// y = table(t), interpolated in the rows [t_i, y_i] (interpolation.hpp): linearly, as a
// staircase ("previous": y_i from t_i on) or to the nearest row, and held or extended
// outside [t_0, t_n-1]. The formula changes at the curve's edges (the breakpoints t_i,
// or the midpoints between them for "nearest"), so each edge is a time event: the
// discrete state `segment` = number of edges passed selects the formula, and a step that
// the solver takes up to an edge sees one straight line (integrals of the table stay
// exact) or one constant. Linear interpolation's edges change the slope only and are not
// logged; the steps of the other two are, where the value changes.
class TimeTable final : public CurveComponent {
 public:
  TimeTable() : CurveComponent("s", {"hold", "linear"}) {}
  void configure() override {
    load_curve();
    out_ = declare_port("out", signal_domain(), PortSide::State, "y(t) interpolated in the table");
    set_dependencies(out_, {});
    segment_ = declare_discrete("segment", static_cast<double>(curve_.cell(0.0)),  // right for t0 = 0: see Step
                                "number of edges passed: breakpoints t_i (for nearest, the midpoints between them)");
    next_ = declare_zero_crossing("breakpoint", CrossingDirection::Rising, "t - (next edge)");
  }
  void initialize(Eval& e) const override { e.set_discrete(segment_, static_cast<double>(curve_.cell(e.time()))); }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, curve_.in_cell(segment(e), e.time())); }
  void calc_zero_crossings(Eval& e) const override {
    const size_t k = segment(e);
    // After the last edge there is none left: a value that never rises through 0.
    e.set_zero_crossing(next_, k < curve_.edges().size() ? e.time() - curve_.edges()[k] : -1.0);
  }
  double next_time_event(const Eval& e) const override {
    const size_t k = segment(e);
    return k < curve_.edges().size() ? curve_.edges()[k] : std::numeric_limits<double>::infinity();
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    const double before = curve_.in_cell(segment(e), e.time());
    const size_t k = curve_.cell(e.time());
    e.set_discrete(segment_, static_cast<double>(k));
    if (steps() && curve_.in_cell(k, e.time()) != before)
      e.log_event("step to " + format_number(curve_.in_cell(k, e.time())));
  }

 private:
  size_t segment(const Eval& e) const { return static_cast<size_t>(e.discrete(segment_)); }

  PortId out_;
  DiscreteId segment_;
  ZeroCrossingId next_;
};

// Noise: a piecewise-constant random signal, a new value v_j at each sample instant
// t_j = sample_offset + j Ts, held until the next one (SampledBlock): integrators see a
// bounded input that is constant over each step they take, and every solver stops on the
// instants, so a run's noise does not depend on its solver or tolerances.
//   gaussian:  v_j = mean + std_dev sqrt(-2 ln r_2j) cos(2 pi r_2j+1)     (Box-Muller)
//   uniform:   v_j = mean + std_dev sqrt(3) (2 r_2j - 1)   (on [mean -+ sqrt(3) std_dev])
// r_i in (0, 1) is the i-th number of the SplitMix64 sequence that starts at `seed`
// (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
// the i-th state seed + (i + 1) 0x9E3779B97F4A7C15 (mod 2^64), mixed, its top 53 bits
// taken as (k + 1/2) 2^-53. Each value is computed from the seed and its index alone, so
// the component keeps no generator: no state outside the Context, none shared between
// instances, the same value at the same instant in every run with the same seed (and
// from any start time).
class Noise final : public SampledBlock {
 public:
  Noise() : SampledBlock(0.01) {
    declare_unit();
    declare_text("distribution", "gaussian", "of each value: gaussian, or uniform on [mean - sqrt(3) std_dev, mean + "
                 "sqrt(3) std_dev]", {"gaussian", "uniform"});
    seed_ = declare_real("seed", "", 1.0, "seed of the random sequence (a whole number): the same seed, the same noise",
                         Range::between(0.0, 9007199254740992.0));
  }
  void declare_unit_parameters(const std::string& unit) override {
    mean_ = declare_real("mean", unit, 0.0, "mean");
    std_dev_ = declare_real("std_dev", unit, 1.0, "standard deviation", Range::non_negative());
  }
  void configure() override {
    check_seed(netlist_value(seed_));
    gaussian_ = text("distribution") == "gaussian";
    out_ = declare_port("out", signal_domain(), PortSide::State, "noise, held between sample instants");
    set_output_unit(out_);
    set_dependencies(out_, {});
    value_ = declare_discrete("value", 0.0, "the value held since the last sample instant", text("unit"));
    declare_sampling();
  }
  void initialize(Eval& e) const override {
    check_seed(e.param(seed_));
    SampledBlock::initialize(e);
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.discrete(value_)); }

 private:
  void sample(Eval& e, bool) const override {
    const auto seed = static_cast<std::uint64_t>(e.param(seed_));
    const auto j = static_cast<std::uint64_t>(static_cast<std::int64_t>(interval(e)));  // two's complement below 0
    const double r1 = uniform(seed, 2 * j), r2 = uniform(seed, 2 * j + 1);
    const double standard = gaussian_ ? std::sqrt(-2.0 * std::log(r1)) * std::cos(2.0 * std::numbers::pi * r2)
                                      : std::sqrt(3.0) * (2.0 * r1 - 1.0);
    e.set_discrete(value_, e.param(mean_) + e.param(std_dev_) * standard);
  }
  // The i-th number of the SplitMix64 sequence from `seed`, in (0, 1).
  static double uniform(std::uint64_t seed, std::uint64_t i) {
    std::uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (static_cast<double>(z >> 11) + 0.5) * 0x1.0p-53;
  }
  void check_seed(double seed) const {
    if (seed != std::floor(seed)) parameter_error("seed", "must be a whole number, got " + format_number(seed));
  }

  RealParam seed_, mean_, std_dev_;
  bool gaussian_ = true;
  PortId out_;
  DiscreteId value_;
};

// Pulse-width modulation at frequency f (period T = 1/f): in period k, from t_k = k T,
//   y = high  for t_k <= t < t_k + d_k T,   y = low  for t_k + d_k T <= t < t_k+1,
// with d_k the duty cycle at t_k: the input "duty" when connected, else the parameter,
// taken into [0, 1]. Both edges are time events (the rising one at t_k, the falling one
// at t_k + d_k T, known from t_k on), so the mean over period k is
// low + d_k (high - low) exactly, whatever the solver. Period k starts at the t0 of a run
// too (its duty read there, its edge at t_k + d_k T still).
class Pwm final : public Component {
 public:
  Pwm() {
    frequency_ = declare_real("frequency", "Hz", 1000.0, "switching frequency f", Range::positive());
    duty_ = declare_real("duty", "", 0.5, "duty cycle d when the input \"duty\" is unconnected", Range::between(0.0, 1.0));
    high_ = declare_real("high", "", 1.0, "output during the pulse");
    low_ = declare_real("low", "", 0.0, "output between pulses");
  }
  void configure() override {
    duty_in_ = declare_port("duty", signal_domain(), PortSide::Response, "duty cycle d (0 to 1), read at each period start");
    set_optional(duty_in_);
    out_ = declare_port("out", signal_domain(), PortSide::State, "high during the pulse, low between pulses");
    set_dependencies(out_, {});
    period_ = declare_discrete("period", 0.0, "index k of the present period, from t_k = k T");
    d_ = declare_discrete("duty_cycle", netlist_value(duty_), "duty cycle d_k of the present period");
    on_ = declare_discrete("on", netlist_value(duty_) > 0.0 ? 1.0 : 0.0, "1 during the pulse");
    edge_ = declare_zero_crossing("edge", CrossingDirection::Rising, "t - (next edge)");
  }
  void initialize(Eval& e) const override {
    const double T = 1.0 / e.param(frequency_);
    double k = std::floor(e.time() / T);
    while (k * T > e.time()) k -= 1.0;
    while ((k + 1.0) * T <= e.time()) k += 1.0;
    start_period(e, k);
    if (e.discrete(on_) > 0.0 && e.time() >= fall(e)) e.set_discrete(on_, 0.0);
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.param(e.discrete(on_) > 0.0 ? high_ : low_)); }
  void calc_zero_crossings(Eval& e) const override { e.set_zero_crossing(edge_, e.time() - next_edge(e)); }
  double next_time_event(const Eval& e) const override { return next_edge(e); }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    if (e.discrete(on_) > 0.0 && e.discrete(d_) < 1.0) {
      e.set_discrete(on_, 0.0);  // the falling edge
    } else {
      start_period(e, e.discrete(period_) + 1.0);
    }
  }

 private:
  double period_start(const Eval& e, double k) const { return k / e.param(frequency_); }
  // t_k + d_k T, one expression for the event and its crossing.
  double fall(const Eval& e) const {
    return period_start(e, e.discrete(period_)) + e.discrete(d_) / e.param(frequency_);
  }
  // The falling edge while the pulse is on (and ends within the period), else the next period's start.
  double next_edge(const Eval& e) const {
    if (e.discrete(on_) > 0.0 && e.discrete(d_) < 1.0) return fall(e);
    return period_start(e, e.discrete(period_) + 1.0);
  }
  void start_period(Eval& e, double k) const {
    const double d = std::clamp(e.connected(duty_in_) ? e.in(duty_in_, signal::value) : e.param(duty_), 0.0, 1.0);
    e.set_discrete(period_, k);
    e.set_discrete(d_, d);
    e.set_discrete(on_, d > 0.0 ? 1.0 : 0.0);
  }

  RealParam frequency_, duty_, high_, low_;
  PortId duty_in_, out_;
  DiscreteId period_, d_, on_;
  ZeroCrossingId edge_;
};

void register_sources(Registry& r) {
  r.add<Constant>("signal.constant", "constant value");
  r.add<Step>("signal.step", "step from one value to another at a given time (an event)");
  r.add<Ramp>("signal.ramp", "y = offset + slope (t - start_time) from start_time on, offset before");
  r.add<Sine>("signal.sine", "y = offset + amplitude sin(2 pi f t + phase)");
  r.add<Noise>("signal.noise", "seeded random noise, gaussian or uniform, held between sample instants");
  r.add<Pwm>("signal.pwm", "pulse-width modulation: high for d T of each period T = 1/f (edges as time events)");
  r.add<TimeTable>("signal.time_table", "y(t) interpolated in a table [t, y]: linearly, as a staircase or to the nearest row");
}

}  // namespace jourdain::signal_library
