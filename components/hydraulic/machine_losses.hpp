// The losses of the positive-displacement machines (pumps.cpp): the base class of
// `pump`, `variable_pump`, `motor` and `variable_motor`, which computes, once for all of
// them, the flow and the shaft torque of a machine of displacement ε D turning at ω
// across a pressure rise Δp, with the loss model the netlist chooses ("loss_model"):
//
//   constant  leakage k_leak Δp, k_leak = (1 − η_v) D ω_rated / p_rated, and the
//             hydromechanical efficiency η_hm taken in the direction power flows;
//   wilson    W. E. Wilson's coefficients: laminar slip, viscous and Coulomb friction
//             (and a constant torque), with the viscosity of the oil;
//   map       measured η_v and η_hm over speed and pressure, taken in the direction
//             power flows.
//
// Everything is written in the pump's convention: ω turns the shaft, Δp = p_out − p_in,
// the flow q is delivered into the outlet and T is the torque the drive gives the shaft.
// A motor is the same machine with its port a as the outlet and b as the inlet, turning
// the other way (pumps.cpp, Motor): q_a→b = −q(−ω), its torque on the shaft T(−ω).
// In every model and every quadrant the loss T ω − q Δp is never negative.
#pragma once

#include "hydraulic_library.hpp"
#include "jourdain/components/interpolation.hpp"

namespace jourdain::hydraulic_library {

// A machine's flow and torque at one operating point, in the pump's convention.
struct MachinePoint {
  double flow;    // q delivered into the outlet, m³/s
  double torque;  // T the drive gives the shaft (along ω), N·m
};

// ideal · η^(−sign(ideal) s(x)), s(x) = tanh(x / x_s): the ideal value divided by the
// efficiency η where ideal and x have the same sign, multiplied by it where they have
// opposite signs, and continuous in between (a step at x = 0 would be a jump the
// integrator cannot resolve; 1 − tanh(100) is below the double's resolution, so 1% of
// x's rated value makes the law the sharp one away from zero). x_s = 0: the sharp law.
// With η ≤ 1, ideal·x·(η^(−s) − 1) ≥ 0: whatever the signs, the factor loses power.
double in_power_direction(double ideal, double x, double eta, double x_s);

class Machine : public HydraulicComponent {
 protected:
  // Constructor, after declaring the displacement D (m³/rad; the largest of a variable
  // machine) and the rated speed: declares "loss_model" and the parameters of each model.
  // `across` names the pressure difference in the descriptions ("pressure rise" for a
  // pump, "pressure drop" for a motor).
  void declare_loss_parameters(RealParam displacement, RealParam rated_speed, const std::string& across);
  // configure(): reads the loss model (and a map's tables).
  void configure_losses();

  // The flow and torque at displacement fraction ε, speed ω and pressure rise Δp.
  MachinePoint machine_point(const Eval& e, double fraction, double omega, double rise) const;

  // ---- the displacement fraction of a variable machine ----
  // Constructor: the first-order lag of the swashplate (or bent axis), "dynamics".
  void declare_fraction_dynamics(const std::string& default_order) {
    declare_dynamics_parameters(default_order, /*second_order_allowed=*/false);
  }
  // configure(): the state "displacement_state" when there is a lag, the observable
  // "displacement_fraction", and (signal control) the input `displacement`, which the
  // flow reads, through `reads`, only when there is no lag.
  PortId configure_fraction(bool signal_input, std::vector<PortId>& reads);
  // ε: the control's target, through the lag, within [lowest, 1].
  double displacement_fraction(const Eval& e, double target, double lowest) const {
    return std::clamp(dynamic_position(e, target), lowest, 1.0);
  }
  ObservableId fraction_observable() const { return fraction_; }

 private:
  enum class Model { Constant, Wilson, Map };
  MachinePoint constant_point(const Eval& e, double ideal_flow, double ideal_torque, double omega, double rise) const;
  MachinePoint wilson_point(const Eval& e, double ideal_flow, double ideal_torque, double omega, double rise) const;
  MachinePoint map_point(const Eval& e, double ideal_flow, double ideal_torque, double omega, double rise) const;
  GridMap read_map(const std::string& name) const;

  Model model_ = Model::Constant;
  RealParam displacement_, rated_speed_;
  RealParam eta_v_, rated_pressure_, eta_hm_;              // constant (and the map's smoothing)
  RealParam slip_, viscous_, friction_, constant_torque_;  // wilson
  GridMap volumetric_map_, hydromechanical_map_;           // map
  ObservableId fraction_;
};

}  // namespace jourdain::hydraulic_library
