// Pipes and hoses: a chain of nodes (capacitances) joined by links (friction and the
// inertia of the oil column). Two types share the chain (Conduit):
//
//   hydraulic.pipe   short lines, lumped in N segments, steady friction, inertance optional;
//   hydraulic.line   long lines and hoses whose pressure waves matter: N finite-volume
//                    cells on a staggered grid (the links between cell centres), always
//                    with inertance, with frequency-dependent friction (Zielke's weighting
//                    function as a sum of exponentials, one state per term and link).
//
// A line of length L and inner diameter d holds V = A L, A = π d²/4. Each node integrates
//   dp/dt = β_e/V_node Σq,    1/β_e = 1/β(p) + 1/β_wall   (Chamber: entrained air and the
//                                                          vapour cavity included)
// and each link of length l carries a flow q with
//   (ρ l / A) dq/dt = p_up − p_down − Δp_f(q) − Δp_u        (with inertance, an RLC line)
//   Δp_f(q) = p_up − p_down                                 (without: an RC line, pipe only)
//   Δp_f = f (l/d) ρ v|v|/2,  v = q/A,  Re = |v| d/ν,  f = max(64/Re, 0.3164 Re^(−1/4))
// i.e. Hagen–Poiseuille (Δp = 32 μ l v / d²) in laminar flow and Blasius in turbulent
// flow, whichever resists more (they meet at Re ≈ 1190). Δp_u, the line's unsteady
// friction, is below (Line); 0 for a pipe.
//
// The wall (both types): a compliance in series with the oil's, given one of three ways:
//   wall_bulk_modulus       β_wall itself;
//   wall_modulus E and wall_thickness e of a thin elastic wall: its circumference
//                           stretches by d Δp/(2 e E), its cross-section by twice that, so
//                           1/β_wall = (1/A) dA/dp = d/(E e), which makes the wave speed
//                           c = sqrt(β_e/ρ), 1/β_e = 1/β + d/(E e) (Korteweg 1878; Wylie &
//                           Streeter, Fluid Transients in Systems, 1993, ch. 2, with the
//                           thin-wall factor ψ = 1);
//   volumetric_expansion    a hose datasheet's dV/dp per metre of hose, m³/(m·Pa):
//                           1/β_wall = (dV/dp per metre) / A.
//
// Which end is which side of its port ("ends"). Pipe (uniform nodes, uniform links):
//   state_response     a is a node, b a link:  a=(n1)-l1-(n2)-...-(nN)-lN->b
//                      (N nodes, N links: e.g. valve -> pipe.a ... pipe.b -> cylinder)
//   state_state        both ends are nodes:    a=(n1)-l1-...-lN-(nN+1)=b
//   response_response  both ends are links:   a-l0-(n1)-...-(nN)-lN-b
// Line: N cells of Δx = L/N, a node at each cell's centre; links of Δx join neighbouring
// centres, and a link at a response end joins the last centre to the end: Δx/2. So
//   state_response N links, state_state N − 1, response_response N + 1,
// and the cells hold the whole volume A L.
#include "hydraulic_library.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::hydraulic_library {

namespace {

// Base of pipe and line: the chain of nodes and links, its ends, friction and wall.
class Conduit : public HydraulicComponent {
 public:
  Conduit() {
    length_ = declare_real("length", "m", std::nullopt, "L", Range::positive());
    diameter_ = declare_real("diameter", "m", std::nullopt, "inner diameter d", Range::positive());
    declare_text("ends", "state_response", "side of ports a and b: state_response, state_state or response_response",
                 {"state_response", "state_state", "response_response"});
    wall_ = declare_real("wall_bulk_modulus", "Pa", 0.0, "β_wall of a compliant hose wall (0: rigid pipe)",
                         Range::non_negative());
    young_ = declare_real("wall_modulus", "Pa", 0.0,
                          "Young's modulus E of a thin wall, with wall_thickness: 1/β_wall = d/(E e) (Korteweg)",
                          Range::non_negative());
    thickness_ = declare_real("wall_thickness", "m", 0.0, "thickness e of the wall, with wall_modulus",
                              Range::non_negative());
    expansion_ = declare_real("volumetric_expansion", "m^3/m/Pa", 0.0,
                              "a hose's volumetric expansion dV/dp per metre: 1/β_wall = (dV/dp per metre)/A",
                              Range::non_negative());
    declare_config_real("initial_pressure", "Pa", 0.0, "initial pressure of every node");
  }

  // The derived stage: the segments' sizes, the wall's modulus and the wave speed, once
  // per set of parameter values.
  void calc_derived(Eval& e) const override {
    HydraulicComponent::calc_derived(e);
    const double length = e.param(length_), d = e.param(diameter_);
    const double area = pi * d * d / 4.0;
    e.set_derived(area_, area);
    e.set_derived(node_volume_, area * length / static_cast<double>(p_.size()));
    e.set_derived(link_length_, length / static_cast<double>(cells_for_links_));
    const double wall = wall_modulus(e, d, area);
    e.set_derived(wall_used_, wall);
    Fluid f = fluid(e);
    f.air_fraction = 0.0;
    const double c = std::sqrt(Chamber::bulk_modulus(0.0, f, wall) / f.density);
    e.set_derived(wave_speed_, c);
    if (scaled_flows_) e.set_derived(impedance_, f.density * c / area);
  }

  void calc_outputs(Eval& e) const override {
    const Fluid f = fluid(e);
    const Lumps g = lumps(e);
    if (a_is_node_)
      e.set_out(a_, hydraulic::pressure, Chamber::pressure(e.state(p_.front()), f));
    else
      e.set_out(a_, hydraulic::flow_rate, -link_flow(e, 0, g, f));
    if (b_is_node_)
      e.set_out(b_, hydraulic::pressure, Chamber::pressure(e.state(p_.back()), f));
    else
      e.set_out(b_, hydraulic::flow_rate, link_flow(e, links_ - 1, g, f));
  }

  void calc_derivatives(Eval& e) const override {
    const Fluid f = fluid(e);
    const Lumps g = lumps(e);
    const int nodes = static_cast<int>(p_.size());
    // Link k joins node (k − offset) upstream to node (k − offset + 1) downstream, where
    // offset is 1 when the first link starts at port a.
    const int offset = a_is_node_ ? 0 : 1;
    std::vector<double> inflow(nodes, 0.0);
    Energy energy;
    if (a_is_node_) inflow.front() += e.in(a_, hydraulic::flow_rate);
    if (b_is_node_) inflow.back() += e.in(b_, hydraulic::flow_rate);
    for (int k = 0; k < links_; ++k) {
      const double q = link_flow(e, k, g, f);
      const int up = k - offset, down = k - offset + 1;
      if (up >= 0) inflow[up] -= q;
      if (down < nodes) inflow[down] += q;
      if (inertance_) {
        const double l = link_length(k, g);
        const double drop = friction_drop(q, l, g, f);
        const double dp = upstream(e, k, f) - downstream(e, k, f) - drop - unsteady_drop(e, k, l, g, f);
        const double dqdt = g.area / (f.density * l) * dp;
        e.set_derivative(q_[k], dqdt * g.scale);
        unsteady_derivatives(e, k, q, dqdt, l, g, f, energy);
        energy.loss += drop * q;
        energy.stored += 0.5 * f.density * l / g.area * q * q;
      } else {
        energy.loss += (upstream(e, k, f) - downstream(e, k, f)) * q;  // the whole drop is friction
      }
    }
    double cavity = 0.0;
    for (int i = 0; i < nodes; ++i) {
      e.set_derivative(p_[i], Chamber::rate(e.state(p_[i]), g.node_volume, 0.0, inflow[i], f, g.wall));
      if (e.observables_wanted()) {
        energy.stored += Chamber::stored_energy(e.state(p_[i]), g.node_volume, f, g.wall);
        cavity += Chamber::cavity(e.state(p_[i]), g.node_volume, f, g.wall);
      }
    }
    e.set_observable(stored_, energy.stored);
    e.set_observable(loss_, energy.loss);
    e.set_observable(cavity_, cavity);
    e.set_observable(flow_a_, a_is_node_ ? e.in(a_, hydraulic::flow_rate) : link_flow(e, 0, g, f));
    e.set_observable(flow_b_, b_is_node_ ? -e.in(b_, hydraulic::flow_rate) : link_flow(e, links_ - 1, g, f));
    e.set_observable(pressure_a_, a_is_node_ ? Chamber::pressure(e.state(p_.front()), f) : e.in(a_, hydraulic::pressure));
    e.set_observable(pressure_b_, b_is_node_ ? Chamber::pressure(e.state(p_.back()), f) : e.in(b_, hydraulic::pressure));
  }

 protected:
  // The segments' sizes (derived values): A = π d²/4, a node's volume A L / nodes, a
  // link's length (an end link of a line: half of it), the wall's modulus (0: rigid), and
  // the scale of the flow states: a flow q is the state q·scale (scale: 1, or the line's
  // Z_c).
  struct Lumps {
    double d, area, node_volume, link_length, wall, scale;
  };
  Lumps lumps(const Eval& e) const {
    return {e.param(diameter_),       e.derived(area_), e.derived(node_volume_), e.derived(link_length_),
            e.derived(wall_used_), scaled_flows_ ? e.derived(impedance_) : 1.0};
  }
  struct Energy {
    double stored = 0.0, loss = 0.0;
  };

  // configure(), first: the ends, which side each port is.
  std::string configure_ends() {
    const std::string ends = text("ends");
    a_is_node_ = ends != "response_response";
    b_is_node_ = ends == "state_state";
    return ends;
  }
  // configure(): ports, states and observables of `nodes` nodes and `links` links. The
  // links share L / cells_for_links; with half_end_links, a link at a response end is
  // half as long (the line's cells); inertance: the links' flows are states, in m³/s or,
  // scaled, as the pressures Z_c q (Z_c = ρc/A, the characteristic impedance): a wave
  // carrying the flow q carries the pressure Z_c q (Joukowsky), so scaled flows are of
  // the pressures' size and the linear model's matrix is balanced (a line of many cells
  // in m³/s and Pa spans 20 orders of magnitude, beyond the eigensolver's accuracy), and
  // one atol serves both.
  void declare_chain(long nodes, long links, long cells_for_links, bool half_end_links, bool inertance,
                     bool scaled_flows = false) {
    inertance_ = inertance;
    scaled_flows_ = scaled_flows;
    half_end_links_ = half_end_links;
    cells_for_links_ = cells_for_links;
    a_ = declare_port("a", hydraulic_domain(), a_is_node_ ? PortSide::State : PortSide::Response, "end a");
    b_ = declare_port("b", hydraulic_domain(), b_is_node_ ? PortSide::State : PortSide::Response, "end b");
    const double p0 = config_real("initial_pressure");
    for (long i = 1; i <= nodes; ++i)
      p_.push_back(declare_state("p" + std::to_string(i), "Pa", p0, "pressure state of node " + std::to_string(i)));
    if (inertance_)
      for (long i = 1; i <= links; ++i)
        q_.push_back(scaled_flows_ ? declare_state("w" + std::to_string(i), "Pa", 0.0,
                                                   "flow of link " + std::to_string(i) + " as Z_c q")
                                   : declare_state("q" + std::to_string(i), "m^3/s", 0.0,
                                                   "flow of link " + std::to_string(i)));
    links_ = static_cast<int>(links);
    // A node's pressure reads nothing; a link's flow at a response-side end is a state
    // (with inertance) or reads the pressure at that end.
    if (a_is_node_ || inertance_)
      set_dependencies(a_, {});
    else
      set_dependencies(a_, {a_});
    if (b_is_node_ || inertance_)
      set_dependencies(b_, {});
    else
      set_dependencies(b_, {b_});
    flow_a_ = declare_observable("flow_a", "m^3/s", "flow entering at a");
    flow_b_ = declare_observable("flow_b", "m^3/s", "flow leaving at b");
    pressure_a_ = declare_observable("pressure_a", "Pa", "pressure at end a");
    pressure_b_ = declare_observable("pressure_b", "Pa", "pressure at end b");
    cavity_ = declare_observable("cavity", "m^3", "volume of the vapour cavities in the nodes");
    stored_ = declare_observable("stored_energy", "J",
                                 "compressed liquid of the nodes and, with inertance, ½ (ρ l / A) q² of each link");
    loss_ = declare_observable("power_loss", "W", "friction loss of the links, turned into heat");
    set_energy_role(stored_, EnergyRole::Stored);
    set_energy_role(loss_, EnergyRole::Loss);
    area_ = declare_derived("area", "m^2", "cross-section A = π d²/4");
    node_volume_ = declare_derived("node_volume", "m^3", "volume of a node, A L / nodes");
    link_length_ = declare_derived("link_length", "m", "length of a link between two nodes");
    wall_used_ = declare_derived("wall_stiffness", "Pa", "β_wall in use (0: a rigid wall)");
    wave_speed_ = declare_derived("wave_speed", "m/s",
                                  "c = sqrt(β_e/ρ), 1/β_e = 1/β_l + 1/β_wall (air-free: entrained air slows it)");
    if (scaled_flows_)
      impedance_ = declare_derived("characteristic_impedance", "Pa*s/m^3", "Z_c = ρ c / A, the scale of the flow states");
  }

  // The link's unsteady friction drop Δp_u and its own states' derivatives (a line's).
  virtual double unsteady_drop(const Eval&, int, double, const Lumps&, const Fluid&) const { return 0.0; }
  virtual void unsteady_derivatives(Eval&, int, double, double, double, const Lumps&, const Fluid&, Energy&) const {}

 private:
  // β_wall from one of the three ways the wall is given (0: rigid).
  double wall_modulus(const Eval& e, double d, double area) const {
    const double given = e.param(wall_), E = e.param(young_), t = e.param(thickness_), dvdp = e.param(expansion_);
    if ((E > 0.0) != (t > 0.0)) parameter_error(E > 0.0 ? "wall_thickness" : "wall_modulus",
                                                "give wall_modulus and wall_thickness together");
    if ((given > 0.0) + (E > 0.0) + (dvdp > 0.0) > 1)
      parameter_error("wall_bulk_modulus",
                      "give the wall one way: wall_bulk_modulus, wall_modulus and wall_thickness, or volumetric_expansion");
    if (E > 0.0) return E * t / d;
    if (dvdp > 0.0) return area / dvdp;
    return given;
  }

  double link_length(int k, const Lumps& g) const {
    const bool at_a = k == 0 && !a_is_node_, at_b = k == links_ - 1 && !b_is_node_;
    return half_end_links_ && (at_a || at_b) ? 0.5 * g.link_length : g.link_length;
  }

  // Pressures at the ends of link k.
  double upstream(const Eval& e, int k, const Fluid& f) const {
    const int node = a_is_node_ ? k : k - 1;
    return node < 0 ? e.in(a_, hydraulic::pressure) : Chamber::pressure(e.state(p_[node]), f);
  }
  double downstream(const Eval& e, int k, const Fluid& f) const {
    const int node = a_is_node_ ? k + 1 : k;
    return node >= static_cast<int>(p_.size()) ? e.in(b_, hydraulic::pressure)
                                               : Chamber::pressure(e.state(p_[node]), f);
  }

  // Δp_f(q) over a link of length l: the larger of the laminar (Hagen–Poiseuille) and
  // turbulent (Blasius) drops.
  static double friction_drop(double q, double l, const Lumps& g, const Fluid& f) {
    const double v = std::abs(q) / g.area, d = g.d;
    if (v == 0.0) return 0.0;
    const double laminar = 32.0 * f.dynamic_viscosity() * l * v / (d * d);
    const double re = v * d / f.kinematic_viscosity;
    const double turbulent = 0.3164 * std::pow(re, -0.25) * (l / d) * f.density * v * v / 2.0;
    return std::copysign(std::max(laminar, turbulent), q);
  }
  // The inverse, for the RC pipe: the flow whose friction drop is Δp.
  static double flow_for_drop(double dp, const Lumps& g, const Fluid& f) {
    if (dp == 0.0) return 0.0;
    const double d = g.d;
    const double laminar_v = std::abs(dp) * d * d / (32.0 * f.dynamic_viscosity() * g.link_length);
    // Blasius: Δp = K v^1.75 with K = 0.3164 (d/ν)^(−1/4) (l/d) ρ/2.
    const double k = 0.3164 * std::pow(d / f.kinematic_viscosity, -0.25) * (g.link_length / d) * f.density / 2.0;
    const double turbulent_v = std::pow(std::abs(dp) / k, 1.0 / 1.75);
    return std::copysign(std::min(laminar_v, turbulent_v) * g.area, dp);
  }
  double link_flow(const Eval& e, int k, const Lumps& g, const Fluid& f) const {
    if (inertance_) return e.state(q_[k]) / g.scale;
    return flow_for_drop(upstream(e, k, f) - downstream(e, k, f), g, f);
  }

  RealParam length_, diameter_, wall_, young_, thickness_, expansion_;
  bool inertance_ = true, half_end_links_ = false, scaled_flows_ = false, a_is_node_ = true, b_is_node_ = false;
  int links_ = 0;
  long cells_for_links_ = 1;
  PortId a_, b_;
  std::vector<StateId> p_, q_;
  ObservableId flow_a_, flow_b_, pressure_a_, pressure_b_, cavity_, stored_, loss_;
  DerivedId area_, node_volume_, link_length_, wall_used_, wave_speed_, impedance_;
};

// A short line, lumped: N nodes sharing the volume, links sharing the length.
class Pipe final : public Conduit {
 public:
  Pipe() {
    declare_integer("segments", 1, "N, number of segments", Range::between(1, 200));
    declare_boolean("inertance", true, "include the inertia of the oil column (RLC) or not (RC)");
  }

  void configure() override {
    const long n = integer("segments");
    const std::string ends = configure_ends();
    const long nodes = ends == "state_state" ? n + 1 : n;
    const long links = ends == "response_response" ? n + 1 : n;
    declare_chain(nodes, links, links, false, boolean("inertance"));
    finish_configure();
  }
};

// A long line: the waves. N finite-volume cells on a staggered grid (nodes at the cells'
// centres, links between them) are the method of lines applied to the water-hammer
// equations
//   ∂p/∂t + (β_e/A) ∂q/∂x = 0,     (ρ/A) ∂q/∂t + ∂p/∂x + J(q) = 0,
// second-order accurate in space: a mode of wavenumber k runs at
// ω = (2c/Δx) sin(kΔx/2) instead of c k, so the quarter-wave mode of a line closed at one
// end, k = π/(2L), is low by (π/(4N))²/6 (0.03 % with N = 20). It is a state-space model
// whatever the integrator's step, so `linearize` finds its modes; the stiff solver may
// step over a wave's travel time where nothing happens.
//
// Frequency-dependent friction (friction "schohl" or "trikha"): in unsteady laminar flow
// the wall shear follows the velocity profile, not the mean velocity alone. Zielke's
// result (W. Zielke, "Frequency-dependent friction in transient pipe flow", J. Basic
// Eng. 90(1), 109–115, 1968) adds to the steady drop per unit length a convolution of the
// flow's past accelerations,
//   J_u = (16 μ / (d² A)) ∫₀ᵗ W(τ(t − u)) ∂q/∂t(u) du,    τ = ν t / r²  (r = d/2),
// with Zielke's weighting function W. Written as W(τ) ≈ Σ m_k e^(−n_k τ), each term is a
// state y_k of the link that obeys
//   dy_k/dt = m_k dq/dt − (n_k ν/r²) y_k,     Δp_u = (16 μ l / (d² A)) Σ y_k
// (A. K. Trikha, "An efficient method for simulating frequency-dependent friction in
// transient liquid flow", J. Fluids Eng. 97(1), 97–105, 1975: three terms; G. A. Schohl,
// "Improved approximate method for simulating frequency-dependent friction in transient
// laminar flow", J. Fluids Eng. 115(3), 420–424, 1993: five terms fitted over a wider
// range of τ, the default). Each term is a resistance R_k = (16 μ l/(d² A)) m_k in
// parallel with an inertance R_k r²/(n_k ν): it stores ½ L_k (q − y_k/m_k)² and loses
// R_k (y_k/m_k)², which the energy account counts. Zielke's W is exact for laminar flow;
// the line applies it in turbulent flow too, above its steady Blasius drop (Vardy and
// Brown's turbulent weighting function would be the closer model there).
class Line final : public Conduit {
 public:
  Line() {
    declare_integer("segments", 20, "N, number of cells (a mode with a wavelength of 8 cells is 2.6 % slow)",
                    Range::between(1, 2000));
    declare_text("friction", "schohl",
                 "friction: steady (f(Re) only), or with Zielke's frequency-dependent term, "
                 "schohl (5 exponentials) or trikha (3)",
                 {"steady", "schohl", "trikha"});
    set_example("segments", 4);  // the reference lists every state: a few cells show them
  }

  void configure() override {
    const long n = integer("segments");
    const std::string ends = configure_ends();
    if (ends == "state_state" && n < 2) parameter_error("segments", "a line with two state ends needs 2 cells or more");
    const long links = ends == "state_state" ? n - 1 : ends == "response_response" ? n + 1 : n;
    declare_chain(n, links, n, true, true, true);
    const std::string friction = text("friction");
    if (friction == "schohl")
      terms_ = {{1.051, 26.65}, {2.358, 100.0}, {9.021, 669.0}, {29.47, 6497.0}, {79.55, 57990.0}};
    else if (friction == "trikha")
      terms_ = {{1.0, 26.4}, {8.1, 200.0}, {40.0, 8000.0}};
    for (long k = 1; k <= links; ++k)
      for (size_t j = 1; j <= terms_.size(); ++j)
        y_.push_back(declare_state("u" + std::to_string(k) + "_" + std::to_string(j), "Pa", 0.0,
                                   "unsteady friction term " + std::to_string(j) + " of link " + std::to_string(k) +
                                       ", Z_c y"));
    finish_configure();
  }

 private:
  struct Term {
    double m, n;  // W(τ) ≈ Σ m e^(−n τ)
  };
  // 16 μ l / (d² A): the unsteady drop per unit of y.
  static double unsteady_resistance(double l, const Lumps& g, const Fluid& f) {
    return 16.0 * f.dynamic_viscosity() * l / (g.d * g.d * g.area);
  }
  StateId y(int link, size_t term) const { return y_[static_cast<size_t>(link) * terms_.size() + term]; }

  double unsteady_drop(const Eval& e, int k, double l, const Lumps& g, const Fluid& f) const override {
    if (terms_.empty()) return 0.0;
    double sum = 0.0;
    for (size_t j = 0; j < terms_.size(); ++j) sum += e.state(y(k, j));
    return unsteady_resistance(l, g, f) * sum / g.scale;
  }
  void unsteady_derivatives(Eval& e, int k, double q, double dqdt, double l, const Lumps& g, const Fluid& f,
                            Energy& energy) const override {
    const double rate = 4.0 * f.kinematic_viscosity / (g.d * g.d);  // ν / r²: τ per second
    const double r = unsteady_resistance(l, g, f);
    for (size_t j = 0; j < terms_.size(); ++j) {
      const Term& t = terms_[j];
      const double yj = e.state(y(k, j)) / g.scale;
      e.set_derivative(y(k, j), (t.m * dqdt - t.n * rate * yj) * g.scale);
      const double through_inertance = q - yj / t.m;
      energy.stored += 0.5 * (r * t.m / (t.n * rate)) * through_inertance * through_inertance;
      energy.loss += r * yj * yj / t.m;
    }
  }

  std::vector<Term> terms_;
  std::vector<StateId> y_;
};

}  // namespace

void register_pipes(Registry& r) {
  r.add<Pipe>("hydraulic.pipe", "pipe or hose in N lumped segments: capacitance, friction, optional inertance");
  r.add<Line>("hydraulic.line",
              "long line or hose with wave propagation: N finite-volume cells, frequency-dependent friction");
}

}  // namespace jourdain::hydraulic_library
