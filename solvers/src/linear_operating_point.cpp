// The operating point of a linear analysis (linear.hpp): the initial state, the state a
// run reaches at a time, or an equilibrium found by Newton's method along the invariants
// and, where that fails, by pseudo-transient continuation toward rest.
#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include <Eigen/Dense>

#include "internal.hpp"
#include "linear_internal.hpp"

namespace jourdain {

using detail::Partition;
using detail::partition;
using detail::scaled_residual;
using detail::settle;
using detail::tangent_jacobians;

namespace {

// Throws Interrupted when the caller asks to stop (a Ctrl-C): checked at every step of
// the searches for an operating point, which may take long.
void check_stop(const std::function<bool()>& stop_requested, double t) {
  if (stop_requested && stop_requested()) throw detail::Interrupted(t, "interrupted on the way to the operating point");
}

// Records nothing; stops the integration when the caller asks (a Ctrl-C on the way to a
// time's operating point).
class SilentObserver final : public Observer {
 public:
  explicit SilentObserver(const std::function<bool()>& stop_requested) : stop_requested_(stop_requested) {}
  void output(const Context&) override {}
  void progress(double t) override { check_stop(stop_requested_, t); }

 private:
  const std::function<bool()>& stop_requested_;
};

// Newton's method on ẋ_I(z) = 0 along the invariant manifold: a step δz solves
// A δz = −ẋ_I in the least-squares, minimum-norm sense (neutral directions such as a free
// body's position stay where they are), x ← x + T δz, then the block solvers bring x back
// onto their invariants. Returns its iterations; throws SimulationError when it stalls
// away from rest or does not converge. ctx is settled on entry.
int newton_equilibrium(const Model& model, Context& ctx, const std::function<bool()>& stop_requested) {
  const int max_iterations = 50;
  for (int it = 0; it < max_iterations; ++it) {
    check_stop(stop_requested, ctx.t);
    const Partition p = partition(model, ctx);
    if (p.independent.empty()) return it;
    Eigen::MatrixXd A, C;
    tangent_jacobians(model, ctx, p, {}, A, C);
    Eigen::VectorXd f(static_cast<Eigen::Index>(p.independent.size()));
    for (size_t i = 0; i < p.independent.size(); ++i) f[static_cast<Eigen::Index>(i)] = ctx.xdot[p.independent[i]];
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(A);
    cod.setThreshold(1e-10);
    const Eigen::VectorXd dz = cod.solve(-f);
    bool small = true;
    for (size_t i = 0; i < p.independent.size(); ++i)
      small = small && std::abs(dz[static_cast<Eigen::Index>(i)]) <=
                           1e-10 * std::max(1.0, std::abs(ctx.x[p.independent[i]]));
    ctx.x += p.basis * dz;
    settle(model, ctx);
    if (small) {
      const double res = scaled_residual(ctx, p.independent);
      if (res > 1e-6) {
        std::ostringstream msg;
        msg << "Newton's method stalls with |ẋ| = " << res << " where its Jacobian is singular in the direction it needs";
        throw SimulationError(ctx.t, {}, msg.str());
      }
      return it + 1;
    }
  }
  throw SimulationError(ctx.t, {}, "Newton's method did not converge in " + std::to_string(max_iterations) +
                                       " iterations");
}

// The globalized search: pseudo-transient continuation (Kelley & Keyes, SIAM J. Numer.
// Anal. 35, 1998) toward rest. Implicit Euler steps in a pseudo-time τ,
//
//     (I/τ − G) δw = g(w),
//
// follow a motion that ends at rest, with τ small where that motion turns (each step a
// short stretch of it) and growing as g shrinks (switched evolution relaxation:
// τ ← τ ‖g_old‖/‖g_new‖), until the step is Newton's. Which motion: a model's own
// dynamics do not come to rest when nothing dissipates (an undamped pendulum swings
// forever, and implicit Euler's numerical damping fades as τ shrinks), so a mechanism's
// coordinates follow the overdamped motion instead, q' = q̈(q, q̇ = 0) with q̇ held at 0:
// along the constraints, in the mass metric, the steepest descent of the potential
// energy, which ends in a minimum (a stable equilibrium) and walks away from maxima.
// Other states (pressures, filters, integrators) follow their own first-order dynamics.
// Chosen over an energy line search because the model gives forces, not a potential (a
// follower load has none), and over a damped run to rest because τ adapts by itself and
// ends in Newton's quadratic convergence. Near rest (|ẋ| ≤ 1e-4) Newton's method
// finishes from there. Returns the steps; throws SimulationError when none comes to rest.
int pseudo_transient_equilibrium(const Model& model, Context& ctx, const std::string& newton_failure,
                                 const std::function<bool()>& stop_requested) {
  const int n = model.state_count();
  const auto pairs = model.coordinate_pairs(ctx);
  std::vector<int> rate_of(static_cast<size_t>(n), -1);
  std::vector<bool> is_rate(static_cast<size_t>(n), false);
  for (const auto& [q, v] : pairs) {
    rate_of[static_cast<size_t>(q)] = v;
    is_rate[static_cast<size_t>(v)] = true;
  }
  auto at_rest = [&](Context& c) {
    for (const auto& pr : pairs) c.x[pr.second] = 0.0;
    settle(model, c);
  };
  at_rest(ctx);
  // A step moves no unknown by more than this fraction of its scale max(1, |w|) (rad or m
  // for a mechanism): each step a short stretch of the motion, turns followed.
  const double max_change = 0.2;
  const int max_steps = 400, max_solves = 2000;
  double tau = 0.0, previous = 0.0, handover = 1e-4, res = 0.0;
  int steps = 0, solves = 0;
  while (steps < max_steps && solves < max_solves) {
    check_stop(stop_requested, ctx.t);
    const Partition p = partition(model, ctx);
    if (p.independent.empty()) return steps;
    res = scaled_residual(ctx, p.independent);
    if (res <= handover) {
      Context trial = ctx;
      try {
        newton_equilibrium(model, trial, stop_requested);
        ctx = trial;
        return steps;
      } catch (const SimulationError&) {
        handover = res / 100.0;  // not near enough yet
      }
    }
    Eigen::MatrixXd A, C;
    tangent_jacobians(model, ctx, p, {}, A, C);
    std::vector<int> slot(static_cast<size_t>(n), -1);
    for (size_t i = 0; i < p.independent.size(); ++i) slot[static_cast<size_t>(p.independent[i])] = static_cast<int>(i);
    // The unknowns: the independent states that are not rates (rates stay 0). A
    // coordinate moves with its rate's derivative, the acceleration at rest.
    std::vector<int> unknowns, rows;
    for (size_t i = 0; i < p.independent.size(); ++i) {
      const int s = p.independent[i];
      if (is_rate[static_cast<size_t>(s)]) continue;
      const int rate = rate_of[static_cast<size_t>(s)];
      unknowns.push_back(static_cast<int>(i));
      rows.push_back(rate >= 0 && slot[static_cast<size_t>(rate)] >= 0 ? slot[static_cast<size_t>(rate)] : static_cast<int>(i));
    }
    const auto nw = static_cast<Eigen::Index>(unknowns.size());
    Eigen::VectorXd g(nw), scale(nw);
    Eigen::MatrixXd G(nw, nw);
    for (Eigen::Index a = 0; a < nw; ++a) {
      const int row = rows[static_cast<size_t>(a)];
      g[a] = ctx.xdot[p.independent[static_cast<size_t>(row)]];
      for (Eigen::Index b = 0; b < nw; ++b) G(a, b) = A(row, unknowns[static_cast<size_t>(b)]);
      scale[a] = std::max(1.0, std::abs(ctx.x[p.independent[static_cast<size_t>(unknowns[static_cast<size_t>(a)])]]));
    }
    const double g_norm = g.cwiseQuotient(scale).lpNorm<Eigen::Infinity>();
    if (nw == 0 || g_norm == 0.0) break;  // nothing moves the state, which is not at rest
    if (tau == 0.0) tau = 0.5 * max_change / g_norm;  // the first step: half the largest change
    else tau *= std::clamp(previous / g_norm, 0.25, 4.0);
    previous = g_norm;
    for (;;) {
      if (++solves > max_solves) break;
      const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(nw, nw) / tau - G;
      const Eigen::VectorXd dw = M.colPivHouseholderQr().solve(g);
      const double change = dw.cwiseQuotient(scale).lpNorm<Eigen::Infinity>();
      if (!std::isfinite(change) || change > max_change) {
        tau *= std::isfinite(change) ? std::max(0.1, 0.5 * max_change / change) : 0.1;
        continue;
      }
      Eigen::VectorXd dz = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(p.independent.size()));
      for (Eigen::Index a = 0; a < nw; ++a) dz[unknowns[static_cast<size_t>(a)]] = dw[a];
      Context trial = ctx;
      trial.x += p.basis * dz;
      try {
        at_rest(trial);
      } catch (const SimulationError&) {  // a step the invariants cannot take back: shorter
        tau *= 0.25;
        continue;
      }
      ctx = trial;
      ++steps;
      break;
    }
  }
  std::ostringstream msg;
  msg << "no equilibrium found: Newton's method from the initial state failed (" << newton_failure
      << "), and pseudo-transient continuation toward rest did not come to rest either (|ẋ| = " << res << " after "
      << steps << " steps: a load nothing resists, a source that keeps flowing); choose another operating point: "
         "\"at\": \"initial\" or a time";
  throw SimulationError(ctx.t, {}, msg.str());
}

// How far `to` lies from `from`: the largest change of a state, named.
std::string largest_move(const Model& model, const Context& from, const Context& to) {
  Eigen::Index worst = 0;
  const Eigen::VectorXd change = (to.x - from.x).cwiseAbs();
  if (change.size() == 0) return "no state moved";
  change.maxCoeff(&worst);
  std::ostringstream text;
  text.precision(4);
  text << "largest change " << model.state_names()[static_cast<size_t>(worst)] << " by " << to.x[worst] - from.x[worst];
  return text.str();
}

}  // namespace

void reach_operating_point(const Model& model, Context& ctx, const LinearSettings& settings,
                           const SolverSettings& solver, const SolverRegistry& solvers, std::string* how,
                           const std::function<bool()>& stop_requested) {
  switch (settings.at) {
    case LinearSettings::At::Initial:
      model.evaluate(ctx);
      if (how) *how = "the initial state";
      return;
    case LinearSettings::At::Time: {
      if (settings.time < ctx.t)
        throw InputError({"", "/linear/at", "", ""}, "the operating point's time is before the run's start (t_start = " +
                                                         std::to_string(ctx.t) + " s)");
      if (settings.time > ctx.t) {
        SolverSettings s = solver;
        s.t_end = settings.time;
        SilentObserver quiet(stop_requested);
        SolverStats stats;
        simulate(model, ctx, s, quiet, stats, solvers);
      }
      model.evaluate(ctx);
      if (how) {
        std::ostringstream text;
        text << "the state at t = " << settings.time << " s (" << solver.method << ")";
        *how = text.str();
      }
      return;
    }
    case LinearSettings::At::Equilibrium: {
      settle(model, ctx);
      if (partition(model, ctx).independent.empty()) {  // nothing free to move (no states, or all driven)
        if (how) *how = "the initial state: no independent state to bring to rest";
        return;
      }
      // Newton's method first: from a start near an equilibrium it converges in a few
      // iterations, to the nearest one. Where it fails (a start where the restoring
      // stiffness vanishes, an equilibrium far away), the globalized search below.
      const Context start = ctx;
      std::string newton_failure;
      try {
        const int iterations = newton_equilibrium(model, ctx, stop_requested);
        if (how) *how = "the equilibrium found in " + std::to_string(iterations) + " Newton iteration(s)";
        return;
      } catch (const SimulationError& e) {
        newton_failure = e.message();
      }
      ctx = start;
      const int steps = pseudo_transient_equilibrium(model, ctx, newton_failure, stop_requested);
      if (how) {
        std::ostringstream text;
        text.precision(4);
        text << "the equilibrium found by pseudo-transient continuation toward rest in " << steps
             << " step(s), then Newton's method (Newton's method alone failed from the initial state), "
             << largest_move(model, start, ctx) << " from the initial state";
        *how = text.str();
      }
      return;
    }
  }
}

}  // namespace jourdain
