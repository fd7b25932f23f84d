// The fluid of world.fluid and the base class of the hydraulic components
// (hydraulic_library.hpp).
#include <limits>
#include <vector>

#include "hydraulic_library.hpp"
#include "jourdain/errors.hpp"
#include "jourdain/netlist.hpp"

namespace jourdain::hydraulic_library {

namespace {

struct FluidKey {
  const char* name;
  const char* unit;
  double Fluid::*field;
  Range range;
  const char* meaning;
};

// In the order of Fluid's members (HydraulicComponent::fluid reads them so).
const std::vector<FluidKey>& fluid_keys() {
  static const std::vector<FluidKey> keys = {
      {"density", "kg/m^3", &Fluid::density, Range::positive(), "ρ"},
      {"bulk_modulus", "Pa", &Fluid::bulk_modulus, Range::positive(), "bulk modulus of the air-free liquid"},
      {"kinematic_viscosity", "m^2/s", &Fluid::kinematic_viscosity, Range::positive(), "ν"},
      {"vapour_pressure", "Pa", &Fluid::vapour_pressure, Range::non_negative(), "absolute"},
      {"atmospheric_pressure", "Pa", &Fluid::atmospheric_pressure, Range::positive(), "absolute"},
      {"air_fraction", "", &Fluid::air_fraction, Range::between(0.0, 1.0),
       "entrained air volume per liquid volume at p_atm"},
      {"air_polytropic_index", "", &Fluid::air_polytropic_index, Range::between(1.0, 1.4),
       "1 isothermal to 1.4 adiabatic"},
      {"temperature", "K", &Fluid::temperature, Range::positive(), "the oil's temperature"},
      {"reference_temperature", "K", &Fluid::reference_temperature, Range::positive(),
       "where density, bulk_modulus and kinematic_viscosity are given"},
      {"thermal_expansion", "1/K", &Fluid::thermal_expansion, Range::between(0.0, 0.01),
       "α_V: ρ(T) = ρ_ref / (1 + α_V (T − T_ref))"},
      {"bulk_modulus_slope", "Pa/K", &Fluid::bulk_modulus_slope, Range::any(), "s_β: β(T) = β_ref + s_β (T − T_ref)"},
  };
  return keys;
}

// "viscosity_at": [[T_1, ν_1], [T_2, ν_2]] -> Walther's A and B (Fluid's comment):
//   W_i = log10 log10(ν_i + 0.7),  B = (W_1 − W_2) / (log10 T_2 − log10 T_1),  A = W_1 + B log10 T_1.
void parse_walther(const nlohmann::json& points, Fluid& f, const InputLocation& where) {
  if (!points.is_array() || points.size() != 2)
    throw InputError(where, "expected two points [temperature, kinematic viscosity], e.g. "
                            "[[\"40 degC\", \"46 cSt\"], [\"100 degC\", \"6.8 cSt\"]]");
  double T[2], w[2];
  for (int i = 0; i < 2; ++i) {
    const nlohmann::json& p = points[static_cast<size_t>(i)];
    if (!p.is_array() || p.size() != 2) throw InputError(where, "each point is [temperature, kinematic viscosity]");
    T[i] = json_check::quantity(p[0], "K", where);
    const double nu_cst = json_check::quantity(p[1], "m^2/s", where) * 1e6;
    if (!(T[i] > 0.0)) throw InputError(where, "a temperature must be above 0 K; got " + format_number(T[i]) + " K");
    if (!(nu_cst > 0.3))
      throw InputError(where, "Walther's equation needs ν above 0.3 cSt; got " + format_number(nu_cst) + " cSt");
    w[i] = std::log10(std::log10(nu_cst + 0.7));
  }
  if (T[0] == T[1]) throw InputError(where, "the two points must be at different temperatures");
  f.walther = true;
  f.walther_b = (w[0] - w[1]) / (std::log10(T[1]) - std::log10(T[0]));
  f.walther_a = w[0] + f.walther_b * std::log10(T[0]);
  if (!(f.walther_b > 0.0)) throw InputError(where, "the viscosity must fall as the temperature rises");
}

}  // namespace

Fluid parse_fluid(const World& world) {
  Fluid f;
  auto it = world.settings.find("fluid");
  if (it == world.settings.end()) return f;
  const nlohmann::json& j = *it;
  auto where = [&](const std::string& key) { return InputLocation{world.file, "/world/fluid/" + key, "", ""}; };
  if (!j.is_object()) throw InputError(InputLocation{world.file, "/world/fluid", "", ""}, "expected an object");
  bool temperature_given = false, reference_given = false;
  for (const auto& [key, value] : j.items()) {
    if (key == "viscosity_at") {
      parse_walther(value, f, where(key));
      continue;
    }
    temperature_given |= key == "temperature";
    reference_given |= key == "reference_temperature";
    const FluidKey* k = nullptr;
    for (const auto& candidate : fluid_keys())
      if (key == candidate.name) k = &candidate;
    if (!k) {
      std::string list;
      for (const auto& candidate : fluid_keys()) list += (list.empty() ? "" : ", ") + std::string(candidate.name);
      throw InputError(where(key), "unknown fluid property; the fluid's properties are: " + list + ", viscosity_at");
    }
    const double v = json_check::quantity(value, k->unit, where(key));
    if (!std::isfinite(v) || !k->range.contains(v))
      throw InputError(where(key), "value " + format_number(v) + " is out of its range " + k->range.to_string(k->unit) +
                                       " (" + k->meaning + ")");
    f.*(k->field) = v;
  }
  if (!(f.vapour_pressure < f.atmospheric_pressure))
    throw InputError(where("vapour_pressure"), "must be below atmospheric_pressure (" +
                                                   format_number(f.atmospheric_pressure) + " Pa): both are absolute");
  if (f.walther && j.contains("kinematic_viscosity"))
    throw InputError(where("kinematic_viscosity"),
                     "give kinematic_viscosity or viscosity_at (its variation with the temperature), not both");
  // Without a reference temperature the properties are given at the oil's temperature.
  if (temperature_given && !reference_given) f.reference_temperature = f.temperature;
  f.reference_density = f.density;
  f.reference_bulk_modulus = f.bulk_modulus;
  f.reference_viscosity = f.kinematic_viscosity;
  Fluid at_temperature = f.at(f.temperature);
  if (!(at_temperature.density > 0.0 && at_temperature.bulk_modulus > 0.0 && at_temperature.kinematic_viscosity > 0.0))
    throw InputError(where("temperature"), "at " + format_number(f.temperature) +
                                               " K the fluid's density, bulk modulus or viscosity is not positive");
  return at_temperature;
}

std::shared_ptr<const Fluid> library_fluid(const World& world) { return world.parsed<Fluid>("fluid", parse_fluid); }

// ------------------------------------------------------------------ HydraulicComponent

void HydraulicComponent::finish_configure() {
  library_fluid_ = library_fluid(world());
  for (const FluidKey& k : fluid_keys()) {
    const DerivedId d = declare_derived(std::string("fluid_") + k.name, k.unit, std::string("the fluid's ") + k.name);
    if (&k == &fluid_keys().front()) fluid_ = d;
  }
  if (diameter_.valid())
    opening_area_ = declare_derived("opening_area", "m^2", "area of " + area_what_ + ": π d²/4, or " + area_name_);
  // The heat port's own output (the loss) follows the fluid too: it reads its input.
  follows_temperature_ = has_heat_port() && library_fluid_->varies_with_temperature();
  if (follows_temperature_) {
    for (size_t i = 0; i < ports().size(); ++i) {
      const PortId p{static_cast<int>(i)};
      const PortSpec& spec = ports()[i];
      if (spec.depends_on_all_inputs) continue;  // it reads every input already
      std::vector<PortId> reads = spec.depends_on;
      if (std::find(reads.begin(), reads.end(), heat_port()) == reads.end()) reads.push_back(heat_port());
      set_dependencies(p, std::move(reads));
    }
  }
}

void HydraulicComponent::calc_derived(Eval& e) const {
  for (size_t k = 0; k < fluid_keys().size(); ++k)
    e.set_derived(DerivedId{fluid_.index + static_cast<int>(k)}, (*library_fluid_).*(fluid_keys()[k].field));
  if (!diameter_.valid()) return;
  const double d = e.param(diameter_), a = e.param(area_);
  if (d > 0.0 && a > 0.0) parameter_error(area_name_, "give the diameter or " + area_name_ + ", not both");
  e.set_derived(opening_area_, d > 0.0 ? pi * d * d / 4.0 : a > 0.0 ? a : default_area_);
}

void HydraulicComponent::declare_orifice_parameters(const std::string& what) {
  cd_ = declare_real("discharge_coefficient", "", 0.7, what, Range::between(0.01, 1.0));
  lambda_crit_ = declare_real("critical_flow_number", "", 1000.0,
                              "λ_crit: the flow number λ = D_h sqrt(2|Δp|/ρ)/ν around which the flow turns turbulent",
                              Range::positive());
}

void HydraulicComponent::declare_area_parameters(const std::string& area_name, const std::string& what,
                                                 double default_area) {
  area_name_ = area_name;
  area_what_ = what;
  default_area_ = default_area;
  diameter_ = declare_real("diameter", "m", 0.0, "diameter d of " + what + ": area π d²/4 (0: use " + area_name + ")",
                           Range::non_negative());
  area_ = declare_real(area_name, "m^2", 0.0,
                       "area of " + what + " (0 with no diameter: " + format_number(default_area) + " m²)",
                       Range::non_negative());
}

void HydraulicComponent::declare_dynamics_parameters(const std::string& default_order, bool second_order_allowed) {
  std::vector<std::string> choices{"none", "first_order"};
  if (second_order_allowed) choices.push_back("second_order");
  declare_text("dynamics", default_order,
               second_order_allowed ? "moving part: none (static), first_order (time_constant) or second_order "
                                      "(natural_frequency, damping)"
                                    : "moving part: none (static) or first_order (time_constant)",
               choices);
  time_constant_ = declare_real("time_constant", "s", 1e-3, "first order: time constant T", Range::positive());
  if (second_order_allowed) {
    omega_ = declare_real("natural_frequency", "rad/s", 200.0,
                          "second order: natural frequency ω (the -3 dB bandwidth for "
                          "damping 0.707)",
                          Range::positive());
    zeta_ = declare_real("damping", "", 0.707, "second order: damping ratio ζ", Range::positive());
  }
}

void HydraulicComponent::configure_dynamics(const std::string& name, const std::string& unit,
                                            const std::string& description) {
  const std::string order = text("dynamics");
  order_ = order == "none" ? 0 : order == "first_order" ? 1 : 2;
  if (order_ >= 1) y_ = declare_state(name, unit, 0.0, description);
  // The rate is kept as (dy/dt)/ω, in the units of y: a state in y's own scale keeps the
  // solver's error control on it in proportion (dy/dt itself is ω times larger, and near
  // zero at rest, where an absolute tolerance meant for y would be needlessly tight).
  if (order_ == 2)
    ydot_ = declare_state(name + "_rate", unit, 0.0, "its rate of change divided by the natural frequency, (dy/dt)/ω");
}

void HydraulicComponent::dynamic_derivatives(Eval& e, double target, double half_width) const {
  if (order_ == 0) return;
  const double drive = dead_zone(target - e.state(y_), half_width);
  if (order_ == 1) {
    e.set_derivative(y_, drive / e.param(time_constant_));
    return;
  }
  // y' = ω w,  w' = ω drive − 2 ζ ω w   (w = y'/ω): y'' = ω² drive − 2 ζ ω y'.
  const double w = e.state(ydot_), omega = e.param(omega_);
  e.set_derivative(y_, omega * w);
  e.set_derivative(ydot_, omega * (drive - 2.0 * e.param(zeta_) * w));
}

ObservableId HydraulicComponent::declare_throttling(const std::vector<PortId>& ports, const std::vector<PortId>& reads,
                                                   const std::string& what) {
  for (PortId port : ports) set_dependencies(port, reads);
  configure_heat_port("to a heat capacity (the oil, the valve block): returns the throttling loss", reads);
  const ObservableId loss = declare_observable("power_loss", "W", what);
  set_loss_role(loss);
  return loss;
}

// ------------------------------------------------------------------ FlowPath

FlowPath::FlowPath() {
  declare_heat_port_parameter("true: a thermal port 'heat' returns the throttling loss Δp q as heat flow");
}

void FlowPath::declare_flow_path(const std::string& from, const std::string& from_what, const std::string& to,
                                 const std::string& to_what, const std::string& flow_what) {
  from_ = declare_port(from, hydraulic_domain(), PortSide::Response, from_what);
  to_ = declare_port(to, hydraulic_domain(), PortSide::Response, to_what);
  inputs_ = {from_, to_};
  set_dependencies(from_, inputs_);
  set_dependencies(to_, inputs_);
  flow_ = declare_observable("flow", "m^3/s", flow_what);
  // Throttling turns the pressure drop's work into heat: Δp q, the whole power the path
  // takes from its ends (it stores nothing). The heat port, when there is one, carries it
  // out and reads what the flow reads.
  configure_heat_port("to a heat capacity (the oil, the valve block): returns the throttling loss Δp q", inputs_);
  power_loss_ = declare_observable("power_loss", "W", "throttling loss Δp q, turned into heat");
  set_loss_role(power_loss_);
}

void FlowPath::reads(PortId p) {
  inputs_.push_back(p);
  set_dependencies(from_, inputs_);
  set_dependencies(to_, inputs_);
  if (has_heat_port()) set_dependencies(heat_port(), inputs_);
}

PortId FlowPath::declare_pilot(const std::string& name, const std::string& what) {
  const PortId p = declare_port(name, hydraulic_domain(), PortSide::Response, what);
  set_dependencies(p, {});
  pilots_.push_back(p);
  reads(p);
  return p;
}

PortId FlowPath::declare_flow_signal(const std::string& name, const std::string& what) {
  const PortId p = declare_port(name, signal_domain(), PortSide::Response, what);
  reads(p);
  return p;
}

void FlowPath::calc_outputs(Eval& e) const {
  const double q = flow(e);
  e.set_out(from_, hydraulic::flow_rate, -q);
  e.set_out(to_, hydraulic::flow_rate, q);
  for (PortId p : pilots_) e.set_out(p, hydraulic::flow_rate, 0.0);
  if (has_heat_port()) set_heat_flow(e, pressure_drop(e) * q);  // Δp q, as power_loss
}

void FlowPath::calc_derivatives(Eval& e) const {
  const double q = e.out(to_, hydraulic::flow_rate);
  e.set_observable(flow_, q);
  e.set_observable(power_loss_, pressure_drop(e) * q);
  calc_other_derivatives(e);
}

}  // namespace jourdain::hydraulic_library
