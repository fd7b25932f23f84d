// Positive-displacement machines: the fixed-displacement pump, the variable-displacement
// pump (pressure-compensated, constant-power or signal-controlled) and the motor.
//
// Leakage is laminar, proportional to the pressure rise across the machine; it is given
// as the volumetric efficiency η_v at a rated pressure and speed:
//   k_leak = (1 − η_v) D ω_rated / p_rated      (m³/(s·Pa)),
// so that q = D ω − k_leak Δp delivers η_v D ω at the rated point. Torques use the
// hydromechanical efficiency η_hm in the direction power flows: a machine run in its
// other quadrant (a pump driven back by the pressure, as when a load is lowered through
// it; a motor driven by its shaft) loses η_hm of the power too, rather than gaining it.
// What a machine loses (T ω − q Δp for a pump, q Δp − T ω for a motor: leakage and
// friction) is heat: with "heat_port" true, the port `heat` returns it as heat flow.
#include "hydraulic_library.hpp"

namespace jourdain::hydraulic_library {

namespace {

// k_leak = (1 − η_v) D ω_rated / p_rated, m³/(s·Pa) (the file comment).
double leakage_coefficient(double eta_v, double displacement, double rated_speed, double rated_pressure) {
  return (1.0 - eta_v) * displacement * rated_speed / rated_pressure;
}

// The shaft torque of a machine whose lossless torque is `ideal` (> 0 along ω when the
// shaft gives power to the fluid), with the hydromechanical efficiency η taken in the
// direction power flows:
//   T = ideal / η   when ideal·ω > 0 (the shaft drives the fluid: pumping)
//   T = ideal · η   when ideal·ω < 0 (the fluid drives the shaft: motoring)
// written as T = ideal · η^(−s), s = sign(ideal) tanh(ω / ω_s), so that T is continuous
// through ω = 0 (a step there would be a breakaway torque the integrator cannot resolve).
// ω_s is 1% of the rated speed: above it the law is the sharp one to within tanh(100).
// The loss T ω − ideal ω = ideal ω (η^(−s) − 1) is never negative.
double shaft_torque(double ideal, double omega, double eta, double rated_speed) {
  if (eta >= 1.0 || ideal == 0.0) return ideal;
  const double s = rated_speed > 0.0 ? std::tanh(omega / (0.01 * rated_speed)) : (omega > 0.0) - (omega < 0.0);
  return ideal * std::pow(eta, ideal > 0.0 ? -s : s);
}

}  // namespace

// Pump between an inlet (suction) and an outlet, both capacitive elements:
//   q = ε D ω − k_leak (p_out − p_in)       delivered into the outlet, taken from the inlet
//   T = ε D (p_out − p_in) / η_hm           shaft torque, the drive must give it
//                                           (× η_hm instead when the pressure drives it)
// ω is the speed parameter, the input `speed` (a signal), or read from a driving inertia
// ("speed_source": "shaft"): the port `shaft` is then the response side of a rotational
// port, which reads ω and returns −T, the load torque the pump exerts on that inertia.
// ε = 1 for the fixed pump; for the variable pump ε ∈ [0, 1] is the displacement
// fraction its control sets:
//   pressure_compensated:  ε = clamp((p_cut − Δp) / Δp_band, 0, 1)  (full below
//                          p_cut − Δp_band, none at the cut-off pressure p_cut)
//   constant_power:        ε = min(1, P / (D ω Δp))  (the hyperbola q Δp = P)
//   both:                  the smaller of the two
//   signal:                ε = clamp(u, 0, 1) from the input `displacement`
// optionally through a first-order lag (the swashplate's response).
class Pump : public HydraulicComponent {
 public:
  explicit Pump(bool variable) : variable_(variable) {
    displacement_ = declare_real(
        variable_ ? "max_displacement" : "displacement", "m^3/rad", std::nullopt,
        variable_ ? "largest displacement D (e.g. \"63 cm^3/rev\")" : "displacement D (e.g. \"63 cm^3/rev\")",
        Range::positive());
    speed_ = declare_real("speed", "rad/s", std::nullopt,
                          "shaft speed ω (e.g. \"1470 rpm\"); with a speed signal or a shaft, the rated speed",
                          Range::non_negative());
    declare_text("speed_source", "constant",
                 "constant: the speed parameter; signal: input 'speed' (rad/s); shaft: port 'shaft' on the driving "
                 "inertia (rotational)",
                 {"constant", "signal", "shaft"});
    eta_v_ = declare_real("volumetric_efficiency", "", 1.0, "η_v at rated_pressure and the (rated) speed",
                          Range::between(0.01, 1.0));
    rated_pressure_ = declare_real("rated_pressure", "Pa", 25e6, "pressure rise at which volumetric_efficiency holds",
                                   Range::positive());
    eta_hm_ = declare_real("hydromechanical_efficiency", "", 1.0,
                           "η_hm: shaft torque D Δp / η_hm pumping, D Δp η_hm driven back",
                           Range::between(0.01, 1.0));
    if (variable_) {
      declare_text("control", "pressure_compensated",
                   "pressure_compensated, constant_power, both, or signal (input 'displacement', 0 to 1)",
                   {"pressure_compensated", "constant_power", "both", "signal"});
      cutoff_ = declare_real("cutoff_pressure", "Pa", 25e6, "pressure compensator: pressure rise at zero displacement",
                             Range::positive());
      band_ = declare_real("regulation_band", "Pa", 1e6, "pressure compensator: rise from full to zero displacement",
                           Range::positive());
      power_limit_ = declare_real("power", "W", 22e3, "constant power: hydraulic power limit P = q Δp",
                                  Range::positive());
      declare_dynamics_parameters("none", /*second_order_allowed=*/false);
    }
    declare_heat_port_parameter("true: a thermal port 'heat' returns the loss T ω − q Δp as heat flow");
  }

  void configure() override {
    inlet_ = declare_port("inlet", hydraulic_domain(), PortSide::Response, "suction side");
    outlet_ = declare_port("outlet", hydraulic_domain(), PortSide::Response, "delivery side");
    std::vector<PortId> reads{inlet_, outlet_};
    if (text("speed_source") == "signal") {
      speed_in_ = declare_port("speed", signal_domain(), PortSide::Response, "shaft speed (rad/s)");
      reads.push_back(speed_in_);
    } else if (text("speed_source") == "shaft") {
      shaft_ = declare_port("shaft", rotational_domain(), PortSide::Response,
                            "on the driving inertia: reads its speed, returns the load torque −T");
      reads.push_back(shaft_);
    }
    if (variable_) {
      const std::string c = text("control");
      control_ = c == "pressure_compensated" ? 0 : c == "constant_power" ? 1 : c == "both" ? 2 : 3;
      if (control_ == 3) {
        command_ = declare_port("displacement", signal_domain(), PortSide::Response, "displacement fraction (0 to 1)");
        reads.push_back(command_);
      }
      configure_dynamics("displacement_state", "", "displacement fraction ε following its control (first order)");
      // With a lag, ε is a state: the flow reads only the pressures (and the speed).
      if (has_dynamics() && command_.valid()) reads.pop_back();
      fraction_ = declare_observable("displacement_fraction", "", "ε, the fraction of the largest displacement");
    }
    set_dependencies(inlet_, reads);
    set_dependencies(outlet_, reads);
    if (shaft_.valid()) set_dependencies(shaft_, reads);
    configure_heat_port("to a heat capacity (the oil, the pump's housing): returns the loss T ω − q Δp", reads);
    flow_ = declare_observable("flow", "m^3/s", "flow delivered into the outlet");
    torque_ = declare_observable("torque", "N*m", "shaft torque");
    power_ = declare_observable("power", "W", "hydraulic power q (p_out − p_in)");
    // Energy: what the drive gives, T ω, less the hydraulic power is lost (leakage and
    // friction, as heat: through the heat port when there is one). Without a shaft port
    // the drive is outside the model.
    loss_ = declare_observable("power_loss", "W", "T ω − q Δp: leakage and hydromechanical losses");
    set_loss_role(loss_);
    if (!shaft_.valid()) {
      drive_ = declare_observable("drive_power", "W", "T ω, the power its (outside) drive gives");
      set_energy_role(drive_, EnergyRole::Supplied);
    }
    finish_configure();
  }

  void calc_outputs(Eval& e) const override {
    const double eps = fraction(e), q = flow(e, eps);
    e.set_out(outlet_, hydraulic::flow_rate, q);
    e.set_out(inlet_, hydraulic::flow_rate, -q);
    if (!shaft_.valid() && !has_heat_port()) return;
    const double t = torque(e, eps);
    if (shaft_.valid()) e.set_out(shaft_, rotational::torque, -t);
    if (has_heat_port()) set_heat_flow(e, t * omega(e) - q * rise(e));
  }

  void calc_derivatives(Eval& e) const override {
    const double eps = fraction(e), q = flow(e, eps), dp = rise(e);
    if (variable_) {
      dynamic_derivatives(e, target_fraction(e));
      e.set_observable(fraction_, eps);
    }
    // What the drive gives, T ω; less the hydraulic power q Δp, the loss.
    const double t = torque(e, eps), drive = t * omega(e);
    e.set_observable(flow_, q);
    e.set_observable(torque_, t);
    e.set_observable(power_, q * dp);
    e.set_observable(loss_, drive - q * dp);
    if (drive_.valid()) e.set_observable(drive_, drive);
  }

 private:
  double rise(const Eval& e) const { return e.in(outlet_, hydraulic::pressure) - e.in(inlet_, hydraulic::pressure); }
  double omega(const Eval& e) const {
    if (speed_in_.valid()) return e.in(speed_in_, signal::value);
    if (shaft_.valid()) return e.in(shaft_, rotational::speed);
    return e.param(speed_);
  }
  // T = ε D Δp / η_hm, the torque the drive gives the pump (ε D Δp η_hm when the pressure
  // drives it back: shaft_torque).
  double torque(const Eval& e, double eps) const {
    return shaft_torque(eps * e.param(displacement_) * rise(e), omega(e), e.param(eta_hm_), e.param(speed_));
  }
  // k_leak, at the speed parameter (the rated speed when a signal gives the speed).
  double leakage(const Eval& e) const {
    return leakage_coefficient(e.param(eta_v_), e.param(displacement_), e.param(speed_), e.param(rated_pressure_));
  }
  double flow(const Eval& e, double eps) const {
    return eps * e.param(displacement_) * omega(e) - leakage(e) * rise(e);
  }

  // The displacement fraction the control asks for.
  double target_fraction(const Eval& e) const {
    if (!variable_) return 1.0;
    const double dp = rise(e);
    if (control_ == 3) return std::clamp(e.in(command_, signal::value), 0.0, 1.0);
    double eps = 1.0;
    if (control_ == 0 || control_ == 2) eps = std::clamp((e.param(cutoff_) - dp) / e.param(band_), 0.0, 1.0);
    if ((control_ == 1 || control_ == 2) && dp > 0.0) {
      const double full_power = e.param(displacement_) * std::abs(omega(e)) * dp, limit = e.param(power_limit_);
      if (full_power > limit) eps = std::min(eps, limit / full_power);
    }
    return eps;
  }
  double fraction(const Eval& e) const {
    if (!variable_) return 1.0;
    return std::clamp(dynamic_position(e, target_fraction(e)), 0.0, 1.0);
  }

  bool variable_;
  RealParam displacement_, speed_, eta_v_, rated_pressure_, eta_hm_;
  int control_ = 0;
  RealParam cutoff_, band_, power_limit_;
  PortId inlet_, outlet_, speed_in_, shaft_, command_;
  ObservableId fraction_, flow_, torque_, power_, loss_, drive_;
};

class FixedPump final : public Pump {
 public:
  FixedPump() : Pump(false) {}
};
class VariablePump final : public Pump {
 public:
  VariablePump() : Pump(true) {}
};

// Motor between an inlet a and an outlet b, turning a shaft:
//   q = D ω + k_leak (p_a − p_b)                taken from a, delivered into b
//   T = η_hm D (p_a − p_b) − c ω                on the shaft
//                                               (D (p_a − p_b) / η_hm when the shaft
//                                               drives it as a pump)
// "shaft": "rotational": the port `shaft` is the response side of a rotational port on
// the driven inertia (a rotational.inertia, a gear's input...): it reads ω and returns T,
// the torque the motor exerts on that inertia.
// "shaft": "signal": the speed comes from the input `speed` and T is the output `torque`.
class Motor final : public HydraulicComponent {
 public:
  Motor() {
    d_ = declare_real("displacement", "m^3/rad", std::nullopt, "displacement D (e.g. \"80 cm^3/rev\")",
                      Range::positive());
    eta_v_ = declare_real("volumetric_efficiency", "", 1.0, "η_v at rated_pressure and rated_speed",
                          Range::between(0.01, 1.0));
    rated_pressure_ = declare_real("rated_pressure", "Pa", 25e6, "pressure drop at which volumetric_efficiency holds",
                                   Range::positive());
    rated_speed_ = declare_real("rated_speed", "rad/s", 157.07963267948966,
                                "speed at which volumetric_efficiency holds", Range::positive());
    eta_hm_ = declare_real("hydromechanical_efficiency", "", 1.0,
                           "η_hm: torque η_hm D Δp motoring, D Δp / η_hm driven as a pump", Range::between(0.01, 1.0));
    c_ = declare_real("viscous_friction", "N*m*s/rad", 0.0, "c: friction torque per unit speed",
                      Range::non_negative());
    declare_text("shaft", "rotational",
                 "rotational: port 'shaft' on the driven inertia; signal: input 'speed', output 'torque'",
                 {"rotational", "signal"});
    declare_heat_port_parameter("true: a thermal port 'heat' returns the loss q Δp − T ω as heat flow");
  }
  void configure() override {
    a_ = declare_port("a", hydraulic_domain(), PortSide::Response, "inlet");
    b_ = declare_port("b", hydraulic_domain(), PortSide::Response, "outlet");
    if (text("shaft") == "rotational") {
      shaft_ = declare_port("shaft", rotational_domain(), PortSide::Response,
                            "on the driven inertia: reads its speed, returns the motor's torque T");
      set_dependencies(shaft_, {a_, b_, shaft_});
      set_dependencies(a_, {a_, b_, shaft_});
      set_dependencies(b_, {a_, b_, shaft_});
    } else {
      speed_ = declare_port("speed", signal_domain(), PortSide::Response, "shaft speed ω (rad/s)");
      torque_out_ = declare_port("torque", signal_domain(), PortSide::State, "shaft torque T");
      set_unit(torque_out_, "N*m");
      set_dependencies(torque_out_, {a_, b_, speed_});
      set_dependencies(a_, {a_, b_, speed_});
      set_dependencies(b_, {a_, b_, speed_});
    }
    configure_heat_port("to a heat capacity (the oil, the motor's housing): returns the loss q Δp − T ω",
                        {a_, b_, shaft_.valid() ? shaft_ : speed_});
    flow_ = declare_observable("flow", "m^3/s", "flow from a to b");
    // With a signal shaft the output port `torque` is itself recordable as motor.torque.
    if (shaft_.valid()) torque_ = declare_observable("torque", "N*m", "torque on the shaft");
    power_ = declare_observable("power", "W", "shaft power T ω");
    loss_ = declare_observable("power_loss", "W", "q Δp − T ω: leakage and hydromechanical losses");
    set_loss_role(loss_);  // with a heat port, it leaves through it
    if (!shaft_.valid()) {  // its shaft power leaves the model through the torque signal
      taken_ = declare_observable("supplied_power", "W", "−T ω: the shaft power it sends out of the model");
      set_energy_role(taken_, EnergyRole::Supplied);
    }
    finish_configure();
  }
  void calc_outputs(Eval& e) const override {
    const double q = flow(e), t = torque(e);
    e.set_out(a_, hydraulic::flow_rate, -q);
    e.set_out(b_, hydraulic::flow_rate, q);
    if (shaft_.valid())
      e.set_out(shaft_, rotational::torque, t);
    else
      e.set_out(torque_out_, signal::value, t);
    if (has_heat_port()) set_heat_flow(e, q * drop(e) - t * omega(e));
  }
  // q Δp − T ω: what the fluid gives less the shaft power (leakage and friction), the loss.
  void calc_derivatives(Eval& e) const override {
    const double q = flow(e), t = torque(e), shaft_power = t * omega(e);
    e.set_observable(flow_, q);
    if (torque_.valid()) e.set_observable(torque_, t);
    e.set_observable(power_, shaft_power);
    e.set_observable(loss_, q * drop(e) - shaft_power);
    if (taken_.valid()) e.set_observable(taken_, -shaft_power);
  }

 private:
  double omega(const Eval& e) const {
    return shaft_.valid() ? e.in(shaft_, rotational::speed) : e.in(speed_, signal::value);
  }
  double drop(const Eval& e) const { return e.in(a_, hydraulic::pressure) - e.in(b_, hydraulic::pressure); }
  double leakage(const Eval& e) const {
    return leakage_coefficient(e.param(eta_v_), e.param(d_), e.param(rated_speed_), e.param(rated_pressure_));
  }
  double flow(const Eval& e) const { return e.param(d_) * omega(e) + leakage(e) * drop(e); }
  // The fluid's torque D Δp with η_hm in the direction power flows (shaft_torque, whose
  // "ideal" is the torque the shaft gives: its negative), less the viscous friction.
  double torque(const Eval& e) const {
    const double w = omega(e);
    return -shaft_torque(-e.param(d_) * drop(e), w, e.param(eta_hm_), e.param(rated_speed_)) - e.param(c_) * w;
  }

  RealParam d_, eta_v_, rated_pressure_, rated_speed_, eta_hm_, c_;
  PortId a_, b_, shaft_, speed_, torque_out_;
  ObservableId flow_, torque_, power_, loss_, taken_;
};

void register_pumps(Registry& r) {
  r.add<FixedPump>("hydraulic.pump", "fixed-displacement pump: q = D ω − leakage");
  r.add<VariablePump>("hydraulic.variable_pump",
                      "variable-displacement pump: pressure-compensated, constant-power or signal control");
  r.add<Motor>("hydraulic.motor", "hydraulic motor driving a rotational inertia (or with speed and torque signals)");
}

}  // namespace jourdain::hydraulic_library
