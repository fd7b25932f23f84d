// Static signal operations: outputs computed directly from inputs.
#include <algorithm>
#include <string>

#include "jourdain/errors.hpp"
#include "interpolation.hpp"
#include "signal_library.hpp"

namespace jourdain::signal_library {

// y = k u
class Gain final : public Component {
 public:
  Gain() { k_ = declare_real("k", "", 1.0, "gain"); }
  void configure() override {
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "output k u");
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.param(k_) * e.in(in_, signal::value)); }

 private:
  RealParam k_;
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

// y = prod of u_i^(s_i), s_i = +1 for '*' and -1 for '/', with the operations given as a
// string such as "**/" (ports in1..inN): "*/" gives y = u1 / u2, "/" gives y = 1 / u1.
class Product final : public Component {
 public:
  Product() {
    declare_text("operations", "**", "one '*' (multiply) or '/' (divide) per input, in order (in1, in2, ...)");
  }
  void configure() override {
    const std::string ops = text("operations");
    if (ops.empty() || ops.find_first_not_of("*/") != std::string::npos)
      parameter_error("operations", "must be a non-empty string of '*' and '/', got '" + ops + "'");
    for (size_t i = 0; i < ops.size(); ++i) {
      inputs_.push_back(declare_port("in" + std::to_string(i + 1), signal_domain(), PortSide::Response, "input"));
      divide_.push_back(ops[i] == '/');
    }
    out_ = declare_port("out", signal_domain(), PortSide::State, "product of the inputs");
  }
  void calc_outputs(Eval& e) const override {
    double y = 1.0;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      const double u = e.in(inputs_[i], signal::value);
      if (!divide_[i]) {
        y *= u;
        continue;
      }
      if (u == 0.0)
        throw SimulationError(e.time(), {name()},
                              "division by zero: input 'in" + std::to_string(i + 1) + "' is 0");
      y /= u;
    }
    e.set_out(out_, signal::value, y);
  }

 private:
  std::vector<PortId> inputs_;
  std::vector<bool> divide_;
  PortId out_;
};

// y = min(max(u, lower), upper)
class Saturation final : public Component {
 public:
  Saturation() {
    lower_ = declare_real("lower", "", -1.0, "lower limit");
    upper_ = declare_real("upper", "", 1.0, "upper limit (greater than lower)");
  }
  void configure() override {
    check(netlist_value(lower_), netlist_value(upper_));
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "u clamped to [lower, upper]");
  }
  void initialize(Eval& e) const override { check(e.param(lower_), e.param(upper_)); }
  void calc_outputs(Eval& e) const override {
    e.set_out(out_, signal::value, std::clamp(e.in(in_, signal::value), e.param(lower_), e.param(upper_)));
  }

 private:
  void check(double lower, double upper) const {
    if (std::string why = order_problem("lower", lower, "upper", upper); !why.empty()) parameter_error("lower", why);
  }

  RealParam lower_, upper_;
  PortId in_, out_;
};

// y = table(u): piecewise-linear interpolation of the rows [x_i, y_i] (interpolation.hpp),
// with the end values held ("hold") or the end segments extended ("linear") outside
// [x_0, x_n-1]. For y as a function of time, use signal.time_table.
class Table final : public CurveComponent {
 public:
  Table() : CurveComponent("") {}
  void configure() override {
    load_curve();
    in_ = declare_port("in", signal_domain(), PortSide::Response, "abscissa x");
    out_ = declare_port("out", signal_domain(), PortSide::State, "y(x) interpolated in the table");
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, curve_(e.in(in_, signal::value))); }

 private:
  PortId in_, out_;
};

void register_math(Registry& r) {
  r.add<Gain>("signal.gain", "y = k u");
  r.add<Sum>("signal.sum", "y = sum of signed inputs (signs \"+-...\")");
  r.add<Product>("signal.product", "y = product of inputs, each multiplied or divided (operations \"*/...\")");
  r.add<Saturation>("signal.saturation", "y = u clamped to [lower, upper]");
  r.add<Table>("signal.table", "y(u) interpolated linearly in a table [x, y]");
}

}  // namespace jourdain::signal_library
