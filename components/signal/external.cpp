// A netlist's external signals: where values enter from outside (signal.input) and where
// results leave (signal.output). In a plain run an input holds its value parameter, which
// a run may change like any numeric parameter; a co-simulation unit exported from the
// netlist (`jourdain export-fmu`, netlists/README.md "External inputs and outputs")
// makes each input one of the unit's inputs, set by the importing tool between its
// steps, and each output one of its outputs.
#include "block.hpp"

namespace jourdain::signal_library {

// y = value, in `unit`.
class Input final : public Component {
 public:
  Input() {
    declare_text("unit", "", "unit of the signal, e.g. \"m\", \"Pa\" (empty: dimensionless)");
    // The value is declared in that unit (declare_dependent_parameters): "10 mm" then
    // reads as 0.01 for an input in m.
    set_decides_parameters("unit");
  }
  void declare_dependent_parameters() override {
    const std::string unit = text("unit");
    if (const std::string problem = unit_problem(unit); !problem.empty()) parameter_error("unit", problem);
    value_ = declare_real("value", unit, 0.0, "the value (from outside when the netlist is exported as an FMU)");
  }
  void configure() override {
    out_ = declare_port("out", signal_domain(), PortSide::State, "the input's value");
    set_dependencies(out_, {});
    if (!text("unit").empty()) set_unit(out_, text("unit"));
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.param(value_)); }

 private:
  RealParam value_;
  PortId out_;
};

// value = u, in `unit`: a recordable variable named after the component.
class Output final : public Component {
 public:
  Output() { declare_text("unit", "", "unit of the signal, e.g. \"m\", \"Pa\" (empty: dimensionless)"); }
  void configure() override {
    const std::string unit = text("unit");
    if (const std::string problem = unit_problem(unit); !problem.empty()) parameter_error("unit", problem);
    in_ = declare_port("in", signal_domain(), PortSide::Response, "the signal leaving the netlist");
    value_ = declare_observable("value", unit, "the output's value");
  }
  void calc_outputs(Eval& e) const override { e.set_observable(value_, e.in(in_, signal::value)); }

 private:
  PortId in_;
  ObservableId value_;
};

void register_external(Registry& r) {
  r.add<Input>("signal.input", "external input of the netlist: a value set from outside (an exported FMU's input)");
  r.add<Output>("signal.output", "external output of the netlist: a value offered outside (an exported FMU's output)");
}

}  // namespace jourdain::signal_library
