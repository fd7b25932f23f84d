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
// As on a data sheet, its flow over the spool's stroke may be a table (`flow_curve`:
// rows [stroke fraction beyond the dead band, flow fraction]; linear by default), applied
// to the fraction clamp((±ξ − o)/(s − o), 0, 1), and the spool may have a hysteresis (a
// dead zone of the command fraction, HydraulicComponent dynamics).
//
// Mobile valve sections share the proportional valve's rating, curve and spool:
//
// The load-sensing section (`ls_section`, closed centre, ports P, T, A, B and LS) has a
// load-holding check on its meter-in edges (no flow back from A or B into P) and a
// pressure compensator, modelled as ideal: its spool, much faster than the section's,
// is taken as settled, so that it sets the meter-in edge's drop Δp_m (p_w: the
// pressure of the work port the spool connects to P):
//   post (flow sharing): Δp_m = p_P − max(p_LS + Δp_s, p_w): every section's
//                        intermediate pressure rises to the LS line's, so all meter-in
//                        edges see the same drop and, when the pump saturates, the flows
//                        keep the ratio of the openings;
//   pre:                 Δp_m = min(p_P − p_w, Δp_s): each edge's drop is held at Δp_s
//                        while the pump allows it; the pump saturating, the highest load
//                        is the one that starves;
//   none:                Δp_m = p_P − p_w.
// The LS port taps the open work port through a check and a passage that opens with the
// meter-in edge, up to A_ls at full stroke (f: the edge's open fraction):
//   q_LS = orifice_flow(C_d, f A_ls, p_w − p_LS) for p_w > p_LS (from the work port),
// so that LS lines joined through a bleed settle at the highest load (a shuttle network
// in one port: any number of sections feed one LS volume). The physical compensator, for
// its dynamics, is `pressure_compensator` (pressure_valves.cpp).
//
// The open-centre section (`open_centre_section`, a 6/3 valve: ports P, T, A, B and the
// bypass's inlet and outlet) has the 4/3 valve's metering edges with load-holding
// checks, and a centre bypass open at neutral that closes as the spool moves,
// A = A_c clamp((c − |ξ|)/c, 0, 1), with C_d A_c = q_c / sqrt(2 Δp_n / ρ) from the
// bypass's rated flow q_c. Bypasses chained outlet to inlet, the first inlet on the pump
// line and the last outlet to tank, with every P on the pump line, make the parallel
// open-centre circuit of a fixed pump, whose pressure builds as the operator closes a
// bypass (P on the previous bypass outlet instead: the tandem circuit).
#include "hydraulic_library.hpp"
#include "jourdain/components/interpolation.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::hydraulic_library {

enum class ValveKind { TwoTwo, ThreeTwo, FourTwo, FourThree, Proportional, LoadSensing, OpenCentre };

enum class Compensator { Post, Pre, None };

class DirectionalValve : public HydraulicComponent {
 public:
  explicit DirectionalValve(ValveKind kind) : kind_(kind) {
    const bool proportional = rated();
    if (proportional) {
      rated_flow_ = declare_real("rated_flow", "m^3/s", std::nullopt,
                                 "q_n: flow of one metering edge at full command and Δp_n", Range::positive());
      rated_drop_ = declare_real("rated_pressure_drop", "Pa", 5e5,
                                 "Δp_n: pressure drop per metering edge for the rated flow", Range::positive());
      // The dead band plays the overlap (the same handle).
      overlap_ = declare_real("dead_band", "", 0.0,
                              "command fraction over which the edges stay shut (an overlap; < 0: underlap)",
                              Range::between(-0.5, 0.5));
      declare_table("flow_curve", {"", ""},
                    "flow over stroke from the data sheet: rows [stroke fraction beyond the dead band, flow fraction]",
                    nlohmann::json::array({nlohmann::json::array({0.0, 0.0}), nlohmann::json::array({1.0, 1.0})}));
      hysteresis_ = declare_real("hysteresis", "", 0.0, "command fraction the spool lags by when it reverses",
                                 Range::between(0.0, 0.5));
    } else {
      max_opening_ =
          declare_real("max_opening", "m", 1e-3,
                       three_position() ? "spool travel x_max each way from the centre" : "spool travel x_max",
                       Range::positive());
      overlap_ = declare_real("overlap", "m", 0.0, "overlap o of the metering edges (< 0: underlap)");
      declare_area_parameters("max_area", "a fully open path", 1e-4);
    }
    if (kind_ == ValveKind::LoadSensing) {
      declare_text("compensator", "post",
                   "post: after the meter-in edge (flow sharing); pre: before it; none: an LS valve without",
                   {"post", "pre", "none"});
      setting_ = declare_real("compensator_setting", "Pa", 0.0,
                              "Δp_s: pre: the meter-in drop it holds; post: its spring (a light one, ~1 bar)",
                              Range::non_negative());
      ls_area_ = declare_real("ls_tap_area", "m^2", 2e-6, "A_ls: the LS tap's orifice (with its check)",
                              Range::positive());
    }
    if (kind_ == ValveKind::OpenCentre) {
      bypass_flow_ = declare_real("bypass_rated_flow", "m^3/s", std::nullopt,
                                  "q_c: flow through the centre bypass at neutral and Δp_n", Range::positive());
      centre_opening_ = declare_real("centre_opening", "", 0.3, "c: command fraction at which the bypass is shut",
                                     Range::between(0.01, 1.0));
    }
    if (kind_ == ValveKind::FourThree || kind_ == ValveKind::Proportional) {
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
    const bool proportional = rated();
    // Ports and paths.
    p_ = declare_port("p", hydraulic_domain(), PortSide::Response, "pressure port P");
    if (kind_ == ValveKind::OpenCentre) {
      bypass_in_ = declare_port("bypass_in", hydraulic_domain(), PortSide::Response,
                                "centre bypass inlet (the pump line, or the previous section's bypass outlet)");
      bypass_out_ = declare_port("bypass_out", hydraulic_domain(), PortSide::Response,
                                 "centre bypass outlet (the next section's bypass inlet, or tank)");
    }
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
      if (kind_ == ValveKind::OpenCentre) paths_.push_back({bypass_in_, bypass_out_, 0.0, Edge::Centre});
      if (kind_ == ValveKind::FourThree || kind_ == ValveKind::Proportional) {
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
    if (kind_ == ValveKind::LoadSensing) {
      ls_ = declare_port("ls", hydraulic_domain(), PortSide::Response, "load-sensing port LS: the open work port's pressure, through a check");
      const std::string c = text("compensator");
      compensator_ = c == "post" ? Compensator::Post : c == "pre" ? Compensator::Pre : Compensator::None;
    }
    if (proportional) {
      const auto rows = table("flow_curve");
      if (const std::string why = Curve::check(rows); !why.empty()) parameter_error("flow_curve", why);
      flow_curve_ = Curve(rows);
    }
    hydraulic_ports_ = {p_, t_, a_, b_, bypass_in_, bypass_out_, ls_};
    std::erase_if(hydraulic_ports_, [](PortId id) { return !id.valid(); });
    for (auto& path : paths_) {
      path.from_slot = slot(path.from);
      path.to_slot = slot(path.to);
    }
    if (ls_.valid()) ls_slot_ = slot(ls_);

    command_ =
        declare_port("command", signal_domain(), PortSide::Response,
                     proportional ? "spool command, fraction of full opening (−1 to 1)" : "spool position demand (m)");
    configure_dynamics("spool", proportional ? "" : "m", "spool position x");
    // The flows read every pressure, and the command too when the spool has no dynamics.
    std::vector<PortId> reads = hydraulic_ports_;
    if (!has_dynamics()) reads.push_back(command_);
    // Its metering edges throttle and store nothing: the power the ports bring, −Σ p q,
    // all turns into heat (through the heat port when there is one).
    power_loss_ = declare_throttling(hydraulic_ports_, reads, "−Σ p q over the ports: throttling loss, turned into heat");

    position_ = declare_observable("position", proportional ? "" : "m", "spool position x");
    if (proportional)
      rated_area_ = declare_derived("opening_area", "m^2", "A_max of a metering edge, q_n / (C_d sqrt(2 Δp_n / ρ))");
    if (kind_ == ValveKind::OpenCentre)
      bypass_area_ = declare_derived("bypass_area", "m^2", "A_c of the centre bypass, q_c / (C_d sqrt(2 Δp_n / ρ))");
    for (PortId port : hydraulic_ports_)
      port_flows_.push_back(declare_observable("flow_" + ports()[port.index].name, "m^3/s",
                                               "flow delivered into the element at " + ports()[port.index].name));
    finish_configure();
  }

  void calc_outputs(Eval& e) const override {
    double q[max_ports] = {};
    flows(e, q);
    for (size_t k = 0; k < hydraulic_ports_.size(); ++k) e.set_out(hydraulic_ports_[k], hydraulic::flow_rate, q[k]);
    if (has_heat_port()) set_heat_flow(e, power_loss(e, q));
  }

  void calc_derivatives(Eval& e) const override {
    dynamic_derivatives(e, demand(e), hysteresis_.valid() ? e.param(hysteresis_) / 2.0 : 0.0);
    double q[max_ports] = {};
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
    int from_slot = -1, to_slot = -1;  // the ends' places in hydraulic_ports_ (configure)
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
  static constexpr int max_ports = 7;
  // The valves sized by a rated flow, whose command is a fraction of full opening.
  bool rated() const {
    return kind_ == ValveKind::Proportional || kind_ == ValveKind::LoadSensing || kind_ == ValveKind::OpenCentre;
  }
  bool three_position() const { return kind_ == ValveKind::FourThree || rated(); }

  Spool spool(const Eval& e) const {
    Spool s{};
    s.travel = rated() ? 1.0 : e.param(max_opening_);
    s.half = three_position() ? s.travel : s.travel / 2.0;
    s.middle = three_position() ? 0.0 : s.travel / 2.0;
    s.overlap = e.param(overlap_);
    s.centre_opening = centre_opening_.valid() ? e.param(centre_opening_) : 0.0;
    return s;
  }

  // The derived stage: the edges must open; a proportional valve's area at full command
  // from its rating, C_d A_max = q_n / sqrt(2 Δp_n / ρ).
  void calc_derived(Eval& e) const override {
    HydraulicComponent::calc_derived(e);
    const Spool s = spool(e);
    if (!(s.overlap < s.half))
      parameter_error(rated() ? "dead_band" : "overlap",
                      "must be below the half travel (" + format_number(s.half) + "), or no edge ever opens");
    for (const auto& path : paths_)
      if (path.edge != Edge::Centre && !(s.overlap_of(path) < s.half))
        parameter_error("centre_opening", "leaves an edge that never opens");
    if (compensator_ == Compensator::Pre && !(e.param(setting_) > 0.0))
      parameter_error("compensator_setting", "a pre-compensator needs the meter-in drop it holds (e.g. \"12 bar\")");
    if (rated_area_.valid()) e.set_derived(rated_area_, rated_area(e, e.param(rated_flow_)));
    if (bypass_area_.valid()) e.set_derived(bypass_area_, rated_area(e, e.param(bypass_flow_)));
  }
  // The area that passes q at the rated drop: C_d A = q / sqrt(2 Δp_n / ρ).
  double rated_area(const Eval& e, double q) const {
    return q / (discharge_coefficient(e) * std::sqrt(2.0 * e.param(rated_drop_) / fluid(e).density));
  }

  // The command clamped to the spool's travel.
  double demand(const Eval& e, const Spool& s) const {
    const double u = e.in(command_, signal::value);
    return three_position() ? std::clamp(u, -s.travel, s.travel) : std::clamp(u, 0.0, s.travel);
  }
  double demand(const Eval& e) const { return demand(e, spool(e)); }

  // How far a path is open at spool coordinate ξ (from the middle of the travel), 0 to 1.
  double path_fraction(const Path& path, const Spool& s, double xi) const {
    if (path.edge == Edge::Centre) return std::clamp((s.centre_opening - std::abs(xi)) / s.centre_opening, 0.0, 1.0);
    const double o = s.overlap_of(path);
    const double fraction = std::clamp((path.sign * xi - o) / (s.half - o), 0.0, 1.0);
    return rated() ? std::clamp(flow_curve_(fraction), 0.0, 1.0) : fraction;  // the data sheet's curve
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
    // An open-centre section's bypass has a size of its own; a tandem centre's P → T
    // passage has the edges' size.
    const double centre_area = bypass_area_.valid() ? e.derived(bypass_area_) : full_area;
    const double leak = e.param(leak_);
    for (const auto& path : paths_) {
      const double fraction = path_fraction(path, s, xi);
      const double area = std::max((path.edge == Edge::Centre ? centre_area : full_area) * fraction, leak);
      const bool meter_in = path.from == p_ && path.edge != Edge::Centre && section();
      const double dp = meter_in ? metering_drop(e, path.to)
                                 : e.in(path.from, hydraulic::pressure) - e.in(path.to, hydraulic::pressure);
      const double flow = orifice(e, area, dp);
      q[path.from_slot] -= flow;
      q[path.to_slot] += flow;
      if (meter_in && ls_.valid() && fraction > 0.0) {
        // The LS tap on the open work port, through its check; its passage opens with the
        // spool's groove, in proportion to the meter-in edge (a tap that opened at once
        // would switch a flow on: a jump in the right-hand side).
        const double tap_dp = e.in(path.to, hydraulic::pressure) - e.in(ls_, hydraulic::pressure);
        const double tap = tap_dp > 0.0 ? orifice(e, e.param(ls_area_) * fraction, tap_dp) : 0.0;
        q[path.to_slot] -= tap;
        q[ls_slot_] += tap;
      }
    }
  }
  // The mobile sections: meter-in edges behind a load-holding check (and a compensator).
  bool section() const { return kind_ == ValveKind::LoadSensing || kind_ == ValveKind::OpenCentre; }
  // The drop across a section's meter-in edge from P to `work` (the file comment): 0
  // when the load-holding check is shut, else as the compensator sets it.
  double metering_drop(const Eval& e, PortId work) const {
    const double p_p = e.in(p_, hydraulic::pressure), p_w = e.in(work, hydraulic::pressure);
    if (!(p_p > p_w)) return 0.0;
    if (kind_ != ValveKind::LoadSensing) return p_p - p_w;
    switch (compensator_) {
      case Compensator::Post:
        return std::max(p_p - std::max(e.in(ls_, hydraulic::pressure) + e.param(setting_), p_w), 0.0);
      case Compensator::Pre:
        return std::min(p_p - p_w, e.param(setting_));
      case Compensator::None:
        break;
    }
    return p_p - p_w;
  }

  ValveKind kind_;
  RealParam max_opening_, overlap_, centre_opening_, rated_flow_, rated_drop_, leak_, hysteresis_;
  RealParam setting_, ls_area_, bypass_flow_;  // the mobile sections
  DerivedId rated_area_, bypass_area_;        // the rated valves; the open-centre bypass
  Compensator compensator_ = Compensator::None;
  Curve flow_curve_;  // the rated valves: flow fraction over stroke fraction
  std::vector<Path> paths_;
  PortId p_, t_, a_, b_, bypass_in_, bypass_out_, ls_, command_;
  int ls_slot_ = -1;
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
                                        "proportional 4/3 valve: rated flow, flow curve over stroke, spool dynamics");
  r.add<Valve<ValveKind::LoadSensing>>(
      "hydraulic.ls_section", "load-sensing valve section: pre- or post-compensated (flow sharing), LS port, load check");
  r.add<Valve<ValveKind::OpenCentre>>("hydraulic.open_centre_section",
                                      "open-centre 6/3 valve section: centre bypass P-C, load checks on the meter-in edges");
}

}  // namespace jourdain::hydraulic_library
