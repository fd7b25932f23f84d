// Internal header of the hydraulic component library: the fluid, the laws that several
// components share (orifice, chamber, spool dynamics) and their common base class.
//
// Conventions (components/hydraulic/README.md, "Conventions"):
//   - pressures are GAUGE pressures, in Pa, relative to world.fluid.atmospheric_pressure
//     (a tank is at 0); absolute pressure p_abs = p + p_atm is used only where physics
//     needs it (entrained air, the vapour limit, gas laws);
//   - a capacitive element (volume, chamber, accumulator, pipe node) is the state side of
//     a hydraulic port: it outputs its pressure and receives the flows into it; a
//     resistive element (orifice, valve, pump) is the response side: it reads pressures
//     and returns the volume flow rate (m³/s) it delivers INTO the capacitive element;
//   - flows are volume flow rates at the local pressure (the liquid is treated as
//     incompressible in the resistive laws, compressible in the chambers).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/components/heat_port.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::hydraulic_library {

void register_sources(Registry& r);
void register_volumes(Registry& r);
void register_orifices(Registry& r);
void register_pumps(Registry& r);
void register_pressure_valves(Registry& r);
void register_directional_valves(Registry& r);
void register_flow_valves(Registry& r);
void register_cylinders(Registry& r);
void register_pipes(Registry& r);
void register_sensors(Registry& r);

inline std::string format_number(double v) {
  std::ostringstream out;
  out.precision(10);
  out << v;
  return out.str();
}

// ------------------------------------------------------------------ the fluid

// The netlist's "world": {"fluid": {...}}. Every key is optional.
//
// Temperature. The density, bulk modulus and viscosity given are those at
// reference_temperature; the circuit's oil is at `temperature` (by default the same),
// and parse_fluid returns the fluid at it (Fluid::at):
//   ρ(T) = ρ_ref / (1 + α_V (T − T_ref))                   thermal expansion α_V (1/K)
//   β(T) = β_ref + s_β (T − T_ref)                          s_β in Pa/K (negative for oils)
//   ν(T): Walther's equation (ASTM D341), from two points (T_1, ν_1), (T_2, ν_2) given as
//   "viscosity_at": log10 log10(ν + 0.7) = A − B log10 T, ν in cSt and T in K,
//   or ν_ref at every temperature without them.
// (C. Walther, "Über die Auswertung von Viskositätsangaben", Erdöl und Teer 7, 1931;
// ASTM D341, "Standard practice for viscosity–temperature equations and charts for
// liquid petroleum or hydrocarbon products".)
struct Fluid {
  double density = 850.0;                  // ρ, kg/m³
  double bulk_modulus = 1.5e9;             // β_l, Pa: the air-free liquid
  double kinematic_viscosity = 4.6e-5;     // ν, m²/s (ISO VG 46 at 40 °C)
  double vapour_pressure = 1000.0;         // Pa ABSOLUTE: no pressure falls below it
  double atmospheric_pressure = 101325.0;  // Pa absolute: the zero of gauge pressures
  double air_fraction = 0.0;               // α: undissolved air volume per liquid volume at p_atm
  double air_polytropic_index = 1.0;       // n of the air bubbles (1 isothermal, 1.4 adiabatic)
  double temperature = 313.15;             // T, K: the oil's temperature (40 °C)
  double reference_temperature = 313.15;   // T_ref, K: where ρ, β and ν were given
  double thermal_expansion = 0.0;          // α_V, 1/K
  double bulk_modulus_slope = 0.0;         // s_β, Pa/K

  // ρ, β and ν at T_ref, as given; the fields above are at `temperature`.
  double reference_density = 850.0, reference_bulk_modulus = 1.5e9, reference_viscosity = 4.6e-5;
  // Walther's constants A and B (ν in cSt, T in K); `walther` false: ν does not vary.
  bool walther = false;
  double walther_a = 0.0, walther_b = 0.0;

  // Whether ρ, β or ν change with the temperature at all.
  bool varies_with_temperature() const { return walther || thermal_expansion != 0.0 || bulk_modulus_slope != 0.0; }
  // The fluid at temperature T: ρ, β and ν from their values at T_ref (the comment above).
  Fluid at(double T) const {
    Fluid f = *this;
    f.temperature = T;
    const double dT = T - reference_temperature;
    f.density = reference_density / (1.0 + thermal_expansion * dT);
    f.bulk_modulus = reference_bulk_modulus + bulk_modulus_slope * dT;
    f.kinematic_viscosity = walther ? walther_viscosity(walther_a, walther_b, T) : reference_viscosity;
    return f;
  }
  // ν(T) by Walther's equation, m²/s.
  static double walther_viscosity(double a, double b, double T) {
    return (std::pow(10.0, std::pow(10.0, a - b * std::log10(T))) - 0.7) * 1e-6;
  }

  // Lowest gauge pressure a chamber reaches: the vapour pressure.
  double min_pressure() const { return vapour_pressure - atmospheric_pressure; }

  // Effective bulk modulus of the liquid with entrained air at gauge pressure p. The
  // mixture's volume is V = V_l + V_a with dV_l/dp = −V_l/β_l and air following
  // p_abs V_a^n = const, V_a = α V_l (p_atm/p_abs)^(1/n); then β = −V dp/dV gives
  //   β(p) = β_l (1 + x) / (1 + x β_l / (n p_abs)),   x = α (p_atm / p_abs)^(1/n)
  // (Merritt, Hydraulic Control Systems, 1967, ch. 2, effective bulk modulus: 1/β_e = 1/β_l + (V_g/V_t)/β_g with
  // β_g = n p for the gas). Without air it is β_l.
  double effective_bulk_modulus(double p) const {
    if (air_fraction <= 0.0) return bulk_modulus;
    const double p_abs = std::max(p + atmospheric_pressure, std::max(vapour_pressure, 1.0));
    const double x = air_fraction * std::pow(atmospheric_pressure / p_abs, 1.0 / air_polytropic_index);
    return bulk_modulus * (1.0 + x) / (1.0 + x * bulk_modulus / (air_polytropic_index * p_abs));
  }
  // Dynamic viscosity μ = ρ ν, Pa·s.
  double dynamic_viscosity() const { return density * kinematic_viscosity; }
};

// Parses world.fluid (numbers in SI or strings with units); throws an InputError naming
// "/world/fluid/<key>" for an unknown key, a wrong unit or a value out of range.
Fluid parse_fluid(const World& world);
// The fluid of `world`, parsed once for the whole library (World::parsed) however many
// components read it.
std::shared_ptr<const Fluid> library_fluid(const World& world);

// ------------------------------------------------------------------ shared laws

constexpr double pi = std::numbers::pi;

// Equivalent hydraulic diameter of an opening of area A: the circle of that area.
inline double hydraulic_diameter(double area) { return std::sqrt(4.0 * std::max(area, 0.0) / pi); }

// Sharp-edged orifice, turbulent with a smooth laminar region near Δp = 0 (the flow-number
// form of system simulation tools such as AMESim):
//   q = C_d tanh(2 λ / λ_crit) A sign(Δp) sqrt(2 |Δp| / ρ),   λ = D_h sqrt(2 |Δp| / ρ) / ν
// λ is a Reynolds number built on the ideal jet speed. For λ >> λ_crit, tanh -> 1: the
// turbulent law q = C_d A sqrt(2Δp/ρ). Near Δp = 0, tanh(z) ≈ z makes q linear in Δp,
//   q ≈ 4 C_d A D_h Δp / (ν λ_crit ρ),
// the laminar regime, so q(Δp) is continuous with a continuous, finite slope through 0.
inline double orifice_flow(double cd, double area, double dp, const Fluid& f, double lambda_crit) {
  if (!(area > 0.0) || dp == 0.0) return 0.0;
  const double jet = std::sqrt(2.0 * std::abs(dp) / f.density);  // ideal jet speed, m/s
  const double lambda = hydraulic_diameter(area) * jet / f.kinematic_viscosity;
  const double q = cd * std::tanh(2.0 * lambda / lambda_crit) * area * jet;
  return dp > 0.0 ? q : -q;
}

// Liquid chamber with a vapour limit. Its state p_s is the pressure while the pressure
// is above the vapour pressure p_min (gauge); the chamber then follows
//   dp/dt = β(p) / V (Σq − dV/dt)                                          (1)
// When (1) would take p below p_min, the pressure stays at p_min and the liquid column
// separates: a vapour cavity of volume V_c opens, with dV_c/dt = dV/dt − Σq. The state
// carries on below p_min as the cavity's measure, p_s = p_min − β(p_min) V_c / V, with
//   dp_s/dt = [β (Σq − dV/dt) + (p_min − p_s) dV/dt] / V                     (2)
// which makes V_c = V (p_min − p_s)/β exact for a moving wall too; (2) equals (1) above
// p_min. The cavity must be refilled before the pressure rises again, and the volume
// balance (liquid + cavity) holds throughout. No event is needed: the pressure is
// max(p_s, p_min), continuous, with a kink at p_min.
// A compliant wall (a hose) adds its own modulus β_w in series: 1/β = 1/β(p) + 1/β_w
// (wall_modulus 0: a rigid wall).
struct Chamber {
  static double pressure(double ps, const Fluid& f) { return std::max(ps, f.min_pressure()); }
  static double bulk_modulus(double p, const Fluid& f, double wall_modulus = 0.0) {
    const double beta = f.effective_bulk_modulus(p);
    return wall_modulus > 0.0 ? 1.0 / (1.0 / beta + 1.0 / wall_modulus) : beta;
  }
  static double rate(double ps, double volume, double dvdt, double inflow, const Fluid& f, double wall_modulus = 0.0) {
    const double p_min = f.min_pressure();
    const double beta = bulk_modulus(std::max(ps, p_min), f, wall_modulus);
    const double deficit = std::max(0.0, p_min - ps);
    return (beta * (inflow - dvdt) + deficit * dvdt) / volume;
  }
  static double cavity(double ps, double volume, const Fluid& f, double wall_modulus = 0.0) {
    const double p_min = f.min_pressure();
    return ps < p_min ? volume * (p_min - ps) / bulk_modulus(p_min, f, wall_modulus) : 0.0;
  }
  // Energy per unit volume of the liquid compressed from gauge 0 to p:
  //   ε(p) = ∫_0^p s / β(s) ds,
  // exact for a constant β (no entrained air: p² / (2β)); with air, composite Simpson
  // over 64 panels.
  static double specific_energy(double p, const Fluid& f, double wall_modulus = 0.0) {
    if (f.air_fraction <= 0.0) return p * p / (2.0 * bulk_modulus(0.0, f, wall_modulus));
    constexpr int panels = 64;  // even
    const double h = p / panels;
    double sum = 0.0;
    for (int k = 0; k <= panels; ++k) {
      const double s = k * h, w = (k == 0 || k == panels) ? 1.0 : (k % 2 ? 4.0 : 2.0);
      sum += w * s / bulk_modulus(s, f, wall_modulus);
    }
    return sum * h / 3.0;
  }
  // Energy stored in the compressed liquid of a chamber of volume V, counted from gauge 0:
  //   E = V ε(p),     so that dE/dt = p Σq by (1) for a rigid chamber.
  // In a cavity the pressure stays at p_min while the flow empties it, and
  // E = V ε(p_min) − p_min V_c.
  static double stored_energy(double ps, double volume, const Fluid& f, double wall_modulus = 0.0) {
    const double p = pressure(ps, f);
    return volume * specific_energy(p, f, wall_modulus) - f.min_pressure() * cavity(ps, volume, f, wall_modulus);
  }
  // With a moving wall (a cylinder's chamber) the port and the wall exchange
  // p Σq − p dV/dt, and by (1) and (2) d(V ε)/dt exceeds that by dV/dt ε(p), in and out of
  // a cavity alike: the volume law (1), which conserves volume flows, fills the volume
  // the wall sweeps with liquid already compressed to p. That is the lumped chamber's
  // departure from an energy-conserving law, of the order p/(2β) of the wall's work
  // (about 1% at 300 bar). `swept` is its rate, which the energy account counts as
  // supplied by the chamber law so that the balance closes to the integrator's accuracy;
  // `stored` is stored_energy. Both from one ε(p) (64 Simpson panels with air).
  struct MovingWallEnergy {
    double stored, swept;
  };
  static MovingWallEnergy moving_wall_energy(double ps, double volume, double dvdt, const Fluid& f) {
    const double eps = specific_energy(pressure(ps, f), f);
    return {volume * eps - f.min_pressure() * cavity(ps, volume, f), dvdt * eps};
  }
};

// Dead zone of half-width h: e − clamp(e, −h, h). A spool or poppet that needs a force
// margin h to move (static friction) shows a hysteresis loop of width 2h.
inline double dead_zone(double e, double h) { return h > 0.0 ? e - std::clamp(e, -h, h) : e; }

// ------------------------------------------------------------------ base class

// Base of the hydraulic components: the fluid, the parameters of the laws they share
// (orifice, size of an opening, dynamics of a moving part) and their derived values.
//
// The fluid is parsed from world.fluid once for the library (library_fluid), so that no
// JSON is read while the model runs and a bad fluid is refused when the netlist loads.
// What follows from the numeric parameters and the fluid (the fluid's properties, an
// opening's area π d²/4, a valve's full area) is computed in the derived stage
// (calc_derived), once per set of parameter values of a Context, and read with
// Eval::derived; the relations between numeric parameters are checked there too.
//
// A component that loses power (a throttling edge, a pump, a motor, a cylinder) may send
// its loss out as heat through an optional thermal port (HeatPortComponent, "heat_port")
// instead of counting it lost: typically into a heat capacity standing for the oil or
// the valve block.
class HydraulicComponent : public HeatPortComponent {
 public:
  // The derived stage: the fluid's properties and the opening's area (when declared)
  // into e's Context, after checking that diameter and area are not both given. A
  // component with derived values or relations of its own overrides it, calling this
  // first, and refuses a bad relation with parameter_error.
  void calc_derived(Eval& e) const override;

 protected:
  // configure(), last: reads the library's fluid (InputError naming /world/fluid/<key>)
  // and declares the derived values of the fluid and of the opening's area. With a heat
  // port and a fluid that follows the temperature, every port's outputs then read the
  // heat port too (fluid()).
  void finish_configure();
  // The fluid of this Context: its derived values, in the order of Fluid's members; with
  // a heat port and a fluid that follows the temperature, the fluid at the temperature of
  // the element on the heat port (the oil's heat capacity, a volume's oil).
  Fluid fluid(const Eval& e) const {
    if (follows_temperature_) return library_fluid_->at(heat_port_temperature(e));
    const int k = fluid_.index;
    Fluid f;
    f.density = e.derived(DerivedId{k});
    f.bulk_modulus = e.derived(DerivedId{k + 1});
    f.kinematic_viscosity = e.derived(DerivedId{k + 2});
    f.vapour_pressure = e.derived(DerivedId{k + 3});
    f.atmospheric_pressure = e.derived(DerivedId{k + 4});
    f.air_fraction = e.derived(DerivedId{k + 5});
    f.air_polytropic_index = e.derived(DerivedId{k + 6});
    return f;
  }

  // configure(), for an element with several ports that throttles and stores nothing
  // (valve sections, shuttles, dividers): each of `ports` reads `reads` directly, and so
  // does the heat port when there is one; the observable "power_loss" (W, described by
  // `what`), −Σ p q over the ports, is the element's loss, turned into heat.
  ObservableId declare_throttling(const std::vector<PortId>& ports, const std::vector<PortId>& reads,
                                  const std::string& what);

  // The library's fluid at temperature T (Fluid::at), for a component that keeps a
  // temperature of its own (a volume's oil).
  Fluid fluid_at(double T) const { return library_fluid_->at(T); }

  // ---- the orifice law of the component's openings (orifice_flow) ----
  // Constructor: declares "discharge_coefficient" (C_d, described by `what`) and
  // "critical_flow_number" (λ_crit).
  void declare_orifice_parameters(const std::string& what);
  double discharge_coefficient(const Eval& e) const { return e.param(cd_); }
  // Flow through an opening of `area` under `dp`, with this component's C_d, λ_crit and fluid.
  double orifice(const Eval& e, double area, double dp) const {
    return orifice_flow(e.param(cd_), area, dp, fluid(e), e.param(lambda_crit_));
  }

  // ---- the size of an opening: "diameter" (d, A = π d²/4) or `area_name` ----
  // Constructor: declares both (0 = not given); default_area applies when neither is.
  // Giving both is refused (calc_derived of this base).
  void declare_area_parameters(const std::string& area_name, const std::string& what, double default_area);
  // The area in m², a derived value ("opening_area").
  double opening_area(const Eval& e) const { return e.derived(opening_area_); }

  // ---- dynamics of a moving part: position y follows a target u ----
  //   "none":          y = u
  //   "first_order":   T dy/dt = dz(u − y)
  //   "second_order":  d²y/dt² = ω² dz(u − y) − 2 ζ ω dy/dt
  // dz is the dead zone of half-width h (hysteresis, dead_zone()), 0 without hysteresis.
  // Constructor: declares "dynamics" (configuration: it decides the states) and the
  // numeric "time_constant", "natural_frequency", "damping".
  void declare_dynamics_parameters(const std::string& default_order, bool second_order_allowed = true);
  // configure(): reads "dynamics" and declares the states `name` (and `name`_rate).
  void configure_dynamics(const std::string& name, const std::string& unit, const std::string& description);
  bool has_dynamics() const { return order_ != 0; }
  // The part's position: its state, or the target when it has no dynamics.
  double dynamic_position(const Eval& e, double target) const { return order_ == 0 ? target : e.state(y_); }
  void dynamic_derivatives(Eval& e, double target, double half_width = 0.0) const;

 private:
  std::shared_ptr<const Fluid> library_fluid_;  // world.fluid, as the library parsed it
  DerivedId fluid_;                             // the first of the fluid's derived values
  bool follows_temperature_ = false;            // fluid() at the heat port's temperature
  RealParam cd_, lambda_crit_;
  std::string area_name_, area_what_;
  RealParam diameter_, area_;
  DerivedId opening_area_;
  double default_area_ = 0.0;
  int order_ = 0;  // 0 none, 1 first order, 2 second order
  RealParam time_constant_, omega_, zeta_;
  StateId y_, ydot_;
};

// Base of the two-port resistive elements (orifices, seat valves): a flow q from port
// `from` into port `to`, returned as −q to `from` and +q to `to`. Pilot lines the flow
// reads take no flow. The observable "flow" is read back from the outputs, not computed
// a second time. Throttling loses Δp q (the observable "power_loss"); with "heat_port"
// true, the port `heat` returns it as heat flow.
class FlowPath : public HydraulicComponent {
 public:
  FlowPath();
  void calc_outputs(Eval& e) const final;
  void calc_derivatives(Eval& e) const final;

 protected:
  // configure(): the two ends, the observables "flow" (q, described by `flow_what`) and
  // "power_loss", and the heat port when there is one.
  void declare_flow_path(const std::string& from, const std::string& from_what, const std::string& to,
                         const std::string& to_what, const std::string& flow_what);
  // configure(), after declare_flow_path: an input the flow also reads, a hydraulic pilot
  // line (it takes no flow) or a signal.
  PortId declare_pilot(const std::string& name, const std::string& what);
  PortId declare_flow_signal(const std::string& name, const std::string& what);

  double from_pressure(const Eval& e) const { return e.in(from_, hydraulic::pressure); }
  double to_pressure(const Eval& e) const { return e.in(to_, hydraulic::pressure); }
  double pressure_drop(const Eval& e) const { return from_pressure(e) - to_pressure(e); }

  // q from `from` to `to`, m³/s.
  virtual double flow(const Eval& e) const = 0;
  // The rest of calc_derivatives: a moving part's dynamics, further observables.
  virtual void calc_other_derivatives(Eval&) const {}

 private:
  void reads(PortId p);

  PortId from_, to_;
  std::vector<PortId> inputs_, pilots_;
  ObservableId flow_, power_loss_;
};

}  // namespace jourdain::hydraulic_library
