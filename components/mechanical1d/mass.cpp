// Point mass on an axis, with gravity and optional end stops.
//
//   m dv/dt = sum of port forces + m g·e,   dx/dt = v
// where e = (cos i, sin i) is the axis direction in the world plane (inclination i;
// 90 deg is vertical, up) and g the world's gravity vector.
//
// End stops x_min <= x <= x_max are events, not stiff springs: on impact the velocity
// is reversed and scaled by the coefficient of restitution (Newton's impact law,
// v+ = -e v-); below rest_velocity the mass stays on the stop while the applied force
// pushes it there, and leaves when that force changes sign (another event).
// So that a step never hops over a landing, the top of a flight (v = 0, an extremum of
// x) is an event too; its handler changes nothing.
//
// Resting is a unilateral constraint: the mass leaves its stop when the applied force
// turns to pull it away ("leave_stop"). That includes a force that jumps at another
// component's event (a step driving a force source) and a force that already pulls at
// the instant of an impact: the model handles the zero crossings that a discrete change
// pushes across zero at the same instant (Model::handle_zero_crossings).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mechanical1d_library.hpp"

namespace jourdain::mechanical1d_library {

class Mass final : public Component {
 public:
  Mass() {
    mass_ = declare_real("mass", "kg", 1.0, "mass", Range::positive());
    inclination_ =
        declare_real("inclination", "rad", 0.0, "angle of the +x axis above the horizontal (\"90 deg\": vertical, up)");
    declare_config_real("x_min", "m", -std::numeric_limits<double>::infinity(),
                        "lower end stop (-inf: none; configuration: its events exist or not)");
    declare_config_real("x_max", "m", std::numeric_limits<double>::infinity(),
                        "upper end stop (inf: none; configuration: its events exist or not)");
    restitution_ = declare_real("restitution", "", 0.0, "coefficient of restitution at the end stops",
                                Range::between(0.0, 1.0));
    rest_velocity_ = declare_real("rest_velocity", "m/s", 1e-3,
                                  "impact speed below which the mass comes to rest on a stop", Range::non_negative());
  }

  void configure() override {
    gravity_ = planar_gravity(world());
    x_min_ = config_real("x_min");
    x_max_ = config_real("x_max");
    if (!(x_min_ < x_max_)) parameter_error("x_max", "must be above x_min");
    port_ = declare_port("p", mech1d_domain(), PortSide::State,
                         "position and velocity out, force in (any number of connections; forces add up)");
    set_dependencies(port_, {});
    x_ = declare_state("x", "m", 0.0, "position");
    v_ = declare_state("v", "m/s", 0.0, "velocity");
    declare_state_output(port_, mech1d::position, x_);
    declare_state_output(port_, mech1d::velocity, v_);
    a_ = declare_observable("a", "m/s^2", "acceleration");
    force_ = declare_observable("force", "N", "force applied to the mass apart from the end stops: port forces and gravity along the axis");
    stop_force_ = declare_observable("stop_force", "N", "force of the end stop on the mass");
    kinetic_ = declare_observable("kinetic_energy", "J", "½ m v²");
    potential_ = declare_observable("potential_energy", "J", "−m g·e x, in the world's gravity (zero at x = 0)");
    set_energy_role(kinetic_, EnergyRole::Stored);
    set_energy_role(potential_, EnergyRole::Stored);
    contact_ = declare_discrete("contact", 0.0, "0 free, -1 resting on x_min, +1 resting on x_max");
    if (std::isfinite(x_min_)) {
      hit_min_ = declare_zero_crossing("hit_x_min", CrossingDirection::Falling, "x - x_min");
      top_ = declare_zero_crossing("top_of_flight", CrossingDirection::Falling, "v, while free");
    }
    if (std::isfinite(x_max_)) {
      hit_max_ = declare_zero_crossing("hit_x_max", CrossingDirection::Falling, "x_max - x");
      bottom_ = declare_zero_crossing("bottom_of_flight", CrossingDirection::Rising, "v, while free");
    }
    if (std::isfinite(x_min_) || std::isfinite(x_max_))
      leave_ = declare_zero_crossing("leave_stop", CrossingDirection::Rising, "force pulling the mass off its stop");
  }

  void initialize(Eval& e) const override {
    double x = e.state(x_);
    if (x < x_min_ || x > x_max_) {
      e.warn("initial position outside the end stops; placed on the nearest one");
      e.set_state(x_, std::clamp(x, x_min_, x_max_));
    }
    // A mass that starts on a stop moving into it is an impact at t0 (a zero crossing
    // that starts at zero is never seen to change sign).
    x = e.state(x_);
    const double v = e.state(v_);
    if ((x == x_min_ && v < 0.0) || (x == x_max_ && v > 0.0)) {
      impact(e, x == x_min_);
      return;
    }
    // A mass that starts at rest on a stop and is pushed onto it stays there.
    const double f = applied_force(e);
    if (v == 0.0 && x == x_min_ && f <= 0.0) e.set_discrete(contact_, -1.0);
    if (v == 0.0 && x == x_max_ && f >= 0.0) e.set_discrete(contact_, 1.0);
  }

  void calc_derivatives(Eval& e) const override {
    const double f = applied_force(e);
    const bool resting = e.discrete(contact_) != 0.0;
    const double a = resting ? 0.0 : f / e.param(mass_);
    e.set_derivative(x_, resting ? 0.0 : e.state(v_));
    e.set_derivative(v_, a);
    e.set_observable(a_, a);
    e.set_observable(force_, f);
    e.set_observable(stop_force_, resting ? -f : 0.0);
    if (e.observables_wanted()) {
      const double m = e.param(mass_), v = e.state(v_);
      e.set_observable(kinetic_, 0.5 * m * v * v);
      e.set_observable(potential_, -m * gravity_.dot(axis(e)) * e.state(x_));
    }
  }

  void calc_zero_crossings(Eval& e) const override {
    const double contact = e.discrete(contact_);
    const bool free = contact == 0.0;
    const double v = e.state(v_);
    if (hit_min_.valid()) {
      e.set_zero_crossing(hit_min_, free ? e.state(x_) - x_min_ : 1.0);
      e.set_zero_crossing(top_, free ? v : 0.0);
    }
    if (hit_max_.valid()) {
      e.set_zero_crossing(hit_max_, free ? x_max_ - e.state(x_) : 1.0);
      e.set_zero_crossing(bottom_, free ? v : 0.0);
    }
    if (leave_.valid()) {
      const double f = applied_force(e);
      e.set_zero_crossing(leave_, contact < 0.0 ? f : contact > 0.0 ? -f : -1.0);
    }
  }

  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    if (z == top_ || z == bottom_) return;  // a step boundary only
    if (z == leave_) {
      const double contact = e.discrete(contact_);
      e.set_discrete(contact_, 0.0);
      e.log_event(std::string("leaves the ") + (contact < 0.0 ? "lower" : "upper") + " end stop");
      return;
    }
    impact(e, z == hit_min_);
  }

 private:
  // Newton's impact law on a stop; the mass comes to rest there when the rebound is
  // slower than rest_velocity. Should the applied force pull it away at that instant,
  // leave_stop rises through zero as the contact starts and lets it go at once.
  void impact(Eval& e, bool lower) const {
    const double stop = lower ? x_min_ : x_max_;
    const double v_impact = e.state(v_);
    e.set_state(x_, stop);
    // A mass already moving away from the stop has not hit it: its position crossed the
    // stop by rounding (an interpolant a few ulps off just after a bounce). Reversing its
    // velocity there would send it into the stop, from where no crossing is seen again.
    if (lower ? v_impact > 0.0 : v_impact < 0.0) return;
    const double v_after = -e.param(restitution_) * v_impact;
    const double contact = lower ? -1.0 : 1.0;
    if (std::abs(v_after) <= e.param(rest_velocity_)) {
      e.set_state(v_, 0.0);
      e.set_discrete(contact_, contact);
      e.log_event(std::string("comes to rest on the ") + (lower ? "lower" : "upper") + " end stop (impact speed " +
                  std::to_string(std::abs(v_impact)) + " m/s)");
    } else {
      e.set_state(v_, v_after);
      e.log_event(std::string("bounces on the ") + (lower ? "lower" : "upper") + " end stop (impact speed " +
                  std::to_string(std::abs(v_impact)) + " m/s)");
    }
  }

  double applied_force(const Eval& e) const {
    // e = (cos i, sin i): the unit vector of +x in the world plane.
    // A horizontal axis (the default) spares the sine and cosine (cos 0 = 1 and sin 0 =
    // 0 exactly, so the sum below is the same to the bit).
    return e.in(port_, mech1d::force) + e.param(mass_) * gravity_.dot(axis(e));
  }
  Eigen::Vector2d axis(const Eval& e) const {
    const double inclination = e.param(inclination_);
    return inclination == 0.0 ? Eigen::Vector2d(1.0, 0.0) : Eigen::Vector2d(std::cos(inclination), std::sin(inclination));
  }

  Eigen::Vector2d gravity_;  // world.gravity
  double x_min_ = 0.0, x_max_ = 0.0;
  RealParam mass_, inclination_, restitution_, rest_velocity_;
  PortId port_;
  StateId x_, v_;
  ObservableId a_, force_, stop_force_, kinetic_, potential_;
  DiscreteId contact_;
  ZeroCrossingId hit_min_, hit_max_, top_, bottom_, leave_;
};

void register_mass(Registry& r) {
  r.add<Mass>("mechanical1d.mass", "point mass on an axis, with gravity and end stops (events)");
}

}  // namespace jourdain::mechanical1d_library
