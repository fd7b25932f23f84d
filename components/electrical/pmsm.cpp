// Permanent-magnet synchronous machine in the rotor's dq frame, fed by an averaged
// three-phase inverter from a DC bus, and its field-oriented current controller.
//
// Machine (amplitude-invariant Park transform: the dq amplitudes are the phase
// amplitudes, and the air-gap power is 3/2 of the dq products; e.g. Krause, "Analysis of
// Electric Machinery", ch. 15):
//
//   L_d di_d/dt = v_d − R i_d + p ω L_q i_q
//   L_q di_q/dt = v_q − R i_q − p ω (L_d i_d + ψ)
//   τ = 3/2 p (ψ i_q + (L_d − L_q) i_d i_q)
//   J dω/dt = τ − b ω + τ_load,   dφ/dt = ω
//
// with p the pole pairs, ψ the magnets' flux linkage and ω the mechanical speed.
//
// Inverter (averaged over the switching period): it applies the commanded v_d*, v_q*
// within the linear range of space-vector modulation, |v| ≤ v_dc/√3 (a longer command
// is scaled down to that circle), and draws from the bus the power the machine takes plus
// its losses at a constant efficiency η:
//
//   P_ac = 3/2 (v_d i_d + v_q i_q),   P_dc = P_ac/η (P_ac ≥ 0) or η P_ac (regenerating)
//   i_dc = P_dc / max(v_dc, v_min)                 from dc_p to dc_n through the inverter
//
// Machine and inverter are one component: the three-phase side has no domain of its own,
// and a signal carries no power, so keeping them together keeps the energy balance
// through ports (DC pins, shaft, heat port). Energy: stored 3/4 (L_d i_d² + L_q i_q²) and
// ½ J ω²; losses 3/2 R (i_d² + i_q²) (copper), b ω² (friction), P_dc − P_ac (inverter).
//
// Field-oriented current controller (a component of its own, signals only): i_d* = 0,
// i_q* = τ*/(3/2 p ψ) from the torque command (a surface machine's torque per ampere; the
// reluctance torque is not used), a PI per axis with decoupling,
//
//   v_d* = k_p,d e_d + ∫ k_i e_d − p ω L_q i_q
//   v_q* = k_p,q e_q + ∫ k_i e_q + p ω (L_d i_d + ψ),   e = i* − i,
//
// tuned by the current-loop bandwidth ω_c: k_p = ω_c L, k_i = ω_c R cancel the
// winding's pole, so that with exact parameters each loop is i/i* = ω_c/(s + ω_c). The
// command is limited to |v*| ≤ voltage_limit, and the integrators track that limit
// (back-calculation, gain ω_c) so that they do not wind up.
#include <algorithm>
#include <cmath>
#include <limits>

#include "electrical_library.hpp"

namespace jourdain::electrical_library {

namespace {

// (a, b) scaled down to length `limit` if longer: the scale factor.
double circle_scale(double a, double b, double limit) {
  const double m = std::hypot(a, b);
  return m > limit ? limit / m : 1.0;
}

}  // namespace

class PmsmDrive final : public HeatPortComponent {
 public:
  PmsmDrive() {
    r_ = declare_real("resistance", kOhm, 0.1, "phase resistance R (Ω, written V/A)", Range::positive());
    ld_ = declare_real("ld", kHenry, 1e-3, "d-axis inductance L_d (H, written V*s/A)", Range::positive());
    lq_ = declare_real("lq", kHenry, 1e-3, "q-axis inductance L_q (H, written V*s/A)", Range::positive());
    psi_ = declare_real("flux_linkage", "V*s", 0.1, "magnets' flux linkage ψ (peak, per phase)", Range::positive());
    declare_integer("pole_pairs", 4, "number of pole pairs p", Range::between(1, 100));
    j_ = declare_real("inertia", "kg*m^2", 0.01, "rotor inertia J", Range::positive());
    b_ = declare_real("viscous_friction", "N*m*s/rad", 0.0, "viscous friction coefficient b", Range::non_negative());
    eta_ = declare_real("efficiency", "", 0.97, "inverter efficiency η, both ways", Range::between(1e-3, 1.0));
    v_min_ = declare_real("min_dc_voltage", "V", 1.0,
                          "bus voltage below which the DC current is taken as at this voltage (caps it)",
                          Range::positive());
    declare_heat_port_parameter("true: a thermal port 'heat' returns the machine's and inverter's losses");
  }
  void configure() override {
    poles_ = static_cast<double>(integer("pole_pairs"));
    dc_p_ = declare_port("dc_p", electrical_domain(), PortSide::Response, "DC bus +, to a node-side element");
    dc_n_ = declare_port("dc_n", electrical_domain(), PortSide::Response, "DC bus −, to a node-side element");
    vd_in_ = declare_port("v_d", signal_domain(), PortSide::Response, "d-axis voltage command v_d* (V)");
    vq_in_ = declare_port("v_q", signal_domain(), PortSide::Response, "q-axis voltage command v_q* (V)");
    for (PortId p : {dc_p_, dc_n_}) set_dependencies(p, {dc_p_, dc_n_, vd_in_, vq_in_});
    id_out_ = declare_port("i_d_out", signal_domain(), PortSide::State, "d-axis current i_d, for a controller (A)");
    iq_out_ = declare_port("i_q_out", signal_domain(), PortSide::State, "q-axis current i_q, for a controller (A)");
    w_out_ = declare_port("w_out", signal_domain(), PortSide::State, "rotor speed ω, for a controller (rad/s)");
    set_unit(id_out_, "A");
    set_unit(iq_out_, "A");
    set_unit(w_out_, "rad/s");
    shaft_ = declare_port("shaft", rotational_domain(), PortSide::State,
                          "rotor: gives its angle and speed, takes the load torques (any number of connections)");
    for (PortId p : {id_out_, iq_out_, w_out_, shaft_}) set_dependencies(p, {});
    configure_heat_port("to a heat capacity: returns the copper, friction and inverter losses",
                        {dc_p_, dc_n_, vd_in_, vq_in_});
    id_ = declare_state("i_d", "A", 0.0, "d-axis current");
    iq_ = declare_state("i_q", "A", 0.0, "q-axis current");
    w_ = declare_state("w", "rad/s", 0.0, "rotor speed (mechanical)");
    phi_ = declare_state("phi", "rad", 0.0, "rotor angle (mechanical)");
    declare_state_output(id_out_, signal::value, id_);
    declare_state_output(iq_out_, signal::value, iq_);
    declare_state_output(w_out_, signal::value, w_);
    declare_state_output(shaft_, rotational::angle, phi_);
    declare_state_output(shaft_, rotational::speed, w_);
    torque_ = declare_observable("torque", "N*m", "electromagnetic torque τ");
    vd_ = declare_observable("v_d", "V", "d-axis voltage applied (after the inverter's limit)");
    vq_ = declare_observable("v_q", "V", "q-axis voltage applied");
    modulation_ = declare_observable("modulation", "", "|v| / (v_dc/√3): 1 at the inverter's limit");
    dc_current_ = declare_observable("dc_current", "A", "current drawn from the bus, in at dc_p");
    ac_power_ = declare_observable("ac_power", "W", "power into the machine's windings, 3/2 (v_d i_d + v_q i_q)");
    copper_ = declare_observable("copper_loss", "W", "3/2 R (i_d² + i_q²)");
    friction_ = declare_observable("friction_loss", "W", "b ω²");
    inverter_ = declare_observable("inverter_loss", "W", "P_dc − P_ac");
    magnetic_ = declare_observable("magnetic_energy", "J", "3/4 (L_d i_d² + L_q i_q²)");
    kinetic_ = declare_observable("kinetic_energy", "J", "½ J ω²");
    // With a heat port, the losses leave through it (port power).
    for (ObservableId o : {copper_, friction_, inverter_}) set_loss_role(o);
    for (ObservableId o : {magnetic_, kinetic_}) set_energy_role(o, EnergyRole::Stored);
  }
  void calc_outputs(Eval& e) const override {
    const Applied a = applied(e);
    e.set_out(dc_p_, electrical::current, -a.i_dc);
    e.set_out(dc_n_, electrical::current, a.i_dc);
    if (has_heat_port()) set_heat_flow(e, losses(e, a));
  }
  void calc_derivatives(Eval& e) const override {
    const Applied a = applied(e);
    const double id = e.state(id_), iq = e.state(iq_), w = e.state(w_);
    const double r = e.param(r_), ld = e.param(ld_), lq = e.param(lq_), psi = e.param(psi_), we = poles_ * w;
    const double torque = 1.5 * poles_ * (psi * iq + (ld - lq) * id * iq);
    e.set_derivative(id_, (a.vd - r * id + we * lq * iq) / ld);
    e.set_derivative(iq_, (a.vq - r * iq - we * (ld * id + psi)) / lq);
    e.set_derivative(w_, (torque - e.param(b_) * w + e.in(shaft_, rotational::torque)) / e.param(j_));
    e.set_derivative(phi_, w);
    if (!e.observables_wanted()) return;
    e.set_observable(torque_, torque);
    e.set_observable(vd_, a.vd);
    e.set_observable(vq_, a.vq);
    e.set_observable(modulation_, a.v_dc > 0.0 ? std::hypot(a.vd, a.vq) / (a.v_dc / std::sqrt(3.0)) : 0.0);
    e.set_observable(dc_current_, a.i_dc);
    e.set_observable(ac_power_, a.p_ac);
    e.set_observable(copper_, copper_loss(e));
    e.set_observable(friction_, e.param(b_) * w * w);
    e.set_observable(inverter_, a.p_dc - a.p_ac);
    e.set_observable(magnetic_, 0.75 * (ld * id * id + lq * iq * iq));
    e.set_observable(kinetic_, 0.5 * e.param(j_) * w * w);
  }

 private:
  struct Applied {
    double v_dc, vd, vq, p_ac, p_dc, i_dc;
  };
  // What the inverter applies and draws, from the commands, the bus and the currents.
  Applied applied(const Eval& e) const {
    Applied a{};
    a.v_dc = e.in(dc_p_, electrical::voltage) - e.in(dc_n_, electrical::voltage);
    const double vd = e.in(vd_in_, signal::value), vq = e.in(vq_in_, signal::value);
    const double scale = circle_scale(vd, vq, std::max(a.v_dc, 0.0) / std::sqrt(3.0));
    a.vd = scale * vd;
    a.vq = scale * vq;
    a.p_ac = 1.5 * (a.vd * e.state(id_) + a.vq * e.state(iq_));
    const double eta = e.param(eta_);
    a.p_dc = a.p_ac >= 0.0 ? a.p_ac / eta : a.p_ac * eta;
    a.i_dc = a.p_dc / std::max(a.v_dc, e.param(v_min_));
    return a;
  }
  double copper_loss(const Eval& e) const {
    const double id = e.state(id_), iq = e.state(iq_);
    return 1.5 * e.param(r_) * (id * id + iq * iq);
  }
  double losses(const Eval& e, const Applied& a) const {
    const double w = e.state(w_);
    return copper_loss(e) + e.param(b_) * w * w + (a.p_dc - a.p_ac);
  }

  double poles_ = 1.0;
  RealParam r_, ld_, lq_, psi_, j_, b_, eta_, v_min_;
  PortId dc_p_, dc_n_, vd_in_, vq_in_, id_out_, iq_out_, w_out_, shaft_;
  StateId id_, iq_, w_, phi_;
  ObservableId torque_, vd_, vq_, modulation_, dc_current_, ac_power_, copper_, friction_, inverter_, magnetic_,
      kinetic_;
};

class FocController final : public Component {
 public:
  FocController() {
    r_ = declare_real("resistance", kOhm, 0.1, "machine's phase resistance R, for the tuning", Range::positive());
    ld_ = declare_real("ld", kHenry, 1e-3, "machine's L_d, for the tuning and the decoupling", Range::positive());
    lq_ = declare_real("lq", kHenry, 1e-3, "machine's L_q, for the tuning and the decoupling", Range::positive());
    psi_ = declare_real("flux_linkage", "V*s", 0.1, "machine's ψ, for the decoupling and i_q* = τ*/(3/2 p ψ)",
                        Range::positive());
    declare_integer("pole_pairs", 4, "machine's pole pairs p", Range::between(1, 100));
    wc_ = declare_real("bandwidth", "rad/s", 1000.0, "current-loop bandwidth ω_c: k_p = ω_c L, k_i = ω_c R",
                       Range::positive());
    v_lim_ = declare_real("voltage_limit", "V", std::numeric_limits<double>::infinity(),
                          "largest |v*| commanded (the inverter's v_dc/√3); the integrators track it",
                          Range::positive());
  }
  void configure() override {
    poles_ = static_cast<double>(integer("pole_pairs"));
    torque_in_ = declare_port("torque", signal_domain(), PortSide::Response, "torque command τ* (N·m)");
    id_in_ = declare_port("i_d", signal_domain(), PortSide::Response, "measured i_d (A)");
    iq_in_ = declare_port("i_q", signal_domain(), PortSide::Response, "measured i_q (A)");
    w_in_ = declare_port("w", signal_domain(), PortSide::Response, "measured rotor speed ω (rad/s)");
    vd_out_ = declare_port("v_d", signal_domain(), PortSide::State, "d-axis voltage command v_d* (V)");
    vq_out_ = declare_port("v_q", signal_domain(), PortSide::State, "q-axis voltage command v_q* (V)");
    set_unit(vd_out_, "V");
    set_unit(vq_out_, "V");
    xd_ = declare_state("x_d", "V", 0.0, "d-axis integrator, ∫ k_i e_d");
    xq_ = declare_state("x_q", "V", 0.0, "q-axis integrator, ∫ k_i e_q");
    id_ref_ = declare_observable("i_d_ref", "A", "i_d* = 0");
    iq_ref_ = declare_observable("i_q_ref", "A", "i_q* = τ*/(3/2 p ψ)");
  }
  void calc_outputs(Eval& e) const override {
    const Command c = command(e);
    e.set_out(vd_out_, signal::value, c.scale * c.vd);
    e.set_out(vq_out_, signal::value, c.scale * c.vq);
  }
  void calc_derivatives(Eval& e) const override {
    const Command c = command(e);
    const double wc = e.param(wc_), ki = wc * e.param(r_);
    // Back-calculation: the integrators follow what the limit took off the command.
    e.set_derivative(xd_, ki * c.ed + wc * (c.scale - 1.0) * c.vd);
    e.set_derivative(xq_, ki * c.eq + wc * (c.scale - 1.0) * c.vq);
    e.set_observable(id_ref_, 0.0);
    e.set_observable(iq_ref_, iq_ref(e));
  }

 private:
  struct Command {
    double ed, eq, vd, vq, scale;
  };
  double iq_ref(const Eval& e) const {
    return e.in(torque_in_, signal::value) / (1.5 * poles_ * e.param(psi_));
  }
  Command command(const Eval& e) const {
    Command c{};
    const double id = e.in(id_in_, signal::value), iq = e.in(iq_in_, signal::value);
    const double we = poles_ * e.in(w_in_, signal::value), wc = e.param(wc_);
    const double ld = e.param(ld_), lq = e.param(lq_);
    c.ed = 0.0 - id;
    c.eq = iq_ref(e) - iq;
    c.vd = wc * ld * c.ed + e.state(xd_) - we * lq * iq;
    c.vq = wc * lq * c.eq + e.state(xq_) + we * (ld * id + e.param(psi_));
    c.scale = circle_scale(c.vd, c.vq, e.param(v_lim_));
    return c;
  }

  double poles_ = 1.0;
  RealParam r_, ld_, lq_, psi_, wc_, v_lim_;
  PortId torque_in_, id_in_, iq_in_, w_in_, vd_out_, vq_out_;
  StateId xd_, xq_;
  ObservableId id_ref_, iq_ref_;
};

void register_pmsm(Registry& r) {
  r.add<PmsmDrive>("electrical.pmsm_drive",
                   "PMSM in the dq frame fed by an averaged three-phase inverter from a DC bus (efficiency η)");
  r.add<FocController>("electrical.foc_controller",
                       "field-oriented current control of a PMSM: i_d* = 0, PI per axis with decoupling");
}

}  // namespace jourdain::electrical_library
