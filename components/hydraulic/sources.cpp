// Sources: the tank (a constant pressure) and the pressure source (constant or given by
// a signal), the state side of their port: they impose a pressure whatever flows in or
// out, and count the volume received; and the flow source (constant or given by a
// signal), the response side of its port: it delivers a flow whatever the pressure the
// circuit answers with, and counts the volume delivered.
#include "hydraulic_library.hpp"

namespace jourdain::hydraulic_library {

//   p = pressure (or the signal's value),   dV/dt = Σq
// V is the net volume the source has received since the start (m³): with it, a closed
// circuit's volume balance can be checked.
class PressureSource : public Component {
 public:
  explicit PressureSource(bool signal_allowed) : signal_allowed_(signal_allowed) {
    pressure_ = declare_real("pressure", "Pa", 0.0, "gauge pressure imposed (0: atmospheric)");
    if (signal_allowed_)
      declare_text("source", "constant", "constant: the parameter pressure; signal: input 'command' (Pa)",
                   {"constant", "signal"});
  }
  void configure() override {
    port_ = declare_port("p", hydraulic_domain(), PortSide::State,
                         "imposes its pressure; any number of connections, whose flows add up");
    if (signal_allowed_ && text("source") == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "pressure to impose (Pa, gauge)");
      set_dependencies(port_, {command_});
    } else {
      set_dependencies(port_, {});
    }
    volume_ = declare_state("volume", "m^3", 0.0, "net volume received since the start");
    flow_ = declare_observable("flow", "m^3/s", "net flow received");
    // What flows in at its pressure leaves the model: it supplies minus p Σq.
    power_ = declare_observable("supplied_power", "W", "−p Σq: hydraulic power it gives the circuit");
    set_energy_role(power_, EnergyRole::Supplied);
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(port_, hydraulic::pressure, command_.valid() ? e.in(command_, signal::value) : e.param(pressure_));
  }
  void calc_derivatives(Eval& e) const override {
    const double q = e.in(port_, hydraulic::flow_rate);
    e.set_derivative(volume_, q);
    e.set_observable(flow_, q);
    e.set_observable(power_, -e.out(port_, hydraulic::pressure) * q);
  }

 private:
  bool signal_allowed_;
  RealParam pressure_;
  PortId port_, command_;
  StateId volume_;
  ObservableId flow_, power_;
};

class Tank final : public PressureSource {
 public:
  Tank() : PressureSource(false) {}
};
class SignalPressureSource final : public PressureSource {
 public:
  SignalPressureSource() : PressureSource(true) {}
};

// An ideal flow source: a volume flow rate Q delivered into the capacitive element at its
// port, whatever that element's pressure p (a pump of unlimited power and no leakage):
//   q = Q (the parameter flow, or the signal's value),   dV/dt = Q,   P = p Q
// Q < 0 draws liquid out. It reads p only to report it and the power it delivers: the
// flow does not depend on it, so the source breaks no loop and makes none.
class FlowSource final : public Component {
 public:
  FlowSource() {
    flow_ = declare_real("flow", "m^3/s", 0.0,
                         "volume flow rate Q delivered into the connected element (e.g. \"10 L/min\"; < 0 draws)");
    declare_text("source", "constant", "constant: the parameter flow; signal: input 'command' (m³/s)",
                 {"constant", "signal"});
  }
  void configure() override {
    port_ = declare_port("p", hydraulic_domain(), PortSide::Response,
                         "to a capacitive element (a volume, a chamber): delivers Q into it, reads its pressure");
    if (text("source") == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "flow rate to deliver, Q (m³/s)");
      set_dependencies(port_, {command_});
    } else {
      set_dependencies(port_, {});
    }
    volume_ = declare_state("volume", "m^3", 0.0, "volume delivered since the start, ∫ Q dt");
    pressure_ = declare_observable("pressure", "Pa", "pressure at the port, as the circuit imposes it (gauge)");
    power_ = declare_observable("power", "W", "hydraulic power delivered, p Q");
    set_energy_role(power_, EnergyRole::Supplied);
  }
  void calc_outputs(Eval& e) const override { e.set_out(port_, hydraulic::flow_rate, flow(e)); }
  void calc_derivatives(Eval& e) const override {
    const double q = flow(e), p = e.in(port_, hydraulic::pressure);
    e.set_derivative(volume_, q);
    e.set_observable(pressure_, p);
    e.set_observable(power_, p * q);
  }

 private:
  double flow(const Eval& e) const { return command_.valid() ? e.in(command_, signal::value) : e.param(flow_); }

  RealParam flow_;
  PortId port_, command_;
  StateId volume_;
  ObservableId pressure_, power_;
};

void register_sources(Registry& r) {
  r.add<Tank>("hydraulic.tank", "reservoir at a constant pressure (state side); counts the volume it receives");
  r.add<SignalPressureSource>("hydraulic.pressure_source", "imposed pressure, constant or from a signal (state side)");
  r.add<FlowSource>("hydraulic.flow_source",
                    "ideal flow source: imposed flow, constant or from a signal (response side); counts the volume "
                    "delivered");
}

}  // namespace jourdain::hydraulic_library
