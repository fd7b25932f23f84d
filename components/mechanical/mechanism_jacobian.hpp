// Φ_q in the compact form the mechanism's sparse linear algebra uses: the list of entries
// MechanismSystem::for_each_jacobian_entry emits, which is fixed in number and order for a
// mechanism, so that the pattern is read once per run and only the values at each
// evaluation. Shared by the augmented Lagrangian formulation and the singularity monitor.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "mechanism_system.hpp"

namespace jourdain::mechanical {

// Φ_q as the list of entries the system emits (MechanismSystem::for_each_jacobian_entry):
// fixed in number and order for a mechanism, so the pattern is read once and the values at
// each evaluation. Entries of one equation on the same column add up.
struct SparseJacobian {
  std::vector<int> equation, column;  // per entry
  std::vector<double> value;
  std::vector<int> first;  // per equation, its first entry (an equation's entries are consecutive); then the count
  int rows = 0, cols = 0;

  void gather(const MechanismSystem& system, const SystemState& s) {
    const bool pattern = first.empty();
    if (pattern) {
      rows = system.equations();
      cols = system.coordinates();
      first.assign(rows + 1, 0);
    }
    size_t k = 0;
    system.for_each_jacobian_entry(s, [&](int r, int c, double v) {
      const int eq = system.row(r).equation;
      if (eq < 0) return;  // an actuator's force: no equation
      if (pattern) {
        equation.push_back(eq);
        column.push_back(c);
        value.push_back(v);
        ++first[eq + 1];
      } else {
        value[k] = v;
      }
      ++k;
    });
    if (pattern)
      for (int i = 0; i < rows; ++i) first[i + 1] += first[i];
  }
  // (Φ_q W⁻¹ Φ_qᵀ)_ii: equation i's squared norm in the W⁻¹ metric, its entries on one
  // column added first (a body's two points in one constraint).
  double squared_norm(int i, const Eigen::VectorXd& w) const {
    double sum = 0.0;
    for (int a = first[i]; a < first[i + 1]; ++a) {
      bool seen = false;
      for (int b = first[i]; b < a && !seen; ++b) seen = column[b] == column[a];
      if (seen) continue;
      double v = 0.0;
      for (int b = a; b < first[i + 1]; ++b)
        if (column[b] == column[a]) v += value[b];
      sum += v * v / w[column[a]];
    }
    return sum;
  }
  // y = Φ_q x
  void times(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
    y.setZero(rows);
    for (size_t k = 0; k < value.size(); ++k) y[equation[k]] += value[k] * x[column[k]];
  }
  // z = Φ_qᵀ l
  void transpose_times(const Eigen::VectorXd& l, Eigen::VectorXd& z) const {
    z.setZero(cols);
    for (size_t k = 0; k < value.size(); ++k) z[column[k]] += value[k] * l[equation[k]];
  }
};

}  // namespace jourdain::mechanical
