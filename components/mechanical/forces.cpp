// Force elements: translational spring–damper–actuator, rotational spring–damper,
// applied force and torque, wheel–ground contact. They compute their forces from the
// positions and velocities of their points only (never from accelerations), so the
// mechanism solver evaluates them once before it solves for accelerations and multipliers.
#include <cmath>

#include "jourdain/components/domains.hpp"
#include "mechanical_library.hpp"
#include "planar.hpp"

namespace jourdain::mechanical {

namespace {

using namespace jourdain::planar;

void apply(Eval& e, PortId p, const Vec2& f, double torque) {
  e.set_out(p, fx, f.x());
  e.set_out(p, fy, f.y());
  e.set_out(p, tz, torque);
}

// Between points a and b, along the line joining them: tension
//   T = k (L − L0) + c L̇ − F_actuator   (F_actuator > 0 pushes the points apart),
// applied as −T u on b and +T u on a, u = (r_b − r_a)/L.
class SpringDamper final : public Component {
 public:
  SpringDamper() {
    k_ = declare_real("stiffness", "N/m", 0.0, "k", Range::non_negative());
    L0_ = declare_real("free_length", "m", 0.0, "L0", Range::non_negative());
    c_ = declare_real("damping", "N*s/m", 0.0, "c", Range::non_negative());
    declare_boolean("actuator", false, "adds a signal input 'force' (N, > 0 pushes the points apart)");
  }

 private:
  void configure() override {
    a_ = declare_port("a", planar_domain(), PortSide::Response, "first point");
    b_ = declare_port("b", planar_domain(), PortSide::Response, "second point");
    if (boolean("actuator")) {
      force_in_ = declare_port("force", signal_domain(), PortSide::Response, "actuator force, > 0 extends (N)");
    }
    tension_ = declare_observable("force", "N", "tension (> 0 pulls the points together)");
    length_ = declare_observable("length", "m", "distance between the points");
    rate_ = declare_observable("velocity", "m/s", "rate of the length");
    energy_ = declare_observable("energy", "J", "elastic energy ½ k (L − L0)²");
    power_ = declare_observable("actuator_power", "W", "power delivered by the actuator force");
    loss_ = declare_observable("power_loss", "W", "damping loss c L̇², turned into heat");
    set_energy_role(energy_, EnergyRole::Stored);
    set_energy_role(power_, EnergyRole::Supplied);
    set_energy_role(loss_, EnergyRole::Loss);
  }
  struct State {
    double L, Ldot, T;
    Vec2 u;
  };
  State state(const Eval& e) const {
    const PointKinematics pa = read_point(e, a_), pb = read_point(e, b_);
    const Vec2 d = pb.r - pa.r;
    State s{d.norm(), 0.0, 0.0, {0, 0}};
    if (s.L > 0.0) {
      s.u = d / s.L;
      s.Ldot = s.u.dot(pb.v - pa.v);
    }
    s.T = e.param(k_) * (s.L - e.param(L0_)) + e.param(c_) * s.Ldot - actuator(e);
    if (!(s.L > 0.0) && s.T != 0.0)
      throw SimulationError(e.time(), {name()}, "its two points coincide while it carries a force: no direction");
    return s;
  }
  double actuator(const Eval& e) const { return force_in_.valid() ? e.in(force_in_, signal::value) : 0.0; }
  // Between its two points (the report's animation): a zigzag for a spring, a piston for
  // a damper, both for both, a line for an actuator alone.
  nlohmann::json sketch() const override {
    const bool spring = netlist_value(k_) > 0.0, damper = netlist_value(c_) > 0.0;
    const char* kind = spring && damper ? "spring_damper" : spring ? "spring" : damper ? "damper" : "line";
    return {{"links", {{{"kind", kind}, {"from", "a"}, {"to", "b"}, {"position", {"x", "y"}}}}}};
  }
  void calc_outputs(Eval& e) const override {
    const State s = state(e);
    apply(e, a_, s.T * s.u, 0.0);
    apply(e, b_, -s.T * s.u, 0.0);
  }
  void calc_derivatives(Eval& e) const override {
    const State s = state(e);
    e.set_observable(tension_, s.T);
    e.set_observable(length_, s.L);
    e.set_observable(rate_, s.Ldot);
    const double L0 = e.param(L0_);
    e.set_observable(energy_, 0.5 * e.param(k_) * (s.L - L0) * (s.L - L0));
    e.set_observable(power_, actuator(e) * s.Ldot);
    e.set_observable(loss_, e.param(c_) * s.Ldot * s.Ldot);
  }
  RealParam k_, L0_, c_;
  PortId a_, b_, force_in_;
  ObservableId tension_, length_, rate_, energy_, power_, loss_;
};

// Torque τ = k (θ_b − θ_a − θ0) + c (ω_b − ω_a): −τ on b, +τ on a.
class RotationalSpringDamper final : public Component {
 public:
  RotationalSpringDamper() {
    k_ = declare_real("stiffness", "N*m/rad", 0.0, "k", Range::non_negative());
    c_ = declare_real("damping", "N*m*s/rad", 0.0, "c", Range::non_negative());
    free_ = declare_real("free_angle", "rad", 0.0, "θ0: relative angle at zero torque");
  }

 private:
  void configure() override {
    a_ = declare_port("a", planar_domain(), PortSide::Response, "first body");
    b_ = declare_port("b", planar_domain(), PortSide::Response, "second body");
    torque_ = declare_observable("torque", "N*m", "torque on a (−torque on b)");
    angle_ = declare_observable("angle", "rad", "relative angle θ_b − θ_a");
    energy_ = declare_observable("energy", "J", "elastic energy ½ k (θ_b − θ_a − θ0)²");
    loss_ = declare_observable("power_loss", "W", "damping loss c (ω_b − ω_a)², turned into heat");
    set_energy_role(energy_, EnergyRole::Stored);
    set_energy_role(loss_, EnergyRole::Loss);
  }
  double torque(const Eval& e) const {
    const PointKinematics pa = read_point(e, a_), pb = read_point(e, b_);
    return e.param(k_) * (pb.theta - pa.theta - e.param(free_)) + e.param(c_) * (pb.omega - pa.omega);
  }
  void calc_outputs(Eval& e) const override {
    const double t = torque(e);
    apply(e, a_, {0, 0}, t);
    apply(e, b_, {0, 0}, -t);
  }
  void calc_derivatives(Eval& e) const override {
    const PointKinematics pa = read_point(e, a_), pb = read_point(e, b_);
    const double rel = pb.theta - pa.theta;
    e.set_observable(torque_, torque(e));
    e.set_observable(angle_, rel);
    const double free = e.param(free_);
    e.set_observable(energy_, 0.5 * e.param(k_) * (rel - free) * (rel - free));
    e.set_observable(loss_, e.param(c_) * (pb.omega - pa.omega) * (pb.omega - pa.omega));
  }
  RealParam k_, c_, free_;
  PortId a_, b_;
  ObservableId torque_, angle_, energy_, loss_;
};

// A force at a point: constant or from signals, in the world or the body frame.
class AppliedForce final : public Component {
 public:
  AppliedForce() {
    fx_ = declare_real("fx", "N", 0.0, "x component (constant source)");
    fy_ = declare_real("fy", "N", 0.0, "y component (constant source)");
    declare_text("source", std::string("constant"), "constant: fx, fy; signal: inputs fx, fy", {"constant", "signal"});
    declare_text("frame", std::string("world"), "frame of the components", {"world", "body"});
  }

 private:
  void configure() override {
    a_ = declare_port("a", planar_domain(), PortSide::Response, "point of application");
    if (text("source") == "signal") {
      fx_in_ = declare_port("fx", signal_domain(), PortSide::Response, "x component (N)");
      fy_in_ = declare_port("fy", signal_domain(), PortSide::Response, "y component (N)");
    }
    body_frame_ = text("frame") == "body";
  }
  void calc_outputs(Eval& e) const override {
    Vec2 f = fx_in_.valid() ? Vec2{e.in(fx_in_, signal::value), e.in(fy_in_, signal::value)}
                            : Vec2{e.param(fx_), e.param(fy_)};
    if (body_frame_) f = rotate(e.in(a_, theta), f);
    apply(e, a_, f, 0.0);
  }
  RealParam fx_, fy_;
  bool body_frame_ = false;
  PortId a_, fx_in_, fy_in_;
};

class AppliedTorque final : public Component {
 public:
  AppliedTorque() {
    torque_ = declare_real("torque", "N*m", 0.0, "torque (constant source)");
    declare_text("source", std::string("constant"), "constant: torque; signal: input torque", {"constant", "signal"});
  }

 private:
  void configure() override {
    a_ = declare_port("a", planar_domain(), PortSide::Response, "body (any of its points)");
    set_dependencies(a_, {});
    if (text("source") == "signal") {
      in_ = declare_port("torque", signal_domain(), PortSide::Response, "torque (N·m)");
      set_dependencies(a_, {in_});
    }
    power_ = declare_observable("power", "W", "power delivered: torque · ω");
    set_energy_role(power_, EnergyRole::Supplied);
  }
  double torque(const Eval& e) const { return in_.valid() ? e.in(in_, signal::value) : e.param(torque_); }
  void calc_outputs(Eval& e) const override { apply(e, a_, {0, 0}, torque(e)); }
  void calc_derivatives(Eval& e) const override { e.set_observable(power_, torque(e) * e.in(a_, omega)); }
  RealParam torque_;
  PortId a_, in_;
  ObservableId power_;
};

// A wheel (circle of radius R centred on the port's point) on a ground line through
// `ground_point` with upward normal n: penetration δ = R − nᵀ(r − p0), and while δ > 0 a
// normal force F = k δ + c δ̇ (seed 000, eqs. 4.14–4.15), never pulling; optional
// Coulomb friction μ F regularized as tanh(v_slip / slip_velocity).
class WheelContact final : public Component {
 public:
  WheelContact() {
    R_ = declare_real("radius", "m", std::nullopt, "wheel radius R", Range::positive());
    k_ = declare_real("stiffness", "N/m", std::nullopt, "contact stiffness k", Range::positive());
    c_ = declare_real("damping", "N*s/m", 0.0, "contact damping c", Range::non_negative());
    mu_ = declare_real("friction", "", 0.0, "Coulomb coefficient μ", Range::non_negative());
    vs_ = declare_real("slip_velocity", "m/s", 1e-3, "slip speed at which friction reaches 76% of μ F", Range::positive());
    declare_real_list("ground_point", "m", std::vector<double>{0.0, 0.0}, "a point of the ground line [x, y]");
    declare_real_list("ground_normal", "", std::vector<double>{0.0, 1.0}, "the ground's outward normal [nx, ny]");
  }

 private:
  void configure() override {
    const auto p = real_list("ground_point");
    if (p.size() != 2) parameter_error("ground_point", "expected [x, y]");
    p0_ = {p[0], p[1]};
    n_ = unit_direction(*this, "ground_normal", real_list("ground_normal"));
    a_ = declare_port("a", planar_domain(), PortSide::Response, "wheel centre");
    normal_ = declare_observable("normal_force", "N", "ground's normal force on the wheel");
    friction_ = declare_observable("friction_force", "N", "friction force along the ground (tangent ⊥n turned −90°)");
    depth_ = declare_observable("penetration", "m", "δ (negative: no contact)");
    slip_ = declare_observable("slip_velocity", "m/s", "velocity of the wheel's contact point along the ground");
    // Energy: the contact spring stores ½ k δ²; what the contact takes from the wheel
    // beyond that, F δ̇ − k δ δ̇ − F_f v_slip (damping, the normal force let go while
    // the spring is still compressed, friction), turns into heat.
    stored_ = declare_observable("stored_energy", "J", "½ k δ² while in contact");
    loss_ = declare_observable("power_loss", "W", "contact damping and friction, turned into heat");
    set_energy_role(stored_, EnergyRole::Stored);
    set_energy_role(loss_, EnergyRole::Loss);
  }
  struct Contact {
    double depth, normal, friction, slip, depth_rate;
  };
  Contact contact(const Eval& e) const {
    const PointKinematics k = read_point(e, a_);
    const double R = e.param(R_);
    const Vec2 t{n_.y(), -n_.x()};
    Contact c{R - n_.dot(k.r - p0_), 0, 0, 0, -n_.dot(k.v)};
    const double depth_rate = c.depth_rate;
    c.slip = t.dot(k.v - R * k.omega * perp(n_));  // contact point at r − R n
    if (c.depth > 0.0) c.normal = std::max(0.0, e.param(k_) * c.depth + e.param(c_) * depth_rate);
    c.friction = -e.param(mu_) * c.normal * std::tanh(c.slip / e.param(vs_));
    return c;
  }
  void calc_outputs(Eval& e) const override {
    const Contact c = contact(e);
    const Vec2 t{n_.y(), -n_.x()};
    const Vec2 f = c.normal * n_ + c.friction * t;
    apply(e, a_, f, cross(-e.param(R_) * n_, f));  // applied at the contact point, moved to the centre
  }
  void calc_derivatives(Eval& e) const override {
    const Contact c = contact(e);
    e.set_observable(normal_, c.normal);
    e.set_observable(friction_, c.friction);
    e.set_observable(depth_, c.depth);
    e.set_observable(slip_, c.slip);
    const double spring = c.depth > 0.0 ? e.param(k_) * c.depth : 0.0;
    e.set_observable(stored_, 0.5 * spring * std::max(c.depth, 0.0));
    e.set_observable(loss_, (c.normal - spring) * c.depth_rate - c.friction * c.slip);
  }
  RealParam R_, k_, c_, mu_, vs_;
  Vec2 p0_{0, 0}, n_{0, 1};
  PortId a_;
  ObservableId normal_, friction_, depth_, slip_, stored_, loss_;
};

}  // namespace

void register_forces(Registry& r) {
  r.add<SpringDamper>("mechanical.spring_damper", "translational spring–damper–actuator between two points");
  r.add<RotationalSpringDamper>("mechanical.rotational_spring_damper", "rotational spring–damper between two bodies");
  r.add<AppliedForce>("mechanical.force", "force at a point (constant or signal; world or body frame)");
  r.add<AppliedTorque>("mechanical.torque", "torque on a body (constant or signal)");
  r.add<WheelContact>("mechanical.wheel_contact", "wheel on a ground line: penalty spring–damper, Coulomb friction");
}

}  // namespace jourdain::mechanical
