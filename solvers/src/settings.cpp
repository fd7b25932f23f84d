// Solver settings <-> JSON (STYLE.md 8: plain structs with one JSON mapping).
#include <cmath>

#include "jourdain/netlist.hpp"
#include "jourdain/solvers/simulate.hpp"

namespace jourdain {

SolverSettings solver_settings_from_json(const nlohmann::json& j, const InputLocation& where) {
  SolverSettings s;
  json_check::only_keys(j, {"method", "t_start", "t_end", "rtol", "atol", "max_step", "initial_step", "step",
                            "output_interval", "max_steps", "event_tolerance", "max_output_rows"},
                        where);
  auto at = [&](const char* key) {
    InputLocation w = where;
    w.json_path = json_check::pointer(where.json_path, key);
    return w;
  };
  auto number = [&](const char* key, double& field, const std::string& unit, bool positive) {
    if (!j.contains(key)) return;
    field = json_check::quantity(j[key], unit, at(key));
    if (!std::isfinite(field) || (positive && field <= 0.0) || (!positive && field < 0.0))
      throw InputError(at(key), positive ? "must be positive" : "must not be negative");
  };
  if (j.contains("method")) {
    if (!j["method"].is_string()) throw InputError(at("method"), "expected a string");
    s.method = j["method"].get<std::string>();
    if (s.method != "rk4" && s.method != "dopri5" && s.method != "bdf")
      throw InputError(at("method"), "unknown method '" + s.method + "'; choose rk4, dopri5 or bdf");
  }
  if (j.contains("t_start")) {
    s.t_start = json_check::quantity(j["t_start"], "s", at("t_start"));
    if (!std::isfinite(s.t_start)) throw InputError(at("t_start"), "must be finite");
  }
  number("t_end", s.t_end, "s", false);
  if (!std::isfinite(s.t_end)) throw InputError(at("t_end"), "must be finite");
  if (s.t_end <= s.t_start)
    throw InputError(at(j.contains("t_end") ? "t_end" : "t_start"),
                     "t_end (" + std::to_string(s.t_end) + " s) must be after t_start (" + std::to_string(s.t_start) + " s)");
  number("rtol", s.rtol, "", true);
  number("atol", s.atol, "", true);
  number("max_step", s.max_step, "s", false);
  number("initial_step", s.initial_step, "s", false);
  number("step", s.step, "s", false);
  number("output_interval", s.output_interval, "s", false);
  number("event_tolerance", s.event_tolerance, "s", true);
  for (const char* key : {"max_steps", "max_output_rows"}) {
    if (!j.contains(key)) continue;
    if (!j[key].is_number_integer() || j[key].get<long>() <= 0) throw InputError(at(key), "must be a positive whole number");
    (std::string(key) == "max_steps" ? s.max_steps : s.max_output_rows) = j[key].get<long>();
  }
  return s;
}

void check_solver_bounds(const SolverSettings& s, const InputLocation& where) {
  auto at = [&](const char* key) {
    InputLocation w = where;
    w.json_path = json_check::pointer(where.json_path, key);
    return w;
  };
  // The methods count output times and steps over [t_start, t_end]: a non-finite or
  // empty span has no meaning (and would make those counts undefined).
  const double span = s.t_end - s.t_start;
  if (!(std::isfinite(s.t_start) && std::isfinite(span) && span > 0.0))
    throw InputError(at("t_end"), "t_start and t_end must be finite, with t_end after t_start (t_start = " +
                                      std::to_string(s.t_start) + " s, t_end = " + std::to_string(s.t_end) + " s)");
  const double interval = s.output_interval > 0.0 ? s.output_interval : span / 500.0;
  const double rows = span / interval;
  if (rows > static_cast<double>(s.max_output_rows))
    throw InputError(at("output_interval"), "asks for " + std::to_string(static_cast<long long>(rows)) +
                                                " output rows over " + std::to_string(span) +
                                                " s, more than max_output_rows = " + std::to_string(s.max_output_rows) +
                                                "; raise output_interval (or max_output_rows, knowingly)");
  if (s.max_step > 0.0 && span / s.max_step > static_cast<double>(s.max_steps))
    throw InputError(at("max_step"), "a step of at most " + std::to_string(s.max_step) + " s over " + std::to_string(span) +
                                         " s needs more than max_steps = " + std::to_string(s.max_steps) + " steps");
  if (s.method == "rk4") {
    const double step = s.step > 0.0 ? s.step : interval / 10.0;
    const double steps = span / step;
    if (steps > static_cast<double>(s.max_steps))
      throw InputError(at("step"), "rk4 would take " + std::to_string(static_cast<long long>(steps)) +
                                       " steps, more than max_steps = " + std::to_string(s.max_steps));
  }
}

nlohmann::json to_json(const SolverSettings& s) {
  return {{"method", s.method},           {"t_start", s.t_start},
          {"t_end", s.t_end},             {"rtol", s.rtol},
          {"atol", s.atol},               {"max_step", s.max_step},
          {"initial_step", s.initial_step}, {"step", s.step},
          {"output_interval", s.output_interval}, {"max_steps", s.max_steps},
          {"event_tolerance", s.event_tolerance}, {"max_output_rows", s.max_output_rows}};
}

nlohmann::json to_json(const SolverStats& s) {
  return {{"method", s.method},
          {"steps", s.steps},
          {"rejected_steps", s.rejected_steps},
          {"rhs_evaluations", s.rhs_evaluations},
          {"jacobian_evaluations", s.jacobian_evaluations},
          {"nonlinear_iterations", s.nonlinear_iterations},
          {"zero_crossing_evaluations", s.zero_crossing_evaluations},
          {"events", s.events},
          {"algebraic_iterations", s.algebraic_iterations},
          {"last_time", s.last_time}};
}

}  // namespace jourdain
