// The accelerations of a mechanism whose constraints form a tree, solved directly.
//
// Group the equations of Φ_q by the pair of bodies they join (or the body they tie to the
// ground): one node per pair. When these pairs form a forest over the bodies and the
// ground (no chain of constraints closes a loop; two constraints on one pair, a revolute
// and its driver, count as one node), each node's rows act on a body that no node nearer
// the ground touches, so Φ_q has full row rank wherever each node's own rows (at most
// three) are independent on that body: always, for revolute and prismatic joints and
// their drivers. There the system (1) of formulation_augmented_lagrangian.cpp,
//
//     W x + Φ_qᵀ λ = f,     Φ_q x = b,
//
// has a unique solution, and the augmented Lagrangian's iteration, built to stay bounded
// where Φ_q loses rank, buys nothing: its three or four solves converge to the answer one
// elimination gives. That elimination is the Schur complement on the multipliers (W is
// diagonal):
//
//     S λ = Φ_q W⁻¹ f − b,   S = Φ_q W⁻¹ Φ_qᵀ,   x = W⁻¹ (f − Φ_qᵀ λ),     (T1)
//
// S symmetric positive definite, with a block per node, 2×2 when no node has more than two
// equations (revolutes) and 3×3 otherwise (padded with unit diagonals where a node has
// fewer equations than that), and a block (I, J) wherever nodes I and J
// share a body: the nodes of a chain form a path, those of a tree a tree of cliques (a
// body's joints), and BlockCholesky factorizes it along the tree in linear time (Baraff
// 1996, "Linear-time dynamics using Lagrange multipliers", whose elimination this is).
// Iterative refinement with the same factor takes out the rounding of S (its condition
// grows with the chain's length), so that x and λ satisfy (1) to the iteration's own
// standard; a solve that does not (S not positive definite, or its residual still above
// that standard after a few refinements: a node's rows dependent at this pose) says so,
// and the caller falls back to the iteration.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "block_cholesky.hpp"
#include "mechanism_jacobian.hpp"

namespace jourdain::mechanical {

class ConstraintTree {
  // work(the factor of the width analyze() chose).
  template <class Work>
  auto with_factor(Work&& work) {
    return width_ == 2 ? work(pairs_) : work(triples_);
  }

 public:
  // The elimination and up to five refinements; each divides the residual by about
  // 1 / (ε cond S). Measured against what its rows round to (solve()), the elimination
  // alone meets the standard in every evaluation of a 64- and a 256-link chain (rk4 at
  // 1 ms for 10 s; the largest residual 3e-16 of that scale): the refinements are the
  // safety net of an S too ill-conditioned for one elimination.
  static constexpr int kMaxPasses = 6;
  // The largest ratio of a row's turning to its moving of a body (m r² / I for a point at r
  // from the centre) that the elimination takes: 3 for a uniform rod at its ends.
  static constexpr double kMaxLeverage = 16.0;

  // Finds the nodes from Φ_q's pattern; false (and no direct solves) when the equations
  // do not form a forest of body pairs with at most three equations each. Linear in the
  // equations (a body's joints are few).
  bool analyze(const SparseJacobian& J) {
    parts_.analyze(J);
    const int bodies = J.cols / 3;
    if (!forest_.analyze(parts_, bodies)) return false;
    const int nodes = forest_.nodes();
    width_ = std::all_of(forest_.node_equations.begin(), forest_.node_equations.end(),
                         [](const std::vector<int>& equations) { return equations.size() <= 2; })
                 ? 2
                 : 3;
    padding_.clear();
    for (int node = 0; node < nodes; ++node)
      for (int slot = static_cast<int>(forest_.node_equations[node].size()); slot < width_; ++slot)
        padding_.emplace_back(node, slot);

    // S's blocks: two nodes are coupled where they share a body; each pair of parts on one
    // body adds u_p · W_b⁻¹ u_q into the stored block of their nodes.
    std::vector<std::vector<int>> on_body(bodies);
    for (int p = 0; p < parts_.parts(); ++p) on_body[parts_.part_body[p]].push_back(p);
    auto node = [&](int part) { return forest_.equation_node[parts_.part_equation[part]]; };
    auto slot = [&](int part) { return forest_.equation_slot[parts_.part_equation[part]]; };
    std::vector<std::pair<int, int>> coupled;
    for (const auto& list : on_body)
      for (int p : list)
        for (int q : list)
          if (node(p) < node(q)) coupled.emplace_back(node(p), node(q));
    products_.clear();
    with_factor([&](auto& cholesky) {
      cholesky.analyze(nodes, coupled);
      for (const auto& list : on_body)
        for (int p : list)
          for (int q : list)
            if (const int block = cholesky.block_of(node(p), node(q)); block >= 0)
              products_.push_back({block, slot(p), slot(q), p, q});
      equation_position_.resize(forest_.equation_node.size());
      for (size_t i = 0; i < equation_position_.size(); ++i)
        equation_position_[i] = cholesky.position(forest_.equation_node[i]);
    });
    return true;
  }

  // After a successful analyze(): the pairs of bodies (nodes) and their blocks' size.
  int nodes() const { return forest_.nodes(); }
  int block_size() const { return width_; }
  // The solves the last solve() made: 1 for the elimination alone, one more per refinement.
  int passes() const { return passes_; }

  // (T1) for W = diag(w): x and λ; false when S is not positive definite or the solution
  // misses (1) by more than `tolerance` times its terms, or `stall` times them where the
  // refinements stop gaining (the caller then iterates).
  bool solve(const SparseJacobian& J, const Eigen::VectorXd& w, Eigen::Ref<const Eigen::VectorXd> f,
             Eigen::Ref<const Eigen::VectorXd> b, double tolerance, double stall, Eigen::VectorXd& x,
             Eigen::VectorXd& lambda) {
    parts_.gather(J);
    // x = W⁻¹(f − Φ_qᵀλ) rounds each coordinate to ε of the constraint forces on it over
    // its mass or inertia; on a body whose rows turn it much more readily than they move
    // it (a point mass on a rod: m r² / I of 1e6), that rounding is far above ε of the
    // accelerations, and the iteration, whose penalty keeps that direction stiff, is the
    // accurate way. Such a body sends the evaluation there before any work. (Rows that
    // only turn a body, an angle driver's, have no lever arm to amplify.)
    inverse_w_ = w.cwiseInverse();
    for (int p = 0; p < parts_.parts(); ++p) {
      const Vec3& u = parts_.u[p];
      const Vec3 iw = inverse_w_.segment<3>(3 * parts_.part_body[p]);
      const double moving = u[0] * u[0] * iw[0] + u[1] * u[1] * iw[1], turning = u[2] * u[2] * iw[2];
      if (moving > 0.0 && turning > kMaxLeverage * moving) return false;
    }
    return with_factor([&](auto& cholesky) { return eliminate(cholesky, J, w, f, b, tolerance, stall, x, lambda); });
  }

 private:
  // The rest of solve() with the factor of the width analyze() chose.
  template <class Cholesky>
  bool eliminate(Cholesky& cholesky, const SparseJacobian& J, const Eigen::VectorXd& w, Eigen::Ref<const Eigen::VectorXd> f,
                 Eigen::Ref<const Eigen::VectorXd> b, double tolerance, double stall, Eigen::VectorXd& x,
                 Eigen::VectorXd& lambda) {
    cholesky.zero();
    for (const auto& [node, slot] : padding_) cholesky.block(cholesky.block_of(node, node))(slot, slot) = 1.0;
    for (const Product& pr : products_) {
      const int body = parts_.part_body[pr.p];
      cholesky.block(pr.block)(pr.row, pr.column) +=
          parts_.u[pr.p].dot(parts_.u[pr.q].cwiseProduct(inverse_w_.segment<3>(3 * body)));
    }
    if (!cholesky.factorize()) return false;
    // The right-hand sides live in the factor's own elimination order, each pass writing
    // every equation's entry; the padding's stay zero (S has a unit diagonal there and
    // nothing else, so the solves leave them 0).
    for (const auto& [node, slot] : padding_) cholesky.ordered(cholesky.position(node), slot) = 0.0;
    // λ from S λ = Φ_q W⁻¹ f − b, then x; then refinements S δλ = Φ_q x − b, λ += δλ, until
    // the residual is down to `tolerance` times what a row of it rounds to: the sum over
    // the row of |b_i| and |Φ_q,ij| times the terms x_j is computed from, (|f_j| +
    // Σ_k |Φ_q,kj λ_k|) / w_j, for x_j = (f_j − Σ_k Φ_q,kj λ_k) / w_j rounds to ε of
    // those, not of x_j, where the applied and the constraint forces on a body nearly
    // cancel (and the reactions of a body's joints among themselves). Measured against the
    // largest single term |Φ_q,ij x_j| instead, as before, the residual's floor of rounding
    // (2e-14 of that term in a 256-link chain) sat above the standard (64 ε = 1.4e-14), and
    // two evaluations in three refined once or twice only to find that it stalled there:
    // 2.2 passes per evaluation, now 1 (and 1.3 for a 64-link chain).
    x = f.cwiseQuotient(w);
    J.residual(x, b, residual_);
    lambda.setZero(J.rows);
    double last_missed = std::numeric_limits<double>::infinity();
    for (int pass = 0; pass < kMaxPasses; ++pass) {
      passes_ = pass + 1;
      for (int i = 0; i < J.rows; ++i) cholesky.ordered(equation_position_[i], forest_.equation_slot[i]) = residual_[i];
      cholesky.solve_in_place();
      for (int i = 0; i < J.rows; ++i) lambda[i] += cholesky.ordered(equation_position_[i], forest_.equation_slot[i]);
      J.transpose_times(lambda, force_, x_terms_);
      x = (f - force_).cwiseQuotient(w);
      x_terms_ = (f.cwiseAbs() + x_terms_).cwiseProduct(inverse_w_);  // a scale: 1/w will do
      const SparseJacobian::Residual r = J.residual(x, b, residual_, x_terms_);
      const double terms = r.scale, missed = r.largest;
      if (!std::isfinite(missed)) return false;
      // Met; or no longer halving while already below `stall` times the terms: the
      // rounding of x itself, which a body of small inertia on a long arm makes larger
      // than ε of Φ_q x (a point mass of inertia 1e-6 on a 1 m rod: 1e-13 of them).
      if (missed <= tolerance * terms || (pass > 0 && missed > 0.5 * last_missed && missed <= stall * terms))
        return true;
      // A refinement that does not halve the residual will not get there: S is too
      // ill-conditioned here for the elimination, and the iteration, whose defect form
      // does not lean on S, takes over.
      if (pass > 0 && missed > 0.5 * last_missed) return false;
      last_missed = missed;
    }
    return false;
  }

  // u_p · W_b⁻¹ u_q adds into element (row, column) of stored block `block`.
  struct Product {
    int block, row, column, p, q;
  };

  int width_ = 3;  // the blocks' size: the most equations on one node, 2 or 3
  int passes_ = 0;
  PairForest forest_;                               // the nodes: equations by pair of bodies
  std::vector<std::pair<int, int>> padding_;        // (node, slot) beyond a node's equations
  JacobianParts parts_;                             // Φ_q per (equation, body)
  std::vector<Product> products_;
  std::vector<int> equation_position_;              // per equation, its node's place in the factor's order
  BlockCholeskyOf<2> pairs_;
  BlockCholeskyOf<3> triples_;
  Eigen::VectorXd residual_, force_, inverse_w_, x_terms_;
};

}  // namespace jourdain::mechanical
