// Shared driver of the explicit one-step methods: step-size control, output at the
// requested times from the method's dense output, and event location by bisection on
// the dense output (so an event is placed to event_tolerance without tiny steps).
#pragma once

#include <Eigen/Core>

#include "jourdain/model.hpp"
#include "jourdain/solvers/simulate.hpp"

namespace jourdain::detail {

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
};

void integrate_explicit(OneStepMethod& method, const Model& model, Context& ctx, const SolverSettings& settings,
                        Observer& observer, SolverStats& stats);

// Output times t_start + k * interval, with t_end as the last one.
struct OutputClock {
  double t0, t_end, interval;
  long count;  // number of output times after t0
  long next = 1;
  OutputClock(const SolverSettings& s);
  double time(long k) const { return k >= count ? t_end : t0 + static_cast<double>(k) * interval; }
  bool done() const { return next > count; }
  double upcoming() const { return time(next); }
};


}  // namespace jourdain::detail
