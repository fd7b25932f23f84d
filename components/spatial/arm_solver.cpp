// The arm solver: serial arms and the constraints on their tips, in one implicit block,
// solved by the Udwadia–Kalaba equation (seed 002, Lü & Liu 2018, eqs. 3–5):
//
//     M q̈ = Q + Q_c,   Q = −h(q, q̇)                       (n joints, N·m or N)
//     A q̈ = b,         A = J (m×n),  b = ẍ_d − J̇q̇ (m = 3 per tip path)
//     q̈   = a + M^{-1/2} (A M^{-1/2})⁺ (b − A a),   a = M⁻¹ Q
//     Q_c = M^{1/2} (A M^{-1/2})⁺ (b − A a)
//
// with ⁺ the Moore–Penrose inverse (a complete orthogonal decomposition, rank-revealing,
// so a redundant or singular A is handled: the formula holds for any A). Q_c are the
// joint torques the path calls for; since (A M^{-1/2})⁺ = M^{-1/2}Aᵀ(AM⁻¹Aᵀ)⁺, Q_c = Aᵀλ
// and λ is the force on the tip, which the path hands back through its port.
//
// Drift control, per path (DriftControl): none; Baumgarte, b ← b − 2αΦ̇ − β²Φ; or the
// seed's direct elimination after every accepted step (BlockSolver::project, called by
// the explicit drivers and by CVODE's projection function):
//     q ← q − P Φ(q, t)        (Gauss–Newton, until |Φ|∞ ≤ tolerance)
//     q̇ ← q̇ − P (A q̇ − ν)      (ν = ẋ_d: the velocity-level right side)
// with P = A⁺ (seed eqs. 15–18) or the mass-weighted P = M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹.
#include <algorithm>
#include <cmath>
#include <sstream>

#include <Eigen/Dense>

#include "jourdain/errors.hpp"
#include "jourdain/model.hpp"
#include "jourdain/scheduler.hpp"
#include "spatial.hpp"

namespace jourdain::spatial {

namespace {

// The block's equations at one (t, q, q̇), stacked over arms (columns) and paths (rows).
struct System {
  std::vector<ChainDynamics> arms;
  Eigen::MatrixXd M, A;
  Eigen::VectorXd Q, phi, phidot, b;  // b without stabilization
  Eigen::VectorXd q, qd;
};

// Pseudo-inverse solutions: the minimum-norm least-squares x of B x = r.
Eigen::VectorXd pinv_solve(const Eigen::MatrixXd& B, const Eigen::VectorXd& r) {
  if (B.rows() == 0) return Eigen::VectorXd::Zero(B.cols());
  return B.completeOrthogonalDecomposition().solve(r);
}

class ArmSolver final : public BlockSolver {
 public:
  ArmSolver(const Model& model, const ScheduledStep& step, int block, int monitor_offset)
      : block_(block), monitor_offset_(monitor_offset) {
    const auto& comps = model.components();
    const std::string& file = model.world().file;
    std::vector<int> arm_of(comps.size(), -1);
    for (int c : step.components) {
      if (const auto* a = dynamic_cast<const SerialArm*>(comps[c].get())) {
        arm_of[c] = static_cast<int>(arms_.size());
        arms_.push_back({c, a, joints_});
        joints_ += a->joint_count();
      }
    }
    for (int c : step.components) {
      if (arm_of[c] >= 0) continue;
      const auto* p = dynamic_cast<const TipPath*>(comps[c].get());
      if (!p)
        throw InputError({file, "", comps[c]->name(), ""},
                         "is in one algebraic loop with a spatial arm, whose solver handles only arms and the "
                         "constraints on their tips");
      const auto [peer, peer_port] = model.peers(c, p->tip().index).front();
      if (arm_of[peer] < 0 || PortId{peer_port} != arms_[arm_of[peer]].arm->tip())
        throw InputError({file, "", p->name(), "tip"}, "must connect to the tip of a spatial.serial_arm, not to '" +
                                                            comps[peer]->name() + "'");
      paths_.push_back({c, p, arm_of[peer], 3 * static_cast<int>(paths_.size())});
    }
    if (arms_.empty())
      throw InputError({file, "", comps[step.components.front()]->name(), ""}, "is a tip constraint without an arm");
    for (const auto& p : paths_) {
      if (p.path->drift().kind != DriftControl::Kind::Projection) continue;
      if (projecting_ == 0) mass_weighted_ = p.path->drift().mass_weighted;
      else if (mass_weighted_ != p.path->drift().mass_weighted)
        throw InputError({file, "", p.path->name(), "projection_metric"},
                         "differs from that of the other paths on the same arms (one projection serves them all)");
      ++projecting_;
    }
    name_ = monitor_offset_ == 0 ? "spatial" : "spatial" + std::to_string(block_);
  }

  // ------------------------------------------------------------ BlockSolver hooks

  void solve(const Model& model, Context& ctx) const override {
    const System S = evaluate(model, ctx);
    const int m = static_cast<int>(S.phi.size());
    Eigen::VectorXd b = S.b;
    if (ctx.analysis == Analysis::Dynamic) {
      for (const auto& p : paths_) {
        if (p.path->drift().kind != DriftControl::Kind::Baumgarte) continue;
        const Eval e = model.view(p.comp, ctx, Eval::Phase::Outputs);
        const double alpha = p.path->alpha(e), beta = p.path->beta(e);
        b.segment<3>(p.row) -= 2.0 * alpha * S.phidot.segment<3>(p.row) + beta * beta * S.phi.segment<3>(p.row);
      }
    }
    // M^{±1/2} from the eigen-decomposition of the symmetric positive definite M.
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(S.M);
    if (eig.info() != Eigen::Success || !(eig.eigenvalues().minCoeff() > 0.0)) {
      std::vector<std::string> names;
      for (const auto& a : arms_) names.push_back(a.arm->name());
      throw SimulationError(ctx.t, names, "the mass matrix is not positive definite (a joint moves no mass)");
    }
    const Eigen::MatrixXd Mh = eig.operatorSqrt(), Mih = eig.operatorInverseSqrt();
    const Eigen::VectorXd a = Mih * (Mih * S.Q);  // unconstrained accelerations M⁻¹Q
    const Eigen::MatrixXd B = S.A * Mih;          // A M^{-1/2}, m×n
    const Eigen::VectorXd y = pinv_solve(B, b - S.A * a);
    const Eigen::VectorXd qdd = a + Mih * y, Qc = Mh * y;
    // The tip forces λ with Aᵀλ = Q_c, i.e. (M^{-1/2}Aᵀ) λ = y, consistent by construction.
    const Eigen::VectorXd lambda = m ? pinv_solve(B.transpose(), y) : Eigen::VectorXd();
    ctx.algebraic_iterations += 1;

    for (size_t k = 0; k < arms_.size(); ++k) {
      Eval e = model.view(arms_[k].comp, ctx, Eval::Phase::Outputs);
      arms_[k].arm->publish(e, S.arms[k], qdd.segment(arms_[k].offset, arms_[k].arm->joint_count()),
                            Qc.segment(arms_[k].offset, arms_[k].arm->joint_count()));
    }
    for (const auto& p : paths_) {
      Eval e = model.view(p.comp, ctx, Eval::Phase::Outputs);
      p.path->set_force(e, lambda.segment<3>(p.row));
      p.path->calc_outputs(e);
    }
    // Once more, now that the tips' forces are known: the arms' residuals read them.
    for (size_t k = 0; k < arms_.size(); ++k) {
      Eval e = model.view(arms_[k].comp, ctx, Eval::Phase::Outputs);
      arms_[k].arm->publish(e, S.arms[k], qdd.segment(arms_[k].offset, arms_[k].arm->joint_count()),
                            Qc.segment(arms_[k].offset, arms_[k].arm->joint_count()));
    }
    ctx.monitors[monitor_offset_] = m ? S.phi.norm() : 0.0;
    ctx.monitors[monitor_offset_ + 1] = m ? S.phidot.norm() : 0.0;
  }

  // Assembly onto the paths at the start: Newton with minimum-norm steps from the
  // netlist's initial joint values (which pick the branch: elbow up or down), then the
  // rates onto the paths' velocities.
  void initialize(const Model& model, Context& ctx) const override {
    std::vector<int> rows = selected([](const DriftControl& d) { return d.assemble; });
    if (rows.empty()) return;
    const double tolerance = 1e-10;  // m; Newton then carries on to rounding level
    double best = std::numeric_limits<double>::infinity();
    int iterations = 0;
    bool moved = false;
    for (;; ++iterations) {
      const System S = evaluate(model, ctx);
      const Eigen::VectorXd phi = take(S.phi, rows);
      const double norm = phi.lpNorm<Eigen::Infinity>();
      if (norm <= 1e-3 * tolerance || (norm <= tolerance && norm >= 0.5 * best)) break;
      best = std::min(best, norm);
      if (iterations == 50 || !std::isfinite(norm)) {
        std::ostringstream msg;
        msg.precision(3);
        msg << "cannot put the arm's tip on its path: after " << iterations << " Newton iterations |Φ| = " << norm
            << " m (is the path within reach? check the initial joint values)";
        throw SimulationError(ctx.t, path_names(), msg.str());
      }
      set_q(model, ctx, S.q - step(S, rows, phi), Eval::Phase::Initialize);
      moved = true;
    }
    const System S = evaluate(model, ctx);
    const Eigen::VectorXd rate = take(S.phidot, rows);
    if (rate.lpNorm<Eigen::Infinity>() > 1e-13) {
      set_qd(model, ctx, S.qd - step(S, rows, rate), Eval::Phase::Initialize);
      moved = true;
    }
    if (moved) {
      std::ostringstream msg;
      msg.precision(3);
      msg << "tip put on its path in " << iterations << " Newton iteration(s) (|Φ| = " << take(S.phi, rows).norm()
          << " m); rates put on the path's velocity (|Φ̇| was " << rate.norm() << " m/s)";
      ctx.log_event(ctx.t, name_, msg.str());
    }
  }

  bool projects() const override { return projecting_ > 0; }

  bool project(const Model& model, Context& ctx) const override {
    std::vector<int> rows = selected([](const DriftControl& d) { return d.kind == DriftControl::Kind::Projection; });
    double tolerance = std::numeric_limits<double>::infinity();
    int iterations = 1;
    for (const auto& p : paths_) {
      if (p.path->drift().kind != DriftControl::Kind::Projection) continue;
      const Eval e = model.view(p.comp, ctx, Eval::Phase::Project);
      tolerance = std::min(tolerance, p.path->projection_tolerance(e));
      iterations = std::max(iterations, p.path->drift().iterations);
    }
    System S = evaluate(model, ctx);
    if (take(S.phi, rows).lpNorm<Eigen::Infinity>() <= tolerance &&
        take(S.phidot, rows).lpNorm<Eigen::Infinity>() <= tolerance)
      return false;
    // q ← q − P Φ, a few Gauss–Newton iterations (seed 002: one or two suffice).
    for (int it = 0; it < iterations; ++it) {
      const Eigen::VectorXd phi = take(S.phi, rows);
      if (phi.lpNorm<Eigen::Infinity>() <= tolerance) break;
      set_q(model, ctx, S.q - step(S, rows, phi), Eval::Phase::Project);
      S = evaluate(model, ctx);
    }
    // q̇ ← q̇ − P (A q̇ − ν) at the corrected q.
    set_qd(model, ctx, S.qd - step(S, rows, take(S.phidot, rows)), Eval::Phase::Project);
    return true;
  }

  std::vector<MonitorSpec> monitors() const override {
    return {{name_ + ".constraint_norm", "m"}, {name_ + ".constraint_rate_norm", "m/s"}};
  }

  std::string describe(const Model& model, const Context& ctx_in) const override {
    Context ctx = ctx_in;
    const System S = evaluate(model, ctx);
    std::ostringstream out;
    out << "Spatial arms (Udwadia–Kalaba): " << arms_.size() << " arm(s), " << joints_ << " joint coordinates, "
        << paths_.size() << " tip path(s) (" << S.phi.size() << " equations)\n";
    if (S.A.rows() > 0) {
      Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(S.A);
      out << "  rank of A = J at the initial pose: " << cod.rank() << " → free joint motions: " << joints_ - cod.rank()
          << "\n";
    }
    for (const auto& p : paths_) {
      const DriftControl& d = p.path->drift();
      const Eval e = model.view(p.comp, ctx, Eval::Phase::Outputs);
      out << "  path '" << p.path->name() << "': drift control "
          << (d.kind == DriftControl::Kind::None        ? std::string("none")
              : d.kind == DriftControl::Kind::Baumgarte ? "Baumgarte α = " + std::to_string(p.path->alpha(e)) +
                                                              ", β = " + std::to_string(p.path->beta(e))
                                                        : std::string("projection (") +
                                                              (d.mass_weighted ? "mass-weighted" : "A⁺") + ")")
          << "\n";
    }
    return out.str();
  }

 private:
  struct ArmRef {
    int comp;
    const SerialArm* arm;
    int offset;  // its first column
  };
  struct PathRef {
    int comp;
    const TipPath* path;
    int arm;  // index in arms_
    int row;  // its first equation
  };

  System evaluate(const Model& model, Context& ctx) const {
    System S;
    const int n = joints_, m = 3 * static_cast<int>(paths_.size());
    S.M = Eigen::MatrixXd::Zero(n, n);
    S.A = Eigen::MatrixXd::Zero(m, n);
    S.Q.resize(n);
    S.q.resize(n);
    S.qd.resize(n);
    S.phi.resize(m);
    S.phidot.resize(m);
    S.b.resize(m);
    for (const auto& a : arms_) {
      const Eval e = model.view(a.comp, ctx, Eval::Phase::Outputs);
      const int nj = a.arm->joint_count();
      S.q.segment(a.offset, nj) = a.arm->positions(e);
      S.qd.segment(a.offset, nj) = a.arm->velocities(e);
      S.arms.push_back(spatial::dynamics(a.arm->chain(), S.q.segment(a.offset, nj), S.qd.segment(a.offset, nj)));
      S.M.block(a.offset, a.offset, nj, nj) = S.arms.back().M;
      S.Q.segment(a.offset, nj) = -S.arms.back().bias;
    }
    for (const auto& p : paths_) {
      const ArmRef& a = arms_[p.arm];
      const ChainDynamics& d = S.arms[p.arm];
      const PathPoint target = p.path->target(ctx.t);
      S.A.block(p.row, a.offset, 3, a.arm->joint_count()) = d.pose.J;
      S.phi.segment<3>(p.row) = d.pose.tip - target.x;
      S.phidot.segment<3>(p.row) = d.tip_velocity - target.v;
      S.b.segment<3>(p.row) = target.a - d.tip_acceleration0;
    }
    return S;
  }

  template <class Pred>
  std::vector<int> selected(Pred pred) const {
    std::vector<int> rows;
    for (const auto& p : paths_)
      if (pred(p.path->drift()))
        for (int k = 0; k < 3; ++k) rows.push_back(p.row + k);
    return rows;
  }
  static Eigen::VectorXd take(const Eigen::VectorXd& v, const std::vector<int>& rows) {
    Eigen::VectorXd out(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) out[i] = v[rows[i]];
    return out;
  }

  static Eigen::MatrixXd rows_of(const Eigen::MatrixXd& A, const std::vector<int>& rows) {
    Eigen::MatrixXd out(rows.size(), A.cols());
    for (size_t i = 0; i < rows.size(); ++i) out.row(i) = A.row(rows[i]);
    return out;
  }

  // The correction P r of the selected rows: A⁺ r, or M⁻¹Aᵀ(AM⁻¹Aᵀ)⁺ r (mass-weighted:
  // the step of least kinetic-energy norm). A pseudo-inverse throughout, so a singular
  // pose gives the least-squares step rather than a failure.
  Eigen::VectorXd step(const System& S, const std::vector<int>& rows, const Eigen::VectorXd& r) const {
    const Eigen::MatrixXd A = rows_of(S.A, rows);
    if (!mass_weighted_) return pinv_solve(A, r);
    const Eigen::LDLT<Eigen::MatrixXd> M(S.M);
    const Eigen::MatrixXd MiAt = M.solve(A.transpose());
    return MiAt * pinv_solve(A * MiAt, r);
  }

  void set_q(const Model& model, Context& ctx, const Eigen::VectorXd& q, Eval::Phase phase) const {
    for (const auto& a : arms_) {
      Eval e = model.view(a.comp, ctx, phase);
      a.arm->set_positions(e, q.segment(a.offset, a.arm->joint_count()));
    }
  }
  void set_qd(const Model& model, Context& ctx, const Eigen::VectorXd& qd, Eval::Phase phase) const {
    for (const auto& a : arms_) {
      Eval e = model.view(a.comp, ctx, phase);
      a.arm->set_velocities(e, qd.segment(a.offset, a.arm->joint_count()));
    }
  }
  std::vector<std::string> path_names() const {
    std::vector<std::string> names;
    for (const auto& p : paths_) names.push_back(p.path->name());
    return names;
  }

  int block_;
  int monitor_offset_;
  std::string name_;
  std::vector<ArmRef> arms_;
  std::vector<PathRef> paths_;
  int joints_ = 0;
  int projecting_ = 0;
  bool mass_weighted_ = false;
};

}  // namespace

const BlockSolverFactory& arm_solver_factory() {
  static const BlockSolverFactoryOf<ArmSolver> factory("spatial arm (Udwadia–Kalaba)");  // stateless
  return factory;
}

}  // namespace jourdain::spatial
