// example.cubic_spring: a nonlinear ("hardening") spring of the 1D mechanical domain,
// written as a plugin.
//
//   tension  F = k1 δ + k3 δ³,   δ = x_b - x_a - L0
//
// It pulls end a toward b and b toward a when stretched (F > 0), like the built-in
// mechanical1d.spring; with k3 = 0 it is that linear spring. k3 > 0 stiffens the spring
// as it is stretched or compressed (a Duffing oscillator with a mass); k3 < 0 softens
// it. Its stored energy V(δ) = k1 δ²/2 + k3 δ⁴/4 is an observable, so that a run can
// check the energy balance of the system it is part of.
#include <jourdain/components/domains.hpp>
#include <jourdain/plugin.hpp>

namespace {

using namespace jourdain;

class CubicSpring final : public Component {
 public:
  CubicSpring() {
    k1_ = declare_real("k1", "N/m", 1000.0, "linear stiffness k1", Range::non_negative());
    k3_ = declare_real("k3", "N/m^3", 0.0, "cubic stiffness k3 (> 0 hardening, < 0 softening)");
    free_length_ = declare_real("free_length", "m", 0.0, "length L0 at which the spring is relaxed");
  }

  void configure() override {
    a_ = declare_port("a", mech1d_domain(), PortSide::Response, "end a");
    b_ = declare_port("b", mech1d_domain(), PortSide::Response, "end b");
    force_ = declare_observable("force", "N", "tension k1 δ + k3 δ³ (positive when stretched)");
    elongation_ = declare_observable("elongation", "m", "δ = x_b - x_a - L0");
    energy_ = declare_observable("energy", "J", "stored energy k1 δ²/2 + k3 δ⁴/4");
  }

  void calc_outputs(Eval& e) const override {
    const double k1 = e.param(k1_), k3 = e.param(k3_);
    const double d = e.in(b_, mech1d::position) - e.in(a_, mech1d::position) - e.param(free_length_);
    const double d2 = d * d;
    const double tension = d * (k1 + k3 * d2);
    e.set_out(a_, mech1d::force, tension);
    e.set_out(b_, mech1d::force, -tension);
    e.set_observable(force_, tension);
    e.set_observable(elongation_, d);
    e.set_observable(energy_, d2 * (0.5 * k1 + 0.25 * k3 * d2));
  }

 private:
  RealParam k1_, k3_, free_length_;
  PortId a_, b_;
  ObservableId force_, elongation_, energy_;
};

}  // namespace

JOURDAIN_PLUGIN(registry) {
  registry.add<CubicSpring>("example.cubic_spring", "nonlinear spring F = k1 d + k3 d^3 (example plugin)");
}
