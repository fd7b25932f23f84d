// The general Newton solver of an algebraic loop (newton_block_solver.hpp).
#include "newton_block_solver.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "jourdain/model.hpp"

namespace jourdain {

namespace {

// What a Context keeps of its solves: the last Jacobian's factorization and the vectors
// of an iteration (no allocation once made).
struct NewtonWorkspace {
  Eigen::VectorXd z, F, F1, dz;
  Eigen::MatrixXd J;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr;
  bool factored = false;
};

}  // namespace

void NewtonBlockSolver::solve(const Model& model, Context& ctx) const {
  const ScheduledStep& step = block_;
  const int nt = static_cast<int>(step.tear_outputs.size());
  const int nu = static_cast<int>(step.unknowns.size());
  const int n = nt + nu;
  NewtonWorkspace& ws = ctx.block_workspaces.get<NewtonWorkspace>(static_cast<size_t>(index_), [n] {
    auto* w = new NewtonWorkspace;
    w->z.resize(n), w->F.resize(n), w->F1.resize(n), w->dz.resize(n), w->J.resize(n, n);
    return w;
  });
  Eigen::VectorXd& zv = ws.z;
  for (int k = 0; k < nt; ++k) zv[k] = ctx.y[step.tear_outputs[k]];
  for (int k = 0; k < nu; ++k) zv[nt + k] = ctx.unknowns[step.unknowns[k]];

  // One pass: the loop outputs and unknowns set to z, every member computes, and `out`
  // receives F(z).
  auto pass = [&](const Eigen::VectorXd& zz, Eigen::VectorXd& out) {
    for (int k = 0; k < nt; ++k) ctx.y[step.tear_outputs[k]] = zz[k];
    for (int k = 0; k < nu; ++k) ctx.unknowns[step.unknowns[k]] = zz[nt + k];
    for (size_t ci = 0; ci < step.components.size(); ++ci) {
      int c = step.components[ci];
      Eval e = model.view(c, ctx, Eval::Phase::Outputs);
      model.components()[c]->calc_outputs(e);
      // Keep what it computed, and give later members the loop values z, not g(z).
      for (int k : step.tear_positions_by_component[ci]) {
        out[k] = ctx.y[step.tear_outputs[k]] - zz[k];
        ctx.y[step.tear_outputs[k]] = zz[k];
      }
    }
    for (int k = 0; k < nu; ++k) out[nt + k] = ctx.residuals[step.unknowns[k]];
  };
  auto fail = [&](const std::string& why) {
    std::vector<std::string> names;
    for (int c : step.components) names.push_back(model.components()[c]->name());
    throw SimulationError(ctx.t, names, "algebraic loop not solved: " + why);
  };
  // The Jacobian at z (F = F(z) known), by forward differences, factorized.
  auto refactor = [&] {
    for (int j = 0; j < n; ++j) {
      const double h = 1e-7 * std::max(1.0, std::abs(zv[j]));
      const double saved = zv[j];
      zv[j] += h;
      pass(zv, ws.F1);
      zv[j] = saved;
      ws.J.col(j) = (ws.F1 - ws.F) / h;
    }
    ws.qr.compute(ws.J);
    ws.factored = true;
    if (ws.qr.rank() < n) {
      ws.factored = false;
      fail("its Jacobian is singular (rank " + std::to_string(ws.qr.rank()) + " of " + std::to_string(n) + ")");
    }
  };

  const double tol_rel = 1e-10, tol_abs = 1e-12;
  const int max_iterations = 50;
  bool converged = false;
  double last_size = 0.0;  // the previous step's scaled size (0: none yet)
  for (int it = 0; it < max_iterations; ++it) {
    pass(zv, ws.F);
    if (!ws.F.allFinite()) fail("a residual is not finite");
    ++ctx.algebraic_iterations;
    const bool fresh = !ws.factored;
    if (fresh) refactor();
    ws.dz.noalias() = ws.qr.solve(-ws.F);
    zv += ws.dz;
    double size = 0.0;  // the step in units of the tolerance: converged at <= 1
    for (int k = 0; k < n; ++k) size = std::max(size, std::abs(ws.dz[k]) / (tol_abs + tol_rel * std::abs(zv[k])));
    // With a kept factorization the error after a step is about the contraction rate
    // times the step: trusted when the step is within the tolerance and (after the
    // first) at most half the one before; a slower contraction asks for a fresh Jacobian.
    const double rate = last_size > 0.0 ? size / last_size : 0.0;
    if (size <= 1.0 && (fresh || rate <= 0.5)) {
      converged = true;
      break;
    }
    if (!fresh && it > 0 && rate > 0.5) ws.factored = false;
    last_size = size;
  }
  if (!converged) {
    ws.factored = false;
    fail("Newton's method did not converge in " + std::to_string(max_iterations) + " iterations");
  }
  // Final pass at the solution, so every output of the members is consistent with it.
  pass(zv, ws.F);
}

}  // namespace jourdain
