// Method dispatch through the SolverRegistry (simulate.hpp).
#include "jourdain/solvers/simulate.hpp"

#include <cmath>

#include "internal.hpp"
#include "jourdain/solvers/solver_registry.hpp"

namespace jourdain {

void simulate(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer, SolverStats& stats,
              const SolverRegistry& solvers) {
  const InputLocation where{"", "/solver", "", ""};
  const SolverMethod& method = solvers.get(settings.method, {"", "/solver/method", "", ""});
  // Library callers reach here without run_netlist: the same checks, once here. A
  // method reads its own settings from `extra` without checking them again.
  SolverSettings s = settings;
  detail::complete_extra_settings(s, solvers.schema(method), where);
  check_solver_bounds(s, where, solvers);
  stats.method = s.method;
  stats.last_time = ctx.t;
  model.observe(ctx);
  observer.output(ctx);  // the initial point
  method.integrate(model, ctx, s, observer, stats);
}

void simulate(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer, SolverStats& stats) {
  simulate(model, ctx, settings, observer, stats, SolverRegistry());
}

void analyze_over_time(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer,
                       SolverStats& stats) {
  // No method integrates here: only the output times' bounds apply (whatever method the
  // settings name, a plugin's too).
  detail::check_shared_bounds(settings, {"", "/solver", "", ""});
  stats.method = to_string(ctx.analysis);
  stats.last_time = ctx.t;
  observer.output(ctx);  // the initial point, as initialize() left it
  detail::OutputClock clock(settings);
  // Zero crossings are watched from one output time to the next (at that resolution: an
  // analysis has no steps in between): their owners react as in a simulation, e.g. a
  // guard that stops the run when a cylinder leaves its stroke.
  const bool events = model.zero_crossing_count() > 0;
  Eigen::VectorXd g0;
  if (events) {
    model.update_zero_crossings(ctx);
    g0 = ctx.zero_crossings;
  }
  for (clock.next = 1; !clock.done(); ++clock.next) {
    ctx.t = clock.upcoming();
    model.analyze(ctx);
    if (events) {
      ++stats.zero_crossing_evaluations;
      model.update_zero_crossings(ctx);
      if (auto triggered = model.crossed(g0, ctx.zero_crossings); !triggered.empty()) {
        stats.events += static_cast<long>(triggered.size());
        model.handle_zero_crossings(ctx, triggered);
      }
      g0 = ctx.zero_crossings;
    }
    ++stats.steps;
    stats.last_time = ctx.t;
    observer.output(ctx);
    observer.progress(ctx.t);
  }
  stats.algebraic_iterations = ctx.algebraic_iterations;
}

}  // namespace jourdain
