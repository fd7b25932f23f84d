// Flow divider/combiner: one inlet p, two outlets a and b whose flows keep a ratio.
//
// A spool-type divider meters the inlet's flow through two fixed orifices of areas
// A_a = 2 r A and A_b = 2 (1 − r) A (r the share of a, A the area of each at r = 1/2)
// into two chambers, and a free spool between the chambers throttles the outlet of the
// lower-pressure side until both chambers stand at the same pressure. Both metering
// orifices then see the same drop and the flows keep the ratio of their areas whatever
// the loads (two cylinders or motors synchronised). The spool is far faster than the
// loads it synchronises, so it is taken as settled; the chambers' common pressure is the
// higher outlet's (its side is wide open):
//   dividing  (p_p > max(p_a, p_b)):  Δp_m = p_p − max(p_a, p_b),
//                                     q_a = orifice_flow(C_d, A_a, Δp_m),  q_b = orifice_flow(C_d, A_b, Δp_m);
//   combining (p_p < min(p_a, p_b)):  the same with the flows reversed, Δp_m = min(p_a, p_b) − p_p,
//                                     the spool throttling the higher inlet;
//   in between: the spool at its stop, no flow (continuous at both ends, where Δp_m = 0).
// Sizing from the data sheet: A from the rated flow q_n through the divider at the drop
// Δp_n, C_d (A_a + A_b) = 2 C_d A = q_n / sqrt(2 Δp_n / ρ).
#include "hydraulic_library.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::hydraulic_library {

class FlowDivider final : public HydraulicComponent {
 public:
  FlowDivider() {
    share_ = declare_real("ratio", "", 0.5, "r: the share of the flow that goes through a", Range::between(0.01, 0.99));
    rated_flow_ = declare_real("rated_flow", "m^3/s", std::nullopt, "q_n: the inlet's flow at the drop Δp_n",
                               Range::positive());
    rated_drop_ = declare_real("rated_pressure_drop", "Pa", 10e5,
                               "Δp_n: the metering orifices' drop at the rated flow", Range::positive());
    declare_orifice_parameters("C_d of the metering orifices");
    declare_heat_port_parameter("true: a thermal port 'heat' returns the throttling loss −Σ p q as heat flow");
    set_example("rated_flow", "40 L/min");
  }
  void configure() override {
    p_ = declare_port("p", hydraulic_domain(), PortSide::Response, "inlet (dividing) or outlet (combining)");
    a_ = declare_port("a", hydraulic_domain(), PortSide::Response, "branch a, share r");
    b_ = declare_port("b", hydraulic_domain(), PortSide::Response, "branch b, share 1 − r");
    const std::vector<PortId> ports{p_, a_, b_};
    power_loss_ = declare_throttling(ports, ports, "throttling loss −Σ p q, turned into heat");
    area_ = declare_derived("metering_area", "m^2", "A, each metering orifice's area at r = 1/2");
    flow_a_ = declare_observable("flow_a", "m^3/s", "flow delivered into the element at a");
    flow_b_ = declare_observable("flow_b", "m^3/s", "flow delivered into the element at b");
    finish_configure();
  }
  void calc_derived(Eval& e) const override {
    HydraulicComponent::calc_derived(e);
    e.set_derived(area_, e.param(rated_flow_) / (2.0 * discharge_coefficient(e) *
                                                 std::sqrt(2.0 * e.param(rated_drop_) / fluid(e).density)));
  }
  void calc_outputs(Eval& e) const override {
    const Branches q = branches(e);
    e.set_out(p_, hydraulic::flow_rate, -(q.a + q.b));
    e.set_out(a_, hydraulic::flow_rate, q.a);
    e.set_out(b_, hydraulic::flow_rate, q.b);
    if (has_heat_port()) set_heat_flow(e, loss(e, q));
  }
  void calc_derivatives(Eval& e) const override {
    const Branches q = branches(e);
    e.set_observable(flow_a_, q.a);
    e.set_observable(flow_b_, q.b);
    e.set_observable(power_loss_, loss(e, q));
  }

 private:
  struct Branches {
    double a, b;  // flows from p into a and into b (negative: combining)
  };
  Branches branches(const Eval& e) const {
    const double pp = e.in(p_, hydraulic::pressure), pa = e.in(a_, hydraulic::pressure),
                 pb = e.in(b_, hydraulic::pressure);
    const double r = e.param(share_), area = e.derived(area_);
    double drop = 0.0;  // the metering drop, signed: > 0 dividing, < 0 combining
    if (pp > std::max(pa, pb)) drop = pp - std::max(pa, pb);
    if (pp < std::min(pa, pb)) drop = pp - std::min(pa, pb);
    return {orifice(e, 2.0 * r * area, drop), orifice(e, 2.0 * (1.0 - r) * area, drop)};
  }
  double loss(const Eval& e, const Branches& q) const {
    const double pp = e.in(p_, hydraulic::pressure);
    return (pp - e.in(a_, hydraulic::pressure)) * q.a + (pp - e.in(b_, hydraulic::pressure)) * q.b;
  }

  RealParam share_, rated_flow_, rated_drop_;
  PortId p_, a_, b_;
  DerivedId area_;
  ObservableId flow_a_, flow_b_, power_loss_;
};

void register_flow_valves(Registry& r) {
  r.add<FlowDivider>("hydraulic.flow_divider",
                     "flow divider/combiner: two branches in a fixed ratio whatever their loads");
}

}  // namespace jourdain::hydraulic_library
