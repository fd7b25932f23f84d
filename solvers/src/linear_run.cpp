// A netlist's linear analysis (linear.hpp, run_linear): its settings and names checked,
// the operating point reached and recorded (results.csv), the model linearized there,
// its files written and the summary made (the session writes summary.json).
#include <chrono>
#include <numbers>
#include <optional>

#include "internal.hpp"
#include "jourdain/solvers/solver_registry.hpp"
#include "jourdain/version.hpp"
#include "linear_internal.hpp"

namespace jourdain {

using nlohmann::json;
using detail::complex_json;
using detail::finite_or_null;

LinearRunResult run_linear(const Netlist& netlist, const LinearSettings& settings, const LinearRunOptions& options) {
  LinearRunResult result;
  std::optional<SolverRegistry> builtin;
  const SolverRegistry& solvers = options.solvers ? *options.solvers : builtin.emplace();
  const InputLocation where{netlist.file.string(), "/solver", "", ""};
  SolverSettings solver = solver_settings_from_json(netlist.solver, where, solvers, &result.warnings);
  if (settings.at == LinearSettings::At::Time) {
    if (!(settings.time >= solver.t_start))
      throw InputError({netlist.file.string(), "/linear/at", "", ""}, "the operating point's time is before t_start");
    if (settings.time > solver.t_start) {
      solver.t_end = settings.time;
      check_solver_bounds(solver, where, solvers);
    }
  }
  const Model& model = netlist.model;
  Context ctx = model.make_context(solver.t_start);
  ctx.stop_requested = options.stop_requested;
  for (const auto& [name, value] : options.parameters) model.set_parameter(ctx, name, value);
  // Names are checked before anything runs: a typo in an output is bad input, not a
  // failure found after the operating point.
  auto check_names = [&](const std::vector<std::string>& names, const char* key, auto&& find) {
    for (size_t k = 0; k < names.size(); ++k) {
      try {
        find(names[k]);
      } catch (const InputError& e) {
        throw InputError({netlist.file.string(), "/linear/" + std::string(key) + "/" + std::to_string(k), "", ""},
                         e.message());
      }
    }
  };
  check_names(settings.outputs, "outputs", [&](const std::string& n) { model.recordable(n); });
  check_names(settings.inputs, "inputs", [&](const std::string& n) { model.parameter(n); });

  Recorder recorder(model, netlist.record);
  for (auto* l : options.listeners) recorder.add_listener(*l);
  if (!options.output_dir.empty()) detail::open_output_folder(options.output_dir, recorder);
  if (options.started) options.started();
  const auto start = std::chrono::steady_clock::now();
  std::string how;
  try {
    model.initialize(ctx);
    reach_operating_point(model, ctx, settings, solver, solvers, &how, options.stop_requested);
    recorder.record(ctx);
    result.linear = linearize(model, ctx, settings);
    result.finished = true;
  } catch (const detail::Interrupted& e) {
    result.interrupted = true;
    result.failure = e.what();
  } catch (const Stopped& e) {  // a component's own long work, stopped (Eval::stop_requested)
    result.interrupted = true;
    result.failure = e.what();
  } catch (const SimulationError& e) {
    result.failure = e.what();
  } catch (const OutputError& e) {
    result.failure = e.what();
  }
  ctx.stop_requested = nullptr;  // the caller's, valid during this call only
  result.operating_point = ctx;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.row_count = recorder.rows();
  const LinearModel& lm = result.linear;
  for (const auto& f : lm.frozen) result.warnings.push_back("linear analysis: " + f);
  for (const auto& w : lm.warnings) result.warnings.push_back("linear analysis: " + w);
  // Which equilibrium: one a run started near would leave is worth saying aloud.
  if (result.finished && lm.at == "equilibrium" && lm.stability == "unstable")
    result.warnings.push_back("linear analysis: the equilibrium found is unstable (an eigenvalue with Re λ > 0): a "
                              "run started near it leaves it");

  json final_values = json::object();
  const auto& last = recorder.last_row();
  for (size_t k = 1; k < last.size(); ++k) final_values[recorder.variables()[k - 1]->name] = last[k];
  result.summary = {{"jourdain_version", JOURDAIN_VERSION},
                    {"netlist", netlist.file.string()},
                    {"name", netlist.name},
                    {"status", result.finished ? "finished" : result.interrupted ? "interrupted" : "failed"},
                    {"analysis", "linear"},
                    {"wall_time_s", wall},
                    {"rows", result.row_count},
                    {"events", detail::events_json(ctx.events)},
                    {"warnings", result.warnings},
                    {"variables", detail::variables_json(recorder)},
                    {"final_values", final_values}};
  if (result.finished) {
    json modes = json::array();
    for (const LinearMode& m : lm.modes)
      modes.push_back({{"natural_frequency_hz", m.natural_frequency / (2.0 * std::numbers::pi)},
                       {"damping_ratio", finite_or_null(m.damping_ratio)},
                       {"eigenvalue", complex_json(m.eigenvalue)}});
    json point = {{"at", lm.at}, {"time", lm.time}, {"how", how}};
    if (lm.at == "equilibrium") point["residual"] = lm.residual;
    result.summary["linear"] = {{"operating_point", point},
                                {"frozen", lm.frozen.empty() ? json("nothing: the model has no discrete states or events")
                                                             : json(lm.frozen)},
                                {"independent_states", lm.independent.size()},
                                {"dependent_states", lm.dependent.size()},
                                {"inputs", lm.inputs},
                                {"outputs", lm.outputs},
                                {"stability", lm.stability},
                                {"modes", modes}};
  } else {
    result.summary["failure"] = {{"message", result.failure}, {"time", ctx.t}};
  }
  if (!options.output_dir.empty() && result.finished) {
    try {
      write_linear_files(lm, options.output_dir);
    } catch (const OutputError& e) {  // a full disk: the analysis is done, its files are not all there
      result.finished = false;
      result.failure = e.what();
      result.summary["status"] = "failed";
      result.summary["failure"] = {{"message", result.failure}, {"time", ctx.t}};
    }
  }
  return result;
}

}  // namespace jourdain
