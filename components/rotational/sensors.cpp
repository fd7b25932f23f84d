// Sensors between the rotational and signal domains.
//
//   motion sensor:  angle φ and speed ω of the inertia it is connected to; applies no torque
//   torque sensor:  in line between an inertia (a) and the elements acting on it (b): b
//                   turns with a, the torque τ the elements return at b reaches a
//                   unchanged; outputs τ and the power τ ω the elements deliver to the
//                   inertia through it
// Each declares what its outputs read, so that the in-line sensor passes motion one way
// and torque the other without making an algebraic loop.
#include "rotational_library.hpp"

namespace jourdain::rotational_library {

class MotionSensor final : public Component {
 public:
  void configure() override {
    flange_ = declare_port("flange", rotational_domain(), PortSide::Response, "on the inertia measured (no torque)");
    set_dependencies(flange_, {});
    angle_ = declare_port("angle", signal_domain(), PortSide::State, "angle φ");
    set_unit(angle_, "rad");
    speed_ = declare_port("speed", signal_domain(), PortSide::State, "speed ω");
    set_unit(speed_, "rad/s");
    set_dependencies(angle_, {flange_});
    set_dependencies(speed_, {flange_});
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(flange_, rotational::torque, 0.0);
    e.set_out(angle_, signal::value, e.in(flange_, rotational::angle));
    e.set_out(speed_, signal::value, e.in(flange_, rotational::speed));
  }

 private:
  PortId flange_, angle_, speed_;
};

class TorqueSensor final : public Component {
 public:
  void configure() override {
    a_ = declare_port("a", rotational_domain(), PortSide::Response, "on the inertia (receives its motion)");
    b_ = declare_port("b", rotational_domain(), PortSide::State,
                      "to the elements acting on the inertia (turns with a; torques add up)");
    torque_ = declare_port("torque", signal_domain(), PortSide::State, "torque τ passed from b to a");
    set_unit(torque_, "N*m");
    power_ = declare_port("power", signal_domain(), PortSide::State, "power τ ω delivered to the inertia");
    set_unit(power_, "W");
    set_dependencies(b_, {a_});          // motion: a -> b
    set_dependencies(a_, {b_});          // torque: b -> a
    set_dependencies(torque_, {b_});     // the torque received at b
    set_dependencies(power_, {a_, b_});  // and the speed of a
  }
  void calc_outputs(Eval& e) const override {
    const double w = e.in(a_, rotational::speed), tau = e.in(b_, rotational::torque);
    e.set_out(b_, rotational::angle, e.in(a_, rotational::angle));
    e.set_out(b_, rotational::speed, w);
    e.set_out(a_, rotational::torque, tau);
    e.set_out(torque_, signal::value, tau);
    e.set_out(power_, signal::value, tau * w);
  }

 private:
  PortId a_, b_, torque_, power_;
};

void register_sensors(Registry& r) {
  r.add<MotionSensor>("rotational.motion_sensor", "angle and speed of an inertia as signals");
  r.add<TorqueSensor>("rotational.torque_sensor",
                      "in-line torque (and power) sensor between an inertia and the elements acting on it");
}

}  // namespace jourdain::rotational_library
