// Spool-type directional valves: 2/2, 3/2, 4/2, 4/3 (closed, open, float or tandem
// centre) and the proportional 4/3 valve, all driven by a signal `command`.
//
// The spool position x follows the command through second-order dynamics
//   d²x/dt² = ω² (u − x) − 2 ζ ω dx/dt        (ω: natural frequency, ζ: damping)
// (or first order, or none), with u the command clamped to the spool's travel. Each flow
// path i -> j is a metering edge of opening h (m) and area
//   A = A_max clamp(h / (s − o), 0, 1),     h = ±ξ − o,
// where ξ is the spool position measured from the middle of its travel, s the half
// travel, o the edge's overlap (o > 0: the edge stays shut for |ξ| < o; o < 0, an
// underlap, lets it pass at the centre) and A_max the area at full travel. The flow is
// q = orifice_flow(C_d, A, p_i − p_j) (turbulent with a laminar region), both ways.
//
//   valve            travel x        ξ            paths (sign of ξ that opens them)
//   2/2              [0, x_max]      x − x_max/2  P→A (+), or (−) when normally open
//   3/2              [0, x_max]      x − x_max/2  P→A (+), A→T (−)
//   4/2              [0, x_max]      x − x_max/2  P→A, B→T (+); P→B, A→T (−)
//   4/3              [−x_max, x_max] x            P→A, B→T (+); P→B, A→T (−)
// The two-position valves rest (command 0) in their spring position and switch at half
// travel. Centres of the 4/3 valve:
//   closed  every edge has the overlap o;
//   open    every edge is underlapped by the centre opening c (o = −c): P, A, B, T joined;
//   float   A→T and B→T underlapped by c, P blocked (the load floats);
//   tandem  A and B blocked, P→T open at the centre: A = A_max clamp((c − |ξ|)/c, 0, 1)
//           (the pump unloads to tank).
// The proportional valve is a 4/3 valve whose command is the fraction of full opening
// (−1 to 1) and whose size is the catalogue's rated flow q_n at a pressure drop Δp_n per
// metering edge: C_d A_max = q_n / sqrt(2 Δp_n / ρ); its dead band plays the overlap.
#include "hydraulic_library.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::hydraulic_library {

enum class ValveKind { TwoTwo, ThreeTwo, FourTwo, FourThree, Proportional };

class DirectionalValve : public HydraulicComponent {
 public:
  explicit DirectionalValve(ValveKind kind) : kind_(kind) {
    const bool proportional = kind_ == ValveKind::Proportional;
    if (proportional) {
      rated_flow_ = declare_real("rated_flow", "m^3/s", std::nullopt,
                                 "q_n: flow of one metering edge at full command and Δp_n", Range::positive());
      rated_drop_ = declare_real("rated_pressure_drop", "Pa", 5e5,
                                 "Δp_n: pressure drop per metering edge for the rated flow", Range::positive());
      // The dead band plays the overlap (the same handle).
      overlap_ = declare_real("dead_band", "", 0.0,
                              "command fraction over which the edges stay shut (an overlap; < 0: underlap)",
                              Range::between(-0.5, 0.5));
    } else {
      max_opening_ =
          declare_real("max_opening", "m", 1e-3,
                       three_position() ? "spool travel x_max each way from the centre" : "spool travel x_max",
                       Range::positive());
      overlap_ = declare_real("overlap", "m", 0.0, "overlap o of the metering edges (< 0: underlap)");
      declare_area_parameters("max_area", "a fully open path", 1e-4);
    }
    if (three_position()) {
      declare_text("centre", "closed", "centre position: closed, open, float or tandem",
                   {"closed", "open", "float", "tandem"});
      centre_opening_ =
          declare_real("centre_opening", proportional ? "" : "m", proportional ? 0.1 : 1e-4,
                       "c: opening at the centre of the edges the centre type joins (open, float, tandem)",
                       Range::positive());
    }
    if (kind_ == ValveKind::TwoTwo) declare_boolean("normally_open", false, "P→A open at rest (command 0)");
    leak_ = declare_real("leakage_area", "m^2", 0.0, "area left to every path when shut (internal leakage)",
                         Range::non_negative());
    declare_orifice_parameters("C_d of the metering edges");
    declare_dynamics_parameters(proportional || kind_ == ValveKind::FourThree ? "second_order" : "first_order");
    declare_heat_port_parameter("true: a thermal port 'heat' returns the throttling loss −Σ p q as heat flow");
  }

  void configure() override {
    const bool proportional = kind_ == ValveKind::Proportional;
    // Ports and paths.
    p_ = declare_port("p", hydraulic_domain(), PortSide::Response, "pressure port P");
    if (kind_ != ValveKind::TwoTwo) t_ = declare_port("t", hydraulic_domain(), PortSide::Response, "tank port T");
    a_ = declare_port("a", hydraulic_domain(), PortSide::Response, "work port A");
    if (kind_ == ValveKind::FourTwo || three_position())
      b_ = declare_port("b", hydraulic_domain(), PortSide::Response, "work port B");
    if (kind_ == ValveKind::TwoTwo) {
      paths_.push_back({p_, a_, boolean("normally_open") ? -1.0 : 1.0, Edge::Overlap});
    } else if (kind_ == ValveKind::ThreeTwo) {
      paths_.push_back({p_, a_, 1.0, Edge::Overlap});
      paths_.push_back({a_, t_, -1.0, Edge::Overlap});
    } else {
      Edge e_p = Edge::Overlap, e_t = Edge::Overlap;
      if (three_position()) {
        const std::string centre = text("centre");
        if (centre == "open") e_p = e_t = Edge::Underlap;
        if (centre == "float") e_t = Edge::Underlap;
        if (centre == "tandem") paths_.push_back({p_, t_, 0.0, Edge::Centre});
      }
      paths_.push_back({p_, a_, 1.0, e_p});
      paths_.push_back({b_, t_, 1.0, e_t});
      paths_.push_back({p_, b_, -1.0, e_p});
      paths_.push_back({a_, t_, -1.0, e_t});
    }
    hydraulic_ports_ = {p_, t_, a_, b_};
    std::erase_if(hydraulic_ports_, [](PortId id) { return !id.valid(); });

    command_ =
        declare_port("command", signal_domain(), PortSide::Response,
                     proportional ? "spool command, fraction of full opening (−1 to 1)" : "spool position demand (m)");
    configure_dynamics("spool", proportional ? "" : "m", "spool position x");
    // The flows read every pressure, and the command too when the spool has no dynamics.
    std::vector<PortId> reads = hydraulic_ports_;
    if (!has_dynamics()) reads.push_back(command_);
    for (PortId port : hydraulic_ports_) set_dependencies(port, reads);
    configure_heat_port("to a heat capacity (the oil, the valve block): returns the throttling loss −Σ p q", reads);

    position_ = declare_observable("position", proportional ? "" : "m", "spool position x");
    if (proportional)
      rated_area_ = declare_derived("opening_area", "m^2", "A_max of a metering edge, q_n / (C_d sqrt(2 Δp_n / ρ))");
    for (PortId port : hydraulic_ports_)
      port_flows_.push_back(declare_observable("flow_" + ports()[port.index].name, "m^3/s",
                                               "flow delivered into the element at " + ports()[port.index].name));
    // Its metering edges throttle and store nothing: the power the ports bring, −Σ p q,
    // all turns into heat (through the heat port when there is one).
    power_loss_ = declare_observable("power_loss", "W", "−Σ p q over the ports: throttling loss, turned into heat");
    set_loss_role(power_loss_);
    finish_configure();
  }

  void calc_outputs(Eval& e) const override {
    double q[4] = {0, 0, 0, 0};
    flows(e, q);
    for (size_t k = 0; k < hydraulic_ports_.size(); ++k) e.set_out(hydraulic_ports_[k], hydraulic::flow_rate, q[k]);
    if (has_heat_port()) set_heat_flow(e, power_loss(e, q));
  }

  void calc_derivatives(Eval& e) const override {
    dynamic_derivatives(e, demand(e));
    double q[4] = {0, 0, 0, 0};
    flows(e, q);
    for (size_t k = 0; k < hydraulic_ports_.size(); ++k) e.set_observable(port_flows_[k], q[k]);
    e.set_observable(power_loss_, power_loss(e, q));
    e.set_observable(position_, dynamic_position(e, demand(e)));
  }

 private:
  // The overlap of a metering edge: the valve's overlap o; underlapped by the centre
  // opening c (o = −c) at an open or float centre; or the tandem centre's P→T passage.
  enum class Edge { Overlap, Underlap, Centre };
  struct Path {
    PortId from, to;
    double sign;  // +1: opens as ξ grows, −1: as ξ falls
    Edge edge;
  };
  // The spool's geometry, from the numeric parameters (m, or command fractions for the
  // proportional valve, whose travel is 1).
  struct Spool {
    double travel;          // x_max
    double half, middle;    // s, the half travel, and where ξ = 0 lies
    double overlap;         // o
    double centre_opening;  // c (three-position valves)
    double overlap_of(const Path& path) const { return path.edge == Edge::Underlap ? -centre_opening : overlap; }
  };
  bool three_position() const { return kind_ == ValveKind::FourThree || kind_ == ValveKind::Proportional; }

  Spool spool(const Eval& e) const {
    Spool s{};
    s.travel = kind_ == ValveKind::Proportional ? 1.0 : e.param(max_opening_);
    s.half = three_position() ? s.travel : s.travel / 2.0;
    s.middle = three_position() ? 0.0 : s.travel / 2.0;
    s.overlap = e.param(overlap_);
    s.centre_opening = three_position() ? e.param(centre_opening_) : 0.0;
    return s;
  }

  // The derived stage: the edges must open; a proportional valve's area at full command
  // from its rating, C_d A_max = q_n / sqrt(2 Δp_n / ρ).
  void calc_derived(Eval& e) const override {
    HydraulicComponent::calc_derived(e);
    const Spool s = spool(e);
    if (!(s.overlap < s.half))
      parameter_error(kind_ == ValveKind::Proportional ? "dead_band" : "overlap",
                      "must be below the half travel (" + format_number(s.half) + "), or no edge ever opens");
    for (const auto& path : paths_)
      if (path.edge != Edge::Centre && !(s.overlap_of(path) < s.half))
        parameter_error("centre_opening", "leaves an edge that never opens");
    if (rated_area_.valid())
      e.set_derived(rated_area_, e.param(rated_flow_) / (discharge_coefficient(e) *
                                                         std::sqrt(2.0 * e.param(rated_drop_) / fluid(e).density)));
  }

  // The command clamped to the spool's travel.
  double demand(const Eval& e, const Spool& s) const {
    const double u = e.in(command_, signal::value);
    return three_position() ? std::clamp(u, -s.travel, s.travel) : std::clamp(u, 0.0, s.travel);
  }
  double demand(const Eval& e) const { return demand(e, spool(e)); }

  // Area of a path at spool coordinate ξ (from the middle of the travel).
  double path_area(const Path& path, const Spool& s, double xi, double full_area, double leak) const {
    double fraction;
    if (path.edge == Edge::Centre) {
      fraction = std::clamp((s.centre_opening - std::abs(xi)) / s.centre_opening, 0.0, 1.0);
    } else {
      const double o = s.overlap_of(path);
      fraction = std::clamp((path.sign * xi - o) / (s.half - o), 0.0, 1.0);
    }
    return std::max(full_area * fraction, leak);
  }

  int slot(PortId port) const {
    for (size_t k = 0; k < hydraulic_ports_.size(); ++k)
      if (hydraulic_ports_[k] == port) return static_cast<int>(k);
    return -1;
  }

  // The throttling loss −Σ p q, with q the flows delivered into the elements at the
  // ports (flows()): the power the ports bring in.
  double power_loss(const Eval& e, const double* q) const {
    double loss = 0.0;
    for (size_t k = 0; k < hydraulic_ports_.size(); ++k) loss -= e.in(hydraulic_ports_[k], hydraulic::pressure) * q[k];
    return loss;
  }

  // Flow delivered into the element at each hydraulic port, in hydraulic_ports_ order.
  void flows(const Eval& e, double* q) const {
    const Spool s = spool(e);
    const double xi = dynamic_position(e, demand(e, s)) - s.middle;
    const double full_area = rated_area_.valid() ? e.derived(rated_area_) : opening_area(e);
    const double leak = e.param(leak_);
    for (const auto& path : paths_) {
      const double dp = e.in(path.from, hydraulic::pressure) - e.in(path.to, hydraulic::pressure);
      const double flow = orifice(e, path_area(path, s, xi, full_area, leak), dp);
      q[slot(path.from)] -= flow;
      q[slot(path.to)] += flow;
    }
  }

  ValveKind kind_;
  RealParam max_opening_, overlap_, centre_opening_, rated_flow_, rated_drop_, leak_;
  DerivedId rated_area_;  // proportional valve
  std::vector<Path> paths_;
  PortId p_, t_, a_, b_, command_;
  std::vector<PortId> hydraulic_ports_;
  ObservableId position_, power_loss_;
  std::vector<ObservableId> port_flows_;
};

template <ValveKind K>
class Valve final : public DirectionalValve {
 public:
  Valve() : DirectionalValve(K) {}
};

void register_directional_valves(Registry& r) {
  r.add<Valve<ValveKind::TwoTwo>>("hydraulic.valve_2_2", "2/2 directional valve (P-A), spool dynamics, overlap");
  r.add<Valve<ValveKind::ThreeTwo>>("hydraulic.valve_3_2",
                                    "3/2 directional valve (P-A / A-T), spool dynamics, overlap");
  r.add<Valve<ValveKind::FourTwo>>("hydraulic.valve_4_2",
                                   "4/2 directional valve (P-B, A-T / P-A, B-T), spool dynamics");
  r.add<Valve<ValveKind::FourThree>>(
      "hydraulic.valve_4_3", "4/3 directional valve: closed, open, float or tandem centre; spool dynamics, overlap");
  r.add<Valve<ValveKind::Proportional>>("hydraulic.proportional_valve",
                                        "proportional 4/3 valve: opening proportional to the command, rated flow");
}

}  // namespace jourdain::hydraulic_library
