// Classical fourth-order Runge–Kutta at a fixed step; dense output by cubic Hermite
// interpolation on (x0, f0, x1, f1), third-order accurate between the steps.
#include "internal.hpp"

namespace jourdain::detail {

namespace {

class RungeKutta4 final : public OneStepMethod {
 public:
  bool adaptive() const override { return false; }
  int order() const override { return 4; }

  void step(RightHandSide& f, double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0, double h,
            Eigen::VectorXd& x1, Eigen::VectorXd& f1, double& error_norm) override {
    f(t + 0.5 * h, x + 0.5 * h * f0, k2_);
    f(t + 0.5 * h, x + 0.5 * h * k2_, k3_);
    f(t + h, x + h * k3_, k4_);
    x1 = x + (h / 6.0) * (f0 + 2.0 * k2_ + 2.0 * k3_ + k4_);
    f(t + h, x1, f1);
    error_norm = 0.0;
    x0_ = x, f0_ = f0, x1_ = x1, f1_ = f1, h_ = h;
  }

  void dense(double s, Eigen::VectorXd& out) const override {
    // Hermite basis on [0, 1]
    const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s);
    const double h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
    out = h00 * x0_ + (h10 * h_) * f0_ + h01 * x1_ + (h11 * h_) * f1_;
  }

 private:
  Eigen::VectorXd k2_, k3_, k4_, x0_, f0_, x1_, f1_;
  double h_ = 0.0;
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
