// What the solvers library shares inside itself: the output clock, the checks of a
// method's extra settings, and the built-in methods' constructors (for the SolverRegistry).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "jourdain/recorder.hpp"
#include "jourdain/solvers/explicit.hpp"
#include "jourdain/solvers/solver_registry.hpp"

namespace jourdain::detail {

// Output times t_start + k * interval, with t_end as the last one.
struct OutputClock {
  double t0, t_end, interval;
  long count;  // number of output times after t0
  long next = 1;
  OutputClock(const SolverSettings& s);
  double time(long k) const { return k >= count ? t_end : t0 + static_cast<double>(k) * interval; }
  bool done() const { return next > count; }
  double upcoming() const { return time(next); }
};

// Hands the points of a run (output times, both sides of an event) to its observer,
// evaluated as far as it reads (Observer::evaluation_needed): wholly, every value checked,
// when it reads observables, which the stages leave out; as a stage when it reads outputs;
// not at all when it reads states only, unless the model has block solvers: they observe
// (and may project) every such point and compute the monitors. Nothing after reads the
// context; a solver's next step evaluates it again.
class ObservedPoints {
 public:
  // `projecting`: recorded points are moved back onto the invariants too (Model::project),
  // since an interpolant between projected steps leaves them by up to the local error.
  ObservedPoints(const Model& model, Observer& observer, bool projecting);
  // ctx.t and ctx.x hold the point.
  void hand(Context& ctx) const;

 private:
  const Model& model_;
  Observer& observer_;
  PointEvaluation needed_;
  bool projecting_;
};

// Watches the events of a run for accumulation (Zeno behaviour): a component whose
// events follow each other ever faster, like a ball bouncing with restitution below one
// that is never allowed to come to rest, has infinitely many of them before a finite
// time. An integrator then either locates them until its time resolution runs out,
// writing two rows per event without end, or misses one and goes on with a wrong state
// (a mass tunnelling through its stop). Once kAccumulatedEvents events of one component
// in a row each come within `resolution` of the previous one, the run stops with a
// SimulationError naming the component and its zero crossing.
class EventAccumulationGuard {
 public:
  static constexpr int kAccumulatedEvents = 50;
  // resolution(t) = max(100 event_tolerance, 1e-9 max(1, |t|)): well above where the
  // integrators place events (event_tolerance for rk4 and dopri5; a few rounding units of
  // t for CVODE), far below the interval of any physical switching a model resolves.
  EventAccumulationGuard(const Model& model, const SolverSettings& s);
  // After Model::handle_zero_crossings(ctx, triggered) at ctx.t.
  void after_events(const Context& ctx, const std::vector<int>& triggered);

 private:
  const Model& model_;
  double event_tolerance_;
  std::vector<double> last_time_;  // per component: its last event
  std::vector<int> run_length_;    // per component: events in a row within the resolution
};

// Reads one setting's value as its schema declares it (a real with a unit converted to
// SI, or a whole number), refusing a value of the wrong kind or outside its range.
nlohmann::json read_solver_setting(const SolverSetting& setting, const nlohmann::json& value, const InputLocation& where);
// Checks s.extra against a method's whole schema: a key it does not declare as an extra
// setting, or a bad value, is an InputError at where/extra/KEY; a missing one gets its
// default.
void complete_extra_settings(SolverSettings& s, const std::vector<SolverSetting>& schema, const InputLocation& where);
// The bounds of the shared settings (span, output rows), whatever the method.
void check_shared_bounds(const SolverSettings& s, const InputLocation& where);
// Whether `key` names one of SolverSettings' fields (then it is not an extra setting).
bool is_settings_field(const std::string& key);
// A count computed in floating point (rows, steps) for a message: as a whole number while
// it is one exactly, else in exponent form ("1e+300"); never cast to an integer type,
// which is undefined beyond its range.
std::string count_text(double count);
// A time or a step in a message, in its shortest form: std::to_string's "%f" writes a
// 1e300 s span as 300 digits and a 1e-9 s step as 0.000000.
std::string time_text(double seconds);

// Thrown through a solver or an analysis when its caller asks it to stop
// (RunOptions::stop_requested, LinearRunOptions::stop_requested): what it computed so far
// is kept and written.
class Interrupted final : public SimulationError {
 public:
  explicit Interrupted(double t, const std::string& what = "interrupted (rows up to here are kept)")
      : SimulationError(t, {}, what) {}
};

// The output folder of a run, before it starts: created, and results.csv opened by the
// recorder (summary.json is the session's: apps/session). Throws InputError or OutputError.
void open_output_folder(const std::filesystem::path& dir, Recorder& recorder);
// summary.json's lists shared by every analysis: the event log, and the recorded
// variables with their units.
nlohmann::json events_json(const std::vector<EventRecord>& events);
nlohmann::json variables_json(const Recorder& recorder);

std::shared_ptr<const SolverMethod> make_rk4_method();
std::shared_ptr<const SolverMethod> make_dopri5_method();
std::shared_ptr<const SolverMethod> make_bdf_method();
std::shared_ptr<const SolverMethod> make_adams_method();

}  // namespace jourdain::detail
