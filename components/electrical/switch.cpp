// A switch controlled by a signal: a resistor whose resistance is R_on while closed and
// R_off while open,
//
//   i = (v_p − v_n) / R,   R = R_on (closed) or R_off (open),   loss R i²,
//
// closed while the input `control` is above the threshold. The position is a discrete
// state that changes only at the zero crossing of (control − threshold): between events
// the circuit is smooth, and the solver meets each switching instant rather than
// stepping over it. A branch, response side at both pins (README.md).
#include "electrical_library.hpp"

namespace jourdain::electrical_library {

class Switch final : public Branch {
 public:
  Switch() {
    r_on_ = declare_real("on_resistance", kOhm, 1e-3, "resistance R_on while closed (Ω, written V/A)",
                         Range::positive());
    r_off_ = declare_real("off_resistance", kOhm, 1e6, "resistance R_off while open (Ω, written V/A)",
                          Range::positive());
    threshold_ = declare_real("threshold", "", 0.5, "the switch is closed while control > threshold");
  }
  void configure() override {
    declare_pins("the current");
    control_ = declare_port("control", signal_domain(), PortSide::Response, "closed while above the threshold");
    set_dependencies(p_, {p_, n_});
    set_dependencies(n_, {p_, n_});
    closed_ = declare_discrete("closed", 0.0, "1 closed, 0 open");
    crossing_ = declare_zero_crossing("control", CrossingDirection::Either, "control − threshold");
    current_ = declare_observable("current", "A", "current from p to n");
    loss_ = declare_observable("loss", "W", "power dissipated, R i²");
    set_energy_role(loss_, EnergyRole::Loss);
  }
  void initialize(Eval& e) const override { e.set_discrete(closed_, commanded(e) ? 1.0 : 0.0); }
  void calc_outputs(Eval& e) const override { set_current(e, voltage(e) / resistance(e)); }
  void calc_derivatives(Eval& e) const override {
    const double v = voltage(e), i = v / resistance(e);
    e.set_observable(current_, i);
    e.set_observable(loss_, v * i);
  }
  void calc_zero_crossings(Eval& e) const override {
    e.set_zero_crossing(crossing_, e.in(control_, signal::value) - e.param(threshold_));
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    // The event sits just past the crossing; exactly on it, the crossing itself says the
    // position changes.
    const double u = e.in(control_, signal::value), threshold = e.param(threshold_);
    const double closed = u > threshold ? 1.0 : u < threshold ? 0.0 : 1.0 - e.discrete(closed_);
    if (closed == e.discrete(closed_)) return;
    e.set_discrete(closed_, closed);
    e.log_event(closed != 0.0 ? "closes" : "opens");
  }

 private:
  bool commanded(const Eval& e) const { return e.in(control_, signal::value) > e.param(threshold_); }
  double resistance(const Eval& e) const { return e.param(e.discrete(closed_) != 0.0 ? r_on_ : r_off_); }
  RealParam r_on_, r_off_, threshold_;
  PortId control_;
  DiscreteId closed_;
  ZeroCrossingId crossing_;
  ObservableId current_, loss_;
};

void register_switch(Registry& r) {
  r.add<Switch>("electrical.switch", "signal-controlled switch: R_on while control > threshold, else R_off (events)");
}

}  // namespace jourdain::electrical_library
