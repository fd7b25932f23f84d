// NewtonBlockSolver: the general solver of an algebraic loop (block_solver.hpp).
//
// The builder attaches it to every implicit block whose members name no structured
// solver of their library, so that the Model solves every block the same way: through
// the BlockSolver its step carries. It knows nothing of what the members compute: the
// block's unknowns z are its loop outputs and its members' algebraic unknowns, one pass
// over the members gives F(z) = (g(z) - z, residuals), and Newton's method with a dense
// finite-difference Jacobian drives F to zero: general, but O(n^3) per factorization.
//
// The factorization is kept (per Context, in its block workspace) and reused by later
// solves as long as it makes the iteration contract: a simplified Newton method (Deuflhard
// 2004, "Newton Methods for Nonlinear Problems", §2.1.4). Between two evaluations of a
// run the loop moves little, so a solve usually costs one pass to see F and the pass that
// leaves the members consistent, where each Newton step costs n + 1 passes.
#pragma once

#include "jourdain/block_solver.hpp"
#include "jourdain/scheduler.hpp"

namespace jourdain {

class NewtonBlockSolver final : public BlockSolver {
 public:
  // `block` is copied: the solver lives as long as the Model, wherever it is moved.
  // `block_index`: the block's step in the schedule (its workspace slot).
  NewtonBlockSolver(ScheduledStep block, int block_index) : block_(std::move(block)), index_(block_index) {}

  // Throws SimulationError naming the block's members when a residual is not finite,
  // the Jacobian is singular or 50 iterations do not converge. Converged: every step's
  // component |dz_k| ≤ 1e-12 + 1e-10 |z_k|, the last one taken with a fresh Jacobian or,
  // with a kept one, contracting at least twofold.
  void solve(const Model& model, Context& ctx) const override;
  // It keeps no invariant and watches nothing: a run need not evaluate its points for it.
  bool observes() const override { return false; }

 private:
  ScheduledStep block_;
  int index_;
};

}  // namespace jourdain
