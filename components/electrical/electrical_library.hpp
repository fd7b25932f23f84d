// Internal header of the electrical circuits and machines component library.
//
// Conventions shared by every file here (README.md beside this header):
//   - a state-side port (ground, node, capacitor's p, voltage source's p, battery's p)
//     gives its potential v (V) against the common reference;
//   - a response-side port (each pin of a resistor, inductor, current source, switch,
//     machine winding; the n pin of a capacitor, voltage source, battery) returns the
//     current i (A) it delivers INTO the state-side element it is connected to.
// A two-pin branch carrying a current i through itself from its pin p to its pin n
// therefore returns −i at p (it takes i out of the element there) and +i at n.
#pragma once

#include <string>
#include <vector>

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/components/heat_port.hpp"
#include "jourdain/components/interpolation.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::electrical_library {

// Units the framework's unit table spells through V and A (it has no Ω, F, H or C).
inline constexpr const char* kOhm = "V/A";
inline constexpr const char* kFarad = "A*s/V";
inline constexpr const char* kHenry = "V*s/A";

// A branch between two response-side pins p and n (a resistor, an inductor, a switch,
// a current source): the two ports, and the voltage v_p − v_n they read. A branch that
// dissipates may have a heat port (HeatPortComponent) and a resistance that follows its
// temperature.
class Branch : public HeatPortComponent {
 protected:
  void declare_pins(const std::string& what) {
    p_ = declare_port("p", electrical_domain(), PortSide::Response,
                      "pin p, to a node-side element; " + what + " counts from p to n");
    n_ = declare_port("n", electrical_domain(), PortSide::Response, "pin n, to a node-side element");
  }
  double voltage(const Eval& e) const { return e.in(p_, electrical::voltage) - e.in(n_, electrical::voltage); }
  // i through the branch from p to n: taken out of the element at p, delivered into n's.
  void set_current(Eval& e, double i) const {
    e.set_out(p_, electrical::current, -i);
    e.set_out(n_, electrical::current, i);
  }

  // ---- a resistance R(T) that follows the heat port's temperature ----
  //   R(T) = R (1 + α (T − T_ref))
  // (the linear temperature coefficient of a metal; copper: α = 0.00393/K at 20 °C).
  // Constructor, after declare_heat_port_parameter: α and T_ref.
  void declare_temperature_coefficient() {
    alpha_ = declare_real("temperature_coefficient", "1/K", 0.0,
                          "α of R(T) = R (1 + α (T − T_ref)) (copper: 0.00393/K); with heat_port only");
    t_ref_ = declare_real("reference_temperature", "K", 293.15, "T_ref at which the resistance is R; with heat_port only",
                          Range::positive());
  }
  // R(T) at the heat port's temperature; R itself without a heat port.
  double resistance_at_temperature(const Eval& e, double r) const {
    if (!has_heat_port()) return r;
    return r * (1.0 + e.param(alpha_) * (heat_port_temperature(e) - e.param(t_ref_)));
  }

  PortId p_, n_;

 private:
  RealParam alpha_, t_ref_;
};

void register_ground_and_node(Registry& r);
void register_passive(Registry& r);
void register_sources(Registry& r);
void register_switch(Registry& r);
void register_dc_machine(Registry& r);
void register_battery(Registry& r);
void register_converters(Registry& r);
void register_pmsm(Registry& r);
void register_map_machine(Registry& r);

}  // namespace jourdain::electrical_library
