// chain.cpp: the CRBA mass matrix, the RNEA bias and the tip kinematics against
// formulations derived independently (three_link_arm.hpp: Lagrange's equations of the
// reference arm by hand; a revolute–prismatic polar arm in closed form), and against
// finite differences of the positions for the tip's Jacobian and J̇q̇.
#include <cmath>
#include <random>

#include <doctest/doctest.h>

#include "chain.hpp"
#include "three_link_arm.hpp"

using namespace jourdain::spatial;

namespace {

SerialChain reference_arm() {
  SerialChain c;
  const double I = 1.0 / 12.0;  // m L² / 12, a slender rod about a transverse axis
  Link l1, l2, l3;
  l1.axis = {0, 0, 1};
  l1.mass = 1;
  l1.centre = {0, 0, 0.5};
  l1.inertia = Eigen::Vector3d(I, I, 0).asDiagonal();
  l2.axis = {0, -1, 0};
  l2.origin = {0, 0, 1};
  l2.mass = 1;
  l2.centre = {0.5, 0, 0};
  l2.inertia = Eigen::Vector3d(0, I, I).asDiagonal();
  l3 = l2;
  l3.origin = {1, 0, 0};
  c.links = {l1, l2, l3};
  c.tip = {1, 0, 0};
  c.gravity = {0, 0, -9.81};
  return c;
}

}  // namespace

// Entries are O(1–30) (M up to 3 kg·m², h up to ~30 N·m with |q̇| ≤ 2 rad/s), computed
// in a few dozen operations each way: 1e-12 is some hundred units in the last place of
// the largest, far below any modelling error (a wrong term is O(0.1–10)).
constexpr double kRounding = 1e-12;

TEST_CASE("CRBA mass matrix and RNEA bias of the three-link arm match Lagrange's equations in closed form") {
  const SerialChain arm = reference_arm();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> angle(-3.0, 3.0), rate(-2.0, 2.0);
  double worst_M = 0, worst_h = 0, worst_id = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const Eigen::Vector3d q{angle(rng), angle(rng), angle(rng)}, qd{rate(rng), rate(rng), rate(rng)},
        qdd{rate(rng), rate(rng), rate(rng)};
    const ChainDynamics d = dynamics(arm, q, qd);
    worst_M = std::max(worst_M, (d.M - three_link::mass_matrix(q)).cwiseAbs().maxCoeff());
    worst_h = std::max(worst_h, (d.bias - three_link::bias(q, qd)).cwiseAbs().maxCoeff());
    // RNEA with q̈ against CRBA + bias: two algorithms, one equation of motion.
    worst_id = std::max(worst_id, (inverse_dynamics(arm, q, qd, qdd) - (d.M * qdd + d.bias)).cwiseAbs().maxCoeff());
    CHECK((d.pose.tip - three_link::tip(q)).norm() < kRounding);
    CHECK((d.pose.J - three_link::jacobian(q)).cwiseAbs().maxCoeff() < kRounding);
    CHECK((d.tip_acceleration0 - three_link::jacobian_rate_times_rates(q, qd)).norm() < kRounding);
    CHECK(std::abs(d.kinetic_energy - 0.5 * qd.dot(three_link::mass_matrix(q) * qd)) < kRounding);
  }
  MESSAGE("50 random states: max |M − M_Lagrange| " << worst_M << ", max |h − h_Lagrange| " << worst_h
                                                    << " N·m, max |RNEA(q̈) − (M q̈ + h)| " << worst_id << " N·m");
  CHECK(worst_M < kRounding);
  CHECK(worst_h < kRounding);
  CHECK(worst_id < kRounding);
}

TEST_CASE("a revolute–prismatic polar arm: M and h in closed form (the prismatic branch)") {
  // Joint 1 turns about z; joint 2 slides along the link's x axis; a point mass m on the
  // slider at r = q2, plus a hub of inertia I about z. Gravity along −y of the world:
  //   M = diag(I + m r², m),  h = [2 m r ṙ θ̇ + m g r cos θ, −m r θ̇² + m g sin θ].
  const double m = 2.5, I = 0.4, g = 9.81;
  SerialChain arm;
  Link hub, slider;
  hub.axis = {0, 0, 1};
  hub.mass = 1.0;  // its mass centre on the axis: no effect on h, none on M beyond I
  hub.inertia = Eigen::Vector3d(0.1, 0.1, I).asDiagonal();
  slider.kind = JointKind::Prismatic;
  slider.axis = {1, 0, 0};
  slider.mass = m;
  arm.links = {hub, slider};
  arm.gravity = {0, -g, 0};
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::Vector2d q{u(rng), 0.5 + std::abs(u(rng))}, qd{u(rng), u(rng)};
    const double th = q[0], r = q[1];
    const ChainDynamics d = dynamics(arm, q, qd);
    Eigen::Matrix2d M;
    M << I + m * r * r, 0, 0, m;
    const Eigen::Vector2d h{2 * m * r * qd[1] * qd[0] + m * g * r * std::cos(th), -m * r * qd[0] * qd[0] + m * g * std::sin(th)};
    CHECK((d.M - M).cwiseAbs().maxCoeff() < kRounding);
    CHECK((d.bias - h).cwiseAbs().maxCoeff() < kRounding);
  }
}

TEST_CASE("tip Jacobian and J̇q̇ of a general chain match finite differences of its tip position") {
  // Skewed axes, offsets, a prismatic joint: no closed form, but the tip's position is
  // simple to trust. Central differences with step ε: truncation O(ε²), rounding
  // O(1e-16/ε) for J and O(1e-16/ε²) for the second difference: ε = 1e-4 leaves
  // errors ~1e-8; 1e-6 is a margin that still catches any wrong term (O(1)).
  SerialChain arm;
  Link a, b, c;
  a.axis = Eigen::Vector3d(0.2, 0.1, 1.0);
  b.kind = JointKind::Prismatic;
  b.axis = Eigen::Vector3d(1.0, 0.3, -0.2);
  b.origin = {0.1, 0.2, 0.5};
  c.axis = Eigen::Vector3d(0.0, 1.0, 0.4);
  c.origin = {0.4, -0.1, 0.2};
  for (Link* l : {&a, &b, &c}) {
    l->axis.normalize();
    l->mass = 1.0;
    l->inertia = Eigen::Matrix3d::Identity() * 0.1;
  }
  arm.links = {a, b, c};
  arm.tip = {0.3, 0.2, -0.1};
  const Eigen::Vector3d q{0.3, 0.2, -0.7}, qd{0.8, -0.5, 1.1};
  const double eps = 1e-4;
  const ChainDynamics d = dynamics(arm, q, qd);
  Eigen::Matrix3d J_fd;
  for (int j = 0; j < 3; ++j) {
    Eigen::Vector3d dq = Eigen::Vector3d::Zero();
    dq[j] = eps;
    J_fd.col(j) = (pose(arm, q + dq).tip - pose(arm, q - dq).tip) / (2 * eps);
  }
  const Eigen::Vector3d acc_fd = (pose(arm, q + eps * qd).tip - 2 * pose(arm, q).tip + pose(arm, q - eps * qd).tip) / (eps * eps);
  MESSAGE("|J − J_fd| " << (d.pose.J - J_fd).cwiseAbs().maxCoeff() << ", |J̇q̇ − fd| " << (d.tip_acceleration0 - acc_fd).norm());
  CHECK((d.pose.J - J_fd).cwiseAbs().maxCoeff() < 1e-6);
  CHECK((d.tip_acceleration0 - acc_fd).norm() < 1e-6);
  CHECK((d.tip_velocity - d.pose.J * qd).norm() < kRounding);
  // With skewed axes and full inertias M has no zeros to hide behind: it must still be
  // exactly symmetric (CRBA fills both triangles from one product) and positive definite.
  CHECK((d.M - d.M.transpose()).cwiseAbs().maxCoeff() == 0.0);
  CHECK(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(d.M).eigenvalues().minCoeff() > 0.0);
}
