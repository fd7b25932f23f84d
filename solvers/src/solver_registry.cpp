// The solver methods by name (solver_registry.hpp).
#include "jourdain/solvers/solver_registry.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "internal.hpp"
#include "jourdain/suggest.hpp"

namespace jourdain {

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

bool is_shared(const std::string& key) {
  const auto shared = shared_solver_settings();
  return std::any_of(shared.begin(), shared.end(), [&](const SolverSetting& s) { return s.key == key; });
}

}  // namespace


// ---------------------------------------------------------------- SolverMethod

SolverMethod::SolverMethod(std::string name, std::string summary, std::vector<SolverSetting> settings)
    : name_(std::move(name)), summary_(std::move(summary)), settings_(std::move(settings)) {}

// Out of line: the key function places SolverMethod's vtable and type information in the
// solvers library, shared by the plugins that derive from it.
SolverMethod::~SolverMethod() = default;

void SolverMethod::check_bounds(const SolverSettings&, const InputLocation&) const {}

// ---------------------------------------------------------------- SolverRegistry

SolverRegistry::SolverRegistry() {
  for (auto method : {detail::make_rk4_method(), detail::make_dopri5_method(), detail::make_bdf_method(), detail::make_adams_method()})
    add(std::move(method));
}

void SolverRegistry::add(std::shared_ptr<const SolverMethod> method) {
  if (!method) throw std::invalid_argument("a solver method is null (" + origin() + ")");
  const std::string name = method->name();
  auto refuse = [&](const std::string& why) {
    throw std::invalid_argument("solver method '" + name + "' (" + origin() + "): " + why);
  };
  if (name.empty()) refuse("the name is empty");
  if (auto it = methods_.find(name); it != methods_.end()) refuse("the name is taken (" + it->second.origin + ")");
  std::vector<std::string> seen;
  for (const auto& s : method->settings()) {
    if (s.key.empty()) refuse("a setting has an empty key");
    if (s.key == "method" || is_shared(s.key))
      refuse("it declares '" + s.key + "', which every method reads (the registry adds it)");
    if (std::find(seen.begin(), seen.end(), s.key) != seen.end()) refuse("it declares '" + s.key + "' twice");
    seen.push_back(s.key);
    if (detail::is_settings_field(s.key)) {
      // The field holds the value: its kind, unit and default are the field's.
      const SolverSetting field = standard_solver_setting(s.key);
      if (s.kind != field.kind || s.unit != field.unit || s.default_value != field.default_value)
        refuse("its setting '" + s.key + "' must keep the kind, unit and default of SolverSettings::" + s.key +
               " (declare it with standard_solver_setting)");
    }
    try {
      detail::read_solver_setting(s, s.default_value, {});
    } catch (const InputError& e) {
      refuse("the default " + s.default_value.dump() + " of '" + s.key + "' is refused by its own schema: " + e.message());
    }
  }
  methods_.emplace(name, Entry{std::move(method), origin()});
}

const SolverMethod* SolverRegistry::find(const std::string& name) const {
  auto it = methods_.find(name);
  return it == methods_.end() ? nullptr : it->second.method.get();
}

const SolverMethod& SolverRegistry::get(const std::string& name, const InputLocation& where) const {
  if (const SolverMethod* m = find(name)) return *m;
  const std::string close = closest_name(name, names());
  throw InputError(where, "unknown method '" + name + "'; registered methods: " + join(names()) +
                              (close.empty() ? "" : "; did you mean '" + close + "'?"));
}

std::vector<std::string> SolverRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, entry] : methods_) out.push_back(name);
  return out;
}

const std::string& SolverRegistry::origin_of(const std::string& name) const { return methods_.at(name).origin; }

std::vector<SolverSetting> SolverRegistry::schema(const SolverMethod& method) const {
  std::vector<SolverSetting> out = shared_solver_settings();
  out.insert(out.end(), method.settings().begin(), method.settings().end());
  return out;
}

std::vector<std::string> SolverRegistry::methods_using(const std::string& key) const {
  std::vector<std::string> out;
  const bool shared = is_shared(key);
  for (const auto& [name, entry] : methods_) {
    const auto& own = entry.method->settings();
    if (shared || std::any_of(own.begin(), own.end(), [&](const SolverSetting& s) { return s.key == key; }))
      out.push_back(name);
  }
  return out;
}

void SolverRegistry::remove_origin(const std::string& origin) {
  std::erase_if(methods_, [&](const auto& item) { return item.second.origin == origin; });
}

SolverRegistry& solvers(Registry& registry) { return registry.extension<SolverRegistry>(); }

// ---------------------------------------------------------------- descriptions

namespace {

nlohmann::json describe_setting(const SolverRegistry& solvers, const SolverSetting& s) {
  nlohmann::json j = {{"key", s.key},
                      {"kind", s.kind == SolverSetting::Kind::Real ? "real" : "integer"},
                      {"default", s.default_value},
                      {"description", s.description},
                      {"methods", solvers.methods_using(s.key)}};
  if (!s.unit.empty()) j["unit"] = s.unit;
  if (!std::isinf(s.range.min) || !std::isinf(s.range.max)) j["range"] = s.range.to_string(s.unit);
  if (is_shared(s.key)) j["shared"] = true;
  return j;
}

void setting_text(std::ostream& out, const nlohmann::json& s, const std::string& method) {
  out << "  " << s["key"].get<std::string>() << " (" << s["kind"].get<std::string>();
  if (s.contains("unit")) out << ", " << s["unit"].get<std::string>();
  out << ") = " << s["default"].dump();
  if (s.contains("range")) out << "  range " << s["range"].get<std::string>();
  out << "\n      " << s["description"].get<std::string>();
  std::vector<std::string> others;
  for (const auto& m : s["methods"])
    if (m != method) others.push_back(m);
  if (s.contains("shared")) out << "  [every method]";
  else if (!others.empty()) out << "  [also " << join(others) << "]";
  out << "\n";
}

}  // namespace

nlohmann::json describe_solver(const SolverRegistry& solvers, const SolverMethod& method) {
  nlohmann::json settings = nlohmann::json::array();
  for (const auto& s : solvers.schema(method)) settings.push_back(describe_setting(solvers, s));
  return {{"name", method.name()},
          {"summary", method.summary()},
          {"origin", solvers.origin_of(method.name())},
          {"settings", settings}};
}

nlohmann::json describe_solvers(const SolverRegistry& solvers) {
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& name : solvers.names()) methods.push_back(describe_solver(solvers, *solvers.find(name)));
  return {{"methods", methods}};
}

std::string describe_solver_text(const SolverRegistry& solvers, const SolverMethod& method) {
  const nlohmann::json d = describe_solver(solvers, method);
  std::ostringstream out;
  out << method.name() << " - " << method.summary() << "\n  from: " << d["origin"].get<std::string>()
      << "\n\nSettings (netlist \"solver\" object):\n";
  out << "  method = \"" << method.name() << "\"\n";
  for (const auto& s : d["settings"]) setting_text(out, s, method.name());
  return out.str();
}

std::string describe_solvers_text(const SolverRegistry& solvers) {
  std::ostringstream out;
  out << "Solver methods (netlist \"solver\": {\"method\": NAME, ...}; `jourdain solvers NAME` shows one):\n";
  for (const auto& name : solvers.names()) {
    const std::string& origin = solvers.origin_of(name);
    out << "\n" << name << " - " << solvers.find(name)->summary() << (origin == "built-in" ? "" : "  [" + origin + "]")
        << "\n";
    const nlohmann::json d = describe_solver(solvers, *solvers.find(name));
    bool any = false;
    for (const auto& s : d["settings"])
      if (!s.contains("shared")) setting_text(out, s, name), any = true;
    if (!any) out << "  (no settings of its own)\n";
  }
  out << "\nEvery method also reads:\n";
  for (const auto& s : shared_solver_settings()) setting_text(out, describe_setting(solvers, s), "");
  return out.str();
}

}  // namespace jourdain
