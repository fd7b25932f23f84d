#include "jourdain/domain.hpp"

namespace jourdain {

int Domain::output_count(PortSide side) const { return static_cast<int>(outputs(side).size()); }
int Domain::input_count(PortSide side) const { return static_cast<int>(inputs(side).size()); }

std::vector<const VariableSpec*> Domain::outputs(PortSide side) const {
  std::vector<const VariableSpec*> out;
  for (const auto& v : variables)
    if (v.flow == output_flow(side)) out.push_back(&v);
  return out;
}

std::vector<const VariableSpec*> Domain::inputs(PortSide side) const {
  std::vector<const VariableSpec*> in;
  for (const auto& v : variables)
    if (v.flow != output_flow(side)) in.push_back(&v);
  return in;
}

const char* to_string(PortSide side) { return side == PortSide::State ? "state" : "response"; }

std::string Domain::port_term(PortSide side) const {
  const std::string& term = side == PortSide::State ? state_port_term : response_port_term;
  return term.empty() ? std::string(to_string(side)) + "-side " + name + " port" : term;
}

}  // namespace jourdain
