// Blocks at a sample time Ts (SampledBlock, block.hpp): sample-and-hold, discrete PID
// controller, discrete transfer function. Each reads its input at the sample instants
// t_k = sample_offset + k Ts only (time events: the solver stops on each), and its output
// is a discrete state that changes there only: between samples it is a constant the
// integrators see as one, and it never feeds its input through (a loop through it is
// not algebraic).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "block.hpp"

namespace jourdain::signal_library {

// y = u(t_k) for t_k <= t < t_k+1 (zero-order hold); y(t0) = u(t0).
class SampleHold final : public SampledBlock {
 public:
  SampleHold() : SampledBlock(0.01) { declare_unit(); }
  void configure() override {
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "u at the last sample instant");
    set_output_unit(out_);
    set_dependencies(out_, {});
    held_ = declare_discrete("held", 0.0, "the sample held", text("unit"));
    declare_sampling();
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.discrete(held_)); }

 private:
  void sample(Eval& e, bool) const override { e.set_discrete(held_, e.in(in_, signal::value)); }

  PortId in_, out_;
  DiscreteId held_;
};

// Discrete PID controller in velocity (incremental) form, with the integral and the
// filtered derivative discretised by backward Euler (s -> (1 - z^-1)/Ts):
//
//   D_k = (Tf D_k-1 + kd (e_k - e_k-1)) / (Tf + Ts)       kd s/(Tf s + 1) on e
//   v_k = u_k-1 + kp (e_k - e_k-1) + ki Ts e_k + D_k - D_k-1
//   u_k = min(max(v_k, u_min), u_max)
//
// Unlimited, u_k = kp e_k + I_k + D_k with I_k = I_k-1 + ki Ts e_k and I_-1 = u_start:
// the position form with a backward-Euler integral. The state is the command itself, so
// a command held on a limit does not wind up: it leaves the limit as soon as the
// increments turn. Tf = 0: the derivative is the backward difference kd (e_k - e_k-1)/Ts.
// At rest before the first sample (t0): e_-1 = 0, D_-1 = 0, u_-1 = u_start.
class DiscretePid final : public SampledBlock {
 public:
  DiscretePid() : SampledBlock(0.01) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    kp_ = declare_real("kp", "", 1.0, "proportional gain");
    ki_ = declare_real("ki", "1/s", 0.0, "integral gain");
    kd_ = declare_real("kd", "s", 0.0, "derivative gain");
    tf_ = declare_real("Tf", "s", 0.0, "time constant of the derivative filter (0: a plain backward difference)",
                       Range::non_negative());
    u_min_ = declare_real("u_min", "", -inf, "lower limit of the command");
    u_max_ = declare_real("u_max", "", inf, "upper limit of the command");
    u_start_ = declare_real("u_start", "", 0.0, "command before the first sample (the integral term's start)");
  }
  void configure() override {
    require_order("u_min", netlist_value(u_min_), "u_max", netlist_value(u_max_));
    error_ = declare_port("error", signal_domain(), PortSide::Response, "control error e (set point - measurement)");
    command_ = declare_port("command", signal_domain(), PortSide::State, "command u_k, held between samples");
    set_dependencies(command_, {});
    u_ = declare_discrete("u", netlist_value(u_start_), "command u_k");
    e_ = declare_discrete("last_error", 0.0, "error e_k at the last sample");
    d_ = declare_discrete("derivative", 0.0, "derivative term D_k");
    declare_sampling();
  }
  void initialize(Eval& e) const override {
    require_order("u_min", e.param(u_min_), "u_max", e.param(u_max_));
    SampledBlock::initialize(e);
  }
  void calc_outputs(Eval& e) const override { e.set_out(command_, signal::value, e.discrete(u_)); }

 private:
  void sample(Eval& e, bool first) const override {
    const double ts = e.param(sample_time()), tf = e.param(tf_);
    const double u_prev = first ? e.param(u_start_) : e.discrete(u_);
    const double e_prev = first ? 0.0 : e.discrete(e_);
    const double d_prev = first ? 0.0 : e.discrete(d_);
    const double err = e.in(error_, signal::value);
    const double d = (tf * d_prev + e.param(kd_) * (err - e_prev)) / (tf + ts);
    const double v = u_prev + e.param(kp_) * (err - e_prev) + e.param(ki_) * ts * err + (d - d_prev);
    e.set_discrete(u_, std::clamp(v, e.param(u_min_), e.param(u_max_)));
    e.set_discrete(e_, err);
    e.set_discrete(d_, d);
  }
  RealParam kp_, ki_, kd_, tf_, u_min_, u_max_, u_start_;
  PortId error_, command_;
  DiscreteId u_, e_, d_;
};

// Discrete transfer function
//
//   H(z) = (b_0 + b_1 z^-1 + ... + b_m z^-m) / (a_0 + a_1 z^-1 + ... + a_n z^-n),
//
// coefficients in ascending powers of z^-1 (as MATLAB's filter(b, a, u)), that is
//   a_0 y_k = b_0 u_k + ... + b_m u_k-m - a_1 y_k-1 - ... - a_n y_k-n,
// realised in transposed direct form II with N = max(m, n) discrete states w_i
// (coefficients divided by a_0, the shorter list padded with zeros):
//   y_k = b_0 u_k + w_1,   w_i <- b_i u_k - a_i y_k + w_i+1   (w_N+1 = 0).
// Before the first sample the filter is at rest (w = 0), or in the steady state of
// u(t0) ("steady_state": y = H(1) u(t0), which needs H(1) finite: no pole at z = 1).
class DiscreteTransferFunction final : public SampledBlock {
 public:
  DiscreteTransferFunction() : SampledBlock(0.01) {
    declare_real_list("numerator", "", std::vector<double>{1.0}, "b_0, b_1, ..., b_m: ascending powers of z^-1");
    declare_real_list("denominator", "", std::vector<double>{1.0, -0.5},
                      "a_0, a_1, ..., a_n: ascending powers of z^-1 (a_0 not 0)");
    declare_text("start", "rest", "before the first sample: at rest, or in the steady state of u(t0)",
                 {"rest", "steady_state"});
  }
  void configure() override {
    b_ = real_list("numerator");
    a_ = real_list("denominator");
    if (b_.empty()) parameter_error("numerator", "needs at least one coefficient");
    if (a_.empty() || a_.front() == 0.0) parameter_error("denominator", "needs a_0 (its first coefficient) not 0");
    const size_t n = std::max(b_.size(), a_.size()) - 1;
    b_.resize(n + 1, 0.0);
    a_.resize(n + 1, 0.0);
    const double a0 = a_.front();
    for (size_t i = 0; i <= n; ++i) b_[i] /= a0, a_[i] /= a0;
    steady_start_ = text("start") == "steady_state";
    double sum_a = 0.0;
    for (double v : a_) sum_a += v;
    if (steady_start_ && sum_a == 0.0)
      parameter_error("start", "a steady state needs H(1) finite, but the denominator has a root at z = 1");
    in_ = declare_port("in", signal_domain(), PortSide::Response, "input u");
    out_ = declare_port("out", signal_domain(), PortSide::State, "output y_k, held between samples");
    set_dependencies(out_, {});
    y_ = declare_discrete("y", 0.0, "output y_k");
    for (size_t i = 1; i <= n; ++i)
      w_.push_back(declare_discrete("w" + std::to_string(i), 0.0, "state of the transposed direct form II"));
    declare_sampling();
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.discrete(y_)); }

 private:
  void sample(Eval& e, bool first) const override {
    const double u = e.in(in_, signal::value);
    const size_t n = w_.size();
    std::vector<double> w(n + 1, 0.0);  // w_1..w_n, and w_n+1 = 0
    if (first && steady_start_) {
      // Steady state of a constant u: y = H(1) u, w_n = b_n u - a_n y, w_i = b_i u - a_i y + w_i+1.
      double sum_a = 0.0, sum_b = 0.0;
      for (size_t i = 0; i <= n; ++i) sum_a += a_[i], sum_b += b_[i];
      const double y = sum_b / sum_a * u;
      for (size_t i = n; i >= 1; --i) w[i - 1] = b_[i] * u - a_[i] * y + w[i];
    } else if (!first) {
      for (size_t i = 0; i < n; ++i) w[i] = e.discrete(w_[i]);
    }
    const double y = b_[0] * u + w[0];
    for (size_t i = 1; i <= n; ++i) e.set_discrete(w_[i - 1], b_[i] * u - a_[i] * y + w[i]);
    e.set_discrete(y_, y);
  }

  std::vector<double> b_, a_;
  bool steady_start_ = false;
  PortId in_, out_;
  DiscreteId y_;
  std::vector<DiscreteId> w_;
};

void register_discrete(Registry& r) {
  r.add<SampleHold>("signal.sample_hold", "y = u at the last sample instant (zero-order hold, time events)");
  r.add<DiscretePid>("signal.discrete_pid", "PID controller at a sample time: velocity form, backward Euler, limits");
  r.add<DiscreteTransferFunction>("signal.discrete_transfer_function",
                                  "H(z) = b(z^-1)/a(z^-1) at a sample time (transposed direct form II)");
}

}  // namespace jourdain::signal_library
