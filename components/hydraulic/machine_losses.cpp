// The loss models of the displacement machines (machine_losses.hpp). In the pump's
// convention (ω, Δp = p_out − p_in, q into the outlet, T given by the drive), with the
// ideal flow q_i = ε D ω and the ideal torque T_i = ε D Δp:
//
// constant:  q = q_i − k_leak Δp,   k_leak = (1 − η_v) D ω_rated / p_rated
//            T = T_i η_hm^(−s),      s = sign(Δp) tanh(ω / ω_s)
//   (η_v holds at the rated point; η_hm divides the torque where the shaft drives the
//   fluid, multiplies it where the fluid drives the shaft.)
//
// wilson:    q = q_i − C_s D Δp / μ
//            T = T_i + C_v μ D ω + (C_f D |Δp| + T_c) tanh(ω / ω_s)
//   W. E. Wilson, "Performance criteria for positive-displacement pumps and fluid
//   motors", Trans. ASME 71, 1949 (and his *Positive-Displacement Pumps and Fluid
//   Motors*, Pitman, 1950): laminar slip through the clearances, proportional to Δp/μ;
//   a viscous drag in the gaps, proportional to μ ω; a Coulomb friction proportional
//   to the load on the sliding parts, D |Δp|; T_c a constant drag (seals, bearings),
//   as in the extension of McCandlish and Dorey, "The mathematical
//   modelling of hydrostatic pumps and motors", Proc. IMechE B 198, 1984. The
//   coefficients are dimensionless; μ = ρ ν is the dynamic viscosity of the fluid this
//   machine sees (at the oil's temperature when it follows it). The slip and the
//   friction scale with the largest displacement D, not with ε D: the clearances and
//   the piston forces do not shrink with the swash angle (so a variable pump at zero
//   stroke still leaks and drags; Ivantysyn & Ivantysynova, *Hydrostatic Pumps and
//   Motors*, 2001, ch. 4 and 5, on the loss sources of axial piston machines).
//   Leakage flows from high to low pressure and every torque term opposes ω, so the
//   loss T ω − q Δp = C_v μ D ω² + (C_f D |Δp| + T_c) ω tanh(ω/ω_s) + C_s D Δp²/μ ≥ 0
//   in every quadrant.
//
// map:       η_v = V(|ω|, |Δp|), η_hm = H(|ω|, |Δp|)   (GridMap: bilinear, held at the edges)
//            q = q_i η_v^(s_v),   s_v = sign(ω) tanh(Δp / Δp_s)
//            T = T_i η_hm^(−s),   s as for the constant model
//   η_v multiplies the flow where the machine pumps (ω Δp > 0: the leakage is lost
//   from the delivery) and divides it where it motors (the motor takes more than its
//   displacement); Δp_s is 1% of rated_pressure. A map has no standstill loss: at
//   ω = 0 it leaks nothing (q_i = 0), where the Wilson model still does.
//
// ω_s is 1% of the rated speed (in_power_direction).
#include "machine_losses.hpp"

namespace jourdain::hydraulic_library {

namespace {

// tanh(x / x_s), or sign(x) for x_s = 0.
double smooth_sign(double x, double x_s) { return x_s > 0.0 ? std::tanh(x / x_s) : (x > 0.0) - (x < 0.0); }

// The smoothing scale: 1% of a rated value.
double smoothing(double rated) { return 0.01 * rated; }

// A map's default: η = 1 everywhere (no loss).
nlohmann::json lossless_map() {
  using nlohmann::json;
  return json::array({json::array({0, 0, 1}), json::array({1, 0, 1}), json::array({0, 1, 1}), json::array({1, 1, 1})});
}

}  // namespace

double in_power_direction(double ideal, double x, double eta, double x_s) {
  if (eta >= 1.0 || ideal == 0.0) return ideal;
  const double s = smooth_sign(x, x_s);
  return ideal * std::pow(eta, ideal > 0.0 ? -s : s);
}

void Machine::declare_loss_parameters(RealParam displacement, RealParam rated_speed, const std::string& across) {
  displacement_ = displacement;
  rated_speed_ = rated_speed;
  declare_text("loss_model", "constant",
               "constant (volumetric and hydromechanical efficiencies), wilson (slip, viscous and friction "
               "coefficients) or map (efficiency tables over speed and pressure)",
               {"constant", "wilson", "map"});
  eta_v_ =
      declare_real("volumetric_efficiency", "", 1.0,
                   "constant: η_v at rated_pressure and the rated speed (laminar leakage)", Range::between(0.01, 1.0));
  rated_pressure_ = declare_real("rated_pressure", "Pa", 25e6,
                                 across +
                                     " at which volumetric_efficiency holds (map: 1% of it smooths η_v's "
                                     "direction through zero)",
                                 Range::positive());
  eta_hm_ = declare_real("hydromechanical_efficiency", "", 1.0,
                         "constant: η_hm in the direction power flows (torque D Δp / η_hm pumping, η_hm D Δp motoring)",
                         Range::between(0.01, 1.0));
  slip_ = declare_real("slip_coefficient", "", 0.0, "wilson: C_s, laminar slip C_s D Δp / μ", Range::non_negative());
  viscous_ =
      declare_real("viscous_coefficient", "", 0.0, "wilson: C_v, viscous torque C_v μ D ω", Range::non_negative());
  friction_ = declare_real("friction_coefficient", "", 0.0, "wilson: C_f, Coulomb torque C_f D |Δp| against ω",
                           Range::non_negative());
  constant_torque_ =
      declare_real("constant_torque_loss", "N*m", 0.0, "wilson: T_c, a drag torque against ω", Range::non_negative());
  declare_table("volumetric_efficiency_map", {"rad/s", "Pa", ""},
                "map: rows [ω, Δp, η_v], one per grid point (every speed with every " + across +
                    "), read at (|ω|, |Δp|); default η_v = 1",
                lossless_map());
  declare_table("hydromechanical_efficiency_map", {"rad/s", "Pa", ""},
                "map: rows [ω, Δp, η_hm], as volumetric_efficiency_map; default η_hm = 1", lossless_map());
}

GridMap Machine::read_map(const std::string& name) const {
  const auto rows = table(name);
  for (const auto& r : rows)
    if (!(r[2] > 0.0 && r[2] <= 1.0))
      parameter_error(name, "an efficiency must be in (0, 1]; got " + format_number(r[2]));
  if (const std::string why = GridMap::check(rows, "speed", "pressure"); !why.empty()) parameter_error(name, why);
  return GridMap(rows);
}

void Machine::configure_losses() {
  const std::string m = text("loss_model");
  model_ = m == "wilson" ? Model::Wilson : m == "map" ? Model::Map : Model::Constant;
  if (model_ == Model::Map) {
    volumetric_map_ = read_map("volumetric_efficiency_map");
    hydromechanical_map_ = read_map("hydromechanical_efficiency_map");
  }
}

PortId Machine::configure_fraction(bool signal_input, std::vector<PortId>& reads) {
  PortId command;
  if (signal_input)
    command = declare_port("displacement", signal_domain(), PortSide::Response, "displacement fraction (0 to 1)");
  configure_dynamics("displacement_state", "", "displacement fraction ε following its control (first order)");
  // With a lag, ε is a state: the flow reads only the pressures (and the speed).
  if (command.valid() && !has_dynamics()) reads.push_back(command);
  fraction_ = declare_observable("displacement_fraction", "", "ε, the fraction of the largest displacement");
  return command;
}

MachinePoint Machine::machine_point(const Eval& e, double fraction, double omega, double rise) const {
  const double d = e.param(displacement_);
  const double ideal_flow = fraction * d * omega, ideal_torque = fraction * d * rise;
  switch (model_) {
    case Model::Wilson:
      return wilson_point(e, ideal_flow, ideal_torque, omega, rise);
    case Model::Map:
      return map_point(e, ideal_flow, ideal_torque, omega, rise);
    case Model::Constant:
      break;
  }
  return constant_point(e, ideal_flow, ideal_torque, omega, rise);
}

MachinePoint Machine::constant_point(const Eval& e, double ideal_flow, double ideal_torque, double omega,
                                     double rise) const {
  const double rated_speed = e.param(rated_speed_);
  const double k_leak = (1.0 - e.param(eta_v_)) * e.param(displacement_) * rated_speed / e.param(rated_pressure_);
  return {ideal_flow - k_leak * rise,
          in_power_direction(ideal_torque, omega, e.param(eta_hm_), smoothing(rated_speed))};
}

MachinePoint Machine::wilson_point(const Eval& e, double ideal_flow, double ideal_torque, double omega,
                                   double rise) const {
  const double d = e.param(displacement_), mu = fluid(e).dynamic_viscosity();
  const double drag = e.param(friction_) * d * std::abs(rise) + e.param(constant_torque_);
  return {ideal_flow - e.param(slip_) * d * rise / mu, ideal_torque + e.param(viscous_) * mu * d * omega +
                                                           drag * smooth_sign(omega, smoothing(e.param(rated_speed_)))};
}

MachinePoint Machine::map_point(const Eval& e, double ideal_flow, double ideal_torque, double omega,
                                double rise) const {
  const double w = std::abs(omega), dp = std::abs(rise);
  // η_v multiplies q_i where ω and Δp agree: in_power_direction's x is −Δp.
  return {in_power_direction(ideal_flow, -rise, volumetric_map_(w, dp), smoothing(e.param(rated_pressure_))),
          in_power_direction(ideal_torque, omega, hydromechanical_map_(w, dp), smoothing(e.param(rated_speed_)))};
}

}  // namespace jourdain::hydraulic_library
