// Joints: revolute, weld, translational, pin-in-slot, gear pair, rack and pinion, and the
// massless rod.
// Each states its equations in the conventions of planar.hpp (point Jacobians).
#include <cmath>

#include "mechanical_library.hpp"
#include "planar.hpp"

namespace jourdain::mechanical {

namespace {

// Φ = wᵀ(r_b − r_a) for a direction w = A(θ_a) w' fixed in a's body (a point on a line).
//   J_a = [−wᵀ, ⊥(w)ᵀd],  J_b = [wᵀ, 0],  c = 2ω_a ⊥(w)ᵀḋ − ω_a² wᵀd.
ConstraintRow along(const Vec2& w_body, const PointKinematics (&k)[2]) {
  ConstraintRow r;
  const Vec2 w = rotate(k[0].theta, w_body), d = k[1].r - k[0].r, dd = k[1].v - k[0].v;
  r.phi = w.dot(d);
  r.J << -w.x(), -w.y(), perp(w).dot(d), w.x(), w.y(), 0.0;
  r.c = 2.0 * k[0].omega * perp(w).dot(dd) - k[0].omega * k[0].omega * w.dot(d);
  return r;
}

// Φ = θ_b − θ_a − angle.
ConstraintRow relative_angle(double angle, const PointKinematics (&k)[2]) {
  ConstraintRow r;
  r.phi = k[1].theta - k[0].theta - angle;
  r.J << 0, 0, -1, 0, 0, 1;
  return r;
}

class Revolute final : public Constraint {
  void configure() override { declare_constraint(2, true, "first body's point", "second body's point"); }
  void equations(double, const Eval&, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    for (int i = 0; i < 2; ++i) {
      auto& r = rows.add();
      r.phi = k[1].r[i] - k[0].r[i];  // r_b − r_a = 0
      r.J[i] = -1.0;
      r.J[3 + i] = 1.0;
    }
  }
};

class Weld final : public Constraint {
 public:
  Weld() { angle_ = declare_real("angle", "rad", 0.0, "relative angle held, θ_b − θ_a"); }

 private:
  void configure() override { declare_constraint(3, true, "first body's point", "second body's point"); }
  const char* equation_unit(int i) const override { return i == 2 ? "rad" : "m"; }
  void equations(double, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    for (int i = 0; i < 2; ++i) {
      auto& r = rows.add();
      r.phi = k[1].r[i] - k[0].r[i];
      r.J[i] = -1.0;
      r.J[3 + i] = 1.0;
    }
    rows.add() = relative_angle(e.param(angle_), k);
  }
  RealParam angle_;
};

// A point of b slides on the line through a's point along a's body-fixed axis.
class LineJoint : public Constraint {
 public:
  LineJoint() {
    declare_real_list("axis", "", std::vector<double>{1.0, 0.0}, "sliding axis in a's body frame [ux, uy]");
  }

 protected:
  void configure_line() { axis_ = unit_direction(*this, "axis", real_list("axis")); }
  void report(Eval& e, const PointKinematics (&k)[2], const Vec3&) const override {
    const Vec2 u = rotate(k[0].theta, axis_), d = k[1].r - k[0].r, dd = k[1].v - k[0].v;
    e.set_observable(position_, u.dot(d));
    e.set_observable(velocity_, u.dot(dd) + k[0].omega * perp(u).dot(d));
  }
  void declare_slide_outputs() {
    position_ = declare_observable("position", "m", "position of b's point along the axis from a's point");
    velocity_ = declare_observable("velocity", "m/s", "its rate");
  }
  Vec2 axis_{1, 0};
  ObservableId position_, velocity_;
};

// With "actuated": true, a hydraulic or electric actuator: the force along the axis is an
// unknown of the mechanism (a third, equation-free row) that servo drivers determine.
class Translational final : public LineJoint {
 public:
  Translational() {
    angle_ = declare_real("angle", "rad", 0.0, "relative angle held, θ_b − θ_a");
    declare_boolean("actuated", false,
                    "an actuator along the axis whose force the mechanism solves for, paired with servo drivers");
  }

 private:
  void configure() override {
    configure_line();
    actuated_ = boolean("actuated");
    declare_constraint(actuated_ ? 3 : 2, true, "guide body's point (on the axis)", "slider body's point");
    declare_slide_outputs();
    if (actuated_) {
      set_row_kind(2, /*equation=*/false, /*reacts=*/true);
      force_ = declare_observable("force", "N", "actuator force along the axis (> 0 extends: pushes b away from a)");
      power_ = declare_observable("power", "W", "actuator power: force · extension rate");
      set_energy_role(power_, EnergyRole::Supplied);  // an actuator outside the model drives it
    }
  }
  const char* equation_unit(int i) const override { return i == 1 ? "rad" : "m"; }
  void equations(double, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    rows.add() = along(perp(axis_), k);  // no motion across the axis
    rows.add() = relative_angle(e.param(angle_), k);
    if (actuated_) rows.add() = along(axis_, k);  // the extension s = uᵀd: its force is −λ
  }
  void report(Eval& e, const PointKinematics (&k)[2], const Vec3& lambda) const override {
    LineJoint::report(e, k, lambda);
    if (!actuated_) return;
    const Vec2 u = rotate(k[0].theta, axis_), d = k[1].r - k[0].r, dd = k[1].v - k[0].v;
    e.set_observable(force_, -lambda[2]);
    e.set_observable(power_, -lambda[2] * (u.dot(dd) + k[0].omega * perp(u).dot(d)));
  }
  RealParam angle_;
  bool actuated_ = false;
  ObservableId force_, power_;
};

class PinInSlot final : public LineJoint {
  void configure() override {
    configure_line();
    declare_constraint(1, true, "slot body's point (on the slot's line)", "pin");
    declare_slide_outputs();
  }
  void equations(double, const Eval&, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    rows.add() = along(perp(axis_), k);
  }
};

// θ_b − θ_b0 = ratio (θ_a − θ_a0): gears on fixed centres (ratio = −r_a/r_b for an
// external pair, +r_a/r_b internal), belts and chains.
class GearPair final : public Constraint {
 public:
  GearPair() {
    ratio_ = declare_real("ratio", "", std::nullopt, "ω_b/ω_a: −r_a/r_b for external gears, +r_a/r_b for internal");
    a0_ = declare_real("reference_angle_a", "rad", 0.0, "θ_a at the reference mesh position");
    b0_ = declare_real("reference_angle_b", "rad", 0.0, "θ_b at the reference mesh position");
  }

 private:
  void configure() override { declare_constraint(1, true, "first gear's body", "second gear's body"); }
  const char* equation_unit(int) const override { return "rad"; }
  void equations(double, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    const double ratio = e.param(ratio_);
    auto& r = rows.add();
    r.phi = (k[1].theta - e.param(b0_)) - ratio * (k[0].theta - e.param(a0_));
    r.J << 0, 0, -ratio, 0, 0, 1;
  }
  RealParam ratio_, a0_, b0_;
};

// Rolling without slip of a pinion (b, at its centre) on a rack (a, a point of its pitch
// line, axis along the rack): uᵀ(r_b − r_a) + R (θ_b − θ_a) = reference.
class RackPinion final : public Constraint {
 public:
  RackPinion() {
    radius_ = declare_real("radius", "m", std::nullopt, "pinion pitch radius", Range::positive());
    declare_real_list("axis", "", std::vector<double>{1.0, 0.0}, "rack axis in a's body frame [ux, uy]");
    reference_ = declare_real("reference", "m", 0.0, "value of uᵀ(r_b − r_a) + R (θ_b − θ_a) held");
  }

 private:
  void configure() override {
    axis_ = unit_direction(*this, "axis", real_list("axis"));
    declare_constraint(1, true, "rack body's point on its pitch line", "pinion centre");
  }
  void equations(double, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    const double radius = e.param(radius_);
    ConstraintRow r = along(axis_, k);
    r.phi += radius * (k[1].theta - k[0].theta) - e.param(reference_);
    r.J[2] -= radius;
    r.J[5] += radius;
    rows.add() = r;
  }
  Vec2 axis_{1, 0};
  RealParam radius_, reference_;
};

}  // namespace

// A massless rigid link: the distance between points a and b is held at `length`
// (Φ = |r_b − r_a| − L, distance_row). It carries only the force along itself: its
// multiplier is the tension (N, > 0 pulling the points together: the rod applies −λu to
// b, u from a to b), for the light links a body (which needs inertia > 0) cannot model.
class Rod final : public Constraint {
 public:
  Rod() { length_ = declare_real("length", "m", std::nullopt, "distance held between a and b", Range::positive()); }

 private:
  void configure() override {
    declare_constraint(1, true, "first point", "second point");
    tension_ = declare_observable("tension", "N", "force along the rod, > 0 in tension (pulling a and b together)");
  }
  void equations(double t, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const override {
    auto& r = rows.add();
    r = distance_row(k, t, name());
    r.phi -= e.param(length_);
  }
  void report(Eval& e, const PointKinematics (&)[2], const Vec3& lambda) const override {
    e.set_observable(tension_, lambda[0]);
  }
  RealParam length_;
  ObservableId tension_;
};

void register_joints(Registry& r) {
  r.add<Revolute>("mechanical.revolute", "pin joint: points a and b coincide (2 equations)");
  r.add<Weld>("mechanical.weld", "rigid joint: points coincide, relative angle held (3 equations)");
  r.add<Translational>("mechanical.translational",
                       "prismatic joint: b slides along a's body-fixed axis without turning (2 equations)");
  r.add<PinInSlot>("mechanical.pin_in_slot", "point b on the line through a along a's axis (1 equation)");
  r.add<GearPair>("mechanical.gear_pair", "rotation ratio between two bodies on fixed centres (1 equation)");
  r.add<RackPinion>("mechanical.rack_pinion", "pinion b rolls along rack a without slip (1 equation)");
  r.add<Rod>("mechanical.rod", "massless rigid link: distance between a and b held at its length; tension (1 equation)");
}

}  // namespace jourdain::mechanical
