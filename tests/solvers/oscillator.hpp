// A linear mass–spring–damper netlist and its closed-form solution, shared by the
// solver tests:  m x'' + c x' + k x = 0,  x(0) = x0, x'(0) = 0.
#pragma once

#include <cmath>
#include <string>

namespace jourdain::test {

struct Oscillator {
  double m = 1.0, k = 100.0, c = 2.0, x0 = 0.1;
  // A force on the mass from a signal.constant "push" (its value the input of a linear
  // analysis): m x'' + c x' + k x = push.value.
  bool force_input = false;

  std::string netlist(const std::string& solver_json) const {
    return R"({
      "components": {
        "wall":   {"type": "mechanical1d.fixed"},
        "spring": {"type": "mechanical1d.spring", "params": {"stiffness": )" + std::to_string(k) + R"(}},
        "damper": {"type": "mechanical1d.damper", "params": {"damping": )" + std::to_string(c) + R"(}},
        "mass":   {"type": "mechanical1d.mass", "params": {"mass": )" + std::to_string(m) + R"(},
                   "initial": {"x": )" + std::to_string(x0) + R"(}})" +
           (force_input ? R"(,
        "push":     {"type": "signal.constant", "params": {"value": 0}},
        "actuator": {"type": "mechanical1d.force_source"})"
                        : "") +
           R"(
      },
      "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"], ["wall.p", "damper.a"], ["mass.p", "damper.b"])" +
           (force_input ? R"(, ["push.out", "actuator.f"], ["actuator.p", "mass.p"])" : "") + R"(],
      "record": ["mass.x"],
      "solver": )" + solver_json + "}";
  }

  // Closed form for the underdamped (ζ < 1), critically damped and overdamped cases.
  double x(double t) const {
    const double w0 = std::sqrt(k / m), zeta = c / (2.0 * std::sqrt(k * m));
    if (zeta < 1.0) {
      const double wd = w0 * std::sqrt(1.0 - zeta * zeta);
      return x0 * std::exp(-zeta * w0 * t) * (std::cos(wd * t) + zeta * w0 / wd * std::sin(wd * t));
    }
    if (zeta == 1.0) return x0 * std::exp(-w0 * t) * (1.0 + w0 * t);
    const double s = w0 * std::sqrt(zeta * zeta - 1.0);
    const double r1 = -zeta * w0 + s, r2 = -zeta * w0 - s;  // x = A e^{r1 t} + B e^{r2 t}
    const double A = x0 * r2 / (r2 - r1), B = -x0 * r1 / (r2 - r1);
    return A * std::exp(r1 * t) + B * std::exp(r2 * t);
  }
};

}  // namespace jourdain::test
