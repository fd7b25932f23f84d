// Rotating inertia about a fixed axis (a rotor, a flywheel, a gear wheel with its shaft).
//
//   J dω/dt = Σ τ,   dφ/dt = ω,   E = ½ J ω²
// where Σ τ is the sum of the torques returned by everything connected to its two
// flanges. The flanges a and b are the same rigid body: both give the inertia's angle
// and speed, and each takes any number of connections; a and b are only there so that
// a driveline can be drawn from left to right.
#include "rotational_library.hpp"

namespace jourdain::rotational_library {

class Inertia final : public Component {
 public:
  Inertia() {
    inertia_ = declare_real("inertia", "kg*m^2", 0.01, "moment of inertia J about the axis", Range::positive());
  }

  void configure() override {
    a_ = declare_port("a", rotational_domain(), PortSide::State,
                      "flange a: angle and speed out, torque in (any number of connections; torques add up)");
    b_ = declare_port("b", rotational_domain(), PortSide::State,
                      "flange b: the same body as a (any number of connections; torques add up)");
    set_dependencies(a_, {});
    set_dependencies(b_, {});
    phi_ = declare_state("phi", "rad", 0.0, "angle");
    w_ = declare_state("w", "rad/s", 0.0, "angular speed");
    for (PortId p : {a_, b_}) {
      declare_state_output(p, rotational::angle, phi_);
      declare_state_output(p, rotational::speed, w_);
    }
    alpha_ = declare_observable("alpha", "rad/s^2", "angular acceleration");
    torque_ = declare_observable("torque", "N*m", "sum of the torques on the inertia (both flanges)");
    energy_ = declare_observable("kinetic_energy", "J", "½ J ω²");
    set_energy_role(energy_, EnergyRole::Stored);
  }

  void calc_derivatives(Eval& e) const override {
    // J dω/dt = τ_a + τ_b
    const double j = e.param(inertia_), w = e.state(w_);
    const double torque = e.in(a_, rotational::torque) + e.in(b_, rotational::torque);
    e.set_derivative(phi_, w);
    e.set_derivative(w_, torque / j);
    e.set_observable(alpha_, torque / j);
    e.set_observable(torque_, torque);
    e.set_observable(energy_, 0.5 * j * w * w);
  }

 private:
  RealParam inertia_;
  PortId a_, b_;
  StateId phi_, w_;
  ObservableId alpha_, torque_, energy_;
};

void register_inertia(Registry& r) {
  r.add<Inertia>("rotational.inertia", "rotating inertia J: angle and speed from the torques on its two flanges");
}

}  // namespace jourdain::rotational_library
