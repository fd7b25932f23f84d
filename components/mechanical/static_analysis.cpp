// Static analysis (static_analysis.hpp): Gauss–Newton on the stacked residual
// r(q) = [Φ(q, t); M q̈(q)] (m + n) with a finite-difference Jacobian, dense: static
// analyses are for mechanisms of moderate size. Where it fails from the initial pose, a
// globalized search (pseudo-transient continuation along the constraints, below) brings
// the mechanism near an equilibrium and Gauss–Newton finishes from there.
#include "static_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

namespace jourdain::mechanical {

namespace {

// The residual r(q) and its Jacobian at the mechanism's current time; each evaluation
// sets the bodies' positions and solves the block there.
class StaticResidual {
 public:
  StaticResidual(const MechanismEval& me, Eval::Phase phase, const std::function<void()>& solve)
      : me_(me), phase_(phase), solve_(solve), n_(me.system.coordinates()), m_(me.system.equations()) {}

  int coordinates() const { return n_; }
  int equations() const { return m_; }

  Eigen::VectorXd operator()(const Eigen::VectorXd& q) const {
    const MechanismSystem& system = me_.system;
    system.set_positions(me_.model, me_.ctx, phase_, q);
    solve_();
    Eigen::VectorXd r(m_ + n_);
    r.head(m_) = me_.ws.state.phi;
    for (size_t b = 0; b < system.bodies().size(); ++b) {
      const BodyRef& body = system.bodies()[b];
      Eval e = me_.model.view(body.comp, me_.ctx, phase_);
      const Vec3 a = body.body->acceleration(e);
      const double mass = body.body->mass(e);
      r.segment<3>(m_ + 3 * static_cast<Eigen::Index>(b)) << mass * a[0], mass * a[1], body.body->inertia(e) * a[2];
    }
    return r;
  }

  // Central differences: a one-sided step can miss a force that starts at the current
  // pose (a contact just touching).
  Eigen::MatrixXd jacobian(const Eigen::VectorXd& q) const {
    Eigen::MatrixXd J(m_ + n_, n_);
    for (int j = 0; j < n_; ++j) {
      const double h = 1e-7 * std::max(1.0, std::abs(q[j]));
      Eigen::VectorXd qp = q, qm = q;
      qp[j] += h;
      qm[j] -= h;
      J.col(j) = ((*this)(qp) - (*this)(qm)) / (2 * h);
    }
    return J;
  }

  // The diagonal of M (mass, mass, inertia per body).
  Eigen::VectorXd masses() const {
    Eigen::VectorXd d(n_);
    for (size_t b = 0; b < me_.system.bodies().size(); ++b) {
      const BodyRef& body = me_.system.bodies()[b];
      Eval e = me_.model.view(body.comp, me_.ctx, phase_);
      d.segment<3>(3 * static_cast<Eigen::Index>(b)) << body.body->mass(e), body.body->mass(e), body.body->inertia(e);
    }
    return d;
  }

 private:
  const MechanismEval& me_;
  Eval::Phase phase_;
  const std::function<void()>& solve_;
  int n_, m_;
};

// Gauss–Newton from q to ‖r‖ ≤ 1e-11 scale, each step halved until the residual
// decreases. Returns nullopt on success (q, r at the equilibrium), else why it failed.
std::optional<std::string> gauss_newton(const StaticResidual& residual, Eigen::VectorXd& q, Eigen::VectorXd& r,
                                        double scale) {
  const int max_iterations = 100;
  for (int it = 0;; ++it) {
    if (r.norm() <= 1e-11 * scale) return std::nullopt;
    if (it == max_iterations)
      return "unbalanced " + std::to_string(r.norm()) + " after " + std::to_string(it) + " Gauss-Newton iterations";
    const Eigen::MatrixXd J = residual.jacobian(q);
    const Eigen::VectorXd dq = J.colPivHouseholderQr().solve(-r);
    double step = 1.0;
    Eigen::VectorXd q1, r1;
    bool decreased = false;
    for (int k = 0; k < 40 && !decreased; ++k, step *= 0.5) {
      q1 = q + step * dq;
      r1 = residual(q1);
      decreased = r1.norm() < r.norm();
    }
    if (!decreased) {
      // Stalled: an equilibrium to the precision the residual allows, or none here.
      if (r.norm() <= 1e-7 * scale) return std::nullopt;
      return "unbalanced " + std::to_string(r.norm()) + ", no descent direction";
    }
    q = q1;
    r = r1;
  }
}

// An orthonormal basis of the null space of Φ_q (the tangent space of the constraints),
// from a column-pivoted QR of Φ_qᵀ: its trailing columns of Q.
Eigen::MatrixXd tangent_basis(const Eigen::MatrixXd& phi_q) {
  const Eigen::Index n = phi_q.cols();
  if (phi_q.rows() == 0) return Eigen::MatrixXd::Identity(n, n);
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(phi_q.transpose());
  qr.setThreshold(1e-9);
  const Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(n, n);
  return Q.rightCols(n - qr.rank());
}

// The globalized search, pseudo-transient continuation (Kelley & Keyes, SIAM J. Numer.
// Anal. 35, 1998) on the overdamped motion M q' = F(q), F = M q̈(q) at rest: along the
// constraints, in the mass metric, the steepest descent of the potential energy, which
// ends in a minimum (a stable equilibrium) and walks away from maxima, where Gauss–Newton
// on ‖r‖ stalls wherever ‖F‖ itself is stationary (a pendulum held horizontal: |F| ∝
// cos θ is largest there, its stiffness zero). Each step is implicit Euler over a
// pseudo-time Δt (s², as q' = q̈), restricted to the constraints' tangent (N, Φ_q N = 0)
// plus the minimum-norm correction of Φ:
//
//     δq = δq_Φ + N y,   Φ_q δq_Φ = −Φ,   Nᵀ (M/Δt − K) (δq_Φ + N y) = Nᵀ F,   K = ∂F/∂q,
//
// Δt growing as |q̈| falls (switched evolution relaxation, Δt ← Δt |q̈_old|/|q̈_new|) so
// the steps become Newton's near the equilibrium, and cut when a step would move a
// coordinate by more than 0.2 (m or rad): a short stretch of the motion at a time.
// Chosen over an energy line search because the model gives forces, not a potential (a
// follower load has none), and over a damped dynamic run to rest because Δt adapts by
// itself. Stops once ‖r‖ ≤ `handover` (Gauss–Newton finishes) or throws.
void pseudo_transient(const StaticResidual& residual, Eigen::VectorXd& q, Eigen::VectorXd& r, double handover,
                      const std::string& newton_failure, double t, const std::string& name) {
  const int m = residual.equations(), n = residual.coordinates();
  const Eigen::MatrixXd mass = residual.masses().asDiagonal();
  const Eigen::VectorXd inverse_mass = residual.masses().cwiseInverse();
  const double max_change = 0.2;
  const int max_steps = 400, max_solves = 2000;
  double dt = 0.0, previous = 0.0;
  int steps = 0, solves = 0;
  while (steps < max_steps && solves < max_solves) {
    if (r.norm() <= handover) return;
    const Eigen::MatrixXd J = residual.jacobian(q);
    const Eigen::MatrixXd phi_q = J.topRows(m), K = J.bottomRows(n);
    const Eigen::MatrixXd N = tangent_basis(phi_q);
    const Eigen::VectorXd phi = r.head(m), F = r.tail(n);
    const Eigen::VectorXd dq_phi =
        m > 0 ? Eigen::VectorXd(phi_q.completeOrthogonalDecomposition().solve(-phi)) : Eigen::VectorXd::Zero(n);
    // The acceleration at rest along the tangent, whose change a step follows.
    const double acceleration = (N.transpose() * F.cwiseProduct(inverse_mass)).norm();
    if (N.cols() == 0 || acceleration == 0.0) break;
    if (dt == 0.0) dt = 0.5 * max_change / acceleration;  // the first step: about half the largest change
    else dt *= std::clamp(previous / acceleration, 0.1, 10.0);
    previous = acceleration;
    for (;;) {
      if (++solves > max_solves) break;
      const Eigen::MatrixXd stiff = mass / dt - K;
      const Eigen::VectorXd y =
          (N.transpose() * stiff * N).colPivHouseholderQr().solve(N.transpose() * (F - stiff * dq_phi));
      const Eigen::VectorXd dq = dq_phi + N * y;
      double change = 0.0;
      for (int j = 0; j < n; ++j) change = std::max(change, std::abs(dq[j]) / std::max(1.0, std::abs(q[j])));
      if (!std::isfinite(change) || change > max_change) {
        dt *= std::isfinite(change) ? std::max(0.1, 0.5 * max_change / change) : 0.1;
        continue;
      }
      q += dq;
      r = residual(q);
      ++steps;
      break;
    }
  }
  throw SimulationError(t, {name},
                        "no static equilibrium found: Gauss-Newton from the initial pose failed (" + newton_failure +
                            "), and pseudo-transient continuation toward rest did not come to rest either (unbalanced " +
                            std::to_string(r.norm()) + " after " + std::to_string(steps) +
                            " steps: a load nothing resists, or a driver that pushes without end)");
}

// The stiffness along the constraints, S = −Nᵀ K N symmetrized: its smallest eigenvalue
// over its largest (negative: an unstable equilibrium, a potential maximum or saddle).
double relative_stiffness(const StaticResidual& residual, const Eigen::VectorXd& q) {
  const int m = residual.equations(), n = residual.coordinates();
  const Eigen::MatrixXd J = residual.jacobian(q);
  const Eigen::MatrixXd N = tangent_basis(J.topRows(m));
  if (N.cols() == 0) return 1.0;
  const Eigen::MatrixXd S = -N.transpose() * J.bottomRows(n) * N;
  const Eigen::VectorXd k = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(0.5 * (S + S.transpose())).eigenvalues();
  const double largest = k.cwiseAbs().maxCoeff();
  return largest > 0 ? k.minCoeff() / largest : 1.0;
}

}  // namespace

void find_equilibrium(const MechanismEval& me, Eval::Phase phase, const std::function<void()>& solve,
                      const std::string& name) {
  const MechanismSystem& system = me.system;
  for (const auto& b : system.bodies()) {
    Eval e = me.model.view(b.comp, me.ctx, phase);
    b.body->set_velocity(e, Vec3::Zero());
  }
  const StaticResidual residual(me, phase, solve);
  const Eigen::VectorXd q0 = system.positions(me.model, me.ctx, phase);
  Eigen::VectorXd q = q0, r = residual(q);
  const double scale = std::max(1.0, r.norm());
  if (const auto failure = gauss_newton(residual, q, r, scale)) {
    // Far from an equilibrium, or where the restoring stiffness vanishes: the globalized
    // search from the initial pose, then Gauss–Newton from near the equilibrium it finds.
    q = q0;
    r = residual(q);
    for (double handover = 1e-4 * scale;; handover *= 1e-2) {
      pseudo_transient(residual, q, r, handover, *failure, me.ctx.t, name);
      Eigen::VectorXd q1 = q, r1 = r;
      if (!gauss_newton(residual, q1, r1, scale)) {
        q = q1;
        r = r1;
        break;
      }
      if (handover < 1e-12 * scale) {
        throw SimulationError(me.ctx.t, {name}, "no static equilibrium found: Gauss-Newton stalls near rest (" +
                                                     *failure + ")");
      }
    }
    // Which equilibrium, and whether it holds: said once per run in the event log.
    const double stiffness = relative_stiffness(residual, q);
    Eigen::Index moved = 0;
    (q - q0).cwiseAbs().maxCoeff(&moved);
    const BodyRef& body = system.bodies()[static_cast<size_t>(moved / 3)];
    const std::string coordinate = me.model.components()[static_cast<size_t>(body.comp)]->name() +
                                   (moved % 3 == 0 ? ".x" : moved % 3 == 1 ? ".y" : ".theta");
    std::ostringstream msg;
    msg.precision(4);
    msg << "static equilibrium found by pseudo-transient continuation toward rest (Gauss-Newton from the initial pose "
           "failed: "
        << *failure << "); it moved " << coordinate << " most, by " << q[moved] - q0[moved] << "; "
        << (stiffness > 1e-9 ? "stable (the stiffness along the constraints is positive definite)"
                             : stiffness < -1e-9 ? "unstable (a negative stiffness along the constraints)"
                                                 : "neutral in some direction (zero stiffness along the constraints)");
    me.ctx.log_event(me.ctx.t, name, msg.str());
  }
  system.set_positions(me.model, me.ctx, phase, q);
}

}  // namespace jourdain::mechanical
