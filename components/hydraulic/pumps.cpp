// Positive-displacement machines: the fixed-displacement pump, the variable-displacement
// pump (pressure-compensated, constant-power, load-sensing or signal-controlled), the
// motor and the variable-displacement motor.
//
// Their flow and shaft torque, with their losses, come from one law shared by all four
// (Machine, machine_losses.hpp), chosen by "loss_model":
//   constant (the default): leakage k_leak Δp from the volumetric efficiency η_v at a
//     rated pressure and speed, k_leak = (1 − η_v) D ω_rated / p_rated, and the
//     hydromechanical efficiency η_hm in the direction power flows: a machine run in its
//     other quadrant (a pump driven back by the pressure, as when a load is lowered
//     through it; a motor driven by its shaft) loses η_hm of the power too, rather than
//     gaining it;
//   wilson: slip C_s D Δp / μ, torque losses C_v μ D ω + C_f D |Δp| + T_c (W. E. Wilson);
//   map: η_v and η_hm measured over speed and pressure, in the direction power flows.
// What a machine loses (T ω − q Δp for a pump, q Δp − T ω for a motor: leakage and
// friction) is heat: with "heat_port" true, the port `heat` returns it as heat flow.
#include "machine_losses.hpp"

namespace jourdain::hydraulic_library {

// Pump between an inlet (suction) and an outlet, both capacitive elements, with the
// loss model's q and T (Machine::machine_point) at displacement ε D, speed ω and
// pressure rise Δp = p_out − p_in; for the constant model
//   q = ε D ω − k_leak Δp                   delivered into the outlet, taken from the inlet
//   T = ε D Δp / η_hm                       shaft torque, the drive must give it
//                                           (× η_hm instead when the pressure drives it)
// ω is the speed parameter, the input `speed` (a signal), or read from a driving inertia
// ("speed_source": "shaft"): the port `shaft` is then the response side of a rotational
// port, which reads ω and returns −T, the load torque the pump exerts on that inertia.
// ε = 1 for the fixed pump; for the variable pump ε ∈ [0, 1] is the displacement
// fraction its control sets, with the band function b(x) = clamp(x / Δp_band, 0, 1):
//   pressure_compensated:  ε = b(p_cut − Δp)  (full below p_cut − Δp_band, none at the
//                          cut-off pressure p_cut)
//   constant_power:        ε = min(1, P / (D ω Δp))  (the hyperbola q Δp = P)
//   both:                  the smaller of the two
//   load_sensing:          ε = min(b(p_LS + Δp_LS − p_out), b(p_cut − Δp))
//   signal:                ε = clamp(u, 0, 1) from the input `displacement`
// optionally through a first-order lag (the swashplate's response), T dε/dt = ε_target − ε.
//
// Load sensing: the port `ls` reads the pressure p_LS of the load-sensing line (the
// highest load pressure, from a shuttle network) and takes no flow. The LS spool strokes
// the pump until the outlet stands the margin Δp_LS ("ls_margin", typically 20 bar) above
// p_LS, the pressure drop across the metering orifices that sets their flow; a
// proportional spool over the band Δp_band gives, at steady state with 0 < ε < 1,
//   p_out − p_LS = Δp_LS − ε Δp_band,
// a margin that droops by ε Δp_band as the pump strokes out. The pressure compensator
// (cut-off) overrides it: with the load stalled (p_LS = p_out) the pump holds
// Δp = p_cut − ε Δp_band, with ε what covers its leakage.
class Pump : public Machine {
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
    declare_loss_parameters(displacement_, speed_, "pressure rise");
    if (variable_) {
      declare_text("control", "pressure_compensated",
                   "pressure_compensated, constant_power, both, load_sensing (port 'ls') or signal (input "
                   "'displacement', 0 to 1)",
                   {"pressure_compensated", "constant_power", "both", "load_sensing", "signal"});
      cutoff_ = declare_real("cutoff_pressure", "Pa", 25e6, "pressure compensator: pressure rise at zero displacement",
                             Range::positive());
      band_ = declare_real("regulation_band", "Pa", 1e6,
                           "pressure compensator and load sensing: pressure from full to zero displacement",
                           Range::positive());
      power_limit_ =
          declare_real("power", "W", 22e3, "constant power: hydraulic power limit P = q Δp", Range::positive());
      ls_margin_ = declare_real("ls_margin", "Pa", 2e6,
                                "load sensing: Δp_LS, the outlet pressure above the LS line's at zero displacement",
                                Range::positive());
      declare_fraction_dynamics("none");
    }
    declare_heat_port_parameter("true: a thermal port 'heat' returns the loss T ω − q Δp as heat flow");
  }

  void configure() override {
    configure_losses();
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
      control_ = c == "pressure_compensated" ? Control::PressureCompensated
                 : c == "constant_power"     ? Control::ConstantPower
                 : c == "both"               ? Control::Both
                 : c == "load_sensing"       ? Control::LoadSensing
                                             : Control::Signal;
      command_ = configure_fraction(control_ == Control::Signal, reads);
      if (control_ == Control::LoadSensing) {
        ls_ = declare_port("ls", hydraulic_domain(), PortSide::Response,
                           "load-sensing line (a volume): reads its pressure p_LS, takes no flow");
        set_dependencies(ls_, {});
        if (!has_dynamics()) reads.push_back(ls_);
        ls_difference_ = declare_observable("ls_difference", "Pa", "p_out − p_LS, the margin the LS spool holds");
      }
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
    const MachinePoint m = machine_point(e, fraction(e), omega(e), rise(e));
    e.set_out(outlet_, hydraulic::flow_rate, m.flow);
    e.set_out(inlet_, hydraulic::flow_rate, -m.flow);
    if (ls_.valid()) e.set_out(ls_, hydraulic::flow_rate, 0.0);
    if (shaft_.valid()) e.set_out(shaft_, rotational::torque, -m.torque);
    if (has_heat_port()) set_heat_flow(e, m.torque * omega(e) - m.flow * rise(e));
  }

  void calc_derivatives(Eval& e) const override {
    const double eps = fraction(e), dp = rise(e);
    const MachinePoint m = machine_point(e, eps, omega(e), dp);
    if (variable_) {
      dynamic_derivatives(e, target_fraction(e));
      e.set_observable(fraction_observable(), eps);
    }
    if (ls_.valid())
      e.set_observable(ls_difference_, e.in(outlet_, hydraulic::pressure) - e.in(ls_, hydraulic::pressure));
    // What the drive gives, T ω; less the hydraulic power q Δp, the loss.
    const double drive = m.torque * omega(e);
    e.set_observable(flow_, m.flow);
    e.set_observable(torque_, m.torque);
    e.set_observable(power_, m.flow * dp);
    e.set_observable(loss_, drive - m.flow * dp);
    if (drive_.valid()) e.set_observable(drive_, drive);
  }

 private:
  enum class Control { PressureCompensated, ConstantPower, Both, LoadSensing, Signal };

  double rise(const Eval& e) const { return e.in(outlet_, hydraulic::pressure) - e.in(inlet_, hydraulic::pressure); }
  double omega(const Eval& e) const {
    if (speed_in_.valid()) return e.in(speed_in_, signal::value);
    if (shaft_.valid()) return e.in(shaft_, rotational::speed);
    return e.param(speed_);
  }

  // b(x) = clamp(x / Δp_band, 0, 1): a spool's stroke over its regulation band.
  double band(const Eval& e, double x) const { return std::clamp(x / e.param(band_), 0.0, 1.0); }
  // The displacement fraction the control asks for.
  double target_fraction(const Eval& e) const {
    if (!variable_) return 1.0;
    if (control_ == Control::Signal) return std::clamp(e.in(command_, signal::value), 0.0, 1.0);
    const double dp = rise(e);
    double eps = 1.0;
    if (control_ != Control::ConstantPower) eps = band(e, e.param(cutoff_) - dp);
    if ((control_ == Control::ConstantPower || control_ == Control::Both) && dp > 0.0) {
      const double full_power = e.param(displacement_) * std::abs(omega(e)) * dp, limit = e.param(power_limit_);
      if (full_power > limit) eps = std::min(eps, limit / full_power);
    }
    if (control_ == Control::LoadSensing) {
      const double p_ls = e.in(ls_, hydraulic::pressure), p_out = e.in(outlet_, hydraulic::pressure);
      eps = std::min(eps, band(e, p_ls + e.param(ls_margin_) - p_out));
    }
    return eps;
  }
  double fraction(const Eval& e) const { return variable_ ? displacement_fraction(e, target_fraction(e), 0.0) : 1.0; }

  bool variable_;
  RealParam displacement_, speed_;
  Control control_ = Control::PressureCompensated;
  RealParam cutoff_, band_, power_limit_, ls_margin_;
  PortId inlet_, outlet_, speed_in_, shaft_, command_, ls_;
  ObservableId flow_, torque_, power_, loss_, drive_, ls_difference_;
};

// The registered types: a machine of fixed or of variable displacement.
template <class Kind, bool variable>
class Displacement final : public Kind {
 public:
  Displacement() : Kind(variable) {}
};

// Motor between an inlet a and an outlet b, turning a shaft. It is the machine of the
// pump above run with a as its outlet, b as its inlet and ω the other way: with the
// pump's law P(ε, ω, Δp) = (q, T) at Δp = p_a − p_b,
//   q_a→b = −q(ε, −ω, Δp),    T_shaft = T(ε, −ω, Δp) − c ω,
// which for the constant model is
//   q = ε D ω + k_leak (p_a − p_b)              taken from a, delivered into b
//   T = η_hm ε D (p_a − p_b) − c ω              on the shaft
//                                               (ε D (p_a − p_b) / η_hm when the shaft
//                                               drives it as a pump)
// and its loss q Δp − T ω is the pump's T ω − q Δp (plus c ω²).
// "shaft": "rotational": the port `shaft` is the response side of a rotational port on
// the driven inertia (a rotational.inertia, a gear's input...): it reads ω and returns T,
// the torque the motor exerts on that inertia.
// "shaft": "signal": the speed comes from the input `speed` and T is the output `torque`.
//
// ε = 1 for the fixed motor. The variable motor's displacement fraction ε ∈ [ε_min, 1]
// follows its control through a first-order lag T dε/dt = ε_target − ε (the bent axis or
// swashplate, starting at full displacement):
//   signal:    ε_target = clamp(u, ε_min, 1) from the input `displacement`
//   pressure:  ε_target = ε_min + (1 − ε_min) clamp((|Δp| − p_c) / Δp_band, 0, 1): the
//              motor strokes to its largest displacement, and its largest torque, as
//              the load pressure rises above p_c (a high-pressure-related control)
// ε_min keeps the speed finite: at a flow q it turns at ω = q η_v / (ε D).
class Motor : public Machine {
 public:
  explicit Motor(bool variable) : variable_(variable) {
    d_ = declare_real(
        variable_ ? "max_displacement" : "displacement", "m^3/rad", std::nullopt,
        variable_ ? "largest displacement D (e.g. \"80 cm^3/rev\")" : "displacement D (e.g. \"80 cm^3/rev\")",
        Range::positive());
    rated_speed_ = declare_real("rated_speed", "rad/s", 157.07963267948966,
                                "speed at which volumetric_efficiency holds", Range::positive());
    declare_loss_parameters(d_, rated_speed_, "pressure drop");
    c_ = declare_real("viscous_friction", "N*m*s/rad", 0.0, "c: friction torque per unit speed (any loss_model)",
                      Range::non_negative());
    declare_text("shaft", "rotational",
                 "rotational: port 'shaft' on the driven inertia; signal: input 'speed', output 'torque'",
                 {"rotational", "signal"});
    if (variable_) {
      declare_text("control", "signal",
                   "signal (input 'displacement', 0 to 1) or pressure (full displacement as the pressure drop rises)",
                   {"signal", "pressure"});
      min_fraction_ =
          declare_real("min_fraction", "", 0.2, "ε_min, the smallest displacement fraction", Range::between(0.01, 1.0));
      control_pressure_ = declare_real("control_pressure", "Pa", 20e6,
                                       "pressure control: the pressure drop p_c above which the motor strokes up",
                                       Range::non_negative());
      band_ = declare_real("regulation_band", "Pa", 5e6, "pressure control: from ε_min to full displacement",
                           Range::positive());
      declare_fraction_dynamics("first_order");
    }
    declare_heat_port_parameter("true: a thermal port 'heat' returns the loss q Δp − T ω as heat flow");
  }
  void configure() override {
    configure_losses();
    a_ = declare_port("a", hydraulic_domain(), PortSide::Response, "inlet");
    b_ = declare_port("b", hydraulic_domain(), PortSide::Response, "outlet");
    std::vector<PortId> reads{a_, b_};
    if (text("shaft") == "rotational") {
      shaft_ = declare_port("shaft", rotational_domain(), PortSide::Response,
                            "on the driven inertia: reads its speed, returns the motor's torque T");
      reads.push_back(shaft_);
    } else {
      speed_ = declare_port("speed", signal_domain(), PortSide::Response, "shaft speed ω (rad/s)");
      torque_out_ = declare_port("torque", signal_domain(), PortSide::State, "shaft torque T");
      set_unit(torque_out_, "N*m");
      reads.push_back(speed_);
    }
    if (variable_) {
      command_ = configure_fraction(text("control") == "signal", reads);
      // It starts at full displacement (the "initial" of a netlist may say otherwise).
      if (has_dynamics()) set_state_initial(find_state("displacement_state"), 1.0);
    }
    set_dependencies(shaft_.valid() ? shaft_ : torque_out_, reads);
    set_dependencies(a_, reads);
    set_dependencies(b_, reads);
    configure_heat_port("to a heat capacity (the oil, the motor's housing): returns the loss q Δp − T ω", reads);
    flow_ = declare_observable("flow", "m^3/s", "flow from a to b");
    // With a signal shaft the output port `torque` is itself recordable as motor.torque.
    if (shaft_.valid()) torque_ = declare_observable("torque", "N*m", "torque on the shaft");
    power_ = declare_observable("power", "W", "shaft power T ω");
    loss_ = declare_observable("power_loss", "W", "q Δp − T ω: leakage and hydromechanical losses");
    set_loss_role(loss_);   // with a heat port, it leaves through it
    if (!shaft_.valid()) {  // its shaft power leaves the model through the torque signal
      taken_ = declare_observable("supplied_power", "W", "−T ω: the shaft power it sends out of the model");
      set_energy_role(taken_, EnergyRole::Supplied);
    }
    finish_configure();
  }
  void calc_outputs(Eval& e) const override {
    const MachinePoint m = point(e, fraction(e));
    e.set_out(a_, hydraulic::flow_rate, -m.flow);
    e.set_out(b_, hydraulic::flow_rate, m.flow);
    if (shaft_.valid())
      e.set_out(shaft_, rotational::torque, m.torque);
    else
      e.set_out(torque_out_, signal::value, m.torque);
    if (has_heat_port()) set_heat_flow(e, m.flow * drop(e) - m.torque * omega(e));
  }
  // q Δp − T ω: what the fluid gives less the shaft power (leakage and friction), the loss.
  void calc_derivatives(Eval& e) const override {
    const double eps = fraction(e);
    const MachinePoint m = point(e, eps);
    const double shaft_power = m.torque * omega(e);
    if (variable_) {
      dynamic_derivatives(e, target_fraction(e));
      e.set_observable(fraction_observable(), eps);
    }
    e.set_observable(flow_, m.flow);
    if (torque_.valid()) e.set_observable(torque_, m.torque);
    e.set_observable(power_, shaft_power);
    e.set_observable(loss_, m.flow * drop(e) - shaft_power);
    if (taken_.valid()) e.set_observable(taken_, -shaft_power);
  }

 private:
  double omega(const Eval& e) const {
    return shaft_.valid() ? e.in(shaft_, rotational::speed) : e.in(speed_, signal::value);
  }
  double drop(const Eval& e) const { return e.in(a_, hydraulic::pressure) - e.in(b_, hydraulic::pressure); }
  // The flow from a to b and the torque on the shaft: the pump's law with a as its
  // outlet, turning the other way (the class comment), less the viscous friction.
  MachinePoint point(const Eval& e, double eps) const {
    const double w = omega(e);
    const MachinePoint pump = machine_point(e, eps, -w, drop(e));
    return {-pump.flow, pump.torque - e.param(c_) * w};
  }
  double target_fraction(const Eval& e) const {
    const double lowest = e.param(min_fraction_);
    if (command_.valid()) return std::clamp(e.in(command_, signal::value), lowest, 1.0);
    const double stroke = std::clamp((std::abs(drop(e)) - e.param(control_pressure_)) / e.param(band_), 0.0, 1.0);
    return lowest + (1.0 - lowest) * stroke;
  }
  double fraction(const Eval& e) const {
    return variable_ ? displacement_fraction(e, target_fraction(e), e.param(min_fraction_)) : 1.0;
  }

  bool variable_;
  RealParam d_, rated_speed_, c_;
  RealParam min_fraction_, control_pressure_, band_;
  PortId a_, b_, shaft_, speed_, torque_out_, command_;
  ObservableId flow_, torque_, power_, loss_, taken_;
};

void register_pumps(Registry& r) {
  r.add<Displacement<Pump, false>>("hydraulic.pump", "fixed-displacement pump: q = D ω − leakage");
  r.add<Displacement<Pump, true>>(
      "hydraulic.variable_pump",
      "variable-displacement pump: pressure-compensated, constant-power, load-sensing or signal control");
  r.add<Displacement<Motor, false>>("hydraulic.motor",
                                    "hydraulic motor driving a rotational inertia (or with speed and torque signals)");
  r.add<Displacement<Motor, true>>(
      "hydraulic.variable_motor",
      "variable-displacement motor: displacement from a signal or the pressure, with a lag");
}

}  // namespace jourdain::hydraulic_library
