// Heat transfer between two bodies (each end a response-side port on a heat capacity or
// a fixed temperature); the heat flow Q from a to b is delivered out of a and into b:
//   conduction   Q = G (T_a − T_b)                        G = λ A / L, or given
//   convection   Q = h A (T_a − T_b)                      h A given, or h from the
//                                                          signal input `coefficient`
//   radiation    Q = ε σ A (T_a⁴ − T_b⁴)                  between a grey body a and
//                                                          large surroundings b
// None of them stores or loses energy: what leaves a reaches b.
#include <cmath>

#include "thermal_library.hpp"

namespace jourdain::thermal_library {

namespace {
constexpr double kStefanBoltzmann = 5.670374419e-8;  // W/(m² K⁴), CODATA 2018 (exact in the 2019 SI)
}

class HeatTransfer : public Component {
 public:
  enum class Law { Conduction, Convection, Radiation };
  explicit HeatTransfer(Law law) : law_(law) {
    switch (law_) {
      case Law::Conduction:
        coefficient_ = declare_real("conductance", "W/K", std::nullopt, "thermal conductance G = λ A / L",
                                    Range::non_negative());
        break;
      case Law::Convection:
        coefficient_ = declare_real("coefficient", "W/(m^2*K)", 10.0,
                                    "heat transfer coefficient h (with a signal: ignored)", Range::non_negative());
        area_ = declare_real("area", "m^2", std::nullopt, "area A of the surface", Range::positive());
        declare_text("source", "constant", "constant: the parameter coefficient; signal: input 'coefficient' (W/(m²·K))",
                     {"constant", "signal"});
        break;
      case Law::Radiation:
        coefficient_ = declare_real("emissivity", "", 0.9, "emissivity ε of body a", Range::between(0.0, 1.0));
        area_ = declare_real("area", "m^2", std::nullopt, "radiating area A of body a", Range::positive());
        break;
    }
  }
  void configure() override {
    a_ = declare_port("a", thermal_domain(), PortSide::Response, "end a: its temperature in, the heat flow out of it");
    b_ = declare_port("b", thermal_domain(), PortSide::Response, "end b: its temperature in, the heat flow into it");
    if (law_ == Law::Convection && text("source") == "signal") {
      signal_ = declare_port("coefficient", signal_domain(), PortSide::Response, "heat transfer coefficient h (W/(m²·K))");
    }
    heat_flow_ = declare_observable("heat_flow", "W", "heat flow Q from a to b");
    difference_ = declare_observable("temperature_difference", "K", "T_a − T_b", "temperature_difference");
  }
  void calc_outputs(Eval& e) const override {
    const double q = heat_flow(e);
    e.set_out(a_, thermal::heat_flow, -q);
    e.set_out(b_, thermal::heat_flow, q);
  }
  void calc_derivatives(Eval& e) const override {
    e.set_observable(heat_flow_, heat_flow(e));
    e.set_observable(difference_, e.in(a_, thermal::temperature) - e.in(b_, thermal::temperature));
  }

 private:
  double heat_flow(const Eval& e) const {
    const double ta = e.in(a_, thermal::temperature), tb = e.in(b_, thermal::temperature);
    switch (law_) {
      case Law::Conduction: return e.param(coefficient_) * (ta - tb);
      case Law::Convection:
        return (signal_.valid() ? e.in(signal_, signal::value) : e.param(coefficient_)) * e.param(area_) * (ta - tb);
      case Law::Radiation:
        return e.param(coefficient_) * kStefanBoltzmann * e.param(area_) * (std::pow(ta, 4) - std::pow(tb, 4));
    }
    return 0.0;
  }
  Law law_;
  RealParam coefficient_, area_;
  PortId a_, b_, signal_;
  ObservableId heat_flow_, difference_;
};

class Conduction final : public HeatTransfer {
 public:
  Conduction() : HeatTransfer(Law::Conduction) {}
};
class Convection final : public HeatTransfer {
 public:
  Convection() : HeatTransfer(Law::Convection) {}
};
class Radiation final : public HeatTransfer {
 public:
  Radiation() : HeatTransfer(Law::Radiation) {}
};

void register_transfer(Registry& r) {
  r.add<Conduction>("thermal.conductance", "heat conduction Q = G ΔT");
  r.add<Convection>("thermal.convection", "convection Q = h A ΔT, h given or from a signal");
  r.add<Radiation>("thermal.radiation", "grey-body radiation to large surroundings, Q = ε σ A (T_a⁴ − T_b⁴)");
}

}  // namespace jourdain::thermal_library
