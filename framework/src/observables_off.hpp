// ObservablesOff: Context::observables_wanted off for a scope, put back as it was when
// the scope ends, also by an exception. For the evaluations that feed an integrator or a
// Jacobian, which read no observable (Model::derivatives, Model::evaluate_outputs,
// ComponentJacobian::assemble).
#pragma once

#include "jourdain/context.hpp"

namespace jourdain {

class ObservablesOff {
 public:
  explicit ObservablesOff(Context& ctx) : ctx_(ctx), before_(ctx.observables_wanted) { ctx.observables_wanted = false; }
  ~ObservablesOff() { ctx_.observables_wanted = before_; }
  ObservablesOff(const ObservablesOff&) = delete;
  ObservablesOff& operator=(const ObservablesOff&) = delete;

 private:
  Context& ctx_;
  bool before_;
};

}  // namespace jourdain
