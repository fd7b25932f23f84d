// Gear stage with a fixed ratio and a mesh efficiency (a spur or planetary stage, a belt).
//
// Kinematics, from the input flange a to the output flange b:
//   φ_b = φ_a / r,   ω_b = ω_a / r                     (r < 0: the output turns the other way)
// Torques: the load returns τ_b at b (the torque it exerts on the gear's output); the gear
// returns to the driving inertia at a
//   τ_a = τ_b / (η r)   while power flows from a to b  (the load is driven: −τ_b ω_b > 0)
//   τ_a = η τ_b / r     while power flows from b to a  (the load drives: −τ_b ω_b < 0)
// so that the power reaching the side driven is η times the power leaving the side driving
// it, and the rest, P_loss = τ_b ω_b − τ_a ω_a ≥ 0, is the mesh loss. A drag torque T_d
// (churning, seals, bearings: the no-load loss) opposes the input speed on top of it.
//
// Both laws in one: with m = (1/η + η)/2 and d = (1/η − η)/2,
//   τ_a = m τ_b / r − (d |τ_b| / |r| + T_d) s(ω_a / ω_s)
// where s is the sign of ω_a. The mesh loss is thus a friction torque proportional to the
// load, and like any Coulomb friction it switches sign when the speed does, whatever the
// torque: near ω = 0 a gear under load can hold it (between the two laws) or creep. The
// switch is a stated smooth blend, not an event: s(x) = x (3 − x²) / 2 for |x| < 1 and
// sign(x) outside, continuous with its slope, over the band |ω_a| < ω_s (switch_speed).
// Outside the band both laws hold exactly; inside it the gear behaves as a stiff viscous
// friction, and a gear holding a load between the two laws creeps at a speed below ω_s.
// (An event with a stuck mode would need the torque that keeps the gear at rest, which
// this causal gear cannot know: see friction.cpp for how the clutch and brake do it.)
//
// Causality: a is the response side (it reads the driving inertia), b the state side (it
// gives the output's angle and speed, like an inertia, and receives the load's torques,
// which add up). So b connects to response sides only: a shaft, a brake, a pump, a torque
// source, another gear's input. An inertia on the output side is either placed behind a
// shaft (b → shaft → inertia), or reflected onto the input: J_a + J_load / r².
#include <cmath>

#include "rotational_library.hpp"

namespace jourdain::rotational_library {

namespace {

// The sign of x, blended over |x| < 1 by x (3 − x²) / 2 (continuous with its slope).
double blended_sign(double x) {
  if (x >= 1.0) return 1.0;
  if (x <= -1.0) return -1.0;
  return 0.5 * x * (3.0 - x * x);
}

}  // namespace

class Gear final : public Component {
 public:
  Gear() {
    ratio_ = declare_real("ratio", "", std::nullopt, "speed ratio r = ω_a / ω_b (> 1: a reduction; < 0: reverses)");
    set_example("ratio", 4.0);
    eta_ = declare_real("efficiency", "", 1.0, "mesh efficiency η, in either direction of power flow",
                        Range::between(0.01, 1.0));
    drag_ = declare_real("drag_torque", "N*m", 0.0, "no-load drag torque T_d, on the input, against its speed",
                         Range::non_negative());
    switch_speed_ = declare_real("switch_speed", "rad/s", 0.01,
                                 "ω_s: input speed band |ω_a| < ω_s over which the losses change sign (a blend)",
                                 Range::positive());
  }

  void configure() override {
    a_ = declare_port("a", rotational_domain(), PortSide::Response, "input flange, on the driving inertia");
    b_ = declare_port("b", rotational_domain(), PortSide::State,
                      "output flange: angle and speed out, the load's torques in (any number of connections)");
    set_dependencies(b_, {a_});      // motion: a -> b
    set_dependencies(a_, {a_, b_});  // torque: the load's at b, the input speed at a
    input_torque_ = declare_observable("input_torque", "N*m", "torque τ_a on the driving inertia");
    load_torque_ = declare_observable("load_torque", "N*m", "torque τ_b the load exerts on the output");
    loss_ = declare_observable("loss", "W", "mesh and drag loss τ_b ω_b − τ_a ω_a");
    set_energy_role(loss_, EnergyRole::Loss);
  }

  void calc_derived(Eval& e) const override {
    if (e.param(ratio_) == 0.0) parameter_error("ratio", "must not be 0");
  }

  void calc_outputs(Eval& e) const override {
    const double r = e.param(ratio_);
    e.set_out(b_, rotational::angle, e.in(a_, rotational::angle) / r);
    e.set_out(b_, rotational::speed, e.in(a_, rotational::speed) / r);
    e.set_out(a_, rotational::torque, input_torque(e));
  }

  void calc_derivatives(Eval& e) const override {
    const double r = e.param(ratio_), w_a = e.in(a_, rotational::speed), tau_b = e.in(b_, rotational::torque);
    const double tau_a = input_torque(e);
    e.set_observable(input_torque_, tau_a);
    e.set_observable(load_torque_, tau_b);
    e.set_observable(loss_, tau_b * (w_a / r) - tau_a * w_a);
  }

 private:
  // τ_a = m τ_b / r − (d |τ_b| / |r| + T_d) s(ω_a / ω_s)   (the file comment)
  double input_torque(const Eval& e) const {
    const double r = e.param(ratio_), eta = e.param(eta_), tau_b = e.in(b_, rotational::torque);
    const double m = 0.5 * (1.0 / eta + eta), d = 0.5 * (1.0 / eta - eta);
    const double s = blended_sign(e.in(a_, rotational::speed) / e.param(switch_speed_));
    return m * tau_b / r - (d * std::abs(tau_b) / std::abs(r) + e.param(drag_)) * s;
  }

  RealParam ratio_, eta_, drag_, switch_speed_;
  PortId a_, b_;
  ObservableId input_torque_, load_torque_, loss_;
};

void register_gear(Registry& r) {
  r.add<Gear>("rotational.gear",
              "gear stage: ratio r, mesh efficiency in the direction power flows, drag torque (input response side, "
              "output state side)");
}

}  // namespace jourdain::rotational_library
