// The reference three-link arm (seed 002: Lü & Liu 2018, tip on an ellipse) in
// closed form, derived by hand and independent of the library: joint 1 yaw about z at
// the origin under a vertical 1 m link; joints 2 and 3 pitch (q2 from the horizontal,
// q3 relative), links 2 and 3 uniform slender rods of m = 1 kg, L = 1 m; g = 9.81 m/s²
// along −z. With a = q2, b = q2 + q3:
//
//   tip  = [cos q1 ρ, sin q1 ρ, 1 + σ],  ρ = cos a + cos b,  σ = sin a + sin b
//   M11  = (4/3) cos²a + cos a cos b + (1/3) cos²b   (∫ r² dm of the two rods about z;
//          the vertical rod has no inertia about its own axis)
//   M22  = 5/3 + cos q3,  M23 = 1/3 + ½ cos q3,  M33 = 1/3   (the planar double rod)
//   M12 = M13 = 0   (yaw velocities are normal to the arm's plane, pitch ones in it)
//   V    = g (1.5 sin a + 0.5 sin b) + const
//   h_i  = Σ_jk (∂M_ij/∂q_k − ½ ∂M_jk/∂q_i) q̇_j q̇_k + ∂V/∂q_i   (Lagrange's equations)
#pragma once

#include <cmath>

#include <Eigen/Dense>

namespace three_link {

inline constexpr double g = 9.81;

inline Eigen::Matrix3d mass_matrix(const Eigen::Vector3d& q) {
  const double a = q[1], b = q[1] + q[2];
  Eigen::Matrix3d M = Eigen::Matrix3d::Zero();
  M(0, 0) = 4.0 / 3.0 * std::cos(a) * std::cos(a) + std::cos(a) * std::cos(b) + std::cos(b) * std::cos(b) / 3.0;
  M(1, 1) = 5.0 / 3.0 + std::cos(q[2]);
  M(1, 2) = M(2, 1) = 1.0 / 3.0 + 0.5 * std::cos(q[2]);
  M(2, 2) = 1.0 / 3.0;
  return M;
}

// ∂M/∂q_k, differentiated by hand.
inline Eigen::Matrix3d mass_matrix_derivative(const Eigen::Vector3d& q, int k) {
  const double a = q[1], b = q[1] + q[2], ca = std::cos(a), sa = std::sin(a), cb = std::cos(b), sb = std::sin(b);
  Eigen::Matrix3d D = Eigen::Matrix3d::Zero();
  if (k == 1) D(0, 0) = -8.0 / 3.0 * ca * sa - sa * cb - ca * sb - 2.0 / 3.0 * cb * sb;
  if (k == 2) {
    D(0, 0) = -ca * sb - 2.0 / 3.0 * cb * sb;
    D(1, 1) = -std::sin(q[2]);
    D(1, 2) = D(2, 1) = -0.5 * std::sin(q[2]);
  }
  return D;
}

inline Eigen::Vector3d bias(const Eigen::Vector3d& q, const Eigen::Vector3d& qd) {
  Eigen::Matrix3d D[3] = {mass_matrix_derivative(q, 0), mass_matrix_derivative(q, 1), mass_matrix_derivative(q, 2)};
  Eigen::Vector3d h;
  for (int i = 0; i < 3; ++i) {
    double c = 0;
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c += (D[k](i, j) - 0.5 * D[i](j, k)) * qd[j] * qd[k];
    h[i] = c;
  }
  const double a = q[1], b = q[1] + q[2];
  h[1] += g * (1.5 * std::cos(a) + 0.5 * std::cos(b));
  h[2] += g * 0.5 * std::cos(b);
  return h;
}

inline Eigen::Vector3d tip(const Eigen::Vector3d& q) {
  const double a = q[1], b = q[1] + q[2], rho = std::cos(a) + std::cos(b), sigma = std::sin(a) + std::sin(b);
  return {std::cos(q[0]) * rho, std::sin(q[0]) * rho, 1.0 + sigma};
}

inline Eigen::Matrix3d jacobian(const Eigen::Vector3d& q) {
  const double a = q[1], b = q[1] + q[2], c1 = std::cos(q[0]), s1 = std::sin(q[0]);
  const double rho = std::cos(a) + std::cos(b);
  const double rho2 = -std::sin(a) - std::sin(b), sigma2 = std::cos(a) + std::cos(b);  // ∂/∂q2
  const double rho3 = -std::sin(b), sigma3 = std::cos(b);                              // ∂/∂q3
  Eigen::Matrix3d J;
  J << -s1 * rho, c1 * rho2, c1 * rho3, c1 * rho, s1 * rho2, s1 * rho3, 0, sigma2, sigma3;
  return J;
}

// J̇ q̇: the tip's acceleration at q̈ = 0 (differentiate the tip twice along q + q̇ t).
inline Eigen::Vector3d jacobian_rate_times_rates(const Eigen::Vector3d& q, const Eigen::Vector3d& qd) {
  const double a = q[1], b = q[1] + q[2], ad = qd[1], bd = qd[1] + qd[2], c1 = std::cos(q[0]), s1 = std::sin(q[0]);
  const double rho = std::cos(a) + std::cos(b), rhod = -std::sin(a) * ad - std::sin(b) * bd;
  const double rhodd = -std::cos(a) * ad * ad - std::cos(b) * bd * bd;
  const double sigmadd = -std::sin(a) * ad * ad - std::sin(b) * bd * bd;
  const double w = qd[0];
  return {-c1 * w * w * rho - 2.0 * s1 * w * rhod + c1 * rhodd, -s1 * w * w * rho + 2.0 * c1 * w * rhod + s1 * rhodd,
          sigmadd};
}

// Inverse kinematics, elbow-up branch (q3 < 0 puts the elbow above the shoulder–tip line).
inline Eigen::Vector3d inverse_kinematics(const Eigen::Vector3d& x) {
  const double r = std::hypot(x[0], x[1]), h = x[2] - 1.0;
  const double q3 = -std::acos((r * r + h * h - 2.0) / 2.0);
  const double q2 = std::atan2(h, r) - std::atan2(std::sin(q3), 1.0 + std::cos(q3));
  return {std::atan2(x[1], x[0]), q2, q3};
}

// The reference ellipse and its derivatives.
struct PathPoint {
  Eigen::Vector3d x, v, a;
};
inline PathPoint ellipse(double t) {
  const double c = std::cos(t), s = std::sin(t);
  return {{1 + 0.25 * c, 0.3 * c * s, 1 + 0.5 * s},
          {-0.25 * s, 0.3 * (c * c - s * s), 0.5 * c},
          {-0.25 * c, -1.2 * c * s, -0.5 * s}};
}

// Joint motion on the path at t and the torques it takes (inverse dynamics):
// q by inverse kinematics, q̇ = J⁻¹ẋ_d, q̈ = J⁻¹(ẍ_d − J̇q̇), τ = M q̈ + h.
struct JointMotion {
  Eigen::Vector3d q, qd, qdd, torque;
};
inline JointMotion on_path(double t) {
  const PathPoint p = ellipse(t);
  JointMotion m;
  m.q = inverse_kinematics(p.x);
  const Eigen::PartialPivLU<Eigen::Matrix3d> J(jacobian(m.q));
  m.qd = J.solve(p.v);
  m.qdd = J.solve(p.a - jacobian_rate_times_rates(m.q, m.qd));
  m.torque = mass_matrix(m.q) * m.qdd + bias(m.q, m.qd);
  return m;
}

}  // namespace three_link
