// Pressure-actuated valves: relief valve, check valve, pilot-operated check valve (the
// press's prefill valve), counterbalance (support) valve, and the pressure compensator
// of load-sensing circuits.
//
// Each is an orifice (orifice_flow: turbulent with a laminar region) whose area follows
// the force balance on its poppet or spool, written per unit seat area as a pressure
// "drive" Π: the part opens when Π > 0 and is fully open at Π = Δp_open. Optional
// first-order dynamics let the opening lag behind Π (HydraulicComponent dynamics).
#include "hydraulic_library.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::hydraulic_library {

namespace {

// Opening fraction of a poppet driven by Π: 0 closed, 1 fully open at Π = full.
double opening_fraction(double drive, double full) { return std::clamp(drive / full, 0.0, 1.0); }

// A seat valve whose poppet opening (a fraction, 0 to 1) follows its target, the force
// balance's opening_fraction, at once or with a first-order lag.
class PoppetValve : public FlowPath {
 protected:
  // configure(), after declare_flow_path: the poppet's state (with dynamics) and observable.
  void declare_poppet(const std::string& what) {
    configure_dynamics("opening_state", "", what + " opening fraction (first order)");
    opening_ = declare_observable("opening", "", what + " opening fraction");
  }
  virtual double target(const Eval& e) const = 0;
  double opening(const Eval& e) const { return std::clamp(dynamic_position(e, target(e)), 0.0, 1.0); }
  void calc_other_derivatives(Eval& e) const override {
    dynamic_derivatives(e, target(e));
    e.set_observable(opening_, opening(e));
  }

 private:
  ObservableId opening_;
};

}  // namespace

// Relief valve from p to t, characterised as in catalogues by its cracking pressure p_c
// and its pressure–flow gradient G: in steady state
//   q = G (Δp − p_c)  for Δp = p_p − p_t > p_c,   0 below.
// The valve's opening is an overpressure y (Pa): y = Δp − p_c in steady state, and the
// flow passes an orifice whose area gives q = G y at Δp = p_c + y:
//   A(y) = G y / (C_d sqrt(2 (p_c + y) / ρ)),   q = orifice_flow(C_d, A(y), Δp)
// (no reverse flow: q = 0 for Δp <= 0). With dynamics, y follows its target with a time
// constant or a natural frequency (the poppet's mass and spring); with hysteresis h the
// poppet also needs a force margin to move (dead zone of half-width w = h/2):
//   target T = max(Δp − p_c + w, −w),   T_f dy/dt = dz(T − y, w)
// so the valve opens at p_c when the pressure rises and recloses at p_c − h when it
// falls. Rising, the steady flow is G (Δp − p_c); falling, the poppet stays open for
// y = Δp − p_c + h and passes G y sqrt(Δp / (p_c + y)).
// The proportional relief valve ("control": "signal") takes its setting from the input
// `command` u, as a solenoid's force on the poppet does, linear between the catalogue's
// lowest and highest settings: p_c = p_min + (p_max − p_min) clamp(u, 0, 1), with p_max
// the `cracking_pressure`.
class ReliefValve final : public FlowPath {
 public:
  ReliefValve() {
    p_c_ = declare_real("cracking_pressure", "Pa", std::nullopt, "p_c: pressure drop at which the valve opens",
                        Range::positive());
    gradient_ = declare_real("gradient", "m^3/s/Pa", 1e-8,
                             "G: flow per pascal above the cracking pressure (e.g. \"6 L/min/bar\")",
                             Range::positive());
    hysteresis_ = declare_real("hysteresis", "Pa", 0.0, "h: the valve recloses h below p_c (needs dynamics)",
                               Range::non_negative());
    declare_text("control", "none",
                 "none: a fixed setting; signal: proportional, p_c = p_min + (cracking_pressure − p_min) clamp(u, 0, 1) "
                 "from the input 'command'",
                 {"none", "signal"});
    p_min_ = declare_real("min_pressure", "Pa", 0.0, "p_min: the proportional valve's setting at command 0",
                          Range::non_negative());
    declare_orifice_parameters("C_d of the poppet's orifice");
    declare_dynamics_parameters("none");
  }
  void configure() override {
    // The flow reads both pressures, whether the opening is a state or follows them.
    declare_flow_path("p", "inlet (the pressure limited)", "t", "outlet (tank)", "flow from p to t");
    if (text("control") == "signal") command_ = declare_flow_signal("command", "setting command u, 0 to 1");
    configure_dynamics("opening_state", "Pa", "poppet position, as the overpressure y it opens for");
    opening_ = declare_observable("opening", "Pa", "overpressure y the poppet is open for (0: closed)",
                                  "overpressure");
    finish_configure();
  }

 private:
  void calc_derived(Eval& e) const override {
    HydraulicComponent::calc_derived(e);
    if (e.param(hysteresis_) > 0.0 && !has_dynamics())
      parameter_error("hysteresis", "needs \"dynamics\": \"first_order\" or \"second_order\" (the poppet must move)");
    if (command_.valid() && !(e.param(p_min_) < e.param(p_c_)))
      parameter_error("min_pressure", "must be below the cracking pressure, the setting at full command");
  }
  // The setting p_c: fixed, or from the command (the file comment).
  double cracking(const Eval& e) const {
    if (!command_.valid()) return e.param(p_c_);
    const double u = std::clamp(e.in(command_, signal::value), 0.0, 1.0);
    return e.param(p_min_) + (e.param(p_c_) - e.param(p_min_)) * u;
  }
  // w = h/2, the dead zone's half-width.
  double half_width(const Eval& e) const { return e.param(hysteresis_) / 2.0; }
  void calc_other_derivatives(Eval& e) const override {
    dynamic_derivatives(e, target(e), half_width(e));
    e.set_observable(opening_, opening(e));
  }
  double target(const Eval& e) const {
    const double w = half_width(e);
    return std::max(pressure_drop(e) - cracking(e) + w, -w);
  }
  double opening(const Eval& e) const { return std::max(dynamic_position(e, target(e)), 0.0); }
  double flow(const Eval& e) const override {
    const double dp = pressure_drop(e), y = opening(e);
    if (dp <= 0.0 || y <= 0.0) return 0.0;
    const double area = e.param(gradient_) * y /
                        (discharge_coefficient(e) * std::sqrt(2.0 * (cracking(e) + y) / fluid(e).density));
    return orifice(e, area, dp);
  }

  RealParam p_c_, gradient_, hysteresis_, p_min_;
  PortId command_;
  ObservableId opening_;
};

// Check valve, free flow from a to b: a poppet on a spring opens when Δp = p_a − p_b
// exceeds the cracking pressure p_c and is fully open Δp_open above it:
//   A = A_max clamp((Δp − p_c) / Δp_open, 0, 1),   q = orifice_flow(C_d, A, Δp)
// With first-order dynamics the opening lags behind (a poppet still open may let a
// little flow back while it closes).
class CheckValve final : public PoppetValve {
 public:
  CheckValve() {
    p_c_ = declare_real("cracking_pressure", "Pa", 0.1e6, "p_c", Range::non_negative());
    full_ = declare_real("full_open_pressure", "Pa", 0.5e6, "Δp_open: pressure above p_c at which it is fully open",
                         Range::positive());
    declare_area_parameters("max_area", "the open seat", 1e-4);
    declare_orifice_parameters("C_d");
    declare_dynamics_parameters("none", /*second_order_allowed=*/false);
  }
  void configure() override {
    declare_flow_path("a", "inlet (free flow a -> b)", "b", "outlet", "flow from a to b");
    declare_poppet("poppet");
    finish_configure();
  }

 private:
  double target(const Eval& e) const override {
    return opening_fraction(pressure_drop(e) - e.param(p_c_), e.param(full_));
  }
  double flow(const Eval& e) const override { return orifice(e, opening_area(e) * opening(e), pressure_drop(e)); }

  RealParam p_c_, full_;
};

// Pilot-operated check valve (a press's prefill or surge valve, the make-up valves of a
// pump-controlled cylinder): free flow from a to b like a check valve; a pilot piston of
// φ times the seat area, pressurised from x and vented to a, pushes the poppet open
// against the pressure of b, so that flow may also go from b to a. The pilot piston is
// free of the poppet: it can push it, never pull it shut, so with p_x below p_a the
// valve is a plain check valve. Per unit seat area, the main poppet's drive is
//   Π = (p_a − p_b) + φ max(p_x − p_a, 0) − p_c,   A = A_max clamp(Π / Δp_open, 0, 1).
// An optional decompression poppet inside the main one (area A_d, pilot ratio φ_d >> φ:
// its small seat needs little force) opens first, at Π_d = (p_a − p_b) +
// φ_d max(p_x − p_a, 0) − p_c > 0: it bleeds the compressed oil of b through a small area while the main
// poppet, held shut by p_b, cannot open yet. The flow passes both areas in parallel:
//   q = orifice_flow(C_d, A + A_d clamp(Π_d / Δp_open, 0, 1), p_a − p_b).
class PilotCheckValve final : public PoppetValve {
 public:
  PilotCheckValve() {
    p_c_ = declare_real("cracking_pressure", "Pa", 0.05e6, "p_c", Range::non_negative());
    full_ = declare_real("full_open_pressure", "Pa", 0.3e6, "Δp_open: drive at which a poppet is fully open",
                         Range::positive());
    declare_area_parameters("max_area", "the main seat", 1e-3);
    phi_ = declare_real("pilot_ratio", "", 3.0, "φ: pilot piston area / main seat area", Range::non_negative());
    area_d_ = declare_real("decompression_area", "m^2", 0.0, "A_d: area of the decompression poppet (0: none)",
                           Range::non_negative());
    phi_d_ = declare_real("decompression_pilot_ratio", "", 20.0, "φ_d: pilot piston area / decompression seat area",
                          Range::non_negative());
    declare_orifice_parameters("C_d");
    declare_dynamics_parameters("none", /*second_order_allowed=*/false);
  }
  void configure() override {
    declare_flow_path("a", "tank side (free flow a -> b)", "b", "cylinder side", "flow from a to b");
    x_ = declare_pilot("x", "pilot (takes no flow)");
    declare_poppet("main poppet");
    decompression_ = declare_observable("decompression_opening", "", "decompression poppet opening fraction");
    finish_configure();
  }

 private:
  void calc_other_derivatives(Eval& e) const override {
    PoppetValve::calc_other_derivatives(e);
    e.set_observable(decompression_, decompression(e));
  }
  // Π of a poppet with pilot ratio φ, per unit seat area.
  double drive(const Eval& e, double phi) const {
    const double pa = from_pressure(e);
    return pa - to_pressure(e) + phi * std::max(e.in(x_, hydraulic::pressure) - pa, 0.0) - e.param(p_c_);
  }
  double target(const Eval& e) const override { return opening_fraction(drive(e, e.param(phi_)), e.param(full_)); }
  double decompression(const Eval& e) const {
    return e.param(area_d_) > 0.0 ? opening_fraction(drive(e, e.param(phi_d_)), e.param(full_)) : 0.0;
  }
  double flow(const Eval& e) const override {
    return orifice(e, opening_area(e) * opening(e) + e.param(area_d_) * decompression(e), pressure_drop(e));
  }

  RealParam p_c_, full_, phi_, area_d_, phi_d_;
  PortId x_;
  ObservableId decompression_;
};

// Counterbalance (support, load-holding) valve between a cylinder chamber (`load`) and
// its directional valve (`valve`). Flow out of the load passes a relief-type poppet set
// at p_set, assisted by a pilot from the opposite line (pilot ratio φ; φ = 0 gives the
// plain support valve of a press, no pilot port):
//   Π = p_load + φ p_pilot − p_set,   A = A_max clamp(Π / Δp_open, 0, 1),
//   q_out = orifice_flow(C_d, A, p_load − p_valve) for p_load > p_valve, else 0;
// flow into the load passes a built-in check valve (cracking p_chk, area A_chk):
//   q_in = orifice_flow(C_d, A_chk clamp((p_valve − p_load − p_chk) / Δp_open, 0, 1), p_valve − p_load).
// The load holds while its pressure stays below p_set: a press slide of weight m g on an
// annulus A2 hangs at p = m g / A2 with p_set above it.
class CounterbalanceValve final : public PoppetValve {
 public:
  CounterbalanceValve() {
    p_set_ = declare_real("setting", "Pa", std::nullopt, "p_set: load pressure at which it opens (with no pilot)",
                          Range::positive());
    // Configuration: a pilot ratio above 0 gives the valve its pilot port.
    declare_config_real("pilot_ratio", "", 0.0, "φ: pilot area / poppet area (0: no pilot port)",
                        Range::non_negative());
    full_ = declare_real("full_open_pressure", "Pa", 1e6, "Δp_open: drive at which the poppet is fully open",
                         Range::positive());
    declare_area_parameters("max_area", "the open poppet", 1e-4);
    p_chk_ = declare_real("check_cracking_pressure", "Pa", 0.05e6, "p_chk of the reverse-flow check",
                          Range::non_negative());
    check_area_ = declare_real("check_area", "m^2", 0.0, "A_chk of the reverse-flow check (0: the poppet's area)",
                               Range::non_negative());
    declare_orifice_parameters("C_d");
    declare_dynamics_parameters("none", /*second_order_allowed=*/false);
  }
  void configure() override {
    phi_ = config_real("pilot_ratio");
    declare_flow_path("load", "cylinder chamber held", "valve", "towards the directional valve",
                      "flow from load to valve");
    if (phi_ > 0.0) pilot_ = declare_pilot("pilot", "pilot line (takes no flow)");
    declare_poppet("poppet");
    finish_configure();
  }

 private:
  double target(const Eval& e) const override {
    const double pilot = pilot_.valid() ? e.in(pilot_, hydraulic::pressure) : 0.0;
    return opening_fraction(from_pressure(e) + phi_ * pilot - e.param(p_set_), e.param(full_));
  }
  double flow(const Eval& e) const override {
    const double dp = pressure_drop(e);
    if (dp > 0.0) return orifice(e, opening_area(e) * opening(e), dp);
    const double check_area = e.param(check_area_) > 0.0 ? e.param(check_area_) : opening_area(e);
    return orifice(e, check_area * opening_fraction(-dp - e.param(p_chk_), e.param(full_)), dp);
  }

  double phi_ = 0.0;  // configuration
  RealParam p_set_, full_, p_chk_, check_area_;
  PortId pilot_;
};


// Two-way pressure compensator, flow from a to b: the pressure-regulating spool of
// load-sensing circuits. Two pilot lines act on the spool's ends, x pushing it open and y
// pushing it shut, and a spring of setting Δp_s (per unit spool area) on the opening side
// (normally open) or on the closing side (normally closed):
//   Π = p_x − p_y + Δp_s   (normally open),     Π = p_x − p_y − Δp_s   (normally closed),
//   A = A_max clamp(Π / Δp_band, 0, 1),           q = orifice_flow(C_d, A, p_a − p_b).
// Δp_band, the regulation band, is the rise of Π from shut to fully open (the spring's
// stiffness over the spool's stroke, per unit area): the droop of the regulated pressure
// between no flow and full flow. Its three uses in a load-sensing circuit
// (components/hydraulic/README.md, "Load sensing"):
//   pre-compensator, ahead of a section's meter-in edge: normally open, x on the section's
//     work port, y on its own outlet b, so that the meter-in edge's drop stays at Δp_s;
//   post-compensator, between the meter-in edge and the work port: normally closed with a
//     light spring, x on its inlet a, y on the LS line, so that every section's
//     intermediate pressure rises to the highest load's and all meter-in edges see the
//     same drop p_P − p_LS: the flows share in the ratio of the openings;
//   unloading (bypass) valve of a fixed pump: normally closed, a and x on the pump line,
//     b to tank, y on the LS line: it passes what the loads do not take at p_LS + Δp_s.
class PressureCompensator final : public PoppetValve {
 public:
  PressureCompensator() {
    setting_ = declare_real("setting", "Pa", std::nullopt,
                            "Δp_s: the spring's pressure, per unit spool area (the regulated drop)",
                            Range::non_negative());
    declare_boolean("normally_open", true,
                    "true: the spring holds the spool open (pre-compensator); false: shut (post-compensator, "
                    "unloading valve)");
    band_ = declare_real("regulation_band", "Pa", 1e5, "Δp_band: rise of the drive from shut to fully open",
                         Range::positive());
    declare_area_parameters("max_area", "the fully open spool", 1e-4);
    declare_orifice_parameters("C_d");
    declare_dynamics_parameters("none", /*second_order_allowed=*/false);
    set_example("setting", "15 bar");
  }
  void configure() override {
    spring_sign_ = boolean("normally_open") ? 1.0 : -1.0;
    declare_flow_path("a", "inlet", "b", "outlet", "flow from a to b");
    x_ = declare_pilot("x", "pilot pushing the spool open (takes no flow)");
    y_ = declare_pilot("y", "pilot pushing the spool shut (takes no flow)");
    declare_poppet("spool");
    finish_configure();
  }

 private:
  double target(const Eval& e) const override {
    const double drive =
        e.in(x_, hydraulic::pressure) - e.in(y_, hydraulic::pressure) + spring_sign_ * e.param(setting_);
    return opening_fraction(drive, e.param(band_));
  }
  double flow(const Eval& e) const override { return orifice(e, opening_area(e) * opening(e), pressure_drop(e)); }

  double spring_sign_ = 1.0;  // configuration: +1 normally open, −1 normally shut
  RealParam setting_, band_;
  PortId x_, y_;
};

// Shuttle valve, the highest-pressure selector of a load-sensing line: N inlets in1 ... inN
// and an outlet out. Each inlet reaches the outlet through a seat that only its own
// higher pressure opens (the ball of a two-way shuttle, a check of a shuttle network), so
// that no flow goes back into an inlet below the outlet:
//   q_i = orifice_flow(C_d, A clamp((p_i − p_out) / Δp_open, 0, 1), p_i − p_out),
//   q_out = Σ q_i.
// On an LS line that a bleed orifice drains to tank, the line settles just below the
// highest inlet's pressure, by the drop that passes the bleed's flow.
class ShuttleValve final : public HydraulicComponent {
 public:
  ShuttleValve() {
    declare_integer("inputs", 2, "number N of inlets (in1 ... inN)", Range::between(2, 64));
    full_ = declare_real("full_open_pressure", "Pa", 1e5, "Δp_open: drop at which an inlet's seat is fully open",
                         Range::positive());
    declare_area_parameters("area", "each open seat", 2e-6);
    declare_orifice_parameters("C_d of the seats");
    declare_heat_port_parameter("true: a thermal port 'heat' returns the throttling loss Σ (p_i − p_out) q_i");
  }
  void configure() override {
    const long n = integer("inputs");
    out_ = declare_port("out", hydraulic_domain(), PortSide::Response, "outlet: the highest inlet pressure");
    std::vector<PortId> reads{out_};
    for (long i = 1; i <= n; ++i) {
      inputs_.push_back(declare_port("in" + std::to_string(i), hydraulic_domain(), PortSide::Response,
                                     "inlet " + std::to_string(i)));
      reads.push_back(inputs_.back());
    }
    power_loss_ = declare_throttling(reads, reads, "throttling loss Σ (p_i − p_out) q_i, turned into heat");
    flow_ = declare_observable("flow", "m^3/s", "flow delivered at the outlet, Σ q_i");
    finish_configure();
  }
  void calc_outputs(Eval& e) const override {
    const double p_out = e.in(out_, hydraulic::pressure);
    double total = 0.0, loss = 0.0;
    for (PortId in : inputs_) {
      const double q = inlet_flow(e, e.in(in, hydraulic::pressure) - p_out);
      e.set_out(in, hydraulic::flow_rate, -q);
      total += q;
      loss += (e.in(in, hydraulic::pressure) - p_out) * q;
    }
    e.set_out(out_, hydraulic::flow_rate, total);
    if (has_heat_port()) set_heat_flow(e, loss);
  }
  void calc_derivatives(Eval& e) const override {
    const double p_out = e.in(out_, hydraulic::pressure);
    double loss = 0.0;
    for (PortId in : inputs_) loss += (p_out - e.in(in, hydraulic::pressure)) * e.out(in, hydraulic::flow_rate);
    e.set_observable(flow_, e.out(out_, hydraulic::flow_rate));
    e.set_observable(power_loss_, loss);
  }

 private:
  double inlet_flow(const Eval& e, double dp) const {
    if (dp <= 0.0) return 0.0;
    return orifice(e, opening_area(e) * opening_fraction(dp, e.param(full_)), dp);
  }

  RealParam full_;
  PortId out_;
  std::vector<PortId> inputs_;
  ObservableId flow_, power_loss_;
};

// Pressure-reducing valve, holding its outlet a at the setting p_r: a spool that the
// outlet's pressure pushes shut against a spring. Its reducing edge P → A opens as p_a
// falls below p_r, and (three-way) its relieving edge A → T opens as p_a rises above
// p_r, over the same regulation band Δp_band:
//   A_PA = A_max clamp((p_r − p_a) / Δp_band, 0, 1),   A_AT = A_max clamp((p_a − p_r) / Δp_band, 0, 1),
//   q_PA = orifice_flow(C_d, A_PA, p_p − p_a),           q_AT = orifice_flow(C_d, A_AT, p_a − p_t).
// So p_a droops below p_r by the opening the outlet's flow needs and rises above it by
// what the relieving edge must pass. A proportional valve ("control": "signal") takes
// p_r = p_r,max clamp(u, 0, 1) from the input `command`, p_r,max being the `setting`.
// Optional first-order dynamics of the spool lag the target opening (HydraulicComponent).
class PressureReducingValve final : public HydraulicComponent {
 public:
  PressureReducingValve() {
    setting_ = declare_real("setting", "Pa", std::nullopt, "p_r: the outlet pressure held (at full command)",
                            Range::positive());
    band_ = declare_real("regulation_band", "Pa", 5e5, "Δp_band: pressure change from shut to fully open",
                         Range::positive());
    declare_boolean("three_way", true, "true: a relieving edge A → T keeps p_a from rising above p_r (port t)");
    declare_text("control", "none", "none: a fixed setting; signal: p_r = setting clamp(u, 0, 1), input 'command'",
                 {"none", "signal"});
    declare_area_parameters("max_area", "each fully open edge", 2e-5);
    declare_orifice_parameters("C_d of the edges");
    declare_dynamics_parameters("none", /*second_order_allowed=*/false);
    declare_heat_port_parameter("true: a thermal port 'heat' returns the throttling loss −Σ p q as heat flow");
    set_example("setting", "30 bar");
  }
  void configure() override {
    p_ = declare_port("p", hydraulic_domain(), PortSide::Response, "inlet P (the supply)");
    a_ = declare_port("a", hydraulic_domain(), PortSide::Response, "outlet A (the reduced pressure)");
    if (boolean("three_way")) t_ = declare_port("t", hydraulic_domain(), PortSide::Response, "tank port T");
    std::vector<PortId> reads{p_, a_};
    if (t_.valid()) reads.push_back(t_);
    if (text("control") == "signal") {
      command_ = declare_port("command", signal_domain(), PortSide::Response, "setting command u, 0 to 1");
      reads.push_back(command_);
    }
    configure_dynamics("spool", "", "spool position: the reducing edge's opening minus the relieving one's");
    if (has_dynamics()) std::erase(reads, command_);
    std::vector<PortId> ports{p_, a_};
    if (t_.valid()) ports.push_back(t_);
    power_loss_ = declare_throttling(ports, reads, "throttling loss −Σ p q, turned into heat");
    position_ = declare_observable("position", "", "spool position: > 0 reducing edge open, < 0 relieving edge open");
    flow_a_ = declare_observable("flow_a", "m^3/s", "flow delivered into the element at a");
    finish_configure();
  }
  void calc_outputs(Eval& e) const override {
    const Flows f = flows(e);
    e.set_out(p_, hydraulic::flow_rate, -f.reducing);
    e.set_out(a_, hydraulic::flow_rate, f.reducing - f.relieving);
    if (t_.valid()) e.set_out(t_, hydraulic::flow_rate, f.relieving);
    if (has_heat_port()) set_heat_flow(e, loss(e, f));
  }
  void calc_derivatives(Eval& e) const override {
    dynamic_derivatives(e, target(e));
    const Flows f = flows(e);
    e.set_observable(position_, position(e));
    e.set_observable(flow_a_, f.reducing - f.relieving);
    e.set_observable(power_loss_, loss(e, f));
  }

 private:
  struct Flows {
    double reducing, relieving;  // P → A and A → T
  };
  double setting(const Eval& e) const {
    return command_.valid() ? e.param(setting_) * std::clamp(e.in(command_, signal::value), 0.0, 1.0)
                            : e.param(setting_);
  }
  // The spool's target, (p_r − p_a)/Δp_band clamped to [−1, 1] (−1 only when three-way).
  double target(const Eval& e) const {
    const double x = (setting(e) - e.in(a_, hydraulic::pressure)) / e.param(band_);
    return std::clamp(x, t_.valid() ? -1.0 : 0.0, 1.0);
  }
  double position(const Eval& e) const { return dynamic_position(e, target(e)); }
  Flows flows(const Eval& e) const {
    const double x = position(e), full = opening_area(e), pa = e.in(a_, hydraulic::pressure);
    Flows f{orifice(e, full * std::clamp(x, 0.0, 1.0), e.in(p_, hydraulic::pressure) - pa), 0.0};
    if (t_.valid()) f.relieving = orifice(e, full * std::clamp(-x, 0.0, 1.0), pa - e.in(t_, hydraulic::pressure));
    return f;
  }
  double loss(const Eval& e, const Flows& f) const {
    const double pa = e.in(a_, hydraulic::pressure);
    double l = (e.in(p_, hydraulic::pressure) - pa) * f.reducing;
    if (t_.valid()) l += (pa - e.in(t_, hydraulic::pressure)) * f.relieving;
    return l;
  }

  RealParam setting_, band_;
  PortId p_, a_, t_, command_;
  ObservableId position_, flow_a_, power_loss_;
};

void register_pressure_valves(Registry& r) {
  r.add<ReliefValve>(
      "hydraulic.relief_valve",
      "relief valve: cracking pressure (fixed or proportional), pressure-flow gradient, poppet dynamics, hysteresis");
  r.add<CheckValve>("hydraulic.check_valve", "check valve: free flow a -> b above its cracking pressure");
  r.add<PilotCheckValve>("hydraulic.pilot_check_valve",
                         "pilot-operated check valve (prefill valve), with an optional decompression poppet");
  r.add<CounterbalanceValve>("hydraulic.counterbalance_valve",
                             "counterbalance / support valve: holds a load up to its setting, free reverse flow");
  r.add<PressureCompensator>("hydraulic.pressure_compensator",
                             "two-way pressure compensator: pre- or post-compensator, unloading valve (load sensing)");
  r.add<PressureReducingValve>("hydraulic.pressure_reducing_valve",
                               "pressure-reducing valve, two- or three-way, fixed or proportional setting");
  r.add<ShuttleValve>("hydraulic.shuttle_valve", "shuttle valve: highest-pressure selector with N inlets (LS line)");
}

}  // namespace jourdain::hydraulic_library
