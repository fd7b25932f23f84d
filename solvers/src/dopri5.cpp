// Dormand–Prince 5(4) with local extrapolation, FSAL, and the fourth-order continuous
// extension of Hairer, Nørsett & Wanner (Solving ODE I, §II.6; the coefficients of
// their DOPRI5 code). The error is controlled in the scaled RMS norm
//   err = sqrt(mean((e_i / (atol + rtol max(|x_i|, |x1_i|)))^2)),  accept when err <= 1.
#include <cmath>

#include "internal.hpp"

namespace jourdain::detail {

namespace {

class DormandPrince5 final : public OneStepMethod {
 public:
  explicit DormandPrince5(const SolverSettings& s) : rtol_(s.rtol), atol_(s.atol) {}
  bool adaptive() const override { return true; }
  int order() const override { return 5; }

  void step(RightHandSide& f, double t, const Eigen::VectorXd& x, const Eigen::VectorXd& k1, double h,
            Eigen::VectorXd& x1, Eigen::VectorXd& k7, double& error_norm) override {
    // Butcher tableau
    constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
    constexpr double a21 = 1.0 / 5;
    constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
    constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
    constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
    constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                     a65 = -5103.0 / 18656;
    constexpr double b1 = 35.0 / 384, b3 = 500.0 / 1113, b4 = 125.0 / 192, b5 = -2187.0 / 6784, b6 = 11.0 / 84;
    // e = b(5th order) - b(4th order)
    constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                     e6 = 22.0 / 525, e7 = -1.0 / 40;
    // dense output
    constexpr double d1 = -12715105075.0 / 11282082432, d3 = 87487479700.0 / 32700410799,
                     d4 = -10690763975.0 / 1880347072, d5 = 701980252875.0 / 199316789632,
                     d6 = -1453857185.0 / 822651844, d7 = 69997945.0 / 29380423;

    // The stages in one scratch vector (no temporary per stage).
    stage_.noalias() = x + h * (a21 * k1);
    f(t + c2 * h, stage_, k2_);
    stage_.noalias() = x + h * (a31 * k1 + a32 * k2_);
    f(t + c3 * h, stage_, k3_);
    stage_.noalias() = x + h * (a41 * k1 + a42 * k2_ + a43 * k3_);
    f(t + c4 * h, stage_, k4_);
    stage_.noalias() = x + h * (a51 * k1 + a52 * k2_ + a53 * k3_ + a54 * k4_);
    f(t + c5 * h, stage_, k5_);
    stage_.noalias() = x + h * (a61 * k1 + a62 * k2_ + a63 * k3_ + a64 * k4_ + a65 * k5_);
    f(t + h, stage_, k6_);
    x1 = x + h * (b1 * k1 + b3 * k3_ + b4 * k4_ + b5 * k5_ + b6 * k6_);
    f(t + h, x1, k7);

    error_norm = 0.0;
    if (x.size() > 0) {
      // The scaled error e_i / (atol + rtol max(|x_i|, |x1_i|)), in kept storage.
      scaled_error_ = h * (e1 * k1 + e3 * k3_ + e4 * k4_ + e5 * k5_ + e6 * k6_ + e7 * k7).array();
      scaled_error_ /= atol_ + rtol_ * x.array().abs().max(x1.array().abs());
      scaled_error_.abs().maxCoeff(&worst_);
      error_norm = std::sqrt(scaled_error_.square().mean());
    }

    r1_ = x;
    r2_ = x1 - x;
    r3_ = h * k1 - r2_;
    r4_ = r2_ - h * k7 - r3_;
    r5_ = h * (d1 * k1 + d3 * k3_ + d4 * k4_ + d5 * k5_ + d6 * k6_ + d7 * k7);
  }

  Eigen::Index largest_error_state() const override { return worst_; }

  void dense(double s, Eigen::VectorXd& out) const override {
    const double s1 = 1.0 - s;
    out = r1_ + s * (r2_ + s1 * (r3_ + s * (r4_ + s1 * r5_)));
  }

 private:
  double rtol_, atol_;
  Eigen::Index worst_ = -1;
  Eigen::VectorXd stage_, k2_, k3_, k4_, k5_, k6_, r1_, r2_, r3_, r4_, r5_;
  Eigen::ArrayXd scaled_error_;
};

class Dopri5Method final : public ExplicitSolverMethod {
 public:
  Dopri5Method()
      : ExplicitSolverMethod("dopri5", "Dormand-Prince 5(4): adaptive explicit Runge-Kutta with error control and dense output",
                             {standard_solver_setting("rtol"), standard_solver_setting("atol"),
                              standard_solver_setting("max_step"), standard_solver_setting("initial_step"),
                              standard_solver_setting("event_tolerance")}) {}
  std::unique_ptr<OneStepMethod> stepper(const SolverSettings& s) const override {
    return std::make_unique<DormandPrince5>(s);
  }
};

}  // namespace

std::shared_ptr<const SolverMethod> make_dopri5_method() { return std::make_shared<Dopri5Method>(); }

}  // namespace jourdain::detail
