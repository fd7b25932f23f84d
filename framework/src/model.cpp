// Model assembly and evaluation (model.hpp).
#include "jourdain/model.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include <Eigen/Dense>

#include "jourdain/diagnostics.hpp"
#include "jourdain/suggest.hpp"
#include "jourdain/units.hpp"
#include "component_slots.hpp"
#include "newton_block_solver.hpp"
#include "observables_off.hpp"

namespace jourdain {

namespace {

// The recordable name of output `v` of port `p` (of `n` outputs): "comp.port.v", or
// "comp.port" where the domain names a port's single output by the port.
std::string output_name(const Component& c, const PortSpec& p, const VariableSpec& v, int n) {
  const bool by_port = p.domain->recorded_by_port_name && n == 1;
  return c.name() + "." + p.name + (by_port ? "" : "." + v.name);
}

}  // namespace

// ============================================================== ModelBuilder

// ---- build(), in steps
//
// Each step does one thing and reads what the steps before it made; Assembly carries
// between them what is not yet the Model's. A problem a step finds is a fault(): thrown
// at once in a build for a run (the first problem, with the text it always had), or
// recorded in a check (Diagnostics::keep_going), which then goes on with every step the
// problem does not spoil, so that one check reports every independent problem.

struct ModelBuilder::Assembly {
  Model model;
  Diagnostics* diagnostics = nullptr;
  bool faulty = false;  // a fault was recorded (a check only: a run has thrown it)
  // Per component and port: the port's first slot in Context::y (-1: it has no
  // outputs), and the y slots summed into its inputs, until wire_ports lays both out in
  // the model's port tables.
  std::vector<std::vector<int>> out_offset;
  std::vector<std::vector<std::vector<int>>> in_sources;
  std::vector<int> slot_owner;      // per Context::y slot: the component that writes it
  std::vector<int> component_kind;  // per component: its kind for the scheduler (DependencyGraph)
  std::vector<std::pair<int, int>> block_monitors;  // per schedule step: its solver's monitors [first, last)

  void fault(const InputError& problem) {
    if (!diagnostics || !diagnostics->keep_going()) throw problem;
    diagnostics->add(problem);
    faulty = true;
  }
  // For a problem thrown by code the builder calls (a block solver's factory): inside
  // its catch block.
  void fault_caught(const InputError& problem) {
    if (!diagnostics || !diagnostics->keep_going()) throw;
    diagnostics->add(problem);
    faulty = true;
  }
};

Model ModelBuilder::build(Diagnostics* diagnostics) && {
  Assembly a;
  a.diagnostics = diagnostics;
  Model& m = a.model;
  m.world_ = world_;
  m.components_ = std::move(components_);
  m.locations_ = locations_;
  lay_out(a);
  check_drivers(a);
  // The order, the loops and their solvers are not judged on connections with faults:
  // they would report what the faults explain (the loop a missing connection opens).
  const bool wired = !a.faulty;
  wire_ports(a);
  if (wired) schedule(a);
  name_variables(a);
  if (wired) {
    attach_block_solvers(a);
    plan_evaluation(a);
  }
  gather_start_values(a);
  if (a.faulty) {  // a check: no model, and the components back for check_variable
    components_ = std::move(m.components_);
    return Model{};
  }
  return std::move(m);
}

// Where every component's data lives in the Context vectors (a contiguous range of each
// vector per component, in the order they were added), the tables of numeric parameters
// and derived values by name, the names of the output slots, and which outputs are
// copies of states. Nothing here can fail: it only counts what the components declared.
void ModelBuilder::lay_out(Assembly& a) const {
  Model& m = a.model;
  const auto& components = m.components_;
  const int nc = static_cast<int>(components.size());
  m.layouts_.resize(nc);
  a.out_offset.resize(nc);
  a.in_sources.resize(nc);
  auto& z = m.ctx_sizes_;
  for (int i = 0; i < nc; ++i) {
    const Component& c = *components[i];
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
      a.out_offset[i].push_back(n > 0 ? static_cast<int>(z.outputs) : -1);
      for (const auto* v : p.domain->outputs(p.side)) m.output_names_.push_back(output_name(c, p, *v, n));
      z.outputs += n;
    }
    a.in_sources[i].resize(c.ports().size());
  }
  // Outputs that are states, copied before any calc_outputs (in the order of y).
  for (int i = 0; i < nc; ++i)
    for (const Component::StateOutput& o : components[i]->state_outputs())
      m.plan_.state_copies.push_back({a.out_offset[i][o.port.index] + o.output.index, m.layouts_[i].state_offset + o.state.index});
  std::sort(m.plan_.state_copies.begin(), m.plan_.state_copies.end(), [](const auto& x, const auto& y) { return x.y < y.y; });
  a.slot_owner.resize(z.outputs);
  for (int i = 0; i < nc; ++i) {
    const auto& ports = components[i]->ports();
    for (size_t p = 0; p < ports.size(); ++p) {
      int off = a.out_offset[i][p];
      for (int k = 0; k < ports[p].domain->output_count(ports[p].side); ++k) a.slot_owner[off + k] = i;
    }
  }
}

// Each response-side port is driven exactly once (AMESim's causality: what a response
// side returns has one source); an optional one may be left open. connect() has checked
// each connection on its own; this is what only the whole set tells.
void ModelBuilder::check_drivers(Assembly& a) const {
  const auto& components = a.model.components_;
  std::map<std::pair<int, int>, std::vector<const Connection*>> drivers;
  for (const auto& c : connections_) drivers[{c.response_side.component, c.response_side.port.index}].push_back(&c);
  for (int i = 0; i < static_cast<int>(components.size()); ++i) {
    const auto& ports = components[i]->ports();
    for (size_t p = 0; p < ports.size(); ++p) {
      if (ports[p].side != PortSide::Response) continue;
      auto it = drivers.find({i, static_cast<int>(p)});
      size_t count = it == drivers.end() ? 0 : it->second.size();
      InputLocation w = locations_[i];
      w.port = ports[p].name;
      if (count == 0 && !ports[p].optional) {
        a.fault(InputError(w, ports[p].domain->port_term(PortSide::Response) + " is not connected (" +
                                  ports[p].description + ")"));
      }
      if (count > 1) {
        std::string who;
        for (const auto* c : it->second) {
          const auto& s = components[c->state_side.component];
          who += (who.empty() ? "" : " and ") + ("'" + s->name() + "." + s->ports()[c->state_side.port.index].name +
                                                 "' (" + c->where.json_path + ")");
        }
        a.fault(InputError(w, "is driven by " + std::to_string(count) + " ports, " + who +
                                  "; an input takes exactly one driver"));
      }
    }
  }
}

// The connections as the evaluation reads them: each port's peers (for block solvers),
// how many connections reach it (for `check`), and the port tables of every component
// in one piece of the model's pool: output offsets, where each port's sources begin, and
// the sources, summed in the order of the connections.
void ModelBuilder::wire_ports(Assembly& a) const {
  Model& m = a.model;
  const auto& components = m.components_;
  const int nc = static_cast<int>(components.size());
  m.connection_count_.resize(nc);
  m.peers_.resize(nc);
  for (int i = 0; i < nc; ++i) {
    m.connection_count_[i].assign(components[i]->ports().size(), 0);
    m.peers_[i].resize(components[i]->ports().size());
  }
  for (const auto& c : connections_) {
    ++m.connection_count_[c.state_side.component][c.state_side.port.index];
    ++m.connection_count_[c.response_side.component][c.response_side.port.index];
    const int sc = c.state_side.component, sp = c.state_side.port.index;
    const int rc = c.response_side.component, rp = c.response_side.port.index;
    int s_out = a.out_offset[sc][sp];
    int r_out = a.out_offset[rc][rp];
    m.peers_[sc][sp].push_back({rc, rp});
    m.peers_[rc][rp].push_back({sc, sp});
    if (s_out >= 0) a.in_sources[rc][rp].push_back(s_out);
    if (r_out >= 0) a.in_sources[sc][sp].push_back(r_out);
  }
  size_t pool_size = 0;
  for (int i = 0; i < nc; ++i) {
    pool_size += 2 * a.out_offset[i].size() + 1;
    for (const auto& sources : a.in_sources[i]) pool_size += sources.size();
  }
  m.layout_pool_.reserve(pool_size);  // no reallocation: the layouts point into it
  std::vector<size_t> starts(nc);
  for (int i = 0; i < nc; ++i) {
    starts[i] = m.layout_pool_.size();
    auto& pool = m.layout_pool_;
    pool.insert(pool.end(), a.out_offset[i].begin(), a.out_offset[i].end());
    int begin = 0;
    for (const auto& sources : a.in_sources[i]) {
      pool.push_back(begin);
      begin += static_cast<int>(sources.size());
    }
    pool.push_back(begin);
    for (const auto& sources : a.in_sources[i]) pool.insert(pool.end(), sources.begin(), sources.end());
  }
  for (int i = 0; i < nc; ++i) {
    const int* at = m.layout_pool_.data() + starts[i];
    const size_t ports = a.out_offset[i].size();
    m.layouts_[i].port_output_offset = at;
    m.layouts_[i].input_begin = at + ports;
    m.layouts_[i].input_sources = at + 2 * ports + 1;
  }
}

// The order of the outputs (scheduler.hpp): one vertex per output port, an edge where
// an output reaches an input that another output reads at once (set_dependencies); the
// components with algebraic unknowns join a block. Each implicit block then learns which
// of its loop variables each member writes, for the solver's passes.
void ModelBuilder::schedule(Assembly& a) const {
  Model& m = a.model;
  const auto& components = m.components_;
  const int nc = static_cast<int>(components.size());
  DependencyGraph g;
  g.component_count = nc;
  std::vector<std::vector<int>> vertices_of(nc);
  std::vector<std::vector<int>> vertex_port_inputs;  // per vertex: input ports of its component it reads
  for (int i = 0; i < nc; ++i) {
    const Component& c = *components[i];
    const auto& ports = c.ports();
    std::vector<int> all_inputs;
    for (size_t p = 0; p < ports.size(); ++p)
      if (ports[p].domain->input_count(ports[p].side) > 0) all_inputs.push_back(static_cast<int>(p));
    for (size_t p = 0; p < ports.size(); ++p) {
      int nout = ports[p].domain->output_count(ports[p].side);
      if (nout == 0) continue;
      DependencyGraph::OutputPort v{i, static_cast<int>(p), c.name() + "." + ports[p].name, {}};
      for (int k = 0; k < nout; ++k) v.y_slots.push_back(a.out_offset[i][p] + k);
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
    if (const TypeEvaluation* t = components[i]->type_evaluation())
      g.component_kind[i] = kinds.emplace(t, static_cast<int>(kinds.size())).first->second;
  m.schedule_ = make_schedule(g);
  a.component_kind = std::move(g.component_kind);
  for (auto& step : m.schedule_.steps) {
    if (!step.implicit) continue;
    step.tear_positions_by_component.resize(step.components.size());
    std::unordered_map<int, size_t> position;  // component → its place in the step
    for (size_t ci = 0; ci < step.components.size(); ++ci) position.emplace(step.components[ci], ci);
    for (size_t k = 0; k < step.tear_outputs.size(); ++k)
      if (const auto it = position.find(a.slot_owner[step.tear_outputs[k]]); it != position.end())
        step.tear_positions_by_component[it->second].push_back(static_cast<int>(k));
  }
}

// The names a run records by and `check` lists: every zero crossing, and every state,
// observable, discrete state and output as "component.variable". A name declared twice
// is a library's defect, reported for each.
void ModelBuilder::name_variables(Assembly& a) const {
  Model& m = a.model;
  const auto& components = m.components_;
  const auto& z = m.ctx_sizes_;
  m.recorded_by_default_.assign(z.outputs, false);
  m.recordable_index_.reserve(static_cast<size_t>(z.states + z.observables + z.discretes + z.outputs));
  auto add_recordable = [&](const std::string& name, const std::string& unit, RecordableVariable::Source src, int idx,
                            int comp) {
    if (!m.recordable_index_.emplace(name, static_cast<int>(m.recordable_.size())).second) {
      a.fault(InputError(locations_[comp], "type '" + components[comp]->type_name() + "' declares '" + name +
                                                "' twice (a component library defect)"));
      return false;
    }
    m.recordable_.push_back({name, unit, src, idx});
    return true;
  };
  for (int i = 0; i < static_cast<int>(components.size()); ++i) {
    const Component& c = *components[i];
    const ComponentLayout& L = m.layouts_[i];
    for (size_t k = 0; k < c.zero_crossings().size(); ++k)
      m.zero_crossings_.push_back({i, ZeroCrossingId{static_cast<int>(k)}, c.zero_crossings()[k].direction,
                                   c.name() + "." + c.zero_crossings()[k].name});
    for (size_t k = 0; k < c.states().size(); ++k)
      add_recordable(c.name() + "." + c.states()[k].name, c.states()[k].unit, RecordableVariable::Source::State,
                     L.state_offset + static_cast<int>(k), i);
    for (size_t k = 0; k < c.observables().size(); ++k)
      if (add_recordable(c.name() + "." + c.observables()[k].name, c.observables()[k].unit,
                         RecordableVariable::Source::Observable, L.observable_offset + static_cast<int>(k), i))
        m.recordable_.back().quantity = c.observables()[k].quantity;
    for (size_t k = 0; k < c.discrete_states().size(); ++k)
      add_recordable(c.name() + "." + c.discrete_states()[k].name, c.discrete_states()[k].unit,
                     RecordableVariable::Source::Discrete, L.discrete_offset + static_cast<int>(k), i);
    for (size_t p = 0; p < c.ports().size(); ++p) {
      const auto& port = c.ports()[p];
      auto outs = port.domain->outputs(port.side);
      for (size_t k = 0; k < outs.size(); ++k) {
        int slot = L.port_output_offset[p] + static_cast<int>(k);
        m.recorded_by_default_[slot] = port.domain->recorded_by_port_name && outs.size() == 1;
        add_recordable(m.output_names_[slot], port.output_unit(*outs[k]), RecordableVariable::Source::Output, slot, i);
      }
    }
  }
  for (int i = 0; i < static_cast<int>(components.size()); ++i) m.component_index_.emplace(components[i]->name(), i);
}

// A solver for every implicit block: the structured one the members' library names (all
// members must name the same), else the general Newton solver. The monitors a solver
// offers become recordable variables.
void ModelBuilder::attach_block_solvers(Assembly& a) const {
  Model& m = a.model;
  m.block_solvers_.resize(m.schedule_.steps.size());
  a.block_monitors.assign(m.schedule_.steps.size(), {0, 0});
  int monitor_count = 0;
  for (size_t k = 0; k < m.schedule_.steps.size(); ++k) {
    const auto& step = m.schedule_.steps[k];
    if (!step.implicit) continue;
    a.block_monitors[k] = {monitor_count, monitor_count};
    const BlockSolverFactory* factory = nullptr;
    int named_by = -1;
    bool conflict = false;
    for (int c : step.components) {
      const BlockSolverFactory* f = m.components_[c]->block_solver();
      if (!f) continue;
      if (factory && f != factory) {
        a.fault(InputError(locations_[c], "is in one algebraic loop with '" + m.components_[named_by]->name() +
                                              "', but their libraries solve loops differently ('" + f->name() +
                                              "' and '" + factory->name() + "')"));
        conflict = true;
        break;
      }
      factory = f;
      named_by = c;
    }
    if (conflict) continue;
    if (!factory) {  // no library claims the block
      m.block_solvers_[k] = std::make_unique<NewtonBlockSolver>(step, static_cast<int>(k));
      continue;
    }
    try {
      m.block_solvers_[k] = factory->create(m, step, static_cast<int>(k), monitor_count);
    } catch (const InputError& e) {
      a.fault_caught(e);
      continue;
    }
    for (const auto& mon : m.block_solvers_[k]->monitors()) {
      if (!m.recordable_index_.emplace(mon.name, static_cast<int>(m.recordable_.size())).second) {
        a.fault(InputError(locations_[named_by], "monitor '" + mon.name + "' clashes with a variable of that name"));
        continue;
      }
      m.recordable_.push_back({mon.name, mon.unit, RecordableVariable::Source::Monitor, monitor_count++});
      m.monitors_.push_back(mon);
    }
    a.block_monitors[k].second = monitor_count;
  }
}

namespace {

// The reads and writes of the step being planned, filed into the plan once it is whole.
class StepAccess {
 public:
  using V = PlanVariable::Vector;
  void read(V vector, int index) { reads_.push_back({vector, index}); }
  void write(V vector, int index) { writes_.push_back({vector, index}); }
  void read_range(V vector, int offset, size_t count) {
    for (size_t k = 0; k < count; ++k) read(vector, offset + static_cast<int>(k));
  }
  void read_range(V vector, int offset, int count) { read_range(vector, offset, static_cast<size_t>(count)); }
  void write_range(V vector, int offset, size_t count) {
    for (size_t k = 0; k < count; ++k) write(vector, offset + static_cast<int>(k));
  }
  // What any hook of component c may read besides its inputs: time, its states,
  // discrete states, parameters, derived values and unknowns.
  void read_own(const Component& c, const ComponentLayout& L) {
    read(V::Time, 0);
    read_range(V::State, L.state_offset, c.states().size());
    read_range(V::Discrete, L.discrete_offset, c.discrete_states().size());
    read_range(V::Parameter, L.parameter_offset, static_cast<size_t>(c.numeric_parameter_count()));
    read_range(V::Derived, L.derived_offset, c.derived_values().size());
    read_range(V::Unknown, L.unknown_offset, c.unknowns().size());
  }
  // The outputs summed into port p's inputs (Eval::in): every variable of each source
  // port, whose first slot the port table holds.
  void read_inputs(const Component& c, const ComponentLayout& L, int p) {
    const PortSpec& port = c.ports()[p];
    const int n = port.domain->input_count(port.side);
    for (int k = L.input_begin[p]; k < L.input_begin[p + 1]; ++k) read_range(V::Output, L.input_sources[k], n);
  }
  void read_all_inputs(const Component& c, const ComponentLayout& L) {
    for (size_t p = 0; p < c.ports().size(); ++p) read_inputs(c, L, static_cast<int>(p));
  }
  // Port p's outputs, but those that are copies of states (the copy step writes them).
  template <class Put>
  static void port_outputs(const Component& c, const ComponentLayout& L, int p, const std::vector<bool>& copied, Put put) {
    const PortSpec& port = c.ports()[p];
    for (int k = 0; k < port.domain->output_count(port.side); ++k)
      if (const int slot = L.port_output_offset[p] + k; !copied[slot]) put(slot);
  }
  // Files the lists into `plan` as `step`'s, sorted and without repeats; a block's reads
  // lose what it writes itself (its loop: solved inside, from the values of the last
  // evaluation as a start).
  void file(EvaluationPlan& plan, EvaluationStep& step, bool reads_exclude_writes) {
    auto tidy = [](std::vector<PlanVariable>& v) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    tidy(reads_);
    tidy(writes_);
    if (reads_exclude_writes) {
      std::vector<PlanVariable> outside;
      std::set_difference(reads_.begin(), reads_.end(), writes_.begin(), writes_.end(), std::back_inserter(outside));
      reads_.swap(outside);
    }
    auto& all = plan.accesses;
    step.reads_begin = static_cast<int>(all.size());
    all.insert(all.end(), reads_.begin(), reads_.end());
    step.writes_begin = static_cast<int>(all.size());
    all.insert(all.end(), writes_.begin(), writes_.end());
    step.writes_end = static_cast<int>(all.size());
    reads_.clear();
    writes_.clear();
  }

 private:
  std::vector<PlanVariable> reads_, writes_;
};

}  // namespace

// The evaluation plan (evaluation_plan.hpp) the interpreter runs, made once here so that
// an evaluation only walks it. Outputs: the state copies, then the schedule's steps,
// consecutive components of one type and one level joined into one run (one call of the
// type's hooks; a level's steps read nothing of each other), each implicit block one
// step with its solver. Derivatives: every component once, grouped by type, since they
// read only what the outputs have set. Each step notes what it reads and writes.
void ModelBuilder::plan_evaluation(Assembly& a) const {
  using V = PlanVariable::Vector;
  using Kind = EvaluationStep::Kind;
  Model& m = a.model;
  const auto& components = m.components_;
  EvaluationPlan& plan = m.plan_;
  std::vector<bool> copied(static_cast<size_t>(m.ctx_sizes_.outputs), false);
  for (const auto& o : plan.state_copies) copied[o.y] = true;
  StepAccess access;
  auto place = [&](EvaluationStage& stage, int c) {
    stage.instances.push_back({components[c].get(), m.layouts_[c]});
    stage.instance_component.push_back(c);
  };
  auto next_instance = [](const EvaluationStage& stage) { return static_cast<int>(stage.instances.size()); };

  EvaluationStage& outputs = plan.outputs;
  if (!plan.state_copies.empty()) {
    EvaluationStep copy{Kind::CopyStateOutputs};
    for (const auto& o : plan.state_copies) {
      access.read(V::State, o.x);
      access.write(V::Output, o.y);
    }
    access.file(plan, copy, false);
    outputs.steps.push_back(copy);
  }
  int run_level = -1;  // the level of the open run of components
  bool run_open = false;
  auto close_run = [&] {
    if (run_open) access.file(plan, outputs.steps.back(), false);
    run_open = false;
  };
  for (size_t k = 0; k < m.schedule_.steps.size(); ++k) {
    const ScheduledStep& step = m.schedule_.steps[k];
    if (step.implicit) {
      close_run();
      EvaluationStep block{Kind::Block, Eval::Phase::Outputs, next_instance(outputs), 0, nullptr,
                           m.block_solvers_[k].get(), static_cast<int>(k)};
      for (int c : step.components) {
        place(outputs, c);
        const Component& comp = *components[c];
        const ComponentLayout& L = m.layouts_[c];
        access.read_own(comp, L);
        access.read_all_inputs(comp, L);
        for (size_t p = 0; p < comp.ports().size(); ++p)
          StepAccess::port_outputs(comp, L, static_cast<int>(p), copied, [&](int slot) { access.write(V::Output, slot); });
        access.write_range(V::Unknown, L.unknown_offset, comp.unknowns().size());
        access.write_range(V::Residual, L.unknown_offset, comp.unknowns().size());
        access.write_range(V::Observable, L.observable_offset, comp.observables().size());
      }
      const auto [first_monitor, last_monitor] = a.block_monitors[k];
      for (int mon = first_monitor; mon < last_monitor; ++mon) access.write(V::Monitor, mon);
      block.last = next_instance(outputs);
      access.file(plan, block, true);
      outputs.steps.push_back(block);
      continue;
    }
    const int c = step.components[0];
    const Component& comp = *components[c];
    const ComponentLayout& L = m.layouts_[c];
    const TypeEvaluation* type = comp.type_evaluation();
    const bool joins = run_open && type && outputs.steps.back().type == type && step.level >= 0 && step.level == run_level;
    if (!joins) {
      close_run();
      outputs.steps.push_back({Kind::Components, Eval::Phase::Outputs, next_instance(outputs), 0, type});
      run_open = true;
      run_level = step.level;
    }
    place(outputs, c);
    outputs.steps.back().last = next_instance(outputs);
    access.read_own(comp, L);
    for (int p : step.output_ports) {
      for_each_port_read_by(comp, p, [&](int q) { access.read_inputs(comp, L, q); });
      if (p >= 0) StepAccess::port_outputs(comp, L, p, copied, [&](int slot) { access.write(V::Output, slot); });
    }
    access.write_range(V::Observable, L.observable_offset, comp.observables().size());
  }
  close_run();

  EvaluationStage& derivatives = plan.derivatives;
  const int nc = static_cast<int>(components.size());
  std::vector<int> by_kind(nc);
  for (int i = 0; i < nc; ++i) by_kind[i] = i;
  std::stable_sort(by_kind.begin(), by_kind.end(),
                   [&](int x, int y) { return a.component_kind[x] < a.component_kind[y]; });
  for (int c : by_kind) {
    const Component& comp = *components[c];
    const ComponentLayout& L = m.layouts_[c];
    const TypeEvaluation* type = comp.type_evaluation();
    if (!(type && !derivatives.steps.empty() && derivatives.steps.back().type == type)) {
      if (!derivatives.steps.empty()) access.file(plan, derivatives.steps.back(), false);
      derivatives.steps.push_back({Kind::Components, Eval::Phase::Derivatives, next_instance(derivatives), 0, type});
    }
    place(derivatives, c);
    derivatives.steps.back().last = next_instance(derivatives);
    access.read_own(comp, L);
    access.read_all_inputs(comp, L);
    for (size_t p = 0; p < comp.ports().size(); ++p)  // its own outputs (Eval::out), copies of states too
      for (int k = 0; k < comp.ports()[p].domain->output_count(comp.ports()[p].side); ++k)
        access.read(V::Output, L.port_output_offset[p] + k);
    access.write_range(V::Derivative, L.state_offset, comp.states().size());
    access.write_range(V::Observable, L.observable_offset, comp.observables().size());
  }
  if (!derivatives.steps.empty()) access.file(plan, derivatives.steps.back(), false);
}

// The values a new Context starts from, gathered once: make_context copies them rather
// than walking every component's declarations again (at 20 000 components that walk
// cost more than the whole evaluation of a short run, bench_framework_overhead). Last,
// the derived stage on the netlist's parameters: its values are every Context's
// defaults, and a relation between parameters that fails there is the netlist's
// mistake, located at the component's params as configure()'s are (one per component).
void ModelBuilder::gather_start_values(Assembly& a) const {
  Model& m = a.model;
  const auto& z = m.ctx_sizes_;
  const int nc = static_cast<int>(m.components_.size());
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
  Context defaults;
  defaults.parameters = start.parameters;
  defaults.derived = Eigen::VectorXd::Zero(z.derived);
  for (int i = 0; i < nc; ++i) {
    try {
      m.derive(i, defaults);
    } catch (const InputError& e) {
      const InputLocation& w = m.locations_[i];
      a.fault(e.located(InputLocation{w.file, w.json_path.empty() ? "" : w.json_path + "/params", w.component, ""}));
    }
  }
  start.derived = std::move(defaults.derived);
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
  return InputError({}, "no variable '" + name + "'" + did_you_mean(name, all) +
                            (of_comp.empty() ? "" : "; '" + comp + "' offers: " + comma_list(of_comp)));
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

std::string Model::variable_name(const PlanVariable& v) const {
  using V = PlanVariable::Vector;
  // The component whose range of a Context vector holds v.index, and v's place in it.
  auto owned = [&](auto offset_of, auto count_of) -> std::pair<const Component*, size_t> {
    for (size_t i = 0; i < components_.size(); ++i) {
      const int offset = offset_of(layouts_[i]);
      const size_t count = count_of(*components_[i]);
      if (v.index >= offset && static_cast<size_t>(v.index - offset) < count)
        return {components_[i].get(), static_cast<size_t>(v.index - offset)};
    }
    throw std::out_of_range("no variable " + std::to_string(v.index) + " of that kind in the model");
  };
  auto state_name = [&] {
    const auto [c, k] = owned([](const ComponentLayout& L) { return L.state_offset; },
                              [](const Component& c) { return c.states().size(); });
    return c->name() + "." + c->states()[k].name;
  };
  auto unknown_name = [&] {
    const auto [c, k] = owned([](const ComponentLayout& L) { return L.unknown_offset; },
                              [](const Component& c) { return c.unknowns().size(); });
    return c->name() + "." + c->unknowns()[k].name;
  };
  switch (v.vector) {
    case V::Time: return "time";
    case V::State: return state_name();
    case V::Derivative: return "der(" + state_name() + ")";
    case V::Output: return output_names_.at(static_cast<size_t>(v.index));
    case V::Unknown: return unknown_name();
    case V::Residual: return "residual(" + unknown_name() + ")";
    case V::Observable: {
      const auto [c, k] = owned([](const ComponentLayout& L) { return L.observable_offset; },
                                [](const Component& c) { return c.observables().size(); });
      return c->name() + "." + c->observables()[k].name;
    }
    case V::Discrete: {
      const auto [c, k] = owned([](const ComponentLayout& L) { return L.discrete_offset; },
                                [](const Component& c) { return c.discrete_states().size(); });
      return c->name() + "." + c->discrete_states()[k].name;
    }
    case V::Parameter:
      for (const auto& p : parameters_)
        if (p.index == v.index) return p.name;
      throw std::out_of_range("no parameter " + std::to_string(v.index) + " in the model");
    case V::Derived: {
      const auto [c, k] = owned([](const ComponentLayout& L) { return L.derived_offset; },
                                [](const Component& c) { return c.derived_values().size(); });
      return c->name() + "." + c->derived_values()[k].name;
    }
    case V::Monitor: return monitors_.at(static_cast<size_t>(v.index)).name;
  }
  return "";
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
  throw InputError(where, "no numeric parameter '" + name + "'" + did_you_mean(name, all));
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
    throw InputError(InputLocation{world_.file, "", "", ""}, "no derived value '" + name + "'" + did_you_mean(name, all));
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
  throw InputError(where, "no continuous state '" + name + "'" + did_you_mean(name, state_names()));
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

void Model::run_components(const EvaluationStage& stage, const EvaluationStep& step, Context& ctx) const {
  const PlacedComponent* first = stage.instances.data() + step.first;
  const bool outputs = step.phase == Eval::Phase::Outputs;
  if (step.type) {
    (outputs ? step.type->outputs : step.type->derivatives)(first, stage.instances.data() + step.last, ctx, world_);
    return;
  }
  Eval e(*first->component, first->layout, ctx, world_, step.phase);
  if (outputs) first->component->calc_outputs(e);
  else first->component->calc_derivatives(e);
}

void Model::evaluate_outputs(Context& ctx, BlockPrelude prelude) const {
  // Every evaluation starts here: the derived values of parameters set since the last.
  if (ctx.derived_outdated) [[unlikely]]
    update_derived(ctx);
  for (const EvaluationStep& step : plan_.outputs.steps) {
    switch (step.kind) {
      case EvaluationStep::Kind::CopyStateOutputs: {
        double* y = ctx.y.data();
        const double* x = ctx.x.data();
        for (const EvaluationPlan::StateCopy& o : plan_.state_copies) y[o.y] = x[o.x];
        break;
      }
      case EvaluationStep::Kind::Components: run_components(plan_.outputs, step, ctx); break;
      case EvaluationStep::Kind::Block: {
        const BlockSolver& solver = *step.solver;
        if (prelude == BlockPrelude::Initialize) solver.initialize(*this, ctx);
        if (prelude == BlockPrelude::Analyze && solver.supports(ctx.analysis)) solver.analyze(*this, ctx);
        solver.solve(*this, ctx);
        break;
      }
    }
  }
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
  HookPlan& hooks = ctx.hooks;
  const EvaluationStage& stage = plan_.derivatives;
  if (hooks.known) {
    for (int r : hooks.derivative_hooks) run_components(stage, stage.steps[r], ctx);
  } else {  // the first pass calls every hook and notes which do something (a run's
            // components are of one type: all or none of them are idle)
    hooks.derivative_hooks.clear();
    for (size_t r = 0; r < stage.steps.size(); ++r) {
      hooks.idle_seen = false;
      run_components(stage, stage.steps[r], ctx);
      if (!hooks.idle_seen) hooks.derivative_hooks.push_back(static_cast<int>(r));
    }
    hooks.known = true;
  }
}

void Model::derivatives(Context& ctx, double t, const Eigen::VectorXd& x) const {
  ctx.t = t;
  ctx.x = x;
  // Observables are wanted everywhere but here: off for this evaluation only, also when
  // it throws.
  const ObservablesOff stage(ctx);
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

void Model::evaluate_outputs(Context& ctx, double t, const Eigen::VectorXd& x) const {
  ctx.t = t;
  ctx.x = x;
  const ObservablesOff outputs_only(ctx);
  evaluate_outputs(ctx);
  if (!sum_is_finite(ctx.x) || !sum_is_finite(ctx.y)) check_finite(ctx);
}

void Model::zero_crossing_values(Context& ctx, double t, const Eigen::VectorXd& x) const {
  evaluate_outputs(ctx, t, x);
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

bool Model::block_solvers_observe() const {
  return std::any_of(block_solvers_.begin(), block_solvers_.end(), [](const auto& s) { return s && s->observes(); });
}

bool Model::projects() const {
  return std::any_of(block_solvers_.begin(), block_solvers_.end(), [](const auto& s) { return s && s->projects(); });
}

bool Model::project(Context& ctx, bool outputs_only) const {
  bool changed = false;
  for (const auto& s : block_solvers_)
    if (s && s->projects()) changed = s->project(*this, ctx) || changed;
  if (changed && outputs_only) evaluate_outputs(ctx, ctx.t, Eigen::VectorXd(ctx.x));
  else if (changed) evaluate(ctx);
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
