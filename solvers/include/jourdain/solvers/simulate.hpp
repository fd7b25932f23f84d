// Time integration of an assembled Model (solvers see nothing else).
//
// Methods: "rk4" (fixed step), "dopri5" (Dormand–Prince 5(4), error control, dense
// output), "bdf" (SUNDIALS CVODE: variable-order BDF with Newton iterations and a dense
// finite-difference Jacobian, for stiff models). All three locate zero crossings (to
// event_tolerance in time for the explicit methods; CVODE's own root finding for bdf),
// hand them to the components, and restart after a discrete change.
#pragma once

#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "jourdain/errors.hpp"
#include "jourdain/model.hpp"

namespace jourdain {

struct SolverSettings {
  std::string method = "dopri5";
  double t_start = 0.0;
  double t_end = 1.0;
  double rtol = 1e-6;
  double atol = 1e-9;
  double max_step = 0.0;         // 0: no limit beyond the span
  double initial_step = 0.0;     // 0: chosen automatically
  double step = 0.0;             // rk4: the fixed step; 0: output_interval / 10
  double output_interval = 0.0;  // 0: (t_end - t_start) / 500
  long max_steps = 50'000'000;   // accepted steps, a guard against a stalled run
  double event_tolerance = 1e-10;  // s: width of the bracket around a located event
  long max_output_rows = 10'000'000;  // a guard against an output that would fill the disk
};

// Reads the netlist's "solver" object; unknown keys and bad values are InputErrors.
SolverSettings solver_settings_from_json(const nlohmann::json& j, const InputLocation& where);
// Refuses, as bad input, settings that ask for more output rows than max_output_rows or
// (rk4) more fixed steps than max_steps: a typo in an interval must not fill the disk or
// run for days. Call it once t_end is final (after --t-end).
void check_solver_bounds(const SolverSettings& s, const InputLocation& where);
nlohmann::json to_json(const SolverSettings& s);

struct SolverStats {
  std::string method;
  long steps = 0;
  long rejected_steps = 0;
  long rhs_evaluations = 0;
  long jacobian_evaluations = 0;
  long nonlinear_iterations = 0;  // bdf: Newton iterations
  long zero_crossing_evaluations = 0;
  long events = 0;
  long algebraic_iterations = 0;  // Newton iterations in implicit blocks (model side)
  double last_time = 0.0;         // how far the run got
};
nlohmann::json to_json(const SolverStats& s);

// What the integrator reports while it runs.
class Observer {
 public:
  virtual ~Observer() = default;
  // A full evaluation at an output time, or just before / after an event.
  virtual void output(const Context& ctx) = 0;
  virtual void progress(double /*t*/) {}
};

// Integrates from ctx (initialized by the caller with model.initialize) to t_end.
// `stats` is updated as the run goes, so it holds what was done even when a
// SimulationError ends the run.
void simulate(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer, SolverStats& stats);

// A non-dynamic analysis (ctx.analysis: "kinematic" or "static"): at every output time
// from t_start to t_end, the block solvers that support it set their states (a
// mechanism's positions by Newton, its velocities and accelerations, or its static
// equilibrium) and the model is evaluated and recorded. ctx as for simulate().
void analyze_over_time(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer,
                       SolverStats& stats);

}  // namespace jourdain
