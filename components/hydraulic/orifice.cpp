// Fixed and variable orifices between two capacitive elements.
#include "hydraulic_library.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::hydraulic_library {

// Sharp-edged orifice of area A (from a diameter d: A = π d²/4), flow from a to b:
//   q = C_d tanh(2λ/λ_crit) A sign(Δp) sqrt(2|Δp|/ρ),   Δp = p_a − p_b
// (orifice_flow in hydraulic_library.hpp: turbulent, with a smooth laminar region near
// Δp = 0). It returns −q to a and +q to b. With "control": "signal", the area is
// A·clamp(u, 0, 1) for the input `opening` u (a throttle, a proportional seat valve).
class Orifice final : public HydraulicComponent {
 public:
  Orifice() {
    declare_area_parameters("area", "the orifice", 0.0);
    declare_orifice_parameters("C_d of the turbulent regime (sharp edge ≈ 0.61–0.7)");
    declare_text("control", "none", "none: fixed area; signal: area times the input 'opening' (0 to 1)",
                 {"none", "signal"});
  }
  void configure() override {
    area_ = configured_area();
    if (!(area_ > 0.0)) parameter_error("area", "give a positive diameter or area");
    configure_orifice();
    a_ = declare_port("a", hydraulic_domain(), PortSide::Response, "side a (flow a -> b counts positive)");
    b_ = declare_port("b", hydraulic_domain(), PortSide::Response, "side b");
    if (text("control") == "signal") {
      opening_ = declare_port("opening", signal_domain(), PortSide::Response, "opening fraction u, clamped to [0, 1]");
      set_dependencies(a_, {a_, b_, opening_});
      set_dependencies(b_, {a_, b_, opening_});
    } else {
      set_dependencies(a_, {a_, b_});
      set_dependencies(b_, {a_, b_});
    }
    flow_ = declare_observable("flow", "m^3/s", "flow from a to b");
    dp_ = declare_observable("pressure_drop", "Pa", "p_a − p_b");
    bind_fluid();
  }
  void calc_outputs(Eval& e) const override {
    const double q = flow(e);
    e.set_out(a_, hydraulic::flow_rate, -q);
    e.set_out(b_, hydraulic::flow_rate, q);
  }
  void calc_derivatives(Eval& e) const override {
    e.set_observable(flow_, flow(e));
    e.set_observable(dp_, e.in(a_, hydraulic::pressure) - e.in(b_, hydraulic::pressure));
  }

 private:
  double flow(const Eval& e) const {
    const double area = opening_.valid() ? area_ * std::clamp(e.in(opening_, signal::value), 0.0, 1.0) : area_;
    return orifice(area, e.in(a_, hydraulic::pressure) - e.in(b_, hydraulic::pressure));
  }
  double area_ = 0.0;
  PortId a_, b_, opening_;
  ObservableId flow_, dp_;
};

void register_orifices(Registry& r) {
  r.add<Orifice>("hydraulic.orifice",
                 "sharp-edged orifice, turbulent with a laminar region; fixed or signal-controlled area");
}

}  // namespace jourdain::hydraulic_library
