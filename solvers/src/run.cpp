// Running a netlist (run.hpp).
#include "jourdain/solvers/run.hpp"

#include <chrono>
#include <exception>
#include <optional>
#include <sstream>

#include "internal.hpp"
#include "jourdain/energy.hpp"
#include "jourdain/recorder.hpp"
#include "jourdain/solvers/solver_registry.hpp"
#include "jourdain/version.hpp"

namespace jourdain {

std::vector<double> RunResult::column(const std::string& name) const {
  for (size_t k = 0; k < columns.size(); ++k) {
    if (columns[k] != name) continue;
    std::vector<double> out;
    out.reserve(rows.size());
    for (const auto& r : rows) out.push_back(r[k]);
    return out;
  }
  throw std::out_of_range("no recorded column '" + name + "'");
}

namespace {

class RecordingObserver final : public Observer {
 public:
  RecordingObserver(Recorder& recorder, RunResult& result, const RunOptions& options, long max_rows)
      : recorder_(recorder), result_(result), options_(options), max_rows_(max_rows) {}
  // The monitors read below come from block solvers, whose points the solvers always
  // evaluate (detail::ObservedPoints).
  PointEvaluation evaluation_needed() const override { return recorder_.evaluation_needed(); }
  void output(const Context& ctx) override {
    check_stop(ctx.t);
    // Output times are bounded up front (check_solver_bounds); events add two rows each,
    // so a model that keeps switching could still grow the file without end.
    if (recorder_.rows() >= max_rows_)
      throw SimulationError(ctx.t, {}, "more than " + std::to_string(max_rows_) +
                                           " rows recorded (output times plus two per event): the model keeps switching");
    recorder_.record(ctx);
    if (options_.keep_rows) result_.rows.push_back(recorder_.last_row());
    if (monitor_max.size() != ctx.monitors.size()) {
      monitor_max = Eigen::VectorXd::Zero(ctx.monitors.size());
      monitor_at = Eigen::VectorXd::Zero(ctx.monitors.size());
    }
    for (Eigen::Index k = 0; k < ctx.monitors.size(); ++k)
      if (std::abs(ctx.monitors[k]) > monitor_max[k]) monitor_max[k] = std::abs(ctx.monitors[k]), monitor_at[k] = ctx.t;
  }
  Eigen::VectorXd monitor_max;  // largest magnitude of each monitor over the recorded rows
  Eigen::VectorXd monitor_at;   // the time of that row

  void check_stop(double t) const {
    if (options_.stop_requested && options_.stop_requested()) throw detail::Interrupted(t);
  }

  void progress(double t) override {
    check_stop(t);
    if (options_.progress) options_.progress(t);
  }

  // The energy account, integrated along each accepted step by 4-point Gauss–Lobatto
  // quadrature on the method's interpolant (exact for polynomials of degree 5, so its
  // error stays below the integration's own), in a Context of its own: the run's is not
  // touched. A step that starts where the last one ended reuses that end's evaluation.
  // `sample_interval`: the spacing of the power samples kept for the report.
  void keep_energy_account(const Model& model, double t_start, double sample_interval) {
    energy.emplace(model);
    model_ = &model;
    next_sample_ = t_start;
    sample_interval_ = sample_interval;
  }
  std::optional<EnergyAccount> energy;
  bool wants_intervals() const override { return energy.has_value(); }
  void interval(const Context& ctx, double t0, double t1, const Interpolant& state_at) override {
    // Nodes 0, ½ ∓ √5/10, 1 and weights 1/12, 5/12, 5/12, 1/12 on [t0, t1].
    static constexpr double theta[] = {0.0, 0.5 - 0.2236067977499789696, 0.5 + 0.2236067977499789696, 1.0};
    static constexpr double weight[] = {1.0 / 12.0, 5.0 / 12.0, 5.0 / 12.0, 1.0 / 12.0};
    if (!scratch_) {
      scratch_.emplace(ctx);
      if (scratch_->component_workspaces.uncopied() > 0)
        throw SimulationError(t0, {}, "the energy account evaluates a copy of the run's Context, and a component here "
                                      "keeps its state in code that cannot be copied (an FMU): run without \"energy\"");
    }
    Context& s = *scratch_;
    // An event that changed discrete states alone (a switch, a valve) leaves t and x as
    // they were: the last end's evaluation, made with the old discrete states, is then
    // not this start's.
    const bool discrete_unchanged = s.discrete.size() == ctx.discrete.size() && s.discrete == ctx.discrete;
    s.discrete = ctx.discrete;
    const double h = t1 - t0;
    for (int k = 0; k < 4; ++k) {
      const double tk = k == 3 ? t1 : t0 + theta[k] * h;
      state_at(tk, x_);
      const bool same_as_last_end =
          k == 0 && has_end_ && discrete_unchanged && tk == s.t && x_.size() == s.x.size() && x_ == s.x;
      if (!same_as_last_end) {
        s.t = tk;
        s.x = x_;
        model_->evaluate(s);
        if (k == 0) energy->stored_at(s);  // the start; a jump from the last end is an event's
      }
      energy->add_rates(s, weight[k] * h);
    }
    energy->stored_at(s);
    if (t1 >= next_sample_) {
      energy->sample_power(s);
      next_sample_ = t1 + sample_interval_;
    }
    has_end_ = true;
  }

 private:
  const Model* model_ = nullptr;
  std::optional<Context> scratch_;
  Eigen::VectorXd x_;
  bool has_end_ = false;
  double next_sample_ = 0.0, sample_interval_ = 0.0;

  Recorder& recorder_;
  RunResult& result_;
  const RunOptions& options_;
  long max_rows_;
};

}  // namespace

namespace detail {

void open_output_folder(const std::filesystem::path& dir, Recorder& recorder) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError({dir.string(), "", "", ""}, "cannot create the output folder: " + ec.message());
  recorder.open(dir / "results.csv");
}

nlohmann::json events_json(const std::vector<EventRecord>& events) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& e : events) out.push_back({{"time", e.time}, {"component", e.component}, {"description", e.description}});
  return out;
}

nlohmann::json variables_json(const Recorder& recorder) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto* v : recorder.variables()) out.push_back({{"name", v->name}, {"unit", v->unit}});
  return out;
}

}  // namespace detail

RunResult run_netlist(const Netlist& netlist, const RunOptions& options) {
  RunResult result;
  InputLocation where{netlist.file.string(), "/solver", "", ""};
  std::optional<SolverRegistry> builtin;
  const SolverRegistry& solvers = options.solvers ? *options.solvers : builtin.emplace();
  nlohmann::json solver = netlist.solver;
  if (!options.solver.is_object()) throw InputError(where, "the run's solver settings must be an object");
  for (const auto& [key, value] : options.solver.items()) solver[key] = value;
  result.settings = solver_settings_from_json(solver, where, solvers, &result.warnings);
  if (options.t_end) {
    if (!(*options.t_end > result.settings.t_start))
      throw InputError({netlist.file.string(), "--t-end", "", ""}, "must be after t_start");
    result.settings.t_end = *options.t_end;
  }
  check_solver_bounds(result.settings, where, solvers);
  const Model& model = netlist.model;
  // The run's own Context: parameter values given for this run are checked before any
  // file is written.
  Context ctx = model.make_context(result.settings.t_start);
  ctx.analysis = netlist.analysis;
  ctx.stop_requested = options.stop_requested;
  for (const auto& [name, value] : options.parameters) model.set_parameter(ctx, name, value);
  for (const auto& [name, value] : options.initial) model.set_initial_state(ctx, name, value);
  Recorder recorder(model, netlist.record);
  for (auto* l : options.listeners) recorder.add_listener(*l);
  result.columns.push_back("time");
  for (const auto* v : recorder.variables()) result.columns.push_back(v->name);
  if (!options.output_dir.empty()) detail::open_output_folder(options.output_dir, recorder);
  if (options.started) options.started();

  RecordingObserver observer(recorder, result, options, 2 * result.settings.max_output_rows + 2);
  const bool energy = (options.energy || netlist.energy) && netlist.analysis == Analysis::Dynamic;
  // About 1000 samples of the power over time: a step end at most every 1/1000 of the span.
  if (energy)
    observer.keep_energy_account(model, result.settings.t_start,
                                 (result.settings.t_end - result.settings.t_start) / 1000.0);
  const auto start = std::chrono::steady_clock::now();
  // A defect (an exception that is no Jourdain error) still leaves its rows and summary
  // behind: it is handed back in the result, for the caller to write summary.json and
  // then report it as a defect.
  try {
    model.initialize(ctx);
    if (netlist.analysis == Analysis::Dynamic) simulate(model, ctx, result.settings, observer, result.stats, solvers);
    else analyze_over_time(model, ctx, result.settings, observer, result.stats);
    result.finished = true;
  } catch (const detail::Interrupted& e) {
    result.interrupted = true;
    result.failure = e.what();
    result.failure_time = e.time();
  } catch (const Stopped& e) {  // a component's own long work, stopped (Eval::stop_requested)
    result.interrupted = true;
    result.failure = e.what();
    result.failure_time = ctx.t;
  } catch (const SimulationError& e) {
    result.failure = e.what();
    result.failure_time = e.time();
  } catch (const OutputError& e) {  // results.csv on a full disk: the run cannot go on
    result.failure = e.what();
    result.failure_time = ctx.t;
  } catch (const Error&) {
    throw;  // bad input, an output file that cannot be written: not a defect
  } catch (const std::exception& e) {
    result.defect = std::current_exception();
    result.failure = std::string("internal error (a defect, not a property of the model): ") + e.what();
    result.failure_time = ctx.t;
  } catch (...) {
    result.defect = std::current_exception();
    result.failure = "internal error (a defect, not a property of the model): an exception of unknown type";
    result.failure_time = ctx.t;
  }
  ctx.stop_requested = nullptr;  // the caller's, valid during this call only
  result.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.termination = ctx.termination;
  result.events = ctx.events;
  result.events_not_logged = ctx.events_not_logged;
  // A monitor beyond its limit (a mechanism's constraint violation beyond
  // world.constraints.tolerance): the recorded results are not vouched for.
  for (size_t k = 0; k < model.monitors().size() && k < static_cast<size_t>(observer.monitor_max.size()); ++k) {
    const MonitorSpec& m = model.monitors()[k];
    if (!(observer.monitor_max[k] > m.limit)) continue;
    std::ostringstream msg;
    msg.precision(3);
    msg << m.name << " reached " << observer.monitor_max[k] << " " << m.unit << " at t = " << observer.monitor_at[k]
        << " s, above " << m.limit_setting << " = " << m.limit << " " << m.unit;
    ctx.warnings.emplace_back(msg.str(), Warning::Kind::Accuracy);
  }
  for (const auto& w : ctx.warnings) {  // after the settings' own
    result.warnings.push_back(w.message);
    if (w.accuracy()) result.accuracy_warnings.push_back(w.message);
  }
  // A strict run does not vouch for results that carry an accuracy warning: it fails,
  // after everything has been written, like any failure during a run.
  result.strict = options.strict || netlist.strict;
  if (result.strict && result.finished && !result.accuracy_warnings.empty()) {
    result.finished = false;
    result.failure = "strict run: the results are not vouched for (" + std::to_string(result.accuracy_warnings.size()) +
                     " accuracy warning" + (result.accuracy_warnings.size() == 1 ? "" : "s") +
                     "): " + result.accuracy_warnings.front();
    result.failure_time = result.stats.last_time;
  }
  result.row_count = recorder.rows();
  result.stats.algebraic_iterations = ctx.algebraic_iterations;

  nlohmann::json final_values = nlohmann::json::object();
  const auto& last = recorder.last_row();
  for (size_t k = 1; k < last.size(); ++k) final_values[result.columns[k]] = last[k];
  result.summary = {{"jourdain_version", JOURDAIN_VERSION},
                    {"netlist", netlist.file.string()},
                    {"name", netlist.name},
                    {"status", result.finished ? "finished" : result.interrupted ? "interrupted" : "failed"},
                    {"solver", to_json(result.settings, netlist.analysis)},
                    {"statistics", to_json(result.stats)},
                    {"wall_time_s", result.wall_time_s},
                    {"rows", result.row_count},
                    {"events", detail::events_json(result.events)},
                    {"events_not_logged", result.events_not_logged},
                    {"warnings", result.warnings},
                    {"accuracy_warnings", result.accuracy_warnings},
                    {"strict", result.strict},
                    {"variables", detail::variables_json(recorder)},
                    {"final_values", final_values},
                    {"schedule", {{"steps", model.schedule().steps.size()}, {"algebraic_loops", model.schedule().loop_count()}}}};
  result.summary["analysis"] = to_string(netlist.analysis);
  if (!model.monitors().empty()) {
    nlohmann::json monitors = nlohmann::json::object();
    for (size_t k = 0; k < model.monitors().size(); ++k) {
      const double v = k < static_cast<size_t>(observer.monitor_max.size()) ? observer.monitor_max[k] : 0.0;
      monitors[model.monitors()[k].name] = {{"max_abs", v}, {"unit", model.monitors()[k].unit}};
    }
    result.summary["monitors"] = monitors;
  }
  if (observer.energy) result.summary["energy"] = observer.energy->to_json();
  if (result.termination)
    result.summary["termination"] = {{"time", result.termination->time},
                                     {"component", result.termination->component},
                                     {"reason", result.termination->reason}};
  if (!result.finished) result.summary["failure"] = {{"message", result.failure}, {"time", result.failure_time}};
  return result;
}

}  // namespace jourdain
