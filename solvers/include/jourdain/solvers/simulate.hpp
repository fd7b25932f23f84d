// Time integration of an assembled Model (solvers see nothing else).
//
// Methods come from a SolverRegistry (solver_registry.hpp). Built in: "rk4" (fixed step),
// "dopri5" (Dormand–Prince 5(4), error control, dense output), "bdf" (SUNDIALS CVODE:
// variable-order BDF with Newton iterations and a dense finite-difference Jacobian, for
// stiff models). All three locate zero crossings (to event_tolerance in time for the
// explicit methods; CVODE's own root finding for bdf), hand them to the components, and
// restart after a discrete change. Plugins may add others.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain/errors.hpp"
#include "jourdain/model.hpp"

namespace jourdain {

class SolverRegistry;

// The run's settings: the netlist's "solver" object. Which keys a method reads is its
// schema's business (solver_registry.hpp); the fields hold the defaults below otherwise.
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
  // The settings of the method's own that are none of the fields above (a plugin's
  // method), by key, in SI, defaults filled in: a JSON object.
  nlohmann::json extra = nlohmann::json::object();
};

// Reads the netlist's "solver" object against the schema of the method it names (dopri5
// when it names none). An unknown method (the message lists the registered ones), a key
// no method knows (it lists the method's keys) or a bad value is an InputError naming the
// place; a key that only other methods read is ignored with a warning naming the method
// and the ones that use it, appended to `warnings` when given.
SolverSettings solver_settings_from_json(const nlohmann::json& j, const InputLocation& where,
                                         const SolverRegistry& solvers, std::vector<std::string>* warnings = nullptr);
// The same with the built-in methods.
SolverSettings solver_settings_from_json(const nlohmann::json& j, const InputLocation& where);
// Refuses, as bad input, settings that ask for more output rows than max_output_rows or
// more steps than max_steps (a max_step, a fixed step): a typo in an interval must not
// fill the disk or run for days. Call it once t_end is final (after --t-end).
void check_solver_bounds(const SolverSettings& s, const InputLocation& where, const SolverRegistry& solvers);
void check_solver_bounds(const SolverSettings& s, const InputLocation& where);  // built-in methods
// Every field, then the extra settings beside them.
nlohmann::json to_json(const SolverSettings& s);
// What the settings meant for a run of `analysis`: all of them for a dynamic run; for a
// kinematic or static one, only those every method shares (the time span and the
// output clock), without "method": no integrator runs there.
nlohmann::json to_json(const SolverSettings& s, Analysis analysis);

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
  // bdf's Jacobians by components (jacobian.hpp): the component hooks and block solves
  // they called; about as many calls as a right-hand side makes make one evaluation's work.
  long jacobian_hook_calls = 0;
  double last_time = 0.0;         // how far the run got
};
nlohmann::json to_json(const SolverStats& s);

// What the integrator reports while it runs.
class Observer {
 public:
  virtual ~Observer() = default;
  // A point at an output time, or just before / after an event, evaluated as far as
  // evaluation_needed() asks.
  virtual void output(const Context& ctx) = 0;
  // How far output() needs its point evaluated: a solver may hand it a point evaluated
  // as a stage is (Model::derivatives, the observables left out) when it reads no
  // observables, and the states it interpolated, unevaluated, when it reads only states
  // (unless the model's block solvers observe the point: Model::block_solvers_observe).
  virtual PointEvaluation evaluation_needed() const { return PointEvaluation::Full; }
  virtual void progress(double /*t*/) {}
  // Whether interval() is wanted: something integrates along the trajectory (an energy
  // account). Every built-in method then hands each accepted step.
  virtual bool wants_intervals() const { return false; }
  // The stretch [t0, t1] of an accepted step before any event in it: `state_at(t, x)`
  // gives the method's interpolant of the states at a t in it. ctx is the run's
  // Context, its discrete states those of the stretch; it is not to be changed.
  using Interpolant = std::function<void(double t, Eigen::VectorXd& x)>;
  virtual void interval(const Context& /*ctx*/, double /*t0*/, double /*t1*/, const Interpolant& /*state_at*/) {}
};

// Integrates from ctx (initialized by the caller with model.initialize) to t_end with the
// method settings.method of `solvers` (its extra settings checked against its schema,
// missing ones given their defaults). `stats` is updated as the run goes, so it holds
// what was done even when a SimulationError ends the run. Throws InputError for bad
// settings (an unknown method, bounds), before anything runs.
void simulate(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer, SolverStats& stats,
              const SolverRegistry& solvers);
// The same with the built-in methods.
void simulate(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer, SolverStats& stats);

// A non-dynamic analysis (ctx.analysis: "kinematic" or "static"): at every output time
// from t_start to t_end, the block solvers that support it set their states (a
// mechanism's positions by Newton, its velocities and accelerations, or its static
// equilibrium) and the model is evaluated and recorded. ctx as for simulate().
void analyze_over_time(const Model& model, Context& ctx, const SolverSettings& settings, Observer& observer,
                       SolverStats& stats);

}  // namespace jourdain
