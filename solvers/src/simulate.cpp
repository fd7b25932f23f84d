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
  stats.method = ctx.analysis;
  stats.last_time = ctx.t;
  observer.output(ctx);  // the initial point, as initialize() left it
  detail::OutputClock clock(settings);
  for (clock.next = 1; !clock.done(); ++clock.next) {
    ctx.t = clock.upcoming();
    model.analyze(ctx);
    ++stats.steps;
    stats.last_time = ctx.t;
    observer.output(ctx);
    observer.progress(ctx.t);
  }
  stats.algebraic_iterations = ctx.algebraic_iterations;
}

}  // namespace jourdain
