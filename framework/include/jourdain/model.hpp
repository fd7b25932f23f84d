// ModelBuilder takes a flat netlist (flat_netlist.hpp); build() checks every connection,
// orders the evaluation (scheduler.hpp) and freezes the result into a Model, the
// assembled system that solvers see:  x' = f(t, x)  with zero-crossing functions g(t, x)
// and event handlers. The Model is immutable; runs keep their data in a Context.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "jourdain/block_solver.hpp"
#include "jourdain/component.hpp"
#include "jourdain/errors.hpp"
#include "jourdain/evaluation_plan.hpp"
#include "jourdain/flat_netlist.hpp"
#include "jourdain/scheduler.hpp"

namespace jourdain {

class Diagnostics;

// One variable a run can record: "component.variable" with its unit.
struct RecordableVariable {
  std::string name;  // e.g. "mass.x", "spring.force", "pid.output.value"
  std::string unit;
  enum class Source { State, Output, Observable, Discrete, Monitor } source;
  int index;  // into the Context vector of that source
  // What the value is when its unit does not say (NamedSpec::quantity); empty: the
  // unit's quantity.
  std::string quantity = {};
};

// A numeric parameter of the model (parameter.hpp), settable per Context.
struct ParameterInfo {
  std::string name;  // "component.parameter"
  std::string unit;
  Range range;
  int component;
  int index;             // into Context::parameters
  double default_value;  // SI: the netlist's value, else the declared default
  int spec = -1;         // into the component's parameter_specs(): its declaration
};

struct ZeroCrossingInfo {
  int component;
  ZeroCrossingId id;
  CrossingDirection direction;
  std::string name;  // "component.crossing"
};

// How far a point of a run must be evaluated for what reads it there (a recorder, an
// observer): the states alone (they are read as the integrator has them), a stage
// (Model::derivatives: outputs and derivatives, the observables left out) or the whole
// evaluation (Model::evaluate). Ordered: each asks for more than the one before.
enum class PointEvaluation { States, Stage, Full };

class Model {
 public:
  Model() = default;  // empty; ModelBuilder::build() makes real ones
  Model(Model&&) = default;
  Model& operator=(Model&&) = default;
  int state_count() const { return static_cast<int>(ctx_sizes_.states); }
  int zero_crossing_count() const { return static_cast<int>(zero_crossings_.size()); }
  int output_count() const { return static_cast<int>(ctx_sizes_.outputs); }    // Context::y
  int unknown_count() const { return static_cast<int>(ctx_sizes_.unknowns); }  // Context::unknowns
  const std::vector<ZeroCrossingInfo>& zero_crossings() const { return zero_crossings_; }
  const std::vector<std::unique_ptr<Component>>& components() const { return components_; }
  const Component* find_component(const std::string& name) const;
  // Where component `index` (Model::components() order) is written in the netlist: its
  // file and JSON path, for messages about bad input found after the model is built (a
  // block solver's redundant constraints). Empty for a model built without locations.
  InputLocation location(int index) const;
  const Schedule& schedule() const { return schedule_; }
  // The steps of one evaluation, with what each reads and writes (evaluation_plan.hpp):
  // the plan evaluate() runs, for code emitters and batch evaluators to walk too.
  const EvaluationPlan& plan() const { return plan_; }
  // "mass.x", "der(mass.x)", "spring.a.f", "pi.kp", "time"...: the name of a value the
  // plan reads or writes. Throws std::out_of_range for an index the model does not have.
  std::string variable_name(const PlanVariable& v) const;
  const World& world() const { return world_; }
  const std::vector<RecordableVariable>& recordable() const { return recordable_; }
  // Finds "comp.var"; throws InputError listing the close names.
  const RecordableVariable& recordable(const std::string& name) const;
  // Names of every continuous state in Context::x order ("mass.x").
  std::vector<std::string> state_names() const;
  // Ports that no connection reaches ("comp.port"), for `jourdain check`.
  std::vector<std::string> unconnected_ports() const;
  // Variables recorded when a netlist names none: states, observables, signal outputs.
  std::vector<std::string> default_record() const;

  // Numeric parameters, in Context::parameters order.
  const std::vector<ParameterInfo>& parameters() const { return parameters_; }
  // Finds "comp.param"; throws InputError (a configuration parameter is named as such,
  // with how to change it; other names get close matches).
  const ParameterInfo& parameter(const std::string& name) const;
  // Gives ctx a new value of a numeric parameter: a number (SI) or a string with a unit
  // ("250 bar"), checked against the parameter's unit and range as the netlist's value
  // is (parse_parameter). The model is not touched: the next evaluation of ctx uses the
  // value, its derived values computed again first (update_derived). Throws InputError.
  void set_parameter(Context& ctx, const std::string& name, const nlohmann::json& value) const;
  // The derived stage (Component::calc_derived): computes every component's derived
  // values of ctx from its parameters and clears ctx.derived_outdated. The evaluations
  // call it when ctx.derived_outdated is set; a relation between parameters that fails
  // throws InputError naming the component and parameter.
  void update_derived(Context& ctx) const;
  // A derived value of ctx by name, "comp.name" (up to date: update_derived first when
  // ctx's parameters changed). Throws InputError listing the close names.
  double derived_value(Context& ctx, const std::string& name) const;
  // Gives ctx a new initial value of a continuous state ("mass.x"): a number (SI) or a
  // string with a unit ("20 mm"), as the netlist's "initial" takes it. Call it between
  // make_context and initialize (a block solver, such as a mechanism's assembly, may
  // still move it there). Throws InputError naming the state, with close names.
  void set_initial_state(Context& ctx, const std::string& name, const nlohmann::json& value) const;

  // A Context sized for this model, holding the default parameter values, their
  // derived values and the initial states and discrete states.
  Context make_context(double t0) const;

  // Initial evaluation: components' initialize() hooks, then a full evaluation.
  void initialize(Context& ctx) const;

  // Evaluates every output (solving the implicit blocks), every derivative and every
  // observable at ctx.t, ctx.x. Throws NonFiniteError on a non-finite value (naming
  // the component and variable: check_finite) and SimulationError when an algebraic
  // loop cannot be solved.
  void evaluate(Context& ctx) const;
  // ctx.xdot = f(t, x), leaving ctx.x as given: evaluate() for an integrator's right-hand
  // side, which computes and checks only what the integration reads: outputs, states and
  // derivatives, not the observables (Context::observables_wanted; a non-finite output
  // that feeds the derivatives shows there; the recorder checks the rest). A point that
  // is recorded is evaluated with evaluate().
  void derivatives(Context& ctx, double t, const Eigen::VectorXd& x) const;
  // Throws NonFiniteError naming the first NaN or infinity among the outputs, states,
  // derivatives and observables of ctx (outputs first: the value a bad result starts
  // from); does nothing when all are finite.
  void check_finite(const Context& ctx) const;
  // Outputs, then zero-crossing values into ctx.zero_crossings.
  void evaluate_zero_crossings(Context& ctx, double t, const Eigen::VectorXd& x) const;
  // The outputs alone at (t, x), the implicit blocks solved, their finiteness checked;
  // ctx's derivatives and observables are left as they were. For what reads no more: an
  // integrator's root finding (a component's zero crossings read its states, inputs and
  // outputs) and a projection after a step (a block solver projects from the states and
  // its own solve). A point that is recorded or handed on is evaluated in full there.
  void evaluate_outputs(Context& ctx, double t, const Eigen::VectorXd& x) const;
  // evaluate_outputs, then the zero-crossing values.
  void zero_crossing_values(Context& ctx, double t, const Eigen::VectorXd& x) const;
  // Zero-crossing values only, for a context that evaluate() has just brought to its
  // (t, x) with nothing changed since (a solver's last right-hand side of a step).
  void update_zero_crossings(Context& ctx) const;
  // The earliest time event after ctx.t (Component::next_time_event) of any component,
  // +infinity when none is ahead: where a solver ends a step.
  double next_time_event(Context& ctx) const;
  // Lets the owners of the triggered zero crossings react (discrete changes, state
  // re-initialisation). ctx.t and ctx.x hold the event point; ctx.x may change.
  // A discrete change may push other zero crossings across zero at the same instant
  // (a step feeding a comparator): those are handled in turn, until none is left.
  // Throws SimulationError if events keep triggering each other (more than 100 rounds).
  void handle_zero_crossings(Context& ctx, std::vector<int> triggered) const;

  // Indices whose value went from g0 to g1 across zero in their declared direction:
  // rising means g0 < 0 <= g1, falling g0 > 0 >= g1. With `strict`, landing on zero
  // does not count (g0 < 0 < g1): used for jumps at a discrete change, where a function
  // set to exactly zero (a mass placed on its stop) has not crossed anything.
  std::vector<int> crossed(const Eigen::VectorXd& g0, const Eigen::VectorXd& g1, bool strict = false) const;

  // The structure of the Jacobian ∂ẋ/∂x read from the model's graph alone: row i lists
  // the states (Context::x indices, sorted) that the derivative of state i may depend
  // on. A component's outputs may read its own states and the inputs it declared with
  // set_dependencies; its derivatives, its states, all its inputs and its unknowns; every
  // output of an implicit block may depend on all that its members read. So the pattern
  // holds at any time and in any discrete state (events change values, never the
  // graph): a superset of the nonzeros, for Jacobians by column grouping.
  struct JacobianPattern {
    std::vector<int> row_begin;  // state_count() + 1 entries
    std::vector<int> columns;    // row i: columns[row_begin[i]] up to columns[row_begin[i + 1]]
  };
  JacobianPattern jacobian_pattern() const;

  // Values as recorded, for a context that was just evaluated.
  double value(const Context& ctx, const RecordableVariable& v) const;

  // ---- structured block solvers (block_solver.hpp) ----
  // A component's view of a context, for block solvers that call their members.
  Eval view(int component, Context& ctx, Eval::Phase phase) const {
    return Eval(*components_[component], layouts_[component], ctx, world_, phase);
  }
  // Where component `c`'s data sit in a Context: its offsets and port tables.
  const ComponentLayout& layout(int c) const { return layouts_[c]; }
  // The (component, port) pairs connected to a component's port.
  const std::vector<std::pair<int, int>>& peers(int component, int port) const { return peers_[component][port]; }
  // The solver of schedule step `step`: a library's structured solver or the general
  // Newton solver for an implicit block, nullptr for an explicit step.
  const BlockSolver* block_solver(int step) const { return block_solvers_[step].get(); }
  // Whether any block solver watches the trajectory (BlockSolver::observes: a library's
  // structured solvers, not the general Newton solver): they observe (and may project)
  // every recorded point, which must then be evaluated (observe()).
  bool block_solvers_observe() const;
  // True if some block solver projects states after accepted steps.
  bool projects() const;
  // After an accepted step, with ctx evaluated at (t, x) (its outputs at least): lets
  // block solvers move ctx.x back onto their invariants; returns true if ctx.x changed,
  // after evaluating ctx there again: in full, or with `outputs_only` its outputs alone
  // (evaluate_outputs: what project_change and observe read).
  bool project(Context& ctx, bool outputs_only = false) const;
  // Every block solver's observe() at a point of a dynamic run's trajectory (ctx
  // evaluated there): the solvers call it after every accepted step and at every
  // recorded point.
  void observe(Context& ctx) const;
  // Every block solver's project_change() on `dx`, a change of the state at ctx (ctx
  // evaluated there, as after project()).
  void project_change(Context& ctx, Eigen::Ref<Eigen::VectorXd> dx) const;
  // The Jacobian of every block's invariants with respect to ctx.x (rows stacked in
  // schedule order; BlockSolver::invariant_jacobian), at ctx; 0 rows when no block keeps
  // any. ctx keeps its t and x.
  Eigen::MatrixXd invariant_jacobian(Context& ctx) const;
  // Every block's (position state, rate state) pairs (BlockSolver::coordinate_pairs).
  std::vector<std::pair<int, int>> coordinate_pairs(Context& ctx) const;
  // Moves ctx.x back onto every block's invariants (BlockSolver::restore_invariants),
  // whatever the projection settings; re-evaluates and returns true if ctx.x changed.
  bool restore_invariants(Context& ctx) const;
  // Whether some block solver can carry out `analysis` (kinematic, static).
  bool supports(Analysis analysis) const;
  // One point of a non-dynamic analysis at ctx.t (ctx.analysis names it): the block
  // solvers that support it set their states, then the model is evaluated.
  void analyze(Context& ctx) const;
  // Monitors offered by block solvers, in Context::monitors order.
  const std::vector<MonitorSpec>& monitors() const { return monitors_; }
  // What the block solvers have to say for `jourdain check`, at ctx (initialized).
  std::string describe_blocks(const Context& ctx) const;

 private:
  friend class ModelBuilder;
  // What block solvers do before they solve their block in a pass over the schedule.
  enum class BlockPrelude { None, Initialize, Analyze };
  void evaluate_outputs(Context& ctx, BlockPrelude prelude = BlockPrelude::None) const;
  void evaluate_derivatives(Context& ctx) const;  // once every output is known
  void derive(int component, Context& ctx) const;  // one component's calc_derived

  World world_;
  std::vector<std::unique_ptr<Component>> components_;
  std::vector<ComponentLayout> layouts_;
  std::vector<int> layout_pool_;  // the port tables the layouts point into (never resized after build)
  Schedule schedule_;
  // What an evaluation does, in order (evaluation_plan.hpp): evaluate_outputs and
  // evaluate_derivatives run it step by step.
  EvaluationPlan plan_;
  // Runs the hook of `step`'s phase on its components (a type's hook over the run, or
  // one component's virtual hook).
  void run_components(const EvaluationStage& stage, const EvaluationStep& step, Context& ctx) const;
  std::vector<std::unique_ptr<BlockSolver>> block_solvers_;  // per schedule step; null: an explicit step
  std::vector<InputLocation> locations_;                      // per component (ModelBuilder::add)
  std::vector<MonitorSpec> monitors_;
  std::vector<std::vector<std::vector<std::pair<int, int>>>> peers_;  // per component, per port
  std::vector<ZeroCrossingInfo> zero_crossings_;
  std::vector<ParameterInfo> parameters_;
  std::unordered_map<std::string, int> parameter_index_;
  std::unordered_map<std::string, int> derived_index_;  // "comp.name" -> into Context::derived
  std::vector<RecordableVariable> recordable_;
  std::vector<std::string> output_names_;  // per Context::y slot, for messages
  std::vector<bool> recorded_by_default_;  // per Context::y slot (Domain::recorded_by_port_name)
  std::vector<std::vector<int>> connection_count_;  // per component, per port
  std::unordered_map<std::string, int> component_index_;
  std::unordered_map<std::string, int> recordable_index_;
  struct Sizes {
    long parameters = 0, states = 0, outputs = 0, discretes = 0, unknowns = 0, observables = 0, zero_crossings = 0,
         derived = 0;
  } ctx_sizes_;
  // What make_context starts a Context from: the parameters' netlist values (the
  // model's defaults), what is derived from them, and the declared initial values
  // (ModelBuilder::set_initial applied), gathered at build.
  struct StartValues {
    Eigen::VectorXd parameters, derived, x, discrete, unknowns;
  } start_;
};

// The third stage of loading (flat_netlist.hpp): a flat netlist, built up part by part
// (add, connect, set_initial: the FlatNetlist it is) or handed over whole, checked as a
// graph and frozen into a Model.
class ModelBuilder : public FlatNetlist {
 public:
  explicit ModelBuilder(World world = {}) : FlatNetlist(std::move(world)) {}
  explicit ModelBuilder(FlatNetlist&& flat) : FlatNetlist(std::move(flat)) {}

  // Checks and freezes. Throws InputError naming the component and port at fault: the
  // first problem found. Given diagnostics that keep going (a check), it records every
  // independent problem instead (several open inputs, names declared twice, loops whose
  // libraries disagree, failed parameter relations) and, when there was any, returns an
  // empty Model and keeps its components (check_variable still judges names).
  Model build(Diagnostics* diagnostics = nullptr) &&;

 private:
  // The steps of build(), in order (model.cpp says why each is there); Assembly carries
  // between them what is not yet the Model's, and the problems found.
  struct Assembly;
  void lay_out(Assembly& a) const;                // the Context vectors, parameter and output names
  void check_drivers(Assembly& a) const;          // every response side driven exactly once
  void wire_ports(Assembly& a) const;             // peers and the port tables inputs are summed by
  void schedule(Assembly& a) const;               // evaluation order, algebraic loops as blocks
  void name_variables(Assembly& a) const;         // zero crossings, recordable variables
  void attach_block_solvers(Assembly& a) const;   // a solver for every implicit block
  void plan_evaluation(Assembly& a) const;        // the steps an evaluation runs
  void gather_start_values(Assembly& a) const;    // make_context's values; the derived stage
};

}  // namespace jourdain
