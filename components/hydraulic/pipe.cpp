// Pipe or hose, lumped in N segments: nodes (capacitances) joined by links (friction and,
// optionally, the inertia of the oil column).
//
// A pipe of length L and inner diameter d holds V = A L, A = π d²/4. Its nodes share V
// equally and integrate
//   dp/dt = β_e/V_node Σq,    1/β_e = 1/β(p) + 1/β_wall   (Chamber; a hose's wall adds
//                                                          its own compliance)
// Its links share L equally; a link of length l carries a flow q with
//   (ρ l / A) dq/dt = p_up − p_down − Δp_f(q)         (with inertance, an RLC line)
//   Δp_f(q) = p_up − p_down                           (without: an RC line)
//   Δp_f = f (l/d) ρ v|v|/2,  v = q/A,  Re = |v| d/ν,  f = max(64/Re, 0.3164 Re^(−1/4))
// i.e. Hagen–Poiseuille (Δp = 32 μ l v / d²) in laminar flow and Blasius in turbulent
// flow, whichever resists more (they meet at Re ≈ 1190).
//
// Which end is which side of its port ("ends"):
//   state_response     a is a node, b a link:  a=(n1)-l1-(n2)-...-(nN)-lN->b
//                      (N nodes, N links: e.g. valve -> pipe.a ... pipe.b -> cylinder)
//   state_state        both ends are nodes:    a=(n1)-l1-...-lN-(nN+1)=b
//   response_response  both ends are links:   a-l0-(n1)-...-(nN)-lN-b
#include "hydraulic_library.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::hydraulic_library {

class Pipe final : public HydraulicComponent {
 public:
  Pipe() {
    length_ = declare_real("length", "m", std::nullopt, "L", Range::positive());
    diameter_ = declare_real("diameter", "m", std::nullopt, "inner diameter d", Range::positive());
    declare_integer("segments", 1, "N, number of segments", Range::between(1, 200));
    declare_text("ends", "state_response", "side of ports a and b: state_response, state_state or response_response",
                 {"state_response", "state_state", "response_response"});
    declare_boolean("inertance", true, "include the inertia of the oil column (RLC) or not (RC)");
    wall_ = declare_real("wall_bulk_modulus", "Pa", 0.0, "β_wall of a compliant hose wall (0: rigid pipe)",
                         Range::non_negative());
  }

  void configure() override {
    inertance_ = boolean("inertance");
    const long n = integer("segments");
    const std::string ends = text("ends");
    a_is_node_ = ends != "response_response";
    b_is_node_ = ends == "state_state";
    const long nodes = ends == "state_state" ? n + 1 : n;
    const long links = ends == "response_response" ? n + 1 : n;

    a_ = declare_port("a", hydraulic_domain(), a_is_node_ ? PortSide::State : PortSide::Response, "end a");
    b_ = declare_port("b", hydraulic_domain(), b_is_node_ ? PortSide::State : PortSide::Response, "end b");
    for (long i = 1; i <= nodes; ++i)
      p_.push_back(declare_state("p" + std::to_string(i), "Pa", 0.0, "pressure state of node " + std::to_string(i)));
    if (inertance_)
      for (long i = 1; i <= links; ++i)
        q_.push_back(declare_state("q" + std::to_string(i), "m^3/s", 0.0, "flow of link " + std::to_string(i)));
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
    stored_ = declare_observable("stored_energy", "J",
                                 "compressed liquid of the nodes and, with inertance, ½ (ρ l / A) q² of each link");
    loss_ = declare_observable("power_loss", "W", "friction loss Δp_f q of the links, turned into heat");
    set_energy_role(stored_, EnergyRole::Stored);
    set_energy_role(loss_, EnergyRole::Loss);
    area_ = declare_derived("area", "m^2", "cross-section A = π d²/4");
    node_volume_ = declare_derived("node_volume", "m^3", "volume of a node, A L / nodes");
    link_length_ = declare_derived("link_length", "m", "length of a link, L / links");
    finish_configure();
  }

  // The derived stage: the segments' sizes, once per set of parameter values.
  void calc_derived(Eval& e) const override {
    HydraulicComponent::calc_derived(e);
    const double length = e.param(length_), d = e.param(diameter_);
    const double area = pi * d * d / 4.0;
    e.set_derived(area_, area);
    e.set_derived(node_volume_, area * length / static_cast<double>(p_.size()));
    e.set_derived(link_length_, length / static_cast<double>(links_));
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
    const double wall = e.param(wall_);
    const int nodes = static_cast<int>(p_.size());
    // Link k joins node (k − offset) upstream to node (k − offset + 1) downstream, where
    // offset is 1 when the first link starts at port a.
    const int offset = a_is_node_ ? 0 : 1;
    std::vector<double> inflow(nodes, 0.0);
    double stored = 0.0, loss = 0.0;
    if (a_is_node_) inflow.front() += e.in(a_, hydraulic::flow_rate);
    if (b_is_node_) inflow.back() += e.in(b_, hydraulic::flow_rate);
    for (int k = 0; k < links_; ++k) {
      const double q = link_flow(e, k, g, f);
      const int up = k - offset, down = k - offset + 1;
      if (up >= 0) inflow[up] -= q;
      if (down < nodes) inflow[down] += q;
      if (inertance_) {
        const double drop = friction_drop(q, g, f);
        const double dp = upstream(e, k, f) - downstream(e, k, f) - drop;
        e.set_derivative(q_[k], g.area / (f.density * g.link_length) * dp);
        loss += drop * q;
        stored += 0.5 * f.density * g.link_length / g.area * q * q;
      } else {
        loss += (upstream(e, k, f) - downstream(e, k, f)) * q;  // the whole drop is friction
      }
    }
    for (int i = 0; i < nodes; ++i) {
      e.set_derivative(p_[i], Chamber::rate(e.state(p_[i]), g.node_volume, 0.0, inflow[i], f, wall));
      if (e.observables_wanted()) stored += Chamber::stored_energy(e.state(p_[i]), g.node_volume, f, wall);
    }
    e.set_observable(stored_, stored);
    e.set_observable(loss_, loss);
    e.set_observable(flow_a_, a_is_node_ ? e.in(a_, hydraulic::flow_rate) : link_flow(e, 0, g, f));
    e.set_observable(flow_b_, b_is_node_ ? -e.in(b_, hydraulic::flow_rate) : link_flow(e, links_ - 1, g, f));
  }

 private:
  // The segments' sizes (derived values): A = π d²/4, a node's volume A L / nodes, a
  // link's length L / links.
  struct Lumps {
    double d, area, node_volume, link_length;
  };
  Lumps lumps(const Eval& e) const {
    return {e.param(diameter_), e.derived(area_), e.derived(node_volume_), e.derived(link_length_)};
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

  // Δp_f(q): the larger of the laminar (Hagen–Poiseuille) and turbulent (Blasius) drops.
  double friction_drop(double q, const Lumps& g, const Fluid& f) const {
    const double v = std::abs(q) / g.area, d = g.d;
    if (v == 0.0) return 0.0;
    const double laminar = 32.0 * f.dynamic_viscosity() * g.link_length * v / (d * d);
    const double re = v * d / f.kinematic_viscosity;
    const double turbulent = 0.3164 * std::pow(re, -0.25) * (g.link_length / d) * f.density * v * v / 2.0;
    return std::copysign(std::max(laminar, turbulent), q);
  }
  // The inverse, for the RC line: the flow whose friction drop is Δp.
  double flow_for_drop(double dp, const Lumps& g, const Fluid& f) const {
    if (dp == 0.0) return 0.0;
    const double d = g.d;
    const double laminar_v = std::abs(dp) * d * d / (32.0 * f.dynamic_viscosity() * g.link_length);
    // Blasius: Δp = K v^1.75 with K = 0.3164 (d/ν)^(−1/4) (l/d) ρ/2.
    const double k = 0.3164 * std::pow(d / f.kinematic_viscosity, -0.25) * (g.link_length / d) * f.density / 2.0;
    const double turbulent_v = std::pow(std::abs(dp) / k, 1.0 / 1.75);
    return std::copysign(std::min(laminar_v, turbulent_v) * g.area, dp);
  }
  double link_flow(const Eval& e, int k, const Lumps& g, const Fluid& f) const {
    if (inertance_) return e.state(q_[k]);
    return flow_for_drop(upstream(e, k, f) - downstream(e, k, f), g, f);
  }

  RealParam length_, diameter_, wall_;
  bool inertance_ = true, a_is_node_ = true, b_is_node_ = false;
  int links_ = 0;
  PortId a_, b_;
  std::vector<StateId> p_, q_;
  ObservableId flow_a_, flow_b_, stored_, loss_;
  DerivedId area_, node_volume_, link_length_;
};

void register_pipes(Registry& r) {
  r.add<Pipe>("hydraulic.pipe", "pipe or hose in N lumped segments: capacitance, friction, optional inertance");
}

}  // namespace jourdain::hydraulic_library
