// Sensors between the hydraulic and signal domains: pressure (at a capacitive element)
// and flow and power (in line between a capacitive element and what feeds it).
#include "hydraulic_library.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::hydraulic_library {

// Pressure at a capacitive element; draws no flow. `out` is the pressure (gauge, Pa).
//
// With "extremes": true it also keeps the extremes of the run, for summary.json. A
// transducer reading p_r follows p with a first-order response, and a second stage p_f
// follows p_r, both with the time constant T:
//   T dp_r/dt = p − p_r,    T dp_f/dt = p_r − p_f,    r = dp_f/dt = (p_r − p_f)/T
// so r is dp/dt seen through a second-order low-pass filter (the largest |dp/dt| of a
// pressure shock depends on the bandwidth it is measured with: T is part of the result),
// and dr/dt = (dp_r/dt − r)/T is known without differentiating anything. (r is not a
// state of its own: a state near zero would be held to the solver's absolute tolerance,
// a needless accuracy on a derivative that costs thousands of steps.)
// The largest reading so far is max(M, p_r), where M, a discrete state, is latched at
// each local maximum of p_r that beats the record: an event located where dp_r/dt falls
// through zero. That zero-crossing function is armed only while p_r exceeds M by the
// resolution ε (elsewhere it is +1, which never crosses), so a reading that rests on its
// record (a relief valve's plateau, where dp_r/dt hovers around 0) does not chatter.
// Likewise the smallest reading (dp_r/dt rising through zero) and the largest |r| (dr/dt
// crossing zero while |r| beats its record). The observables max, min and max_rate hold
// the extremes so far (their last values, in final_values, are the run's).
// With "gated": true the extremes are those of the windows where the input `enable` is
// above 0.5 (a sequencer's output can open one phase of a cycle): each window opening
// restarts them from the reading of that instant, each closing latches them; both are
// events, so the window's ends are exact.
class PressureSensor final : public Component {
 public:
  PressureSensor() {
    declare_boolean("extremes", false, "also track the largest and smallest pressure and the largest |dp/dt|");
    tau_ = declare_real("time_constant", "s", 1e-4, "extremes: time constant T of the transducer and of its rate",
                        Range::positive());
    eps_p_ = declare_real("pressure_resolution", "Pa", 1e3, "extremes: resolution ε of the pressure extremes",
                          Range::positive());
    eps_r_ = declare_real("rate_resolution", "Pa/s", 1e5, "extremes: resolution of the largest |dp/dt|",
                          Range::positive());
    declare_boolean("gated", false, "extremes: track only while the input 'enable' is above 0.5");
  }
  void configure() override {
    port_ = declare_port("p", hydraulic_domain(), PortSide::Response, "to the element measured (draws no flow)");
    set_dependencies(port_, {});
    out_ = declare_port("out", signal_domain(), PortSide::State, "pressure (gauge)");
    set_unit(out_, "Pa");
    set_dependencies(out_, {port_});
    extremes_ = boolean("extremes");
    if (!extremes_) return;
    reading_ = declare_state("reading", "Pa", 0.0, "transducer reading p_r (first-order response)");
    filtered_ = declare_state("reading_filtered", "Pa", 0.0, "p_f: the reading through one more first-order filter");
    rate_ = declare_observable("rate", "Pa/s", "r = dp_f/dt: dp/dt through a second-order low-pass filter");
    max_l_ = declare_discrete("latched_max", 0.0, "largest local maximum of the reading so far", "Pa");
    min_l_ = declare_discrete("latched_min", 0.0, "smallest local minimum of the reading so far", "Pa");
    rate_l_ = declare_discrete("latched_max_rate", 0.0, "largest local maximum of |r| so far", "Pa/s");
    max_ = declare_observable("max", "Pa", "largest reading so far");
    min_ = declare_observable("min", "Pa", "smallest reading so far");
    max_rate_ = declare_observable("max_rate", "Pa/s", "largest |dp/dt| so far (|r|)");
    peak_ = declare_zero_crossing("new_max", CrossingDirection::Falling, "dp_r/dt, while the reading beats its record");
    trough_ =
        declare_zero_crossing("new_min", CrossingDirection::Falling, "−dp_r/dt, while the reading is below its record");
    rate_peak_ =
        declare_zero_crossing("new_max_rate", CrossingDirection::Falling, "d|r|/dt, while |r| beats its record");
    tracking_ = declare_discrete("tracking", 1.0, "1 while the extremes are tracked");
    if (boolean("gated")) {
      enable_ = declare_port("enable", signal_domain(), PortSide::Response, "extremes tracked while above 0.5");
      gate_ = declare_zero_crossing("gate", CrossingDirection::Either, "enable − 0.5");
    }
  }
  void initialize(Eval& e) const override {
    if (!extremes_) return;
    const double p = e.in(port_, hydraulic::pressure);
    e.set_state(reading_, p);
    e.set_state(filtered_, p);
    e.set_discrete(max_l_, p);
    e.set_discrete(min_l_, p);
    e.set_discrete(rate_l_, 0.0);
    e.set_discrete(tracking_, enabled(e) ? 1.0 : 0.0);
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(port_, hydraulic::flow_rate, 0.0);
    e.set_out(out_, signal::value, e.in(port_, hydraulic::pressure));
  }
  void calc_derivatives(Eval& e) const override {
    if (!extremes_) return;
    const Rates d = rates(e);
    e.set_derivative(reading_, d.dpr);
    e.set_derivative(filtered_, d.r);
    e.set_observable(rate_, d.r);
    const double pr = e.state(reading_), r = std::abs(d.r);
    const bool on = tracking(e);
    e.set_observable(max_, on ? std::max(e.discrete(max_l_), pr) : e.discrete(max_l_));
    e.set_observable(min_, on ? std::min(e.discrete(min_l_), pr) : e.discrete(min_l_));
    e.set_observable(max_rate_, on ? std::max(e.discrete(rate_l_), r) : e.discrete(rate_l_));
  }
  void calc_zero_crossings(Eval& e) const override {
    const Rates d = rates(e);
    const double pr = e.state(reading_), r = d.r;
    const bool on = tracking(e);
    const double eps_p = e.param(eps_p_), eps_r = e.param(eps_r_);
    e.set_zero_crossing(peak_, on && pr > e.discrete(max_l_) + eps_p ? d.dpr : 1.0);
    e.set_zero_crossing(trough_, on && pr < e.discrete(min_l_) - eps_p ? -d.dpr : 1.0);
    e.set_zero_crossing(rate_peak_, on && std::abs(r) > e.discrete(rate_l_) + eps_r ? (r >= 0.0 ? d.dr : -d.dr) : 1.0);
    if (gate_.valid()) e.set_zero_crossing(gate_, e.in(enable_, signal::value) - 0.5);
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    const double pr = e.state(reading_), r = std::abs(rates(e).r);
    if (z == gate_) {
      // enable crossed 0.5: the window opens if it was shut and shuts if it was open (at
      // the located crossing, enable may sit exactly on 0.5).
      const bool open = !tracking(e);
      if (open) {  // a new window: start from this instant's reading
        e.set_discrete(max_l_, pr);
        e.set_discrete(min_l_, pr);
        e.set_discrete(rate_l_, r);
      }
      latch(e, pr, r);
      e.set_discrete(tracking_, open ? 1.0 : 0.0);
      return;
    }
    if (z == peak_) e.set_discrete(max_l_, std::max(e.discrete(max_l_), pr));
    if (z == trough_) e.set_discrete(min_l_, std::min(e.discrete(min_l_), pr));
    if (z == rate_peak_) e.set_discrete(rate_l_, std::max(e.discrete(rate_l_), r));
  }

 private:
  bool enabled(const Eval& e) const { return !enable_.valid() || e.in(enable_, signal::value) > 0.5; }
  bool tracking(const Eval& e) const { return e.discrete(tracking_) > 0.5; }
  // Folds the present values into the latched extremes.
  void latch(Eval& e, double pr, double r) const {
    e.set_discrete(max_l_, std::max(e.discrete(max_l_), pr));
    e.set_discrete(min_l_, std::min(e.discrete(min_l_), pr));
    e.set_discrete(rate_l_, std::max(e.discrete(rate_l_), r));
  }
  struct Rates {
    double dpr, r, dr;  // dp_r/dt, r = dp_f/dt, dr/dt
  };
  Rates rates(const Eval& e) const {
    const double tau = e.param(tau_);
    const double dpr = (e.in(port_, hydraulic::pressure) - e.state(reading_)) / tau;
    const double r = (e.state(reading_) - e.state(filtered_)) / tau;
    return {dpr, r, (dpr - r) / tau};
  }

  bool extremes_ = false;
  RealParam tau_, eps_p_, eps_r_;
  PortId port_, out_;
  StateId reading_, filtered_;
  DiscreteId max_l_, min_l_, rate_l_, tracking_;
  ObservableId rate_, max_, min_, max_rate_;
  ZeroCrossingId peak_, trough_, rate_peak_, gate_;
  PortId enable_;
};

// In line between a capacitive element (port a) and the elements that feed it (port b):
// b passes a's pressure on, and the flows the elements deliver at b reach a unchanged.
// `out` is that flow q (into a; m³/s), or the hydraulic power p q (W) it carries; the
// state `volume` is the volume it has passed, ∫ q dt.
template <bool Power>
class InlineSensor final : public Component {
 public:
  void configure() override {
    a_ = declare_port("a", hydraulic_domain(), PortSide::Response, "to the capacitive element (receives its pressure)");
    b_ = declare_port("b", hydraulic_domain(), PortSide::State,
                      "to the elements feeding it (passes the pressure of a; their flows add up)");
    out_ = declare_port("out", signal_domain(), PortSide::State,
                        Power ? "hydraulic power p q delivered into a" : "flow q delivered into a");
    set_unit(out_, Power ? "W" : "m^3/s");
    set_dependencies(b_, {a_});  // pressure: a -> b
    set_dependencies(a_, {b_});  // flow: b -> a
    set_dependencies(out_, Power ? std::vector<PortId>{a_, b_} : std::vector<PortId>{b_});
    volume_ = declare_state("volume", "m^3", 0.0, "volume passed into a since the start");
  }
  void calc_outputs(Eval& e) const override {
    const double p = e.in(a_, hydraulic::pressure), q = e.in(b_, hydraulic::flow_rate);
    e.set_out(b_, hydraulic::pressure, p);
    e.set_out(a_, hydraulic::flow_rate, q);
    e.set_out(out_, signal::value, Power ? p * q : q);
  }
  void calc_derivatives(Eval& e) const override { e.set_derivative(volume_, e.in(b_, hydraulic::flow_rate)); }

 private:
  PortId a_, b_, out_;
  StateId volume_;
};

void register_sensors(Registry& r) {
  r.add<PressureSensor>("hydraulic.pressure_sensor",
                        "pressure as a signal; optionally the run's extremes and largest |dp/dt|");
  r.add<InlineSensor<false>>("hydraulic.flow_sensor", "in-line flow sensor (flow as a signal, volume passed)");
  r.add<InlineSensor<true>>("hydraulic.power_sensor", "in-line hydraulic power sensor p q (and volume passed)");
}

}  // namespace jourdain::hydraulic_library
