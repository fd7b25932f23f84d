// The block Cholesky factorization of the augmented Lagrangian's leading matrix and of a
// tree's multipliers (components/mechanical/block_cholesky.hpp) against Eigen's dense LLT,
// on the body graphs mechanisms have: a chain, a star, a random tree (no fill: linear in
// the bodies), in blocks of 3 and of 2; and a chain with loops closed across it (fill along
// the cycles only).
#include <doctest/doctest.h>

#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "block_cholesky.hpp"

using jourdain::mechanical::BlockCholesky;
using jourdain::mechanical::BlockCholeskyOf;

namespace {

using Pairs = std::vector<std::pair<int, int>>;

// A symmetric positive definite matrix of `size`×`size` blocks with the pattern of
// `pairs`: on each diagonal block a random SPD matrix plus `mass` on the diagonal, and for
// each pair a random rank-2 coupling scaled by `penalty` (what a joint's two equations add
// as α Φ_qᵀΦ_q).
Eigen::MatrixXd matrix_of(int bodies, const Pairs& pairs, double mass, double penalty, std::mt19937& rng, int size = 3) {
  std::normal_distribution<double> normal;
  auto random = [&](int rows, int cols) { return Eigen::MatrixXd::NullaryExpr(rows, cols, [&] { return normal(rng); }); };
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(size * bodies, size * bodies);
  for (int b = 0; b < bodies; ++b) {
    const Eigen::MatrixXd r = random(size, size);
    a.block(size * b, size * b, size, size) += r * r.transpose() + mass * Eigen::MatrixXd::Identity(size, size);
  }
  for (const auto& [i, j] : pairs) {
    const Eigen::MatrixXd rows = random(2, 2 * size);  // two equations on the coordinates of i and j
    const Eigen::MatrixXd coupling = penalty * rows.transpose() * rows;
    const int at[2] = {i, j};
    for (int p = 0; p < 2; ++p)
      for (int q = 0; q < 2; ++q)
        a.block(size * at[p], size * at[q], size, size) += coupling.block(size * p, size * q, size, size);
  }
  return a;
}

// A's blocks into the factor's stored triangle (the fill-in blocks stay zero).
template <int Size>
void fill(BlockCholeskyOf<Size>& factor, const Eigen::MatrixXd& a) {
  factor.zero();
  for (int i = 0; i < factor.bodies(); ++i)
    for (int j = 0; j < factor.bodies(); ++j)
      if (const int block = factor.block_of(i, j); block >= 0)
        factor.block(block) = a.template block<Size, Size>(Size * i, Size * j);
}

template <int Size>
Eigen::VectorXd factorize_and_solve(BlockCholeskyOf<Size>& factor, const Eigen::MatrixXd& a, const Eigen::VectorXd& b) {
  fill(factor, a);
  REQUIRE(factor.factorize());
  Eigen::VectorXd x;
  factor.solve(b, x);
  return x;
}

// ‖A x − b‖ / (‖A‖ ‖x‖): Cholesky is backward stable, so this is a few rounding units
// whatever the conditioning.
double backward_error(const Eigen::MatrixXd& a, const Eigen::VectorXd& x, const Eigen::VectorXd& b) {
  return (a * x - b).norm() / (a.norm() * x.norm());
}

Pairs chain(int bodies) {
  Pairs p;
  for (int i = 1; i < bodies; ++i) p.emplace_back(i - 1, i);
  return p;
}

}  // namespace

TEST_CASE_TEMPLATE("block Cholesky: trees factorize without fill and solve to rounding", Size,
                   std::integral_constant<int, 3>, std::integral_constant<int, 2>) {
  constexpr int size = Size::value;
  std::mt19937 rng(7);
  const int bodies = 40;
  Pairs star, tree;
  for (int i = 1; i < bodies; ++i) {
    star.emplace_back(0, i);
    tree.emplace_back(std::uniform_int_distribution<int>(0, i - 1)(rng), i);
  }
  for (const Pairs& pairs : {chain(bodies), star, tree}) {
    const Eigen::MatrixXd a = matrix_of(bodies, pairs, 1.0, 1.0, rng, size);
    BlockCholeskyOf<size> factor;
    factor.analyze(bodies, pairs);
    CHECK(factor.off_diagonal_blocks() == static_cast<int>(pairs.size()));  // one per joint, no fill
    const Eigen::VectorXd b = Eigen::VectorXd::Random(size * bodies);
    const Eigen::VectorXd x = factorize_and_solve(factor, a, b);
    CHECK(backward_error(a, x, b) < 1e-15);
    const Eigen::VectorXd reference = a.llt().solve(b);
    CHECK((x - reference).norm() <= 1e-12 * reference.norm());
  }
}

TEST_CASE("block Cholesky: closed loops fill in along their cycles and still solve to rounding") {
  std::mt19937 rng(11);
  const int ring = 30, bodies = ring + 2;
  Pairs pairs = chain(ring);
  pairs.emplace_back(0, ring - 1);  // the chain closed into a ring
  pairs.emplace_back(5, 20);        // and a chord across it
  pairs.emplace_back(3, ring);      // and a branch of two bodies hanging off the ring
  pairs.emplace_back(ring, ring + 1);
  // With the penalty scale of the augmented Lagrangian (α ~ 1e8 against unit masses) the
  // matrix's condition number is ~1e9; the backward error stays at rounding.
  for (const double penalty : {1.0, 1e8}) {
    const Eigen::MatrixXd a = matrix_of(bodies, pairs, 1.0, penalty, rng);
    BlockCholesky factor;
    factor.analyze(bodies, pairs);
    CHECK(factor.off_diagonal_blocks() > static_cast<int>(pairs.size()));
    CHECK(factor.off_diagonal_blocks() < bodies * (bodies - 1) / 4);  // far from dense
    const Eigen::VectorXd b = Eigen::VectorXd::Random(3 * bodies);
    CHECK(backward_error(a, factorize_and_solve(factor, a, b), b) < 1e-15);
  }
}

TEST_CASE("block Cholesky: a matrix that is not positive definite is refused") {
  std::mt19937 rng(3);
  const Pairs pairs = chain(5);
  Eigen::MatrixXd a = matrix_of(5, pairs, 1.0, 1.0, rng);
  a(7, 7) = -1.0;  // a body with negative inertia
  BlockCholesky factor;
  factor.analyze(5, pairs);
  fill(factor, a);
  CHECK_FALSE(factor.factorize());
}
