// The general Newton solver of an algebraic loop (newton_block_solver.hpp).
#include "newton_block_solver.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "jourdain/model.hpp"

namespace jourdain {

void NewtonBlockSolver::solve(const Model& model, Context& ctx) const {
  const ScheduledStep& step = block_;
  const int nt = static_cast<int>(step.tear_outputs.size());
  const int nu = static_cast<int>(step.unknowns.size());
  const int n = nt + nu;
  Eigen::VectorXd zv(n), F(n), F1(n);
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

  const double tol_rel = 1e-10, tol_abs = 1e-12;
  const int max_iterations = 50;
  Eigen::MatrixXd J(n, n);
  bool converged = false;
  for (int it = 0; it < max_iterations; ++it) {
    pass(zv, F);
    if (!F.allFinite()) fail("a residual is not finite");
    ++ctx.algebraic_iterations;
    for (int j = 0; j < n; ++j) {
      const double h = 1e-7 * std::max(1.0, std::abs(zv[j]));
      Eigen::VectorXd zp = zv;
      zp[j] += h;
      pass(zp, F1);
      J.col(j) = (F1 - F) / h;
    }
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(J);
    if (qr.rank() < n) fail("its Jacobian is singular (rank " + std::to_string(qr.rank()) + " of " + std::to_string(n) + ")");
    Eigen::VectorXd dz = qr.solve(-F);
    zv += dz;
    bool small = true;
    for (int k = 0; k < n; ++k) small = small && std::abs(dz[k]) <= tol_abs + tol_rel * std::abs(zv[k]);
    if (small) {
      converged = true;
      break;
    }
  }
  if (!converged) fail("Newton's method did not converge in " + std::to_string(max_iterations) + " iterations");
  // Final pass at the solution, so every output of the members is consistent with it.
  pass(zv, F);
}

}  // namespace jourdain
