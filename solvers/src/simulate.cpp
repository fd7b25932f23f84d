// Method dispatch (simulate.hpp).
#include "jourdain/solvers/simulate.hpp"

#include <cmath>
#include <memory>

#include "explicit_driver.hpp"

namespace jourdain {
namespace detail {
std::unique_ptr<OneStepMethod> make_rk4();
std::unique_ptr<OneStepMethod> make_dopri5(const SolverSettings& s);
void integrate_cvode(const Model& model, Context& ctx, const SolverSettings& s, Observer& observer, SolverStats& stats);
}  // namespace detail

void simulate(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer, SolverStats& stats) {
  // Library callers reach here without run_netlist: the same bounds, checked once here.
  check_solver_bounds(settings, {"", "/solver", "", ""});
  stats.method = settings.method;
  stats.last_time = ctx.t;
  observer.output(ctx);  // the initial point
  if (settings.method == "bdf") {
    detail::integrate_cvode(model, ctx, settings, observer, stats);
    return;
  }
  auto method = settings.method == "rk4" ? detail::make_rk4() : detail::make_dopri5(settings);
  detail::integrate_explicit(*method, model, ctx, settings, observer, stats);
}

void analyze_over_time(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer,
                       SolverStats& stats) {
  check_solver_bounds(settings, {"", "/solver", "", ""});
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
