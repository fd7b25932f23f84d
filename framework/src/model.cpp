// Model assembly and evaluation (model.hpp).
#include "jourdain/model.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include <Eigen/Dense>

#include "jourdain/suggest.hpp"
#include "jourdain/units.hpp"

namespace jourdain {

namespace {

std::string closest(const std::string& name, const std::vector<std::string>& candidates) {
  const std::string best = closest_name(name, candidates);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

// The recordable name of output `v` of port `p` (of `n` outputs): "comp.port.v", or
// "comp.port" where the domain names a port's single output by the port.
std::string output_name(const Component& c, const PortSpec& p, const VariableSpec& v, int n) {
  const bool by_port = p.domain->recorded_by_port_name && n == 1;
  return c.name() + "." + p.name + (by_port ? "" : "." + v.name);
}

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

}  // namespace

// ============================================================== ModelBuilder

Model ModelBuilder::build() && {
  Model m;
  m.world_ = world_;
  const int nc = static_cast<int>(components_.size());
  m.layouts_.resize(nc);
  // Per component and port, until they are laid out in m.layout_pool_ (step 2).
  std::vector<std::vector<int>> out_offset(nc);
  std::vector<std::vector<std::vector<int>>> in_sources(nc);

  // 1. Storage of every component's data in the Context vectors.
  auto& z = m.ctx_sizes_;
  for (int i = 0; i < nc; ++i) {
    const Component& c = *components_[i];
    ComponentLayout& L = m.layouts_[i];
    L.workspace_slot = i;
    L.parameter_offset = static_cast<int>(z.parameters);
    for (const auto& spec : c.parameter_specs()) {
      if (!spec.numeric()) continue;
      const int index = L.parameter_offset + spec.numeric_index;
      m.parameter_index_.emplace(c.name() + "." + spec.name, index);
      m.parameters_.push_back({c.name() + "." + spec.name, spec.unit, spec.range, i, index,
                               c.netlist_value(RealParam{spec.numeric_index}),
                               static_cast<int>(&spec - c.parameter_specs().data())});
    }
    z.parameters += c.numeric_parameter_count();
    L.derived_offset = static_cast<int>(z.derived);
    for (size_t k = 0; k < c.derived_values().size(); ++k)
      m.derived_index_.emplace(c.name() + "." + c.derived_values()[k].name, L.derived_offset + static_cast<int>(k));
    z.derived += static_cast<long>(c.derived_values().size());
    L.state_offset = static_cast<int>(z.states);
    L.discrete_offset = static_cast<int>(z.discretes);
    L.unknown_offset = static_cast<int>(z.unknowns);
    L.observable_offset = static_cast<int>(z.observables);
    L.zero_crossing_offset = static_cast<int>(z.zero_crossings);
    z.states += static_cast<long>(c.states().size());
    z.discretes += static_cast<long>(c.discrete_states().size());
    z.unknowns += static_cast<long>(c.unknowns().size());
    z.observables += static_cast<long>(c.observables().size());
    z.zero_crossings += static_cast<long>(c.zero_crossings().size());
    for (const auto& p : c.ports()) {
      int n = p.domain->output_count(p.side);
      out_offset[i].push_back(n > 0 ? static_cast<int>(z.outputs) : -1);
      for (const auto* v : p.domain->outputs(p.side)) m.output_names_.push_back(output_name(c, p, *v, n));
      z.outputs += n;
    }
    in_sources[i].resize(c.ports().size());
  }
  // Outputs that are states, copied before any calc_outputs (in the order of y).
  for (int i = 0; i < nc; ++i)
    for (const Component::StateOutput& o : components_[i]->state_outputs())
      m.state_outputs_.push_back({out_offset[i][o.port.index] + o.output.index, m.layouts_[i].state_offset + o.state.index});
  std::sort(m.state_outputs_.begin(), m.state_outputs_.end(), [](const auto& a, const auto& b) { return a.y < b.y; });
  std::vector<int> slot_owner(z.outputs);
  for (int i = 0; i < nc; ++i) {
    const auto& ports = components_[i]->ports();
    for (size_t p = 0; p < ports.size(); ++p) {
      int off = out_offset[i][p];
      for (int k = 0; k < ports[p].domain->output_count(ports[p].side); ++k) slot_owner[off + k] = i;
    }
  }

  // 2. Connections: each response-side port is driven exactly once.
  std::map<std::pair<int, int>, std::vector<const Connection*>> drivers;
  for (const auto& c : connections_) drivers[{c.response_side.component, c.response_side.port.index}].push_back(&c);
  for (int i = 0; i < nc; ++i) {
    const auto& ports = components_[i]->ports();
    for (size_t p = 0; p < ports.size(); ++p) {
      if (ports[p].side != PortSide::Response) continue;
      auto it = drivers.find({i, static_cast<int>(p)});
      size_t count = it == drivers.end() ? 0 : it->second.size();
      InputLocation w = locations_[i];
      w.port = ports[p].name;
      if (count == 0 && !ports[p].optional) {
        throw InputError(w, ports[p].domain->port_term(PortSide::Response) + " is not connected (" +
                                ports[p].description + ")");
      }
      if (count > 1) {
        std::string who;
        for (const auto* c : it->second) {
          const auto& s = components_[c->state_side.component];
          who += (who.empty() ? "" : " and ") + ("'" + s->name() + "." + s->ports()[c->state_side.port.index].name +
                                                 "' (" + c->where.json_path + ")");
        }
        throw InputError(w, "is driven by " + std::to_string(count) + " ports, " + who +
                                "; an input takes exactly one driver");
      }
    }
  }
  m.connection_count_.resize(nc);
  m.peers_.resize(nc);
  for (int i = 0; i < nc; ++i) {
    m.connection_count_[i].assign(components_[i]->ports().size(), 0);
    m.peers_[i].resize(components_[i]->ports().size());
  }
  for (const auto& c : connections_) {
    ++m.connection_count_[c.state_side.component][c.state_side.port.index];
    ++m.connection_count_[c.response_side.component][c.response_side.port.index];
    auto [sc, sp] = c.state_side;
    auto [rc, rp] = c.response_side;
    int s_out = out_offset[sc][sp.index];
    int r_out = out_offset[rc][rp.index];
    m.peers_[sc][sp.index].push_back({rc, rp.index});
    m.peers_[rc][rp.index].push_back({sc, sp.index});
    if (s_out >= 0) in_sources[rc][rp.index].push_back(s_out);
    if (r_out >= 0) in_sources[sc][sp.index].push_back(r_out);
  }
  // The port tables, each component's in one piece: output offsets, where each port's
  // sources begin, the sources (summed in the order of the connections).
  size_t pool_size = 0;
  for (int i = 0; i < nc; ++i) {
    pool_size += 2 * out_offset[i].size() + 1;
    for (const auto& sources : in_sources[i]) pool_size += sources.size();
  }
  m.layout_pool_.reserve(pool_size);  // no reallocation: the layouts point into it
  std::vector<size_t> starts(nc);
  for (int i = 0; i < nc; ++i) {
    starts[i] = m.layout_pool_.size();
    auto& pool = m.layout_pool_;
    pool.insert(pool.end(), out_offset[i].begin(), out_offset[i].end());
    int begin = 0;
    for (const auto& sources : in_sources[i]) {
      pool.push_back(begin);
      begin += static_cast<int>(sources.size());
    }
    pool.push_back(begin);
    for (const auto& sources : in_sources[i]) pool.insert(pool.end(), sources.begin(), sources.end());
  }
  for (int i = 0; i < nc; ++i) {
    const int* at = m.layout_pool_.data() + starts[i];
    const size_t ports = out_offset[i].size();
    m.layouts_[i].port_output_offset = at;
    m.layouts_[i].input_begin = at + ports;
    m.layouts_[i].input_sources = at + 2 * ports + 1;
  }

  // 3. Port-level dependency graph (scheduler.hpp).
  DependencyGraph g;
  g.component_count = nc;
  std::vector<std::vector<int>> vertices_of(nc);
  std::vector<std::vector<int>> vertex_port_inputs;  // per vertex: input ports of its component it reads
  for (int i = 0; i < nc; ++i) {
    const Component& c = *components_[i];
    const auto& ports = c.ports();
    std::vector<int> all_inputs;
    for (size_t p = 0; p < ports.size(); ++p)
      if (ports[p].domain->input_count(ports[p].side) > 0) all_inputs.push_back(static_cast<int>(p));
    for (size_t p = 0; p < ports.size(); ++p) {
      int nout = ports[p].domain->output_count(ports[p].side);
      if (nout == 0) continue;
      DependencyGraph::OutputPort v{i, static_cast<int>(p), c.name() + "." + ports[p].name, {}};
      for (int k = 0; k < nout; ++k) v.y_slots.push_back(out_offset[i][p] + k);
      vertices_of[i].push_back(static_cast<int>(g.vertices.size()));
      g.vertices.push_back(v);
      std::vector<int> reads;
      if (ports[p].depends_on_all_inputs) reads = all_inputs;
      else for (PortId d : ports[p].depends_on) reads.push_back(d.index);
      vertex_port_inputs.push_back(reads);
    }
    if (vertices_of[i].empty()) {  // no outputs: one vertex that reads everything
      vertices_of[i].push_back(static_cast<int>(g.vertices.size()));
      g.vertices.push_back({i, -1, c.name(), {}});
      vertex_port_inputs.push_back(all_inputs);
    }
    if (!c.unknowns().empty()) {
      g.components_with_unknowns.push_back(i);
      std::vector<int> slots;
      for (size_t u = 0; u < c.unknowns().size(); ++u) slots.push_back(m.layouts_[i].unknown_offset + static_cast<int>(u));
      g.unknown_slots.push_back(slots);
      const auto& vs = vertices_of[i];  // one block: join its vertices in a cycle
      for (size_t k = 0; k + 1 < vs.size(); ++k) {
        g.edges.push_back({vs[k], vs[k + 1]});
        g.edges.push_back({vs[k + 1], vs[k]});
      }
    }
  }
  // Vertex of (component, port) when that port has outputs.
  auto vertex_of_port = [&](int comp, int port) {
    for (int v : vertices_of[comp])
      if (g.vertices[v].port == port) return v;
    return -1;
  };
  for (const auto& c : connections_) {
    // Data across the connection both ways: state side -> response side and back.
    for (auto [from, to] : {std::pair{c.state_side, c.response_side}, std::pair{c.response_side, c.state_side}}) {
      int src = vertex_of_port(from.component, from.port.index);
      if (src < 0) continue;
      for (int v : vertices_of[to.component]) {
        const auto& reads = vertex_port_inputs[v];
        if (std::find(reads.begin(), reads.end(), to.port.index) != reads.end()) g.edges.push_back({src, v});
      }
    }
  }
  // Kinds for the scheduler: components of one type evaluate in one run.
  std::unordered_map<const TypeEvaluation*, int> kinds;
  g.component_kind.resize(nc, -1);
  for (int i = 0; i < nc; ++i)
    if (const TypeEvaluation* t = components_[i]->type_evaluation())
      g.component_kind[i] = kinds.emplace(t, static_cast<int>(kinds.size())).first->second;
  m.schedule_ = make_schedule(g);
  for (auto& step : m.schedule_.steps) {
    if (!step.implicit) continue;
    step.tear_positions_by_component.resize(step.components.size());
    std::unordered_map<int, size_t> position;  // component → its place in the step
    for (size_t ci = 0; ci < step.components.size(); ++ci) position.emplace(step.components[ci], ci);
    for (size_t k = 0; k < step.tear_outputs.size(); ++k)
      if (const auto it = position.find(slot_owner[step.tear_outputs[k]]); it != position.end())
        step.tear_positions_by_component[it->second].push_back(static_cast<int>(k));
  }

  // 4. Zero crossings and recordable variables.
  m.recorded_by_default_.assign(z.outputs, false);
  m.recordable_index_.reserve(static_cast<size_t>(z.states + z.observables + z.discretes + z.outputs));
  auto add_recordable = [&](const std::string& name, const std::string& unit, RecordableVariable::Source src, int idx,
                            int comp) {
    if (!m.recordable_index_.emplace(name, static_cast<int>(m.recordable_.size())).second)
      throw InputError(locations_[comp], "type '" + components_[comp]->type_name() + "' declares '" + name +
                                             "' twice (a component library defect)");
    m.recordable_.push_back({name, unit, src, idx});
  };
  for (int i = 0; i < nc; ++i) {
    const Component& c = *components_[i];
    const ComponentLayout& L = m.layouts_[i];
    for (size_t k = 0; k < c.zero_crossings().size(); ++k)
      m.zero_crossings_.push_back({i, ZeroCrossingId{static_cast<int>(k)}, c.zero_crossings()[k].direction,
                                   c.name() + "." + c.zero_crossings()[k].name});
    for (size_t k = 0; k < c.states().size(); ++k)
      add_recordable(c.name() + "." + c.states()[k].name, c.states()[k].unit, RecordableVariable::Source::State,
                     L.state_offset + static_cast<int>(k), i);
    for (size_t k = 0; k < c.observables().size(); ++k) {
      add_recordable(c.name() + "." + c.observables()[k].name, c.observables()[k].unit,
                     RecordableVariable::Source::Observable, L.observable_offset + static_cast<int>(k), i);
      m.recordable_.back().quantity = c.observables()[k].quantity;
    }
    for (size_t k = 0; k < c.discrete_states().size(); ++k)
      add_recordable(c.name() + "." + c.discrete_states()[k].name, c.discrete_states()[k].unit,
                     RecordableVariable::Source::Discrete,
                     L.discrete_offset + static_cast<int>(k), i);
    for (size_t p = 0; p < c.ports().size(); ++p) {
      const auto& port = c.ports()[p];
      auto outs = port.domain->outputs(port.side);
      for (size_t k = 0; k < outs.size(); ++k) {
        int slot = L.port_output_offset[p] + static_cast<int>(k);
        m.recorded_by_default_[slot] = port.domain->recorded_by_port_name && outs.size() == 1;
        add_recordable(m.output_names_[slot], port.output_unit(*outs[k]),
                       RecordableVariable::Source::Output, slot, i);
      }
    }
  }
  for (int i = 0; i < nc; ++i) m.component_index_.emplace(components_[i]->name(), i);
  m.components_ = std::move(components_);
  // The runs the evaluation walks: the schedule's, and every component once, by type,
  // for the derivatives.
  for (size_t k = 0; k < m.schedule_.steps.size(); ++k) {
    const auto& step = m.schedule_.steps[k];
    if (step.implicit) m.output_runs_.push_back({static_cast<int>(k)});
    else m.append_to_runs(step.components[0], m.output_instances_, m.output_runs_);
  }
  {
    std::vector<int> by_kind(nc);
    for (int i = 0; i < nc; ++i) by_kind[i] = i;
    std::stable_sort(by_kind.begin(), by_kind.end(),
                     [&](int a, int b) { return g.component_kind[a] < g.component_kind[b]; });
    for (int i : by_kind) m.append_to_runs(i, m.derivative_instances_, m.derivative_runs_);
  }
  m.locations_ = locations_;

  // 5. Structured solvers for the blocks whose members name one.
  m.block_solvers_.resize(m.schedule_.steps.size());
  int monitor_count = 0;
  for (size_t k = 0; k < m.schedule_.steps.size(); ++k) {
    const auto& step = m.schedule_.steps[k];
    if (!step.implicit) continue;
    const BlockSolverFactory* factory = nullptr;
    int named_by = -1;
    for (int c : step.components) {
      const BlockSolverFactory* f = m.components_[c]->block_solver();
      if (!f) continue;
      if (factory && f != factory)
        throw InputError(locations_[c], "is in one algebraic loop with '" + m.components_[named_by]->name() +
                                            "', but their libraries solve loops differently ('" + f->name() +
                                            "' and '" + factory->name() + "')");
      factory = f;
      named_by = c;
    }
    if (!factory) continue;
    m.block_solvers_[k] = factory->create(m, step, static_cast<int>(k), monitor_count);
    for (const auto& mon : m.block_solvers_[k]->monitors()) {
      if (!m.recordable_index_.emplace(mon.name, static_cast<int>(m.recordable_.size())).second)
        throw InputError(locations_[named_by], "monitor '" + mon.name + "' clashes with a variable of that name");
      m.recordable_.push_back({mon.name, mon.unit, RecordableVariable::Source::Monitor, monitor_count++});
      m.monitors_.push_back(mon);
    }
  }

  // 6. The values a new Context starts from, gathered once: make_context copies them
  // rather than walking every component's declarations again (at 20 000 components that
  // walk cost more than the whole evaluation of a short run, bench_framework_overhead).
  auto& start = m.start_;
  start.parameters.resize(z.parameters);
  for (const auto& p : m.parameters_) start.parameters[p.index] = p.default_value;
  start.x.resize(z.states);
  start.discrete.resize(z.discretes);
  start.unknowns.resize(z.unknowns);
  for (int i = 0; i < nc; ++i) {
    const Component& c = *m.components_[i];
    const ComponentLayout& L = m.layouts_[i];
    for (size_t k = 0; k < c.states().size(); ++k) start.x[L.state_offset + k] = c.states()[k].initial;
    for (size_t k = 0; k < c.discrete_states().size(); ++k) start.discrete[L.discrete_offset + k] = c.discrete_states()[k].initial;
    for (size_t k = 0; k < c.unknowns().size(); ++k) start.unknowns[L.unknown_offset + k] = c.unknowns()[k].initial;
  }
  // The derived values of the netlist's parameters: computed once here, copied by every
  // Context that keeps them. A relation between them that fails is the netlist's
  // mistake, located at the component's params as configure()'s are.
  Context defaults;
  defaults.parameters = start.parameters;
  defaults.derived = Eigen::VectorXd::Zero(z.derived);
  for (int i = 0; i < nc; ++i) {
    try {
      m.derive(i, defaults);
    } catch (const InputError& e) {
      const InputLocation& w = m.locations_[i];
      throw e.located(InputLocation{w.file, w.json_path.empty() ? "" : w.json_path + "/params", w.component, ""});
    }
  }
  start.derived = std::move(defaults.derived);
  return m;
}

// ============================================================== Model

InputLocation Model::location(int index) const {
  InputLocation where = index >= 0 && index < static_cast<int>(locations_.size()) ? locations_[index] : InputLocation{};
  if (where.component.empty() && index >= 0 && index < static_cast<int>(components_.size()))
    where.component = components_[index]->name();
  return where;
}

const Component* Model::find_component(const std::string& name) const {
  auto it = component_index_.find(name);
  return it == component_index_.end() ? nullptr : components_[it->second].get();
}

namespace {

// "no variable 'x' (did you mean ...); 'comp' offers: ...", among the names in `all`.
InputError unknown_variable(const std::string& name, const std::vector<std::string>& all) {
  std::string comp = name.substr(0, name.find('.'));
  std::vector<std::string> of_comp;
  for (const auto& v : all)
    if (v.rfind(comp + ".", 0) == 0) of_comp.push_back(v);
  return InputError({}, "no variable '" + name + "'" + closest(name, all) +
                            (of_comp.empty() ? "" : "; '" + comp + "' offers: " + join(of_comp)));
}

}  // namespace

const RecordableVariable& Model::recordable(const std::string& name) const {
  if (auto it = recordable_index_.find(name); it != recordable_index_.end()) return recordable_[it->second];
  std::vector<std::string> all;
  for (const auto& v : recordable_) all.push_back(v.name);
  throw unknown_variable(name, all);
}

// A FlatNetlist's, written here beside Model::recordable: the same names, the same message.
void FlatNetlist::check_variable(const std::string& name) const {
  const auto it = index_.find(name.substr(0, name.find('.')));
  if (it == index_.end()) return;  // left out for its own fault, or a block solver's monitor: not judged here
  const Component* c = components_[it->second].get();
  std::vector<std::string> all;
  for (const auto& s : c->states()) all.push_back(c->name() + "." + s.name);
  for (const auto& o : c->observables()) all.push_back(c->name() + "." + o.name);
  for (const auto& d : c->discrete_states()) all.push_back(c->name() + "." + d.name);
  for (const auto& p : c->ports()) {
    const int n = p.domain->output_count(p.side);
    for (const auto* v : p.domain->outputs(p.side)) all.push_back(output_name(*c, p, *v, n));
  }
  if (std::find(all.begin(), all.end(), name) == all.end()) throw unknown_variable(name, all);
}

std::vector<std::string> Model::state_names() const {
  std::vector<std::string> names;
  for (const auto& c : components_)
    for (const auto& s : c->states()) names.push_back(c->name() + "." + s.name);
  return names;
}

std::vector<std::string> Model::unconnected_ports() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < components_.size(); ++i)
    for (size_t p = 0; p < components_[i]->ports().size(); ++p)
      if (connection_count_[i][p] == 0) out.push_back(components_[i]->name() + "." + components_[i]->ports()[p].name);
  return out;
}

std::vector<std::string> Model::default_record() const {
  std::vector<std::string> out;
  for (const auto& v : recordable_) {
    using S = RecordableVariable::Source;
    if (v.source == S::State || v.source == S::Observable || (v.source == S::Output && recorded_by_default_[v.index]))
      out.push_back(v.name);
  }
  return out;
}

const ParameterInfo& Model::parameter(const std::string& name) const {
  if (auto it = parameter_index_.find(name); it != parameter_index_.end()) return parameters_[it->second];
  const auto dot = name.rfind('.');
  InputLocation where{world_.file, "", name.substr(0, dot == std::string::npos ? name.size() : dot), ""};
  if (const Component* c = find_component(where.component); c && dot != std::string::npos) {
    for (const auto& spec : c->parameter_specs())
      if (spec.name == name.substr(dot + 1))
        throw InputError(where, "parameter '" + spec.name + "' is configuration (" + to_string(spec.kind) +
                                    ": it shapes the model); change it in the netlist (or with --set) and load the "
                                    "model again");
  }
  std::vector<std::string> all;
  for (const auto& p : parameters_) all.push_back(p.name);
  throw InputError(where, "no numeric parameter '" + name + "'" + closest(name, all));
}

namespace {

// An initial state given to one run: a number in SI or a string with a unit. `what`
// names it in messages; the caller checks the value itself. (A parameter's value is read
// by parse_parameter, as the netlist's is.)
double run_value(const nlohmann::json& value, const std::string& unit, const InputLocation& where,
                 const std::string& what) {
  double v = 0.0;
  try {
    if (value.is_number()) v = value.get<double>();
    else if (value.is_string()) v = parse_quantity(value.get<std::string>(), unit);
    else throw InputError(where, what + ": expected a number or a string with a unit");
  } catch (const UnitError& e) {
    throw InputError(where, what + ": " + e.what());
  }
  return v;
}

}  // namespace

void Model::set_parameter(Context& ctx, const std::string& name, const nlohmann::json& value) const {
  const ParameterInfo& p = parameter(name);
  const Component& c = *components_[p.component];
  const ParamSpec& spec = c.parameter_specs()[p.spec];
  double v = 0.0;
  try {
    v = std::get<double>(parse_parameter(spec, value));
  } catch (const UnitError& e) {
    throw InputError(InputLocation{world_.file, "", c.name(), ""}, "parameter '" + spec.name + "': " + e.what());
  }
  if (ctx.parameters.size() != static_cast<Eigen::Index>(parameters_.size()))
    throw std::logic_error("set_parameter: the context was not made by this model");
  ctx.parameters[p.index] = v;
  ctx.derived_outdated = true;
}

void Model::derive(int component, Context& ctx) const {
  Eval e = view(component, ctx, Eval::Phase::Derive);
  components_[component]->calc_derived(e);
}

void Model::update_derived(Context& ctx) const {
  for (int i = 0; i < static_cast<int>(components_.size()); ++i) derive(i, ctx);
  ctx.derived_outdated = false;
}

double Model::derived_value(Context& ctx, const std::string& name) const {
  const auto it = derived_index_.find(name);
  if (it == derived_index_.end()) {
    std::vector<std::string> all;
    for (const auto& [known, index] : derived_index_) all.push_back(known);
    std::sort(all.begin(), all.end());
    throw InputError(InputLocation{world_.file, "", "", ""}, "no derived value '" + name + "'" + closest(name, all));
  }
  if (ctx.derived_outdated) update_derived(ctx);
  return ctx.derived[it->second];
}

void Model::set_initial_state(Context& ctx, const std::string& name, const nlohmann::json& value) const {
  const auto dot = name.rfind('.');
  InputLocation where{world_.file, "", name.substr(0, dot == std::string::npos ? name.size() : dot), ""};
  if (auto it = component_index_.find(where.component); it != component_index_.end() && dot != std::string::npos) {
    const auto& states = components_[it->second]->states();
    for (size_t k = 0; k < states.size(); ++k) {
      if (states[k].name != name.substr(dot + 1)) continue;
      const std::string what = "initial value of state '" + states[k].name + "'";
      const double v = run_value(value, states[k].unit, where, what);
      if (!std::isfinite(v)) throw InputError(where, what + ": not a finite number");
      if (ctx.x.size() != ctx_sizes_.states) throw std::logic_error("set_initial_state: the context was not made by this model");
      ctx.x[layouts_[it->second].state_offset + static_cast<Eigen::Index>(k)] = v;
      return;
    }
  }
  throw InputError(where, "no continuous state '" + name + "'" + closest(name, state_names()));
}

Context Model::make_context(double t0) const {
  Context ctx;
  ctx.t = t0;
  ctx.parameters = start_.parameters;
  ctx.derived = start_.derived;
  ctx.x = start_.x;
  ctx.xdot = Eigen::VectorXd::Zero(ctx_sizes_.states);
  ctx.y = Eigen::VectorXd::Zero(ctx_sizes_.outputs);
  ctx.discrete = start_.discrete;
  ctx.unknowns = start_.unknowns;
  ctx.residuals = Eigen::VectorXd::Zero(ctx_sizes_.unknowns);
  ctx.observables = Eigen::VectorXd::Zero(ctx_sizes_.observables);
  ctx.zero_crossings = Eigen::VectorXd::Zero(ctx_sizes_.zero_crossings);
  ctx.monitors = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(monitors_.size()));
  ctx.block_workspaces.resize(schedule_.steps.size());
  ctx.component_workspaces.resize(components_.size());
  return ctx;
}

void Model::initialize(Context& ctx) const {
  // initialize() hooks read inputs that other hooks may change (a comparator fed by a
  // step that has already happened): repeat until states and discrete states settle.
  if (ctx.derived_outdated) update_derived(ctx);
  const int max_passes = 20;
  for (int pass = 0; pass < max_passes; ++pass) {
    const Eigen::VectorXd x = ctx.x, d = ctx.discrete;
    evaluate_outputs(ctx, BlockPrelude::Initialize);
    for (size_t i = 0; i < components_.size(); ++i) {
      Eval e = view(static_cast<int>(i), ctx, Eval::Phase::Initialize);
      components_[i]->initialize(e);
    }
    if (ctx.x == x && ctx.discrete == d) break;
    if (pass + 1 == max_passes) {
      ctx.warnings.push_back("the initial discrete states did not settle in " + std::to_string(max_passes) + " passes");
    }
  }
  evaluate(ctx);
}

void Model::append_to_runs(int c, std::vector<PlacedComponent>& instances, std::vector<Run>& runs) const {
  const TypeEvaluation* type = components_[c]->type_evaluation();
  const int at = static_cast<int>(instances.size());
  instances.push_back({components_[c].get(), layouts_[c]});
  if (type && !runs.empty() && runs.back().block < 0 && runs.back().type == type) ++runs.back().last;
  else runs.push_back({-1, at, at + 1, type});
}

void Model::call_run(const Run& run, const std::vector<PlacedComponent>& instances, Eval::Phase phase,
                     Context& ctx) const {
  const PlacedComponent* first = instances.data() + run.first;
  const bool outputs = phase == Eval::Phase::Outputs;
  if (run.type) {
    (outputs ? run.type->outputs : run.type->derivatives)(first, instances.data() + run.last, ctx, world_);
    return;
  }
  Eval e(*first->component, first->layout, ctx, world_, phase);
  if (outputs) first->component->calc_outputs(e);
  else first->component->calc_derivatives(e);
}

void Model::evaluate_outputs(Context& ctx, BlockPrelude prelude) const {
  // Every evaluation starts here: the derived values of parameters set since the last.
  if (ctx.derived_outdated) [[unlikely]]
    update_derived(ctx);
  // The outputs that are states first: they depend on nothing else, and any member of a
  // run or block may read them.
  double* y = ctx.y.data();
  const double* x = ctx.x.data();
  for (const StateOutputSlot& o : state_outputs_) y[o.y] = x[o.x];
  for (const Run& run : output_runs_) {
    if (run.block >= 0) {
      if (const BlockSolver* solver = block_solvers_[run.block].get()) {
        if (prelude == BlockPrelude::Initialize) solver->initialize(*this, ctx);
        if (prelude == BlockPrelude::Analyze && solver->supports(ctx.analysis)) solver->analyze(*this, ctx);
        solver->solve(*this, ctx);
      } else {
        solve_block(ctx, schedule_.steps[run.block]);
      }
      continue;
    }
    call_run(run, output_instances_, Eval::Phase::Outputs, ctx);
  }
}

// Implicit block: unknowns z = (loop outputs, algebraic unknowns). One pass sets the
// loop outputs to z, lets every member compute, and forms F(z) = (g(z) - z, residuals);
// Newton's method with a finite-difference Jacobian drives F to zero.
void Model::solve_block(Context& ctx, const ScheduledStep& step) const {
  const int nt = static_cast<int>(step.tear_outputs.size());
  const int nu = static_cast<int>(step.unknowns.size());
  const int n = nt + nu;
  Eigen::VectorXd zv(n), F(n), F1(n);
  for (int k = 0; k < nt; ++k) zv[k] = ctx.y[step.tear_outputs[k]];
  for (int k = 0; k < nu; ++k) zv[nt + k] = ctx.unknowns[step.unknowns[k]];

  auto pass = [&](const Eigen::VectorXd& zz, Eigen::VectorXd& out) {
    for (int k = 0; k < nt; ++k) ctx.y[step.tear_outputs[k]] = zz[k];
    for (int k = 0; k < nu; ++k) ctx.unknowns[step.unknowns[k]] = zz[nt + k];
    for (size_t ci = 0; ci < step.components.size(); ++ci) {
      int c = step.components[ci];
      Eval e = view(c, ctx, Eval::Phase::Outputs);
      components_[c]->calc_outputs(e);
      // Keep what it computed, and give later members the loop values z, not g(z).
      for (int k : step.tear_positions_by_component[ci]) {
        out[k] = ctx.y[step.tear_outputs[k]] - zz[k];
        ctx.y[step.tear_outputs[k]] = zz[k];
      }
    }
    for (int k = 0; k < nu; ++k) out[nt + k] = ctx.residuals[step.unknowns[k]];
  };
  auto fail = [&](const std::string& why) {
    std::vector<std::string> names;
    for (int c : step.components) names.push_back(components_[c]->name());
    throw SimulationError(ctx.t, names, "algebraic loop not solved: " + why);
  };

  const double tol_rel = 1e-10, tol_abs = 1e-12;
  const int max_iterations = 50;
  Eigen::MatrixXd J(n, n);
  bool converged = false;
  for (int it = 0; it < max_iterations; ++it) {
    pass(zv, F);
    if (!F.allFinite()) fail("a residual is not finite");
    ++ctx.algebraic_iterations;
    for (int j = 0; j < n; ++j) {
      const double h = 1e-7 * std::max(1.0, std::abs(zv[j]));
      Eigen::VectorXd zp = zv;
      zp[j] += h;
      pass(zp, F1);
      J.col(j) = (F1 - F) / h;
    }
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(J);
    if (qr.rank() < n) fail("its Jacobian is singular (rank " + std::to_string(qr.rank()) + " of " + std::to_string(n) + ")");
    Eigen::VectorXd dz = qr.solve(-F);
    zv += dz;
    bool small = true;
    for (int k = 0; k < n; ++k) small = small && std::abs(dz[k]) <= tol_abs + tol_rel * std::abs(zv[k]);
    if (small) {
      converged = true;
      break;
    }
  }
  if (!converged) fail("Newton's method did not converge in " + std::to_string(max_iterations) + " iterations");
  // Final pass at the solution, so every output of the members is consistent with it.
  pass(zv, F);
}

namespace {

// True when every value is finite. A sum is NaN or infinite when one of its terms is, so
// the common case costs one vectorised pass of additions (Eigen's sum; multiplying by
// zero first, or allFinite's v - v == 0, costs more); a sum that overflows from finite
// terms only sends the caller to its element-by-element search, which then finds nothing.
bool sum_is_finite(const Eigen::VectorXd& v) { return std::isfinite(v.sum()); }

}  // namespace

void Model::evaluate(Context& ctx) const {
  evaluate_outputs(ctx);
  evaluate_derivatives(ctx);
  check_finite(ctx);
}

void Model::evaluate_derivatives(Context& ctx) const {
  HookPlan& plan = ctx.hooks;
  auto call = [&](const Run& run) { call_run(run, derivative_instances_, Eval::Phase::Derivatives, ctx); };
  if (plan.known) {
    for (int r : plan.derivative_hooks) call(derivative_runs_[r]);
  } else {  // the first pass calls every hook and notes which do something (a run's
            // components are of one type: all or none of them are idle)
    plan.derivative_hooks.clear();
    for (size_t r = 0; r < derivative_runs_.size(); ++r) {
      plan.idle_seen = false;
      call(derivative_runs_[r]);
      if (!plan.idle_seen) plan.derivative_hooks.push_back(static_cast<int>(r));
    }
    plan.known = true;
  }
}

void Model::derivatives(Context& ctx, double t, const Eigen::VectorXd& x) const {
  ctx.t = t;
  ctx.x = x;
  // Observables are wanted everywhere but here: off for this evaluation only, also when
  // it throws.
  struct StageOnly {
    Context& ctx;
    explicit StageOnly(Context& c) : ctx(c) { ctx.observables_wanted = false; }
    ~StageOnly() { ctx.observables_wanted = true; }
  } stage{ctx};
  evaluate_outputs(ctx);
  evaluate_derivatives(ctx);
  // The integration reads the states and their derivatives only: a non-finite output
  // spoils it through the derivatives it feeds, and check_finite then names the output
  // first. Outputs and observables that feed nothing are checked where they are used,
  // in every recorded row (Recorder::record). Checking them here too cost about a tenth
  // of the evaluation of a small component (bench_framework_overhead).
  if (!sum_is_finite(ctx.x) || !sum_is_finite(ctx.xdot)) check_finite(ctx);
}

void Model::evaluate_zero_crossings(Context& ctx, double t, const Eigen::VectorXd& x) const {
  ctx.t = t;
  ctx.x = x;
  evaluate(ctx);
  update_zero_crossings(ctx);
}

void Model::update_zero_crossings(Context& ctx) const {
  for (size_t i = 0; i < components_.size(); ++i) {
    if (components_[i]->zero_crossings().empty()) continue;
    Eval e = view(static_cast<int>(i), ctx, Eval::Phase::ZeroCrossings);
    components_[i]->calc_zero_crossings(e);
  }
}

double Model::next_time_event(Context& ctx) const {
  if (ctx.derived_outdated) update_derived(ctx);
  double next = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < components_.size(); ++i) {
    if (components_[i]->zero_crossings().empty()) continue;
    const Eval e = view(static_cast<int>(i), ctx, Eval::Phase::ZeroCrossings);
    if (const double t = components_[i]->next_time_event(e); t > ctx.t && t < next) next = t;
  }
  return next;
}

std::vector<int> Model::crossed(const Eigen::VectorXd& g0, const Eigen::VectorXd& g1, bool strict) const {
  std::vector<int> out;
  for (Eigen::Index i = 0; i < g0.size(); ++i) {
    const bool rising = g0[i] < 0.0 && (strict ? g1[i] > 0.0 : g1[i] >= 0.0);
    const bool falling = g0[i] > 0.0 && (strict ? g1[i] < 0.0 : g1[i] <= 0.0);
    switch (zero_crossings_[i].direction) {
      case CrossingDirection::Rising: if (rising) out.push_back(static_cast<int>(i)); break;
      case CrossingDirection::Falling: if (falling) out.push_back(static_cast<int>(i)); break;
      case CrossingDirection::Either: if (rising || falling) out.push_back(static_cast<int>(i)); break;
    }
  }
  return out;
}

void Model::handle_zero_crossings(Context& ctx, std::vector<int> triggered) const {
  const double t = ctx.t;
  evaluate_zero_crossings(ctx, t, ctx.x);
  Eigen::VectorXd before = ctx.zero_crossings;
  const int max_rounds = 100;
  for (int round = 0; round < max_rounds; ++round) {
    // ctx is evaluated at (t, x): before round 0 just above, later by the previous round.
    for (int z : triggered) {
      const auto& info = zero_crossings_[z];
      Eval e = view(info.component, ctx, Eval::Phase::Event);
      components_[info.component]->on_zero_crossing(e, info.id);
    }
    // What the discrete changes did to the other functions, at the same instant.
    evaluate_zero_crossings(ctx, t, ctx.x);
    std::vector<int> next;
    for (int z : crossed(before, ctx.zero_crossings, /*strict=*/true))
      if (std::find(triggered.begin(), triggered.end(), z) == triggered.end()) next.push_back(z);
    if (next.empty()) return;
    before = ctx.zero_crossings;
    triggered = std::move(next);
  }
  std::vector<std::string> names;
  for (int z : triggered) names.push_back(components_[zero_crossings_[z].component]->name());
  throw SimulationError(t, names, "events keep triggering each other (" + std::to_string(max_rounds) +
                                      " rounds at one instant): the discrete logic chatters");
}

void Model::check_finite(const Context& ctx) const {
  // Names are looked up only on failure.
  if (sum_is_finite(ctx.y) && sum_is_finite(ctx.x) && sum_is_finite(ctx.xdot) && sum_is_finite(ctx.observables)) return;
  auto bad = [&](const std::string& comp, const std::string& what) {
    throw NonFiniteError(ctx.t, {comp}, what + " is not finite (NaN or infinity)");
  };
  for (Eigen::Index k = 0; k < ctx.y.size(); ++k) {
    if (!std::isfinite(ctx.y[k])) {
      const std::string& name = output_names_[k];
      bad(name.substr(0, name.find('.')), "output '" + name + "'");
    }
  }
  for (size_t i = 0; i < components_.size(); ++i) {
    const auto& c = *components_[i];
    const auto& L = layouts_[i];
    for (size_t k = 0; k < c.states().size(); ++k) {
      if (!std::isfinite(ctx.x[L.state_offset + k])) bad(c.name(), "state '" + c.name() + "." + c.states()[k].name + "'");
      if (!std::isfinite(ctx.xdot[L.state_offset + k]))
        bad(c.name(), "derivative of state '" + c.name() + "." + c.states()[k].name + "'");
    }
    for (size_t k = 0; k < c.observables().size(); ++k)
      if (!std::isfinite(ctx.observables[L.observable_offset + k]))
        bad(c.name(), "variable '" + c.name() + "." + c.observables()[k].name + "'");
  }
}

Model::JacobianPattern Model::jacobian_pattern() const {
  using Set = std::vector<int>;  // sorted state indices
  auto merge_into = [](Set& into, const Set& from) {
    if (from.empty()) return;
    Set merged;
    merged.reserve(into.size() + from.size());
    std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(merged));
    into.swap(merged);
  };
  const int nc = static_cast<int>(components_.size());
  auto own_states = [&](int c) {
    Set s(components_[c]->states().size());
    for (size_t k = 0; k < s.size(); ++k) s[k] = layouts_[c].state_offset + static_cast<int>(k);
    return s;
  };
  // Every port's outputs share one set (a "group"); which group each output slot is in.
  std::vector<int> first_group(nc + 1, 0);
  for (int c = 0; c < nc; ++c) first_group[c + 1] = first_group[c] + static_cast<int>(components_[c]->ports().size());
  std::vector<int> group_of_slot(static_cast<size_t>(ctx_sizes_.outputs), -1);
  for (int c = 0; c < nc; ++c) {
    const auto& ports = components_[c]->ports();
    for (size_t p = 0; p < ports.size(); ++p) {
      const int at = layouts_[c].port_output_offset[p];
      for (int k = 0; k < ports[p].domain->output_count(ports[p].side); ++k) group_of_slot[at + k] = first_group[c] + static_cast<int>(p);
    }
  }
  std::vector<Set> group(first_group[nc]);
  // What the inputs of port p of component c carry: the union of their sources' sets.
  auto input_set = [&](int c, int p, Set& into) {
    const ComponentLayout& L = layouts_[c];
    for (int k = L.input_begin[p]; k < L.input_begin[p + 1]; ++k) merge_into(into, group[group_of_slot[L.input_sources[k]]]);
  };
  auto all_inputs = [&](int c, Set& into) {
    for (size_t p = 0; p < components_[c]->ports().size(); ++p) input_set(c, static_cast<int>(p), into);
  };
  std::vector<int> block_of(nc, -1);
  std::vector<Set> block_set(schedule_.steps.size());
  // In schedule order every port is computed after the ports it reads, so one pass
  // settles an explicit step; a block's set is everything its members read. Passes are
  // repeated until nothing grows (the second confirms the first).
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t k = 0; k < schedule_.steps.size(); ++k) {
      const ScheduledStep& step = schedule_.steps[k];
      if (!step.implicit) {
        const int c = step.components[0];
        const auto& ports = components_[c]->ports();
        for (size_t p = 0; p < ports.size(); ++p) {
          if (ports[p].domain->output_count(ports[p].side) == 0) continue;
          Set s = own_states(c);
          if (ports[p].depends_on_all_inputs) all_inputs(c, s);
          else for (PortId d : ports[p].depends_on) input_set(c, d.index, s);
          Set& g = group[first_group[c] + static_cast<int>(p)];
          const size_t before = g.size();
          merge_into(g, s);
          grew = grew || g.size() != before;
        }
        continue;
      }
      const int block = static_cast<int>(k);
      Set s;
      for (int c : step.components) {
        block_of[c] = block;
        merge_into(s, own_states(c));
        all_inputs(c, s);
      }
      const size_t before = block_set[block].size();
      merge_into(block_set[block], s);
      grew = grew || block_set[block].size() != before;
      s = block_set[block];
      for (int c : step.components)
        for (size_t p = 0; p < components_[c]->ports().size(); ++p) group[first_group[c] + static_cast<int>(p)] = s;
    }
  }
  JacobianPattern pattern;
  pattern.row_begin.push_back(0);
  for (int c = 0; c < nc; ++c) {
    if (components_[c]->states().empty()) continue;
    Set s = own_states(c);
    all_inputs(c, s);
    if (block_of[c] >= 0) merge_into(s, block_set[block_of[c]]);
    for (size_t k = 0; k < components_[c]->states().size(); ++k) {
      pattern.columns.insert(pattern.columns.end(), s.begin(), s.end());
      pattern.row_begin.push_back(static_cast<int>(pattern.columns.size()));
    }
  }
  return pattern;
}

double Model::value(const Context& ctx, const RecordableVariable& v) const {
  switch (v.source) {
    case RecordableVariable::Source::State: return ctx.x[v.index];
    case RecordableVariable::Source::Output: return ctx.y[v.index];
    case RecordableVariable::Source::Observable: return ctx.observables[v.index];
    case RecordableVariable::Source::Discrete: return ctx.discrete[v.index];
    case RecordableVariable::Source::Monitor: return ctx.monitors[v.index];
  }
  return 0.0;
}

bool Model::has_block_solvers() const {
  return std::any_of(block_solvers_.begin(), block_solvers_.end(), [](const auto& s) { return s != nullptr; });
}

bool Model::projects() const {
  return std::any_of(block_solvers_.begin(), block_solvers_.end(), [](const auto& s) { return s && s->projects(); });
}

bool Model::project(Context& ctx) const {
  bool changed = false;
  for (const auto& s : block_solvers_)
    if (s && s->projects()) changed = s->project(*this, ctx) || changed;
  if (changed) evaluate(ctx);
  return changed;
}

void Model::observe(Context& ctx) const {
  for (const auto& s : block_solvers_)
    if (s) s->observe(*this, ctx);
}

void Model::project_change(Context& ctx, Eigen::Ref<Eigen::VectorXd> dx) const {
  for (const auto& s : block_solvers_)
    if (s && s->projects()) s->project_change(*this, ctx, dx);
}

Eigen::MatrixXd Model::invariant_jacobian(Context& ctx) const {
  std::vector<Eigen::MatrixXd> parts;
  Eigen::Index rows = 0;
  for (const auto& s : block_solvers_) {
    if (!s) continue;
    Eigen::MatrixXd h = s->invariant_jacobian(*this, ctx);
    if (h.rows() == 0) continue;
    rows += h.rows();
    parts.push_back(std::move(h));
  }
  Eigen::MatrixXd all = Eigen::MatrixXd::Zero(rows, state_count());
  Eigen::Index at = 0;
  for (const auto& h : parts) {
    all.middleRows(at, h.rows()) = h;
    at += h.rows();
  }
  return all;
}

std::vector<std::pair<int, int>> Model::coordinate_pairs(Context& ctx) const {
  std::vector<std::pair<int, int>> all;
  for (const auto& s : block_solvers_)
    if (s) {
      const auto pairs = s->coordinate_pairs(*this, ctx);
      all.insert(all.end(), pairs.begin(), pairs.end());
    }
  return all;
}

bool Model::restore_invariants(Context& ctx) const {
  bool changed = false;
  for (const auto& s : block_solvers_)
    if (s) changed = s->restore_invariants(*this, ctx) || changed;
  if (changed) evaluate(ctx);
  return changed;
}

bool Model::supports(Analysis analysis) const {
  return std::any_of(block_solvers_.begin(), block_solvers_.end(),
                     [&](const auto& s) { return s && s->supports(analysis); });
}

void Model::analyze(Context& ctx) const {
  evaluate_outputs(ctx, BlockPrelude::Analyze);
  evaluate_derivatives(ctx);
  check_finite(ctx);
}

std::string Model::describe_blocks(const Context& ctx) const {
  std::string out;
  for (const auto& s : block_solvers_)
    if (s) out += s->describe(*this, ctx);
  return out;
}

}  // namespace jourdain
