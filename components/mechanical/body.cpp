// Ground and body (planar.hpp).
#include <algorithm>
#include <cmath>

#include "mechanical_library.hpp"
#include "planar.hpp"

namespace jourdain::mechanical {

using namespace jourdain::planar;

void read_point(const Eval& e, PortId p, PointKinematics& k) {
  k.r[0] = e.in(p, x);
  k.r[1] = e.in(p, y);
  k.v[0] = e.in(p, vx);
  k.v[1] = e.in(p, vy);
  k.a[0] = e.in(p, ax);
  k.a[1] = e.in(p, ay);
  k.theta = e.in(p, theta);
  k.omega = e.in(p, omega);
  k.alpha = e.in(p, alpha);
}

Vec2 unit_direction(const Component& c, const std::string& param, const std::vector<double>& v) {
  auto refuse = [&](const std::string& why) {
    throw InputError(InputLocation{"", "", c.name(), ""}, "parameter '" + param + "': " + why);
  };
  if (v.size() != 2)
    refuse("expected a direction [ux, uy] of two numbers, got " + std::to_string(v.size()));
  const Vec2 u{v[0], v[1]};
  if (!std::isfinite(v[0]) || !std::isfinite(v[1])) refuse("the direction must be finite");
  // Eigen's normalized() leaves a vector of zero norm as it is: refuse it here.
  if (!(u.norm() > 0.0)) refuse("the direction must not be zero");
  return u.normalized();
}

// ------------------------------------------------------------------ ground

Ground::Ground() {
  declare_named_vectors("points", "m", 2, nlohmann::json{{"origin", {0.0, 0.0}}},
                        "fixed points in the world frame, each a port: {\"pivot\": [x, y]}");
}

void Ground::configure() {
  for (const auto& [name, xy] : named_vectors("points")) {
    PortId p = declare_port(name, planar_domain(), PortSide::State, "fixed point (" + name + ")");
    set_dependencies(p, {});  // fixed: reads nothing
    points_.resize(p.index + 1);
    points_[p.index] = {xy[0], xy[1]};
  }
}

void Ground::calc_outputs(Eval& e) const {
  for (size_t k = 0; k < points_.size(); ++k) {
    PortId p{static_cast<int>(k)};
    e.set_out(p, x, points_[k].x());
    e.set_out(p, y, points_[k].y());
    for (Var v : {theta, vx, vy, omega, ax, ay, alpha}) e.set_out(p, v, 0.0);
  }
}

nlohmann::json Ground::sketch() const {
  nlohmann::json anchors = nlohmann::json::object();
  for (size_t k = 0; k < points_.size(); ++k) anchors[ports()[k].name] = {points_[k].x(), points_[k].y()};
  return {{"anchors", anchors}};
}

// ------------------------------------------------------------------ body

Body::Body() {
  mass_ = declare_real("mass", "kg", std::nullopt, "mass", Range::positive());
  inertia_ = declare_real("inertia", "kg*m^2", std::nullopt, "moment of inertia about the mass centre", Range::positive());
  declare_named_vectors("points", "m", 2, nlohmann::json::object(),
                        "connection points in the body frame, from the mass centre: {\"pin\": [x', y']}; "
                        "\"cm\" (the mass centre) is always there");
}

void Body::configure() {
  gravity_ = planar_gravity(world());
  PortId cm = declare_port("cm", planar_domain(), PortSide::State, "the mass centre");
  offsets_.push_back({0, 0});
  (void)cm;
  for (const auto& [name, xy] : named_vectors("points")) {
    if (name == "cm") {
      if (xy[0] != 0.0 || xy[1] != 0.0) parameter_error("points", "\"cm\" is the mass centre, at [0, 0]");
      continue;
    }
    declare_port(name, planar_domain(), PortSide::State, "body point (" + name + ")");
    offsets_.push_back({xy[0], xy[1]});
  }
  x_ = declare_state("x", "m", 0.0, "mass centre, x");
  y_ = declare_state("y", "m", 0.0, "mass centre, y");
  theta_ = declare_state("theta", "rad", 0.0, "angle (continuous, never wrapped)");
  vx_ = declare_state("vx", "m/s", 0.0, "mass-centre velocity, x");
  vy_ = declare_state("vy", "m/s", 0.0, "mass-centre velocity, y");
  omega_ = declare_state("omega", "rad/s", 0.0, "angular velocity");
  ax_ = declare_unknown("ax", "m/s^2", 0.0, "mass-centre acceleration, x");
  ay_ = declare_unknown("ay", "m/s^2", 0.0, "mass-centre acceleration, y");
  alpha_ = declare_unknown("alpha", "rad/s^2", 0.0, "angular acceleration");
  ax_obs_ = declare_observable("ax", "m/s^2", "mass-centre acceleration, x");
  ay_obs_ = declare_observable("ay", "m/s^2", "mass-centre acceleration, y");
  alpha_obs_ = declare_observable("alpha", "rad/s^2", "angular acceleration");
  kinetic_ = declare_observable("kinetic_energy", "J", "½ m v² + ½ I ω²");
  potential_ = declare_observable("potential_energy", "J", "−m g·r (zero at the origin)");
  set_energy_role(kinetic_, EnergyRole::Stored);
  set_energy_role(potential_, EnergyRole::Stored);
  qc_x_ = declare_observable("constraint_fx", "N", "constraint force on the body (joints, drivers, actuators), x");
  qc_y_ = declare_observable("constraint_fy", "N", "constraint force on the body (joints, drivers, actuators), y");
  qc_tz_ = declare_observable("constraint_tz", "N*m", "constraint torque on the body about its mass centre");
}

void Body::calc_outputs(Eval& e) const {
  const double th = e.state(theta_);
  const Vec2 turn{std::cos(th), std::sin(th)};
  publish_positions_velocities(e, turn);
  publish_accelerations(e, turn, applied_load(e, turn));
}

void Body::publish_positions_velocities(Eval& e, const Vec2& turn) const {
  const Vec2 r{e.state(x_), e.state(y_)}, v{e.state(vx_), e.state(vy_)};
  const double th = e.state(theta_), om = e.state(omega_);
  // Per point, r + arm and v + ω × arm (arm = R(θ) s'; ω × (x, y) = ω (−y, x)), written
  // coordinate by coordinate: as 2-vectors, GCC packs the scalars of ω × arm through the
  // stack and stalls on the reload (a sixth of the evaluation of a 64-link chain).
  for (size_t k = 0; k < offsets_.size(); ++k) {
    PortId p{static_cast<int>(k)};
    const Vec2 arm = rotate(turn, offsets_[k]);
    e.set_out(p, x, r.x() + arm.x());
    e.set_out(p, y, r.y() + arm.y());
    e.set_out(p, theta, th);
    e.set_out(p, vx, v.x() - om * arm.y());
    e.set_out(p, vy, v.y() + om * arm.x());
    e.set_out(p, omega, om);
  }
}

void Body::publish_accelerations(Eval& e, const Vec2& turn, const Vec3& load) const {
  const Vec2 a{e.unknown(ax_), e.unknown(ay_)};
  const double om = e.state(omega_), al = e.unknown(alpha_);
  // Per point, a + α × arm − ω² arm, coordinate by coordinate (see above).
  const double om2 = om * om;
  for (size_t k = 0; k < offsets_.size(); ++k) {
    PortId p{static_cast<int>(k)};
    const Vec2 arm = rotate(turn, offsets_[k]);
    e.set_out(p, ax, a.x() - al * arm.y() - om2 * arm.x());
    e.set_out(p, ay, a.y() + al * arm.x() - om2 * arm.y());
    e.set_out(p, planar::alpha, al);
  }
  // Newton–Euler, for the general Newton method (the mechanism solver solves it directly).
  const double m = mass(e);
  e.set_residual(ax_, m * a.x() - load[0]);
  e.set_residual(ay_, m * a.y() - load[1]);
  e.set_residual(alpha_, inertia(e) * al - load[2]);
}

Vec3 Body::applied_load(const Eval& e, const Vec2& turn) const {
  const Vec2& g = gravity_;
  const double m = mass(e);
  Vec3 q{m * g.x(), m * g.y(), 0.0};
  for (size_t k = 0; k < offsets_.size(); ++k) {
    PortId p{static_cast<int>(k)};
    const Vec2 f{e.in(p, fx), e.in(p, fy)};
    const Vec2 arm = rotate(turn, offsets_[k]);
    q[0] += f.x();
    q[1] += f.y();
    q[2] += e.in(p, tz) + cross(arm, f);  // C_z + (B s')ᵀ F (README.md, "The equations")
  }
  return q;
}

void Body::calc_derivatives(Eval& e) const {
  e.set_derivative(x_, e.state(vx_));
  e.set_derivative(y_, e.state(vy_));
  e.set_derivative(theta_, e.state(omega_));
  e.set_derivative(vx_, e.unknown(ax_));
  e.set_derivative(vy_, e.unknown(ay_));
  e.set_derivative(omega_, e.unknown(alpha_));
  e.set_observable(ax_obs_, e.unknown(ax_));
  e.set_observable(ay_obs_, e.unknown(ay_));
  e.set_observable(alpha_obs_, e.unknown(alpha_));
  const double vx2 = e.state(vx_) * e.state(vx_) + e.state(vy_) * e.state(vy_);
  const double m = mass(e);
  e.set_observable(kinetic_, 0.5 * m * vx2 + 0.5 * inertia(e) * e.state(omega_) * e.state(omega_));
  const Vec2& g = gravity_;
  e.set_observable(potential_, -m * (g.x() * e.state(x_) + g.y() * e.state(y_)));
}

namespace {

// Convex hull of `p` (Andrew's monotone chain), counter-clockwise, without collinear points.
std::vector<Vec2> convex_hull(std::vector<Vec2> p) {
  std::sort(p.begin(), p.end(), [](const Vec2& a, const Vec2& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  if (p.size() < 3) return p;
  std::vector<Vec2> h(2 * p.size());
  size_t k = 0;
  auto turn = [](const Vec2& o, const Vec2& a, const Vec2& b) { return cross(a - o, b - o); };
  for (size_t i = 0; i < p.size(); ++i) {  // lower hull
    while (k >= 2 && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (size_t i = p.size() - 1, lower = k + 1; i-- > 0;) {  // upper hull
    while (k >= lower && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  h.resize(k - 1);
  return h;
}

}  // namespace

nlohmann::json Body::sketch() const {
  const std::string& n = name();
  nlohmann::json points = nlohmann::json::object();
  double extent = 0.0;
  for (size_t k = 1; k < offsets_.size(); ++k) {  // port 0 is the mass centre
    points[ports()[k].name] = {offsets_[k].x(), offsets_[k].y()};
    extent = std::max(extent, offsets_[k].norm());
  }
  nlohmann::json s = {{"frame", {{"x", n + ".x"}, {"y", n + ".y"}, {"theta", n + ".theta"}}},
                      {"points", points},
                      {"label", n}};
  // The mass centre; a body with no other point is just that (a dot).
  s["circles"] = {{{"center", {0.0, 0.0}}, {"r", 0.04 * extent}}};
  auto xy = [](const Vec2& v) { return nlohmann::json{v.x(), v.y()}; };
  const std::vector<Vec2> hull = convex_hull(offsets_);
  double area = 0.0;
  for (size_t k = 0; k < hull.size(); ++k) area += cross(hull[k], hull[(k + 1) % hull.size()]) / 2;
  if (hull.size() >= 3 && area > 1e-6 * extent * extent) {
    for (const auto& v : hull) s["polygon"].push_back(xy(v));
  } else if (extent > 0.0) {
    // On a line: the polyline through every point, in order along that line.
    std::vector<Vec2> line = offsets_;
    Vec2 far = *std::max_element(line.begin(), line.end(), [](const Vec2& a, const Vec2& b) { return a.norm() < b.norm(); });
    std::sort(line.begin(), line.end(), [&](const Vec2& a, const Vec2& b) { return a.dot(far) < b.dot(far); });
    for (const auto& v : line) s["polyline"].push_back(xy(v));
  }
  return s;
}

void Body::set_position(Eval& e, const Vec3& q) const {
  e.set_state(x_, q[0]);
  e.set_state(y_, q[1]);
  e.set_state(theta_, q[2]);
}
void Body::set_velocity(Eval& e, const Vec3& v) const {
  e.set_state(vx_, v[0]);
  e.set_state(vy_, v[1]);
  e.set_state(omega_, v[2]);
}
void Body::set_constraint_force(Eval& e, const Vec3& qc) const {
  e.set_observable(qc_x_, qc[0]);
  e.set_observable(qc_y_, qc[1]);
  e.set_observable(qc_tz_, qc[2]);
}
void Body::set_acceleration(Eval& e, const Vec3& a) const {
  e.set_unknown(ax_, a[0]);
  e.set_unknown(ay_, a[1]);
  e.set_unknown(alpha_, a[2]);
}

}  // namespace jourdain::mechanical

namespace jourdain::mechanical {
void register_bodies(Registry& r) {
  r.add<Ground>("mechanical.ground", "fixed frame with named points (planar)");
  r.add<Body>("mechanical.body", "rigid body: mass, inertia, named points; states x, y, theta and rates");
}
}  // namespace jourdain::mechanical
