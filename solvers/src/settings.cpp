// Solver settings <-> JSON (plain structs with one JSON mapping), read
// against the chosen method's schema (solver_registry.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "internal.hpp"
#include "jourdain/suggest.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/solvers/simulate.hpp"
#include "jourdain/solvers/solver_registry.hpp"

namespace jourdain {

namespace {

using Kind = SolverSetting::Kind;

// A field of SolverSettings with its declaration: the one place that ties a key to a
// field. Exactly one of `real` and `integer` is set.
struct Field {
  SolverSetting setting;
  double SolverSettings::*real = nullptr;
  long SolverSettings::*integer = nullptr;
  bool shared = false;  // read by every method
};

std::vector<Field> fields() {
  const SolverSettings d;  // the defaults
  auto real = [](const char* key, const char* unit, double value, Range range, const char* description,
                 double SolverSettings::*field, bool shared) {
    return Field{{key, Kind::Real, unit, value, range, description}, field, nullptr, shared};
  };
  auto whole = [](const char* key, long value, const char* description, long SolverSettings::*field) {
    return Field{{key, Kind::Integer, "", value, Range::at_least(1), description}, nullptr, field, true};
  };
  return {
      real("t_start", "s", d.t_start, Range::any(), "start time", &SolverSettings::t_start, true),
      real("t_end", "s", d.t_end, Range::non_negative(), "end time, after t_start", &SolverSettings::t_end, true),
      real("output_interval", "s", d.output_interval, Range::non_negative(),
           "time between recorded rows (rows at events are added); left out: (t_end - t_start) / 500",
           &SolverSettings::output_interval, true),
      whole("max_steps", d.max_steps, "accepted steps allowed, a guard against a stalled run", &SolverSettings::max_steps),
      whole("max_output_rows", d.max_output_rows, "a guard against an output interval that would fill the disk",
            &SolverSettings::max_output_rows),
      real("step", "s", d.step, Range::non_negative(), "the fixed step; 0: output_interval / 10", &SolverSettings::step,
           false),
      real("rtol", "", d.rtol, Range::positive(), "relative tolerance of the local error", &SolverSettings::rtol, false),
      real("atol", "", d.atol, Range::positive(), "absolute tolerance of the local error (in each state's unit)",
           &SolverSettings::atol, false),
      real("max_step", "s", d.max_step, Range::non_negative(), "largest step; 0: no limit beyond the span",
           &SolverSettings::max_step, false),
      real("initial_step", "s", d.initial_step, Range::non_negative(), "first step; 0: chosen automatically",
           &SolverSettings::initial_step, false),
      real("event_tolerance", "s", d.event_tolerance, Range::positive(),
           "width of the time bracket around a located event", &SolverSettings::event_tolerance, false),
  };
}

const Field* field(const std::vector<Field>& all, const std::string& key) {
  for (const auto& f : all)
    if (f.setting.key == key) return &f;
  return nullptr;
}

InputLocation at(const InputLocation& where, const std::string& key) {
  InputLocation w = where;
  w.json_path = json_check::pointer(where.json_path, key);
  return w;
}

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

}  // namespace

std::vector<SolverSetting> shared_solver_settings() {
  std::vector<SolverSetting> out;
  for (const auto& f : fields())
    if (f.shared) out.push_back(f.setting);
  return out;
}

SolverSetting standard_solver_setting(const std::string& key) {
  const auto all = fields();
  const Field* f = field(all, key);
  if (!f || f->shared)
    throw std::invalid_argument("'" + key + "' is not a standard solver setting a method declares" +
                                (f ? std::string(" (every method shares it)") : std::string()));
  return f->setting;
}

namespace detail {

bool is_settings_field(const std::string& key) {
  const auto all = fields();
  return key == "method" || field(all, key) != nullptr;
}

nlohmann::json read_solver_setting(const SolverSetting& setting, const nlohmann::json& value, const InputLocation& where) {
  const Range& r = setting.range;
  const bool positive = r.min == 0.0 && !r.min_inclusive && std::isinf(r.max);
  const bool non_negative = r.min == 0.0 && r.min_inclusive && std::isinf(r.max);
  if (setting.kind == Kind::Integer) {
    // A JSON integer, or a real that is a whole number exactly (5e7, as the README writes
    // counts): a count is never rounded. Beyond 2^53 a real no longer holds every whole
    // number, so larger reals are refused rather than guessed at.
    constexpr double exact_limit = 9007199254740992.0;  // 2^53
    bool whole = false;
    long count = 0;
    if (value.is_number_integer()) {
      whole = !(value.is_number_unsigned() &&
                value.get<unsigned long long>() > static_cast<unsigned long long>(std::numeric_limits<long>::max()));
      if (whole) count = value.get<long>();
    } else if (value.is_number_float()) {
      const double d = value.get<double>();
      whole = std::isfinite(d) && std::trunc(d) == d && std::abs(d) <= exact_limit;
      if (whole) count = static_cast<long>(d);
    }
    const bool one_up = r.min == 1.0 && r.min_inclusive && std::isinf(r.max);
    if (!whole || !r.contains(static_cast<double>(count)))
      throw InputError(where, one_up ? "must be a positive whole number" : "must be a whole number in " + r.to_string(""));
    return count;
  }
  const double v = json_check::quantity(value, setting.unit, where);
  if (!std::isfinite(v)) throw InputError(where, "must be finite");
  if (!r.contains(v))
    throw InputError(where, positive       ? "must be positive"
                            : non_negative ? "must not be negative"
                                           : "must be in " + r.to_string(setting.unit));
  return v;
}

void complete_extra_settings(SolverSettings& s, const std::vector<SolverSetting>& schema, const InputLocation& where) {
  if (!s.extra.is_object()) throw InputError(at(where, "extra"), "expected a JSON object");
  std::vector<std::string> extra_keys;
  for (const auto& setting : schema)
    if (!is_settings_field(setting.key)) extra_keys.push_back(setting.key);
  for (const auto& [key, value] : s.extra.items())
    if (std::find(extra_keys.begin(), extra_keys.end(), key) == extra_keys.end())
      throw InputError(at(where, key), "method " + s.method + " has no setting '" + key + "'" +
                                           (extra_keys.empty() ? "" : "; its own settings: " + join(extra_keys)));
  for (const auto& setting : schema) {
    if (is_settings_field(setting.key)) continue;
    s.extra[setting.key] = s.extra.contains(setting.key)
                               ? read_solver_setting(setting, s.extra[setting.key], at(where, setting.key))
                               : setting.default_value;
  }
}

}  // namespace detail

SolverSettings solver_settings_from_json(const nlohmann::json& j, const InputLocation& where,
                                         const SolverRegistry& solvers, std::vector<std::string>* warnings) {
  if (!j.is_object()) throw InputError(where, "expected a JSON object, got " + std::string(j.type_name()));
  SolverSettings s;
  if (j.contains("method")) {
    if (!j["method"].is_string()) throw InputError(at(where, "method"), "expected a string");
    s.method = j["method"].get<std::string>();
  }
  const SolverMethod& method = solvers.get(s.method, at(where, "method"));
  const std::vector<SolverSetting> schema = solvers.schema(method);
  std::vector<std::string> keys{"method"};
  for (const auto& setting : schema) keys.push_back(setting.key);

  // A key another method reads is ignored with a warning (one settings block can serve
  // several methods while the user compares them); a key no method reads is a typo.
  for (const auto& [key, value] : j.items()) {
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    if (auto users = solvers.methods_using(key); !users.empty()) {
      if (warnings)
        warnings->push_back(at(where, key).json_path + ": not read by method " + s.method +
                            " (a setting of " + join(users) + "); ignored");
      continue;
    }
    const std::string close = closest_name(key, keys);
    throw InputError(at(where, key), "unknown key '" + key + "' for method " + s.method + "; its keys: " + join(keys) +
                                         (close.empty() ? "" : "; did you mean '" + close + "'?"));
  }

  // Each key of the schema: into its field, or (a method's own) into extra.
  const auto all = fields();
  for (const auto& setting : schema) {
    const Field* f = field(all, setting.key);
    if (!j.contains(setting.key)) {
      if (!f) s.extra[setting.key] = setting.default_value;
      continue;
    }
    const nlohmann::json v = detail::read_solver_setting(setting, j[setting.key], at(where, setting.key));
    if (!f) s.extra[setting.key] = v;
    else if (f->real) s.*(f->real) = v.get<double>();
    else s.*(f->integer) = v.get<long>();
  }
  // 0 stands for (t_end - t_start) / 500 only where the key is left out: written out, it
  // asks for a row at every instant, which no run can give.
  if (j.contains("output_interval") && s.output_interval == 0.0)
    throw InputError(at(where, "output_interval"),
                     "must be positive; leave it out for (t_end - t_start) / 500, or give the time between rows");
  if (s.t_end <= s.t_start)
    throw InputError(at(where, j.contains("t_end") ? "t_end" : "t_start"),
                     "t_end (" + detail::time_text(s.t_end) + " s) must be after t_start (" + detail::time_text(s.t_start) + " s)");
  return s;
}

SolverSettings solver_settings_from_json(const nlohmann::json& j, const InputLocation& where) {
  return solver_settings_from_json(j, where, SolverRegistry());
}

namespace detail {

std::string count_text(double count) {
  char text[32];
  if (std::abs(count) < 1e15) std::snprintf(text, sizeof text, "%.0f", std::floor(count));
  else std::snprintf(text, sizeof text, "%.3g", count);
  return text;
}

std::string time_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", seconds);
  return text;
}

void check_shared_bounds(const SolverSettings& s, const InputLocation& where) {
  // The methods count output times and steps over [t_start, t_end]: a non-finite or
  // empty span has no meaning (and would make those counts undefined).
  const double span = s.t_end - s.t_start;
  if (!(std::isfinite(s.t_start) && std::isfinite(span) && span > 0.0))
    throw InputError(at(where, "t_end"), "t_start and t_end must be finite, with t_end after t_start (t_start = " +
                                             time_text(s.t_start) + " s, t_end = " + time_text(s.t_end) + " s)");
  const double interval = s.output_interval > 0.0 ? s.output_interval : span / 500.0;
  const double rows = span / interval;
  if (rows > static_cast<double>(s.max_output_rows))
    throw InputError(at(where, "output_interval"),
                     "asks for " + count_text(rows) + " output rows over " +
                         time_text(span) + " s, more than max_output_rows = " + std::to_string(s.max_output_rows) +
                         "; raise output_interval (or max_output_rows, knowingly)");
}

}  // namespace detail

void check_solver_bounds(const SolverSettings& s, const InputLocation& where, const SolverRegistry& solvers) {
  const SolverMethod& method = solvers.get(s.method, at(where, "method"));
  detail::check_shared_bounds(s, where);
  const double span = s.t_end - s.t_start;
  const auto own = method.settings();
  const bool uses_max_step =
      std::any_of(own.begin(), own.end(), [](const SolverSetting& o) { return o.key == "max_step"; });
  if (uses_max_step && s.max_step > 0.0 && span / s.max_step > static_cast<double>(s.max_steps))
    throw InputError(at(where, "max_step"), "a step of at most " + detail::time_text(s.max_step) + " s over " +
                                                detail::time_text(span) + " s needs more than max_steps = " +
                                                std::to_string(s.max_steps) + " steps");
  method.check_bounds(s, where);
}

void check_solver_bounds(const SolverSettings& s, const InputLocation& where) {
  check_solver_bounds(s, where, SolverRegistry());
}

nlohmann::json to_json(const SolverSettings& s) {
  nlohmann::json j = {{"method", s.method}};
  for (const auto& f : fields()) {
    if (f.real) j[f.setting.key] = s.*(f.real);
    else j[f.setting.key] = s.*(f.integer);
  }
  for (const auto& [key, value] : s.extra.items()) j[key] = value;
  return j;
}

nlohmann::json to_json(const SolverSettings& s, Analysis analysis) {
  if (analysis == Analysis::Dynamic) return to_json(s);
  nlohmann::json j = nlohmann::json::object();
  for (const auto& f : fields()) {
    if (!f.shared) continue;
    if (f.real) j[f.setting.key] = s.*(f.real);
    else j[f.setting.key] = s.*(f.integer);
  }
  return j;
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
          {"jacobian_hook_calls", s.jacobian_hook_calls},
          {"last_time", s.last_time}};
}

}  // namespace jourdain
