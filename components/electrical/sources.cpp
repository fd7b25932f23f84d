// Ideal sources, each constant or given by a signal.
//
//   voltage source:  v_p = v_n + V             power supplied  V i_out
//   current source:  I from n to p through it   power supplied  I (v_p − v_n)
//
// The voltage source is the state side at p (it imposes the potential there) and the
// response side at n (it reads v_n): the currents its branches deliver into p flow
// through it and leave at n, so i_out = −Σ i_p is the current it drives out of p into the
// circuit. The current source is a branch, response side at both pins: it returns +I at
// p (into the element there) and −I at n, whatever the voltage the circuit answers with.
#include "electrical_library.hpp"

namespace jourdain::electrical_library {

class VoltageSource final : public Component {
 public:
  VoltageSource() {
    v_ = declare_real("voltage", "V", 0.0, "voltage V = v_p − v_n (source \"constant\")");
    declare_text("source", "constant", "constant: the parameter voltage; signal: input 'command' (V)",
                 {"constant", "signal"});
  }
  void configure() override {
    p_ = declare_port("p", electrical_domain(), PortSide::State,
                      "positive terminal: gives v_n + V; any number of branches");
    n_ = declare_port("n", electrical_domain(), PortSide::Response,
                      "negative terminal, to a node-side element (a ground): reads v_n, returns the current");
    if (text("source") == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "voltage to impose, V (V)");
      set_dependencies(p_, {n_, command_});
    } else {
      set_dependencies(p_, {n_});
    }
    set_dependencies(n_, {p_});
    current_ = declare_observable("current", "A", "current driven out of p into the circuit, i_out");
    power_ = declare_observable("power", "W", "power delivered to the circuit, V i_out");
    set_energy_role(power_, EnergyRole::Supplied);
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(p_, electrical::voltage, e.in(n_, electrical::voltage) + voltage(e));
    e.set_out(n_, electrical::current, e.in(p_, electrical::current));
  }
  void calc_derivatives(Eval& e) const override {
    const double i_out = -e.in(p_, electrical::current);
    e.set_observable(current_, i_out);
    e.set_observable(power_, voltage(e) * i_out);
  }

 private:
  double voltage(const Eval& e) const { return command_.valid() ? e.in(command_, signal::value) : e.param(v_); }
  RealParam v_;
  PortId p_, n_, command_;
  ObservableId current_, power_;
};

class CurrentSource final : public Branch {
 public:
  CurrentSource() {
    i_ = declare_real("current", "A", 0.0,
                      "current I driven through the source from n to p, out of p (source \"constant\")");
    declare_text("source", "constant", "constant: the parameter current; signal: input 'command' (A)",
                 {"constant", "signal"});
  }
  void configure() override {
    declare_pins("the voltage v_p − v_n");
    if (text("source") == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "current to drive, I (A)");
      set_dependencies(p_, {command_});
      set_dependencies(n_, {command_});
    } else {
      set_dependencies(p_, {});
      set_dependencies(n_, {});
    }
    voltage_ = declare_observable("voltage", "V", "v_p − v_n");
    power_ = declare_observable("power", "W", "power delivered to the circuit, I (v_p − v_n)");
    set_energy_role(power_, EnergyRole::Supplied);
  }
  void calc_outputs(Eval& e) const override { set_current(e, -current(e)); }
  void calc_derivatives(Eval& e) const override {
    const double v = voltage(e);
    e.set_observable(voltage_, v);
    e.set_observable(power_, current(e) * v);
  }

 private:
  double current(const Eval& e) const { return command_.valid() ? e.in(command_, signal::value) : e.param(i_); }
  RealParam i_;
  PortId command_;
  ObservableId voltage_, power_;
};

void register_sources(Registry& r) {
  r.add<VoltageSource>("electrical.voltage_source", "ideal voltage source, constant or from a signal: v_p = v_n + V");
  r.add<CurrentSource>("electrical.current_source",
                       "ideal current source, constant or from a signal: I from n to p, out of p");
}

}  // namespace jourdain::electrical_library
