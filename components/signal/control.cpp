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
// With ki = 0 there is no integral action and I stays at its initial value. With kd = 0
// in the netlist there is no derivative term and no filter state: an idle filter would be
// a state of the model all the same, a mode of every linear model (λ = −1/Tf) that
// nothing drives and nothing reads, and a term of every step's error estimate. Like kp
// and kd both 0 (below), that is the netlist's structure: a run cannot make kd non-zero
// then. Gains are
// non-negative; for a reverse-acting loop, negate the error (signal.sum "-+").
// Gains, limits and time constants are numeric parameters, so a run may give them other
// values: the automatic Tf and Tt are worked out from the run's values where they are
// used (a division and a square root per evaluation).
class Pid final : public Component {
 public:
  Pid() {
    constexpr double inf = std::numeric_limits<double>::infinity();
    kp_ = declare_real("kp", "", 1.0,
                       "proportional gain (with kp = kd = 0 in the netlist the command is built independent of the "
                       "error, and a run cannot make either non-zero)",
                       Range::non_negative());
    ki_ = declare_real("ki", "1/s", 0.0, "integral gain", Range::non_negative());
    kd_ = declare_real("kd", "s", 0.0,
                       "derivative gain (see kp; only with kd > 0 in the netlist has the controller its derivative "
                       "filter, the state \"filter\", x_f' = (e - x_f)/Tf, and only then can a run change kd)",
                       Range::non_negative());
    tf_ = declare_real("Tf", "s", 0.0, "time constant of the derivative filter (0: automatic, Td/10 = kd/(10 kp))",
                       Range::non_negative());
    u_min_ = declare_real("u_min", "", -inf, "lower limit of the command");
    u_max_ = declare_real("u_max", "", inf, "upper limit of the command");
    tt_ = declare_real("Tt", "s", 0.0,
                       "anti-windup tracking time constant (0: automatic, sqrt(kd/ki) or kp/ki without derivative "
                       "action; a huge value disables anti-windup)",
                       Range::non_negative());
    declare_boolean("start_filter_at_error", true,
                    "start the derivative filter at e(t0), so the derivative term starts at 0 (no kick); false: "
                    "at its \"initial\" value");
  }

  void configure() override {
    const Tuning netlist = tuning([this](RealParam p) { return netlist_value(p); });
    // Without proportional or derivative action the command reads the integral state
    // only, which breaks a loop through the controller. That is the model's structure
    // (the evaluation order), so it follows the netlist's gains; check() refuses a run
    // whose gains would need the other structure.
    reads_error_ = netlist.kp != 0.0 || netlist.kd != 0.0;
    has_filter_ = netlist.kd != 0.0;
    check(netlist);
    start_filter_at_error_ = boolean("start_filter_at_error");

    error_ = declare_port("error", signal_domain(), PortSide::Response, "control error e (set point - measurement)");
    command_ = declare_port("command", signal_domain(), PortSide::State, "command u, within [u_min, u_max]");
    if (reads_error_) set_dependencies(command_, {error_});
    else set_dependencies(command_, {});
    integral_ = declare_state("integral", "", 0.0, "integral term I (command units)");
    if (has_filter_)
      filter_ = declare_state("filter", "", 0.0, "low-pass filtered error x_f used by the derivative term (kd > 0 only)");
    unsaturated_ = declare_observable("unsaturated", "", "command before the limits, v");
  }

  void initialize(Eval& e) const override {
    check(tuning(e));
    if (has_filter_ && start_filter_at_error_) e.set_state(filter_, e.in(error_, signal::value));
  }

  void calc_outputs(Eval& e) const override {
    const Terms t = terms(e, tuning(e));
    e.set_out(command_, signal::value, t.u);
    e.set_observable(unsaturated_, t.v);
  }

  void calc_derivatives(Eval& e) const override {
    const Tuning g = tuning(e);
    const Terms t = terms(e, g);
    if (has_filter_) e.set_derivative(filter_, (t.e - e.state(filter_)) / g.tf);
    e.set_derivative(integral_, g.ki > 0.0 ? g.ki * t.e + (t.u - t.v) / g.tt : 0.0);
  }

 private:
  // The gains and limits of one run, with the automatic Tf and Tt chosen (class comment).
  struct Tuning {
    double kp, ki, kd, tf, tt, u_min, u_max;
  };
  // `value` reads a parameter: the netlist's value (configure) or the run's (Eval).
  template <class Value>
  Tuning tuning(Value value) const {
    Tuning g{value(kp_), value(ki_), value(kd_), value(tf_), value(tt_), value(u_min_), value(u_max_)};
    if (g.tf == 0.0) {
      if (g.kd == 0.0) g.tf = 1.0;  // no derivative action: no filter, Tf unused
      else if (g.kp > 0.0) g.tf = g.kd / (10.0 * g.kp);
      // else Tf stays 0: check() refuses it
    }
    if (g.tt == 0.0 && g.ki > 0.0) {
      if (g.kd > 0.0) g.tt = std::sqrt(g.kd / g.ki);
      else if (g.kp > 0.0) g.tt = g.kp / g.ki;
      else g.tt = 1.0 / g.ki;
    }
    return g;
  }
  Tuning tuning(const Eval& e) const {
    return tuning([&e](RealParam p) { return e.param(p); });
  }
  // What Model::set_parameter cannot see, checking each value alone.
  void check(const Tuning& g) const {
    if (std::string why = order_problem("u_min", g.u_min, "u_max", g.u_max); !why.empty()) parameter_error("u_min", why);
    if (g.tf == 0.0) parameter_error("Tf", "must be given (> 0) when kd > 0 and kp = 0: the automatic Td/10 needs kp");
    if (!reads_error_ && (g.kp != 0.0 || g.kd != 0.0))
      parameter_error(g.kp != 0.0 ? "kp" : "kd",
                      "must stay 0 in this run: the netlist gives the controller neither proportional nor "
                      "derivative action, so its command was scheduled as independent of the error (give kp or kd "
                      "a non-zero value in the netlist to change it per run)");
    else if (!has_filter_ && g.kd != 0.0)
      parameter_error("kd", "must stay 0 in this run: the netlist gives the controller no derivative action, so it "
                            "has no derivative filter state (give kd a non-zero value in the netlist to change it "
                            "per run)");
  }

  struct Terms {
    double e, v, u;
  };
  Terms terms(const Eval& e, const Tuning& g) const {
    const double err = e.in(error_, signal::value);
    const double d = has_filter_ ? g.kd * (err - e.state(filter_)) / g.tf : 0.0;
    const double v = g.kp * err + e.state(integral_) + d;
    return {err, v, std::clamp(v, g.u_min, g.u_max)};
  }

  RealParam kp_, ki_, kd_, tf_, u_min_, u_max_, tt_;
  bool reads_error_ = true;
  bool has_filter_ = true;  // the netlist's kd > 0
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
    lower_ = declare_real("lower", "", -0.5, "threshold the input must fall below to switch low");
    upper_ = declare_real("upper", "", 0.5, "threshold the input must rise above to switch high (greater than lower)");
    high_value_ = declare_real("high_value", "", 1.0, "output when high");
    low_value_ = declare_real("low_value", "", 0.0, "output when low");
    declare_boolean("initially_high", false, "start high when lower < u(t0) < upper");
  }

  void configure() override {
    check(netlist_value(lower_), netlist_value(upper_));
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
    const double lower = e.param(lower_), upper = e.param(upper_);
    check(lower, upper);
    const double u = e.in(in_, signal::value);
    const bool high = u >= upper ? true : u <= lower ? false : initially_high_;
    e.set_discrete(high_, high ? 1.0 : 0.0);
  }

  void calc_outputs(Eval& e) const override {
    e.set_out(out_, signal::value, e.param(is_high(e) ? high_value_ : low_value_));
  }

  void calc_zero_crossings(Eval& e) const override {
    const double u = e.in(in_, signal::value);
    e.set_zero_crossing(rise_, u - e.param(upper_));
    e.set_zero_crossing(fall_, u - e.param(lower_));
  }

  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    // Crossing upper while already high (after a dip that stayed above lower), or lower
    // while already low, changes nothing.
    if (z == rise_ && !is_high(e)) {
      e.set_discrete(high_, 1.0);
      e.log_event("input rose above upper = " + format_number(e.param(upper_)) + ": output " +
                  format_number(e.param(high_value_)));
    } else if (z == fall_ && is_high(e)) {
      e.set_discrete(high_, 0.0);
      e.log_event("input fell below lower = " + format_number(e.param(lower_)) + ": output " +
                  format_number(e.param(low_value_)));
    }
  }

 private:
  bool is_high(const Eval& e) const { return e.discrete(high_) > 0.5; }
  void check(double lower, double upper) const {
    if (std::string why = order_problem("lower", lower, "upper", upper); !why.empty()) parameter_error("lower", why);
  }

  RealParam lower_, upper_, high_value_, low_value_;
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
