// Power electronics, averaged over the switching period (no ripple, no switching events).
//
// DC/DC converter (buck, boost or buck-boost alike): the output side is a regulated
// voltage source, the input side draws the current that carries the output power and the
// losses, at a constant efficiency η:
//
//   v_out = V_set (the parameter or the signal 'command'),   i_out = −Σ i at out_p
//   P_out = v_out i_out
//   P_in  = P_out / η   while P_out ≥ 0 (power flows from the input to the output)
//   P_in  = η P_out     while P_out < 0 (regenerating: power flows back to the input)
//   i_in  = P_in / max(v_in, v_min)     drawn in at in_p, returned at in_n
//   loss  = P_in − P_out ≥ 0
//
// v_min keeps the input current finite while the input voltage collapses (a converter
// below its minimum input voltage stops regulating; this model only caps the current).
//
// Brake chopper: a resistor R switched across a DC bus while its voltage is too high,
// with hysteresis: on when v = v_p − v_n rises above v_on, off when it falls below v_off
// (a discrete state changed at zero crossings):
//
//   i = v / R while on, 0 while off;   loss v i.
//
// Causality (README.md): the converter's out_p is the state side (it gives
// v_out_n + v_out) and out_n the response side; in_p and in_n are a branch (response
// side). The chopper is a branch.
#include <algorithm>
#include <cmath>

#include "electrical_library.hpp"

namespace jourdain::electrical_library {

class DcDcConverter final : public Component {
 public:
  DcDcConverter() {
    v_set_ = declare_real("voltage", "V", 12.0, "output voltage V_set (source \"constant\")");
    declare_text("source", "constant", "constant: the parameter voltage; signal: input 'command' (V)",
                 {"constant", "signal"});
    eta_ = declare_real("efficiency", "", 0.95, "efficiency η, both ways", Range::between(1e-3, 1.0));
    v_min_ = declare_real("min_input_voltage", "V", 1.0,
                          "input voltage below which the input current is taken as at this voltage (caps it)",
                          Range::positive());
  }
  void configure() override {
    in_p_ = declare_port("in_p", electrical_domain(), PortSide::Response, "input +, to a node-side element (a bus)");
    in_n_ = declare_port("in_n", electrical_domain(), PortSide::Response, "input −, to a node-side element (a ground)");
    out_p_ = declare_port("out_p", electrical_domain(), PortSide::State,
                          "output +: gives v_out_n + V_set; any number of branches");
    out_n_ = declare_port("out_n", electrical_domain(), PortSide::Response,
                          "output −, to a node-side element (a ground): reads its potential, returns the current");
    std::vector<PortId> out_deps{out_n_};
    std::vector<PortId> in_deps{in_p_, in_n_, out_p_, out_n_};
    if (text("source") == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "output voltage V_set (V)");
      out_deps.push_back(command_);
      in_deps.push_back(command_);
    }
    set_dependencies(out_p_, out_deps);
    set_dependencies(out_n_, {out_p_});
    set_dependencies(in_p_, in_deps);
    set_dependencies(in_n_, in_deps);
    input_current_ = declare_observable("input_current", "A", "current drawn in at in_p, i_in");
    output_current_ = declare_observable("output_current", "A", "current driven out of out_p, i_out");
    input_power_ = declare_observable("input_power", "W", "power drawn from the input, P_in");
    output_power_ = declare_observable("output_power", "W", "power delivered at the output, P_out");
    loss_ = declare_observable("loss", "W", "P_in − P_out");
    set_energy_role(loss_, EnergyRole::Loss);
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(out_p_, electrical::voltage, e.in(out_n_, electrical::voltage) + setpoint(e));
    e.set_out(out_n_, electrical::current, e.in(out_p_, electrical::current));
    const double i_in = input_power(e) / std::max(input_voltage(e), e.param(v_min_));
    e.set_out(in_p_, electrical::current, -i_in);
    e.set_out(in_n_, electrical::current, i_in);
  }
  void calc_derivatives(Eval& e) const override {
    const double p_in = input_power(e), p_out = output_power(e);
    e.set_observable(input_current_, p_in / std::max(input_voltage(e), e.param(v_min_)));
    e.set_observable(output_current_, -e.in(out_p_, electrical::current));
    e.set_observable(input_power_, p_in);
    e.set_observable(output_power_, p_out);
    e.set_observable(loss_, p_in - p_out);
  }

 private:
  double setpoint(const Eval& e) const { return command_.valid() ? e.in(command_, signal::value) : e.param(v_set_); }
  double input_voltage(const Eval& e) const {
    return e.in(in_p_, electrical::voltage) - e.in(in_n_, electrical::voltage);
  }
  double output_power(const Eval& e) const { return -setpoint(e) * e.in(out_p_, electrical::current); }
  double input_power(const Eval& e) const {
    const double p_out = output_power(e), eta = e.param(eta_);
    return p_out >= 0.0 ? p_out / eta : p_out * eta;
  }
  RealParam v_set_, eta_, v_min_;
  PortId in_p_, in_n_, out_p_, out_n_, command_;
  ObservableId input_current_, output_current_, input_power_, output_power_, loss_;
};

class BrakeChopper final : public Branch {
 public:
  BrakeChopper() {
    r_ = declare_real("resistance", kOhm, 10.0, "brake resistance R (Ω, written V/A)", Range::positive());
    v_on_ = declare_real("on_voltage", "V", 420.0, "bus voltage v_p − v_n above which the resistor is switched in");
    v_off_ = declare_real("off_voltage", "V", 400.0, "bus voltage below which it is switched out (< on_voltage)");
  }
  void configure() override {
    declare_pins("the current");
    set_dependencies(p_, {p_, n_});
    set_dependencies(n_, {p_, n_});
    on_ = declare_discrete("on", 0.0, "1 while the resistor is switched in");
    rise_ = declare_zero_crossing("above_on", CrossingDirection::Rising, "v − on_voltage, while off");
    fall_ = declare_zero_crossing("below_off", CrossingDirection::Falling, "v − off_voltage, while on");
    current_ = declare_observable("current", "A", "current from p to n through the resistor");
    loss_ = declare_observable("loss", "W", "power dissipated in the resistor");
    set_energy_role(loss_, EnergyRole::Loss);
  }
  void calc_derived(Eval& e) const override {
    if (!(e.param(v_off_) < e.param(v_on_))) parameter_error("off_voltage", "must be below on_voltage");
  }
  void initialize(Eval& e) const override {
    if (voltage(e) > e.param(v_on_)) e.set_discrete(on_, 1.0);
  }
  void calc_outputs(Eval& e) const override { set_current(e, current(e)); }
  void calc_derivatives(Eval& e) const override {
    const double i = current(e);
    e.set_observable(current_, i);
    e.set_observable(loss_, voltage(e) * i);
  }
  void calc_zero_crossings(Eval& e) const override {
    const bool on = e.discrete(on_) != 0.0;
    const double v = voltage(e);
    e.set_zero_crossing(rise_, on ? 1.0 : v - e.param(v_on_));
    e.set_zero_crossing(fall_, on ? v - e.param(v_off_) : -1.0);
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    const bool on = z == rise_;
    if (on == (e.discrete(on_) != 0.0)) return;
    e.set_discrete(on_, on ? 1.0 : 0.0);
    e.log_event(on ? "switches the brake resistor in" : "switches the brake resistor out");
  }

 private:
  double current(const Eval& e) const { return e.discrete(on_) != 0.0 ? voltage(e) / e.param(r_) : 0.0; }
  RealParam r_, v_on_, v_off_;
  DiscreteId on_;
  ZeroCrossingId rise_, fall_;
  ObservableId current_, loss_;
};

void register_converters(Registry& r) {
  r.add<DcDcConverter>("electrical.dc_dc_converter",
                       "averaged DC/DC converter: regulated output voltage, input current from P_out and efficiency");
  r.add<BrakeChopper>("electrical.brake_chopper",
                      "brake resistor switched across a DC bus above on_voltage, out below off_voltage (events)");
}

}  // namespace jourdain::electrical_library
