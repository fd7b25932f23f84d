// Quasi-static electric machine (with its inverter) from an efficiency map: no electrical
// dynamics, the torque follows its command at once, within the torque limit, and the DC
// bus supplies the mechanical power divided by the map's efficiency:
//
//   τ = clamp(τ*, −τ_max(|ω|), τ_max(|ω|))
//   J dω/dt = τ − b ω + τ_load,   dφ/dt = ω
//   P_mech = τ ω
//   P_dc = P_mech / η(|ω|, |τ|)   motoring (P_mech ≥ 0)
//   P_dc = P_mech · η(|ω|, |τ|)   generating
//   i_dc = P_dc / max(v_dc, v_min)          from dc_p to dc_n through the machine
//
// η is interpolated bilinearly on the grid of the table "efficiency" (rows [ω, τ, η],
// one per grid point, every speed with every torque) and held beyond its edges; the map
// is read in one quadrant and used in all four (|ω|, |τ|). At standstill P_mech = 0 and
// the bus supplies nothing: a map has no stall loss. τ_max interpolates "max_torque"
// (rows [ω, τ_max]) linearly.
//
// Causality (README.md): the DC pins are a branch (response side), the shaft the state
// side of a rotational port (the rotor's speed and angle are states). Energy: stored
// ½ J ω²; loss P_dc − P_mech + b ω².
#include <algorithm>
#include <cmath>
#include <string>

#include "electrical_library.hpp"

namespace jourdain::electrical_library {

class MapMachine final : public Component {
 public:
  MapMachine() {
    declare_table("efficiency", {"rad/s", "N*m", ""},
                  "efficiency map: rows [ω, τ, η], one per grid point (every speed with every torque), η in (0, 1]");
    declare_table("max_torque", {"rad/s", "N*m"}, "torque limit: rows [ω, τ_max], linear, held beyond the ends");
    set_example("efficiency", nlohmann::json::array({nlohmann::json::array({0, 0, 0.8}), nlohmann::json::array({0, 200, 0.85}),
                                                     nlohmann::json::array({600, 0, 0.9}),
                                                     nlohmann::json::array({600, 200, 0.95})}));
    set_example("max_torque", nlohmann::json::array({nlohmann::json::array({0, 200}), nlohmann::json::array({600, 100})}));
    j_ = declare_real("inertia", "kg*m^2", 0.05, "rotor inertia J", Range::positive());
    b_ = declare_real("viscous_friction", "N*m*s/rad", 0.0, "viscous friction coefficient b", Range::non_negative());
    v_min_ = declare_real("min_dc_voltage", "V", 1.0,
                          "bus voltage below which the DC current is taken as at this voltage (caps it)",
                          Range::positive());
  }
  void configure() override {
    read_efficiency_map();
    const auto limit = table("max_torque");
    if (const std::string why = Curve::check(limit); !why.empty()) parameter_error("max_torque", why);
    for (const auto& row : limit)
      if (!(row[1] >= 0.0)) parameter_error("max_torque", "τ_max must not be negative");
    max_torque_ = Curve(limit);

    dc_p_ = declare_port("dc_p", electrical_domain(), PortSide::Response, "DC bus +, to a node-side element");
    dc_n_ = declare_port("dc_n", electrical_domain(), PortSide::Response, "DC bus −, to a node-side element");
    command_ = declare_port("torque", signal_domain(), PortSide::Response, "torque command τ* (N·m)");
    shaft_ = declare_port("shaft", rotational_domain(), PortSide::State,
                          "rotor: gives its angle and speed, takes the load torques (any number of connections)");
    set_dependencies(dc_p_, {dc_p_, dc_n_, command_});
    set_dependencies(dc_n_, {dc_p_, dc_n_, command_});
    set_dependencies(shaft_, {});
    w_ = declare_state("w", "rad/s", 0.0, "rotor speed");
    phi_ = declare_state("phi", "rad", 0.0, "rotor angle");
    declare_state_output(shaft_, rotational::angle, phi_);
    declare_state_output(shaft_, rotational::speed, w_);
    torque_ = declare_observable("torque", "N*m", "torque applied, the command within ±τ_max");
    eta_ = declare_observable("efficiency", "", "η from the map at (|ω|, |τ|)");
    dc_current_ = declare_observable("dc_current", "A", "current drawn from the bus, in at dc_p");
    p_mech_ = declare_observable("mechanical_power", "W", "τ ω");
    loss_ = declare_observable("loss", "W", "P_dc − P_mech, the machine's and inverter's losses from the map");
    friction_ = declare_observable("friction_loss", "W", "b ω²");
    kinetic_ = declare_observable("kinetic_energy", "J", "½ J ω²");
    set_energy_role(loss_, EnergyRole::Loss);
    set_energy_role(friction_, EnergyRole::Loss);
    set_energy_role(kinetic_, EnergyRole::Stored);
  }
  void calc_outputs(Eval& e) const override {
    const double i = operating(e).i_dc;
    e.set_out(dc_p_, electrical::current, -i);
    e.set_out(dc_n_, electrical::current, i);
  }
  void calc_derivatives(Eval& e) const override {
    const Operating o = operating(e);
    const double w = e.state(w_), b = e.param(b_);
    e.set_derivative(w_, (o.torque - b * w + e.in(shaft_, rotational::torque)) / e.param(j_));
    e.set_derivative(phi_, w);
    e.set_observable(torque_, o.torque);
    e.set_observable(eta_, o.eta);
    e.set_observable(dc_current_, o.i_dc);
    e.set_observable(p_mech_, o.p_mech);
    e.set_observable(loss_, o.p_dc - o.p_mech);
    e.set_observable(friction_, b * w * w);
    e.set_observable(kinetic_, 0.5 * e.param(j_) * w * w);
  }

 private:
  struct Operating {
    double torque, eta, p_mech, p_dc, i_dc;
  };
  Operating operating(const Eval& e) const {
    Operating o{};
    const double w = e.state(w_), limit = max_torque_(std::abs(w));
    o.torque = std::clamp(e.in(command_, signal::value), -limit, limit);
    o.eta = efficiency_(std::abs(w), std::abs(o.torque));
    o.p_mech = o.torque * w;
    o.p_dc = o.p_mech >= 0.0 ? o.p_mech / o.eta : o.p_mech * o.eta;
    const double v_dc = e.in(dc_p_, electrical::voltage) - e.in(dc_n_, electrical::voltage);
    o.i_dc = o.p_dc / std::max(v_dc, e.param(v_min_));
    return o;
  }
  void read_efficiency_map() {
    const auto rows = table("efficiency");
    for (const auto& r : rows)
      if (!(r[2] > 0.0 && r[2] <= 1.0))
        parameter_error("efficiency", "η must be in (0, 1]; got " + std::to_string(r[2]));
    if (const std::string why = GridMap::check(rows, "speed", "torque"); !why.empty())
      parameter_error("efficiency", why);
    efficiency_ = GridMap(rows);
  }

  GridMap efficiency_;
  Curve max_torque_;
  RealParam j_, b_, v_min_;
  PortId dc_p_, dc_n_, command_, shaft_;
  StateId w_, phi_;
  ObservableId torque_, eta_, dc_current_, p_mech_, loss_, friction_, kinetic_;
};

void register_map_machine(Registry& r) {
  r.add<MapMachine>("electrical.map_machine",
                    "quasi-static machine and inverter: torque command within a limit, DC power from an efficiency map");
}

}  // namespace jourdain::electrical_library
