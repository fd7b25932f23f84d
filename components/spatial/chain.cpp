// Kinematics and dynamics of a spatial serial chain (chain.hpp). Spatial algebra after
// Featherstone, "Rigid Body Dynamics Algorithms" (2008): §2.9 cross products, §2.13
// rigid-body inertia, §5.3 recursive Newton–Euler, §6.2 composite-rigid-body algorithm.
#include "chain.hpp"

#include <Eigen/Geometry>

namespace jourdain::spatial {

namespace {

Mat3 skew(const Vec3& v) {
  Mat3 m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

// Motion cross product v×ₘ (Featherstone 2.31): v = [ω; v_O].
Mat6 cross_motion(const Vec6& v) {
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = skew(v.head<3>());
  m.bottomLeftCorner<3, 3>() = skew(v.tail<3>());
  m.bottomRightCorner<3, 3>() = skew(v.head<3>());
  return m;
}

// Force cross product v×* = −(v×ₘ)ᵀ (Featherstone 2.32).
Mat6 cross_force(const Vec6& v) { return -cross_motion(v).transpose(); }

// Spatial inertia about O of a body of mass m, mass centre c and rotational inertia Ī_c
// about c (world axes) (Featherstone 2.63):  [Ī_c + m c× c×ᵀ, m c×; m c×ᵀ, m 1].
Mat6 spatial_inertia(double m, const Vec3& c, const Mat3& inertia_c) {
  const Mat3 cx = skew(c);
  Mat6 I;
  I.topLeftCorner<3, 3>() = inertia_c + m * cx * cx.transpose();
  I.topRightCorner<3, 3>() = m * cx;
  I.bottomLeftCorner<3, 3>() = m * cx.transpose();
  I.bottomRightCorner<3, 3>() = m * Mat3::Identity();
  return I;
}

// Per link: its spatial inertia about O in world coordinates.
std::vector<Mat6> link_inertias(const SerialChain& chain, const ChainPose& P) {
  std::vector<Mat6> I(chain.links.size());
  for (size_t i = 0; i < chain.links.size(); ++i) {
    const Link& L = chain.links[i];
    const Vec3 c = P.p[i] + P.R[i] * L.centre;
    I[i] = spatial_inertia(L.mass, c, P.R[i] * L.inertia * P.R[i].transpose());
  }
  return I;
}

// Forward pass of the RNEA (Featherstone 5.7–5.8, in one frame):
//   v_i = v_{i−1} + s_i q̇_i,   a_i = a_{i−1} + s_i q̈_i + v_i ×ₘ s_i q̇_i,
// (s_i is fixed in the parent link, so ṡ_i = v_{i−1} ×ₘ s_i = v_i ×ₘ s_i), from a_0 = 0.
void forward_pass(const ChainPose& P, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd, std::vector<Vec6>& v,
                  std::vector<Vec6>& a) {
  const size_t n = P.s.size();
  v.resize(n);
  a.resize(n);
  Vec6 vp = Vec6::Zero(), ap = Vec6::Zero();
  for (size_t i = 0; i < n; ++i) {
    v[i] = vp + P.s[i] * qd[i];
    a[i] = ap + P.s[i] * qdd[i] + cross_motion(v[i]) * P.s[i] * qd[i];
    vp = v[i];
    ap = a[i];
  }
}

// Backward pass: f_i = I_i (a_i + a_g) + v_i ×* I_i v_i, τ_i = s_iᵀ Σ_{k≥i} f_k, with the
// base's fictitious acceleration a_g = [0; −g] standing for gravity (Featherstone §5.3).
Eigen::VectorXd backward_pass(const SerialChain& chain, const ChainPose& P, const std::vector<Mat6>& I,
                              const std::vector<Vec6>& v, const std::vector<Vec6>& a) {
  const int n = chain.size();
  Vec6 ag;
  ag << Vec3::Zero(), -chain.gravity;
  Eigen::VectorXd tau(n);
  Vec6 f = Vec6::Zero();
  for (int i = n - 1; i >= 0; --i) {
    f += I[i] * (a[i] + ag) + cross_force(v[i]) * (I[i] * v[i]);
    tau[i] = P.s[i].dot(f);
  }
  return tau;
}

}  // namespace

ChainPose pose(const SerialChain& chain, const Eigen::VectorXd& q) {
  const int n = chain.size();
  ChainPose P;
  P.R.resize(n);
  P.p.resize(n);
  P.s.resize(n);
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < n; ++i) {
    const Link& L = chain.links[i];
    const Vec3 z = R * L.axis, o = p + R * L.origin;  // world axis and joint position
    if (L.kind == JointKind::Revolute) {
      P.s[i] << z, o.cross(z);  // v_O = ω × (O − o) = o × z per unit rate
      R = R * Eigen::AngleAxisd(q[i], L.axis).toRotationMatrix();
      p = o;
    } else {
      P.s[i] << Vec3::Zero(), z;
      p = o + z * q[i];
    }
    P.R[i] = R;
    P.p[i] = p;
  }
  P.tip = n ? Vec3(p + R * chain.tip) : Vec3(chain.tip);
  // Tip velocity of joint i's unit motion [ω; v_O]: v_tip = v_O + ω × r_tip.
  P.J.resize(3, n);
  for (int i = 0; i < n; ++i) P.J.col(i) = P.s[i].tail<3>() + P.s[i].head<3>().cross(P.tip);
  return P;
}

ChainDynamics dynamics(const SerialChain& chain, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  const int n = chain.size();
  ChainDynamics D;
  D.pose = pose(chain, q);
  const ChainPose& P = D.pose;
  const std::vector<Mat6> I = link_inertias(chain, P);

  // CRBA: composite inertias I^c_i = Σ_{k≥i} I_k, M_ij = s_iᵀ I^c_max(i,j) s_j.
  D.M.resize(n, n);
  Mat6 Ic = Mat6::Zero();
  for (int i = n - 1; i >= 0; --i) {
    Ic += I[i];
    const Vec6 F = Ic * P.s[i];
    for (int j = 0; j <= i; ++j) D.M(i, j) = D.M(j, i) = P.s[j].dot(F);
  }

  // RNEA with q̈ = 0: the bias h = C q̇ + G, and the tip's acceleration J̇ q̇.
  std::vector<Vec6> v, a;
  forward_pass(P, qd, Eigen::VectorXd::Zero(n), v, a);
  D.bias = backward_pass(chain, P, I, v, a);
  if (n > 0) {
    // A body point r moves with v_r = v_O + ω × r and a_r = v̇_O + ω̇ × r + ω × v_r
    // (the spatial acceleration [ω̇; v̇_O] is not the classical one; Featherstone §2.11).
    const Vec3 w = v[n - 1].head<3>(), wd = a[n - 1].head<3>();
    D.tip_velocity = v[n - 1].tail<3>() + w.cross(P.tip);
    D.tip_acceleration0 = a[n - 1].tail<3>() + wd.cross(P.tip) + w.cross(D.tip_velocity);
  }
  D.kinetic_energy = 0.5 * qd.dot(D.M * qd);
  for (int i = 0; i < n; ++i)
    D.potential_energy -= chain.links[i].mass * chain.gravity.dot(P.p[i] + P.R[i] * chain.links[i].centre);
  return D;
}

Eigen::VectorXd inverse_dynamics(const SerialChain& chain, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& qdd) {
  const ChainPose P = pose(chain, q);
  std::vector<Vec6> v, a;
  forward_pass(P, qd, qdd, v, a);
  return backward_pass(chain, P, link_inertias(chain, P), v, a);
}

}  // namespace jourdain::spatial
