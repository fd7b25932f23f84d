// Sensors: a point's kinematics and the distance between two points, as signals. They
// apply no force (their planar ports return zero and read nothing for it).
#include <cmath>
#include <limits>
#include <sstream>

#include "jourdain/components/domains.hpp"
#include "mechanical_library.hpp"
#include "planar.hpp"

namespace jourdain::mechanical {

namespace {

using namespace jourdain::planar;

void no_force(Eval& e, PortId p) {
  e.set_out(p, fx, 0.0);
  e.set_out(p, fy, 0.0);
  e.set_out(p, tz, 0.0);
}

class PointSensor final : public Component {
  void configure() override {
    a_ = declare_port("a", planar_domain(), PortSide::Response, "measured point");
    set_dependencies(a_, {});
    const char* names[] = {"x", "y", "theta", "vx", "vy", "omega", "ax", "ay", "alpha"};
    const char* what[] = {"position x", "position y", "body angle", "velocity x", "velocity y", "angular velocity",
                          "acceleration x", "acceleration y", "angular acceleration"};
    const char* units[] = {"m", "m", "rad", "m/s", "m/s", "rad/s", "m/s^2", "m/s^2", "rad/s^2"};
    for (int i = 0; i < 9; ++i) {
      outs_[i] = declare_port(names[i], signal_domain(), PortSide::State, what[i]);
      set_unit(outs_[i], units[i]);
      set_dependencies(outs_[i], {a_});
    }
  }
  void calc_outputs(Eval& e) const override {
    no_force(e, a_);
    const Var vars[] = {x, y, theta, vx, vy, omega, ax, ay, alpha};
    for (int i = 0; i < 9; ++i) e.set_out(outs_[i], signal::value, e.in(a_, vars[i]));
  }
  PortId a_;
  PortId outs_[9];
};

// With "min"/"max", a guard as well: the run stops, naming the sensor, when the distance
// leaves its range (a cylinder's pin-to-pin length beyond its stroke). Both are
// configuration: whether each zero crossing exists depends on them being finite.
class DistanceSensor final : public Component {
 public:
  DistanceSensor() {
    declare_config_real("min", "m", -std::numeric_limits<double>::infinity(), "smallest distance allowed (none: −inf)");
    declare_config_real("max", "m", std::numeric_limits<double>::infinity(), "largest distance allowed (none: inf)");
  }

 private:
  void configure() override {
    min_ = config_real("min");
    max_ = config_real("max");
    if (!(min_ < max_)) parameter_error("max", "must be larger than min");
    a_ = declare_port("a", planar_domain(), PortSide::Response, "first point");
    b_ = declare_port("b", planar_domain(), PortSide::Response, "second point");
    set_dependencies(a_, {});
    set_dependencies(b_, {});
    distance_ = declare_port("distance", signal_domain(), PortSide::State, "|r_b − r_a|");
    rate_ = declare_port("rate", signal_domain(), PortSide::State, "its rate");
    set_unit(distance_, "m");
    set_unit(rate_, "m/s");
    set_dependencies(distance_, {a_, b_});
    set_dependencies(rate_, {a_, b_});
    if (std::isfinite(min_)) below_ = declare_zero_crossing("below_min", CrossingDirection::Falling, "distance − min");
    if (std::isfinite(max_)) above_ = declare_zero_crossing("above_max", CrossingDirection::Falling, "max − distance");
  }
  double distance(const Eval& e) const {
    return (read_point(e, b_).r - read_point(e, a_).r).norm();
  }
  void calc_outputs(Eval& e) const override {
    no_force(e, a_);
    no_force(e, b_);
    const PointKinematics pa = read_point(e, a_), pb = read_point(e, b_);
    const Vec2 d = pb.r - pa.r;
    const double L = d.norm();
    e.set_out(distance_, signal::value, L);
    e.set_out(rate_, signal::value, L > 0.0 ? d.dot(pb.v - pa.v) / L : 0.0);
  }
  void calc_zero_crossings(Eval& e) const override {
    const double L = distance(e);
    if (below_.valid()) e.set_zero_crossing(below_, L - min_);
    if (above_.valid()) e.set_zero_crossing(above_, max_ - L);
  }
  [[noreturn]] void out_of_range(const Eval& e, double L) const {
    std::ostringstream msg;
    msg.precision(6);
    msg << "distance " << L << " m left its range [" << min_ << ", " << max_ << "] m";
    throw SimulationError(e.time(), {name()}, msg.str());
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override { out_of_range(e, distance(e)); }
  void initialize(Eval& e) const override {
    const double L = distance(e);
    if (L < min_ || L > max_) out_of_range(e, L);
  }
  double min_ = 0, max_ = 0;
  PortId a_, b_, distance_, rate_;
  ZeroCrossingId below_, above_;
};

// Point b seen from point a's body: its position in a's body frame, u = A(θ_a)ᵀ (r_b − r_a),
// and its relative angle θ_b − θ_a. A flexible arm's tip deflection in its hub frame.
class RelativePositionSensor final : public Component {
  void configure() override {
    a_ = declare_port("a", planar_domain(), PortSide::Response, "reference point (its body gives the frame)");
    b_ = declare_port("b", planar_domain(), PortSide::Response, "measured point");
    set_dependencies(a_, {});
    set_dependencies(b_, {});
    x_ = declare_port("x", signal_domain(), PortSide::State, "b along a's body x axis");
    y_ = declare_port("y", signal_domain(), PortSide::State, "b along a's body y axis");
    angle_ = declare_port("angle", signal_domain(), PortSide::State, "θ_b − θ_a");
    set_unit(x_, "m");
    set_unit(y_, "m");
    set_unit(angle_, "rad");
    for (PortId p : {x_, y_, angle_}) set_dependencies(p, {a_, b_});
  }
  void calc_outputs(Eval& e) const override {
    no_force(e, a_);
    no_force(e, b_);
    const PointKinematics pa = read_point(e, a_), pb = read_point(e, b_);
    const Vec2 d = pb.r - pa.r;
    const double c = std::cos(pa.theta), s = std::sin(pa.theta);
    e.set_out(x_, signal::value, c * d.x() + s * d.y());
    e.set_out(y_, signal::value, -s * d.x() + c * d.y());
    e.set_out(angle_, signal::value, pb.theta - pa.theta);
  }
  PortId a_, b_, x_, y_, angle_;
};

}  // namespace

void register_sensors(Registry& r) {
  r.add<PointSensor>("mechanical.point_sensor", "a point's position, velocity and acceleration, its body's angle and rates");
  r.add<DistanceSensor>("mechanical.distance_sensor", "distance between two points and its rate");
  r.add<RelativePositionSensor>("mechanical.relative_position_sensor",
                                "point b in point a's body frame, and the relative angle");
}

}  // namespace jourdain::mechanical
