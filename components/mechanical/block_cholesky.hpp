// Cholesky factorization of a symmetric positive definite matrix made of square blocks of
// a fixed size: 3×3, one block row and column per planar body (x, y, θ), for the leading
// matrix M + Φ_qᵀAΦ_q of the augmented Lagrangian formulation
// (formulation_augmented_lagrangian.cpp, (2)), whose block (i, j) is nonzero only when a
// constraint equation involves both bodies i and j; 2×2 or 3×3, one per pair of bodies,
// for the multipliers' Schur complement of a tree (constraint_tree.hpp), 2×2 where every
// pair has at most two equations (revolutes), which leaves no padding to carry.
//
// Why not a general sparse Cholesky: the blocks are the natural unit. The elimination
// order and the fill are found once per run on the graph of the bodies: the bodies that
// hang off the rest by one coupling go first, leaves first, which for a tree of bodies (a
// chain, an arm, an excavator's boom–stick–bucket) makes no fill at all and a
// factorization linear in the number of bodies (the elimination along the tree of Baraff
// 1996, "Linear-time dynamics using Lagrange multipliers"); what remains, the closed loops,
// goes in the order of Eigen's approximate minimum degree, and each loop adds the fill of
// its cycle only. Every operation then works on fixed-size 3×3 blocks, with the targets of
// the updates listed in the symbolic step, so that a factorization or a solve is
// straight-line arithmetic without index searches or allocation.
//
// Use: analyze(bodies, coupled pairs) once; then per evaluation zero(), add into the
// lower triangle's blocks (block(block_of(i, j)), found once), factorize(), solve().
// ("Bodies" below are the block rows, whatever they stand for.)
#pragma once

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>

namespace jourdain::mechanical {

template <int Size>
class BlockCholeskyOf {
 public:
  using Block = Eigen::Matrix<double, Size, Size>;
  using Vector = Eigen::Matrix<double, Size, 1>;

  // `bodies`: the number of block rows; `coupled`: the pairs of bodies (i, j) whose
  // block may be nonzero (either order; the diagonal blocks are always there).
  void analyze(int bodies, const std::vector<std::pair<int, int>>& coupled) {
    bodies_ = bodies;
    position_ = elimination_order(bodies, coupled);

    // The fill: eliminating a body connects all its neighbours that come later.
    std::vector<std::set<int>> later(bodies);  // by position
    for (const auto& [i, j] : coupled)
      if (i != j) {
        const int a = position_[i], b = position_[j];
        later[std::min(a, b)].insert(std::max(a, b));
      }
    column_start_.assign(bodies + 1, bodies);  // off-diagonal blocks come after the B diagonal ones
    block_row_.clear();
    for (int j = 0; j < bodies; ++j) {
      const std::vector<int> rows(later[j].begin(), later[j].end());
      for (size_t a = 0; a < rows.size(); ++a)
        for (size_t b = a + 1; b < rows.size(); ++b) later[rows[a]].insert(rows[b]);
      column_start_[j + 1] = column_start_[j] + static_cast<int>(rows.size());
      block_row_.insert(block_row_.end(), rows.begin(), rows.end());
    }
    blocks_.assign(column_start_[bodies], Block::Zero());

    // The updates of each column's elimination: block (r1, r2) −= L(r1, j) L(r2, j)ᵀ for
    // every two off-diagonal blocks of column j with r1 ≥ r2.
    updates_.clear();
    update_start_.assign(bodies + 1, 0);
    for (int j = 0; j < bodies; ++j) {
      for (int k2 = column_start_[j]; k2 < column_start_[j + 1]; ++k2)
        for (int k1 = k2; k1 < column_start_[j + 1]; ++k1)
          updates_.push_back({block_index(block_row_[k1 - bodies], block_row_[k2 - bodies]), k1, k2});
      update_start_[j + 1] = static_cast<int>(updates_.size());
    }
    work_.resize(bodies);
    reciprocal_.resize(bodies);
  }
  int bodies() const { return bodies_; }
  bool analyzed() const { return !column_start_.empty(); }
  // Stored (fill included) off-diagonal blocks: a tree of bodies has one per coupled pair.
  int off_diagonal_blocks() const { return static_cast<int>(block_row_.size()); }

  // The stored block of bodies (i, j), by index for block(): for i's place in the order
  // after j's, or i == j; -1 otherwise (its transpose, (j, i), is the one stored).
  int block_of(int i, int j) const {
    const int p = position_[i], q = position_[j];
    return p < q ? -1 : block_index(p, q);
  }
  Block& block(int index) { return blocks_[index]; }
  void zero() { std::fill(blocks_.begin(), blocks_.end(), Block::Zero()); }

  // In place; false when the matrix is not positive definite.
  bool factorize() {
    for (int j = 0; j < bodies_; ++j) {
      if (!factorize_diagonal(blocks_[j])) return false;
      reciprocal_[j] = blocks_[j].diagonal().cwiseInverse();
      // L(i, j) = A(i, j) L(j, j)⁻ᵀ: each row r of the block solves L(j, j) rᵀ = its own.
      for (int k = column_start_[j]; k < column_start_[j + 1]; ++k)
        for (int row = 0; row < Size; ++row) {
          Vector r = blocks_[k].row(row).transpose();
          forward(j, r);
          blocks_[k].row(row) = r.transpose();
        }
      for (int u = update_start_[j]; u < update_start_[j + 1]; ++u) {
        const Update& up = updates_[u];
        blocks_[up.target].noalias() -= blocks_[up.left] * blocks_[up.right].transpose();
      }
    }
    return true;
  }

  // x = A⁻¹ b (x may not alias b).
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
    for (int body = 0; body < bodies_; ++body) work_[position_[body]] = b.template segment<Size>(Size * body);
    solve_in_place();
    x.resize(Size * bodies_);
    for (int body = 0; body < bodies_; ++body) x.template segment<Size>(Size * body) = work_[position_[body]];
  }

  // The same solve on a right-hand side kept in the elimination order, for a caller that
  // gathers and scatters its own entries (the tree's refinements, several per evaluation):
  // ordered(position(body), k) is row k of the body's block row; solve_in_place()
  // replaces the right-hand side by the solution.
  int position(int body) const { return position_[body]; }
  double& ordered(int position, int k) { return work_[position][k]; }
  void solve_in_place() const {
    for (int j = 0; j < bodies_; ++j) {  // L y = P b
      forward(j, work_[j]);
      for (int k = column_start_[j]; k < column_start_[j + 1]; ++k)
        work_[block_row_[k - bodies_]].noalias() -= blocks_[k] * work_[j];
    }
    for (int j = bodies_ - 1; j >= 0; --j) {  // Lᵀ z = y
      for (int k = column_start_[j]; k < column_start_[j + 1]; ++k)
        work_[j].noalias() -= blocks_[k].transpose() * work_[block_row_[k - bodies_]];
      backward(j, work_[j]);
    }
  }

 private:
  // Per body, its place in the elimination order. First the bodies that hang off the rest
  // by a single coupling, leaves first (peeled one by one: each has one neighbour left when
  // it goes, so it makes no fill; a tree goes whole this way); then what remains, the
  // closed loops and what joins them, in the order of Eigen's approximate minimum degree
  // on their graph.
  static std::vector<int> elimination_order(int bodies, const std::vector<std::pair<int, int>>& coupled) {
    std::vector<std::set<int>> neighbours(bodies);
    for (const auto& [i, j] : coupled)
      if (i != j) {
        neighbours[i].insert(j);
        neighbours[j].insert(i);
      }
    std::vector<int> position(bodies, -1), degree(bodies), leaves;
    for (int b = 0; b < bodies; ++b)
      if ((degree[b] = static_cast<int>(neighbours[b].size())) <= 1) leaves.push_back(b);
    int next = 0;
    while (!leaves.empty()) {
      const int leaf = leaves.back();
      leaves.pop_back();
      position[leaf] = next++;
      for (int n : neighbours[leaf])
        if (position[n] < 0 && --degree[n] == 1) leaves.push_back(n);
    }
    if (next == bodies) return position;
    std::vector<int> core;  // the bodies left, and their graph
    std::vector<int> index(bodies, -1);
    for (int b = 0; b < bodies; ++b)
      if (position[b] < 0) {
        index[b] = static_cast<int>(core.size());
        core.push_back(b);
      }
    std::vector<Eigen::Triplet<double>> entries;
    for (int b : core) {
      entries.emplace_back(index[b], index[b], 1.0);
      for (int n : neighbours[b])
        if (index[n] >= 0) entries.emplace_back(index[b], index[n], 1.0);
    }
    const int size = static_cast<int>(core.size());
    Eigen::SparseMatrix<double> graph(size, size);
    graph.setFromTriplets(entries.begin(), entries.end());
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> order;
    Eigen::AMDOrdering<int>()(graph, order);
    // AMD's result lists the bodies in elimination order (Eigen's solvers apply its inverse
    // to the matrix).
    for (int k = 0; k < size; ++k) position[core[order.indices()[k]]] = next + k;
    return position;
  }

  // A diagonal block into its Cholesky factor L (lower; the upper part zeroed), column by
  // column as Eigen's LLT does it, in loops of fixed length: Eigen's general loop costs
  // several times the arithmetic at these sizes. False when a pivot is not positive.
  static bool factorize_diagonal(Block& a) {
    for (int k = 0; k < Size; ++k) {
      double squares = 0.0;
      for (int j = 0; j < k; ++j) squares += a(k, j) * a(k, j);
      const double pivot = a(k, k) - squares;
      if (!(pivot > 0.0)) return false;
      const double l = std::sqrt(pivot);
      a(k, k) = l;
      for (int i = k + 1; i < Size; ++i) {
        double products = 0.0;
        for (int j = 0; j < k; ++j) products += a(i, j) * a(k, j);
        a(i, k) = (a(i, k) - products) / l;
        a(k, i) = 0.0;
      }
    }
    return true;
  }
  // v ← L(j, j)⁻¹ v and v ← L(j, j)⁻ᵀ v: substitution on the factor, written out (with
  // its diagonal's reciprocals) because Eigen's general triangular solver costs more than
  // the arithmetic at this size.
  void forward(int j, Vector& v) const {
    const Block& l = blocks_[j];
    const Vector& r = reciprocal_[j];
    for (int i = 0; i < Size; ++i) {
      double sum = v[i];
      for (int k = 0; k < i; ++k) sum -= l(i, k) * v[k];
      v[i] = sum * r[i];
    }
  }
  void backward(int j, Vector& v) const {
    const Block& l = blocks_[j];
    const Vector& r = reciprocal_[j];
    for (int i = Size - 1; i >= 0; --i) {
      double sum = v[i];
      for (int k = i + 1; k < Size; ++k) sum -= l(k, i) * v[k];
      v[i] = sum * r[i];
    }
  }
  struct Update {
    int target, left, right;  // blocks: target −= left rightᵀ
  };
  // The block of positions (p, q), p ≥ q; -1 if the factor has none there.
  int block_index(int p, int q) const {
    if (p == q) return p;
    const auto first = block_row_.begin() + (column_start_[q] - bodies_);
    const auto last = block_row_.begin() + (column_start_[q + 1] - bodies_);
    const auto at = std::lower_bound(first, last, p);
    return at != last && *at == p ? column_start_[q] + static_cast<int>(at - first) : -1;
  }

  int bodies_ = 0;
  std::vector<int> position_;      // per body, its place in the elimination order
  std::vector<int> column_start_;  // per position, its first off-diagonal block; then the end
  std::vector<int> block_row_;     // per off-diagonal block, its row (a position)
  // The factor's blocks: the B diagonal ones, then the off-diagonal ones (before
  // factorize(), the matrix's own).
  std::vector<Block> blocks_;
  std::vector<Vector> reciprocal_;  // per position, 1 / L(j, j)'s diagonal
  std::vector<Update> updates_;
  std::vector<int> update_start_;  // per position, its first update; then the end
  mutable std::vector<Vector> work_;
};

// One block per planar body (x, y, θ).
using BlockCholesky = BlockCholeskyOf<3>;

}  // namespace jourdain::mechanical
