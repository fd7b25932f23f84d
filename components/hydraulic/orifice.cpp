// Fixed and variable orifices between two capacitive elements.
#include "hydraulic_library.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::hydraulic_library {

// Sharp-edged orifice of area A (from a diameter d: A = π d²/4), flow from a to b:
//   q = C_d tanh(2λ/λ_crit) A sign(Δp) sqrt(2|Δp|/ρ),   Δp = p_a − p_b
// (orifice_flow in hydraulic_library.hpp: turbulent, with a smooth laminar region near
// Δp = 0). It returns −q to a and +q to b. With "control": "signal", the area is
// A·clamp(u, 0, 1) for the input `opening` u (a throttle, a proportional seat valve).
class Orifice final : public FlowPath {
 public:
  Orifice() {
    declare_area_parameters("area", "the orifice", 0.0);
    declare_orifice_parameters("C_d of the turbulent regime (sharp edge ≈ 0.61–0.7)");
    declare_text("control", "none", "none: fixed area; signal: area times the input 'opening' (0 to 1)",
                 {"none", "signal"});
    set_example("diameter", "2 mm");  // neither diameter nor area has a usable default
  }
  void configure() override {
    declare_flow_path("a", "side a (flow a -> b counts positive)", "b", "side b", "flow from a to b");
    if (text("control") == "signal")
      opening_ = declare_flow_signal("opening", "opening fraction u, clamped to [0, 1]");
    dp_ = declare_observable("pressure_drop", "Pa", "p_a − p_b", "pressure_difference");
    finish_configure();
  }

 private:
  void calc_derived(Eval& e) const override {
    HydraulicComponent::calc_derived(e);
    if (!(opening_area(e) > 0.0)) parameter_error("area", "give a positive diameter or area");
  }
  double flow(const Eval& e) const override {
    const double full = opening_area(e);
    const double area = opening_.valid() ? full * std::clamp(e.in(opening_, signal::value), 0.0, 1.0) : full;
    return orifice(e, area, pressure_drop(e));
  }
  void calc_other_derivatives(Eval& e) const override { e.set_observable(dp_, pressure_drop(e)); }

  PortId opening_;
  ObservableId dp_;
};

void register_orifices(Registry& r) {
  r.add<Orifice>("hydraulic.orifice",
                 "sharp-edged orifice, turbulent with a laminar region; fixed or signal-controlled area");
}

}  // namespace jourdain::hydraulic_library
