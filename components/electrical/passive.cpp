// Passive two-pin elements. The current i counts positive through the element from pin
// p to pin n; v = v_p − v_n.
//
//   resistor:   i = v / R                      loss R i² = v i
//               (with "heat_port": true, R(T) = R (1 + α (T − T_ref)) at the heat
//               port's temperature T, and the loss leaves as heat through the port)
//   inductor:   L di/dt = v                    stored ½ L i²     (i is a state)
//   capacitor:  C dv_C/dt = i                  stored ½ C v_C²   (v_C is a state)
//
// Causality (README.md): a resistor and an inductor are branches, response side at
// both pins: each returns −i at p and +i at n (the current it delivers into the element
// at that pin). A capacitor is the state side at p, where it gives v_p = v_n + v_C, and
// the response side at n, where it reads v_n and passes on the current it receives at
// p: the sum of the currents its branches deliver into p flows through it to n.
#include <vector>

#include "electrical_library.hpp"

namespace jourdain::electrical_library {

class Resistor final : public Branch {
 public:
  Resistor() {
    r_ = declare_real("resistance", kOhm, 1.0, "resistance R (Ω, written V/A)", Range::positive());
    declare_heat_port_parameter(
        "true: a thermal port 'heat' returns the loss R i² as heat flow and R follows its temperature");
    declare_temperature_coefficient();
  }
  void configure() override {
    declare_pins("the current");
    configure_heat_port("to a heat capacity: returns the loss R i², reads the resistor's temperature", {p_, n_},
                        /*reads_temperature=*/true);
    // With a heat port, R(T) makes the current read the temperature too.
    std::vector<PortId> reads{p_, n_};
    if (has_heat_port()) reads.push_back(heat_port());
    set_dependencies(p_, reads);
    set_dependencies(n_, reads);
    current_ = declare_observable("current", "A", "current i from p to n");
    voltage_ = declare_observable("voltage", "V", "v_p − v_n");
    loss_ = declare_observable("loss", "W", "power dissipated, R i²");
    set_loss_role(loss_);  // with a heat port, it leaves through it (port power)
  }
  void calc_outputs(Eval& e) const override {
    const double v = voltage(e), i = v / resistance(e);
    set_current(e, i);
    if (has_heat_port()) set_heat_flow(e, v * i);  // R i², as the observable loss
  }
  void calc_derivatives(Eval& e) const override {
    const double v = voltage(e), i = v / resistance(e);
    e.set_observable(current_, i);
    e.set_observable(voltage_, v);
    e.set_observable(loss_, v * i);
  }

 private:
  double resistance(const Eval& e) const { return resistance_at_temperature(e, e.param(r_)); }
  RealParam r_;
  ObservableId current_, voltage_, loss_;
};

class Inductor final : public Branch {
 public:
  Inductor() { l_ = declare_real("inductance", kHenry, 1e-3, "inductance L (H, written V*s/A)", Range::positive()); }
  void configure() override {
    declare_pins("the current");
    set_dependencies(p_, {});
    set_dependencies(n_, {});
    i_ = declare_state("i", "A", 0.0, "current from p to n");
    declare_state_output(n_, electrical::current, i_);
    voltage_ = declare_observable("voltage", "V", "v_p − v_n = L di/dt");
    energy_ = declare_observable("energy", "J", "magnetic energy stored, ½ L i²");
    set_energy_role(energy_, EnergyRole::Stored);
  }
  void calc_outputs(Eval& e) const override { e.set_out(p_, electrical::current, -e.state(i_)); }
  void calc_derivatives(Eval& e) const override {
    const double v = voltage(e), l = e.param(l_), i = e.state(i_);
    e.set_derivative(i_, v / l);
    e.set_observable(voltage_, v);
    e.set_observable(energy_, 0.5 * l * i * i);
  }

 private:
  RealParam l_;
  StateId i_;
  ObservableId voltage_, energy_;
};

class Capacitor final : public Component {
 public:
  Capacitor() {
    c_ = declare_real("capacitance", kFarad, 1e-6, "capacitance C (F, written A*s/V: \"100 uA*s/V\" is 100 µF)",
                      Range::positive());
  }
  void configure() override {
    p_ = declare_port("p", electrical_domain(), PortSide::State,
                      "plate p: gives v_n + v_C; any number of branches, whose currents charge it");
    n_ = declare_port("n", electrical_domain(), PortSide::Response,
                      "plate n, to a node-side element: reads v_n, returns the current received at p");
    set_dependencies(p_, {n_});
    set_dependencies(n_, {p_});
    v_ = declare_state("v", "V", 0.0, "voltage across the capacitor, v_p − v_n");
    current_ = declare_observable("current", "A", "current through the capacitor from p to n, C dv/dt");
    energy_ = declare_observable("energy", "J", "electric energy stored, ½ C v²");
    set_energy_role(energy_, EnergyRole::Stored);
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(p_, electrical::voltage, e.in(n_, electrical::voltage) + e.state(v_));
    e.set_out(n_, electrical::current, e.in(p_, electrical::current));
  }
  void calc_derivatives(Eval& e) const override {
    const double i = e.in(p_, electrical::current), c = e.param(c_), v = e.state(v_);
    e.set_derivative(v_, i / c);
    e.set_observable(current_, i);
    e.set_observable(energy_, 0.5 * c * v * v);
  }

 private:
  RealParam c_;
  PortId p_, n_;
  StateId v_;
  ObservableId current_, energy_;
};

void register_passive(Registry& r) {
  r.add<Resistor>("electrical.resistor", "linear resistor: i = (v_p − v_n)/R, loss R i² (optionally as heat, R(T))");
  r.add<Inductor>("electrical.inductor", "linear inductor: L di/dt = v_p − v_n (current state), stores ½ L i²");
  r.add<Capacitor>("electrical.capacitor",
                   "linear capacitor: C dv/dt = i (voltage state); p gives v_n + v, n passes the current on");
}

}  // namespace jourdain::electrical_library
