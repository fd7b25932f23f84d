// Double-acting cylinders: two chambers, friction, end stops and internal leakage. The
// rod either drives a 1D mass (hydraulic.cylinder) or acts as a force element between
// two points of planar bodies (hydraulic.planar_cylinder), so that hydraulics can drive
// a mechanism.
//
// With s the extension (0 fully retracted, S the stroke) and v = ds/dt:
//   chamber A (cap side):  V_A = V_A0 + A_A s,         dV_A/dt =  A_A v
//   chamber B (rod side):  V_B = V_B0 + A_B (S − s),   dV_B/dt = −A_B v
//   dp_A/dt = β/V_A (q_A − q_leak − A_A v),   dp_B/dt = β/V_B (q_B + q_leak + A_B v)
// (Chamber in hydraulic_library.hpp: with the vapour limit), q_leak = k_leak (p_A − p_B)
// the internal leakage across the piston, q_A, q_B the flows the ports receive. The
// force on the rod, positive when it pushes out, is
//   F = p_A A_A − p_B A_B − F_friction(v) + F_stop
//   F_friction = c v + F_c tanh(v / v_s)      (viscous and smoothed Coulomb friction)
//   F_stop = k_s (−s) − c_s v,  ≥ 0, for s < 0;  −(k_s (s − S) + c_s v), ≤ 0, for s > S
// (stiff end-stop contact, never pulling). A 1D mass may also carry its own event-based
// stops (mechanical1d.mass x_min, x_max), which stop it exactly.
// The force is computed from the positions, velocities and the chamber pressures
// (states) only, never from accelerations, so a mechanism's solver can evaluate it once
// before solving for the accelerations. So is what the cylinder loses (friction, leakage,
// end-stop damping): with "heat_port" true, the port `heat` returns it as heat flow.
#include <optional>
#include <utility>
#include <vector>

#include "hydraulic_library.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::hydraulic_library {

class CylinderBase : public HydraulicComponent {
 public:
  CylinderBase() {
    bore_ = declare_real("bore_diameter", "m", 0.0, "piston diameter D (0: give area_a)", Range::non_negative());
    rod_diameter_ = declare_real("rod_diameter", "m", 0.0, "rod diameter d (0: give area_b, or none for a plunger)",
                                 Range::non_negative());
    area_a_ = declare_real("area_a", "m^2", 0.0, "piston area A_A (when no bore_diameter is given)",
                           Range::non_negative());
    area_b_ = declare_real("area_b", "m^2", 0.0, "annulus area A_B (when no rod_diameter is given)",
                           Range::non_negative());
    stroke_ = declare_real("stroke", "m", std::nullopt, "stroke S", Range::positive());
    dead_a_ = declare_real("dead_volume_a", "m^3", 1e-5, "volume of chamber A at s = 0 (lines included)",
                           Range::positive());
    dead_b_ = declare_real("dead_volume_b", "m^3", 1e-5, "volume of chamber B at s = S (lines included)",
                           Range::positive());
    c_ = declare_real("viscous_friction", "N*s/m", 0.0, "c", Range::non_negative());
    f_c_ = declare_real("coulomb_friction", "N", 0.0, "F_c", Range::non_negative());
    v_s_ = declare_real("friction_velocity", "m/s", 1e-3, "v_s: speed at which friction reaches 76% of F_c",
                        Range::positive());
    leak_ = declare_real("leakage", "m^3/s/Pa", 0.0, "k_leak: internal leakage across the piston",
                         Range::non_negative());
    k_s_ = declare_real("stop_stiffness", "N/m", 1e9, "k_s of the end stops", Range::non_negative());
    c_s_ = declare_real("stop_damping", "N*s/m", 1e5, "c_s of the end stops", Range::non_negative());
    // The areas come from diameters or are given directly: a typical cylinder by diameters.
    set_example("bore_diameter", "100 mm");
    set_example("rod_diameter", "56 mm");
    set_example("stroke", "500 mm");
    declare_heat_port_parameter(
        "true: a thermal port 'heat' returns the friction, leakage and end-stop losses as heat flow");
  }

 protected:
  struct Motion {
    double s, v;  // extension and its rate
  };
  struct Forces {
    double pressure, friction, stop, total;
  };
  // A_A and A_B, m².
  struct Areas {
    double a, b;
  };

  // configure() of the variants calls this first, and finish_cylinder() last.
  void configure_cylinder() {
    a_ = declare_port("a", hydraulic_domain(), PortSide::State, "chamber A (cap side): pressure out, flow in");
    b_ = declare_port("b", hydraulic_domain(), PortSide::State, "chamber B (rod side): pressure out, flow in");
    set_dependencies(a_, {});
    set_dependencies(b_, {});
    p_a_ = declare_state("p_a", "Pa", 0.0, "pressure state of chamber A (gauge; below the vapour pressure: cavity)");
    p_b_ = declare_state("p_b", "Pa", 0.0, "pressure state of chamber B (gauge; below the vapour pressure: cavity)");
    pressure_a_ = declare_observable("pressure_a", "Pa", "pressure in chamber A");
    pressure_b_ = declare_observable("pressure_b", "Pa", "pressure in chamber B");
    extension_ = declare_observable("extension", "m", "s (0: retracted, stroke: extended)");
    velocity_ = declare_observable("velocity", "m/s", "ds/dt (> 0 extending)");
    force_ = declare_observable("force", "N", "force of the rod, > 0 pushing out");
    friction_ = declare_observable("friction", "N", "friction force (opposing the motion)");
    stop_ = declare_observable("stop_force", "N", "end-stop force");
    volume_a_ = declare_observable("volume_a", "m^3", "volume of chamber A");
    volume_b_ = declare_observable("volume_b", "m^3", "volume of chamber B");
    cavity_a_ = declare_observable("cavity_a", "m^3", "vapour cavity in chamber A");
    cavity_b_ = declare_observable("cavity_b", "m^3", "vapour cavity in chamber B");
    // Energy. The losses are exact: friction F_f v, leakage q_leak (p_A − p_B), and the end
    // stops' damping (what their contact force takes beyond the change of their spring's
    // energy). The chambers' compressed liquid is stored as V ε(p) each, at the current
    // volume. With a moving wall the chamber law (1) gives the swept volume its
    // compression energy, V̇ ε(p) (Chamber::moving_wall_energy, ≈ p/(2β) of the
    // piston's work): stated here as supplied by the chamber law, so that
    // the cylinder's balance closes and that term shows by name.
    stored_ = declare_observable("stored_energy", "J",
                                 "compressed liquid of both chambers, V ε(p) each, and the end stops' spring");
    loss_ = declare_observable("power_loss", "W", "friction, leakage and end-stop damping, turned into heat");
    swept_ = declare_observable("swept_compression_power", "W",
                                "V̇ ε(p) of both chambers: the compression energy the lumped chamber law gives "
                                "the volume the piston sweeps (≈ p/(2β) of its work)");
    set_energy_role(stored_, EnergyRole::Stored);
    set_energy_role(swept_, EnergyRole::Supplied);
    piston_area_ = declare_derived("piston_area", "m^2", "A_A: π D²/4, or area_a");
    annulus_area_ = declare_derived("annulus_area", "m^2", "A_B: A_A − π d²/4, or area_b");
  }

  // configure() of the variants, last, after the ports the motion is read from
  // (`motion`): the heat port, whose loss reads them too, the role of the loss, and the
  // fluid.
  void finish_cylinder(std::vector<PortId> motion) {
    configure_heat_port("to a heat capacity (the oil, the barrel): returns the friction, leakage and end-stop losses",
                        std::move(motion));
    set_loss_role(loss_);  // with a heat port, it leaves through it
    finish_configure();
  }

  // The derived stage: A_A = π D²/4 or area_a; A_B = A_A − π d²/4 or area_b, once per
  // set of parameter values rather than at every evaluation.
  void calc_derived(Eval& e) const override {
    HydraulicComponent::calc_derived(e);
    const double bore = e.param(bore_), rod = e.param(rod_diameter_);
    const double a = bore > 0.0 ? pi * bore * bore / 4.0 : e.param(area_a_);
    const double b = rod > 0.0 ? a - pi * rod * rod / 4.0 : e.param(area_b_);
    if (!(a > 0.0)) parameter_error("area_a", "give bore_diameter or area_a");
    if (bore > 0.0 && e.param(area_a_) > 0.0) parameter_error("area_a", "give bore_diameter or area_a, not both");
    if (rod > 0.0 && e.param(area_b_) > 0.0) parameter_error("area_b", "give rod_diameter or area_b, not both");
    if (rod > 0.0 && !(rod < bore || bore == 0.0)) parameter_error("rod_diameter", "must be less than bore_diameter");
    if (!(b >= 0.0) || b > a)
      parameter_error("area_b", "the annulus must be between 0 and the piston area (" + format_number(a) + " m²)");
    e.set_derived(piston_area_, a);
    e.set_derived(annulus_area_, b);
  }
  Areas areas(const Eval& e) const { return {e.derived(piston_area_), e.derived(annulus_area_)}; }

  void publish_pressures(Eval& e) const {
    const Fluid f = fluid(e);
    e.set_out(a_, hydraulic::pressure, Chamber::pressure(e.state(p_a_), f));
    e.set_out(b_, hydraulic::pressure, Chamber::pressure(e.state(p_b_), f));
  }

  Forces forces(const Eval& e, const Motion& m) const {
    const Fluid f = fluid(e);
    const Areas A = areas(e);
    Forces out{};
    out.pressure = Chamber::pressure(e.state(p_a_), f) * A.a - Chamber::pressure(e.state(p_b_), f) * A.b;
    out.friction = e.param(c_) * m.v + e.param(f_c_) * std::tanh(m.v / e.param(v_s_));
    const double stroke = e.param(stroke_), k_s = e.param(k_s_), c_s = e.param(c_s_);
    if (m.s < 0.0)
      out.stop = std::max(0.0, -k_s * m.s - c_s * m.v);
    else if (m.s > stroke)
      out.stop = std::min(0.0, -k_s * (m.s - stroke) - c_s * m.v);
    out.total = out.pressure - out.friction + out.stop;
    return out;
  }

  // The end stops' penetration ε (below 0, or beyond the stroke) and its rate.
  struct Penetration {
    double depth, rate;
  };
  Penetration penetration(const Eval& e, const Motion& m) const {
    const double stroke = e.param(stroke_);
    if (m.s < 0.0) return {-m.s, -m.v};
    if (m.s > stroke) return {m.s - stroke, m.v};
    return {0.0, 0.0};
  }

  // The power turned into heat: friction F_f v, leakage q_leak (p_A − p_B), and the end
  // stops' damping, what their contact force takes beyond the change of their spring's
  // energy: −F_stop v − k_s ε dε/dt (c_s v² while the contact force is not clipped at 0).
  double power_loss(const Eval& e, const Motion& m, const Forces& F) const {
    const Fluid f = fluid(e);
    const double dp = Chamber::pressure(e.state(p_a_), f) - Chamber::pressure(e.state(p_b_), f);
    const Penetration stop = penetration(e, m);
    const double stop_loss = -F.stop * m.v - e.param(k_s_) * stop.depth * stop.rate;
    return F.friction * m.v + e.param(leak_) * dp * dp + stop_loss;
  }
  // calc_outputs: the loss as the heat port's heat flow, when there is one.
  void publish_heat(Eval& e, const Motion& m, const Forces& F) const {
    if (has_heat_port()) set_heat_flow(e, power_loss(e, m, F));
  }

  void chamber_derivatives(Eval& e, const Motion& m) const {
    const Fluid f = fluid(e);
    const double ps_a = e.state(p_a_), ps_b = e.state(p_b_);
    const double pa = Chamber::pressure(ps_a, f), pb = Chamber::pressure(ps_b, f);
    const Areas A = areas(e);
    const double dead_a = e.param(dead_a_), dead_b = e.param(dead_b_);
    // Volumes stay positive even with the rod pressed into an end stop (where they stop
    // changing).
    const double va_free = dead_a + A.a * m.s, vb_free = dead_b + A.b * (e.param(stroke_) - m.s);
    const double va = std::max(va_free, 0.01 * dead_a), vb = std::max(vb_free, 0.01 * dead_b);
    const double q_leak = e.param(leak_) * (pa - pb);
    e.set_derivative(p_a_, Chamber::rate(ps_a, va, A.a * m.v, e.in(a_, hydraulic::flow_rate) - q_leak, f));
    e.set_derivative(p_b_, Chamber::rate(ps_b, vb, -A.b * m.v, e.in(b_, hydraulic::flow_rate) + q_leak, f));
    const Forces F = forces(e, m);
    e.set_observable(pressure_a_, pa);
    e.set_observable(pressure_b_, pb);
    e.set_observable(extension_, m.s);
    e.set_observable(velocity_, m.v);
    e.set_observable(force_, F.total);
    e.set_observable(friction_, F.friction);
    e.set_observable(stop_, F.stop);
    e.set_observable(volume_a_, va);
    e.set_observable(volume_b_, vb);
    e.set_observable(cavity_a_, Chamber::cavity(ps_a, va, f));
    e.set_observable(cavity_b_, Chamber::cavity(ps_b, vb, f));
    if (e.observables_wanted()) {
      const double depth = penetration(e, m).depth;
      const auto energy_a = Chamber::moving_wall_energy(ps_a, va, va_free > 0.01 * dead_a ? A.a * m.v : 0.0, f);
      const auto energy_b = Chamber::moving_wall_energy(ps_b, vb, vb_free > 0.01 * dead_b ? -A.b * m.v : 0.0, f);
      e.set_observable(stored_, energy_a.stored + energy_b.stored + 0.5 * e.param(k_s_) * depth * depth);
      e.set_observable(loss_, power_loss(e, m, F));
      e.set_observable(swept_, energy_a.swept + energy_b.swept);
    }
  }

 private:
  RealParam bore_, rod_diameter_, area_a_, area_b_, stroke_, dead_a_, dead_b_;
  DerivedId piston_area_, annulus_area_;
  RealParam c_, f_c_, v_s_, leak_, k_s_, c_s_;
  ObservableId stored_, loss_, swept_;
  PortId a_, b_;
  StateId p_a_, p_b_;
  ObservableId pressure_a_, pressure_b_, extension_, velocity_, force_, friction_, stop_, volume_a_, volume_b_,
      cavity_a_, cavity_b_;
};

// The rod on a 1D mass: s = x − x_0, v = dx/dt (x of the mass, x_0 = position_retracted).
// It returns F to the mass, along its axis.
class Cylinder final : public CylinderBase {
 public:
  Cylinder() {
    x0_ = declare_real("position_retracted", "m", 0.0, "x_0: position of the mass when the rod is fully retracted");
  }
  void configure() override {
    configure_cylinder();
    rod_ = declare_port("rod", mech1d_domain(), PortSide::Response,
                        "to the mass the rod drives: its position and velocity in, the rod force out");
    set_dependencies(rod_, {rod_});
    finish_cylinder({rod_});
  }
  void calc_outputs(Eval& e) const override {
    publish_pressures(e);
    const Motion m = motion(e);
    const Forces F = forces(e, m);
    e.set_out(rod_, mech1d::force, F.total);
    publish_heat(e, m, F);
  }
  void calc_derivatives(Eval& e) const override { chamber_derivatives(e, motion(e)); }

 private:
  Motion motion(const Eval& e) const {
    return {e.in(rod_, mech1d::position) - e.param(x0_), e.in(rod_, mech1d::velocity)};
  }
  RealParam x0_;
  PortId rod_;
};

// Between a point of one body (`base`, the barrel's mount) and a point of another (`rod`,
// the rod eye): L = |r_rod − r_base|, u = (r_rod − r_base)/L, s = L − L_0, v = u·(v_rod −
// v_base). It applies F u at the rod point and −F u at the base point (no torque).
class PlanarCylinder final : public CylinderBase {
 public:
  PlanarCylinder() {
    l0_ = declare_real("retracted_length", "m", std::nullopt, "L_0: distance between the two points at s = 0",
                       Range::positive());
  }
  void configure() override {
    configure_cylinder();
    base_ = declare_port("base", planar_domain(), PortSide::Response, "mount point of the barrel");
    rod_ = declare_port("rod", planar_domain(), PortSide::Response, "rod eye");
    set_dependencies(base_, {base_, rod_});
    set_dependencies(rod_, {base_, rod_});
    length_ = declare_observable("length", "m", "L, distance between the points");
    finish_cylinder({base_, rod_});
  }
  // A barrel from the base's point, a rod to the rod eye's (the report's animation); the
  // barrel is about as long as the cylinder when retracted.
  nlohmann::json sketch() const override {
    return {{"links",
             {{{"kind", "cylinder"}, {"from", "base"}, {"to", "rod"}, {"position", {"x", "y"}},
               {"barrel", netlist_value(l0_)}}}}};
  }
  void calc_outputs(Eval& e) const override {
    publish_pressures(e);
    // The pressures are state outputs, scheduled before the mechanism that places the
    // points: called for them, the points may not be known yet (both at the origin).
    // The forces are then placeholders, recomputed when the mechanism's block calls again.
    const std::optional<Line> l = line(e);
    if (!l) {
      for (PortId p : {rod_, base_})
        for (Var v : {planar::fx, planar::fy, planar::tz}) e.set_out(p, v, 0.0);
      if (has_heat_port()) set_heat_flow(e, 0.0);
      return;
    }
    const Forces F = forces(e, l->motion);
    const double f = F.total;
    e.set_out(rod_, planar::fx, f * l->ux);
    e.set_out(rod_, planar::fy, f * l->uy);
    e.set_out(rod_, planar::tz, 0.0);
    e.set_out(base_, planar::fx, -f * l->ux);
    e.set_out(base_, planar::fy, -f * l->uy);
    e.set_out(base_, planar::tz, 0.0);
    publish_heat(e, l->motion, F);
  }
  void calc_derivatives(Eval& e) const override {
    // Every output is known here: coinciding points are now the model's, not the schedule's.
    const std::optional<Line> l = line(e);
    if (!l) throw SimulationError(e.time(), {name()}, "its two points coincide: the cylinder has no axis");
    chamber_derivatives(e, l->motion);
    e.set_observable(length_, l->motion.s + e.param(l0_));
  }

 private:
  struct Line {
    Motion motion;
    double ux, uy;
  };
  // The line from base to rod; none while the points coincide.
  std::optional<Line> line(const Eval& e) const {
    const double dx = e.in(rod_, planar::x) - e.in(base_, planar::x);
    const double dy = e.in(rod_, planar::y) - e.in(base_, planar::y);
    const double length = std::hypot(dx, dy);
    if (!(length > 0.0)) return std::nullopt;
    const double ux = dx / length, uy = dy / length;
    const double rate = ux * (e.in(rod_, planar::vx) - e.in(base_, planar::vx)) +
                        uy * (e.in(rod_, planar::vy) - e.in(base_, planar::vy));
    return Line{{length - e.param(l0_), rate}, ux, uy};
  }
  RealParam l0_;
  PortId base_, rod_;
  ObservableId length_;
};

void register_cylinders(Registry& r) {
  r.add<Cylinder>("hydraulic.cylinder",
                  "double-acting cylinder on a 1D mass: two chambers, friction, end stops, leakage");
  r.add<PlanarCylinder>("hydraulic.planar_cylinder",
                        "double-acting cylinder as a force element between two points of planar bodies");
}

}  // namespace jourdain::hydraulic_library
