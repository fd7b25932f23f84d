// Φ_q in the compact form the mechanism's sparse linear algebra uses: the list of entries
// MechanismSystem::for_each_jacobian_entry emits, which is fixed in number and order for a
// mechanism, so that the pattern is read once per run and only the values at each
// evaluation. Shared by the augmented Lagrangian formulation and the singularity monitor.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "mechanism_system.hpp"

namespace jourdain::mechanical {

// Entries of one equation on the same column add up.
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
  // y = Φ_q x, an equation at a time (its entries are consecutive: one sum in a register
  // rather than a store and a reload per entry)
  void times(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
    y.resize(rows);
    for (int i = 0; i < rows; ++i) {
      double sum = 0.0;
      for (int k = first[i]; k < first[i + 1]; ++k) sum += value[k] * x[column[k]];
      y[i] = sum;
    }
  }
  // r = Φ_q x − b in one pass over the entries, with its largest |r_i| and the size its
  // rounding is measured against, `scale`:
  // - residual(x, b, r): the largest term |Φ_q,ij x_j| of the products (the augmented
  //   Lagrangian iteration, whose x is its own iterate);
  // - residual(x, b, r, x_terms), for an x whose x_j was computed from terms of size
  //   x_terms_j (so rounds to ε of that): the largest over the rows of |b_i| +
  //   Σ_j |Φ_q,ij| x_terms_j, what a row of r rounds to ε of (the normwise backward error,
  //   a row at a time; the tree's direct solve).
  struct Residual {
    double largest = 0.0, scale = 0.0;
  };
  Residual residual(const Eigen::VectorXd& x, Eigen::Ref<const Eigen::VectorXd> b, Eigen::VectorXd& r) const {
    return residual_pass<false>(x, b, r, x);
  }
  Residual residual(const Eigen::VectorXd& x, Eigen::Ref<const Eigen::VectorXd> b, Eigen::VectorXd& r,
                    const Eigen::VectorXd& x_terms) const {
    return residual_pass<true>(x, b, r, x_terms);
  }
  template <bool kRowScale>
  Residual residual_pass(const Eigen::VectorXd& x, Eigen::Ref<const Eigen::VectorXd> b, Eigen::VectorXd& r,
                         const Eigen::VectorXd& x_terms) const {
    r.resize(rows);
    Residual out;
    for (int i = 0; i < rows; ++i) {
      double sum = 0.0, row_scale = std::abs(b[i]);
      for (int k = first[i]; k < first[i + 1]; ++k) {
        const double term = value[k] * x[column[k]];
        sum += term;
        if constexpr (kRowScale) row_scale += std::abs(value[k]) * x_terms[column[k]];
        else out.scale = std::max(out.scale, std::abs(term));
      }
      r[i] = sum - b[i];
      out.largest = std::max(out.largest, std::abs(r[i]));
      if constexpr (kRowScale) out.scale = std::max(out.scale, row_scale);
    }
    return out;
  }
  // z = Φ_qᵀ l
  void transpose_times(const Eigen::VectorXd& l, Eigen::VectorXd& z) const {
    z.setZero(cols);
    for (size_t k = 0; k < value.size(); ++k) z[column[k]] += value[k] * l[equation[k]];
  }
  // The same, and z_size = |Φ_q|ᵀ |l|: what each z_j rounds to ε of (its terms, which
  // cancel where the reactions on a body nearly balance), in the same pass.
  void transpose_times(const Eigen::VectorXd& l, Eigen::VectorXd& z, Eigen::VectorXd& z_size) const {
    z.setZero(cols);
    z_size.setZero(cols);
    for (size_t k = 0; k < value.size(); ++k) {
      const double term = value[k] * l[equation[k]];
      z[column[k]] += term;
      z_size[column[k]] += std::abs(term);
    }
  }
};

// Φ_q's rows as one 3-vector per pair (equation, body), a "part": the unit the block
// factorizations assemble from (a body's x, y, θ together). Equation i's parts are
// part_start[i] .. part_start[i + 1], in the order its entries first name their bodies.
// The pattern is found once per run (analyze); gather then writes the values.
struct JacobianParts {
  std::vector<int> part_start;                    // per equation, its first part; then the end
  std::vector<int> part_body, part_equation;      // per part
  std::vector<int> entry_part, entry_coordinate;  // per entry of Φ_q
  std::vector<Vec3> u;                            // per part, at the last gather

  void analyze(const SparseJacobian& J) {
    part_start.assign(1, 0);
    part_body.clear();
    part_equation.clear();
    entry_part.resize(J.value.size());
    entry_coordinate.resize(J.value.size());
    for (int i = 0; i < J.rows; ++i) {
      const int first_part = part_start.back();
      for (int e = J.first[i]; e < J.first[i + 1]; ++e) {
        const int body = J.column[e] / 3;
        int part = first_part;
        while (part < static_cast<int>(part_body.size()) && part_body[part] != body) ++part;
        if (part == static_cast<int>(part_body.size())) {
          part_body.push_back(body);
          part_equation.push_back(i);
        }
        entry_part[e] = part;
        entry_coordinate[e] = J.column[e] % 3;
      }
      part_start.push_back(static_cast<int>(part_body.size()));
    }
    u.assign(part_body.size(), Vec3::Zero());
  }
  void gather(const SparseJacobian& J) {
    std::fill(u.begin(), u.end(), Vec3::Zero());
    for (size_t e = 0; e < J.value.size(); ++e) u[entry_part[e]][entry_coordinate[e]] += J.value[e];
  }
  int parts() const { return static_cast<int>(part_body.size()); }
};

// Φ_q's equations grouped by the pair of bodies they join (or the body they tie to the
// ground), one node per pair, numbered as the equations first name them; and, when the
// pairs form a forest over the bodies and the ground, each pair oriented from the ground
// outwards (a floating tree from its first body): its child is the body it adds, its
// parent the one nearer the root. The structure the tree's elimination
// (constraint_tree.hpp) and its rank test (mechanism_rank.hpp) share.
struct PairForest {
  std::vector<int> equation_node, equation_slot;  // per equation
  std::vector<std::vector<int>> node_equations;   // per node, its equations in slot order
  std::vector<int> node_child, node_parent;       // per node; parent -1: the ground

  // False when an equation names no body or more than two, a pair carries more than three
  // equations, or a chain of pairs closes a loop. Linear in the equations (up to the map's
  // logarithm).
  bool analyze(const JacobianParts& parts, int bodies) {
    const int rows = static_cast<int>(parts.part_start.size()) - 1;
    equation_node.assign(rows, -1);
    equation_slot.assign(rows, 0);
    node_equations.clear();
    std::map<std::pair<int, int>, int> node_of;  // (body, body or -1 for the ground)
    std::vector<std::pair<int, int>> node_pair;
    for (int i = 0; i < rows; ++i) {
      const int first = parts.part_start[i], count = parts.part_start[i + 1] - first;
      if (count == 0 || count > 2) return false;
      const int a = parts.part_body[first], b = count == 2 ? parts.part_body[first + 1] : -1;
      const std::pair<int, int> pair{b < 0 ? a : std::min(a, b), b < 0 ? -1 : std::max(a, b)};
      const auto [it, added] = node_of.emplace(pair, static_cast<int>(node_pair.size()));
      if (added) {
        node_pair.push_back(pair);
        node_equations.emplace_back();
      }
      std::vector<int>& equations = node_equations[it->second];
      if (equations.size() == 3) return false;  // more than three equations on one pair
      equation_node[i] = it->second;
      equation_slot[i] = static_cast<int>(equations.size());
      equations.push_back(i);
    }
    // Breadth first from the ground (vertex `bodies`), then from each body not reached: a
    // pair that reaches a body already reached closes a loop.
    const int pairs = static_cast<int>(node_pair.size()), ground = bodies;
    std::vector<std::vector<std::pair<int, int>>> adjacent(bodies + 1);  // (node, other end)
    for (int k = 0; k < pairs; ++k) {
      const int a = node_pair[k].first, b = node_pair[k].second < 0 ? ground : node_pair[k].second;
      adjacent[a].emplace_back(k, b);
      adjacent[b].emplace_back(k, a);
    }
    node_child.assign(pairs, -1);
    node_parent.assign(pairs, -1);
    std::vector<int> reached_by(bodies + 1, -1);  // the node that reached a body
    std::vector<char> reached(bodies + 1, 0);
    std::vector<int> queue;
    for (int k = -1; k < bodies; ++k) {
      const int start = k < 0 ? ground : k;
      if (reached[start]) continue;
      reached[start] = 1;
      queue.assign(1, start);
      for (size_t q = 0; q < queue.size(); ++q) {
        const int body = queue[q];
        for (const auto& [node, other] : adjacent[body]) {
          if (node == reached_by[body]) continue;
          if (reached[other]) return false;
          reached[other] = 1;
          reached_by[other] = node;
          node_child[node] = other;
          node_parent[node] = body == ground ? -1 : body;
          queue.push_back(other);
        }
      }
    }
    return true;
  }
  int nodes() const { return static_cast<int>(node_equations.size()); }
};

// A symmetric sparse matrix made of a diagonal and of the products of Φ_q's entries taken
// two at a time within groups: within an equation for Φ_qᵀAΦ_q (the products land at their
// columns), within a column for Φ_q W⁻¹ Φ_qᵀ (they land at their equations). Its pattern
// (lower triangle) and the slot each product adds into are found once per run; each
// evaluation then only writes the values, without allocating.
class ProductMatrix {
 public:
  // `groups`: the entries of each group; `key`: each entry's row and column in the
  // matrix; `order`: its size.
  void build(const std::vector<std::vector<int>>& groups, const std::vector<int>& key, int order) {
    std::vector<Eigen::Triplet<double>> pattern;
    for (int i = 0; i < order; ++i) pattern.emplace_back(i, i, 1.0);
    std::vector<std::pair<int, int>> pairs;
    for (const auto& entries : groups)
      for (int a : entries)
        for (int b : entries)
          if (key[a] >= key[b]) {
            pairs.emplace_back(a, b);
            pattern.emplace_back(key[a], key[b], 1.0);
          }
    matrix_.resize(order, order);
    matrix_.setFromTriplets(pattern.begin(), pattern.end());
    matrix_.makeCompressed();
    auto slot = [&](int row, int col) {
      const int* begin = matrix_.innerIndexPtr() + matrix_.outerIndexPtr()[col];
      const int* end = matrix_.innerIndexPtr() + matrix_.outerIndexPtr()[col + 1];
      return static_cast<int>(std::lower_bound(begin, end, row) - matrix_.innerIndexPtr());
    };
    diagonal_.resize(order);
    for (int i = 0; i < order; ++i) diagonal_[i] = slot(i, i);
    products_.clear();
    for (const auto& [a, b] : pairs) products_.push_back({slot(key[a], key[b]), a, b});
  }
  bool built() const { return matrix_.rows() > 0 || !diagonal_.empty(); }

  // The values: `diagonal` (its order) plus product(a, b) for every pair of entries.
  template <class Product>
  void assemble(const Eigen::VectorXd& diagonal, Product&& product) {
    double* values = matrix_.valuePtr();
    std::fill(values, values + matrix_.nonZeros(), 0.0);
    for (size_t i = 0; i < diagonal_.size(); ++i) values[diagonal_[i]] += diagonal[static_cast<Eigen::Index>(i)];
    for (const Pair& p : products_) values[p.slot] += product(p.a, p.b);
  }
  const Eigen::SparseMatrix<double>& matrix() const { return matrix_; }

 private:
  struct Pair {
    int slot;  // index in matrix_'s values
    int a, b;  // the two entries (key(a) >= key(b))
  };
  Eigen::SparseMatrix<double> matrix_;
  std::vector<int> diagonal_;
  std::vector<Pair> products_;
};

}  // namespace jourdain::mechanical
