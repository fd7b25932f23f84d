// Everything that changes during a run lives here, never in the model or its
// components (so one model runs in several Contexts at once): time, continuous and discrete states, numeric parameter
// values and what is derived from them, port values, algebraic unknowns, observables, zero-crossing values, solver
// scratch and the components' workspaces (an FMU's instance). One built Model serves any
// number of Contexts at once, in any number of threads (sweeps, finite-difference
// Jacobians): a copy of a Context shares nothing with the original.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace jourdain {

struct EventRecord {
  double time = 0.0;
  std::string component;
  std::string description;
};

// A warning raised during a run. An accuracy warning says that the results are not vouched
// for: a constraint violated beyond its tolerance, a mechanism that may have jumped to
// another assembly branch, a method used where it cannot be trusted. The run goes on and
// reports it (summary.json's "accuracy_warnings", the top of the report); a strict run
// (jourdain run --strict, the netlist's "strict": true) fails on it, its results kept.
// Any library may raise one (Eval::warn(message, Warning::Kind::Accuracy), or push_back
// here); the solvers' strict mode needs nothing more.
struct Warning {
  enum class Kind { Notice, Accuracy };
  std::string message;
  Kind kind = Kind::Notice;
  std::string component;  // the component that raised it (Eval::warn), for a checker to point at
  Warning(std::string text, Kind k = Kind::Notice) : message(std::move(text)), kind(k) {}  // NOLINT: a text is a notice
  bool accuracy() const { return kind == Kind::Accuracy; }
};

// What a run does with the model: integrate it in time, or (block solvers that support
// it) set its states at each output time by a kinematic or static analysis. Fixed when
// the run starts.
enum class Analysis { Dynamic, Kinematic, Static };
const char* to_string(Analysis a);
// "dynamic", "kinematic", "static"; nullopt for anything else.
std::optional<Analysis> parse_analysis(const std::string& name);

// Scratch data that block solvers keep between evaluations (a factorization's symbolic
// analysis), one slot per schedule step, created on first use. A copy starts with empty
// slots, which the copy's first evaluation fills again: copies never share scratch, so
// two threads can run copies of one Context.
class BlockWorkspaces {
 public:
  BlockWorkspaces() = default;
  BlockWorkspaces(const BlockWorkspaces& other) : slots_(other.slots_.size()) {}
  BlockWorkspaces& operator=(const BlockWorkspaces& other) {
    if (this != &other) slots_.assign(other.slots_.size(), nullptr);
    return *this;
  }
  BlockWorkspaces(BlockWorkspaces&&) noexcept = default;
  BlockWorkspaces& operator=(BlockWorkspaces&&) noexcept = default;

  void resize(size_t n) { slots_.resize(n); }
  size_t size() const { return slots_.size(); }
  // The workspace of slot `k`, made by `make()` the first time.
  template <class T, class Make>
  T& get(size_t k, Make&& make) {
    auto& slot = slots_.at(k);
    if (!slot) slot = std::shared_ptr<T>(make());
    return *static_cast<T*>(slot.get());
  }

 private:
  std::vector<std::shared_ptr<void>> slots_;
};

// Per-run data a component keeps outside the Context's vectors because it lives in other
// code: an instance of a co-simulation unit (an FMU) that the run advances at its
// events. Unlike a block solver's scratch it is state, so a copy of the Context carries a
// clone of it (clone()); where the other code cannot copy its state, the copy holds
// nothing in that slot, and the component, finding none there mid-run, says so.
class ComponentWorkspace {
 public:
  virtual ~ComponentWorkspace();
  // A copy that shares nothing with this one; nullptr when this state cannot be copied.
  virtual std::unique_ptr<ComponentWorkspace> clone() const { return nullptr; }
};

// One slot per component of the model (Eval::workspace), empty until the component makes
// its workspace (in initialize()).
class ComponentWorkspaces {
 public:
  ComponentWorkspaces() = default;
  ComponentWorkspaces(const ComponentWorkspaces& other) { copy_from(other); }
  ComponentWorkspaces& operator=(const ComponentWorkspaces& other) {
    if (this != &other) copy_from(other);
    return *this;
  }
  ComponentWorkspaces(ComponentWorkspaces&&) noexcept = default;
  ComponentWorkspaces& operator=(ComponentWorkspaces&&) noexcept = default;

  void resize(size_t n) { slots_.resize(n); }
  // The workspace of slot `k`, made by `make()` (returning a T*) the first time.
  template <class T, class Make>
  T& get(size_t k, Make&& make) {
    auto& slot = slots_.at(k);
    if (!slot) slot.reset(make());
    return static_cast<T&>(*slot);
  }
  // The workspace of slot `k`, or nullptr when none was made (or copied) there.
  template <class T>
  T* find(size_t k) const {
    return static_cast<T*>(slots_.at(k).get());
  }
  void clear(size_t k) { slots_.at(k).reset(); }
  // Slots whose workspace could not be cloned when this set was copied (0 for a set
  // that was not copied): such a copy cannot continue the run of the original.
  size_t uncopied() const { return uncopied_; }

 private:
  void copy_from(const ComponentWorkspaces& other);
  std::vector<std::unique_ptr<ComponentWorkspace>> slots_;
  size_t uncopied_ = 0;
};

// What the first evaluation of a Context learns about the model's hooks, so that later
// evaluations skip calls that do nothing: the components whose calc_derivatives is
// Component's own empty one (a spring, a sensor) say so when it runs (Eval::hook_is_idle).
// A component's hooks are those of its type, so what was learnt holds for every later
// evaluation, and for copies of the Context (which serve the same model).
struct HookPlan {
  bool known = false;                   // the first pass has run
  bool idle_seen = false;               // set by an idle hook during that pass
  std::vector<int> derivative_hooks;    // the steps of the plan's derivative stage whose hook does something
};

struct Context {
  double t = 0.0;
  Eigen::VectorXd parameters;  // numeric parameter values (Model::parameters() order), SI
  // The components' derived values (Component::calc_derived), computed from `parameters`:
  // a cache of this Context, like Drake's cache entries or MuJoCo's mj_setConst. Set when
  // `parameters` change (Model::set_parameter), the flag has the Model compute them again
  // before it next evaluates this Context (Model::update_derived); who writes `parameters`
  // directly sets it too.
  Eigen::VectorXd derived;
  bool derived_outdated = false;
  Eigen::VectorXd x;           // continuous states
  Eigen::VectorXd xdot;        // their derivatives
  Eigen::VectorXd y;           // port output variables
  Eigen::VectorXd discrete;    // discrete states (modes, latched values)
  Eigen::VectorXd unknowns;    // algebraic unknowns declared by components
  Eigen::VectorXd residuals;   // their residuals
  Eigen::VectorXd observables; // computed variables offered for recording
  // Whether the evaluation under way computes the observables: set by the Model for each
  // evaluation (false for an integrator's stage, Model::derivatives; true otherwise).
  bool observables_wanted = true;
  Eigen::VectorXd zero_crossings;
  // Everything the components reported, in order: the first kMaxLoggedEvents entries; the
  // rest are only counted (a model that switches a million times must not hold a million
  // descriptions in memory and in summary.json).
  static constexpr size_t kMaxLoggedEvents = 10'000;
  std::vector<EventRecord> events;
  long events_not_logged = 0;
  // Appends to `events`, or counts once the log is full: how anything logs an event.
  void log_event(double time, const std::string& component, std::string description) {
    if (events.size() >= kMaxLoggedEvents) {
      ++events_not_logged;
      return;
    }
    events.push_back({time, component, std::move(description)});
  }
  std::vector<Warning> warnings;      // same, for warnings (not bounded: a component warns once)
  long algebraic_iterations = 0;      // Newton iterations spent in implicit blocks
  Eigen::VectorXd monitors;           // values offered by block solvers (block_solver.hpp)
  Analysis analysis = Analysis::Dynamic;
  // Whether the integrator of this run puts the states back onto the model's invariants
  // after its steps (Model::project) when the model asks for it: set by a method that
  // cannot (CVODE's Adams), read by block solvers that rely on it (a mechanism passing a
  // singular configuration).
  bool steps_projected = true;
  // Set when a component ends the run in an event (Eval::terminate, like Modelica's
  // terminate()): who and why. The solvers stop at the event's instant, its point
  // recorded, and the run counts as finished.
  struct Termination {
    std::string component, reason;
    double time = 0.0;
  };
  std::optional<Termination> termination;
  // Whether the run's caller wants it to stop (RunOptions::stop_requested): the solvers ask
  // it between steps, a component in long work of its own asks it through
  // Eval::stop_requested. Empty: never.
  std::function<bool()> stop_requested;
  BlockWorkspaces block_workspaces;  // per schedule step
  ComponentWorkspaces component_workspaces;  // per component
  HookPlan hooks;                    // filled by the first evaluation (Model::evaluate)
};

}  // namespace jourdain
