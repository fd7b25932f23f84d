// A heat flow source (a heater, the losses of a component modelled apart) and the
// temperature sensor.
#include "thermal_library.hpp"

namespace jourdain::thermal_library {

// Delivers Q (constant, or the signal input `command` in W) into the body it is
// connected to, whatever its temperature: power brought into the model.
class HeatFlowSource final : public Component {
 public:
  HeatFlowSource() {
    heat_flow_ = declare_real("heat_flow", "W", 0.0, "heat flow delivered (with a signal: ignored)");
    declare_text("source", "constant", "constant: the parameter heat_flow; signal: input 'command' (W)",
                 {"constant", "signal"});
  }
  void configure() override {
    port_ = declare_port("p", thermal_domain(), PortSide::Response, "the body heated");
    if (text("source") == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "heat flow to deliver (W)");
      set_dependencies(port_, {command_});
    } else {
      set_dependencies(port_, {});
    }
    supplied_ = declare_observable("supplied_power", "W", "heat flow delivered");
    set_energy_role(supplied_, EnergyRole::Supplied);
  }
  void calc_outputs(Eval& e) const override { e.set_out(port_, thermal::heat_flow, value(e)); }
  void calc_derivatives(Eval& e) const override { e.set_observable(supplied_, value(e)); }

 private:
  double value(const Eval& e) const { return command_.valid() ? e.in(command_, signal::value) : e.param(heat_flow_); }
  RealParam heat_flow_;
  PortId port_, command_;
  ObservableId supplied_;
};

// Reads a body's temperature (K) without taking heat from it.
class TemperatureSensor final : public Component {
 public:
  void configure() override {
    port_ = declare_port("p", thermal_domain(), PortSide::Response, "the body measured (no heat flows)");
    set_dependencies(port_, {});
    out_ = declare_port("out", signal_domain(), PortSide::State, "temperature (K)");
    set_unit(out_, "K");
    set_dependencies(out_, {port_});
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(port_, thermal::heat_flow, 0.0);
    e.set_out(out_, signal::value, e.in(port_, thermal::temperature));
  }

 private:
  PortId port_, out_;
};

void register_sources(Registry& r) {
  r.add<HeatFlowSource>("thermal.heat_flow_source", "heat flow delivered into a body (constant or from a signal)");
  r.add<TemperatureSensor>("thermal.temperature_sensor", "a body's temperature as a signal (K)");
}

}  // namespace jourdain::thermal_library
