// Static signal operations: outputs computed directly from inputs.
#include <string>

#include "signal_library.hpp"

namespace jourdain::signal_library {

// y = k u
class Gain final : public Component {
 public:
  Gain() { declare_real("k", "", 1.0, "gain"); }
  void configure() override {
    k_ = real("k");
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "output k u");
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, k_ * e.in(in_, signal::value)); }

 private:
  double k_ = 1.0;
  PortId in_, out_;
};

// y = sum of s_i u_i, with the signs s_i given as a string such as "+-+" (ports in1..inN).
class Sum final : public Component {
 public:
  Sum() { declare_text("signs", "++", "one '+' or '-' per input, in order (in1, in2, ...)"); }
  void configure() override {
    const std::string signs = text("signs");
    if (signs.empty() || signs.find_first_not_of("+-") != std::string::npos)
      parameter_error("signs", "must be a non-empty string of '+' and '-'");
    for (size_t i = 0; i < signs.size(); ++i) {
      inputs_.push_back(declare_port("in" + std::to_string(i + 1), signal_domain(), PortSide::Response, "input"));
      signs_.push_back(signs[i] == '+' ? 1.0 : -1.0);
    }
    out_ = declare_port("out", signal_domain(), PortSide::State, "signed sum of the inputs");
  }
  void calc_outputs(Eval& e) const override {
    double y = 0.0;
    for (size_t i = 0; i < inputs_.size(); ++i) y += signs_[i] * e.in(inputs_[i], signal::value);
    e.set_out(out_, signal::value, y);
  }

 private:
  std::vector<PortId> inputs_;
  std::vector<double> signs_;
  PortId out_;
};

void register_math(Registry& r) {
  r.add<Gain>("signal.gain", "y = k u");
  r.add<Sum>("signal.sum", "y = sum of signed inputs (signs \"+-...\")");
}

}  // namespace jourdain::signal_library
