// Closed forms and helpers for the electrical library's tests.
#pragma once

#include <cmath>
#include <complex>
#include <initializer_list>
#include <string>
#include <utility>

#include <Eigen/Core>
#include <Eigen/LU>
#include <nlohmann/json.hpp>

#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain_test.hpp"

namespace jourdain::test {

// Solution of the linear system dx/dt = A x + b (2×2, A invertible) from x(0) = x0:
//   x(t) = x_ss + e^{At} (x0 − x_ss),   x_ss = −A⁻¹ b,
// with e^{At} by Putzer's formula from A's eigenvalues λ1, λ2 (a second-order system's
// closed form: two exponentials when they are real and distinct, a damped oscillation
// when they are complex):
//   e^{At} = c0(t) I + c1(t) A,
//   real:     c1 = (e^{λ1 t} − e^{λ2 t}) / (λ1 − λ2),     c0 = e^{λ1 t} − λ1 c1
//   complex:  λ = σ ± jω_d,  c1 = e^{σt} sin(ω_d t)/ω_d,   c0 = e^{σt} cos(ω_d t) − σ c1
inline Eigen::Vector2d linear2_solution(const Eigen::Matrix2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& x0,
                                        double t) {
  const Eigen::Vector2d xss = -a.inverse() * b;
  const double tr = a.trace(), det = a.determinant();
  const double disc = tr * tr / 4.0 - det;
  double c0, c1;
  if (disc > 0.0) {
    const double l1 = tr / 2.0 + std::sqrt(disc), l2 = tr / 2.0 - std::sqrt(disc);
    c1 = (std::exp(l1 * t) - std::exp(l2 * t)) / (l1 - l2);
    c0 = std::exp(l1 * t) - l1 * c1;
  } else {
    const double sigma = tr / 2.0, wd = std::sqrt(-disc);
    c1 = std::exp(sigma * t) * std::sin(wd * t) / wd;
    c0 = std::exp(sigma * t) * std::cos(wd * t) - sigma * c1;
  }
  const Eigen::Matrix2d eat = c0 * Eigen::Matrix2d::Identity() + c1 * a;
  return xss + eat * (x0 - xss);
}

// A netlist's connections, as an array of [from, to] pairs (a braced list of pairs of
// strings alone would make nlohmann::json an object).
inline nlohmann::json wires(std::initializer_list<std::pair<std::string, std::string>> pairs) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& [from, to] : pairs) a.push_back(nlohmann::json::array({from, to}));
  return a;
}

// The largest |column − f(t)| over a run's rows.
template <class F>
double max_error(const RunResult& r, const std::string& column, F&& f) {
  const auto t = r.column("time"), y = r.column(column);
  double worst = 0.0;
  for (size_t k = 0; k < t.size(); ++k) worst = std::max(worst, std::abs(y[k] - f(t[k])));
  return worst;
}

// A constant torque on a rotor (the rotational library's sources are not needed here).
class TestTorque final : public Component {
 public:
  TestTorque() { tau_ = declare_real("torque", "N*m", 0.0, "torque on the rotor"); }
  void configure() override {
    port_ = declare_port("p", rotational_domain(), PortSide::Response, "to a rotor");
    set_dependencies(port_, {});
  }
  void calc_outputs(Eval& e) const override { e.set_out(port_, rotational::torque, e.param(tau_)); }

 private:
  RealParam tau_;
  PortId port_;
};

// A lumped heat capacity: C dT/dt = Σ Q.
class TestHeatCapacity final : public Component {
 public:
  TestHeatCapacity() { c_ = declare_real("capacity", "J/K", 1.0, "heat capacity", Range::positive()); }
  void configure() override {
    port_ = declare_port("p", thermal_domain(), PortSide::State, "temperature out, heat in");
    set_dependencies(port_, {});
    t_ = declare_state("T", "K", 293.15, "temperature");
    declare_state_output(port_, thermal::temperature, t_);
  }
  void calc_derivatives(Eval& e) const override {
    e.set_derivative(t_, e.in(port_, thermal::heat_flow) / e.param(c_));
  }

 private:
  RealParam c_;
  PortId port_;
  StateId t_;
};

// Runs a netlist with the built-in components and the two above ("test.torque",
// "test.heat_capacity"), keeping every row.
inline RunResult run_with_test_parts(const nlohmann::json& netlist) {
  Registry registry = test::builtin_registry();
  registry.add<TestTorque>("test.torque", "constant torque");
  registry.add<TestHeatCapacity>("test.heat_capacity", "heat capacity");
  Netlist n = load_netlist_text(netlist.dump(), "test.json", registry);
  RunOptions o;
  o.keep_rows = true;
  return run_netlist(n, o);
}

}  // namespace jourdain::test
