// Where heat is kept: the heat capacity (a lumped body: a motor's windings, a tank of
// oil, a battery pack) and the fixed temperature (the surroundings, a coolant held at
// temperature), the state side of the thermal domain.
#include "thermal_library.hpp"

namespace jourdain::thermal_library {

// A lumped body at one temperature:  C dT/dt = Σ Q  (the heat flows delivered to it).
// Its stored energy is counted from 0 K, C T: only its changes mean anything.
class HeatCapacity final : public Component {
 public:
  HeatCapacity() {
    capacity_ = declare_real("heat_capacity", "J/K", std::nullopt, "heat capacity C = m c (e.g. 5 kg of steel: 2300 J/K)",
                             Range::positive());
  }
  void configure() override {
    port_ = declare_port("p", thermal_domain(), PortSide::State,
                         "its temperature out, heat flows in (any number of connections; they add up)");
    set_dependencies(port_, {});
    temperature_ = declare_state("T", "K", 293.15, "temperature");
    declare_state_output(port_, thermal::temperature, temperature_);
    heat_flow_ = declare_observable("heat_flow", "W", "net heat flow into the body");
    stored_ = declare_observable("stored_energy", "J", "C T (counted from 0 K)");
    set_energy_role(stored_, EnergyRole::Stored);
  }
  void calc_derivatives(Eval& e) const override {
    const double q = e.in(port_, thermal::heat_flow);
    e.set_derivative(temperature_, q / e.param(capacity_));
    e.set_observable(heat_flow_, q);
    e.set_observable(stored_, e.param(capacity_) * e.state(temperature_));
  }

 private:
  RealParam capacity_;
  PortId port_;
  StateId temperature_;
  ObservableId heat_flow_, stored_;
};

// The surroundings, or a coolant held at a temperature (constant, or the signal input
// `command` in K): it takes any heat flow. The heat it takes leaves the model, so for the
// energy account it supplies minus that (counts it as received heat, J, too).
class FixedTemperature final : public Component {
 public:
  FixedTemperature() {
    temperature_ = declare_real("temperature", "K", 293.15, "temperature held (e.g. \"40 degC\")", Range::positive());
    declare_text("source", "constant", "constant: the parameter temperature; signal: input 'command' (K)",
                 {"constant", "signal"});
  }
  void configure() override {
    port_ = declare_port("p", thermal_domain(), PortSide::State,
                         "holds its temperature; any number of connections, whose heat flows add up");
    if (text("source") == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "temperature to hold (K)");
      set_dependencies(port_, {command_});
    } else {
      set_dependencies(port_, {});
    }
    heat_ = declare_state("heat", "J", 0.0, "net heat received since the start");
    heat_flow_ = declare_observable("heat_flow", "W", "net heat flow received");
    supplied_ = declare_observable("supplied_power", "W", "heat flow it gives the model (minus what it receives)");
    set_energy_role(supplied_, EnergyRole::Supplied);
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(port_, thermal::temperature, command_.valid() ? e.in(command_, signal::value) : e.param(temperature_));
  }
  void calc_derivatives(Eval& e) const override {
    const double q = e.in(port_, thermal::heat_flow);
    e.set_derivative(heat_, q);
    e.set_observable(heat_flow_, q);
    e.set_observable(supplied_, -q);
  }

 private:
  RealParam temperature_;
  PortId port_, command_;
  StateId heat_;
  ObservableId heat_flow_, supplied_;
};

void register_capacities(Registry& r) {
  r.add<HeatCapacity>("thermal.heat_capacity", "lumped body at one temperature, C dT/dt = ΣQ");
  r.add<FixedTemperature>("thermal.fixed_temperature", "surroundings or coolant held at a temperature");
}

}  // namespace jourdain::thermal_library
