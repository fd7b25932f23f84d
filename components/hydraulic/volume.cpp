// Capacitive elements: the hydraulic volume (any number of ports) and the gas-charged
// accumulator. Both are the state side of their ports: they integrate their pressure
// from the flows they receive.
#include "hydraulic_library.hpp"

namespace jourdain::hydraulic_library {

// A rigid volume V of liquid (a line, a manifold, a valve body):
//   dp/dt = β(p) / V Σq                                              (Chamber, eq. 1)
// never below the vapour pressure (a cavity opens instead: Chamber, eq. 2). β(p) is the
// fluid's effective bulk modulus (with entrained air, pressure-dependent).
//
// Oil temperature ("oil_temperature": true): the volume's oil is also a heat capacity,
//   ρ_ref V c_p dT/dt = Σ Q                   (the heat flows into its port `heat`)
// whose temperature T is a state. Its port `heat` is the state side of the thermal
// domain, like thermal.heat_capacity: the heat ports of the orifices, valves and pumps
// connected to it warm it with their losses (and read T, so that their fluid is at T),
// a thermal.conductance to the surroundings cools it. Its own bulk modulus is β(T)
// (world.fluid's temperature model, Fluid::at). The chamber law leaves out the thermal
// expansion of trapped oil (α_V V dT/dt): density follows T in the flows only.
class Volume final : public HydraulicComponent {
 public:
  Volume() {
    volume_ = declare_real("volume", "m^3", 1e-3, "liquid volume V", Range::positive());
    declare_integer("ports", 2, "number of ports p1 ... pN", Range::between(1, 64));
    declare_boolean("oil_temperature", false,
                    "true: its oil is a heat capacity ρ V c_p with the temperature state T and a thermal port "
                    "'heat' (state side) that the losses of components connected to it warm");
    specific_heat_ = declare_real("specific_heat", "J/kg/K", 1900.0,
                                  "c_p of the oil (mineral oil: about 1900); with oil_temperature only",
                                  Range::positive());
  }
  void configure() override {
    const long n = integer("ports");
    for (long i = 1; i <= n; ++i) {
      PortId p = declare_port("p" + std::to_string(i), hydraulic_domain(), PortSide::State,
                              "pressure out, flow in (any number of connections; flows add up)");
      set_dependencies(p, {});
      ports_.push_back(p);
    }
    p_ = declare_state(
        "p", "Pa", 0.0,
        "pressure state (gauge): the pressure above the vapour pressure; below it, it measures the cavity");
    pressure_ = declare_observable("pressure", "Pa", "pressure (gauge), never below the vapour pressure");
    cavity_ = declare_observable("cavity", "m^3", "vapour cavity (column separation), 0 while the liquid is whole");
    flow_ = declare_observable("flow", "m^3/s", "net flow into the volume, Σq");
    bulk_ = declare_observable("bulk_modulus", "Pa", "effective bulk modulus β(p)");
    stored_ = declare_observable("stored_energy", "J", "energy of the compressed liquid, V ∫₀^p s/β(s) ds");
    set_energy_role(stored_, EnergyRole::Stored);
    if (boolean("oil_temperature")) {
      heat_ = declare_port("heat", thermal_domain(), PortSide::State,
                           "the oil's temperature out, heat flows in (any number of connections; they add up)");
      set_dependencies(heat_, {});
      temperature_ = declare_state("T", "K", 313.15, "temperature of the oil");
      declare_state_output(heat_, thermal::temperature, temperature_);
      thermal_ = declare_observable("thermal_energy", "J", "ρ V c_p T (counted from 0 K)");
      set_energy_role(thermal_, EnergyRole::Stored);
    }
    finish_configure();
  }
  void calc_outputs(Eval& e) const override {
    const double p = Chamber::pressure(e.state(p_), oil(e));
    for (PortId port : ports_) e.set_out(port, hydraulic::pressure, p);
  }
  void calc_derivatives(Eval& e) const override {
    const Fluid f = oil(e);
    if (heat_.valid()) {
      const double capacity = f.reference_density * e.param(volume_) * e.param(specific_heat_);
      e.set_derivative(temperature_, e.in(heat_, thermal::heat_flow) / capacity);
      e.set_observable(thermal_, capacity * e.state(temperature_));
    }
    double q = 0.0;
    for (PortId port : ports_) q += e.in(port, hydraulic::flow_rate);
    const double ps = e.state(p_), p = Chamber::pressure(ps, f), volume = e.param(volume_);
    e.set_derivative(p_, Chamber::rate(ps, volume, 0.0, q, f));
    e.set_observable(pressure_, p);
    e.set_observable(cavity_, Chamber::cavity(ps, volume, f));
    e.set_observable(flow_, q);
    e.set_observable(bulk_, f.effective_bulk_modulus(p));
    if (e.observables_wanted()) e.set_observable(stored_, Chamber::stored_energy(ps, volume, f));
  }

 private:
  // The fluid of its oil: at its own temperature when it keeps one.
  Fluid oil(const Eval& e) const { return heat_.valid() ? fluid_at(e.state(temperature_)) : fluid(e); }

  RealParam volume_, specific_heat_;
  std::vector<PortId> ports_;
  PortId heat_;
  StateId p_, temperature_;
  ObservableId pressure_, cavity_, flow_, bulk_, stored_, thermal_;
};

// Gas-charged (bladder or piston) accumulator: a gas volume V0 precharged at p0; above
// p0 liquid enters and compresses the gas polytropically,
//   p_abs V_g^n = p0_abs V0^n,   V_g = V0 (p0_abs / p_abs)^(1/n)   (p_abs = p + p_atm),
// so the stored liquid is V_l = V0 − V_g. With a liquid dead volume V_d at the port, the
// capacitance is C = dV_l/dp = V_d/β + V_g/(n p_abs) and
//   dp/dt = Σq / C(p).
// Below p0 the gas fills the shell and only V_d remains: a small volume (Chamber).
//
// Energy: the liquid brings p q (gauge); it is stored in the dead volume, V_d ε(p)
// (Chamber::stored_energy), and in the gas as the gauge work done on it,
//   E_gas = ∫_{V_g}^{V_0} (p_abs(V) − p_atm) dV
//         = (p_abs V_g − p0_abs V_0)/(n − 1) − p_atm (V_0 − V_g)     (n > 1)
//         = p0_abs V_0 ln(V_0 / V_g) − p_atm (V_0 − V_g)               (n = 1),
// whose rate is p (−dV_g/dt): the balance closes exactly.
class Accumulator final : public HydraulicComponent {
 public:
  Accumulator() {
    v0_ = declare_real("gas_volume", "m^3", std::nullopt, "gas volume V0 of the empty accumulator (its size)",
                       Range::positive());
    p0_ = declare_real("precharge", "Pa", std::nullopt, "gas precharge pressure p0 (gauge)", Range::non_negative());
    n_ = declare_real("polytropic_index", "", 1.4, "n: 1 isothermal (slow), 1.4 adiabatic (fast cycles)",
                      Range::between(1.0, 2.0));
    dead_ = declare_real("dead_volume", "m^3", 1e-4, "liquid volume between the port and the bladder, V_d",
                         Range::positive());
  }
  void configure() override {
    port_ = declare_port("p", hydraulic_domain(), PortSide::State, "pressure out, flow in (any number of connections)");
    set_dependencies(port_, {});
    p_ = declare_state("p", "Pa", 0.0, "pressure state (gauge); start above the precharge for a charged accumulator");
    pressure_ = declare_observable("pressure", "Pa", "pressure (gauge)");
    gas_ = declare_observable("gas_volume", "m^3", "gas volume V_g");
    liquid_ = declare_observable("liquid_volume", "m^3", "liquid stored beyond the dead volume, V0 − V_g");
    flow_ = declare_observable("flow", "m^3/s", "net flow in");
    stored_ = declare_observable("stored_energy", "J", "gas compressed beyond the precharge and liquid in the dead volume");
    set_energy_role(stored_, EnergyRole::Stored);
    finish_configure();
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(port_, hydraulic::pressure, Chamber::pressure(e.state(p_), fluid(e)));
  }
  void calc_derivatives(Eval& e) const override {
    const Fluid f = fluid(e);
    const double ps = e.state(p_), p = Chamber::pressure(ps, f);
    const double q = e.in(port_, hydraulic::flow_rate);
    const double vg = gas_volume(e, p, f), dead = e.param(dead_);
    if (p > e.param(p0_)) {
      const double p_abs = p + f.atmospheric_pressure;
      const double capacitance = dead / f.effective_bulk_modulus(p) + vg / (e.param(n_) * p_abs);
      e.set_derivative(p_, q / capacitance);
    } else {
      e.set_derivative(p_, Chamber::rate(ps, dead, 0.0, q, f));
    }
    e.set_observable(pressure_, p);
    e.set_observable(gas_, vg);
    e.set_observable(liquid_, e.param(v0_) - vg);
    e.set_observable(flow_, q);
    if (e.observables_wanted()) e.set_observable(stored_, Chamber::stored_energy(ps, dead, f) + gas_energy(e, vg, f));
  }

 private:
  // E_gas, the gauge work done on the gas (the class comment).
  double gas_energy(const Eval& e, double vg, const Fluid& f) const {
    const double v0 = e.param(v0_), n = e.param(n_), p_atm = f.atmospheric_pressure;
    const double p0_abs = e.param(p0_) + p_atm;
    if (!(vg < v0)) return 0.0;
    const double absolute = n > 1.0 ? (p0_abs * std::pow(v0 / vg, n) * vg - p0_abs * v0) / (n - 1.0)
                                     : p0_abs * v0 * std::log(v0 / vg);
    return absolute - p_atm * (v0 - vg);
  }
  double gas_volume(const Eval& e, double p, const Fluid& f) const {
    const double v0 = e.param(v0_), p0 = e.param(p0_);
    if (p <= p0) return v0;
    return v0 * std::pow((p0 + f.atmospheric_pressure) / (p + f.atmospheric_pressure), 1.0 / e.param(n_));
  }
  RealParam v0_, p0_, n_, dead_;
  PortId port_;
  StateId p_;
  ObservableId pressure_, gas_, liquid_, flow_, stored_;
};

void register_volumes(Registry& r) {
  r.add<Volume>("hydraulic.volume", "rigid liquid volume with N ports: dp/dt = β(p)/V Σq, vapour limit");
  r.add<Accumulator>("hydraulic.accumulator", "gas-charged accumulator: polytropic gas, precharge, dead volume");
}

}  // namespace jourdain::hydraulic_library
