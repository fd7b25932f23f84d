// The values of Context::y one component's hooks touch, port by port, as indices into
// it: the outputs summed into each port's inputs (Eval::in reads every variable of each
// source port, whose first slot the port table holds) and the port's own outputs. Shared
// by the evaluations that call a part of a model only (ComponentJacobian,
// ZeroCrossingEvaluation), which follow these to find what feeds what.
#pragma once

#include <vector>

#include "jourdain/model.hpp"

namespace jourdain {

struct ComponentSlots {
  std::vector<std::vector<int>> port_inputs;   // per port: the Context::y indices it reads
  std::vector<std::vector<int>> port_outputs;  // per port: its own Context::y indices

  std::vector<int> inputs() const { return flat(port_inputs); }
  std::vector<int> outputs() const { return flat(port_outputs); }

 private:
  static std::vector<int> flat(const std::vector<std::vector<int>>& per_port) {
    std::vector<int> all;
    for (const auto& p : per_port) all.insert(all.end(), p.begin(), p.end());
    return all;
  }
};

// Calls read(q) for each port q whose inputs output port p's values depend on (what the
// component declared: set_dependencies), as the schedule and the plan take them; p < 0
// (a component without outputs, called for what it reads) and an undeclared port read
// every port.
template <class Read>
void for_each_port_read_by(const Component& comp, int p, Read read) {
  if (p < 0 || comp.ports()[p].depends_on_all_inputs) {
    for (int q = 0; q < static_cast<int>(comp.ports().size()); ++q) read(q);
  } else {
    for (PortId d : comp.ports()[p].depends_on) read(d.index);
  }
}

inline ComponentSlots component_slots(const Model& model, int c) {
  const Component& comp = *model.components()[c];
  const ComponentLayout& L = model.layout(c);
  const auto& ports = comp.ports();
  ComponentSlots s;
  s.port_inputs.resize(ports.size());
  s.port_outputs.resize(ports.size());
  for (size_t p = 0; p < ports.size(); ++p) {
    const int inputs = ports[p].domain->input_count(ports[p].side);
    for (int k = L.input_begin[p]; k < L.input_begin[p + 1]; ++k)
      for (int v = 0; v < inputs; ++v) s.port_inputs[p].push_back(L.input_sources[k] + v);
    if (L.port_output_offset[p] < 0) continue;
    const int count = ports[p].domain->output_count(ports[p].side);
    for (int k = 0; k < count; ++k) s.port_outputs[p].push_back(L.port_output_offset[p] + k);
  }
  return s;
}

}  // namespace jourdain
