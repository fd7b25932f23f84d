// Continuous linear blocks, all one state-space realisation
//
//   dx/dt = w (A x + B u),    y = C x + D u
//
// (x: n states, u: m inputs, y: p outputs; A n×n, B n×m, C p×n, D p×m; w = 1 but for the
// Butterworth filter, whose prototype at 1 rad/s is scaled to its cut-off w = 2 pi f_c):
//   signal.state_space       A, B, C, D as given;
//   signal.transfer_function H(s) = b(s)/a(s) in controllable canonical form;
//   signal.butterworth       the n-th order Butterworth low-pass prototype
//                            1/B_n(s) through the same canonical form, at w = 2 pi f_c.
// An output feeds its inputs through only where D has a non-zero entry (its
// set_dependencies), so a strictly proper block breaks a loop. The states start at the
// netlist's "initial" values (0: at rest) or, with "start": "steady_state", at the
// equilibrium of u(t0): x = -A^-1 B u(t0), which needs A invertible (no pole at s = 0).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "block.hpp"

namespace jourdain::signal_library {

namespace {

struct Realisation {
  Eigen::MatrixXd A, B, C, D;
};

// Why the polynomial coefficients (descending powers of s) make no proper transfer
// function, or "".
std::string transfer_function_problem(const std::vector<double>& num, const std::vector<double>& den,
                                      std::string& param) {
  param = "denominator";
  if (den.empty() || den.front() == 0.0) return "needs its leading coefficient (highest power of s) not 0";
  param = "numerator";
  size_t lead = 0;
  while (lead < num.size() && num[lead] == 0.0) ++lead;
  if (num.size() - lead > den.size())
    return "has degree " + std::to_string(num.size() - lead - 1) + ", above the denominator's " +
           std::to_string(den.size() - 1) + ": the transfer function must be proper";
  return "";
}

// H(s) = (b_n s^n + ... + b_0) / (a_n s^n + ... + a_0), coefficients in descending
// powers of s (num padded with leading zeros to n + 1), in controllable canonical form:
// with the denominator made monic (a_n = 1),
//   dx_i/dt = x_i+1 (i < n),   dx_n/dt = -a_0 x_1 - ... - a_n-1 x_n + u,
//   y = sum_i (b_i-1 - a_i-1 b_n) x_i + b_n u.
Realisation controllable_canonical(std::vector<double> num, std::vector<double> den) {
  const size_t n = den.size() - 1;
  num.insert(num.begin(), den.size() - num.size(), 0.0);
  const double lead = den.front();
  // Ascending powers: a[i], b[i] multiply s^i.
  std::vector<double> a(n + 1), b(n + 1);
  for (size_t i = 0; i <= n; ++i) a[i] = den[n - i] / lead, b[i] = num[n - i] / lead;
  Realisation r{Eigen::MatrixXd::Zero(n, n), Eigen::MatrixXd::Zero(n, 1), Eigen::MatrixXd::Zero(1, n),
                Eigen::MatrixXd::Constant(1, 1, b[n])};
  for (size_t i = 0; i + 1 < n; ++i) r.A(i, i + 1) = 1.0;
  for (size_t i = 0; i < n; ++i) {
    r.A(n - 1, i) = -a[i];
    r.C(0, i) = b[i] - a[i] * b[n];
  }
  if (n > 0) r.B(n - 1, 0) = 1.0;
  return r;
}

// The Butterworth polynomial B_n(s), descending powers: the product over the poles
// s_k = exp(i pi (2k + n - 1) / (2n)), k = 1..n, on the unit circle in the left half
// plane, taken in conjugate pairs s^2 - 2 cos(theta_k) s + 1 and, for odd n, s + 1.
std::vector<double> butterworth_polynomial(int n) {
  std::vector<double> p{1.0};  // descending powers
  auto times = [&p](const std::vector<double>& f) {
    std::vector<double> q(p.size() + f.size() - 1, 0.0);
    for (size_t i = 0; i < p.size(); ++i)
      for (size_t j = 0; j < f.size(); ++j) q[i + j] += p[i] * f[j];
    p = std::move(q);
  };
  for (int k = 1; k <= n / 2; ++k) {
    const double theta = std::numbers::pi * (2.0 * k + n - 1.0) / (2.0 * n);
    times({1.0, -2.0 * std::cos(theta), 1.0});
  }
  if (n % 2 == 1) times({1.0, 1.0});
  return p;
}

}  // namespace

// The evaluation shared by the three types; a derived class gives the realisation in
// configure() (declare_realisation) and, for a scaled one, the scale w.
class LinearBlock : public SignalBlock {
 public:
  void initialize(Eval& e) const override {
    if (!steady_start_) return;
    for (Eigen::Index i = 0; i < r_.A.rows(); ++i) {
      double x = 0.0;
      for (Eigen::Index j = 0; j < r_.B.cols(); ++j) x += steady_(i, j) * e.in(inputs_[j], signal::value);
      e.set_state(states_[i], x);
    }
  }
  void calc_outputs(Eval& e) const override {
    for (Eigen::Index i = 0; i < r_.C.rows(); ++i) {
      double y = 0.0;
      for (Eigen::Index j = 0; j < r_.C.cols(); ++j) y += r_.C(i, j) * e.state(states_[j]);
      for (Eigen::Index j = 0; j < r_.D.cols(); ++j)
        if (r_.D(i, j) != 0.0) y += r_.D(i, j) * e.in(inputs_[j], signal::value);
      e.set_out(outputs_[i], signal::value, y);
    }
  }
  void calc_derivatives(Eval& e) const override { derivatives(e, 1.0); }

 protected:
  LinearBlock() {
    declare_text("start", "initial",
                 "the states start at their netlist \"initial\" values (0: at rest), or in the steady state of u(t0)",
                 {"initial", "steady_state"});
  }
  // configure(): the ports (in/out, or in1..inm/out1..outp), the states x1..xn and the
  // feedthrough that D says.
  void declare_realisation(Realisation r) {
    r_ = std::move(r);
    const auto m = r_.B.cols(), p = r_.C.rows(), n = r_.A.rows();
    for (Eigen::Index j = 0; j < m; ++j)
      inputs_.push_back(declare_port(m == 1 ? "in" : "in" + std::to_string(j + 1), signal_domain(), PortSide::Response,
                                     "input u" + (m == 1 ? std::string() : std::to_string(j + 1))));
    for (Eigen::Index i = 0; i < p; ++i) {
      outputs_.push_back(declare_port(p == 1 ? "out" : "out" + std::to_string(i + 1), signal_domain(),
                                      PortSide::State, "output y" + (p == 1 ? std::string() : std::to_string(i + 1))));
      std::vector<PortId> through;
      for (Eigen::Index j = 0; j < m; ++j)
        if (r_.D(i, j) != 0.0) through.push_back(inputs_[j]);
      set_dependencies(outputs_.back(), through);
    }
    for (Eigen::Index i = 0; i < n; ++i)
      states_.push_back(declare_state("x" + std::to_string(i + 1), "", 0.0, "state x" + std::to_string(i + 1)));
    steady_start_ = text("start") == "steady_state";
    if (steady_start_ && n > 0) {
      const Eigen::FullPivLU<Eigen::MatrixXd> lu(r_.A);
      if (!lu.isInvertible())
        parameter_error("start", "a steady state needs A invertible, but the block has a pole at s = 0 (an integrator)");
      steady_ = -lu.solve(r_.B);
    }
  }
  // dx/dt = w (A x + B u)
  void derivatives(Eval& e, double w) const {
    for (Eigen::Index i = 0; i < r_.A.rows(); ++i) {
      double f = 0.0;
      for (Eigen::Index j = 0; j < r_.A.cols(); ++j)
        if (r_.A(i, j) != 0.0) f += r_.A(i, j) * e.state(states_[j]);
      for (Eigen::Index j = 0; j < r_.B.cols(); ++j)
        if (r_.B(i, j) != 0.0) f += r_.B(i, j) * e.in(inputs_[j], signal::value);
      e.set_derivative(states_[i], w * f);
    }
  }

 private:
  Realisation r_;
  Eigen::MatrixXd steady_;  // -A^-1 B
  bool steady_start_ = false;
  std::vector<PortId> inputs_, outputs_;
  std::vector<StateId> states_;
};

// dx/dt = A x + B u, y = C x + D u; the matrices as tables of rows.
class StateSpace final : public LinearBlock {
 public:
  // Tables without column units: matrices, rows of one length, any (component.cpp).
  StateSpace() {
    declare_table("A", {}, "n×n matrix A, one row per state", nlohmann::json::array({nlohmann::json::array({-1.0})}));
    declare_table("B", {}, "n×m matrix B, one column per input", nlohmann::json::array({nlohmann::json::array({1.0})}));
    declare_table("C", {}, "p×n matrix C, one row per output", nlohmann::json::array({nlohmann::json::array({1.0})}));
    declare_table("D", {}, "p×m matrix D (zeros: no direct feedthrough)",
                  nlohmann::json::array({nlohmann::json::array({0.0})}));
  }
  void configure() override {
    Realisation r{matrix("A"), matrix("B"), matrix("C"), matrix("D")};
    auto need = [this](const char* name, const Eigen::MatrixXd& M, Eigen::Index rows, Eigen::Index cols) {
      if (M.rows() != rows || M.cols() != cols)
        parameter_error(name, "must be " + std::to_string(rows) + "×" + std::to_string(cols) + ", got " +
                                  std::to_string(M.rows()) + "×" + std::to_string(M.cols()));
    };
    const Eigen::Index n = r.A.rows(), m = r.B.cols(), p = r.C.rows();
    need("A", r.A, n, n);
    need("B", r.B, n, m);
    need("C", r.C, p, n);
    need("D", r.D, p, m);
    declare_realisation(std::move(r));
  }

 private:
  // A matrix parameter's rows (of one length: the parameter's parser says so).
  Eigen::MatrixXd matrix(const std::string& name) const {
    const auto rows = table(name);
    Eigen::MatrixXd M(rows.size(), rows.front().size());
    for (size_t i = 0; i < rows.size(); ++i)
      for (size_t j = 0; j < rows[i].size(); ++j) M(i, j) = rows[i][j];
    return M;
  }
};

// H(s) = b(s)/a(s), coefficients in descending powers of s (as MATLAB's tf(b, a)),
// proper (deg b <= deg a), realised in controllable canonical form (file comment).
class TransferFunction final : public LinearBlock {
 public:
  TransferFunction() {
    declare_real_list("numerator", "", std::vector<double>{1.0}, "b_m, ..., b_1, b_0: descending powers of s");
    declare_real_list("denominator", "", std::vector<double>{1.0, 1.0},
                      "a_n, ..., a_1, a_0: descending powers of s (a_n not 0, n >= m)");
  }
  void configure() override {
    const auto num = real_list("numerator"), den = real_list("denominator");
    std::string param;
    if (std::string why = transfer_function_problem(num, den, param); !why.empty()) parameter_error(param, why);
    std::vector<double> b(std::find_if(num.begin(), num.end(), [](double v) { return v != 0.0; }), num.end());
    if (b.empty()) b.push_back(0.0);
    declare_realisation(controllable_canonical(b, den));
  }
};

// Butterworth low-pass filter of order n and cut-off f_c:
//   H(s) = 1 / B_n(s / w_c),  w_c = 2 pi f_c,
// B_n the Butterworth polynomial (its n poles evenly spaced on the unit circle in the
// left half plane): |H(i w)|^2 = 1 / (1 + (w / w_c)^(2n)), so |H(i w_c)| = 1/sqrt(2)
// (-3 dB) and the gain falls by 20 n dB per decade above f_c. The prototype 1/B_n(s) is
// realised once in controllable canonical form; the cut-off scales its time, dx/dt =
// w_c (A x + B u), which keeps the coefficients of order 1 whatever f_c (the
// coefficients of B_n(s/w_c) itself would span w_c^n) and lets a run change f_c.
class Butterworth final : public LinearBlock {
 public:
  Butterworth() {
    declare_integer("order", 2, "order n (poles)", Range::between(1, 12));
    cutoff_ = declare_real("cutoff", "Hz", 1.0, "cut-off frequency f_c (-3 dB)", Range::positive());
  }
  void configure() override {
    declare_realisation(controllable_canonical({1.0}, butterworth_polynomial(static_cast<int>(integer("order")))));
  }
  void calc_derivatives(Eval& e) const override { derivatives(e, 2.0 * std::numbers::pi * e.param(cutoff_)); }

 private:
  RealParam cutoff_;
};

void register_linear(Registry& r) {
  r.add<TransferFunction>("signal.transfer_function", "H(s) = b(s)/a(s), proper, in controllable canonical form");
  r.add<StateSpace>("signal.state_space", "dx/dt = A x + B u, y = C x + D u (m inputs, p outputs)");
  r.add<Butterworth>("signal.butterworth", "Butterworth low-pass filter of order n, cut-off f_c");
}

}  // namespace jourdain::signal_library
