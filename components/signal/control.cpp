// Control blocks: PID controller with anti-windup, comparator with hysteresis.
#include <algorithm>
#include <cmath>
#include <limits>

#include "signal_library.hpp"

namespace jourdain::signal_library {

// PID controller, parallel form, with a filtered derivative, output limits and
// back-calculation anti-windup (Åström & Hägglund, Advanced PID Control, 2006, §3.5):
//
//   Tf dx_f/dt = e - x_f                        (filter state "filter")
//   D = kd (e - x_f) / Tf                       (= kd s / (Tf s + 1) applied to e)
//   v = kp e + I + D                            (unsaturated command, observable)
//   u = min(max(v, u_min), u_max)               (command)
//   dI/dt = ki e + (u - v) / Tt                 (state "integral": the integral term
//                                                 in command units, so that Tt is a time)
//
// While the command sits on a limit, (u - v)/Tt pulls I back so that v stays within
// about Tt ki |e| of the limit instead of winding up. Automatic choices (value 0):
//   Tt = sqrt(Ti Td) = sqrt(kd / ki)  when kd > 0 (the rule of thumb of the reference,
//                                      with Ti = kp/ki, Td = kd/kp);
//   Tt = Ti = kp / ki                  when kd = 0 and kp > 0 (PI: Td = 0 would give 0);
//   Tt = 1 / ki                        for a pure integral controller (kp = kd = 0; it
//                                      reads error and command in the same units).
//   Tf = Td / 10 = kd / (10 kp)        (the usual derivative filter, N = 10).
// With ki = 0 there is no integral action and I stays at its initial value. Gains are
// non-negative; for a reverse-acting loop, negate the error (signal.sum "-+").
class Pid final : public Component {
 public:
  Pid() {
    constexpr double inf = std::numeric_limits<double>::infinity();
    declare_real("kp", "", 1.0, "proportional gain", Range::non_negative());
    declare_real("ki", "1/s", 0.0, "integral gain", Range::non_negative());
    declare_real("kd", "s", 0.0, "derivative gain", Range::non_negative());
    declare_real("Tf", "s", 0.0, "time constant of the derivative filter (0: automatic, Td/10 = kd/(10 kp))",
                 Range::non_negative());
    declare_real("u_min", "", -inf, "lower limit of the command");
    declare_real("u_max", "", inf, "upper limit of the command");
    declare_real("Tt", "s", 0.0,
                 "anti-windup tracking time constant (0: automatic, sqrt(kd/ki) or kp/ki without derivative "
                 "action; a huge value disables anti-windup)",
                 Range::non_negative());
    declare_boolean("start_filter_at_error", true,
                    "start the derivative filter at e(t0), so the derivative term starts at 0 (no kick); false: "
                    "at its \"initial\" value");
  }

  void configure() override {
    kp_ = real("kp");
    ki_ = real("ki");
    kd_ = real("kd");
    u_min_ = real("u_min");
    u_max_ = real("u_max");
    if (!(u_min_ < u_max_))
      parameter_error("u_min", "must be less than u_max (u_min = " + format_number(u_min_) +
                                   ", u_max = " + format_number(u_max_) + ")");

    tf_ = real("Tf");
    if (tf_ == 0.0) {
      if (kd_ == 0.0) tf_ = 1.0;  // no derivative action: the filter only runs idle
      else if (kp_ > 0.0) tf_ = kd_ / (10.0 * kp_);
      else parameter_error("Tf", "must be given (> 0) when kd > 0 and kp = 0: the automatic Td/10 needs kp");
    }
    tt_ = real("Tt");
    if (tt_ == 0.0 && ki_ > 0.0) {
      if (kd_ > 0.0) tt_ = std::sqrt(kd_ / ki_);
      else if (kp_ > 0.0) tt_ = kp_ / ki_;
      else tt_ = 1.0 / ki_;
    }
    start_filter_at_error_ = boolean("start_filter_at_error");

    error_ = declare_port("error", signal_domain(), PortSide::Response, "control error e (set point - measurement)");
    command_ = declare_port("command", signal_domain(), PortSide::State, "command u, within [u_min, u_max]");
    // Without proportional or derivative action the command reads the integral state
    // only, which breaks a loop through the controller.
    if (kp_ == 0.0 && kd_ == 0.0) set_dependencies(command_, {});
    else set_dependencies(command_, {error_});
    integral_ = declare_state("integral", "", 0.0, "integral term I (command units)");
    filter_ = declare_state("filter", "", 0.0, "low-pass filtered error x_f used by the derivative term");
    unsaturated_ = declare_observable("unsaturated", "", "command before the limits, v");
  }

  void initialize(Eval& e) const override {
    if (start_filter_at_error_) e.set_state(filter_, e.in(error_, signal::value));
  }

  void calc_outputs(Eval& e) const override {
    const Terms t = terms(e);
    e.set_out(command_, signal::value, t.u);
    e.set_observable(unsaturated_, t.v);
  }

  void calc_derivatives(Eval& e) const override {
    const Terms t = terms(e);
    e.set_derivative(filter_, (t.e - e.state(filter_)) / tf_);
    e.set_derivative(integral_, ki_ > 0.0 ? ki_ * t.e + (t.u - t.v) / tt_ : 0.0);
  }

 private:
  struct Terms {
    double e, v, u;
  };
  Terms terms(const Eval& e) const {
    const double err = e.in(error_, signal::value);
    const double d = kd_ * (err - e.state(filter_)) / tf_;
    const double v = kp_ * err + e.state(integral_) + d;
    return {err, v, std::clamp(v, u_min_, u_max_)};
  }

  double kp_ = 1.0, ki_ = 0.0, kd_ = 0.0, tf_ = 1.0, tt_ = 1.0;
  double u_min_ = 0.0, u_max_ = 0.0;
  bool start_filter_at_error_ = true;
  PortId error_, command_;
  StateId integral_, filter_;
  ObservableId unsaturated_;
};

// Comparator with hysteresis (a Schmitt trigger):
//   output = high_value once u rises through `upper`,
//   output = low_value  once u falls through `lower`,
//   unchanged while lower < u < upper.
// The latch is a discrete state changed only at events: the solver locates
// u - upper = 0 (rising) and u - lower = 0 (falling) and stops there. The output reads
// the latch only, so it does not feed the input through (it breaks loops).
// Initial latch, in initialize(): high if u(t0) >= upper, low if u(t0) <= lower,
// otherwise `initially_high`.
class Comparator final : public Component {
 public:
  Comparator() {
    declare_real("lower", "", -0.5, "threshold the input must fall below to switch low");
    declare_real("upper", "", 0.5, "threshold the input must rise above to switch high (greater than lower)");
    declare_real("high_value", "", 1.0, "output when high");
    declare_real("low_value", "", 0.0, "output when low");
    declare_boolean("initially_high", false, "start high when lower < u(t0) < upper");
  }

  void configure() override {
    lower_ = real("lower");
    upper_ = real("upper");
    if (!(lower_ < upper_))
      parameter_error("lower", "must be less than upper (lower = " + format_number(lower_) +
                                   ", upper = " + format_number(upper_) + ")");
    high_value_ = real("high_value");
    low_value_ = real("low_value");
    initially_high_ = boolean("initially_high");
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "high_value or low_value");
    set_dependencies(out_, {});
    // initialize() decides from u(t0); until then (other components' initialize() may
    // read the output first) the best guess is initially_high.
    high_ = declare_discrete("high", initially_high_ ? 1.0 : 0.0, "1 while the output is high, 0 while low");
    rise_ = declare_zero_crossing("rise", CrossingDirection::Rising, "u - upper");
    fall_ = declare_zero_crossing("fall", CrossingDirection::Falling, "u - lower");
  }

  void initialize(Eval& e) const override {
    const double u = e.in(in_, signal::value);
    const bool high = u >= upper_ ? true : u <= lower_ ? false : initially_high_;
    e.set_discrete(high_, high ? 1.0 : 0.0);
  }

  void calc_outputs(Eval& e) const override {
    e.set_out(out_, signal::value, is_high(e) ? high_value_ : low_value_);
  }

  void calc_zero_crossings(Eval& e) const override {
    const double u = e.in(in_, signal::value);
    e.set_zero_crossing(rise_, u - upper_);
    e.set_zero_crossing(fall_, u - lower_);
  }

  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    // Crossing upper while already high (after a dip that stayed above lower), or lower
    // while already low, changes nothing.
    if (z == rise_ && !is_high(e)) {
      e.set_discrete(high_, 1.0);
      e.log_event("input rose above upper = " + format_number(upper_) + ": output " + format_number(high_value_));
    } else if (z == fall_ && is_high(e)) {
      e.set_discrete(high_, 0.0);
      e.log_event("input fell below lower = " + format_number(lower_) + ": output " + format_number(low_value_));
    }
  }

 private:
  bool is_high(const Eval& e) const { return e.discrete(high_) > 0.5; }

  double lower_ = -0.5, upper_ = 0.5, high_value_ = 1.0, low_value_ = 0.0;
  bool initially_high_ = false;
  PortId in_, out_;
  DiscreteId high_;
  ZeroCrossingId rise_, fall_;
};

void register_control(Registry& r) {
  r.add<Pid>("signal.pid", "PID controller (parallel form), filtered derivative, limits, back-calculation anti-windup");
  r.add<Comparator>("signal.comparator", "comparator with hysteresis: high above upper, low below lower (events)");
}

}  // namespace jourdain::signal_library
