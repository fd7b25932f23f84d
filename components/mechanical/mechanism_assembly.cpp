// Assembly and projection (mechanism_assembly.hpp; seed 002 eqs. (17)–(18)).
#include "mechanism_assembly.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <tuple>

#include "formulation.hpp"

namespace jourdain::mechanical {

int assemble(const MechanismEval& me, const Formulation& formulation, Eval::Phase phase, double tolerance,
             double limit, const std::string& failure) {
  const MechanismSystem& system = me.system;
  const int m = system.equations();
  int iterations = 0, stalls = 0;
  double best = std::numeric_limits<double>::infinity();
  const int max_iterations = 50;
  for (;; ++iterations) {
    me.publish_kinematics();
    me.evaluate();
    const Eigen::VectorXd& phi = me.ws.state.phi;
    const double norm = m ? phi.lpNorm<Eigen::Infinity>() : 0.0;
    // Down to rounding (Newton converges quadratically), or stalled there.
    if (norm <= 1e-3 * tolerance || (norm <= tolerance && norm >= 0.5 * best)) break;
    // No longer halving: a residual along the singular directions of Φ_q near a singular
    // configuration, which minimum-norm steps reduce slowly (a regularized formulation's
    // steps barely at all). It is accepted up to `limit`.
    stalls = norm >= 0.5 * best ? stalls + 1 : 0;
    best = std::min(best, norm);
    if (iterations == max_iterations || !std::isfinite(norm) || stalls >= 3) {
      if (norm <= limit) break;
      // The three largest violations, by |Φ| then by name.
      std::vector<std::tuple<double, std::string, int>> worst;
      for (int i = 0; i < m; ++i) worst.emplace_back(std::abs(phi[i]), system.equation(i).equation_name, i);
      std::sort(worst.rbegin(), worst.rend());
      std::ostringstream msg;
      msg.precision(3);
      std::vector<int> named;
      msg << failure << ": after " << iterations << " Newton iterations the largest violations are";
      for (size_t k = 0; k < std::min<size_t>(3, worst.size()); ++k) {
        msg << (k ? "," : "") << " " << std::get<1>(worst[k]) << " |Φ| = " << std::get<0>(worst[k]);
        named.push_back(std::get<2>(worst[k]));
      }
      msg << " (check the points and the initial poses)";
      throw SimulationError(me.ctx.t, system.component_names(named), msg.str());
    }
    // Φ(q + δ) ≈ Φ + Φ_q δ = 0.
    system.add_to_positions(me.model, me.ctx, phase, formulation.minimum_norm(me, -phi));
  }
  return iterations;
}

double project_velocities(const MechanismEval& me, const Formulation& formulation, Eval::Phase phase) {
  if (me.system.equations() == 0) return 0.0;
  double moved = 0.0;
  // A regularized formulation's correction removes most of Φ̇, not all: a second pass
  // takes the rest down to rounding. Always two, so that the projected velocities are a
  // smooth function of the state (an implicit method's error test sees any jump).
  for (int pass = 0; pass < 2; ++pass) {
    me.publish_kinematics();
    me.evaluate();
    const Eigen::VectorXd dv = formulation.minimum_norm(me, -me.ws.state.phidot);
    me.system.add_to_velocities(me.model, me.ctx, phase, dv);
    moved += dv.norm();
  }
  me.publish_kinematics();
  me.evaluate();
  return moved;
}

}  // namespace jourdain::mechanical
