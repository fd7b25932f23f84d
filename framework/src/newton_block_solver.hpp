// NewtonBlockSolver: the general solver of an algebraic loop (block_solver.hpp).
//
// The builder attaches it to every implicit block whose members name no structured
// solver of their library, so that the Model solves every block the same way: through
// the BlockSolver its step carries. It knows nothing of what the members compute: the
// block's unknowns z are its loop outputs and its members' algebraic unknowns, one pass
// over the members gives F(z) = (g(z) - z, residuals), and Newton's method with a dense
// finite-difference Jacobian drives F to zero: general, but O(n^3) per iteration.
#pragma once

#include "jourdain/block_solver.hpp"
#include "jourdain/scheduler.hpp"

namespace jourdain {

class NewtonBlockSolver final : public BlockSolver {
 public:
  // `block` is copied: the solver lives as long as the Model, wherever it is moved.
  explicit NewtonBlockSolver(ScheduledStep block) : block_(std::move(block)) {}

  // Throws SimulationError naming the block's members when a residual is not finite,
  // the Jacobian is singular or 50 iterations do not converge.
  void solve(const Model& model, Context& ctx) const override;
  // It keeps no invariant and watches nothing: a run need not evaluate its points for it.
  bool observes() const override { return false; }

 private:
  ScheduledStep block_;
};

}  // namespace jourdain
