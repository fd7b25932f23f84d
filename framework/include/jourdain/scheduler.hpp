// Scheduler: orders the computation of port outputs.
//
// The graph (Boost.Graph) has one vertex per output port and an edge P -> Q when an
// output of port P reaches an input that port Q's outputs read directly (framework/README.md).
// Its strongly connected components are found (Tarjan); a vertex outside any cycle is
// an explicit step, a cycle is an algebraic loop and becomes an implicit block whose
// port outputs are solved together by its BlockSolver. Components that declare
// algebraic unknowns join an implicit block too (a block of their own if needed).
// The blocks are then put in topological order of the condensed graph: by level (the
// longest chain of steps a step waits for), and within a level by kind, so that the
// components of one type that do not wait for each other are evaluated in one run.
#pragma once

#include <string>
#include <vector>

namespace jourdain {

class Component;

struct ScheduledStep {
  // Components whose calc_outputs() runs at this step, in order (one for an explicit
  // step, all members of the loop for an implicit block).
  std::vector<int> components;
  bool implicit = false;
  // For an implicit block: the Context::y slots solved for (outputs read by block
  // members) and the Context::unknowns slots of its members.
  std::vector<int> tear_outputs;
  std::vector<int> unknowns;
  // Per entry of `components`: positions in tear_outputs of the slots it writes.
  std::vector<std::vector<int>> tear_positions_by_component;
  std::vector<std::string> ports;  // "comp.port" of the block, for `check` and messages
  // Per entry of `ports`: the port's index in its component (-1: a component without
  // outputs, which the step calls for what it reads).
  std::vector<int> output_ports;
  // The longest chain of steps this one waits for: steps of one level do not read each
  // other's outputs. -1: the step joins ports of one component found at several levels.
  int level = 0;
};

struct Schedule {
  std::vector<ScheduledStep> steps;
  int loop_count() const;
  std::string describe(const std::vector<const Component*>& components) const;
};

// Port-level dependency graph input, built by ModelBuilder.
struct DependencyGraph {
  struct OutputPort {
    int component;
    int port;
    std::string label;          // "comp.port"
    std::vector<int> y_slots;   // its output slots in Context::y
  };
  std::vector<OutputPort> vertices;
  std::vector<std::pair<int, int>> edges;  // (from vertex, to vertex)
  std::vector<int> components_with_unknowns;
  std::vector<std::vector<int>> unknown_slots;  // per entry of components_with_unknowns
  int component_count = 0;
  // Per component (empty: none has one): its kind, a number >= 0 shared by components
  // that are best evaluated one after another (instances of one type, called in one
  // loop: TypeEvaluation), or -1. Among the orders the dependencies allow, the schedule
  // puts steps of one kind next to each other.
  std::vector<int> component_kind;
};

Schedule make_schedule(const DependencyGraph& graph);

}  // namespace jourdain
