// Solver methods by name, like component types (jourdain/registry.hpp): each method
// registers with the schema of its settings, and the netlist's "solver" object is read
// against the chosen method's schema (solver_settings_from_json, simulate.hpp).
//
// The built-in methods are rk4, dopri5 and bdf. The application's SolverRegistry lives
// inside its component Registry as an extension (Registry::extension), so a plugin, which
// is handed only the Registry, adds a method with
//
//   JOURDAIN_PLUGIN(registry) { jourdain::solvers(registry).add(std::make_shared<MyMethod>()); }
//
// (linking Jourdain::solvers; an explicit one-step method needs only its step:
// jourdain/solvers/explicit.hpp).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain/parameter.hpp"
#include "jourdain/registry.hpp"
#include "jourdain/solvers/simulate.hpp"

namespace jourdain {

// One key of the netlist's "solver" object, as a method declares it.
struct SolverSetting {
  enum class Kind { Real, Integer };
  std::string key;
  Kind kind = Kind::Real;
  std::string unit;              // SI unit of a real ("" = dimensionless); netlists may write "5 ms"
  nlohmann::json default_value;  // the value when the key is absent (SI)
  Range range;                   // values outside are refused; a real must also be finite
  std::string description;       // one line; says what a special value (0) means
};

// The settings every method reads (the run's span, its output times and its guards):
// t_start, t_end, output_interval, max_steps, max_output_rows. The registry adds them to
// every method's schema; a method does not declare them.
std::vector<SolverSetting> shared_solver_settings();
// The declaration of one of SolverSettings' other fields ("step", "rtol", "atol",
// "max_step", "initial_step", "event_tolerance"), for a method's schema; a method may
// change its description and range, not its kind, unit or default (the field's).
// Throws std::invalid_argument for another key.
SolverSetting standard_solver_setting(const std::string& key);

// A time-integration method: a name, the schema of its own settings, and integrate().
// A method object is immutable and serves any number of runs at once: everything a run
// changes lives in that run's locals and its Context.
class SolverMethod {
 public:
  SolverMethod(std::string name, std::string summary, std::vector<SolverSetting> settings);
  virtual ~SolverMethod();
  const std::string& name() const { return name_; }
  const std::string& summary() const { return summary_; }
  // Its own settings: standard ones (standard_solver_setting) fill SolverSettings' fields,
  // others are kept, validated and with their defaults filled in, in SolverSettings::extra.
  const std::vector<SolverSetting>& settings() const { return settings_; }

  // Refuses, as bad input naming the setting, settings this method cannot run within its
  // guards (a fixed step that would take more than max_steps steps). Called once t_end is
  // final, after the shared bounds (check_solver_bounds).
  virtual void check_bounds(const SolverSettings& s, const InputLocation& where) const;
  // Integrates from ctx (initialized, its first point already recorded) to s.t_end; the
  // contract of simulate(): outputs at the output times and around events, `stats`
  // updated as it goes, a SimulationError when the run cannot go on.
  virtual void integrate(const Model& model, Context& ctx, const SolverSettings& s, Observer& observer,
                         SolverStats& stats) const = 0;

 private:
  std::string name_, summary_;
  std::vector<SolverSetting> settings_;
};

class SolverRegistry final : public RegistryExtension {
 public:
  // Holds the built-in methods (rk4, dopri5, bdf) from the start.
  SolverRegistry();

  // Stamps the method with the current origin (RegistryExtension::origin). Throws
  // std::invalid_argument (a plugin that does it is refused, all or nothing) if the name
  // is taken or empty, or the schema declares a key twice, "method" or a shared setting,
  // a standard key unlike its field, or a default of the wrong kind or outside its range.
  void add(std::shared_ptr<const SolverMethod> method);

  const SolverMethod* find(const std::string& name) const;
  // The method, or an InputError at `where` that lists the registered methods and the
  // closest one ("did you mean").
  const SolverMethod& get(const std::string& name, const InputLocation& where) const;
  std::vector<std::string> names() const;  // sorted
  const std::string& origin_of(const std::string& name) const;  // "built-in" or a plugin's path
  // A method's whole schema: the shared settings, then its own.
  std::vector<SolverSetting> schema(const SolverMethod& method) const;
  // The methods whose schema holds `key` (every method for a shared one), sorted.
  std::vector<std::string> methods_using(const std::string& key) const;

  void remove_origin(const std::string& origin) override;

 private:
  struct Entry {
    std::shared_ptr<const SolverMethod> method;
    std::string origin;
  };
  std::map<std::string, Entry> methods_;
};

// The application's solver methods, kept in its Registry (created, with the built-in
// methods, on first use).
SolverRegistry& solvers(Registry& registry);

// What `jourdain solvers` shows: the registered methods (name, summary, origin) and, for
// each, its whole schema, each setting with the methods that use it.
nlohmann::json describe_solvers(const SolverRegistry& solvers);
nlohmann::json describe_solver(const SolverRegistry& solvers, const SolverMethod& method);
std::string describe_solvers_text(const SolverRegistry& solvers);
std::string describe_solver_text(const SolverRegistry& solvers, const SolverMethod& method);

// The JSON Schema of the netlist's "solver" object (for netlist_schema, jourdain/schema.hpp):
// every method's keys, each method's own declarations when "method" names it.
nlohmann::json solver_settings_schema(const SolverRegistry& solvers);

}  // namespace jourdain
