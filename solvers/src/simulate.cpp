// Method dispatch through the SolverRegistry (simulate.hpp).
#include "jourdain/solvers/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "internal.hpp"
#include "jourdain/solvers/solver_registry.hpp"

namespace jourdain {

namespace detail {

EventAccumulationGuard::EventAccumulationGuard(const Model& model, const SolverSettings& s)
    : model_(model),
      event_tolerance_(s.event_tolerance),
      last_time_(model.components().size(), -std::numeric_limits<double>::infinity()),
      run_length_(model.components().size(), 0) {}

void EventAccumulationGuard::after_events(const Context& ctx, const std::vector<int>& triggered) {
  const double t = ctx.t;
  const double resolution = std::max(100.0 * event_tolerance_, 1e-9 * std::max(1.0, std::abs(t)));
  std::vector<int> seen;  // components counted at this instant (several crossings are one event)
  for (int z : triggered) {
    const int c = model_.zero_crossings()[static_cast<size_t>(z)].component;
    if (std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
    seen.push_back(c);
    const size_t k = static_cast<size_t>(c);
    run_length_[k] = t - last_time_[k] <= resolution ? run_length_[k] + 1 : 0;
    last_time_[k] = t;
    if (run_length_[k] < kAccumulatedEvents) continue;
    std::ostringstream msg;
    msg.precision(3);
    msg << "events accumulate: " << kAccumulatedEvents << " events of this component in a row, each within " << resolution
        << " s of the one before (the last at its zero crossing '" << model_.zero_crossings()[static_cast<size_t>(z)].name
        << "'). Infinitely many events before a finite time (Zeno behaviour, like a bounce that is never allowed to "
           "come to rest) cannot be integrated through: let the component settle (a contact that comes to rest below "
           "some speed, a switching law with hysteresis)";
    throw SimulationError(t, {model_.components()[k]->name()}, msg.str());
  }
}

}  // namespace detail

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
    if (ctx.termination) break;  // a component ended the run here (Eval::terminate)
  }
  stats.algebraic_iterations = ctx.algebraic_iterations;
}

}  // namespace jourdain
