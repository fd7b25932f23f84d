// Sources: the torque source (response side: a torque on an inertia, whatever its speed),
// the speed source and the fixed flange (state side: they impose the motion, whatever
// torque the driveline answers with).
//
//   torque source:  τ = T (parameter or signal) on the inertia;  P = T ω brought in
//   speed source:   ω = Ω (parameter or signal),  dφ/dt = ω;  the torque it gives to the
//                   driveline is −Σ τ_in (Σ τ_in: what the connected elements return), and
//                   P = −Σ τ_in ω is brought in
//   fixed:          φ = φ_0,  ω = 0;  reaction Σ τ_in, no power
// Powers are "supplied" (EnergyRole::Supplied): brought into the model from outside;
// negative when the source absorbs power (a torque source braking, a speed source held
// back by a load that drives it).
#include "rotational_library.hpp"

namespace jourdain::rotational_library {

class TorqueSource final : public Component {
 public:
  TorqueSource() {
    torque_ = declare_real("torque", "N*m", 0.0, "torque T on the inertia, positive along the axis");
    declare_text("source", "constant", "constant: the parameter torque; signal: input 'command' (N*m)",
                 {"constant", "signal"});
  }
  void configure() override {
    flange_ = declare_port("flange", rotational_domain(), PortSide::Response, "on the inertia driven");
    if (text("source") == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "torque T (N*m)");
      set_dependencies(flange_, {command_});
    } else {
      set_dependencies(flange_, {});
    }
    power_ = declare_observable("power", "W", "power brought in, T ω");
    set_energy_role(power_, EnergyRole::Supplied);
  }
  void calc_outputs(Eval& e) const override { e.set_out(flange_, rotational::torque, torque(e)); }
  void calc_derivatives(Eval& e) const override {
    e.set_observable(power_, torque(e) * e.in(flange_, rotational::speed));
  }

 private:
  double torque(const Eval& e) const { return command_.valid() ? e.in(command_, signal::value) : e.param(torque_); }

  RealParam torque_;
  PortId flange_, command_;
  ObservableId power_;
};

// The speed source, and the fixed flange as the speed source that stands still.
class ImposedMotion : public Component {
 public:
  explicit ImposedMotion(bool fixed) : fixed_(fixed) {
    if (fixed_) {
      value_ = declare_real("angle", "rad", 0.0, "angle φ_0 the flange is held at");
    } else {
      value_ = declare_real("speed", "rad/s", 0.0, "speed Ω imposed (e.g. \"1500 rpm\")");
      declare_text("source", "constant", "constant: the parameter speed; signal: input 'command' (rad/s)",
                   {"constant", "signal"});
    }
  }
  void configure() override {
    flange_ = declare_port("flange", rotational_domain(), PortSide::State,
                           fixed_ ? "held still (any number of connections; torques add up)"
                                  : "turns at the imposed speed (any number of connections; torques add up)");
    if (!fixed_ && text("source") == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "speed Ω (rad/s)");
      set_dependencies(flange_, {command_});
    } else {
      set_dependencies(flange_, {});
    }
    if (!fixed_) {
      phi_ = declare_state("phi", "rad", 0.0, "angle, ∫ ω dt");
      declare_state_output(flange_, rotational::angle, phi_);
      torque_ = declare_observable("torque", "N*m", "torque the source gives to the driveline, −Σ τ_in");
      power_ = declare_observable("power", "W", "power brought in, −Σ τ_in ω");
      set_energy_role(power_, EnergyRole::Supplied);
    } else {
      torque_ = declare_observable("reaction", "N*m", "sum of the torques on the fixed flange");
    }
  }
  void calc_outputs(Eval& e) const override {
    if (fixed_) e.set_out(flange_, rotational::angle, e.param(value_));
    e.set_out(flange_, rotational::speed, speed(e));
  }
  void calc_derivatives(Eval& e) const override {
    const double received = e.in(flange_, rotational::torque);
    if (fixed_) {
      e.set_observable(torque_, received);
      return;
    }
    const double w = speed(e);
    e.set_derivative(phi_, w);
    e.set_observable(torque_, -received);
    e.set_observable(power_, -received * w);
  }

 private:
  double speed(const Eval& e) const {
    if (fixed_) return 0.0;
    return command_.valid() ? e.in(command_, signal::value) : e.param(value_);
  }

  bool fixed_;
  RealParam value_;
  PortId flange_, command_;
  StateId phi_;
  ObservableId torque_, power_;
};

class SpeedSource final : public ImposedMotion {
 public:
  SpeedSource() : ImposedMotion(false) {}
};
class Fixed final : public ImposedMotion {
 public:
  Fixed() : ImposedMotion(true) {}
};

void register_sources(Registry& r) {
  r.add<TorqueSource>("rotational.torque_source", "torque on an inertia, constant or from a signal (response side)");
  r.add<SpeedSource>("rotational.speed_source",
                     "imposed speed, constant or from a signal (state side); reports the torque it takes");
  r.add<Fixed>("rotational.fixed", "flange held at a fixed angle (state side); reports the reaction torque");
}

}  // namespace jourdain::rotational_library
