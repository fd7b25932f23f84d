// The planar mechanical library's shared vocabulary: bodies, constraints (joints and
// drivers) and the point kinematics they exchange through planar ports.
//
// Conventions (README.md in this folder, "The equations"):
//   - a body owns q = (x, y, θ) of its mass centre and q̇ = (vx, vy, ω); a point P with
//     body-frame offset s' sits at r_P = r + A(θ) s';
//   - a constraint (joint or driver) sees only its ports: for each, the kinematics of the
//     body point it is connected to. It states its equations Φ(r_P, θ_P, t) = 0 and their
//     Jacobian with respect to a rigid displacement of each point (δr_P, δθ), so it never
//     needs to know where the body's mass centre is; the mechanism solver maps point
//     Jacobians to body coordinates with δr_P = δr + δθ ⊥(A s'), δθ_P = δθ;
//   - with multipliers λ, the KKT system is  M q̈ + Φ_qᵀ λ = Q,  Φ_q q̈ = γ − 2αΦ̇ − β²Φ,
//     so a constraint applies −J_Pᵀ λ to the point of each of its ports.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "jourdain/block_solver.hpp"
#include "jourdain/component.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/components/gravity.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::mechanical {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;

// v turned by +90°: the derivative of A(θ)s' with respect to θ is ⊥(A(θ)s').
inline Vec2 perp(const Vec2& v) { return {-v.y(), v.x()}; }
// v turned by the angle whose (cos, sin) is `turn` (a rotation computed once, used often).
inline Vec2 rotate(const Vec2& turn, const Vec2& v) {
  return {turn.x() * v.x() - turn.y() * v.y(), turn.y() * v.x() + turn.x() * v.y()};
}
inline Vec2 rotate(double theta, const Vec2& v) { return rotate(Vec2{std::cos(theta), std::sin(theta)}, v); }
inline double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// What a planar port delivers: the point's position, velocity and acceleration and its
// body's angle and rates.
struct PointKinematics {
  Vec2 r{0, 0}, v{0, 0}, a{0, 0};
  double theta = 0, omega = 0, alpha = 0;
};
// Into `k` one coordinate at a time: what the mechanism's evaluation calls for every joint
// (a PointKinematics returned by value, assembled from 2-vectors, went through the stack
// in pieces and stalled the copy that read it back).
void read_point(const Eval& e, PortId port, PointKinematics& k);
inline PointKinematics read_point(const Eval& e, PortId port) {
  PointKinematics k;
  read_point(e, port, k);
  return k;
}

// A direction given as a real-list parameter [ux, uy] (a joint's axis, a ground's
// normal): exactly two finite numbers, not both zero, returned as a unit vector. The
// size is checked before any element is read; errors name the component and `param`.
Vec2 unit_direction(const Component& c, const std::string& param, const std::vector<double>& v);

// The mechanism's block solver (mechanism_solver.cpp): every body and constraint names it.
const BlockSolverFactory& mechanism_solver_factory();

// A fixed frame with named points (the netlist's "points" parameter), each a port.
class Ground : public Component {
 public:
  Ground();
  void calc_outputs(Eval& e) const override;
  // Its points as anchors (ground symbols) in the world frame.
  nlohmann::json sketch() const override;
  Vec2 point(PortId p) const { return points_[p.index]; }

 private:
  void configure() override;
  std::vector<Vec2> points_;  // per port
};

// A rigid body: mass and inertia about its mass centre, named points in its frame (plus
// "cm" at the mass centre). States x, y, theta, vx, vy, omega; accelerations are
// algebraic unknowns with the Newton–Euler residuals, solved with the joints' multipliers.
class Body : public Component {
 public:
  Body();
  void calc_outputs(Eval& e) const override;
  void calc_derivatives(Eval& e) const override;
  const BlockSolverFactory* block_solver() const override { return &mechanism_solver_factory(); }
  // In its frame (x, y, theta): the outline through its points and the mass centre (their
  // convex hull, or a polyline when they lie on a line), the points as markers and the
  // mass centre as a small disc.
  nlohmann::json sketch() const override;

  double mass(const Eval& e) const { return e.param(mass_); }
  double inertia(const Eval& e) const { return e.param(inertia_); }
  Vec2 offset(PortId p) const { return offsets_[p.index]; }  // s' of the port's point
  // Sum of the forces and torques its ports receive, about the mass centre, plus gravity;
  // `turn` is (cos θ, sin θ) of its angle, which the caller has at hand.
  Vec3 applied_load(const Eval& e, const Vec2& turn) const;
  Vec3 position(const Eval& e) const { return {e.state(x_), e.state(y_), e.state(theta_)}; }
  Vec3 velocity(const Eval& e) const { return {e.state(vx_), e.state(vy_), e.state(omega_)}; }
  // Where x, y, θ, vx, vy, ω sit in Context::x (the mechanism's invariant Jacobian).
  std::array<int, 6> state_indices(const Eval& e) const {
    return {e.state_index(x_), e.state_index(y_), e.state_index(theta_),
            e.state_index(vx_), e.state_index(vy_), e.state_index(omega_)};
  }
  void set_position(Eval& e, const Vec3& q) const;
  void set_velocity(Eval& e, const Vec3& v) const;
  void set_acceleration(Eval& e, const Vec3& a) const;
  // calc_outputs in the mechanism solver's two halves, with the body's (cos θ, sin θ) and
  // applied load at hand: before the solve, the points' positions and velocities; after
  // it, their accelerations and the Newton–Euler residuals.
  void publish_positions_velocities(Eval& e, const Vec2& turn) const;
  void publish_accelerations(Eval& e, const Vec2& turn, const Vec3& load) const;
  Vec3 acceleration(const Eval& e) const { return {e.unknown(ax_), e.unknown(ay_), e.unknown(alpha_)}; }
  // The mechanism solver's report of Q_c = M q̈ − Q: what the joints, drivers and
  // actuators apply to the body, about its mass centre.
  void set_constraint_force(Eval& e, const Vec3& qc) const;

 private:
  void configure() override;
  RealParam mass_, inertia_;
  Vec2 gravity_;  // world.gravity
  std::vector<Vec2> offsets_;  // per port
  StateId x_, y_, theta_, vx_, vy_, omega_;
  UnknownId ax_, ay_, alpha_;
  ObservableId ax_obs_, ay_obs_, alpha_obs_, kinetic_, potential_, qc_x_, qc_y_, qc_tz_;
};

// One equation of a constraint at (t, point kinematics):
//   phi     Φ
//   J       ∂Φ/∂(δr_a, δθ_a, δr_b, δθ_b) for rigid displacements of the ports' points
//   phi_t   ∂Φ/∂t
//   c       the rest of Φ̈: Φ̈ = J (a_a, α_a, a_b, α_b) + c  (velocity-quadratic terms, −C̈)
struct ConstraintRow {
  double phi = 0, phi_t = 0, c = 0;
  Eigen::Matrix<double, 1, 6> J = Eigen::Matrix<double, 1, 6>::Zero();
};
struct ConstraintRows {
  std::array<ConstraintRow, 3> row;
  int count = 0;
  ConstraintRow& add() {
    row[count] = ConstraintRow();
    return row[count++];
  }
};

// Φ = |r_b − r_a|, the distance between two points (a rod, a distance driver), with
// J = [−uᵀ, 0, uᵀ, 0] (u the unit vector from a to b) and c = (|ḋ|² − (uᵀḋ)²)/|d|, the
// part of d²|d|/dt² beyond uᵀd̈. The points must not coincide (the direction is then
// undefined): SimulationError naming `component` at time t.
ConstraintRow distance_row(const PointKinematics (&k)[2], double t, const std::string& component);

// Parses world.constraints (the netlist's "world": {"constraints": {...}}).
struct ConstraintSettings {
  double alpha = 10.0;  // 1/s: Baumgarte velocity gain (γ − 2αΦ̇ − β²Φ)
  double beta = 10.0;   // 1/s: Baumgarte position gain
  // Projection of q and q̇ onto the constraints after accepted steps. Default: on with the
  // augmented Lagrangian formulation (part of the method), off with the others.
  bool projection = true;
  double projection_tolerance = 1e-12;
  double assembly_tolerance = 1e-10;
  std::string redundant = "error";  // or "least_squares"
  // How a dynamic analysis finds q̈: "augmented_lagrangian" (M + Φ_qᵀAΦ_q and the method
  // of multipliers, ALI3-P), "kkt" (the stabilized KKT system) or "udwadia_kalaba"
  // (q̈ = a + M^{-1/2}(A M^{-1/2})⁺(b − A a), dense).
  std::string formulation = "augmented_lagrangian";
  // Metric of the minimum-norm corrections (assembly, projection): "euclidean" (δ = A⁺r)
  // or "mass" (δ = M⁻¹Aᵀ(A M⁻¹Aᵀ)⁻¹r, the smallest δᵀMδ). Default: "mass" with the
  // augmented Lagrangian formulation (its mass-orthogonal projections), "euclidean" with
  // the others.
  std::string projection_metric = "mass";
  // The augmented Lagrangian's p (α_i = p / (Φ_q W⁻¹ Φ_qᵀ)_ii, dimensionless).
  double penalty = 1e8;
  // m or rad: the largest constraint violation, and the largest correction of a projection
  // or of a kinematic analysis's Newton step, that a run vouches for; beyond it the run
  // ends with an accuracy warning (a failure with --strict).
  double tolerance = 1e-6;
  bool mass_metric() const { return projection_metric == "mass"; }
};
ConstraintSettings constraint_settings(const World& world);

// Base of joints and drivers: one or two planar ports ("a", "b"), one multiplier per
// equation; returns −Jᵀλ to the points and reports the reaction on b (or the effort).
class Constraint : public Component {
 public:
  void calc_outputs(Eval& e) const override;
  const BlockSolverFactory* block_solver() const override { return &mechanism_solver_factory(); }

  int equation_count() const { return equations_; }
  int port_count() const { return two_ports_ ? 2 : 1; }
  PortId port(int k) const { return k == 0 ? a_ : b_; }
  // Its equations at the kinematics of its ports (k[1] unused with one port): positions
  // and velocities only. The accelerations in k are not this evaluation's (the mechanism
  // solver finds them from these rows, and publishes them after).
  virtual void equations(double t, const Eval& e, const PointKinematics (&k)[2], ConstraintRows& rows) const = 0;
  // Reads the ports into k, then equations() into rows.
  void rows_at(const Eval& e, ConstraintRows& rows, PointKinematics (&k)[2]) const;
  // Applies −Jᵀλ at its ports, with λ from its unknowns (or zero).
  void publish(Eval& e, const ConstraintRows& rows, bool zero = false) const;
  // Its observables (violation, reaction, what report() adds) from the rows and port
  // kinematics it was solved with and the multipliers in its unknowns: called by whoever
  // solves it, once the multipliers are final (the mechanism solver; calc_outputs on the
  // general Newton path), so that the rows are not evaluated again for them. `turn`: the
  // (cos θ, sin θ) of the body whose reaction it reports, when the caller has it. Does
  // nothing in an evaluation that wants no observables (an integrator's stage).
  void report_observables(Eval& e, const ConstraintRows& rows, const PointKinematics (&k)[2],
                          const Vec2* turn = nullptr) const;
  UnknownId multiplier(int i) const { return UnknownId{i}; }
  // Row kinds. An ordinary row is an equation Φ_i = 0 with a reaction −J_iᵀλ_i. A servo
  // row (a driver with "servo": true) is an equation only: the motion it prescribes is
  // imposed by the mechanism's actuators, not by a force of its own. An actuator row (an
  // actuated joint's axial force) is a reaction only: an unknown force −J_iᵀλ_i along a
  // free direction, with no equation; the servo rows determine it (Blajer's servo
  // constraints: inverse dynamics through the actual actuators).
  bool is_equation(int i) const { return equation_rows_[i] != 0; }
  bool reacts(int i) const { return reacting_rows_[i] != 0; }
  // A name for equation i in messages ("revolute 'hinge', equation y").
  virtual std::string equation_name(int i) const;
  // The unit of Φ_i: "m" (positions, the default) or "rad" (angles).
  virtual const char* equation_unit(int /*i*/) const { return "m"; }
  // A driver: the value C(t) it prescribes at e's time (in equation_unit(0)); nullopt for
  // a joint. Messages about a motion the mechanism cannot follow name it.
  virtual std::optional<double> prescribed_value(const Eval& /*e*/) const { return std::nullopt; }
  // The unit of a norm or maximum over these equations' |Φ_i|: their common unit, or "m"
  // when they mix positions and angles. The radians are then counted as they are, which is
  // to take 1 rad as 1 m (a rotation error of ε rad moves a point 1 m away by ε m), the
  // scale on which the assembly and projection tolerances compare the same mixed norms.
  static std::string norm_unit(const std::vector<std::string>& equation_units);

 protected:
  // Subclasses call this from configure(): their equations and port count.
  void declare_constraint(int equations, bool two_ports, std::string what_a, std::string what_b = "");
  // Extra observables of the subclass, from the solved multipliers (effort, slide...), at
  // the kinematics equations() had (positions and velocities).
  virtual void report(Eval&, const PointKinematics (&)[2], const Eigen::Vector3d& /*lambda*/) const {}
  // Whether to report the reaction force on b (joints) or not (drivers report an effort).
  bool reports_reaction_ = true;
  // From configure(), after declare_constraint(): the kind of row i (see is_equation).
  void set_row_kind(int i, bool equation, bool reacts) {
    equation_rows_[i] = equation;
    reacting_rows_[i] = reacts;
  }

 private:
  int equations_ = 0;
  bool two_ports_ = true;
  PortId a_, b_;
  ObservableId fx_, fy_, tz_, fx_body_, fy_body_, violation_;
  std::vector<char> equation_rows_, reacting_rows_;
  ConstraintSettings settings_;  // world.constraints, read when configured
};


}  // namespace jourdain::mechanical
