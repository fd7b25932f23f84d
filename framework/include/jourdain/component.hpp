// Component: the unit a netlist is made of.
//
// A component declares, in one place, what it is made of (framework/README.md, "Ports and causality"):
//   - parameters, in its constructor (name, kind, unit, default, range);
//   - ports, continuous states, discrete states, algebraic unknowns with their
//     residuals, observables, zero-crossing functions and derived values, in
//     configure(), which runs once its parameter values are known (a volume's port count
//     may depend on them).
// It then computes, through an Eval view of a Context, never holding run data itself:
//   calc_derived      derived values from the numeric parameters (and the component's
//                     configuration, such as a library's world setting), once per set of
//                     parameter values of a Context rather than at every evaluation;
//   calc_outputs      port outputs (and residuals, observables) from t, states, inputs;
//   calc_derivatives  state derivatives, once every output of the model is known;
//   calc_zero_crossings, on_zero_crossing  events; initialize  consistent start.
// calc_outputs must be a pure function of what it reads: the scheduler may call it more
// than once per evaluation (a component whose ports sit at several places in the order).
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <memory>
#include <memory_resource>
#include <new>
#include <string>
#include <typeindex>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "jourdain/context.hpp"
#include "jourdain/domain.hpp"
#include "jourdain/parameter.hpp"

namespace jourdain {

// Typed indices, so that a state handle cannot be passed where a port is expected.
template <class Tag>
struct Id {
  int index = -1;
  bool valid() const { return index >= 0; }
  bool operator==(const Id&) const = default;
};
using PortId = Id<struct PortTag>;
using StateId = Id<struct StateTag>;
using DiscreteId = Id<struct DiscreteTag>;
using UnknownId = Id<struct UnknownTag>;
using ObservableId = Id<struct ObservableTag>;
using ZeroCrossingId = Id<struct ZeroCrossingTag>;
using DerivedId = Id<struct DerivedTag>;

enum class CrossingDirection { Rising, Falling, Either };

struct PortSpec {
  std::string name;
  const Domain* domain = nullptr;
  PortSide side = PortSide::State;
  std::string description;
  bool optional = false;  // a response-side port that may stay unconnected (reads 0)
  // The unit of the port's outputs where its domain leaves it open (a signal's value has
  // none of its own): a sensor's output in m. Recorded with it ("name [unit]"). Empty:
  // the domain's units (none for a signal: dimensionless).
  std::string unit;
  // The unit an output variable `v` of this port is recorded and described in: the
  // domain's, else the port's (the one place that rule lives).
  const std::string& output_unit(const VariableSpec& v) const { return v.unit.empty() ? unit : v.unit; }
  // Input ports whose values this port's outputs read directly ("direct feedthrough",
  // framework/README.md). Outputs computed from states alone depend on nothing and break loops.
  std::vector<PortId> depends_on;
  bool depends_on_all_inputs = true;  // the safe default until the component says less
};

struct StateSpec {
  std::string name;
  std::string unit;
  double initial = 0.0;
  std::string description;
};

// What an observable says about energy (framework/README.md, "Energy"). A component
// that stores, dissipates or brings energy into the model states it through observables
// with these roles; the power through its ports the framework finds from the domains.
enum class EnergyRole {
  None,
  Stored,    // J: energy stored in the component (½ C v², ½ J ω², m c T)
  Loss,      // W: power turned into heat (leaving through the component's heat ports, if
             // connected, else to the surroundings)
  Supplied,  // W: power brought in from outside the model (an ideal source, fuel)
};

struct NamedSpec {  // discrete states, unknowns, observables, zero crossings, derived values
  std::string name;
  std::string unit;
  double initial = 0.0;
  std::string description;
  CrossingDirection direction = CrossingDirection::Either;
  // Observables: what the value is when its unit alone does not say ("overpressure" for
  // a valve's opening in Pa, "pressure_difference"); empty: the unit's own quantity
  // (units.hpp). Reports plot different quantities on different axes.
  std::string quantity = {};
  EnergyRole energy = EnergyRole::None;  // observables
};

// Settings of the world the components live in: the netlist's "world" object, as
// written and validated by the component libraries that registered its keys
// (Registry::add_world_setting), e.g. "gravity", "constraints", "fluid". The framework
// gives them no meaning; each library reads its own in configure(), through parsed():
// once per World, however many of its components ask.
struct World {
  nlohmann::json settings = nlohmann::json::object();
  std::string file;  // the netlist, for messages about those settings

  // The library's reading of its setting `key`: `parse(*this)` (returning a T) the first
  // time a component configured in this World asks, the same object every later time.
  // A parse that throws keeps nothing. A copy of the World starts with nothing parsed (its
  // settings may be changed). For configure() only, where components are configured one
  // at a time (no lock): what a run needs of it is the component's, or a derived value.
  template <class T, class Parse>
  std::shared_ptr<const T> parsed(const std::string& key, Parse&& parse) const {
    std::shared_ptr<const void>& slot = parsed_.readings[{key, std::type_index(typeid(T))}];
    if (!slot) slot = std::make_shared<const T>(parse(*this));
    return std::static_pointer_cast<const T>(slot);
  }

 private:
  struct Readings {
    Readings() = default;
    Readings(const Readings&) {}
    Readings& operator=(const Readings&) {
      readings.clear();
      return *this;
    }
    Readings(Readings&&) noexcept = default;
    Readings& operator=(Readings&&) noexcept = default;
    std::map<std::pair<std::string, std::type_index>, std::shared_ptr<const void>> readings;
  };
  mutable Readings parsed_;
};

// Where a component's data sit in the Context's flat vectors; filled by ModelBuilder.
struct ComponentLayout {
  int workspace_slot = -1;   // into Context::component_workspaces
  int parameter_offset = 0;  // into Context::parameters
  int state_offset = 0;
  int discrete_offset = 0;
  int unknown_offset = 0;
  int observable_offset = 0;
  int zero_crossing_offset = 0;
  int derived_offset = 0;  // into Context::derived
  // Per port p: the offset of its first output in Context::y (-1: none), and the
  // outputs summed into its inputs, input_sources[input_begin[p]] up to
  // input_sources[input_begin[p + 1]] (excluded). The three point into one block the
  // Model owns, a component's next to each other: an evaluation reads one cache line.
  const int* port_output_offset = nullptr;
  const int* input_begin = nullptr;
  const int* input_sources = nullptr;
};

class Component;

// Memory that keeps components next to each other: a Registry creates its components
// there (Registry::add<C>), so that an evaluation walking a large model's components
// reads them in order rather than from all over the heap.
using ComponentMemory = std::pmr::synchronized_pool_resource;

// One component as an evaluation loop sees it: the object and where its data sit (a
// copy of its layout, so that a loop over a run reads one array in order).
struct PlacedComponent {
  const Component* component = nullptr;
  ComponentLayout layout;
};

// The evaluation hooks of one component type, called for a run of its instances in one
// loop, without a virtual call per instance (the compiler sees the type's own hooks and
// keeps the Context's data in registers across the run). The Registry gives every type
// it creates its own (Registry::add<C>, evaluate_run<C>); a component made otherwise has
// none and is called through its virtual hooks, with the same results.
struct TypeEvaluation {
  void (*outputs)(const PlacedComponent* first, const PlacedComponent* last, Context& ctx, const World& world) = nullptr;
  void (*derivatives)(const PlacedComponent* first, const PlacedComponent* last, Context& ctx, const World& world) = nullptr;
};

// A component's view of one Context during one evaluation. States and discrete states
// may be changed only while handling an event or initializing.
class Eval {
 public:
  enum class Phase { Outputs, Derivatives, ZeroCrossings, Event, Initialize, Project, Derive };

  Eval(const Component& c, const ComponentLayout& l, Context& ctx, const World& w, Phase p)
      : component_(c), layout_(l), ctx_(ctx), world_(w), phase_(p) {}

  double time() const { return ctx_.t; }
  const World& world() const { return world_; }
  // A numeric parameter's value in this Context (SI), through the handle its
  // declaration returned.
  double param(RealParam p) const { return ctx_.parameters[layout_.parameter_offset + p.index]; }
  Phase phase() const { return phase_; }

  // A derived value of this Context (Component::calc_derived): computed when the
  // Context's parameters were last set, read at no more cost than a parameter.
  double derived(DerivedId d) const { return ctx_.derived[layout_.derived_offset + d.index]; }
  void set_derived(DerivedId d, double value);  // calc_derived only (Phase::Derive)

  double state(StateId s) const { return ctx_.x[layout_.state_offset + s.index]; }
  // Where the state sits in Context::x: for analyses over the whole state vector that a
  // block solver serves (BlockSolver::invariant_jacobian).
  int state_index(StateId s) const { return layout_.state_offset + s.index; }
  void set_derivative(StateId s, double value) { ctx_.xdot[layout_.state_offset + s.index] = value; }
  void set_state(StateId s, double value);  // events, initialization and projection only

  // Sum over every port that drives `p` (one for a response-side port; any number,
  // possibly none, for a state-side port).
  double in(PortId p, Var v) const {
    const double* y = ctx_.y.data() + v.index;
    const int* source = layout_.input_sources + layout_.input_begin[p.index];
    const int* end = layout_.input_sources + layout_.input_begin[p.index + 1];
    if (source == end) return 0.0;
    // From the first term (not 0 + it): one addition fewer on the way to what reads it.
    double sum = y[*source];
    while (++source != end) sum += y[*source];
    return sum;
  }
  void set_out(PortId p, Var v, double value) { ctx_.y[layout_.port_output_offset[p.index] + v.index] = value; }
  double out(PortId p, Var v) const { return ctx_.y[layout_.port_output_offset[p.index] + v.index]; }
  bool connected(PortId p) const { return layout_.input_begin[p.index + 1] > layout_.input_begin[p.index]; }

  double discrete(DiscreteId d) const { return ctx_.discrete[layout_.discrete_offset + d.index]; }
  void set_discrete(DiscreteId d, double value);  // events and initialization only

  double unknown(UnknownId u) const { return ctx_.unknowns[layout_.unknown_offset + u.index]; }
  // For block solvers (block_solver.hpp), which compute the unknowns directly.
  void set_unknown(UnknownId u, double value) { ctx_.unknowns[layout_.unknown_offset + u.index] = value; }
  const Context& context() const { return ctx_; }
  void set_residual(UnknownId u, double r) { ctx_.residuals[layout_.unknown_offset + u.index] = r; }

  // Observables are read where a run records or reports, never by the integration: an
  // integrator's stage (Model::derivatives) does not want them, and set_observable then
  // stores nothing. A component whose observables take work of their own to compute
  // asks first.
  bool observables_wanted() const { return ctx_.observables_wanted; }
  void set_observable(ObservableId o, double value) {
    if (ctx_.observables_wanted) ctx_.observables[layout_.observable_offset + o.index] = value;
  }
  void set_zero_crossing(ZeroCrossingId z, double value) { ctx_.zero_crossings[layout_.zero_crossing_offset + z.index] = value; }

  // The component's workspace in this Context (context.hpp, ComponentWorkspace): state
  // that lives in other code, such as an FMU's instance. `make()` returns a new T (derived
  // from ComponentWorkspace) the first time; find_workspace gives nullptr until then (or
  // in a copy of the Context that could not clone it).
  template <class T, class Make>
  T& workspace(Make&& make) {
    return ctx_.component_workspaces.get<T>(static_cast<size_t>(layout_.workspace_slot), std::forward<Make>(make));
  }
  template <class T>
  T* find_workspace() const {
    return ctx_.component_workspaces.find<T>(static_cast<size_t>(layout_.workspace_slot));
  }
  void drop_workspace() { ctx_.component_workspaces.clear(static_cast<size_t>(layout_.workspace_slot)); }

  // Reports a discrete change for the run's event log (summary.json).
  void log_event(std::string description);
  // A warning for the run's log and summary, stamped with the time and the component; an
  // accuracy warning marks the results as not vouched for (context.hpp, Warning).
  void warn(std::string message, Warning::Kind kind = Warning::Kind::Notice);
  // Ends the run at this instant as finished, for `reason` (like Modelica's terminate()):
  // in an event (Phase::Event) only; the first call of an instant wins. An FMU asking to
  // stop, a machine cycle's last step.
  void terminate(std::string reason);
  // Whether the run's caller wants it to stop (a Ctrl-C; Context::stop_requested): asked
  // by a component whose own work may take long (a call into an FMU in a process of its
  // own), which then ends that work and throws Stopped: the run ends as interrupted.
  bool stop_requested() const { return ctx_.stop_requested && ctx_.stop_requested(); }
  // Said by Component's default hooks, which do nothing: the model stops calling them
  // (HookPlan in context.hpp). A component does not call it.
  void hook_is_idle() { ctx_.hooks.idle_seen = true; }

 private:
  const Component& component_;
  const ComponentLayout& layout_;
  Context& ctx_;
  const World& world_;
  Phase phase_;
};

class Component {
 public:
  virtual ~Component();  // defined in component.cpp: the vtable and type info live in the framework library

  // Allocation. Every component carries, just before it, the ComponentMemory it was
  // created in (none: the heap), so that `delete` (a unique_ptr<Component>) returns
  // its memory to the right place and that memory lives as long as a component in it.
  // `new C(...)` takes the heap; `new (memory) C(...)` the given memory.
  static void* operator new(std::size_t size);
  static void* operator new(std::size_t size, std::align_val_t align);
  static void* operator new(std::size_t size, std::shared_ptr<ComponentMemory> memory);
  static void* operator new(std::size_t size, std::align_val_t align, std::shared_ptr<ComponentMemory> memory);
  static void operator delete(void* p, std::size_t size);
  static void operator delete(void* p, std::size_t size, std::align_val_t align);
  // Called only if a constructor throws, for `new (memory) C(...)`.
  static void operator delete(void* p, std::shared_ptr<ComponentMemory> memory);
  static void operator delete(void* p, std::align_val_t align, std::shared_ptr<ComponentMemory> memory);
  Component();
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  // ---- evaluation hooks (see the file comment) ----
  // The derived stage: computes the derived values (declare_derived) of a Context from
  // its numeric parameters (Eval::param) and the component's configuration, with
  // Eval::set_derived; also where relations between numeric parameters that their
  // ranges cannot express are checked (parameter_error). It runs for the netlist's
  // values when the model is built (a bad relation is refused as the netlist loads), and
  // again for a Context whose parameters were set (Model::set_parameter) before that
  // Context is next evaluated. It reads no states, inputs or time.
  virtual void calc_derived(Eval&) const {}
  virtual void calc_outputs(Eval&) const {}
  virtual void calc_derivatives(Eval& e) const { e.hook_is_idle(); }
  virtual void calc_zero_crossings(Eval&) const {}
  virtual void on_zero_crossing(Eval&, ZeroCrossingId) const {}
  // A time event: the next instant after e.time() at which one of this component's zero
  // crossings, a function of time alone (t − t_s), reaches zero (a step's time, a table's
  // breakpoint, an FMU's communication point); +infinity when none is ahead. The solvers
  // end a step exactly there, so that the event is met at t_s to the bit instead of being
  // bracketed around it. Read at the start and after every event; components without zero
  // crossings are not asked.
  virtual double next_time_event(const Eval&) const { return std::numeric_limits<double>::infinity(); }
  virtual void initialize(Eval&) const {}
  // A structured solver for the implicit block this component belongs to (see
  // block_solver.hpp); nullptr: the Model's general Newton method.
  virtual const class BlockSolverFactory* block_solver() const { return nullptr; }
  // A drawing of the component for reports (the animation of report.html); nullptr:
  // none. An object with
  //   "frame":    {"x": "comp.x", "y": "comp.y", "theta": "comp.theta"}, three recordable
  //               variables that place and turn the drawing over time; without a frame
  //               the drawing is fixed in the world;
  //   "polygon":  [[x, y], ...] a closed outline, "polyline": [[x, y], ...] an open one;
  //   "circles":  [{"center": [x, y], "r": r}, ...];
  //   "points":   {"name": [x, y], ...} named markers (connection points);
  //   "anchors":  {"name": [x, y], ...} named points fixed to the world (a hatched
  //               ground symbol);
  //   "label":    text shown next to the frame's origin;
  //   "links":    [{"kind": k, "from": "port", "to": "port", "position": ["x", "y"]}, ...]
  //               elements acting between two of the component's own ports (a force
  //               element between two body points), drawn from the point its "from"
  //               port is connected to to the point of its "to" port. "position" names
  //               the two variables of the ports' domain that carry the point's world
  //               coordinates; the report reads them from the port each is connected to,
  //               so a link moves without a frame. Kinds the page draws: "cylinder"
  //               (barrel from "from", rod to "to"; "barrel": its length in m), "spring"
  //               (a zigzag), "damper" (a piston in a cup), "spring_damper" (both side by
  //               side) and "line"; any other kind is drawn as a line;
  // coordinates in m, in the frame. Every key is optional.
  virtual nlohmann::json sketch() const { return nullptr; }
  // A composite component (a flexible beam of N segments, say) is not simulated itself:
  // once its parameters are known, the netlist loader replaces it by the sub-netlist this
  // returns, written as a subsystem definition is (netlists/README.md, "Subsystems"):
  //   {"components": {...}, "connections": [...], "ports": {"name": "comp.port" or [...]}}
  // with plain values (no parameters to pass down). Its inner components are named
  // "<name>/<inner>". nullptr: an ordinary component.
  virtual nlohmann::json expansion() const { return nullptr; }

  // ---- identity ----
  const std::string& name() const;
  const std::string& type_name() const;
  // Its type's hooks for runs of instances (TypeEvaluation), or nullptr.
  const TypeEvaluation* type_evaluation() const { return type_evaluation_; }
  // Set by the Registry when it creates the component: `e` must be the evaluation of the
  // component's own dynamic type.
  void set_type_evaluation(const TypeEvaluation* e) { type_evaluation_ = e; }

  // ---- what the component declared ----
  const std::vector<ParamSpec>& parameter_specs() const;
  const std::vector<PortSpec>& ports() const;
  const std::vector<StateSpec>& states() const;
  const std::vector<NamedSpec>& discrete_states() const;
  const std::vector<NamedSpec>& unknowns() const;
  const std::vector<NamedSpec>& observables() const;
  const std::vector<NamedSpec>& zero_crossings() const;
  const std::vector<NamedSpec>& derived_values() const;
  // The outputs that are states (declare_state_output), in the order declared.
  struct StateOutput {
    PortId port;
    Var output;
    StateId state;
  };
  const std::vector<StateOutput>& state_outputs() const;
  PortId find_port(const std::string& name) const;  // invalid Id when absent
  StateId find_state(const std::string& name) const;

  // ---- set-up, called by the framework (netlist loader, ModelBuilder) ----
  void set_identity(std::string name, std::string type_name);
  // Stores a parameter value given in the netlist; converts units and checks the
  // range. Throws InputError (the caller adds the file and JSON path).
  void set_parameter(const std::string& name, const nlohmann::json& value);
  // Fills defaults, checks required parameters, then calls configure(), during which
  // world() gives the world the component will live in (its settings are read there,
  // once, rather than at every evaluation).
  //
  // `purpose` says what the instance is for: a run (a netlist's components), or only to be
  // described (`jourdain describe`, the component reference, the schema). A component
  // whose configuration runs code from a file it names (an FMU's binary) skips that when
  // the instance is only described: describing an FMU is how one vets it.
  enum class Purpose { Simulate, Describe };
  void finish_configuration(const World& world = World{}, Purpose purpose = Purpose::Simulate);
  void set_state_initial(StateId s, double value);
  bool configured() const;
  // A parameter's value in SI, as parsed when it was set (parse_parameter).
  const ParamValue& typed_value(const std::string& name) const;
  // The same as JSON, for tools that show it.
  nlohmann::json parameter_value(const std::string& name) const;
  // The value a numeric parameter was given in the netlist (else its default): the
  // model's default, which a Context starts from. Also for what is drawn rather than
  // simulated (sketch()).
  double netlist_value(RealParam p) const;
  int numeric_parameter_count() const;
  // True when parameter `name` decides which other parameters exist (set_decides_parameters):
  // a loader sets such parameters before any other.
  bool decides_parameters(const std::string& name) const;
  // Gives the deciding parameters not set yet their defaults and calls
  // declare_dependent_parameters(), once; a no-op for a component without deciding
  // parameters. Setting another parameter and finish_configuration() call it too; a
  // loader calls it right after setting the deciding ones, so that an error there (an FMU
  // that cannot be read) is located at them.
  void declare_dependents();

 protected:
  // ---- declarations (constructor: parameters; configure(): the rest) ----
  // A numeric parameter: its value lives in the Context (parameter.hpp); keep the handle
  // and read it with Eval::param. It is never read by name.
  RealParam declare_real(std::string name, std::string unit, std::optional<double> default_value,
                         std::string description, Range range = Range::any());
  // A real that shapes the model or sets an initial state (configuration, parameter.hpp):
  // read once, with config_real(), in configure().
  void declare_config_real(std::string name, std::string unit, std::optional<double> default_value,
                           std::string description, Range range = Range::any());
  void declare_integer(std::string name, std::optional<long> default_value, std::string description,
                       Range range = Range::any());
  void declare_boolean(std::string name, bool default_value, std::string description);
  void declare_text(std::string name, std::optional<std::string> default_value, std::string description,
                    std::vector<std::string> choices = {});
  void declare_real_list(std::string name, std::string unit, std::optional<std::vector<double>> default_value,
                         std::string description);
  void declare_table(std::string name, std::vector<std::string> column_units, std::string description,
                     std::optional<nlohmann::json> default_value = std::nullopt);
  // An object of name -> `size` numbers in `unit` (size 0: any length).
  void declare_named_vectors(std::string name, std::string unit, int size, std::optional<nlohmann::json> default_value,
                             std::string description);
  // The path of a file the component reads (configuration text): the netlist loader makes
  // a relative path relative to the file that writes it (a --set value: to the working
  // folder), and lists the file among those the netlist needs (Netlist::files). A netlist
  // may name files in its own folder and the library folders only (unless the user allows
  // any path); one that holds code the component runs (PathContent::Code: an FMU's
  // binary) loads only with the user's consent, as a plugin does.
  enum class PathContent { Data, Code };
  void declare_path(std::string name, std::optional<std::string> default_value, std::string description,
                    PathContent content = PathContent::Data);

  // Parameters that depend on others' values. A component whose parameters are not known
  // until one of its parameters is (an FMU's parameters come from its file; an input's
  // value takes the unit it is given) marks that parameter in its constructor, after
  // declaring it, and declares the others in declare_dependent_parameters(). The
  // framework calls it once, when the deciding parameters have their values (given, or
  // their defaults) and before any other parameter is set or configure() runs; read them
  // there as in configure() (text(), config_real(), ...).
  void set_decides_parameters(const std::string& name);
  virtual void declare_dependent_parameters() {}

  // A typical value of parameter `name`, as a netlist would write it ("0.5 m"), for what
  // is shown without a netlist: `jourdain describe` and the component reference build an
  // instance from the examples to list its ports, and the netlist schema offers them to
  // editors. Give one for each required parameter whose range alone does not make a
  // working instance, and where two parameters must be given one of two ways.
  void set_example(const std::string& name, nlohmann::json value);

  virtual void configure() {}
  // The world being configured for: valid in configure() only.
  const World& world() const;
  // True while configure() builds an instance that is only described, never run
  // (finish_configuration's Purpose::Describe): declare everything, load nothing.
  bool describing() const;

  PortId declare_port(std::string name, const Domain& domain, PortSide side, std::string description);
  void set_optional(PortId p);
  // The unit of a port's outputs whose domain gives them none (a signal): what a
  // sensor measures, "m", "Pa", "rad/s". A unit expression of units.hpp.
  void set_unit(PortId p, std::string unit);
  // This port's outputs read the inputs of exactly `inputs` (empty: states only).
  void set_dependencies(PortId p, std::vector<PortId> inputs);
  StateId declare_state(std::string name, std::string unit, double initial, std::string description);
  // Output `output` of port `p` is state `s`, as it is (a mass's position and velocity,
  // an integrator's value): the Model copies the state there before any calc_outputs
  // runs, and calc_outputs leaves it alone. A component whose outputs are all such
  // copies needs no calc_outputs: a large model's evaluation spares it a call.
  void declare_state_output(PortId p, Var output, StateId s);
  DiscreteId declare_discrete(std::string name, double initial, std::string description, std::string unit = "");
  UnknownId declare_unknown(std::string name, std::string unit, double initial_guess, std::string description);
  ObservableId declare_observable(std::string name, std::string unit, std::string description);
  // The same for a value whose unit does not name what it is (NamedSpec::quantity).
  ObservableId declare_observable(std::string name, std::string unit, std::string description, std::string quantity);
  // Marks an observable as energy stored (J), a loss or a supply (W): see EnergyRole.
  void set_energy_role(ObservableId o, EnergyRole role);
  ZeroCrossingId declare_zero_crossing(std::string name, CrossingDirection direction, std::string description);
  // A value computed from the numeric parameters by calc_derived, once per set of
  // parameter values of a Context, and read with Eval::derived (an orifice's area
  // π d²/4 from its diameter). Named for tools (Model::derived_value).
  DerivedId declare_derived(std::string name, std::string unit, std::string description);

  // ---- configuration values, in SI (valid from configure() on) ----
  double config_real(const std::string& name) const;
  long integer(const std::string& name) const;
  bool boolean(const std::string& name) const;
  std::string text(const std::string& name) const;
  std::vector<double> real_list(const std::string& name) const;
  std::vector<std::vector<double>> table(const std::string& name) const;  // rows
  NamedVectors named_vectors(const std::string& name) const;

  // Throws an InputError naming this component and the parameter.
  [[noreturn]] void parameter_error(const std::string& param, const std::string& message) const;

 private:
  const ParamSpec& spec(const std::string& name) const;

  // What the component declared, its identity and its parameter values: read while a
  // model is built, not while it runs, so kept apart. An evaluation reads the derived
  // class's handles only, which then sit next to the vtable pointer (and, for
  // components a Registry creates, next to those of the neighbouring components).
  struct Declarations;
  std::unique_ptr<Declarations> d_;
  const TypeEvaluation* type_evaluation_ = nullptr;
};

// The TypeEvaluation of component type C: its own calc_outputs and calc_derivatives,
// called by name (no virtual dispatch) on each instance of a run. A hook C keeps out of
// reach (private) is called through the virtual one instead.
template <class C>
struct EvaluateRun {
  static constexpr bool kOwnOutputs = requires(const C& c, Eval& e) { c.C::calc_outputs(e); };
  static constexpr bool kOwnDerivatives = requires(const C& c, Eval& e) { c.C::calc_derivatives(e); };
  static void outputs(const PlacedComponent* first, const PlacedComponent* last, Context& ctx, const World& world) {
    for (const PlacedComponent* i = first; i != last; ++i) {
      Eval e(*i->component, i->layout, ctx, world, Eval::Phase::Outputs);
      if constexpr (kOwnOutputs) static_cast<const C&>(*i->component).C::calc_outputs(e);
      else i->component->calc_outputs(e);
    }
  }
  static void derivatives(const PlacedComponent* first, const PlacedComponent* last, Context& ctx, const World& world) {
    for (const PlacedComponent* i = first; i != last; ++i) {
      Eval e(*i->component, i->layout, ctx, world, Eval::Phase::Derivatives);
      if constexpr (kOwnDerivatives) static_cast<const C&>(*i->component).C::calc_derivatives(e);
      else i->component->calc_derivatives(e);
    }
  }
  static constexpr TypeEvaluation hooks{&outputs, &derivatives};
};

}  // namespace jourdain
