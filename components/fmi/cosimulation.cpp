// fmi.cosimulation: an FMI 2.0 Co-Simulation FMU as a component (components/fmi/README.md).
//
// The FMU's file is the parameter "fmu"; its modelDescription.xml decides the rest:
//   - its parameters become the component's: Real ones numeric (in the Context, per run,
//     converted from SI to the FMU's unit), Integer, Enumeration, Boolean and String ones
//     configuration;
//   - its Real, Integer, Enumeration and Boolean inputs and outputs become signal ports
//     (an Integer input takes the nearest integer of its signal, a Boolean one "signal >
//     0.5"; outputs give their value, a Boolean 0 or 1). String inputs and outputs have no
//     signal to travel on: they are left alone.
// Names are the FMU's with every character other than a letter, a digit or '_' made '_'
// ("pi.kp" -> "pi_kp").
//
// Sample and hold at the communication step h (the master algorithm of FMI 2.0 section
// 4.2.4, with the FMU one step behind the netlist): at t_0 the FMU is initialized with the
// inputs u(t_0) and its outputs y(t_0) are held. At each communication point t_k = t_0 + k h
// a zero crossing (t − t_k) stops the integration; the component calls
// fmi2DoStep(t_{k−1}, h), which advances the FMU over the last interval with the inputs
// held since t_{k−1}, and holds the outputs y(t_k) it then gives. A second event at the
// same instant, once the netlist has seen y(t_k), samples and sets the inputs u(t_k) for
// the next interval: a loop through the FMU and the netlist sees each output as soon as it
// is known. The outputs are discrete states, so they read no input (no direct
// feedthrough): they break algebraic loops.
//
// The FMU's instance is run data: each Context has its own (ComponentWorkspace), made
// when the Context is initialized and freed with the Context; a copy of a Context gets a
// copy of the instance through fmi2GetFMUstate/fmi2SetFMUstate when the FMU can do it. The
// component itself holds the unpacked archive and the loaded binary, shared by every run
// and removed with the model; an FMU that allows one instance per process only gets an
// unpacked, loaded copy of its own for each instance.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fmi_library.hpp"
#include "fmu_binary.hpp"
#include "fmu_process.hpp"
#include "jourdain/units.hpp"

namespace jourdain::fmi {

namespace {

const char* status_name(fmi2Status s) {
  switch (s) {
    case fmi2OK: return "fmi2OK";
    case fmi2Warning: return "fmi2Warning";
    case fmi2Discard: return "fmi2Discard";
    case fmi2Error: return "fmi2Error";
    case fmi2Fatal: return "fmi2Fatal";
    case fmi2Pending: return "fmi2Pending";
  }
  return "an unknown status";
}

// A variable's name as a port or parameter name: letters, digits and '_'.
std::string local_name(const std::string& fmi_name) {
  std::string out;
  for (char c : fmi_name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "v_" + out;
  return out;
}

// The SI unit, as Jourdain writes it, of a dimension: the FMU's own unit name when that
// is one ("N", "m/s"), else the quantity table's ("Pa"), else the base units ("kg/m/s^2").
std::string si_unit_name(const std::string& given, const Dimension& d) {
  auto coherent = [&](const std::string& name) {
    try {
      const Unit u = parse_unit(name);
      return u.scale == 1.0 && u.offset == 0.0 && u.dimension == d;
    } catch (const UnitError&) {
      return false;
    }
  };
  if (!given.empty() && coherent(given)) return given;
  if (d == Dimension{}) return "";
  for (const auto& q : quantities())
    if (coherent(q.si_unit)) return q.si_unit;
  static const char* names[] = {"m", "kg", "s", "A", "K", "mol", "cd"};
  std::string text;
  for (int k = 0; k < 7; ++k)
    if (d.exponent[k] > 0)
      text += (text.empty() ? "" : "*") + std::string(names[k]) + (d.exponent[k] > 1 ? "^" + std::to_string(d.exponent[k]) : "");
  if (text.empty()) text = "1";
  for (int k = 0; k < 7; ++k)
    if (d.exponent[k] < 0)
      text += "/" + std::string(names[k]) + (d.exponent[k] < -1 ? "^" + std::to_string(-d.exponent[k]) : "");
  return text;
}

// How a Real variable's values convert: SI = factor * value + offset, in `unit` (SI).
struct UnitConversion {
  std::string unit;
  double factor = 1.0;
  double offset = 0.0;
  std::string note;  // when the FMU's unit could not be understood
  double to_si(double v) const { return factor * v + offset; }
  double from_si(double v) const { return (v - offset) / factor; }
};

UnitConversion unit_conversion(const ModelDescription& md, const std::string& name) {
  UnitConversion c;
  if (name.empty()) return c;
  // The unit's definition in the FMU (2.2.2), else Jourdain's reading of its name.
  if (const UnitDefinition* def = md.unit(name); def && def->has_base_unit) {
    Dimension d;
    // kg, m, s, A, K, mol, cd in the FMU; m, kg, s, A, K, mol, cd in Jourdain; rad is
    // dimensionless in both readings of the SI.
    static const int order[] = {1, 0, 2, 3, 4, 5, 6};
    for (int k = 0; k < 7; ++k) d.exponent[k] = def->exponents[order[k]];
    if (def->factor != 0.0) {
      c.factor = def->factor;
      c.offset = def->offset;
      c.unit = si_unit_name(name, d);
      return c;
    }
  }
  try {
    const Unit u = parse_unit(name);
    c.factor = u.scale;
    c.offset = u.offset;
    c.unit = si_unit_name(name, u.dimension);
  } catch (const UnitError&) {
    c.note = " (the FMU's unit '" + name + "' is not understood: values pass unconverted)";
  }
  return c;
}

// ------------------------------------------------------------------ one instance per run

class Instance;

// fmi2CallbackLogger: the FMU's messages, kept by the instance until the call that
// produced them returns.
void log_message(fmi2ComponentEnvironment environment, fmi2String, fmi2Status status, fmi2String category,
                 fmi2String message, ...);

class Instance final : public ComponentWorkspace {
 public:
  enum class Phase { Instantiated, Initializing, Stepping, Failed, Lost };

  struct Identity {
    // The unpacked FMU all instances share, or none when the FMU allows one instance per
    // process only (canBeInstantiatedOnlyOncePerProcess) and runs in this one: each
    // instance then unpacks and loads a copy of its own, which the dynamic loader keeps
    // apart.
    std::shared_ptr<const FmuBinary> shared;
    std::filesystem::path file;
    std::shared_ptr<const ModelDescription> description;
    std::string name;  // the component's
    // Isolation "process": each instance runs in a process of its own (fmu_process.hpp),
    // each of its calls within `call_timeout` seconds.
    bool own_process = false;
    double call_timeout = INFINITY;
  };

  // Throws FmuError when a copy of its own cannot be unpacked, or its process started.
  explicit Instance(Identity id)
      : id_(std::move(id)),
        binary_(id_.shared ? id_.shared
                           : std::make_shared<const FmuBinary>(id_.file, *id_.description, /*load_here=*/!id_.own_process)),
        process_(id_.own_process ? std::make_shared<FmuProcess>(binary_->library(), id_.description->can_get_and_set_fmu_state)
                                 : nullptr),
        callbacks_{&log_message, &std::calloc, &std::free, nullptr, this} {
    if (process_) {
      process_->set_timeout(id_.call_timeout);
      handle_ = process_->instantiate(id_.name, id_.description->guid, binary_->resource_uri(), callbacks_);
    } else {
      handle_ = f().instantiate(id_.name.c_str(), fmi2CoSimulation, id_.description->guid.c_str(),
                                binary_->resource_uri().c_str(), &callbacks_, fmi2False, fmi2False);
    }
  }
  ~Instance() override {
    if (!handle_ || phase == Phase::Lost) return;  // after fmi2Fatal no function may be called
    if (phase == Phase::Initializing || phase == Phase::Stepping) f().terminate(handle_);
    f().free_instance(handle_);
  }
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  std::unique_ptr<ComponentWorkspace> clone() const override {
    if (!id_.description->can_get_and_set_fmu_state || !handle_ || phase == Phase::Failed || phase == Phase::Lost)
      return nullptr;
    if (process_) {
      // The copy is a second instance in the same process, its state taken there: an
      // FMU's state does not travel between processes (it is a pointer of its own).
      if (id_.description->can_be_instantiated_only_once_per_process) return nullptr;
      std::unique_ptr<Instance> copy(new Instance(InSameProcess{}, *this));
      log_.clear();
      unkept_ = 0;
      if (!copy->handle_) return nullptr;
      copy->phase = phase;
      copy->given = given;
      return copy;
    }
    std::unique_ptr<Instance> copy;
    try {
      copy = std::make_unique<Instance>(id_);
    } catch (const std::exception&) {
      return nullptr;  // no room for another unpacked copy: the run's copy cannot go on
    }
    if (!copy->handle_) return nullptr;
    fmi2FMUstate state = nullptr;
    if (f().get_fmu_state(handle_, &state) > fmi2Warning) return nullptr;
    const fmi2Status set = f().set_fmu_state(copy->handle_, state);
    f().free_fmu_state(handle_, &state);
    log_.clear();
    unkept_ = 0;
    if (set > fmi2Warning) return nullptr;
    copy->phase = phase;
    copy->given = given;
    return copy;
  }

  const Functions& f() const { return process_ ? FmuProcess::proxies() : binary_->functions(); }
  fmi2Component handle() const { return handle_; }

  // While a component's hook calls the FMU: a run asked to stop (a Ctrl-C) ends a call
  // under way in the FMU's process. Nothing to do for an FMU in this process: its calls
  // cannot be ended from outside.
  class Watch {
   public:
    Watch(Instance& inst, const Eval& e) : process_(inst.process_.get()) {
      if (process_) process_->set_stop_requested([&e] { return e.stop_requested(); });
    }
    ~Watch() {
      if (process_) process_->set_stop_requested(nullptr);
    }
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;

   private:
    FmuProcess* process_;
  };
  // What the FMU logs between two of our calls, bounded: an FMU that logs without end
  // (a message per internal step) must not hold the run's memory. Messages beyond
  // kMaxKept in one call are counted, and said as one.
  static constexpr size_t kMaxKept = 100;
  void keep(fmi2Status status, std::string text) const {
    if (status == fmi2OK) return;  // information: the run's warnings take only what is worse
    if (log_.size() < kMaxKept) log_.emplace_back(status, std::move(text));
    else ++unkept_;
  }
  std::vector<std::pair<fmi2Status, std::string>> take_log() {
    if (unkept_ > 0)
      log_.emplace_back(fmi2Warning, std::to_string(std::exchange(unkept_, 0)) + " more messages in this call, not kept");
    return std::exchange(log_, {});
  }
  // The run's warnings take an FMU's first kMaxWarnings warnings and say that later ones
  // are left out (as the event log bounds its entries): 10^6 warnings made a 93 MB
  // summary.json.
  static constexpr long kMaxWarnings = 100;
  long warnings_given = 0;

  Phase phase = Phase::Instantiated;
  std::vector<double> given;  // the Real parameters as last given to the FMU (SI; NaN for the others)

 private:
  // A second instance in the source's process, in its state (clone()), its messages its
  // own. Not a copy constructor: it asks the FMU's process for a new instance.
  struct InSameProcess {};
  Instance(InSameProcess, const Instance& source)
      : id_(source.id_),
        binary_(source.binary_),
        process_(source.process_),
        callbacks_{&log_message, &std::calloc, &std::free, nullptr, this} {
    handle_ = process_->copy(source.handle_, id_.name, id_.description->guid, binary_->resource_uri(), callbacks_);
  }

  Identity id_;
  std::shared_ptr<const FmuBinary> binary_;
  std::shared_ptr<FmuProcess> process_;  // isolation "process"; shared with copies of this instance
  fmi2CallbackFunctions callbacks_;  // the FMU may keep its address: it lives as long as the instance
  fmi2Component handle_ = nullptr;
  // The FMU reports through the logger whenever it is called, also while a copy of the
  // instance is taken (clone(), which is const).
  mutable std::vector<std::pair<fmi2Status, std::string>> log_;
  mutable long unkept_ = 0;
};

void log_message(fmi2ComponentEnvironment environment, fmi2String, fmi2Status status, fmi2String category,
                 fmi2String message, ...) {
  if (!environment || !message) return;
  va_list args, again;
  va_start(args, message);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, message, args);
  std::string text(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, message, again);
  va_end(again);
  va_end(args);
  if (category && *category) text = std::string("[") + category + "] " + text;
  static_cast<const Instance*>(environment)->keep(status, std::move(text));
}

}  // namespace

// ------------------------------------------------------------------ the component

class CoSimulation final : public Component {
 public:
  CoSimulation() {
    declare_path("fmu", std::nullopt, "the FMI 2.0 Co-Simulation FMU (.fmu file); its parameters, inputs and outputs "
                                      "become this component's (`jourdain describe FILE.fmu` lists them)",
                 PathContent::Code);
    set_decides_parameters("fmu");
    // Nothing can be shown without an FMU: the reference says so, naming a file.
    set_example("fmu", "model.fmu");
    declare_text("isolation", "auto",
                 "where the FMU's code runs: \"process\", a process of its own for each run (a crash, exit() or hang "
                 "in the FMU ends the run with a message, never Jourdain), \"none\", in Jourdain's process (each "
                 "call a function call: faster where calls are many, for FMUs you trust), or \"auto\": \"process\" "
                 "wherever Jourdain's program for it is installed (the command line, Python), \"none\" inside an "
                 "FMU Jourdain exported, which carries no such program",
                 {"auto", "process", "none"});
    declare_config_real("call_timeout", "s", 600.0,
                        "longest a single call into the FMU (an fmi2DoStep) may take before its process is ended "
                        "and the run fails (isolation \"process\" only; 0: no limit, a Ctrl-C still ends it)",
                        Range::non_negative());
  }

  void declare_dependent_parameters() override {
    file_ = text("fmu");
    try {
      md_ = parse_model_description(read_zip_entry(file_, "modelDescription.xml"));
    } catch (const FmuError& e) {
      parameter_error("fmu", file_ + ": " + e.what());
    }
    if (md_.fmi_version != "2.0")
      parameter_error("fmu", file_ + ": FMI version '" + md_.fmi_version + "': only FMI 2.0 FMUs are supported");
    if (!md_.cosimulation)
      parameter_error("fmu", file_ + ": an FMU for Model Exchange only; fmi.cosimulation needs Co-Simulation");
    if (md_.model_identifier.empty()) parameter_error("fmu", file_ + ": <CoSimulation> has no modelIdentifier");

    // The component's own names, and for each output the discrete state that holds it.
    std::set<std::string> taken = {"fmu",       "communication_step", "isolation",         "call_timeout",
                                   "fmi_steps", "fmi_start_time",     "fmi_sample_pending"};
    auto name_of = [&](const ScalarVariable& v) {
      std::string n = local_name(v.name);
      const bool output = v.causality == "output";
      if (!taken.insert(n).second || (output && !taken.insert("held_" + n).second))
        parameter_error("fmu", file_ + ": variable '" + v.name + "' would be named '" + n +
                                   "', a name another of its variables (or the component) takes");
      return n;
    };
    const std::string default_step =
        md_.step_size ? "; default: the FMU's DefaultExperiment stepSize" : "";
    step_ = declare_real("communication_step", "s", md_.step_size,
                         "the communication step h: the FMU is advanced (fmi2DoStep) every h, its inputs sampled "
                         "and its outputs held in between" + default_step,
                         Range::positive());
    for (const ScalarVariable& v : md_.variables) {
      const bool parameter = v.causality == "parameter" && (v.variability == "fixed" || v.variability == "tunable");
      if (parameter) declare_fmu_parameter(v, name_of(v));
      else if ((v.causality == "input" || v.causality == "output") && v.type != VariableType::String)
        exchanges_.push_back(Exchange{name_of(v), &v - md_.variables.data(), {}, {}, {}});
    }
  }

  void configure() override {
    description_ = std::make_shared<const ModelDescription>(md_);
    const std::string isolation = text("isolation");
    std::error_code ec;
    own_process_ = isolation == "process" ||
                   (isolation == "auto" && std::filesystem::is_regular_file(FmuProcess::program(), ec));
    call_timeout_ = config_real("call_timeout") > 0.0 ? config_real("call_timeout") : INFINITY;
    // Described only (`jourdain describe model.fmu`): the XML says it all, and loading the
    // binary would run its code (a library's constructors run at dlopen).
    if (!describing()) {
      try {
        // Whether it can be loaded, now (a netlist that cannot run is bad input): here, or
        // by a process started for the purpose.
        binary_ = std::make_shared<const FmuBinary>(file_, md_, /*load_here=*/!own_process_);
        if (own_process_) {
          const FmuProcess loads(binary_->library(), md_.can_get_and_set_fmu_state);
        }
      } catch (const FmuError& e) {
        parameter_error("fmu", file_ + ": " + e.what());
      } catch (const std::filesystem::filesystem_error& e) {
        parameter_error("fmu", file_ + ": cannot be unpacked: " + e.what());
      }
    }
    for (Exchange& x : exchanges_) {
      const ScalarVariable& v = md_.variables[x.variable];
      x.conversion = v.type == VariableType::Real ? unit_conversion(md_, v.unit) : UnitConversion{};
      const std::string what = std::string(to_string(v.type)) + " " + v.causality + " '" + v.name + "'" +
                               (x.conversion.unit.empty() ? "" : " [" + x.conversion.unit + "]") +
                               (v.description.empty() ? "" : ": " + v.description) + x.conversion.note;
      if (v.causality == "input") {
        x.port = declare_port(x.name, signal_domain(), PortSide::Response, what + " (unconnected: its start value)");
        set_optional(x.port);
      } else {
        x.port = declare_port(x.name, signal_domain(), PortSide::State, what + " (held between communication points)");
        set_dependencies(x.port, {});  // a discrete state: reads no input
        x.held = declare_discrete("held_" + x.name, 0.0, "the output " + x.name + " as last given by the FMU",
                                  x.conversion.unit);
        if (v.type == VariableType::Real) {
          real_outputs_.push_back(static_cast<size_t>(&x - exchanges_.data()));
          real_output_references_.push_back(v.value_reference);
        }
      }
      if (!x.conversion.unit.empty()) set_unit(x.port, x.conversion.unit);
    }
    steps_ = declare_discrete("fmi_steps", 0.0, "communication steps taken (fmi2DoStep calls)");
    start_ = declare_discrete("fmi_start_time", 0.0, "time the FMU was initialized at", "s");
    pending_ = declare_discrete("fmi_sample_pending", 0.0, "1 between a step's outputs and the sampling of the inputs");
    communication_ = declare_zero_crossing("communication", CrossingDirection::Rising,
                                           "t - t_k: the next communication point");
    sample_ = declare_zero_crossing("sample", CrossingDirection::Rising,
                                    "fmi_sample_pending - 1/2: the inputs are sampled once the outputs are known");
  }

  void initialize(Eval& e) const override {
    // A context started again after it ran: a new instance.
    if (Instance* old = e.find_workspace<Instance>(); old && old->phase != Instance::Phase::Instantiated &&
                                                      old->phase != Instance::Phase::Initializing)
      e.drop_workspace();
    Instance& inst = e.workspace<Instance>([&] {
      try {
        return new Instance(identity());
      } catch (const FmuError& err) {
        throw SimulationError(e.time(), {name()}, "FMU " + file_ + ": its instance for this run: " + err.what());
      }
    });
    const Instance::Watch watch(inst, e);
    if (!inst.handle()) fail(e, inst, fmi2Error, "fmi2Instantiate (it returned no instance)");
    if (inst.phase == Instance::Phase::Instantiated) {
      set_parameters(e, inst, /*all=*/true);
      call(e, inst, inst.f().setup_experiment(inst.handle(), fmi2False, 0.0, e.time(), fmi2False, 0.0),
           "fmi2SetupExperiment");
      call(e, inst, inst.f().enter_initialization_mode(inst.handle()), "fmi2EnterInitializationMode");
      inst.phase = Instance::Phase::Initializing;
    }
    // In initialization mode the FMU answers the inputs at once: every pass of the
    // model's start sets them again and holds the outputs they give.
    set_inputs(e, inst);
    hold_outputs(e, inst);
    e.set_discrete(steps_, 0.0);
    e.set_discrete(start_, e.time());
    e.set_discrete(pending_, 0.0);
  }

  void calc_outputs(Eval& e) const override {
    for (const Exchange& x : exchanges_)
      if (x.held.valid()) e.set_out(x.port, signal::value, e.discrete(x.held));
  }

  void calc_zero_crossings(Eval& e) const override {
    e.set_zero_crossing(communication_, e.time() - next_point(e));
    e.set_zero_crossing(sample_, e.discrete(pending_) - 0.5);
  }
  // The communication points are time events: the solvers end a step on t_k to the bit,
  // so that rows and the FMU's step sit at t_k. A run that ends on t_k (an importing
  // tool's step of k h + h against t_0 + (k + 1) h, equal to rounding) meets it there; one
  // that ends a rounding unit short meets it a rounding unit into the next run, where the
  // step from the run's start lands on it.
  double next_time_event(const Eval& e) const override { return next_point(e); }

  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    Instance* inst = e.find_workspace<Instance>();
    if (!inst)
      throw SimulationError(e.time(), {name()},
                            "FMU " + file_ + ": this copy of the run's context has no instance of the FMU (it "
                                             "cannot save and restore its state: canGetAndSetFMUstate is false)");
    const Instance::Watch watch(*inst, e);
    if (z == sample_) {
      set_inputs(e, *inst);
      e.set_discrete(pending_, 0.0);
      return;
    }
    if (inst->phase == Instance::Phase::Initializing) {
      call(e, *inst, inst->f().exit_initialization_mode(inst->handle()), "fmi2ExitInitializationMode");
      inst->phase = Instance::Phase::Stepping;
    }
    set_parameters(e, *inst, /*all=*/false);
    const double h = e.param(step_);
    const double steps = e.discrete(steps_);
    const double t = e.discrete(start_) + steps * h;  // t_k from the count, free of summed rounding
    std::ostringstream what;
    what.precision(12);
    what << "fmi2DoStep(t = " << t << " s, h = " << h << " s)";
    const fmi2Status stepped = inst->f().do_step(inst->handle(), t, h, fmi2True);
    if (stepped == fmi2Discard && asks_to_terminate(*inst)) {
      // The FMU ends the simulation (FMI 2.0 section 4.2.3: fmi2Discard, then
      // fmi2Terminated true): so does the run, as finished, with the outputs it reached.
      std::ostringstream reason;
      reason.precision(12);
      reason << "the FMU asked to end the simulation (" << what.str() << " returned fmi2Discard, fmi2Terminated";
      if (double reached = 0.0; inst->f().get_real_status &&
                                inst->f().get_real_status(inst->handle(), fmi2LastSuccessfulTime, &reached) == fmi2OK &&
                                std::isfinite(reached))
        reason << "; its last successful time " << reached << " s";
      reason << ")";
      for (auto& [level, text] : inst->take_log())
        if (level != fmi2OK) reason << "; " << text;
      hold_outputs(e, *inst);
      e.set_discrete(steps_, steps + 1.0);
      e.terminate(reason.str());
      return;
    }
    call(e, *inst, stepped, what.str());
    hold_outputs(e, *inst);
    e.set_discrete(steps_, steps + 1.0);
    e.set_discrete(pending_, 1.0);
  }

 private:
  struct Exchange {  // an input or an output
    std::string name;
    std::ptrdiff_t variable;  // into md_.variables
    UnitConversion conversion;
    PortId port;
    DiscreteId held;  // outputs
  };
  struct FmuParameter {
    std::string name;
    std::ptrdiff_t variable;
    UnitConversion conversion;
    RealParam real;  // Real ones; the others are configuration, read by name
    bool tunable = false;
  };

  void declare_fmu_parameter(const ScalarVariable& v, const std::string& name) {
    FmuParameter p{name, &v - md_.variables.data(), {}, {}, v.variability == "tunable"};
    std::string what = v.description.empty() ? "parameter '" + v.name + "' of the FMU" : v.description;
    if (v.name != name && what.find(v.name) == std::string::npos) what += " ('" + v.name + "')";  // its FMI name
    auto start_number = [&]() -> std::optional<double> {
      if (!v.start) return std::nullopt;
      char* end = nullptr;
      const double value = std::strtod(v.start->c_str(), &end);
      if (end == v.start->c_str()) parameter_error("fmu", file_ + ": parameter '" + v.name + "' has the start value '" + *v.start + "', no number");
      return value;
    };
    switch (v.type) {
      case VariableType::Real: {
        p.conversion = unit_conversion(md_, v.unit);
        const auto start = start_number();
        p.real = declare_real(name, p.conversion.unit,
                              start ? std::optional<double>(p.conversion.to_si(*start)) : std::nullopt,
                              what + p.conversion.note);
        break;
      }
      case VariableType::Integer:
      case VariableType::Enumeration: {
        const auto start = start_number();
        // fmi2Integer is 32 bits: a netlist's value beyond them would reach the FMU cut short.
        declare_integer(name, start ? std::optional<long>(std::lround(*start)) : std::nullopt, what,
                        Range::between(std::numeric_limits<fmi2Integer>::min(), std::numeric_limits<fmi2Integer>::max()));
        break;
      }
      case VariableType::Boolean:
        declare_boolean(name, v.start && (*v.start == "true" || *v.start == "1"), what);
        break;
      case VariableType::String: declare_text(name, v.start, what); break;
    }
    parameters_.push_back(std::move(p));
  }

  Instance::Identity identity() const {
    // In a process of its own, each instance is alone in its process: the unpacked FMU
    // serves them all.
    const bool own_copy = md_.can_be_instantiated_only_once_per_process && !own_process_;
    return {own_copy ? nullptr : binary_, file_, description_, name(), own_process_, call_timeout_};
  }

  double next_point(const Eval& e) const {
    return e.discrete(start_) + (e.discrete(steps_) + 1.0) * e.param(step_);
  }

  // Gives the FMU its parameters: all of them before it is initialized, later the tunable
  // Real ones whose value changed since.
  void set_parameters(Eval& e, Instance& inst, bool all) const {
    if (all) inst.given.assign(parameters_.size(), std::nan(""));
    for (size_t k = 0; k < parameters_.size(); ++k) {
      const FmuParameter& p = parameters_[k];
      const ScalarVariable& v = md_.variables[p.variable];
      const fmi2ValueReference vr = v.value_reference;
      if (v.type == VariableType::Real) {
        const double si = e.param(p.real);
        if (!all && (!p.tunable || inst.given[k] == si)) continue;
        inst.given[k] = si;
        const fmi2Real value = p.conversion.from_si(si);
        call(e, inst, inst.f().set_real(inst.handle(), &vr, 1, &value), "fmi2SetReal of parameter '" + v.name + "'");
      } else if (all) {
        if (v.type == VariableType::Boolean) {
          const fmi2Boolean value = boolean(p.name) ? fmi2True : fmi2False;
          call(e, inst, inst.f().set_boolean(inst.handle(), &vr, 1, &value), "fmi2SetBoolean of parameter '" + v.name + "'");
        } else if (v.type == VariableType::String) {
          const std::string value = text(p.name);
          const fmi2String s = value.c_str();
          call(e, inst, inst.f().set_string(inst.handle(), &vr, 1, &s), "fmi2SetString of parameter '" + v.name + "'");
        } else {
          const fmi2Integer value = static_cast<fmi2Integer>(integer(p.name));
          call(e, inst, inst.f().set_integer(inst.handle(), &vr, 1, &value), "fmi2SetInteger of parameter '" + v.name + "'");
        }
      }
    }
  }

  // The connected inputs' present values, to the FMU (unconnected ones keep their start).
  void set_inputs(Eval& e, Instance& inst) const {
    for (const Exchange& x : exchanges_) {
      if (x.held.valid() || !e.connected(x.port)) continue;
      const ScalarVariable& v = md_.variables[x.variable];
      const fmi2ValueReference vr = v.value_reference;
      const double u = e.in(x.port, signal::value);
      const std::string what = "fmi2Set" + std::string(to_string(v.type == VariableType::Enumeration ? VariableType::Integer : v.type)) +
                               " of input '" + v.name + "'";
      if (v.type == VariableType::Real) {
        const fmi2Real value = x.conversion.from_si(u);
        call(e, inst, inst.f().set_real(inst.handle(), &vr, 1, &value), what);
      } else if (v.type == VariableType::Boolean) {
        const fmi2Boolean value = u > 0.5 ? fmi2True : fmi2False;
        call(e, inst, inst.f().set_boolean(inst.handle(), &vr, 1, &value), what);
      } else {
        const fmi2Integer value = static_cast<fmi2Integer>(std::lround(u));
        call(e, inst, inst.f().set_integer(inst.handle(), &vr, 1, &value), what);
      }
    }
  }

  // The FMU's outputs now, held (SI).
  void hold_outputs(Eval& e, Instance& inst) const {
    // The Real outputs in one call (FMI takes arrays): with the FMU in a process of its
    // own each call is a round trip, and Real outputs are the many.
    if (!real_outputs_.empty()) {
      std::vector<fmi2Real> values(real_outputs_.size());
      const std::string what = "fmi2GetReal of the outputs";
      call(e, inst, inst.f().get_real(inst.handle(), real_output_references_.data(), values.size(), values.data()), what);
      for (size_t k = 0; k < values.size(); ++k) {
        const Exchange& x = exchanges_[real_outputs_[k]];
        const double value = x.conversion.to_si(values[k]);
        if (!std::isfinite(value))
          throw SimulationError(e.time(), {name()}, "FMU " + file_ + ": output '" + md_.variables[x.variable].name +
                                                        "' is not finite (" + what + ")");
        e.set_discrete(x.held, value);
      }
    }
    for (const Exchange& x : exchanges_) {
      if (!x.held.valid() || md_.variables[x.variable].type == VariableType::Real) continue;
      const ScalarVariable& v = md_.variables[x.variable];
      const fmi2ValueReference vr = v.value_reference;
      const std::string what = "fmi2Get" + std::string(to_string(v.type == VariableType::Enumeration ? VariableType::Integer : v.type)) +
                               " of output '" + v.name + "'";
      double value = 0.0;
      if (v.type == VariableType::Boolean) {
        fmi2Boolean b = fmi2False;
        call(e, inst, inst.f().get_boolean(inst.handle(), &vr, 1, &b), what);
        value = b ? 1.0 : 0.0;
      } else {
        fmi2Integer i = 0;
        call(e, inst, inst.f().get_integer(inst.handle(), &vr, 1, &i), what);
        value = i;
      }
      if (!std::isfinite(value))
        throw SimulationError(e.time(), {name()}, "FMU " + file_ + ": output '" + v.name + "' is not finite (" + what + ")");
      e.set_discrete(x.held, value);
    }
  }

  // After fmi2DoStep returned fmi2Discard: whether the FMU says it wants to terminate.
  static bool asks_to_terminate(Instance& inst) {
    fmi2Boolean terminated = fmi2False;
    return inst.f().get_boolean_status &&
           inst.f().get_boolean_status(inst.handle(), fmi2Terminated, &terminated) == fmi2OK && terminated == fmi2True;
  }

  // Checks what a call returned: its warnings join the run's; anything worse ends the run,
  // naming the FMU, the call and what the FMU logged.
  void call(Eval& e, Instance& inst, fmi2Status status, const std::string& what) const {
    if (status == fmi2OK || status == fmi2Warning) {
      for (auto& [level, text] : inst.take_log()) {
        if (level == fmi2OK) continue;
        if (++inst.warnings_given <= Instance::kMaxWarnings) e.warn("FMU " + file_ + ": " + text);
        if (inst.warnings_given == Instance::kMaxWarnings)
          e.warn("FMU " + file_ + ": its first " + std::to_string(Instance::kMaxWarnings) +
                 " warnings are listed; later ones are not");
      }
      return;
    }
    fail(e, inst, status, what);
  }
  [[noreturn]] void fail(Eval& e, Instance& inst, fmi2Status status, const std::string& what) const {
    inst.phase = status == fmi2Fatal ? Instance::Phase::Lost : Instance::Phase::Failed;
    std::string logged;
    for (auto& [level, text] : inst.take_log())
      if (level != fmi2OK) logged += (logged.empty() ? ": " : "; ") + text;
    // A call ended because the run was asked to stop (its FMU's process ended by a
    // Ctrl-C) is the run's interruption, as one between two steps is, not its failure.
    if (status == fmi2Fatal && e.stop_requested())
      throw Stopped("FMU " + file_ + ": " + what + " ended on the run's stop request" + logged);
    throw SimulationError(e.time(), {name()},
                          "FMU " + file_ + ": " + what + " returned " + status_name(status) + logged);
  }

  std::string file_;
  ModelDescription md_;
  std::shared_ptr<const ModelDescription> description_;  // md_, for the instances
  std::shared_ptr<const FmuBinary> binary_;
  bool own_process_ = true;  // isolation "process"
  double call_timeout_ = INFINITY;
  std::vector<Exchange> exchanges_;
  // The Real outputs (into exchanges_) and their value references, asked for in one call.
  std::vector<size_t> real_outputs_;
  std::vector<fmi2ValueReference> real_output_references_;
  std::vector<FmuParameter> parameters_;
  RealParam step_;
  DiscreteId steps_, start_, pending_;
  ZeroCrossingId communication_, sample_;
};

void register_cosimulation(Registry& r) {
  r.add<CoSimulation>("fmi.cosimulation",
                      "an FMI 2.0 Co-Simulation FMU: its inputs and outputs as signal ports, its parameters as "
                      "parameters, advanced every communication_step");
  r.add_file_type(".fmu", "fmi.cosimulation", "fmu");
}

}  // namespace jourdain::fmi
