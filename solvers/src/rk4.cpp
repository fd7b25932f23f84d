// Classical fourth-order Runge–Kutta at a fixed step; dense output by cubic Hermite
// interpolation on (x0, f0, x1, f1), third-order accurate between the steps.
#include <algorithm>
#include <cmath>
#include <limits>

#include "internal.hpp"

namespace jourdain::detail {

namespace {

class RungeKutta4 final : public OneStepMethod {
 public:
  bool adaptive() const override { return false; }
  int order() const override { return 4; }

  void step(RightHandSide& f, double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0, double h,
            Eigen::VectorXd& x1, Eigen::VectorXd& f1, double& error_norm) override {
    // The stages in one scratch vector (no temporary per stage).
    stage_.noalias() = x + 0.5 * h * f0;
    f(t + 0.5 * h, stage_, k2_);
    stage_.noalias() = x + 0.5 * h * k2_;
    f(t + 0.5 * h, stage_, k3_);
    stage_.noalias() = x + h * k3_;
    f(t + h, stage_, k4_);
    x1 = x + (h / 6.0) * (f0 + 2.0 * k2_ + 2.0 * k3_ + k4_);
    f(t + h, x1, f1);
    error_norm = 0.0;
    x0_ = x, f0_ = f0, x1_ = x1, f1_ = f1, h_ = h, t_ = t;
    // Consecutive stages g1 = x, g2 = x + h/2 f0, g3 = x + h/2 k2, g4 = x + h k3: the
    // derivatives' differences over the stages' differences are secant slopes |J d|/|d|
    // along the step (Hairer & Wanner II, IV.2). The largest of the three is taken: where
    // the model is stiff on one side of a switching point only (a relief valve open), the
    // stages on that side still see it. Each state is measured against its own size (its
    // value, or its change over the step), so that the ratio does not depend on units.
    // One pass over the states gathers the squared norms of every difference.
    double f0_norm = 0.0, df[3] = {0, 0, 0}, dg[3] = {0, 0, 0};
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const double change = h * std::max({std::abs(f0[i]), std::abs(k2_[i]), std::abs(k3_[i]), std::abs(k4_[i])});
      const double scale =
          std::max({std::abs(x[i]), std::abs(x1[i]), change, std::numeric_limits<double>::min()});
      const double s = 1.0 / scale;
      const double a = f0[i] * s, b = k2_[i] * s, c = k3_[i] * s, d = k4_[i] * s;
      f0_norm += a * a;
      // h |λ| ≈ max over the pairs of ‖k_j − k_i‖ / (‖g_j − g_i‖ / h).
      df[0] += (b - a) * (b - a), dg[0] += 0.25 * a * a;
      df[1] += (c - b) * (c - b), dg[1] += 0.25 * (b - a) * (b - a);
      df[2] += (d - c) * (d - c), dg[2] += (c - 0.5 * b) * (c - 0.5 * b);
    }
    const double tiny = 1e-12 * std::sqrt(f0_norm);
    stiffness_ = 0.0;
    stiffest_ = -1;
    for (int j = 0; j < 3; ++j) {
      const double gap = std::sqrt(dg[j]);
      if (gap > tiny && std::sqrt(df[j]) / gap > stiffness_) stiffness_ = std::sqrt(df[j]) / gap, stiffest_ = j;
    }
  }

  // Pair j joins stage points g_(j+1) and g_(j+2): g1 = x at t, g2 = x + h/2 f0 and
  // g3 = x + h/2 k2 at t + h/2, g4 = x + h k3 at t + h.
  bool stiffest_secant(double& ta, Eigen::VectorXd& xa, double& tb, Eigen::VectorXd& xb) const override {
    auto stage = [&](int i, double& t, Eigen::VectorXd& g) {
      switch (i) {
        case 0: t = t_, g = x0_; break;
        case 1: t = t_ + 0.5 * h_, g = x0_ + 0.5 * h_ * f0_; break;
        case 2: t = t_ + 0.5 * h_, g = x0_ + 0.5 * h_ * k2_; break;
        default: t = t_ + h_, g = x0_ + h_ * k3_; break;
      }
    };
    if (stiffest_ < 0) return false;
    stage(stiffest_, ta, xa);
    stage(stiffest_ + 1, tb, xb);
    return true;
  }

  double stiffness_ratio() const override { return stiffness_; }
  // The real negative axis leaves the stability region of classical RK4 at z = −2.785
  // (where 1 + z + z²/2 + z³/6 + z⁴/24 = 1); on the imaginary axis it reaches ±2.828.
  double stability_limit() const override { return 2.785; }

  void dense(double s, Eigen::VectorXd& out) const override {
    // Hermite basis on [0, 1]
    const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s);
    const double h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
    out = h00 * x0_ + (h10 * h_) * f0_ + h01 * x1_ + (h11 * h_) * f1_;
  }

 private:
  Eigen::VectorXd stage_, k2_, k3_, k4_, x0_, f0_, x1_, f1_;
  double h_ = 0.0, t_ = 0.0;
  int stiffest_ = -1;  // the pair of stages whose secant gave stiffness_
  double stiffness_ = std::numeric_limits<double>::quiet_NaN();
};

class Rk4Method final : public ExplicitSolverMethod {
 public:
  Rk4Method()
      : ExplicitSolverMethod("rk4", "classical fourth-order Runge-Kutta at a fixed step; cubic Hermite output between steps",
                             {standard_solver_setting("step"), standard_solver_setting("event_tolerance")}) {}
  std::unique_ptr<OneStepMethod> stepper(const SolverSettings&) const override {
    return std::make_unique<RungeKutta4>();
  }
};

}  // namespace

std::shared_ptr<const SolverMethod> make_rk4_method() { return std::make_shared<Rk4Method>(); }

}  // namespace jourdain::detail
