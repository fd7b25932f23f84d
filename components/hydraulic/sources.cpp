// Pressure sources: the tank (a constant pressure) and the pressure source (constant or
// given by a signal). Both are the state side of their port: they impose a pressure
// whatever flows in or out, and count the volume received.
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
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(port_, hydraulic::pressure, command_.valid() ? e.in(command_, signal::value) : e.param(pressure_));
  }
  void calc_derivatives(Eval& e) const override {
    const double q = e.in(port_, hydraulic::flow_rate);
    e.set_derivative(volume_, q);
    e.set_observable(flow_, q);
  }

 private:
  bool signal_allowed_;
  RealParam pressure_;
  PortId port_, command_;
  StateId volume_;
  ObservableId flow_;
};

class Tank final : public PressureSource {
 public:
  Tank() : PressureSource(false) {}
};
class SignalPressureSource final : public PressureSource {
 public:
  SignalPressureSource() : PressureSource(true) {}
};

void register_sources(Registry& r) {
  r.add<Tank>("hydraulic.tank", "reservoir at a constant pressure (state side); counts the volume it receives");
  r.add<SignalPressureSource>("hydraulic.pressure_source", "imposed pressure, constant or from a signal (state side)");
}

}  // namespace jourdain::hydraulic_library
