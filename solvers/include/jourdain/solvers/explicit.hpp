// Explicit one-step methods and their shared driver: step-size control, output at the
// requested times from the method's dense output, and event location by bisection on
// the dense output (so an event is placed to event_tolerance without tiny steps).
//
// rk4 and dopri5 are two such methods. A plugin adds another by giving its step and its
// dense output (a OneStepMethod) and deriving from ExplicitSolverMethod; the driver
// reads the settings "step" (fixed-step methods; 0: output_interval / 10), or "rtol",
// "atol", "max_step" and "initial_step" (adaptive ones), and "event_tolerance", so the
// method's schema should declare those it is run with (standard_solver_setting).
#pragma once

#include <limits>
#include <memory>

#include <Eigen/Core>

#include "jourdain/model.hpp"
#include "jourdain/solvers/simulate.hpp"
#include "jourdain/solvers/solver_registry.hpp"

namespace jourdain {

// Evaluates f(t, x) for a method, counting evaluations.
struct RightHandSide {
  const Model& model;
  Context& ctx;
  SolverStats& stats;
  void operator()(double t, const Eigen::VectorXd& x, Eigen::VectorXd& f) {
    ++stats.rhs_evaluations;
    model.derivatives(ctx, t, x);
    f = ctx.xdot;
  }
};

// One run's stepper: it holds that run's stage vectors and dense-output coefficients.
class OneStepMethod {
 public:
  virtual ~OneStepMethod() = default;
  virtual bool adaptive() const = 0;
  // One trial step from (t, x) with f0 = f(t, x). Fills x1, f1 = f(t + h, x1) and, for
  // adaptive methods, the scaled error norm (accept when <= 1). Prepares dense output.
  // Its last evaluation must be f(t + h, x1): the driver reads the zero crossings at the
  // step's end from the context that evaluation left, without evaluating again.
  virtual void step(RightHandSide& f, double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0, double h,
                    Eigen::VectorXd& x1, Eigen::VectorXd& f1, double& error_norm) = 0;
  // State at t + theta h within the last accepted step, 0 <= theta <= 1.
  virtual void dense(double theta, Eigen::VectorXd& out) const = 0;
  virtual int order() const = 0;
  // Adaptive methods: the state whose scaled error was largest in the last trial step
  // (-1 if unknown), to name the culprit when the step size underflows.
  virtual Eigen::Index largest_error_state() const { return -1; }
  // Fixed-step methods: h |λ| for the fastest dynamics the last step's stages met, from
  // the stages themselves (‖f(g_j) − f(g_i)‖ / ‖g_j − g_i‖ ≈ |λ|: Hairer & Wanner, Solving
  // ODE II, sec. IV.2, stiffness detection), and the method's stability limit on it;
  // NaN when the method gives none. Beyond the limit a fixed step amplifies that mode at
  // every step: the answer is a numerical artefact (a sawtooth where a nonlinearity
  // bounds it), and the driver warns.
  virtual double stiffness_ratio() const { return std::numeric_limits<double>::quiet_NaN(); }
  virtual double stability_limit() const { return std::numeric_limits<double>::quiet_NaN(); }
  // The two stage points (times and states) of the last step whose secant gave
  // stiffness_ratio(), where the driver checks the Jacobian: the stiff dynamics may show
  // only inside the step (a relief valve that opens and closes again between its ends).
  // False when the method gives none.
  virtual bool stiffest_secant(double& /*ta*/, Eigen::VectorXd& /*xa*/, double& /*tb*/, Eigen::VectorXd& /*xb*/) const {
    return false;
  }
};

// Drives `method` from ctx to settings.t_end (the contract of SolverMethod::integrate).
void integrate_explicit(OneStepMethod& method, const Model& model, Context& ctx, const SolverSettings& settings,
                        Observer& observer, SolverStats& stats);

// A SolverMethod made of a OneStepMethod and the driver above.
class ExplicitSolverMethod : public SolverMethod {
 public:
  using SolverMethod::SolverMethod;
  // A fresh stepper for one run, from the run's settings.
  virtual std::unique_ptr<OneStepMethod> stepper(const SolverSettings& s) const = 0;
  // A fixed-step stepper must reach t_end within max_steps steps.
  void check_bounds(const SolverSettings& s, const InputLocation& where) const override;
  void integrate(const Model& model, Context& ctx, const SolverSettings& s, Observer& observer,
                 SolverStats& stats) const override;
};

}  // namespace jourdain
