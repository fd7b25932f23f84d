// Port types: a port is a bundle of scalar variables with fixed causality.
//
// A connection always joins a "state" side to a "response" side (framework/README.md,
// "Ports and causality"): the state side outputs its across variables (position, pressure,
// a signal's value), the response side outputs what it returns (force, flow rate).
// A state-side port may serve several response-side ports at once; the variables they
// return are then summed, as forces on a body or flows into a volume are. A
// response-side port is driven by exactly one state-side port.
//
// The framework knows a domain only as this data. Each component library defines its
// own (the standard ones live with their libraries, declared in
// components/include/jourdain/components/domains.hpp) and a plugin may define more.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace jourdain {

enum class PortSide { State, Response };

// Which way a variable travels across a connection.
enum class Flow { StateToResponse, ResponseToState };

struct VariableSpec {
  std::string name;
  std::string unit;
  Flow flow;
  std::string description;
};

// One term of the power a connection carries (energy accounting, framework/README.md,
// "Energy"): the product of a variable the state side outputs and one the response side
// returns, each given by its index within its flow group. A state index of -1 stands for
// the factor 1: the returned variable is a power itself (a heat flow).
struct PowerProduct {
  int state_output;
  int response_output;
};

struct Domain {
  Domain(std::string name_, std::string description_, std::vector<VariableSpec> variables_)
      : name(std::move(name_)), description(std::move(description_)), variables(std::move(variables_)) {}

  std::string name;
  std::string description;
  // Variables in order; within each Flow group their order defines Var::index.
  std::vector<VariableSpec> variables;
  // How messages name a port of each side ("state-side hydraulic port"; a signal
  // library says "output" and "input"). Empty: "<side>-side <domain> port".
  std::string state_port_term;
  std::string response_port_term;
  // What to do when two ports of one side were joined (appended to that error).
  std::string connection_hint = "a connection joins a state side (e.g. a mass, a volume) to a response side "
                                "(e.g. a spring, an orifice)";
  // A port that outputs a single variable is recorded as "comp.port" rather than
  // "comp.port.variable" (signals), and is recorded by default.
  bool recorded_by_port_name = false;
  // Energy accounting: the power that a connection carries from its response side into
  // its state side is the sum of these products (force × velocity, pressure × flow,
  // voltage × current). Empty: the domain carries no power (signals).
  std::vector<PowerProduct> power;
  // The power of this domain is heat: a component's loss (EnergyRole::Loss) that leaves
  // through its ports of this domain stays in the model, the rest is lost to the
  // surroundings.
  bool carries_heat = false;

  // Number of variables that a port on `side` outputs / receives.
  int output_count(PortSide side) const;
  int input_count(PortSide side) const;
  // The variables a port on `side` outputs / receives, in index order.
  std::vector<const VariableSpec*> outputs(PortSide side) const;
  std::vector<const VariableSpec*> inputs(PortSide side) const;
  // "input", "response-side hydraulic port", ...
  std::string port_term(PortSide side) const;
};

// The flow that a port on `side` outputs.
constexpr Flow output_flow(PortSide side) {
  return side == PortSide::State ? Flow::StateToResponse : Flow::ResponseToState;
}

// A handle on one variable of a domain: its flow group and its index in that group.
// Components use the constants of domains.hpp, e.g. mech1d::force.
struct Var {
  Flow flow;
  int index;
};

const char* to_string(PortSide side);

}  // namespace jourdain
