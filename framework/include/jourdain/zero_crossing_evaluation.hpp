// ZeroCrossingEvaluation: a model's zero-crossing functions at (t, x), evaluating only
// the outputs they read.
//
// An integrator's root finding asks for the zero-crossing functions at the end of every
// step and at points inside it. A component's zero crossings read its states, its inputs,
// its own outputs and unknowns (Component::calc_zero_crossings); those come from the
// components and implicit blocks that write them, which read others in turn. That set is
// read from the evaluation plan once, backwards from the components that have zero
// crossings; an evaluation runs the plan's steps restricted to it, in plan order (runs of
// one type stay runs), then the functions. What no zero crossing reads is not computed:
// a mechanism whose block feeds only forces and derivatives is not solved for a battery's
// current limit or a sequencer's switching.
//
// The values are those of Model::zero_crossing_values (outputs, then the functions) to
// the bit: every value the functions read is computed by the same hooks from the same
// inputs. Only ctx.zero_crossings and the outputs and unknowns of the set are meant to
// be read afterwards; the other outputs keep what the last evaluation left, and the
// derivatives and observables are untouched.
#pragma once

#include <Eigen/Core>

#include "jourdain/context.hpp"
#include "jourdain/evaluation_plan.hpp"

namespace jourdain {

class Model;

class ZeroCrossingEvaluation {
 public:
  explicit ZeroCrossingEvaluation(const Model& model);

  // ctx.zero_crossings at (t, x); ctx.t and ctx.x are set to them. Throws what the hooks
  // and block solvers throw, and NonFiniteError (naming the component and variable, as
  // Model::check_finite does) when a state or a function is not finite.
  void evaluate(Context& ctx, double t, const Eigen::VectorXd& x) const;

  // The component hooks and block solves one evaluation calls, against the whole plan's
  // (for tests and benchmarks: what the restriction saves).
  int calls_per_evaluation() const { return calls_; }
  int whole_plan_calls() const { return whole_calls_; }

 private:
  const Model& model_;
  EvaluationStage stage_;  // the outputs stage restricted to what the functions read
  int calls_ = 0, whole_calls_ = 0;
};

}  // namespace jourdain
