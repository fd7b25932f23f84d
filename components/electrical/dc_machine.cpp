// Permanent-magnet (or separately excited, constant field) DC machine: armature circuit
// and rotor,
//
//   L di/dt = v − R i − k ω                  v = v_p − v_n, i from p to n through the armature
//   J dω/dt = k i − b ω − T_c tanh(ω/ω_c) + τ_load
//   dφ/dt   = ω
//
// with one constant k for the torque (τ = k i, N·m/A) and the back-EMF (e = k ω, V·s/rad),
// as energy conservation in the air gap requires (k i ω both ways). τ_load is the sum of
// the torques the shaft's connections exert on the rotor. The Coulomb friction T_c is
// smoothed over |ω| ≲ ω_c (tanh) so that the right-hand side stays continuous.
//
// Motor and generator alike: with a positive speed, current into p (i > 0) against the
// back-EMF is motoring; a shaft driven by its load pushes i < 0, out of p: generating.
//
// Causality (README.md): the pins are a branch (response side; the armature current is a
// state: −i into the element at p, +i at n), the shaft is the state side of a rotational
// port (the rotor's angle and speed are states; the load torque comes in). With
// "heat_port": true, a thermal port (response side) returns the copper and friction
// losses as the heat flow into the capacity it is connected to, and R follows that
// capacity's temperature: R(T) = R (1 + α (T − T_ref)).
//
// Energy: stored ½ L i² (magnetic) and ½ J ω² (kinetic); losses R i² (copper) and
// b ω² + T_c tanh(ω/ω_c) ω (friction), which leave through the heat port when there is
// one (port power then, not a Loss: counted once).
#include <cmath>

#include "electrical_library.hpp"

namespace jourdain::electrical_library {

class DcMachine final : public Branch {
 public:
  DcMachine() {
    r_ = declare_real("resistance", kOhm, 1.0, "armature resistance R (Ω, written V/A)", Range::positive());
    l_ = declare_real("inductance", kHenry, 1e-3, "armature inductance L (H, written V*s/A)", Range::positive());
    k_ = declare_real("torque_constant", "N*m/A", 0.05, "torque constant k, also the back-EMF constant (V·s/rad)",
                      Range::positive());
    j_ = declare_real("inertia", "kg*m^2", 1e-4, "rotor inertia J", Range::positive());
    b_ = declare_real("viscous_friction", "N*m*s/rad", 0.0, "viscous friction coefficient b", Range::non_negative());
    tc_ = declare_real("coulomb_friction", "N*m", 0.0, "Coulomb friction torque T_c", Range::non_negative());
    wc_ = declare_real("coulomb_speed", "rad/s", 0.1, "speed ω_c over which the Coulomb friction builds up (tanh)",
                       Range::positive());
    declare_heat_port_parameter(
        "true: a thermal port 'heat' returns the losses as heat flow and R follows its temperature");
    declare_temperature_coefficient();
  }
  void configure() override {
    declare_pins("the armature current");
    set_dependencies(p_, {});
    set_dependencies(n_, {});
    shaft_ = declare_port("shaft", rotational_domain(), PortSide::State,
                          "rotor: gives its angle and speed, takes the load torques (any number of connections)");
    set_dependencies(shaft_, {});
    configure_heat_port("to a heat capacity: returns the copper and friction losses, reads the winding temperature",
                        {}, /*reads_temperature=*/true);
    i_ = declare_state("i", "A", 0.0, "armature current from p to n");
    w_ = declare_state("w", "rad/s", 0.0, "rotor speed");
    phi_ = declare_state("phi", "rad", 0.0, "rotor angle");
    declare_state_output(n_, electrical::current, i_);
    declare_state_output(shaft_, rotational::angle, phi_);
    declare_state_output(shaft_, rotational::speed, w_);
    torque_ = declare_observable("torque", "N*m", "electromagnetic torque on the rotor, k i");
    emf_ = declare_observable("back_emf", "V", "back-EMF, k ω");
    voltage_ = declare_observable("voltage", "V", "armature voltage v_p − v_n");
    copper_ = declare_observable("copper_loss", "W", "Joule loss in the armature, R i²");
    friction_ = declare_observable("friction_loss", "W", "friction loss, b ω² + T_c tanh(ω/ω_c) ω");
    magnetic_ = declare_observable("magnetic_energy", "J", "energy stored in the armature inductance, ½ L i²");
    kinetic_ = declare_observable("kinetic_energy", "J", "kinetic energy of the rotor, ½ J ω²");
    set_loss_role(copper_);  // with a heat port, the losses leave through it (port power)
    set_loss_role(friction_);
    set_energy_role(magnetic_, EnergyRole::Stored);
    set_energy_role(kinetic_, EnergyRole::Stored);
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(p_, electrical::current, -e.state(i_));
    if (has_heat_port()) {
      const double i = e.state(i_);
      set_heat_flow(e, resistance(e) * i * i + friction_torque(e) * e.state(w_));
    }
  }
  void calc_derivatives(Eval& e) const override {
    const double i = e.state(i_), w = e.state(w_), k = e.param(k_), r = resistance(e);
    const double v = voltage(e), friction = friction_torque(e);
    e.set_derivative(i_, (v - r * i - k * w) / e.param(l_));
    e.set_derivative(w_, (k * i - friction + e.in(shaft_, rotational::torque)) / e.param(j_));
    e.set_derivative(phi_, w);
    e.set_observable(torque_, k * i);
    e.set_observable(emf_, k * w);
    e.set_observable(voltage_, v);
    e.set_observable(copper_, r * i * i);
    e.set_observable(friction_, friction * w);
    e.set_observable(magnetic_, 0.5 * e.param(l_) * i * i);
    e.set_observable(kinetic_, 0.5 * e.param(j_) * w * w);
  }

 private:
  double resistance(const Eval& e) const { return resistance_at_temperature(e, e.param(r_)); }
  double friction_torque(const Eval& e) const {
    const double w = e.state(w_);
    return e.param(b_) * w + e.param(tc_) * std::tanh(w / e.param(wc_));
  }
  RealParam r_, l_, k_, j_, b_, tc_, wc_;
  PortId shaft_;
  StateId i_, w_, phi_;
  ObservableId torque_, emf_, voltage_, copper_, friction_, magnetic_, kinetic_;
};

void register_dc_machine(Registry& r) {
  r.add<DcMachine>("electrical.dc_machine",
                   "DC machine (constant field): armature R, L, constant k, rotor J, friction; motor or generator");
}

}  // namespace jourdain::electrical_library
