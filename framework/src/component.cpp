// Component declarations and parameter handling (component.hpp).
#include "jourdain/component.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>
#include <variant>
#include <unordered_map>

#include "jourdain/errors.hpp"
#include "jourdain/suggest.hpp"
#include "jourdain/units.hpp"

namespace jourdain {

namespace {

std::string format_number(double v) {
  std::ostringstream out;
  out.precision(8);
  out << v;
  return out.str();
}

template <class Spec>
int index_of(const std::vector<Spec>& specs, const std::string& name) {
  for (size_t i = 0; i < specs.size(); ++i)
    if (specs[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

const char* to_string(ParamKind kind) {
  switch (kind) {
    case ParamKind::Real: return "real";
    case ParamKind::Integer: return "integer";
    case ParamKind::Boolean: return "boolean";
    case ParamKind::Text: return "text";
    case ParamKind::RealList: return "list of reals";
    case ParamKind::Table: return "table";
    case ParamKind::NamedVectors: return "named vectors";
  }
  return "?";
}

// Infinity is a value only of a parameter whose own default is infinite: one that uses it
// for "none", as an end stop's position does. Elsewhere "inf kg", "1e400 kg" or a
// subsystem's $k/0 is a mistake that would otherwise only show at t = 0, as a non-finite
// state far from the value that caused it.
namespace {
bool infinity_means_none(const ParamSpec& s) {
  if (!s.default_value) return false;
  const nlohmann::json& d = *s.default_value;
  if (d.is_number()) return std::isinf(d.get<double>());
  if (d.is_string()) {
    const std::string t = d.get<std::string>();
    return t == "inf" || t == "-inf" || t == "+inf";
  }
  return false;
}
}  // namespace

bool Range::contains(double v) const {
  bool above = min_inclusive ? v >= min : v > min;
  bool below = max_inclusive ? v <= max : v < max;
  return above && below;
}

std::string Range::to_string(const std::string& unit) const {
  std::string lo = std::isinf(min) ? "-inf" : format_number(min);
  std::string hi = std::isinf(max) ? "inf" : format_number(max);
  std::string r = std::string(min_inclusive && !std::isinf(min) ? "[" : "(") + lo + ", " + hi +
                  (max_inclusive && !std::isinf(max) ? "]" : ")");
  return unit.empty() ? r : r + " " + unit;
}

// ---------------------------------------------------------------- Component

// Out of line: this key function places Component's vtable and type information in the
// framework library, so that plugins and the framework share one copy of each.
struct Component::Declarations {
  std::string name_;
  std::string type_name_;
  std::vector<ParamSpec> params_;
  // Per parameter (params_ order): its value in SI once given (or defaulted), parsed once
  // (parse_parameter); numeric ones are the model's defaults (Model::make_context).
  std::vector<std::optional<ParamValue>> values_;
  std::vector<PortSpec> ports_;
  // Parameters and ports by name: an FMU declares tens of thousands of each, and a
  // search through the list per declaration made loading it quadratic.
  std::unordered_map<std::string, int> param_index_, port_index_;
  int param(const std::string& name) const {
    const auto it = param_index_.find(name);
    return it == param_index_.end() ? -1 : it->second;
  }
  int port(const std::string& name) const {
    const auto it = port_index_.find(name);
    return it == port_index_.end() ? -1 : it->second;
  }
  void add_param(ParamSpec s) {
    if (!param_index_.emplace(s.name, static_cast<int>(params_.size())).second)
      throw std::logic_error("parameter '" + s.name + "' declared twice");
    params_.push_back(std::move(s));
    values_.emplace_back();
  }
  std::vector<StateSpec> states_;
  std::vector<StateOutput> state_outputs_;
  std::vector<NamedSpec> discretes_;
  std::vector<NamedSpec> unknowns_;
  std::vector<NamedSpec> observables_;
  std::vector<NamedSpec> zero_crossings_;
  std::vector<NamedSpec> derived_;
  int numeric_count_ = 0;
  std::vector<int> numeric_specs_;  // per RealParam index: its position in params_
  bool configured_ = false;
  bool has_deciding_parameters_ = false;
  bool dependents_declared_ = false;
  const World* configuring_world_ = nullptr;  // set while configure() runs
  bool describing_ = false;                    // configured to be described only
};

Component::Component() : d_(std::make_unique<Declarations>()) {}

Component::~Component() = default;

const std::string& Component::name() const { return d_->name_; }
const std::string& Component::type_name() const { return d_->type_name_; }
const std::vector<ParamSpec>& Component::parameter_specs() const { return d_->params_; }
const std::vector<PortSpec>& Component::ports() const { return d_->ports_; }
const std::vector<StateSpec>& Component::states() const { return d_->states_; }
const std::vector<Component::StateOutput>& Component::state_outputs() const { return d_->state_outputs_; }
const std::vector<NamedSpec>& Component::discrete_states() const { return d_->discretes_; }
const std::vector<NamedSpec>& Component::unknowns() const { return d_->unknowns_; }
const std::vector<NamedSpec>& Component::observables() const { return d_->observables_; }
const std::vector<NamedSpec>& Component::zero_crossings() const { return d_->zero_crossings_; }
const std::vector<NamedSpec>& Component::derived_values() const { return d_->derived_; }
void Component::set_state_initial(StateId s, double value) { d_->states_[s.index].initial = value; }
bool Component::configured() const { return d_->configured_; }
int Component::numeric_parameter_count() const { return d_->numeric_count_; }
void Component::set_optional(PortId p) { d_->ports_[p.index].optional = true; }

// ---------------------------------------------------------------- allocation

namespace {

// What precedes every component: where its memory came from (null: the heap). The
// size and alignment come back with the (sized) delete.
struct AllocationHeader {
  std::shared_ptr<ComponentMemory> memory;
};

size_t effective_alignment(size_t align) { return std::max({align, alignof(AllocationHeader), alignof(std::max_align_t)}); }

// The bytes before the object: the header, rounded up so that the object keeps its
// alignment.
size_t header_space(size_t align) { return (sizeof(AllocationHeader) + align - 1) / align * align; }

AllocationHeader* header_of(void* object) {
  return reinterpret_cast<AllocationHeader*>(static_cast<char*>(object) - sizeof(AllocationHeader));
}

void* allocate_component(size_t size, size_t align, std::shared_ptr<ComponentMemory> memory) {
  align = effective_alignment(align);
  const size_t block_size = header_space(align) + size;
  void* block = memory ? memory->allocate(block_size, align) : ::operator new(block_size, std::align_val_t(align));
  char* object = static_cast<char*>(block) + header_space(align);
  new (header_of(object)) AllocationHeader{std::move(memory)};
  return object;
}

void release_component(void* object, size_t size, size_t align) {
  if (!object) return;
  align = effective_alignment(align);
  AllocationHeader* header = header_of(object);
  // The header lives in the block: take the memory's handle out before giving the block
  // back (the memory itself may go with this handle).
  std::shared_ptr<ComponentMemory> memory = std::move(header->memory);
  header->~AllocationHeader();
  void* block = static_cast<char*>(object) - header_space(align);
  if (memory) memory->deallocate(block, header_space(align) + size, align);
  else ::operator delete(block, std::align_val_t(align));
}

// A constructor threw in `new (memory) C(...)`: the size is not known here, so the block
// stays in the memory, which frees it with everything else when it goes.
void abandon_component(void* object) {
  if (object) header_of(object)->~AllocationHeader();
}

}  // namespace

constexpr size_t kDefaultAlignment = alignof(std::max_align_t);

void* Component::operator new(std::size_t size) { return allocate_component(size, kDefaultAlignment, nullptr); }
void* Component::operator new(std::size_t size, std::align_val_t align) {
  return allocate_component(size, static_cast<size_t>(align), nullptr);
}
void* Component::operator new(std::size_t size, std::shared_ptr<ComponentMemory> memory) {
  return allocate_component(size, kDefaultAlignment, std::move(memory));
}
void* Component::operator new(std::size_t size, std::align_val_t align, std::shared_ptr<ComponentMemory> memory) {
  return allocate_component(size, static_cast<size_t>(align), std::move(memory));
}
void Component::operator delete(void* p, std::size_t size) { release_component(p, size, kDefaultAlignment); }
void Component::operator delete(void* p, std::size_t size, std::align_val_t align) {
  release_component(p, size, static_cast<size_t>(align));
}
void Component::operator delete(void* p, std::shared_ptr<ComponentMemory>) { abandon_component(p); }
void Component::operator delete(void* p, std::align_val_t, std::shared_ptr<ComponentMemory>) { abandon_component(p); }

// ---------------------------------------------------------------- Eval

void Eval::set_state(StateId s, double value) {
  if (phase_ != Phase::Event && phase_ != Phase::Initialize && phase_ != Phase::Project)
    throw std::logic_error("component '" + component_.name() + "' changed a state outside an event");
  ctx_.x[layout_.state_offset + s.index] = value;
}

void Eval::set_discrete(DiscreteId d, double value) {
  if (phase_ != Phase::Event && phase_ != Phase::Initialize)
    throw std::logic_error("component '" + component_.name() + "' changed a discrete state outside an event");
  ctx_.discrete[layout_.discrete_offset + d.index] = value;
}

void Eval::set_derived(DerivedId d, double value) {
  if (phase_ != Phase::Derive)
    throw std::logic_error("component '" + component_.name() + "' set a derived value outside calc_derived");
  ctx_.derived[layout_.derived_offset + d.index] = value;
}

void Eval::log_event(std::string description) { ctx_.log_event(ctx_.t, component_.name(), std::move(description)); }

void Eval::terminate(std::string reason) {
  if (phase_ != Phase::Event)
    throw std::logic_error("component '" + component_.name() + "': Eval::terminate outside an event");
  if (ctx_.termination) return;
  log_event("ends the run: " + reason);
  ctx_.termination = Context::Termination{component_.name(), std::move(reason), ctx_.t};
}

void Eval::warn(std::string message, Warning::Kind kind) {
  std::ostringstream out;
  out.precision(10);
  out << "t = " << ctx_.t << " s: " << component_.name() << ": " << message;
  ctx_.warnings.emplace_back(out.str(), kind).component = component_.name();
}

// ---------------------------------------------------------------- declarations

void Component::set_identity(std::string name, std::string type_name) {
  d_->name_ = std::move(name);
  d_->type_name_ = std::move(type_name);
}

RealParam Component::declare_real(std::string name, std::string unit, std::optional<double> default_value,
                                  std::string description, Range range) {
  declare_config_real(std::move(name), std::move(unit), default_value, std::move(description), range);
  d_->params_.back().numeric_index = d_->numeric_count_;
  d_->numeric_specs_.push_back(static_cast<int>(d_->params_.size()) - 1);
  return RealParam{d_->numeric_count_++};
}

void Component::declare_config_real(std::string name, std::string unit, std::optional<double> default_value,
                                    std::string description, Range range) {
  ParamSpec s{std::move(name), ParamKind::Real, std::move(unit), {}, {}, range, {}, std::move(description)};
  if (default_value) s.default_value = *default_value;
  d_->add_param(std::move(s));
}

void Component::declare_integer(std::string name, std::optional<long> default_value, std::string description,
                                Range range) {
  ParamSpec s{std::move(name), ParamKind::Integer, "", {}, {}, range, {}, std::move(description)};
  if (default_value) s.default_value = *default_value;
  d_->add_param(std::move(s));
}

void Component::declare_boolean(std::string name, bool default_value, std::string description) {
  ParamSpec s{std::move(name), ParamKind::Boolean, "", {}, default_value, Range::any(), {}, std::move(description)};
  d_->add_param(std::move(s));
}

void Component::declare_text(std::string name, std::optional<std::string> default_value, std::string description,
                             std::vector<std::string> choices) {
  ParamSpec s{std::move(name), ParamKind::Text, "", {}, {}, Range::any(), std::move(choices), std::move(description)};
  if (default_value) s.default_value = *default_value;
  d_->add_param(std::move(s));
}

void Component::declare_real_list(std::string name, std::string unit, std::optional<std::vector<double>> default_value,
                                  std::string description) {
  ParamSpec s{std::move(name), ParamKind::RealList, std::move(unit), {}, {}, Range::any(), {}, std::move(description)};
  if (default_value) s.default_value = *default_value;
  d_->add_param(std::move(s));
}

void Component::declare_named_vectors(std::string name, std::string unit, int size,
                                      std::optional<nlohmann::json> default_value, std::string description) {
  ParamSpec s{std::move(name), ParamKind::NamedVectors, std::move(unit), {}, std::move(default_value), Range::any(), {},
              std::move(description)};
  s.vector_size = size;
  d_->add_param(std::move(s));
}

void Component::declare_table(std::string name, std::vector<std::string> column_units, std::string description,
                              std::optional<nlohmann::json> default_value) {
  ParamSpec s{std::move(name), ParamKind::Table, "", std::move(column_units), std::move(default_value), Range::any(), {},
              std::move(description)};
  d_->add_param(std::move(s));
}

void Component::declare_path(std::string name, std::optional<std::string> default_value, std::string description,
                             PathContent content) {
  declare_text(std::move(name), std::move(default_value), std::move(description));
  d_->params_.back().path = true;
  d_->params_.back().path_runs_code = content == PathContent::Code;
}

void Component::set_decides_parameters(const std::string& name) {
  const int i = d_->param(name);
  if (i < 0) throw std::logic_error("set_decides_parameters: undeclared parameter '" + name + "'");
  if (d_->params_[i].numeric()) throw std::logic_error("parameter '" + name + "' decides others: it must be configuration");
  d_->params_[i].decides_parameters = true;
  d_->has_deciding_parameters_ = true;
}

bool Component::decides_parameters(const std::string& name) const {
  const int i = d_->param(name);
  return i >= 0 && d_->params_[i].decides_parameters;
}

void Component::declare_dependents() {
  if (!d_->has_deciding_parameters_ || d_->dependents_declared_) return;
  for (size_t i = 0; i < d_->params_.size(); ++i) {
    const ParamSpec& s = d_->params_[i];
    if (!s.decides_parameters || d_->values_[i]) continue;
    if (!s.default_value)
      parameter_error(s.name, "missing (required; " + std::string(to_string(s.kind)) +
                                  (s.description.empty() ? "" : ", " + s.description) +
                                  "): the component's other parameters depend on it");
    set_parameter(s.name, *s.default_value);
  }
  d_->dependents_declared_ = true;  // from here on, a deciding parameter can no longer change
  declare_dependent_parameters();
}

void Component::set_example(const std::string& name, nlohmann::json value) {
  const int i = d_->param(name);
  if (i < 0) throw std::logic_error("example for undeclared parameter '" + name + "'");
  d_->params_[i].example = std::move(value);
}

PortId Component::declare_port(std::string name, const Domain& domain, PortSide side, std::string description) {
  if (d_->port(name) >= 0) throw std::logic_error("port '" + name + "' declared twice");
  PortSpec p;
  p.name = std::move(name);
  p.domain = &domain;
  p.side = side;
  p.description = std::move(description);
  d_->port_index_.emplace(p.name, static_cast<int>(d_->ports_.size()));
  d_->ports_.push_back(std::move(p));
  return PortId{static_cast<int>(d_->ports_.size()) - 1};
}

void Component::set_unit(PortId p, std::string unit) {
  PortSpec& port = d_->ports_.at(p.index);
  for (const auto* v : port.domain->outputs(port.side))
    if (!v->unit.empty())
      throw std::logic_error("type '" + d_->type_name_ + "', port '" + port.name + "': its domain gives '" + v->name +
                             "' the unit " + v->unit);
  try {
    parse_unit(unit);
  } catch (const UnitError& e) {
    throw std::logic_error("type '" + d_->type_name_ + "', port '" + port.name + "': " + e.what());
  }
  port.unit = std::move(unit);
}

void Component::set_dependencies(PortId p, std::vector<PortId> inputs) {
  d_->ports_[p.index].depends_on = std::move(inputs);
  d_->ports_[p.index].depends_on_all_inputs = false;
}

StateId Component::declare_state(std::string name, std::string unit, double initial, std::string description) {
  d_->states_.push_back({std::move(name), std::move(unit), initial, std::move(description)});
  return StateId{static_cast<int>(d_->states_.size()) - 1};
}

void Component::declare_state_output(PortId p, Var output, StateId s) {
  auto fail = [&](const std::string& what) {
    throw std::logic_error("type '" + d_->type_name_ + "', declare_state_output: " + what);
  };
  if (!p.valid() || p.index >= static_cast<int>(d_->ports_.size())) fail("undeclared port");
  const PortSpec& port = d_->ports_[p.index];
  if (output.flow != output_flow(port.side) || output.index < 0 || output.index >= port.domain->output_count(port.side))
    fail("port '" + port.name + "' has no such output");
  if (!s.valid() || s.index >= static_cast<int>(d_->states_.size())) fail("undeclared state");
  for (const StateOutput& o : d_->state_outputs_)
    if (o.port == p && o.output.index == output.index) fail("an output of port '" + port.name + "' declared twice");
  d_->state_outputs_.push_back({p, output, s});
}

DiscreteId Component::declare_discrete(std::string name, double initial, std::string description, std::string unit) {
  d_->discretes_.push_back({std::move(name), std::move(unit), initial, std::move(description)});
  return DiscreteId{static_cast<int>(d_->discretes_.size()) - 1};
}

UnknownId Component::declare_unknown(std::string name, std::string unit, double initial_guess,
                                     std::string description) {
  d_->unknowns_.push_back({std::move(name), std::move(unit), initial_guess, std::move(description)});
  return UnknownId{static_cast<int>(d_->unknowns_.size()) - 1};
}

ObservableId Component::declare_observable(std::string name, std::string unit, std::string description) {
  return declare_observable(std::move(name), std::move(unit), std::move(description), "");
}

ObservableId Component::declare_observable(std::string name, std::string unit, std::string description,
                                           std::string quantity) {
  NamedSpec s{std::move(name), std::move(unit), 0.0, std::move(description)};
  s.quantity = std::move(quantity);
  d_->observables_.push_back(std::move(s));
  return ObservableId{static_cast<int>(d_->observables_.size()) - 1};
}

void Component::set_energy_role(ObservableId o, EnergyRole role) {
  d_->observables_.at(static_cast<size_t>(o.index)).energy = role;
}

ZeroCrossingId Component::declare_zero_crossing(std::string name, CrossingDirection direction,
                                                std::string description) {
  NamedSpec s{std::move(name), "", 0.0, std::move(description), direction};
  d_->zero_crossings_.push_back(std::move(s));
  return ZeroCrossingId{static_cast<int>(d_->zero_crossings_.size()) - 1};
}

DerivedId Component::declare_derived(std::string name, std::string unit, std::string description) {
  d_->derived_.push_back({std::move(name), std::move(unit), 0.0, std::move(description)});
  return DerivedId{static_cast<int>(d_->derived_.size()) - 1};
}

PortId Component::find_port(const std::string& name) const { return PortId{d_->port(name)}; }
StateId Component::find_state(const std::string& name) const { return StateId{index_of(d_->states_, name)}; }

// ---------------------------------------------------------------- parameter values

const ParamSpec& Component::spec(const std::string& name) const {
  int i = d_->param(name);
  if (i < 0) throw std::logic_error("component type '" + d_->type_name_ + "' reads undeclared parameter '" + name + "'");
  return d_->params_[i];
}

void Component::parameter_error(const std::string& param, const std::string& message) const {
  throw InputError(InputLocation{"", "", d_->name_, ""}, "parameter '" + param + "': " + message);
}

namespace {

double to_real(const nlohmann::json& v, const std::string& unit) {
  if (v.is_number()) {
    return v.get<double>();  // JSON has no NaN; an infinite default means "none"
  }
  if (v.is_string()) return parse_quantity(v.get<std::string>(), unit);
  throw UnitError("expected a number or a string with a unit, got " + std::string(v.type_name()));
}

std::vector<double> to_reals(const nlohmann::json& v, const std::string& unit) {
  std::vector<double> out;
  for (const auto& e : v) out.push_back(to_real(e, unit));
  return out;
}

}  // namespace

ParamValue parse_parameter(const ParamSpec& s, const nlohmann::json& value) {
  switch (s.kind) {
    case ParamKind::Real: {
      const double v = to_real(value, s.unit);
      if (!std::isfinite(v) && !(std::isinf(v) && infinity_means_none(s)))
        throw UnitError("value " + format_number(v) + (s.unit.empty() ? "" : " " + s.unit) + " is not a finite number");
      if (!s.range.contains(v))
        throw UnitError("value " + format_number(v) + (s.unit.empty() ? "" : " " + s.unit) + " is out of its range " +
                        s.range.to_string(s.unit));
      return v;
    }
    case ParamKind::Integer: {
      if (!value.is_number_integer() && !(value.is_number() && std::floor(value.get<double>()) == value.get<double>()))
        throw UnitError("expected a whole number");
      const long v = static_cast<long>(value.get<double>());
      if (!s.range.contains(static_cast<double>(v)))
        throw UnitError("value " + std::to_string(v) + " is out of its range " + s.range.to_string(""));
      return v;
    }
    case ParamKind::Boolean:
      if (!value.is_boolean()) throw UnitError("expected true or false");
      return value.get<bool>();
    case ParamKind::Text: {
      if (!value.is_string()) throw UnitError("expected a string");
      std::string v = value.get<std::string>();
      if (!s.choices.empty() && std::find(s.choices.begin(), s.choices.end(), v) == s.choices.end()) {
        std::string list;
        for (const auto& c : s.choices) list += (list.empty() ? "" : ", ") + c;
        throw UnitError("'" + v + "' is not one of: " + list);
      }
      return v;
    }
    case ParamKind::RealList:
      if (!value.is_array()) throw UnitError("expected an array of numbers");
      return to_reals(value, s.unit);
    case ParamKind::Table: {
      if (!value.is_array() || value.empty()) throw UnitError("expected a non-empty array of rows");
      std::vector<std::vector<double>> rows;
      // A matrix (no column units): dimensionless columns, as many as the first row has.
      const bool matrix = s.column_units.empty();
      const size_t columns = matrix && value[0].is_array() ? value[0].size() : s.column_units.size();
      for (size_t r = 0; r < value.size(); ++r) {
        const auto& row = value[r];
        if (!row.is_array() || row.size() != columns || columns == 0)
          throw UnitError("row " + std::to_string(r) + " must be an array of " +
                          (columns == 0 ? std::string("at least one number")
                                        : std::to_string(columns) + " numbers" + (matrix ? ", as row 0" : "")));
        std::vector<double> vals;
        for (size_t c = 0; c < row.size(); ++c) vals.push_back(to_real(row[c], matrix ? "" : s.column_units[c]));
        rows.push_back(std::move(vals));
      }
      return rows;
    }
    case ParamKind::NamedVectors: {
      if (!value.is_object()) throw UnitError("expected an object of name: [numbers]");
      NamedVectors v;  // in the order of the names, as the JSON object keeps them
      for (const auto& [key, vec] : value.items()) {
        if (key.empty() || key.find_first_of(". /") != std::string::npos)
          throw UnitError("'" + key + "': a name must be non-empty and contain no '.', '/' or space");
        if (!vec.is_array() || (s.vector_size > 0 && static_cast<int>(vec.size()) != s.vector_size))
          throw UnitError("'" + key + "' must be an array of " + std::to_string(s.vector_size) + " numbers");
        v.emplace_back(key, to_reals(vec, s.unit));
      }
      return v;
    }
  }
  throw std::logic_error("parse_parameter: unknown kind");
}

nlohmann::json to_json(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> nlohmann::json {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, NamedVectors>) {
          nlohmann::json object = nlohmann::json::object();
          for (const auto& [name, numbers] : v) object[name] = numbers;
          return object;
        } else {
          return v;
        }
      },
      value);
}

void Component::set_parameter(const std::string& name, const nlohmann::json& value) {
  int i = d_->param(name);
  if (i >= 0 && d_->params_[i].decides_parameters && d_->dependents_declared_)
    throw std::logic_error("component type '" + d_->type_name_ + "': parameter '" + name +
                           "' decides others and is set after them");
  if (i < 0 && d_->has_deciding_parameters_ && !d_->dependents_declared_) {
    declare_dependents();
    i = d_->param(name);
  }
  if (i < 0) {
    std::string known;
    std::vector<std::string> names;
    for (const auto& p : d_->params_) known += (known.empty() ? "" : ", ") + p.name, names.push_back(p.name);
    const std::string close = closest_name(name, names);
    throw InputError(InputLocation{"", "", d_->name_, ""},
                     "unknown parameter '" + name + "' for type '" + d_->type_name_ + "'" +
                         (close.empty() ? "" : "; did you mean '" + close + "'?") +
                         (known.empty() ? " (it has no parameters)" : "; its parameters are: " + known));
  }
  try {
    d_->values_[i] = parse_parameter(d_->params_[i], value);
  } catch (const UnitError& e) {
    parameter_error(name, e.what());
  }
}

void Component::finish_configuration(const World& world, Purpose purpose) {
  declare_dependents();
  for (size_t i = 0; i < d_->params_.size(); ++i) {
    const ParamSpec& s = d_->params_[i];
    if (d_->values_[i]) continue;
    if (!s.default_value) {
      std::string what = s.unit.empty() ? std::string(to_string(s.kind)) : s.unit;
      parameter_error(s.name, "missing (required; " + what + (s.description.empty() ? "" : ", " + s.description) + ")");
    }
    set_parameter(s.name, *s.default_value);
  }
  d_->configuring_world_ = &world;
  d_->describing_ = purpose == Purpose::Describe;
  struct Reset {
    const World*& w;
    ~Reset() { w = nullptr; }
  } reset{d_->configuring_world_};
  configure();
  d_->configured_ = true;
}

const World& Component::world() const {
  if (!d_->configuring_world_)
    throw std::logic_error("component type '" + d_->type_name_ + "' reads world() outside configure()");
  return *d_->configuring_world_;
}

bool Component::describing() const { return d_->describing_; }

const ParamValue& Component::typed_value(const std::string& name) const {
  const int i = d_->param(name);
  if (i < 0) throw std::logic_error("component type '" + d_->type_name_ + "' reads undeclared parameter '" + name + "'");
  if (!d_->values_[i])
    throw std::logic_error("component type '" + d_->type_name_ + "' reads parameter '" + name + "' before it is set");
  return *d_->values_[i];
}

nlohmann::json Component::parameter_value(const std::string& name) const { return to_json(typed_value(name)); }

double Component::config_real(const std::string& name) const {
  if (spec(name).numeric())
    throw std::logic_error("component type '" + d_->type_name_ + "' reads numeric parameter '" + name +
                           "' by name: read it through its handle (Eval::param)");
  return std::get<double>(typed_value(name));
}

double Component::netlist_value(RealParam p) const {
  return std::get<double>(d_->values_.at(d_->numeric_specs_.at(p.index)).value());
}
long Component::integer(const std::string& name) const { return std::get<long>(typed_value(name)); }
bool Component::boolean(const std::string& name) const { return std::get<bool>(typed_value(name)); }
std::string Component::text(const std::string& name) const { return std::get<std::string>(typed_value(name)); }
std::vector<double> Component::real_list(const std::string& name) const {
  return std::get<std::vector<double>>(typed_value(name));
}
NamedVectors Component::named_vectors(const std::string& name) const {
  return std::get<NamedVectors>(typed_value(name));
}
std::vector<std::vector<double>> Component::table(const std::string& name) const {
  return std::get<std::vector<std::vector<double>>>(typed_value(name));
}

}  // namespace jourdain
