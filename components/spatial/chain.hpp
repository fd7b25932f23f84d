// A spatial serial chain in joint coordinates: geometry, mass properties, and the
// kinematics and dynamics the arm component and its block solver need. Plain data and
// pure functions (no framework types), so that tests can call them directly.
//
// Conventions:
//   - link i carries a frame F_i. Joint i sits at `origin` in the parent frame F_{i-1}
//     (F_0 = world) and turns (revolute) or slides (prismatic) along `axis`, a unit
//     vector in F_{i-1}:  revolute  F_i = F_{i-1} · Trans(origin) · Rot(axis, q_i),
//                         prismatic F_i = F_{i-1} · Trans(origin + axis q_i);
//   - link i's mass centre `centre` and its inertia tensor `inertia` (about the mass
//     centre) are given in F_i; the tip is a point fixed in the last link's frame;
//   - dynamics in spatial vectors (Featherstone, "Rigid Body Dynamics Algorithms",
//     2008, ch. 2), all expressed in world coordinates about the world origin O: a
//     motion vector is [ω; v_O] (v_O: velocity of the body point at O), a force vector
//     [n_O; f]. The joint's motion subspace is s_i = [z; p × z] (revolute about the
//     world axis z through the world point p) or [0; z] (prismatic).
//
//   M(q) q̈ + h(q, q̇) = τ + Jᵀ f_tip      (n equations, N·m or N)
//
// with M from the composite-rigid-body algorithm (Featherstone §6.2, in one frame:
// M_ij = s_iᵀ I^c_max(i,j) s_j) and h from the recursive Newton–Euler algorithm with
// q̈ = 0 and the base accelerated by −g (Featherstone §5.3, gravity as a fictitious
// base acceleration).
#pragma once

#include <vector>

#include <Eigen/Core>

namespace jourdain::spatial {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

enum class JointKind { Revolute, Prismatic };

struct Link {
  JointKind kind = JointKind::Revolute;
  Vec3 axis = Vec3::UnitZ();    // unit, in the parent frame
  Vec3 origin = Vec3::Zero();   // m, joint position in the parent frame
  double mass = 0.0;            // kg
  Vec3 centre = Vec3::Zero();   // m, mass centre in the link frame
  Mat3 inertia = Mat3::Zero();  // kg·m², about the mass centre, link-frame axes
};

struct SerialChain {
  std::vector<Link> links;
  Vec3 tip = Vec3::Zero();                  // m, in the last link frame
  Vec3 gravity{0.0, 0.0, -9.81};            // m/s², world frame
  int size() const { return static_cast<int>(links.size()); }
};

// Positions stage: link frames, joint motion subspaces, the tip and its Jacobian.
struct ChainPose {
  std::vector<Mat3> R;  // per link: F_i's axes in the world
  std::vector<Vec3> p;  // per link: F_i's origin in the world, m
  std::vector<Vec6> s;  // per joint: motion subspace, world coordinates about O
  Vec3 tip = Vec3::Zero();
  Eigen::Matrix3Xd J;   // 3×n: tip velocity = J q̇
};
ChainPose pose(const SerialChain& chain, const Eigen::VectorXd& q);

// Positions and velocities stages: everything the equations of motion need.
struct ChainDynamics {
  ChainPose pose;
  Eigen::MatrixXd M;       // n×n mass matrix (CRBA)
  Eigen::VectorXd bias;    // n: h(q, q̇) = C(q, q̇) q̇ + G(q) (RNEA with q̈ = 0)
  Vec3 tip_velocity = Vec3::Zero();      // m/s
  Vec3 tip_acceleration0 = Vec3::Zero(); // m/s²: J̇ q̇, the tip acceleration at q̈ = 0
  double kinetic_energy = 0.0;           // J, ½ q̇ᵀ M q̇
  double potential_energy = 0.0;         // J, −Σ m_i g·c_i (zero at the origin)
};
ChainDynamics dynamics(const SerialChain& chain, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);

// Inverse dynamics: the joint efforts τ = M q̈ + h (RNEA), without tip force.
Eigen::VectorXd inverse_dynamics(const SerialChain& chain, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& qdd);

}  // namespace jourdain::spatial
