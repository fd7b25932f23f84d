// The optional heat port of a component that loses power (a machine, a battery, a
// resistor, an orifice, a valve, a pump, a cylinder).
//
// With its boolean parameter "heat_port" true (configuration: it decides the port), the
// component has a thermal port "heat" on the response side (components/thermal/README.md):
// it returns its losses as the heat flow Q (W) into the element it is connected to (a
// heat capacity standing for a winding, a pack, the oil or a valve block) and reads that
// element's temperature. The losses are then port power into the thermal domain and no
// longer EnergyRole::Loss, so that the energy account counts the heat once
// (framework/README.md, "Energy"). Without the port nothing changes: the losses stay
// Loss observables and the outputs are those of the component without this option.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"

namespace jourdain {

class HeatPortComponent : public Component {
 protected:
  // Constructor: the boolean "heat_port" (default false); `description` says what the
  // port returns, and what follows its temperature.
  void declare_heat_port_parameter(std::string description) {
    declare_boolean("heat_port", false, std::move(description));
  }
  // configure(): the port "heat" when heat_port is true. Its output reads the ports in
  // `reads`, those the losses are computed from, and its own input when the losses
  // follow the temperature (`reads_temperature`: a resistance R(T)).
  void configure_heat_port(std::string description, std::vector<PortId> reads, bool reads_temperature = false) {
    if (!boolean("heat_port")) return;
    heat_ = declare_port("heat", thermal_domain(), PortSide::Response, std::move(description));
    if (reads_temperature) reads.push_back(heat_);
    set_dependencies(heat_, std::move(reads));
  }
  // configure(), after configure_heat_port: observable `o` (W) is a loss, unless the heat
  // port carries it out (port power then: counted once).
  void set_loss_role(ObservableId o) {
    if (!heat_.valid()) set_energy_role(o, EnergyRole::Loss);
  }
  bool has_heat_port() const { return heat_.valid(); }
  PortId heat_port() const { return heat_; }
  // calc_outputs: the heat flow Q delivered into the element at the heat port.
  void set_heat_flow(Eval& e, double q) const { e.set_out(heat_, thermal::heat_flow, q); }
  // The temperature of that element, K (with a heat port only).
  double heat_port_temperature(const Eval& e) const { return e.in(heat_, thermal::temperature); }

 private:
  PortId heat_;
};

}  // namespace jourdain
