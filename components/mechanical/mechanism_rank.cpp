// Rank analysis of Φ_q (mechanism_rank.hpp; README.md, "The equations").
#include "mechanism_rank.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Dense>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <Eigen/SparseQR>

#include "formulation.hpp"
#include "mechanism_assembly.hpp"
#include "mechanism_jacobian.hpp"

namespace jourdain::mechanical {

namespace {

// The QR's rank threshold (Eigen counts the pivots above it times the largest pivot):
// about 1e-9, well above the ~1e-16 that rounding leaves of a dependent row, well below
// what an independent one keeps away from a singular pose.
double rank_threshold(double largest_entry, Eigen::Index columns) {
  return 1e-9 * std::max(1.0, largest_entry) / std::max<Eigen::Index>(1, columns);
}
double rank_threshold(const Eigen::MatrixXd& J) { return rank_threshold(J.cwiseAbs().maxCoeff(), J.cols()); }

}  // namespace

bool forest_has_full_row_rank(const SparseJacobian& J) {
  JacobianParts parts;
  parts.analyze(J);
  parts.gather(J);
  PairForest forest;
  if (!forest.analyze(parts, J.cols / 3)) return false;
  // Each pair's block on the body it adds, its rows scaled to their equation's whole row.
  for (int node = 0; node < forest.nodes(); ++node) {
    const std::vector<int>& equations = forest.node_equations[node];
    const int k = static_cast<int>(equations.size());
    Eigen::Matrix<double, Eigen::Dynamic, 3, 0, 3, 3> block(k, 3);
    for (int r = 0; r < k; ++r) {
      const int i = equations[r];
      double whole = 0.0;
      block.row(r).setZero();
      for (int p = parts.part_start[i]; p < parts.part_start[i + 1]; ++p) {
        whole += parts.u[p].squaredNorm();
        if (parts.part_body[p] == forest.node_child[node]) block.row(r) = parts.u[p].transpose();
      }
      if (!(whole > 0.0)) return false;
      block.row(r) /= std::sqrt(whole);
    }
    const Eigen::JacobiSVD<Eigen::Matrix<double, Eigen::Dynamic, 3, 0, 3, 3>> svd(block);
    if (!(svd.singularValues()[k - 1] > 1e-6)) return false;
  }
  return true;
}

bool sparse_qr_has_full_row_rank(const SparseJacobian& J) {
  std::vector<Eigen::Triplet<double>> entries;
  for (size_t e = 0; e < J.value.size(); ++e) entries.emplace_back(J.column[e], J.equation[e], J.value[e]);
  Eigen::SparseMatrix<double> Jt(J.cols, J.rows);  // Φ_qᵀ
  Jt.setFromTriplets(entries.begin(), entries.end());
  double largest_entry = 0.0, largest_row = 0.0;
  for (Eigen::Index k = 0; k < Jt.outerSize(); ++k) {
    largest_row = std::max(largest_row, Jt.col(k).norm());
    for (Eigen::SparseMatrix<double>::InnerIterator it(Jt, k); it; ++it)
      largest_entry = std::max(largest_entry, std::abs(it.value()));
  }
  Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr;
  qr.setPivotThreshold(1e3 * rank_threshold(largest_entry, Jt.rows()) * largest_row);
  qr.compute(Jt);
  return qr.info() == Eigen::Success && qr.rank() == Jt.cols();
}

namespace {

// Whether Φ_q has full row rank with a margin: by its structure for a forest, by the sparse
// QR otherwise; false sends the question to the dense pivoted QR.
bool full_row_rank(const MechanismSystem& system, const SystemState& s) {
  SparseJacobian J;
  J.gather(system, s);
  return forest_has_full_row_rank(J) || sparse_qr_has_full_row_rank(J);
}

Eigen::ColPivHouseholderQR<Eigen::MatrixXd> pivoted_qr(const Eigen::MatrixXd& J) {
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(J.transpose());
  qr.setThreshold(rank_threshold(J));
  return qr;
}

// The rank deficiencies of Φ_q at a pose: equations that depend on the others, and free
// directions beyond those the equations leave (n − rank).
struct Deficiency {
  int dependent = 0, free = 0;
};

Deficiency deficiency(const Eigen::MatrixXd& J) {
  const int rank = jacobian_rank(J);
  return {static_cast<int>(J.rows()) - rank, static_cast<int>(J.cols()) - rank};
}

// Whether the deficiency `d` found at me's pose is the mechanism's own: the mechanism is
// moved along a mixture of the free directions of Φ_q (its null space, which at a singular
// pose includes the directions it gains there) by 1e-3 of its size, and by a microsecond
// in time (a driver past a dead centre has no pose there, a structural defect keeps one),
// assembled again, both ways; the deficiency is structural if it stays at both poses.
bool persists(const MechanismEval& me, const Formulation& formulation, const Eigen::MatrixXd& J, Deficiency d,
              bool kinematic, double tolerance) {
  const MechanismSystem& system = me.system;
  const Eigen::VectorXd q0 = system.positions(me.model, me.ctx, Eval::Phase::Outputs);
  Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
  lu.setThreshold(rank_threshold(J));
  const Eigen::MatrixXd null_space = lu.kernel();
  Eigen::VectorXd direction = Eigen::VectorXd::Zero(q0.size());
  // Fixed, unequal weights: no symmetry of the mechanism can cancel them.
  for (Eigen::Index k = 0; k < null_space.cols(); ++k) direction += std::cos(1.0 + 1.3 * k) * null_space.col(k);
  if (!(direction.norm() > 0.0)) return true;  // no free direction: nothing can change it
  const double size = 1e-3 * std::max(1.0, q0.cwiseAbs().maxCoeff());
  direction *= size / direction.norm();
  for (double sign : {1.0, -1.0}) {
    Context probe = me.ctx;
    probe.t = me.ctx.t + sign * 1e-6 * std::max(1.0, std::abs(me.ctx.t));
    Workspace ws;
    ws.state = system.make_state();
    const MechanismEval pe{me.model, system, probe, ws};
    system.set_positions(me.model, probe, Eval::Phase::Project, q0 + sign * direction);
    try {
      assemble(pe, formulation, Eval::Phase::Project, tolerance, tolerance, "");
    } catch (const SimulationError&) {
      return false;  // no pose there: the deficiency belongs to the pose (a limit position)
    }
    const Deficiency there = deficiency(system.dense_jacobian(ws.state));
    if (there.dependent < d.dependent || (kinematic && there.free < d.free)) return false;
  }
  return true;
}

// The netlist location of the component that owns equation `eq`.
InputLocation location_of(const MechanismEval& me, int eq) {
  return me.model.location(me.system.equation(eq).component);
}

}  // namespace

int jacobian_rank(const Eigen::MatrixXd& J) { return J.rows() ? static_cast<int>(pivoted_qr(J).rank()) : 0; }

int jacobian_rank(const MechanismSystem& system, const SystemState& s) {
  if (system.equations() == 0) return 0;
  return full_row_rank(system, s) ? system.equations() : jacobian_rank(system.dense_jacobian(s));
}

std::vector<int> dependent_equations(const Eigen::MatrixXd& J) {
  const auto qr = pivoted_qr(J);
  std::vector<int> eqs;
  for (Eigen::Index k = qr.rank(); k < J.rows(); ++k) eqs.push_back(static_cast<int>(qr.colsPermutation().indices()[k]));
  return eqs;
}

Structure check_structure(const MechanismEval& me, const Formulation& corrections, bool solve_redundant, bool kinematic,
                          double tolerance) {
  const MechanismSystem& system = me.system;
  const InputLocation analysis{me.model.world().file, "/analysis", "", ""};
  const int m = system.equations(), n = system.coordinates();
  Structure out;
  if (m == 0) {
    if (kinematic) throw InputError(analysis, "a kinematic analysis needs drivers: the mechanism has none");
    return out;
  }
  if (!(kinematic && m < n) && full_row_rank(system, me.ws.state)) {
    out.rank = m;
    return out;
  }
  const Eigen::MatrixXd J = system.dense_jacobian(me.ws.state);
  const Deficiency d = deficiency(J);
  out.rank = m - d.dependent;
  if (d.dependent == 0 && !(kinematic && d.free > 0)) return out;
  if (!persists(me, corrections, J, d, kinematic, tolerance)) {
    out.singular_start = true;
    return out;
  }
  if (d.dependent > 0) {
    out.redundant = dependent_equations(J);
    if (!solve_redundant) {
      const std::vector<std::string> names = system.component_names(out.redundant);
      std::string components;
      for (const auto& c : names) components += (components.empty() ? "'" : ", '") + c + "'";
      throw InputError(location_of(me, out.redundant.front()),
                       "redundant constraints: " + system.equation_names(out.redundant) +
                           " depend on the others at every pose (Jacobian rank " + std::to_string(out.rank) + " of " +
                           std::to_string(m) + " equations; components " + components +
                           "): a duplicated joint, or two drivers on one degree of freedom. Remove the extra one, or set "
                           "world.constraints.redundant = \"least_squares\" to solve them in the least-squares sense");
    }
    me.ctx.warnings.push_back("redundant constraints solved in the least-squares sense (world.constraints.redundant): " +
                              system.equation_names(out.redundant));
  }
  if (kinematic && d.free > 0)
    throw InputError(analysis, "a kinematic analysis needs zero degrees of freedom once the drivers are counted; this "
                               "mechanism has " + std::to_string(d.free) + " (" + std::to_string(n / 3) + " bodies, " +
                               std::to_string(m) + " equations, rank " + std::to_string(out.rank) +
                               "): add drivers, or run a dynamic analysis");
  return out;
}

}  // namespace jourdain::mechanical
