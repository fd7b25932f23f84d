// Rank analysis of Φ_q (mechanism_rank.hpp; README.md, "The equations").
#include "mechanism_rank.hpp"

#include <algorithm>

#include <Eigen/Dense>

#include "formulation.hpp"

namespace jourdain::mechanical {

namespace {

// The QR's rank threshold (Eigen counts the pivots above it times the largest pivot):
// about 1e-9, well above the ~1e-16 that rounding leaves of a dependent row, well below
// what an independent one keeps away from a singular pose.
double rank_threshold(const Eigen::MatrixXd& J) {
  return 1e-9 * std::max(1.0, J.cwiseAbs().maxCoeff()) / std::max<Eigen::Index>(1, J.cols());
}

Eigen::ColPivHouseholderQR<Eigen::MatrixXd> pivoted_qr(const Eigen::MatrixXd& J) {
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(J.transpose());
  qr.setThreshold(rank_threshold(J));
  return qr;
}

}  // namespace

int jacobian_rank(const Eigen::MatrixXd& J) { return J.rows() ? static_cast<int>(pivoted_qr(J).rank()) : 0; }

std::vector<int> dependent_equations(const Eigen::MatrixXd& J) {
  const auto qr = pivoted_qr(J);
  std::vector<int> eqs;
  for (Eigen::Index k = qr.rank(); k < J.rows(); ++k) eqs.push_back(static_cast<int>(qr.colsPermutation().indices()[k]));
  return eqs;
}

void check_rank(const MechanismEval& me, const Formulation& formulation, bool kinematic) {
  const MechanismSystem& system = me.system;
  const int m = system.equations();
  if (m == 0) {
    if (kinematic) throw SimulationError(me.ctx.t, {}, "a kinematic analysis needs drivers: the mechanism has none");
    return;
  }
  const Eigen::MatrixXd J = system.dense_jacobian(me.ws.state);
  const int rank = jacobian_rank(J), n = static_cast<int>(J.cols());
  if (rank < m) {
    const std::vector<int> dependent = dependent_equations(J);
    if (!formulation.solves_redundant() || kinematic) {
      throw SimulationError(me.ctx.t, system.component_names(dependent),
                            std::string(kinematic && me.ws.assembled ? "singular configuration: " : "redundant constraints: ") +
                                system.equation_names(dependent) + " depend on the others (Jacobian rank " +
                                std::to_string(rank) + " of " + std::to_string(m) + " equations)" +
                                (kinematic ? "" : "; set world.constraints.redundant = \"least_squares\" to solve them "
                                                  "in the least-squares sense"));
    }
    if (!me.ws.assembled)
      me.ctx.warnings.push_back("redundant constraints solved " + formulation.redundant_treatment() + ": " +
                                system.equation_names(dependent));
  }
  if (kinematic && rank < n)
    throw SimulationError(me.ctx.t, {}, "a kinematic analysis needs zero degrees of freedom once the drivers are "
                                        "counted; this mechanism has " + std::to_string(n - rank) +
                                        ": add drivers or run a dynamic analysis");
}

}  // namespace jourdain::mechanical
