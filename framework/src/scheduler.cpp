// Evaluation order from the port dependency graph (scheduler.hpp).
#include "jourdain/scheduler.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>

#include "jourdain/component.hpp"

namespace jourdain {

int Schedule::loop_count() const {
  return static_cast<int>(std::count_if(steps.begin(), steps.end(), [](const auto& s) { return s.implicit; }));
}

std::string Schedule::describe(const std::vector<const Component*>& components) const {
  std::ostringstream out;
  int n = 1;
  for (const auto& step : steps) {
    out << "  " << n++ << ". ";
    if (!step.implicit) {
      out << components[step.components[0]]->name();
      if (!step.ports.empty()) out << "  (" << step.ports[0] << ")";
      out << "\n";
      continue;
    }
    out << "implicit block of " << step.components.size() << " component(s), " << step.tear_outputs.size()
        << " loop variable(s), " << step.unknowns.size() << " algebraic unknown(s): ";
    for (size_t i = 0; i < step.components.size(); ++i)
      out << (i ? ", " : "") << components[step.components[i]]->name();
    out << "\n     ports in the loop: ";
    for (size_t i = 0; i < step.ports.size(); ++i) out << (i ? ", " : "") << step.ports[i];
    out << "\n";
  }
  return out.str();
}

Schedule make_schedule(const DependencyGraph& graph) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  const int n = static_cast<int>(graph.vertices.size());
  Graph g(n);
  std::vector<bool> self_loop(n, false);
  for (auto [from, to] : graph.edges) {
    if (from == to) self_loop[from] = true;
    boost::add_edge(from, to, g);
  }

  // Strongly connected components: each is one step, implicit when it is a cycle.
  std::vector<int> scc(n);
  const int scc_count = n == 0 ? 0 : boost::strong_components(g, boost::make_iterator_property_map(scc.begin(), boost::get(boost::vertex_index, g)));

  // The condensed graph is acyclic; its topological order is the evaluation order.
  Graph condensed(scc_count);
  std::set<std::pair<int, int>> seen;
  for (auto [from, to] : graph.edges) {
    int a = scc[from], b = scc[to];
    if (a != b && seen.insert({a, b}).second) boost::add_edge(a, b, condensed);
  }
  std::vector<int> reverse_order;
  boost::topological_sort(condensed, std::back_inserter(reverse_order));

  std::vector<std::vector<int>> members(scc_count);
  for (int v = 0; v < n; ++v) members[scc[v]].push_back(v);
  std::set<int> with_unknowns(graph.components_with_unknowns.begin(), graph.components_with_unknowns.end());

  // Levels: a step comes one level after the highest of the steps it waits for, so any
  // order by level respects the dependencies. Within a level, steps of one kind go
  // together (ordered by component: ports of one component that share a level become
  // one step); steps of no kind and loops come first.
  std::vector<int> level(scc_count, 0);
  for (auto it = reverse_order.rbegin(); it != reverse_order.rend(); ++it)
    for (auto [e, end] = boost::out_edges(*it, condensed); e != end; ++e) {
      const int next = static_cast<int>(boost::target(*e, condensed));
      level[next] = std::max(level[next], level[*it] + 1);
    }
  auto kind_of = [&](int c) {
    return graph.component_kind.empty() || with_unknowns.count(c) ? -1 : graph.component_kind[c];
  };
  struct Key {
    int level, kind, component, scc;
    auto operator<=>(const Key&) const = default;
  };
  std::vector<Key> order;
  for (int k = 0; k < scc_count; ++k) {
    const int first = members[k][0];
    const bool loop = members[k].size() > 1 || self_loop[first];
    const int component = graph.vertices[first].component;
    order.push_back({level[k], loop ? -1 : kind_of(component), component, k});
  }
  std::sort(order.begin(), order.end());

  Schedule schedule;
  for (const Key& key : order) {
    const auto& vs = members[key.scc];
    ScheduledStep step;
    std::set<int> comps_seen;
    for (int v : vs) {
      int c = graph.vertices[v].component;
      if (comps_seen.insert(c).second) step.components.push_back(c);
      step.ports.push_back(graph.vertices[v].label);
      step.output_ports.push_back(graph.vertices[v].port);
    }
    step.level = key.level;
    bool has_unknowns = std::any_of(step.components.begin(), step.components.end(),
                                    [&](int c) { return with_unknowns.count(c) > 0; });
    step.implicit = vs.size() > 1 || self_loop[vs[0]] || has_unknowns;
    if (!step.implicit) {
      // Consecutive steps of one component need one call only.
      if (!schedule.steps.empty() && !schedule.steps.back().implicit &&
          schedule.steps.back().components[0] == step.components[0]) {
        ScheduledStep& joined = schedule.steps.back();
        joined.ports.push_back(step.ports[0]);
        joined.output_ports.push_back(step.output_ports[0]);
        if (joined.level != step.level) joined.level = -1;
        continue;
      }
      schedule.steps.push_back(std::move(step));
      continue;
    }
    // Loop variables: outputs of block vertices that a block vertex reads.
    std::set<int> in_block(vs.begin(), vs.end());
    std::set<int> feeding;
    for (auto [from, to] : graph.edges)
      if (in_block.count(from) && in_block.count(to)) feeding.insert(from);
    for (int v : feeding)
      for (int slot : graph.vertices[v].y_slots) step.tear_outputs.push_back(slot);
    for (size_t k = 0; k < graph.components_with_unknowns.size(); ++k)
      if (comps_seen.count(graph.components_with_unknowns[k]))
        for (int u : graph.unknown_slots[k]) step.unknowns.push_back(u);
    schedule.steps.push_back(std::move(step));
  }
  return schedule;
}

}  // namespace jourdain
