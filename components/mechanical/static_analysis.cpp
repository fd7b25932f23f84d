// Static analysis (static_analysis.hpp): Gauss–Newton on the stacked residual
// r(q) = [Φ(q, t); M q̈(q)] (m + n) with a finite-difference Jacobian, dense: static
// analyses are for mechanisms of moderate size.
#include "static_analysis.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

namespace jourdain::mechanical {

void find_equilibrium(const MechanismEval& me, Eval::Phase phase, const std::function<void()>& solve,
                      const std::string& name) {
  const MechanismSystem& system = me.system;
  const int n = system.coordinates(), m = system.equations();
  for (const auto& b : system.bodies()) {
    Eval e = me.model.view(b.comp, me.ctx, phase);
    b.body->set_velocity(e, Vec3::Zero());
  }
  auto residual = [&](const Eigen::VectorXd& q) {
    system.set_positions(me.model, me.ctx, phase, q);
    solve();
    Eigen::VectorXd r(m + n);
    r.head(m) = me.ws.state.phi;
    for (size_t b = 0; b < system.bodies().size(); ++b) {
      const BodyRef& body = system.bodies()[b];
      Eval e = me.model.view(body.comp, me.ctx, phase);
      const Vec3 a = body.body->acceleration(e);
      const double mass = body.body->mass(e);
      r.segment<3>(m + 3 * b) << mass * a[0], mass * a[1], body.body->inertia(e) * a[2];
    }
    return r;
  };
  Eigen::VectorXd q = system.positions(me.model, me.ctx, phase), r = residual(q);
  const double scale = std::max(1.0, r.norm());
  const int max_iterations = 100;
  for (int it = 0;; ++it) {
    if (r.norm() <= 1e-11 * scale) break;
    if (it == max_iterations)
      throw SimulationError(me.ctx.t, {name}, "no static equilibrium found near the initial pose (unbalanced " +
                                                  std::to_string(r.norm()) + " after " + std::to_string(it) +
                                                  " Gauss-Newton iterations)");
    // Central differences: a one-sided step can miss a force that starts at the current
    // pose (a contact just touching).
    Eigen::MatrixXd J(r.size(), n);
    for (int j = 0; j < n; ++j) {
      const double h = 1e-7 * std::max(1.0, std::abs(q[j]));
      Eigen::VectorXd qp = q, qm = q;
      qp[j] += h;
      qm[j] -= h;
      J.col(j) = (residual(qp) - residual(qm)) / (2 * h);
    }
    const Eigen::VectorXd dq = J.colPivHouseholderQr().solve(-r);
    // Halve the step until the residual decreases (far from equilibrium).
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
      if (r.norm() <= 1e-7 * scale) break;
      throw SimulationError(me.ctx.t, {name}, "no static equilibrium found near the initial pose (unbalanced " +
                                                  std::to_string(r.norm()) + ", no descent direction)");
    }
    q = q1;
    r = r1;
  }
  system.set_positions(me.model, me.ctx, phase, q);
}

}  // namespace jourdain::mechanical
