// Force elements between two mass-side ports, and fixed points.
#include "mechanical1d_library.hpp"

namespace jourdain::mechanical1d_library {

// Linear spring: tension F = k (x_b - x_a - L0); it pulls a toward b and b toward a.
class Spring final : public Component {
 public:
  Spring() {
    k_ = declare_real("stiffness", "N/m", 1000.0, "stiffness k", Range::non_negative());
    free_length_ = declare_real("free_length", "m", 0.0, "length L0 at which the spring is relaxed");
  }
  void configure() override {
    a_ = declare_port("a", mech1d_domain(), PortSide::Response, "end a");
    b_ = declare_port("b", mech1d_domain(), PortSide::Response, "end b");
    tension_ = declare_observable("force", "N", "tension (positive when stretched)");
    elongation_ = declare_observable("elongation", "m", "x_b - x_a - L0");
    energy_ = declare_observable("energy", "J", "elastic energy ½ k (x_b − x_a − L0)²");
    set_energy_role(energy_, EnergyRole::Stored);
  }
  void calc_outputs(Eval& e) const override {
    const double stretch = e.in(b_, mech1d::position) - e.in(a_, mech1d::position) - e.param(free_length_);
    const double tension = e.param(k_) * stretch;
    e.set_out(a_, mech1d::force, tension);
    e.set_out(b_, mech1d::force, -tension);
    e.set_observable(tension_, tension);
    e.set_observable(elongation_, stretch);
    e.set_observable(energy_, 0.5 * e.param(k_) * stretch * stretch);
  }

 private:
  RealParam k_, free_length_;
  PortId a_, b_;
  ObservableId tension_, elongation_, energy_;
};

// Linear damper: F = c (v_b - v_a) on a, -F on b.
class Damper final : public Component {
 public:
  Damper() { c_ = declare_real("damping", "N*s/m", 100.0, "viscous damping coefficient c", Range::non_negative()); }
  void configure() override {
    a_ = declare_port("a", mech1d_domain(), PortSide::Response, "end a");
    b_ = declare_port("b", mech1d_domain(), PortSide::Response, "end b");
    force_ = declare_observable("force", "N", "force on end a");
    power_loss_ = declare_observable("power_loss", "W", "c (v_b − v_a)², turned into heat");
    set_energy_role(power_loss_, EnergyRole::Loss);
  }
  void calc_outputs(Eval& e) const override {
    const double dv = e.in(b_, mech1d::velocity) - e.in(a_, mech1d::velocity);
    const double f = e.param(c_) * dv;
    e.set_out(a_, mech1d::force, f);
    e.set_out(b_, mech1d::force, -f);
    e.set_observable(force_, f);
    e.set_observable(power_loss_, f * dv);
  }

 private:
  RealParam c_;
  PortId a_, b_;
  ObservableId force_, power_loss_;
};

// A point that does not move; it takes any force (reported as reaction).
class Fixed final : public Component {
 public:
  Fixed() { position_ = declare_real("position", "m", 0.0, "position of the fixed point"); }
  void configure() override {
    port_ = declare_port("p", mech1d_domain(), PortSide::State, "fixed position (any number of connections)");
    set_dependencies(port_, {});
    reaction_ = declare_observable("reaction", "N", "sum of the forces applied to the fixed point");
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(port_, mech1d::position, e.param(position_));
    e.set_out(port_, mech1d::velocity, 0.0);
  }
  void calc_derivatives(Eval& e) const override { e.set_observable(reaction_, e.in(port_, mech1d::force)); }

 private:
  RealParam position_;
  PortId port_;
  ObservableId reaction_;
};

void register_elements(Registry& r) {
  r.add<Spring>("mechanical1d.spring", "linear spring with a free length");
  r.add<Damper>("mechanical1d.damper", "linear viscous damper");
  r.add<Fixed>("mechanical1d.fixed", "fixed point");
}

}  // namespace jourdain::mechanical1d_library
