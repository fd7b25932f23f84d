// Coordinates on the constraint manifold (linear.hpp, "Independent coordinates"): the
// partition of the states into independent and dependent ones with the basis T, the
// central differences along T, and the check that the point is no singular configuration.
#include <algorithm>
#include <cmath>
#include <sstream>

#include <Eigen/Dense>

#include "linear_internal.hpp"

namespace jourdain::detail {

namespace {

// |R_kk| of the last pivot kept over |R_00|: a cheap estimate of how near the rank
// decision the kept columns are.
template <class QR>
double pivot_spread(const QR& qr) {
  if (qr.rank() == 0) return 1.0;
  const double first = std::abs(qr.matrixR()(0, 0)), last = std::abs(qr.matrixR()(qr.rank() - 1, qr.rank() - 1));
  return first > 0 ? last / first : 1.0;
}

}  // namespace

Partition partition(const Model& model, Context& ctx) {
  const int n = model.state_count();
  Partition p;
  const Eigen::MatrixXd H = model.invariant_jacobian(ctx);
  if (H.rows() == 0) {
    for (int j = 0; j < n; ++j) p.independent.push_back(j);
    p.basis = Eigen::MatrixXd::Identity(n, n);
    return p;
  }
  // Entries are O(1) in the constraints' units; below 1e-9 of the largest they are the
  // differentiation's noise in ∂Φ̇/∂q, not structure.
  const double threshold = 1e-9;
  std::vector<bool> is_dependent(n, false);
  const auto pairs = model.coordinate_pairs(ctx);
  if (!pairs.empty()) {
    // Position-level rows: those with no entry in any rate's column.
    std::vector<Eigen::Index> rows;
    for (Eigen::Index i = 0; i < H.rows(); ++i) {
      bool position_level = true;
      for (const auto& pr : pairs) position_level = position_level && H(i, pr.second) == 0.0;
      if (position_level) rows.push_back(i);
    }
    Eigen::MatrixXd positions(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(pairs.size()));
    for (size_t i = 0; i < rows.size(); ++i)
      for (size_t k = 0; k < pairs.size(); ++k)
        positions(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) = H(rows[i], pairs[k].first);
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(positions);
    qr.setThreshold(threshold);
    p.conditioning = pivot_spread(qr);
    for (Eigen::Index k = 0; k < qr.rank(); ++k) {
      const auto& pr = pairs[static_cast<size_t>(qr.colsPermutation().indices()[k])];
      is_dependent[pr.first] = is_dependent[pr.second] = true;
    }
  } else {
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(H);
    qr.setThreshold(threshold);
    p.conditioning = pivot_spread(qr);
    for (Eigen::Index k = 0; k < qr.rank(); ++k) is_dependent[qr.colsPermutation().indices()[k]] = true;
  }
  for (int j = 0; j < n; ++j) (is_dependent[j] ? p.dependent : p.independent).push_back(j);
  const auto d = static_cast<Eigen::Index>(p.dependent.size()), r = static_cast<Eigen::Index>(p.independent.size());
  Eigen::MatrixXd HD(H.rows(), d), HI(H.rows(), r);
  for (Eigen::Index k = 0; k < d; ++k) HD.col(k) = H.col(p.dependent[static_cast<size_t>(k)]);
  for (Eigen::Index k = 0; k < r; ++k) HI.col(k) = H.col(p.independent[static_cast<size_t>(k)]);
  p.basis = Eigen::MatrixXd::Zero(n, r);
  for (Eigen::Index k = 0; k < r; ++k) p.basis(p.independent[static_cast<size_t>(k)], k) = 1.0;
  if (r == 0 || d == 0) return p;  // every state dependent (a driven mechanism), or none: no coupling
  const Eigen::MatrixXd coupling = -HD.colPivHouseholderQr().solve(HI);
  for (Eigen::Index k = 0; k < d; ++k) p.basis.row(p.dependent[static_cast<size_t>(k)]) = coupling.row(k);
  return p;
}

void tangent_jacobians(const Model& model, const Context& ctx, const Partition& p,
                       const std::vector<const RecordableVariable*>& outputs, Eigen::MatrixXd& A, Eigen::MatrixXd& C) {
  const int r = static_cast<int>(p.independent.size());
  Prober probe(model, ctx, outputs);
  A.resize(r, r);
  C.resize(static_cast<Eigen::Index>(outputs.size()), r);
  Eigen::VectorXd fp, fm, yp, ym;
  for (int j = 0; j < r; ++j) {
    const double h = kStepScale * std::max(1.0, std::abs(ctx.x[p.independent[j]]));
    const Eigen::VectorXd dx = h * p.basis.col(j);
    probe.at(dx, -1, 0.0, fp, yp);
    probe.at(-dx, -1, 0.0, fm, ym);
    for (int i = 0; i < r; ++i) A(i, j) = (fp[p.independent[i]] - fm[p.independent[i]]) / (2.0 * h);
    C.col(j) = (yp - ym) / (2.0 * h);
  }
}

void settle(const Model& model, Context& ctx) {
  model.evaluate(ctx);
  model.restore_invariants(ctx);
}

double scaled_residual(const Context& ctx, const std::vector<int>& independent) {
  double worst = 0.0;
  for (int j : independent) worst = std::max(worst, std::abs(ctx.xdot[j]) / std::max(1.0, std::abs(ctx.x[j])));
  return worst;
}

void check_regular(const Model& model, const Context& ctx, const Partition& p, LinearModel& lm) {
  if (p.dependent.empty() || p.independent.empty()) return;
  Eigen::VectorXd direction = Eigen::VectorXd::Zero(ctx.x.size());
  for (Eigen::Index k = 0; k < p.basis.cols(); ++k)  // weights no symmetry of the mechanism shares
    direction += std::sqrt(2.0 + static_cast<double>(k)) * (k % 2 == 0 ? 1.0 : -1.0) * p.basis.col(k);
  if (direction.cwiseAbs().maxCoeff() == 0.0) return;
  direction /= direction.cwiseAbs().maxCoeff();
  for (const double step : {1e-3, -1e-3}) {
    Context probe = ctx;
    probe.x += step * direction;
    try {
      settle(model, probe);
    } catch (const Error&) {
      continue;  // cannot get there: no evidence either way
    }
    const Partition near = partition(model, probe);
    if (near.independent.size() < p.independent.size()) {
      std::ostringstream msg;
      msg << "the operating point is a singular configuration: the constraints' Jacobian loses rank there, leaving "
          << p.independent.size() << " independent states where poses nearby have " << near.independent.size()
          << "; a linear model there would have spurious modes (the motion of another assembly branch). Linearize at "
             "a pose off it: another \"at\" (a time, or \"initial\" with the initial pose moved)";
      throw SimulationError(ctx.t, {}, msg.str());
    }
  }
  if (p.conditioning < 1e-6) {
    std::ostringstream msg;
    msg.precision(2);
    msg << "the operating point is near a singular configuration (the constraints' Jacobian's pivots spread over "
        << 1.0 / p.conditioning << "): the linear model may lose as many digits";
    lm.warnings.push_back(msg.str());
  }
}

}  // namespace jourdain::detail
