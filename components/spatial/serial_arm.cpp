// The spatial port domain and the serial arm (spatial.hpp).
#include <cmath>

#include <Eigen/Eigenvalues>

#include "jourdain/errors.hpp"
#include "spatial.hpp"

namespace jourdain::spatial {

const Domain& spatial_domain() {
  // A function-local constant (no global mutable state), like the standard domains.
  static const Domain d{"spatial", "spatial point: position, velocity and acceleration one way, force back",
                        {{"x", "m", Flow::StateToResponse, "point position x (world)"},
                         {"y", "m", Flow::StateToResponse, "point position y (world)"},
                         {"z", "m", Flow::StateToResponse, "point position z (world)"},
                         {"vx", "m/s", Flow::StateToResponse, "point velocity x"},
                         {"vy", "m/s", Flow::StateToResponse, "point velocity y"},
                         {"vz", "m/s", Flow::StateToResponse, "point velocity z"},
                         {"ax", "m/s^2", Flow::StateToResponse, "point acceleration x"},
                         {"ay", "m/s^2", Flow::StateToResponse, "point acceleration y"},
                         {"az", "m/s^2", Flow::StateToResponse, "point acceleration z"},
                         {"fx", "N", Flow::ResponseToState, "force on the body at the point, x"},
                         {"fy", "N", Flow::ResponseToState, "force on the body at the point, y"},
                         {"fz", "N", Flow::ResponseToState, "force on the body at the point, z"}}};
  return d;
}

SerialArm::SerialArm() {
  declare_text("joints", std::nullopt, "joint kinds from the base out, one letter each: R revolute, P prismatic "
                                       "(\"RRR\")");
  declare_table("axes", {"", "", ""}, "per joint: its axis in the parent link frame (world for joint 1), normalized");
  declare_table("origins", {"m", "m", "m"}, "per joint: its position in the parent link frame (world for joint 1)");
  declare_real_list("masses", "kg", std::nullopt, "per link: mass");
  declare_table("mass_centres", {"m", "m", "m"}, "per link: mass centre in the link frame");
  declare_table("inertias", {"kg*m^2", "kg*m^2", "kg*m^2"},
                "per link: moments of inertia I_xx, I_yy, I_zz about the mass centre, link-frame axes");
  declare_table("products_of_inertia", {"kg*m^2", "kg*m^2", "kg*m^2"},
                "per link: products of inertia I_xy, I_xz, I_yz (tensor entries, I = [[Ixx, Ixy, Ixz], ...]); "
                "one row per link, or one row for all",
                nlohmann::json::array({nlohmann::json::array({0.0, 0.0, 0.0})}));
  declare_real_list("tip", "m", std::vector<double>{0.0, 0.0, 0.0}, "the tip point in the last link frame");
  declare_real_list("gravity", "m/s^2", std::vector<double>{0.0, 0.0, -9.81},
                    "gravity in the world frame (world.gravity is planar)");
  // One revolute joint about z, a 1 m link of 1 kg: the smallest working arm.
  set_example("joints", "R");
  using row = std::vector<double>;
  set_example("axes", nlohmann::json::array({row{0, 0, 1}}));
  set_example("origins", nlohmann::json::array({row{0, 0, 0}}));
  set_example("masses", nlohmann::json::array({1.0}));
  set_example("mass_centres", nlohmann::json::array({row{0.5, 0, 0}}));
  set_example("inertias", nlohmann::json::array({row{0.001, 0.0833, 0.0833}}));
}

void SerialArm::configure() {
  const std::string kinds = text("joints");
  const int n = static_cast<int>(kinds.size());
  if (n == 0) parameter_error("joints", "needs at least one joint");
  auto rows = [&](const std::string& name) {
    auto t = table(name);
    if (static_cast<int>(t.size()) != n)
      parameter_error(name, "needs one row per joint (" + std::to_string(n) + "), got " + std::to_string(t.size()));
    return t;
  };
  auto vec3 = [&](const std::string& name, const std::vector<double>& v) {
    if (v.size() != 3) parameter_error(name, "expected 3 numbers [x, y, z]");
    return Vec3(v[0], v[1], v[2]);
  };
  const auto axes = rows("axes"), origins = rows("origins"), centres = rows("mass_centres"), inertias = rows("inertias");
  auto products = table("products_of_inertia");
  if (products.size() == 1) products.assign(n, products.front());
  if (static_cast<int>(products.size()) != n)
    parameter_error("products_of_inertia", "needs one row per link (" + std::to_string(n) + ") or one row for all");
  const auto masses = real_list("masses");
  if (static_cast<int>(masses.size()) != n)
    parameter_error("masses", "needs one mass per link (" + std::to_string(n) + "), got " + std::to_string(masses.size()));

  chain_.links.resize(n);
  for (int i = 0; i < n; ++i) {
    Link& L = chain_.links[i];
    const std::string joint = "joint " + std::to_string(i + 1);
    if (kinds[i] == 'R' || kinds[i] == 'r') L.kind = JointKind::Revolute;
    else if (kinds[i] == 'P' || kinds[i] == 'p') L.kind = JointKind::Prismatic;
    else parameter_error("joints", joint + ": '" + std::string(1, kinds[i]) + "' is neither R (revolute) nor P (prismatic)");
    L.axis = vec3("axes", axes[i]);
    if (!(L.axis.norm() > 1e-12)) parameter_error("axes", joint + ": the axis must not be zero");
    L.axis.normalize();
    L.origin = vec3("origins", origins[i]);
    L.mass = masses[i];
    if (!(L.mass >= 0.0) || !std::isfinite(L.mass)) parameter_error("masses", "link " + std::to_string(i + 1) + ": must be ≥ 0");
    L.centre = vec3("mass_centres", centres[i]);
    const auto& I = inertias[i];
    const auto& P = products[i];
    L.inertia << I[0], P[0], P[1], P[0], I[1], P[2], P[1], P[2], I[2];
    // A physical inertia tensor is positive semi-definite and its principal moments obey
    // the triangle inequality; a negative eigenvalue means a typing error.
    const double smallest = Eigen::SelfAdjointEigenSolver<Mat3>(L.inertia).eigenvalues().minCoeff();
    if (smallest < -1e-12 * std::max(1.0, L.inertia.norm()))
      parameter_error("inertias", "link " + std::to_string(i + 1) + ": the inertia tensor is not positive semi-definite");
  }
  chain_.tip = vec3("tip", real_list("tip"));
  chain_.gravity = vec3("gravity", real_list("gravity"));

  tip_ = declare_port("tip", spatial_domain(), PortSide::State, "the tip point");
  for (int i = 0; i < n; ++i) {
    const bool rev = chain_.links[i].kind == JointKind::Revolute;
    const std::string k = std::to_string(i + 1);
    q_.push_back(declare_state("q" + k, rev ? "rad" : "m", 0.0, "joint " + k + " coordinate"));
    qd_.push_back(declare_state("qd" + k, rev ? "rad/s" : "m/s", 0.0, "joint " + k + " rate"));
    qdd_.push_back(declare_unknown("qdd" + k, rev ? "rad/s^2" : "m/s^2", 0.0, "joint " + k + " acceleration"));
    torque_.push_back(declare_observable("torque" + k, rev ? "N*m" : "N",
                                         "joint " + k + " effort the constraints on the tip call for (Q_c): the "
                                         "actuator torque (force) that makes the tip follow them"));
  }
  tip_x_ = declare_observable("tip_x", "m", "tip position x (world)");
  tip_y_ = declare_observable("tip_y", "m", "tip position y (world)");
  tip_z_ = declare_observable("tip_z", "m", "tip position z (world)");
  kinetic_ = declare_observable("kinetic_energy", "J", "½ q̇ᵀ M q̇");
  potential_ = declare_observable("potential_energy", "J", "−Σ m g·c (zero at the origin)");
}

Eigen::VectorXd SerialArm::positions(const Eval& e) const {
  Eigen::VectorXd q(q_.size());
  for (size_t i = 0; i < q_.size(); ++i) q[i] = e.state(q_[i]);
  return q;
}
Eigen::VectorXd SerialArm::velocities(const Eval& e) const {
  Eigen::VectorXd v(qd_.size());
  for (size_t i = 0; i < qd_.size(); ++i) v[i] = e.state(qd_[i]);
  return v;
}
void SerialArm::set_positions(Eval& e, const Eigen::VectorXd& q) const {
  for (size_t i = 0; i < q_.size(); ++i) e.set_state(q_[i], q[i]);
}
void SerialArm::set_velocities(Eval& e, const Eigen::VectorXd& v) const {
  for (size_t i = 0; i < qd_.size(); ++i) e.set_state(qd_[i], v[i]);
}

void SerialArm::publish(Eval& e, const ChainDynamics& d, const Eigen::VectorXd& qdd, const Eigen::VectorXd& torque) const {
  const Vec3 a = d.pose.J * qdd + d.tip_acceleration0;  // ẍ = J q̈ + J̇ q̇
  const Vec3 f{e.in(tip_, fx), e.in(tip_, fy), e.in(tip_, fz)};
  const Eigen::VectorXd residual = d.M * qdd + d.bias - d.pose.J.transpose() * f;
  for (size_t i = 0; i < qdd_.size(); ++i) {
    e.set_unknown(qdd_[i], qdd[i]);
    e.set_residual(qdd_[i], residual[i]);
    e.set_observable(torque_[i], torque[i]);
  }
  const Var pos[3] = {x, y, z}, vel[3] = {vx, vy, vz}, acc[3] = {ax, ay, az};
  for (int k = 0; k < 3; ++k) {
    e.set_out(tip_, pos[k], d.pose.tip[k]);
    e.set_out(tip_, vel[k], d.tip_velocity[k]);
    e.set_out(tip_, acc[k], a[k]);
  }
}

// For the general Newton method (the arm solver solves the arm directly): the tip from
// the current q̈, and Jᵀ f as the effort the tip's force stands for.
void SerialArm::calc_outputs(Eval& e) const {
  const ChainDynamics d = dynamics(e);
  Eigen::VectorXd qdd(qdd_.size());
  for (size_t i = 0; i < qdd_.size(); ++i) qdd[i] = e.unknown(qdd_[i]);
  const Vec3 f{e.in(tip_, fx), e.in(tip_, fy), e.in(tip_, fz)};
  publish(e, d, qdd, d.pose.J.transpose() * f);
}

void SerialArm::calc_derivatives(Eval& e) const {
  for (size_t i = 0; i < q_.size(); ++i) {
    e.set_derivative(q_[i], e.state(qd_[i]));
    e.set_derivative(qd_[i], e.unknown(qdd_[i]));
  }
  const ChainDynamics d = dynamics(e);
  e.set_observable(tip_x_, d.pose.tip.x());
  e.set_observable(tip_y_, d.pose.tip.y());
  e.set_observable(tip_z_, d.pose.tip.z());
  e.set_observable(kinetic_, d.kinetic_energy);
  e.set_observable(potential_, d.potential_energy);
}

void register_arm(Registry& r) {
  r.add<SerialArm>("spatial.serial_arm", "spatial serial arm in joint coordinates (revolute/prismatic joints): "
                                         "CRBA mass matrix, RNEA bias; states q, qd; tip port");
}

}  // namespace jourdain::spatial
