// Sensors and sources between the 1D mechanical and signal domains.
//
// Each declares which inputs its outputs read (set_dependencies), so that the port-level
// scheduler sees no algebraic loop where there is none: a sensor's signal reads the
// port it measures, a source's force reads its signal, and the in-line force sensor
// passes motion one way and force the other way without coupling the two.
#include "mechanical1d_library.hpp"

namespace jourdain::mechanical1d_library {

// Applies the force given by a signal (N, positive along the axis) to a mass.
class ForceSource final : public Component {
 public:
  void configure() override {
    p_ = declare_port("p", mech1d_domain(), PortSide::Response, "to the mass the force acts on");
    f_ = declare_port("f", signal_domain(), PortSide::Response, "force [N], positive along the axis");
    set_dependencies(p_, {f_});
    // The signal is an outside agent: the work it does comes from outside the model.
    power_ = declare_observable("supplied_power", "W", "f v, the power the force brings into the model");
    set_energy_role(power_, EnergyRole::Supplied);
  }
  void calc_outputs(Eval& e) const override { e.set_out(p_, mech1d::force, e.in(f_, signal::value)); }
  void calc_derivatives(Eval& e) const override {
    e.set_observable(power_, e.in(f_, signal::value) * e.in(p_, mech1d::velocity));
  }

 private:
  PortId p_, f_;
  ObservableId power_;
};

// Reads the position or the velocity of the mass it is connected to; applies no force.
template <bool Velocity>
class MotionSensor final : public Component {
 public:
  void configure() override {
    p_ = declare_port("p", mech1d_domain(), PortSide::Response, "to the mass measured (applies no force)");
    set_dependencies(p_, {});
    out_ = declare_port("out", signal_domain(), PortSide::State, Velocity ? "velocity" : "position");
    set_unit(out_, Velocity ? "m/s" : "m");
    set_dependencies(out_, {p_});
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(p_, mech1d::force, 0.0);
    e.set_out(out_, signal::value, e.in(p_, Velocity ? mech1d::velocity : mech1d::position));
  }

 private:
  PortId p_, out_;
};

// In line between a mass (port a) and the elements acting on it (port b): b moves with
// a, and the force the elements apply at b reaches a unchanged. `out` is that force,
// positive along the axis (for a spring attached by its end a, the spring's tension).
class ForceSensor final : public Component {
 public:
  void configure() override {
    a_ = declare_port("a", mech1d_domain(), PortSide::Response, "to the mass (receives its motion)");
    b_ = declare_port("b", mech1d_domain(), PortSide::State,
                      "to the elements acting on the mass (passes the motion of a; forces add up)");
    out_ = declare_port("out", signal_domain(), PortSide::State, "transmitted force, positive along the axis");
    set_unit(out_, "N");
    set_dependencies(b_, {a_});    // motion: a -> b
    set_dependencies(a_, {b_});    // force: b -> a
    set_dependencies(out_, {b_});  // the force received at b
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(b_, mech1d::position, e.in(a_, mech1d::position));
    e.set_out(b_, mech1d::velocity, e.in(a_, mech1d::velocity));
    const double f = e.in(b_, mech1d::force);
    e.set_out(a_, mech1d::force, f);
    e.set_out(out_, signal::value, f);
  }

 private:
  PortId a_, b_, out_;
};

void register_sensors(Registry& r) {
  r.add<ForceSource>("mechanical1d.force_source", "force given by a signal, applied to a mass");
  r.add<MotionSensor<false>>("mechanical1d.position_sensor", "position of a mass as a signal");
  r.add<MotionSensor<true>>("mechanical1d.velocity_sensor", "velocity of a mass as a signal");
  r.add<ForceSensor>("mechanical1d.force_sensor", "in-line force sensor between a mass and the elements acting on it");
}

}  // namespace jourdain::mechanical1d_library
