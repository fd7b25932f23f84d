// Combustion engine as a governed speed source with a fuel map: the diesel of a machine
// whose fuel per cycle is compared with an electric drive's energy. The governor is taken
// as ideal and isochronous: it holds the set speed whatever the load, so the engine is a
// speed source (sources.cpp) that burns fuel for the torque the driveline takes:
//
//   ω = Ω                      the set speed (parameter `speed`, or the input `speed`)
//   dφ/dt = ω
//   τ = −Σ τ_in                the torque the engine gives: the connected elements
//                              return Σ τ_in on it
//   ṁ = M(ω, τ)                fuel mass flow, the map "fuel_flow" (rows [ω, τ, ṁ]),
//                              bilinear on its grid and held beyond its edges
//                              (jourdain/components/interpolation.hpp)
//   dm/dt = ṁ,  V = m / ρ      fuel burnt, as mass and as volume (ρ: fuel_density)
//   P = τ ω                    shaft (brake) power
//   P_f = ṁ H_u                fuel power (H_u: the lower heating value)
//   η = P / P_f                fuel conversion efficiency
//   loss = P_f − P             heat: exhaust, coolant, friction
// (Heywood, Internal Combustion Engine Fundamentals, McGraw-Hill 1988, §2.2 brake torque
// and power, §2.7 specific fuel consumption and efficiency: bsfc = ṁ / P, η = P / (ṁ H_u).)
//
// Why a map of fuel flow rather than of bsfc: bsfc = ṁ / P is infinite at zero torque,
// where an idling engine still burns fuel; ṁ is finite everywhere, its τ = 0 row is the
// idle (no-load) consumption, and it interpolates without a pole. A bsfc map converts
// point by point, ṁ = bsfc τ ω, for τ > 0. Bilinear ṁ keeps η ≤ 1 wherever the map's
// points do (τ ω is itself bilinear in ω and τ, so P_f − P is bilinear on each cell and
// least at a corner); the parameter check refuses a map whose points give η > 1.
// Beyond its edges ṁ is held while τ ω grows: let the map cover the full-load curve.
//
// Full load: τ_max(ω) interpolates "max_torque" (rows [ω, τ_max]) linearly, held beyond
// its ends. The idealised governor still gives a torque above it (the speed is imposed),
// but the run says so: the discrete state `overload` is 1 while τ > τ_max(ω), switched at
// events (zero crossing τ_max(ω) − τ, either way, each logged), and the first overload
// raises an accuracy warning (Warning::Kind::Accuracy: a real engine would pull down
// there, so the results past it are not vouched for; a strict run fails on it). A
// negative τ (the load drives the engine) has no limit: it is absorbed, with the idle
// fuel of the map's lowest torque, as loss.
//
// Causality (README.md): the flange is a state side, like a speed source's: it gives φ
// and ω and receives the torques of any number of connections. Energy: P_f supplied
// (EnergyRole::Supplied), P_f − P lost; P leaves through the flange.
#include <cstdio>
#include <numbers>
#include <string>

#include "jourdain/components/interpolation.hpp"
#include "rotational_library.hpp"

namespace jourdain::rotational_library {

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Speeds in messages in rpm, as engine data give them.
std::string rpm(double w) { return fixed(w * 30.0 / std::numbers::pi, 0) + " rpm"; }

}  // namespace

class Engine final : public Component {
 public:
  Engine() {
    speed_ = declare_real("speed", "rad/s", 0.0,
                          "set speed Ω the governor holds (e.g. \"1800 rpm\"); required unless the speed is a signal",
                          Range::non_negative());
    declare_text("speed_source", "constant", "constant: the parameter speed; signal: input 'speed' (rad/s)",
                 {"constant", "signal"});
    declare_table("fuel_flow", {"rad/s", "N*m", "kg/s"},
                  "fuel map: rows [ω, τ, ṁ] (e.g. [\"1800 rpm\", \"400 N*m\", \"18 kg/h\"]), one per grid point (every "
                  "speed with every torque); bilinear, held beyond the edges; the τ = 0 row is the idle consumption");
    declare_table("max_torque", {"rad/s", "N*m"}, "full-load curve: rows [ω, τ_max], linear, held beyond the ends");
    using nlohmann::json;
    set_example("fuel_flow", json::array({json::array({"800 rpm", "0 N*m", "2 kg/h"}),
                                          json::array({"800 rpm", "600 N*m", "11 kg/h"}),
                                          json::array({"2000 rpm", "0 N*m", "5.5 kg/h"}),
                                          json::array({"2000 rpm", "600 N*m", "27 kg/h"})}));
    set_example("max_torque", json::array({json::array({"800 rpm", "500 N*m"}), json::array({"1400 rpm", "650 N*m"}),
                                           json::array({"2200 rpm", "550 N*m"})}));
    density_ = declare_real("fuel_density", "kg/m^3", 832.0, "fuel density ρ, for the volume burnt (diesel: 832)",
                            Range::positive());
    heating_value_ = declare_real("lower_heating_value", "J/kg", 42.6e6,
                                  "lower heating value H_u of the fuel (diesel: \"42.6 MJ/kg\")", Range::positive());
  }

  void configure() override {
    read_fuel_map();
    const auto limit = table("max_torque");
    if (const std::string why = Curve::check(limit); !why.empty()) parameter_error("max_torque", why);
    for (const auto& row : limit)
      if (!(row[1] >= 0.0)) parameter_error("max_torque", "τ_max must not be negative");
    max_torque_ = Curve(limit);

    flange_ = declare_port("flange", rotational_domain(), PortSide::State,
                           "crankshaft: turns at the set speed, takes the load torques (any number of connections)");
    if (text("speed_source") == "signal") {
      speed_in_ = declare_port("speed", signal_domain(), PortSide::Response, "set speed Ω (rad/s)");
      set_dependencies(flange_, {speed_in_});
    } else {
      set_dependencies(flange_, {});
    }
    phi_ = declare_state("phi", "rad", 0.0, "crankshaft angle, ∫ ω dt");
    declare_state_output(flange_, rotational::angle, phi_);
    fuel_mass_ = declare_state("fuel_mass", "kg", 0.0, "fuel burnt, ∫ ṁ dt");
    overload_ = declare_discrete("overload", 0.0, "1 while the load torque is above the full-load curve, else 0");
    first_overload_ = declare_discrete("first_overload", -1.0, "time the load first rose above the full-load curve "
                                                               "(-1: never)", "s");
    overload_crossing_ = declare_zero_crossing("full_load", CrossingDirection::Either, "τ_max(ω) − τ");

    torque_ = declare_observable("torque", "N*m", "torque the engine gives to the driveline, −Σ τ_in");
    full_load_ = declare_observable("full_load_torque", "N*m", "τ_max(ω), the full-load curve at the speed");
    shaft_power_ = declare_observable("shaft_power", "W", "P = τ ω, out through the flange");
    fuel_rate_ = declare_observable("fuel_rate", "kg/s", "fuel mass flow ṁ from the map");
    fuel_volume_ = declare_observable("fuel_volume", "m^3", "volume of fuel burnt, m / ρ");
    fuel_power_ = declare_observable("fuel_power", "W", "P_f = ṁ H_u, brought in with the fuel");
    loss_ = declare_observable("loss", "W", "P_f − P, heat to exhaust and coolant");
    efficiency_ = declare_observable("efficiency", "", "P / P_f (0 without fuel)");
    set_energy_role(fuel_power_, EnergyRole::Supplied);
    set_energy_role(loss_, EnergyRole::Loss);
  }

  // The relations the ranges cannot state: a set speed where it is the parameter's, and
  // no point of the map that turns more than the fuel's energy into work.
  void calc_derived(Eval& e) const override {
    if (!speed_in_.valid() && !(e.param(speed_) > 0.0))
      parameter_error("speed", "give the set speed (e.g. \"1800 rpm\"), or \"speed_source\": \"signal\"");
    if (best_.valid() && best_.fuel_per_work * e.param(heating_value_) < 1.0)
      parameter_error("fuel_flow", "at " + rpm(best_.speed) + ", " + fixed(best_.torque, 1) +
                                       " N*m the map gives an efficiency P / (ṁ H_u) of " +
                                       fixed(100.0 / (best_.fuel_per_work * e.param(heating_value_)), 1) +
                                       " %, above 100 %, for lower_heating_value " +
                                       fixed(e.param(heating_value_) * 1e-6, 2) + " MJ/kg: check the unit of ṁ");
  }

  void initialize(Eval& e) const override {
    const bool over = torque(e) > max_torque_(speed(e));
    e.set_discrete(overload_, over ? 1.0 : 0.0);
    if (over) enter_overload(e, true);
  }

  void calc_outputs(Eval& e) const override { e.set_out(flange_, rotational::speed, speed(e)); }

  void calc_derivatives(Eval& e) const override {
    const double w = speed(e), tau = torque(e);
    const double fuel_rate = fuel_flow_(w, tau);
    e.set_derivative(phi_, w);
    e.set_derivative(fuel_mass_, fuel_rate);
    if (!e.observables_wanted()) return;
    const double shaft_power = tau * w, fuel_power = fuel_rate * e.param(heating_value_);
    e.set_observable(torque_, tau);
    e.set_observable(full_load_, max_torque_(w));
    e.set_observable(shaft_power_, shaft_power);
    e.set_observable(fuel_rate_, fuel_rate);
    e.set_observable(fuel_volume_, e.state(fuel_mass_) / e.param(density_));
    e.set_observable(fuel_power_, fuel_power);
    e.set_observable(loss_, fuel_power - shaft_power);
    e.set_observable(efficiency_, fuel_power > 0.0 ? shaft_power / fuel_power : 0.0);
  }

  void calc_zero_crossings(Eval& e) const override {
    e.set_zero_crossing(overload_crossing_, max_torque_(speed(e)) - torque(e));
  }

  // τ_max − τ changed sign: into overload from within the curve, back out of it from
  // overload (the discrete state says which; the crossing is located, so its sign right
  // at the event is no guide).
  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    if (z != overload_crossing_) return;
    if (e.discrete(overload_) > 0.5) {
      e.set_discrete(overload_, 0.0);
      e.log_event("load back within the full-load curve at " + rpm(speed(e)));
      return;
    }
    e.set_discrete(overload_, 1.0);
    enter_overload(e, false);
  }

 private:
  // The map's point of least fuel per unit of work, ṁ / (τ ω) over its points with τ ω > 0:
  // the most efficient, checked against the heating value.
  struct BestPoint {
    double speed = 0.0, torque = 0.0, fuel_per_work = -1.0;  // kg/J; < 0: no point does work
    bool valid() const { return fuel_per_work >= 0.0; }
  };

  void read_fuel_map() {
    const auto rows = table("fuel_flow");
    for (const auto& r : rows)
      if (!(r[2] >= 0.0))
        parameter_error("fuel_flow", "the fuel flow ṁ must not be negative; got " + fixed(r[2], 6) + " kg/s at " +
                                         rpm(r[0]) + ", " + fixed(r[1], 1) + " N*m");
    if (const std::string why = GridMap::check(rows, "speed", "torque"); !why.empty())
      parameter_error("fuel_flow", why);
    fuel_flow_ = GridMap(rows);
    for (const auto& r : rows) {
      const double work_rate = r[0] * r[1];
      if (!(work_rate > 0.0)) continue;
      const double fuel_per_work = r[2] / work_rate;
      if (!best_.valid() || fuel_per_work < best_.fuel_per_work) best_ = {r[0], r[1], fuel_per_work};
    }
  }

  double speed(const Eval& e) const { return speed_in_.valid() ? e.in(speed_in_, signal::value) : e.param(speed_); }
  double torque(const Eval& e) const { return -e.in(flange_, rotational::torque); }

  // Logs the overload; the first one of the run also warns, once. At an event the load
  // has just reached τ_max; at the start it may be anywhere above.
  void enter_overload(Eval& e, bool at_start) const {
    const double w = speed(e);
    const std::string what = "the load torque " +
                             (at_start ? "is " + fixed(torque(e), 1) + " N*m, above" : std::string("rose above")) +
                             " the full-load torque " + fixed(max_torque_(w), 1) + " N*m at " + rpm(w);
    e.log_event("overload: " + what);
    if (e.discrete(first_overload_) >= 0.0) return;
    e.set_discrete(first_overload_, e.time());
    e.warn("engine overloaded: " + what +
               "; the ideal governor goes on giving it (the events and the variable 'overload' say when)",
           Warning::Kind::Accuracy);
  }

  GridMap fuel_flow_;
  Curve max_torque_;
  BestPoint best_;
  RealParam speed_, density_, heating_value_;
  PortId flange_, speed_in_;
  StateId phi_, fuel_mass_;
  DiscreteId overload_, first_overload_;
  ZeroCrossingId overload_crossing_;
  ObservableId torque_, full_load_, shaft_power_, fuel_rate_, fuel_volume_, fuel_power_, loss_, efficiency_;
};

void register_engine(Registry& r) {
  r.add<Engine>("rotational.engine",
                "combustion engine: governed speed source with a full-load curve and a fuel map (fuel burnt, energy)");
}

}  // namespace jourdain::rotational_library
