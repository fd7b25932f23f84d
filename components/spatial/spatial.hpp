// The spatial library's shared vocabulary: the "spatial" port domain, the serial arm
// (joint coordinates) and constraints on its tip, solved together by the
// Udwadia–Kalaba block solver (arm_solver.cpp).
//
// Conventions (netlists/README.md, "Spatial serial arms"; seed 002, Lü & Liu 2018):
//   - an arm owns q, q̇ (one per joint) and obeys  M q̈ + h = Jᵀ f_tip  (chain.hpp);
//   - a tip constraint sees only its port: the tip's position, velocity and
//     acceleration. It states its task-space equations Φ(x, t) = x − x_d(t) = 0 and
//     what the tip's acceleration must be, ẍ = ẍ_d (− 2αΦ̇ − β²Φ with Baumgarte); the
//     solver maps them to joint space through ẍ = J q̈ + J̇ q̇:
//         A = J,   b = ẍ_d − J̇ q̇ (− 2αΦ̇ − β²Φ),
//     and returns to the tip the force f with Jᵀ f = Q_c, the constraint torques.
#pragma once

#include <string>

#include <Eigen/Core>

#include "chain.hpp"
#include "jourdain/block_solver.hpp"
#include "jourdain/component.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::spatial {

// A point of a spatial body (state side: position, velocity, acceleration, world frame)
// and the force applied there (response side).
const Domain& spatial_domain();
inline constexpr Var x{Flow::StateToResponse, 0};
inline constexpr Var y{Flow::StateToResponse, 1};
inline constexpr Var z{Flow::StateToResponse, 2};
inline constexpr Var vx{Flow::StateToResponse, 3};
inline constexpr Var vy{Flow::StateToResponse, 4};
inline constexpr Var vz{Flow::StateToResponse, 5};
inline constexpr Var ax{Flow::StateToResponse, 6};
inline constexpr Var ay{Flow::StateToResponse, 7};
inline constexpr Var az{Flow::StateToResponse, 8};
inline constexpr Var fx{Flow::ResponseToState, 0};
inline constexpr Var fy{Flow::ResponseToState, 1};
inline constexpr Var fz{Flow::ResponseToState, 2};

const BlockSolverFactory& arm_solver_factory();

// A serial arm in joint coordinates. States q<i>, qd<i>; accelerations qdd<i> are
// algebraic unknowns (residual M q̈ + h − Jᵀ f_tip), solved by the arm solver together
// with the constraints on its tip.
class SerialArm : public Component {
 public:
  SerialArm();
  void calc_outputs(Eval& e) const override;
  void calc_derivatives(Eval& e) const override;
  const BlockSolverFactory* block_solver() const override { return &arm_solver_factory(); }

  const SerialChain& chain() const { return chain_; }
  int joint_count() const { return chain_.size(); }
  PortId tip() const { return tip_; }
  Eigen::VectorXd positions(const Eval& e) const;
  Eigen::VectorXd velocities(const Eval& e) const;
  void set_positions(Eval& e, const Eigen::VectorXd& q) const;  // initialization, projection
  void set_velocities(Eval& e, const Eigen::VectorXd& qd) const;
  ChainDynamics dynamics(const Eval& e) const { return spatial::dynamics(chain_, positions(e), velocities(e)); }
  // Writes q̈, the tip's kinematics and the residuals from `d`, and the joint torques the
  // constraints on the tip call for (Q_c).
  void publish(Eval& e, const ChainDynamics& d, const Eigen::VectorXd& qdd, const Eigen::VectorXd& torque) const;

 private:
  void configure() override;
  SerialChain chain_;
  PortId tip_;
  std::vector<StateId> q_, qd_;
  std::vector<UnknownId> qdd_;
  std::vector<ObservableId> torque_;
  ObservableId tip_x_, tip_y_, tip_z_, kinetic_, potential_;
};

// How a tip constraint keeps its drift down (seed 002): the choices that shape the
// solver. Its numbers (Baumgarte's α and β, the projection's tolerance) are numeric
// parameters of the path, read from a run's Context (TipPath::alpha, ...).
struct DriftControl {
  enum class Kind { None, Baumgarte, Projection } kind = Kind::Projection;
  bool mass_weighted = false;  // projection by M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹ instead of A⁺
  int iterations = 3;          // Gauss–Newton iterations at most per projection
  bool assemble = true;        // put the arm on the path before the run
};

// The desired tip position x_d(t) and its first two derivatives.
struct PathPoint {
  Vec3 x = Vec3::Zero(), v = Vec3::Zero(), a = Vec3::Zero();
};

// The tip follows x_d(t): each coordinate a sum of terms A cos(ω₁t + φ₁) cos(ω₂t + φ₂)
// (constants, cosines, sines with φ = −90°, and their products). Unknowns: the force on
// the tip (the multipliers λ of the three equations).
class TipPath : public Component {
 public:
  TipPath();
  void calc_outputs(Eval& e) const override;
  void calc_derivatives(Eval& e) const override;
  const BlockSolverFactory* block_solver() const override { return &arm_solver_factory(); }

  PortId tip() const { return tip_; }
  PathPoint target(double t) const;
  const DriftControl& drift() const { return drift_; }
  // 1/s: Baumgarte's b ← b − 2αΦ̇ − β²Φ.
  double alpha(const Eval& e) const { return e.param(alpha_); }
  double beta(const Eval& e) const { return e.param(beta_); }
  // m: projection stops below this |Φ|∞.
  double projection_tolerance(const Eval& e) const { return e.param(tolerance_); }
  void set_force(Eval& e, const Vec3& f) const;

 private:
  struct Term {
    double amplitude, w1, phi1, w2, phi2;
  };
  void configure() override;
  std::vector<Term> terms_[3];
  DriftControl drift_;
  RealParam alpha_, beta_, tolerance_;
  PortId tip_;
  UnknownId f_[3];
  ObservableId desired_[3], error_, error_rate_;
};

void register_arm(Registry& r);
void register_tip_path(Registry& r);

}  // namespace jourdain::spatial
