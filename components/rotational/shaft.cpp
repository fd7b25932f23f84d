// Torsional shaft: a linear spring and a viscous damper in parallel between two flanges
// (a drive shaft's torsion, a coupling's rubber, a torsional damper).
//
//   Δφ = φ_b − φ_a − φ_0,   Δω = ω_b − ω_a
//   τ = k Δφ + c Δω          on flange a; −τ on flange b
//   E = ½ k Δφ²  (stored),   P_loss = c Δω²  (dissipated)
// The shaft has no inertia of its own: give it to the inertias at its ends (half each, for
// a uniform shaft). With c = 0 it is a torsional spring, with k = 0 a rotational damper:
// the library has no separate types for them.
#include "rotational_library.hpp"

namespace jourdain::rotational_library {

class Shaft final : public Component {
 public:
  Shaft() {
    k_ = declare_real("stiffness", "N*m/rad", 1e4, "torsional stiffness k (0: a damper alone)", Range::non_negative());
    c_ = declare_real("damping", "N*m*s/rad", 0.0, "viscous damping c between the flanges (0: a spring alone)",
                      Range::non_negative());
    free_angle_ = declare_real("free_angle", "rad", 0.0, "twist φ_b − φ_a at which the spring is relaxed, φ_0");
  }

  void configure() override {
    a_ = declare_port("a", rotational_domain(), PortSide::Response, "flange a, on an inertia");
    b_ = declare_port("b", rotational_domain(), PortSide::Response, "flange b, on an inertia");
    torque_ = declare_observable("torque", "N*m", "torque on flange a, k Δφ + c Δω (positive when b leads a)");
    twist_ = declare_observable("twist", "rad", "Δφ = φ_b − φ_a − φ_0");
    energy_ = declare_observable("spring_energy", "J", "½ k Δφ²");
    set_energy_role(energy_, EnergyRole::Stored);
    loss_ = declare_observable("damper_loss", "W", "c Δω²");
    set_energy_role(loss_, EnergyRole::Loss);
  }

  void calc_outputs(Eval& e) const override {
    const double twist = e.in(b_, rotational::angle) - e.in(a_, rotational::angle) - e.param(free_angle_);
    const double slip = e.in(b_, rotational::speed) - e.in(a_, rotational::speed);
    // τ = k Δφ + c Δω on a, its reaction on b
    const double k = e.param(k_), c = e.param(c_);
    const double torque = k * twist + c * slip;
    e.set_out(a_, rotational::torque, torque);
    e.set_out(b_, rotational::torque, -torque);
    e.set_observable(torque_, torque);
    e.set_observable(twist_, twist);
    e.set_observable(energy_, 0.5 * k * twist * twist);
    e.set_observable(loss_, c * slip * slip);
  }

 private:
  RealParam k_, c_, free_angle_;
  PortId a_, b_;
  ObservableId torque_, twist_, energy_, loss_;
};

void register_shaft(Registry& r) {
  r.add<Shaft>("rotational.shaft", "torsional spring and damper between two inertias (a shaft, a coupling)");
}

}  // namespace jourdain::rotational_library
