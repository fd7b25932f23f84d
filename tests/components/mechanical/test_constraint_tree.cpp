// The direct solve of a tree-shaped mechanism's accelerations
// (components/mechanical/constraint_tree.hpp) against a dense solve of the same KKT system
// (Eigen's full-pivoting LU of [W Φ_qᵀ; Φ_q 0]), on revolute joints between uniform rods:
// a chain, a branching tree, and a revolute with an angle driver on one pair (three
// equations, one node); and what it refuses: a closed loop, and a point mass on a rod.
// Also the rank tests that spare the dense pivoted QR (mechanism_rank.hpp) against it: the
// one built on the same structure (forest_has_full_row_rank) and the sparse QR for loops
// vouch for full rank where the dense QR finds it, and leave redundant joints to it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <Eigen/Core>
#include <Eigen/LU>

#include "constraint_tree.hpp"
#include "mechanism_rank.hpp"

using jourdain::mechanical::ConstraintTree;
using jourdain::mechanical::forest_has_full_row_rank;
using jourdain::mechanical::jacobian_rank;
using jourdain::mechanical::sparse_qr_has_full_row_rank;
using jourdain::mechanical::SparseJacobian;

namespace {

// Φ_q built equation by equation: entries (body coordinate, value).
struct Rows {
  int bodies = 0;
  std::vector<std::vector<std::pair<int, double>>> rows;

  // A revolute joint between point `a` (body frame) of body i (-1: the ground) and point
  // `b` of body j, the bodies at angles th: rows d/dq of r_i + R_i a − r_j − R_j b.
  void revolute(int i, Eigen::Vector2d a, int j, Eigen::Vector2d b, const std::vector<double>& th) {
    for (int k = 0; k < 2; ++k) {
      std::vector<std::pair<int, double>> row;
      auto add = [&](int body, const Eigen::Vector2d& p, double sign) {
        if (body < 0) return;
        const double c = std::cos(th[body]), s = std::sin(th[body]);
        const Eigen::Vector2d dp{-s * p.x() - c * p.y(), c * p.x() - s * p.y()};  // dR/dθ p
        row.emplace_back(3 * body + k, sign);
        row.emplace_back(3 * body + 2, sign * dp[k]);
      };
      add(i, a, 1.0);
      add(j, b, -1.0);
      rows.push_back(row);
    }
  }
  void angle_driver(int i, int j) {
    std::vector<std::pair<int, double>> row;
    if (i >= 0) row.emplace_back(3 * i + 2, -1.0);
    row.emplace_back(3 * j + 2, 1.0);
    rows.push_back(row);
  }
  SparseJacobian jacobian() const {
    SparseJacobian J;
    J.rows = static_cast<int>(rows.size());
    J.cols = 3 * bodies;
    J.first.assign(1, 0);
    for (int i = 0; i < J.rows; ++i) {
      for (const auto& [c, v] : rows[i]) {
        J.equation.push_back(i);
        J.column.push_back(c);
        J.value.push_back(v);
      }
      J.first.push_back(static_cast<int>(J.value.size()));
    }
    return J;
  }
  Eigen::MatrixXd dense() const {
    Eigen::MatrixXd d = Eigen::MatrixXd::Zero(static_cast<int>(rows.size()), 3 * bodies);
    for (size_t i = 0; i < rows.size(); ++i)
      for (const auto& [c, v] : rows[i]) d(static_cast<int>(i), c) += v;
    return d;
  }
};

// Uniform rods of length 1 and mass 1 + body/10: W = (m, m, m/12).
Eigen::VectorXd rod_masses(int bodies) {
  Eigen::VectorXd w(3 * bodies);
  for (int b = 0; b < bodies; ++b) {
    const double m = 1.0 + 0.1 * b;
    w.segment<3>(3 * b) << m, m, m / 12.0;
  }
  return w;
}

// Solves with the tree and densely; returns the largest difference of x and λ relative to
// their largest entries.
double compare(const Rows& r, const Eigen::VectorXd& w, std::mt19937& rng) {
  SparseJacobian J = r.jacobian();
  ConstraintTree tree;
  REQUIRE(tree.analyze(J));
  std::normal_distribution<double> normal;
  const int n = 3 * r.bodies, m = J.rows;
  const Eigen::VectorXd f = Eigen::VectorXd::NullaryExpr(n, [&] { return 10.0 * normal(rng); });
  const Eigen::VectorXd b = Eigen::VectorXd::NullaryExpr(m, [&] { return normal(rng); });
  Eigen::VectorXd x, lambda;
  REQUIRE(tree.solve(J, w, f, b, 64 * 2.2e-16, 1e-11, x, lambda));
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m, n + m);
  const Eigen::MatrixXd phi = r.dense();
  kkt.topLeftCorner(n, n) = w.asDiagonal();
  kkt.topRightCorner(n, m) = phi.transpose();
  kkt.bottomLeftCorner(m, n) = phi;
  Eigen::VectorXd rhs(n + m);
  rhs << f, b;
  const Eigen::VectorXd sol = kkt.fullPivLu().solve(rhs);
  return std::max((x - sol.head(n)).lpNorm<Eigen::Infinity>() / sol.head(n).lpNorm<Eigen::Infinity>(),
                  (lambda - sol.tail(m)).lpNorm<Eigen::Infinity>() / sol.tail(m).lpNorm<Eigen::Infinity>());
}

// The rods' ends in their frames.
const Eigen::Vector2d kPin{-0.5, 0.0}, kTip{0.5, 0.0};

// `bodies` rods at random angles in (−3, 3), the first pinned to the ground at the origin;
// the angles, for the joints still to add.
std::pair<Rows, std::vector<double>> pinned_rods(int bodies, std::mt19937& rng) {
  std::uniform_real_distribution<double> angle(-3.0, 3.0);
  Rows r;
  r.bodies = bodies;
  std::vector<double> th(bodies);
  for (double& t : th) t = angle(rng);
  r.revolute(-1, {0, 0}, 0, kPin, th);
  return {r, th};
}

// Three rods joined in a loop through the ground (pivots 4 apart): the last joint closes
// it. Only the pattern and the rank matter here, not whether the pose closes.
Rows four_bar() {
  const Eigen::Vector2d pin = kPin, tip = kTip;
  Rows r;
  r.bodies = 3;
  std::vector<double> th{1.5, 0.2, 1.8};
  r.revolute(-1, {0, 0}, 0, pin, th);
  r.revolute(0, tip, 1, pin, th);
  r.revolute(1, tip, 2, tip, th);
  r.revolute(-1, {4, 0}, 2, pin, th);
  return r;
}

}  // namespace

TEST_CASE("a tree's accelerations by one elimination equal the dense KKT solution") {
  std::mt19937 rng(7);
  const Eigen::Vector2d pin = kPin, tip = kTip;
  // The dense LU's own rounding on these systems is ~1e-14 (condition 1e2–1e4).
  SUBCASE("a chain of 40 rods") {
    auto [r, th] = pinned_rods(40, rng);
    for (int i = 1; i < r.bodies; ++i) r.revolute(i - 1, tip, i, pin, th);
    CHECK(compare(r, rod_masses(r.bodies), rng) < 1e-12);
  }
  SUBCASE("a branching tree, each rod hung from a random earlier one") {
    auto [r, th] = pinned_rods(25, rng);
    for (int i = 1; i < r.bodies; ++i) r.revolute(static_cast<int>(rng() % i), tip, i, pin, th);
    CHECK(compare(r, rod_masses(r.bodies), rng) < 1e-12);
  }
  SUBCASE("a revolute with an angle driver on the same pair is one node of three equations") {
    Rows r;
    r.bodies = 3;
    std::vector<double> th{0.3, -1.2, 2.0};
    r.revolute(-1, {0, 0}, 0, pin, th);
    r.angle_driver(-1, 0);
    r.revolute(0, tip, 1, pin, th);
    r.revolute(1, tip, 2, pin, th);
    r.angle_driver(1, 2);
    CHECK(compare(r, rod_masses(r.bodies), rng) < 1e-12);
  }
}

// The largest |Φ_q x − b|_i over the largest row scale |b_i| + Σ_j |Φ_q,ij| x_terms_j,
// x_terms_j = (|f_j| + Σ_k |Φ_q,kj λ_k|) / w_j the size of what x_j is computed from (its
// rounding is ε of that), the products summed in long double (so that the figure is the
// solution's, not the rounding of its check).
double backward_error(const Rows& r, const Eigen::VectorXd& w, const Eigen::VectorXd& f, const Eigen::VectorXd& b,
                      const Eigen::VectorXd& x, const Eigen::VectorXd& lambda) {
  const Eigen::MatrixXd phi = r.dense();
  const Eigen::VectorXd force_size = phi.cwiseAbs().transpose() * lambda.cwiseAbs();
  const Eigen::VectorXd x_terms = (f.cwiseAbs() + force_size).cwiseQuotient(w);
  long double missed = 0, scale = 0;
  for (int i = 0; i < phi.rows(); ++i) {
    long double sum = -static_cast<long double>(b[i]), row = std::abs(b[i]);
    for (int j = 0; j < phi.cols(); ++j) {
      sum += static_cast<long double>(phi(i, j)) * x[j];
      row += std::abs(phi(i, j)) * x_terms[j];
    }
    missed = std::max(missed, std::abs(sum));
    scale = std::max(scale, row);
  }
  return static_cast<double>(missed / scale);
}

TEST_CASE("a chain whose reactions nearly cancel: one elimination is as accurate as the arithmetic allows") {
  // 100 rods nearly in line (the shape a chain starts from), their masses alternating
  // 100 kg and 10 g, under gravity and a right-hand side growing towards the tip as the
  // velocity terms of a whipping chain do. The reactions of each light rod's two joints
  // nearly cancel: measured against its largest single term |Φ_q,ij x_j|, Φ_q x − b is
  // 65 times 64 ε even after the refinements stall; measured against what it rounds to,
  // the elimination alone meets 64 ε, and the solve stops there.
  std::mt19937 rng(3);
  const int bodies = 100;
  Rows r;
  r.bodies = bodies;
  std::uniform_real_distribution<double> nearly_level(-0.05, 0.05);
  std::vector<double> th(bodies);
  for (double& t : th) t = nearly_level(rng);
  r.revolute(-1, {0, 0}, 0, kPin, th);
  for (int i = 1; i < bodies; ++i) r.revolute(i - 1, kTip, i, kPin, th);
  Eigen::VectorXd w(3 * bodies), f = Eigen::VectorXd::Zero(3 * bodies);
  for (int k = 0; k < bodies; ++k) {
    const double m = k % 2 ? 100.0 : 0.01;
    w.segment<3>(3 * k) << m, m, m / 12.0;
    f[3 * k + 1] = -9.81 * m;
  }
  std::normal_distribution<double> normal;
  Eigen::VectorXd b(static_cast<int>(r.rows.size()));
  for (int i = 0; i < b.size(); ++i) {
    const double along = static_cast<double>(i / 2) / bodies;
    b[i] = 1e4 * along * along * normal(rng);
  }
  const SparseJacobian J = r.jacobian();
  const double standard = 64 * 2.2e-16;
  ConstraintTree tree;
  REQUIRE(tree.analyze(J));
  Eigen::VectorXd x, lambda;
  REQUIRE(tree.solve(J, w, f, b, standard, 1e-11, x, lambda));
  CHECK(tree.passes() == 1);
  CHECK(backward_error(r, w, f, b, x, lambda) <= standard);
  // A standard below rounding: the solve refines, finds the residual no longer falling,
  // and accepts it there, still within 64 ε. (This only runs the refinements: at this
  // residual, one that went the wrong way would also be taken for a stall.)
  REQUIRE(tree.solve(J, w, f, b, 1e-18, 1e-11, x, lambda));
  CHECK(tree.passes() >= 2);
  CHECK(backward_error(r, w, f, b, x, lambda) <= standard);
}

TEST_CASE("the tree elimination refuses a closed loop and a point mass on a rod") {
  SUBCASE("a four-bar: the last joint closes a loop through the ground") {
    SparseJacobian J = four_bar().jacobian();
    ConstraintTree tree;
    CHECK_FALSE(tree.analyze(J));
  }
  SUBCASE("a bob of inertia 1e-6 at 1 m from its pin: the iteration's case") {
    Rows r;
    r.bodies = 1;
    std::vector<double> th{0.4};
    r.revolute(-1, {0, 0}, 0, {-1.0, 0.0}, th);
    SparseJacobian J = r.jacobian();
    ConstraintTree tree;
    REQUIRE(tree.analyze(J));
    Eigen::VectorXd w(3), x, lambda;
    w << 1.0, 1.0, 1e-6;
    CHECK_FALSE(tree.solve(J, w, Eigen::Vector3d(0, -9.81, 0), Eigen::Vector2d(0, 0), 64 * 2.2e-16, 1e-11, x, lambda));
  }
}

TEST_CASE("a forest of independent joints has full row rank by its structure; the rest goes to the dense QR") {
  std::mt19937 rng(11);
  const Eigen::Vector2d pin = kPin, tip = kTip;
  auto full_rank = [](const Rows& r) { return jacobian_rank(r.dense()) == static_cast<int>(r.rows.size()); };
  SUBCASE("a branching tree with angle drivers on some joints, and a floating tree: full rank, as the QR finds") {
    auto [r, th] = pinned_rods(30, rng);
    for (int i = 1; i < 20; ++i) {
      const int parent = static_cast<int>(rng() % i);
      r.revolute(parent, tip, i, pin, th);
      if (i % 3 == 0) r.angle_driver(parent, i);  // on the revolute's pair: one node of three
    }
    // Bodies 20..29: a tree with no joint to the ground.
    for (int i = 21; i < r.bodies; ++i) r.revolute(20 + static_cast<int>(rng() % (i - 20)), tip, i, pin, th);
    CHECK(forest_has_full_row_rank(r.jacobian()));
    CHECK(full_rank(r));
  }
  SUBCASE("redundant joints on two rods: left to the QR, which finds them redundant") {
    const std::vector<double> th{0.7, -0.4};
    Rows duplicated, drivers;
    duplicated.bodies = drivers.bodies = 2;
    // A revolute twice: four equations on one pair.
    duplicated.revolute(-1, {0, 0}, 0, pin, th);
    duplicated.revolute(0, tip, 1, pin, th);
    duplicated.revolute(0, tip, 1, pin, th);
    // Two angle drivers on one body: two equations on the pair, dependent on the body.
    drivers.revolute(-1, {0, 0}, 0, pin, th);
    drivers.angle_driver(-1, 1);
    drivers.angle_driver(-1, 1);
    drivers.revolute(0, tip, 1, pin, th);
    for (const Rows* r : {&duplicated, &drivers}) {
      CHECK_FALSE(forest_has_full_row_rank(r->jacobian()));
      CHECK_FALSE(full_rank(*r));
    }
  }
  SUBCASE("a four-bar: a loop, left to the QR (full rank away from its dead centres)") {
    const Rows r = four_bar();
    CHECK_FALSE(forest_has_full_row_rank(r.jacobian()));
    CHECK(full_rank(r));
  }
}

TEST_CASE("loops: the sparse QR vouches for a four-bar's full rank and leaves a redundant parallelogram to the dense QR") {
  const Rows loop = four_bar();
  CHECK(sparse_qr_has_full_row_rank(loop.jacobian()));
  CHECK(jacobian_rank(loop.dense()) == static_cast<int>(loop.rows.size()));
  // Three parallel cranks of 1 m (ground pivots at 0, 1 and 2 m) under one coupler of 2 m:
  // twelve equations on four bodies that leave one degree of freedom, so one is redundant
  // at every pose (here all cranks at 0.8 rad, the coupler level).
  Rows parallelogram;
  parallelogram.bodies = 4;  // cranks 0, 1, 2; coupler 3
  const std::vector<double> th{0.8, 0.8, 0.8, 0.0};
  for (int crank = 0; crank < 3; ++crank) {
    parallelogram.revolute(-1, {static_cast<double>(crank), 0.0}, crank, kPin, th);
    parallelogram.revolute(crank, kTip, 3, {crank - 1.0, 0.0}, th);
  }
  CHECK_FALSE(sparse_qr_has_full_row_rank(parallelogram.jacobian()));
  CHECK(jacobian_rank(parallelogram.dense()) == 11);
}
