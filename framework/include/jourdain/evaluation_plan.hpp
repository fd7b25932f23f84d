// EvaluationPlan: what one evaluation of a Model does, step by step, in order.
//
// The builder makes it once (ModelBuilder::build), and the Model's interpreter runs it:
// Model::evaluate_outputs walks `outputs`, Model::evaluate_derivatives walks
// `derivatives` (skipping, per Context, the runs whose hook does nothing: HookPlan). It
// is public so that other consumers can walk the same steps: a code emitter writing the
// evaluation out, a batch evaluator running one step over many Contexts, a tool drawing
// the data flow. Each step says what it calls, on which components, in which phase, and
// which values of the Context it reads and writes (PlanVariable; Model::variable_name
// gives their names).
//
// What the order guarantees: a step comes after every step that writes what it reads,
// and the instances of one run do not read each other's outputs (they sit at one level
// of the schedule), so a run may be evaluated in any order or at once. The derived
// values are up to date before the first step (Model::update_derived runs first when a
// Context's parameters changed). Reads and writes are what the components declared
// (their ports' dependencies, their states, parameters, unknowns): what a hook may read,
// a superset of what a given call reads.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "jourdain/component.hpp"

namespace jourdain {

class BlockSolver;

// One value of a Context: which of its vectors, and the index in it.
struct PlanVariable {
  enum class Vector : std::uint8_t {
    Time,        // Context::t (index 0)
    State,       // Context::x
    Derivative,  // Context::xdot
    Output,      // Context::y, port outputs
    Unknown,     // Context::unknowns
    Residual,    // Context::residuals
    Observable,  // Context::observables
    Discrete,    // Context::discrete
    Parameter,   // Context::parameters
    Derived,     // Context::derived
    Monitor,     // Context::monitors
  };
  Vector vector = Vector::Time;
  int index = 0;
  friend auto operator<=>(const PlanVariable&, const PlanVariable&) = default;
};

struct EvaluationStep {
  enum class Kind : std::uint8_t {
    // Context::y = Context::x for the outputs that are states (declare_state_output),
    // every one of EvaluationPlan::state_copies: before anything reads them.
    CopyStateOutputs,
    // A run of instances of the stage, [first, last): `type`'s hook over all of them
    // (TypeEvaluation: one call, no virtual call per instance), or with `type` null one
    // component through its virtual hook (calc_outputs or calc_derivatives, by phase).
    Components,
    // An implicit block (an algebraic loop, or components with algebraic unknowns): its
    // members are instances [first, last); `solver` computes all their outputs, unknowns
    // and residuals at once (a library's structured solver or the general Newton one).
    Block,
  };
  Kind kind = Kind::Components;
  Eval::Phase phase = Eval::Phase::Outputs;  // Outputs or Derivatives
  int first = 0, last = 0;                   // instances of the stage
  const TypeEvaluation* type = nullptr;      // Components: the type's hooks, or null
  const BlockSolver* solver = nullptr;       // Block
  int block = -1;                            // Block: its step in Model::schedule().steps
  // Into EvaluationPlan::accesses: reads [reads_begin, writes_begin), writes
  // [writes_begin, writes_end), each sorted, without repeats.
  int reads_begin = 0, writes_begin = 0, writes_end = 0;
};

// The steps of one phase, and the components they run on (their layouts next to them,
// in the order the runs call them).
struct EvaluationStage {
  std::vector<EvaluationStep> steps;
  std::vector<PlacedComponent> instances;
  std::vector<int> instance_component;  // per instance: its index in Model::components()
};

struct EvaluationPlan {
  // The outputs of every port, in an order that respects their dependencies: the state
  // copies, then runs and blocks. Model::evaluate_outputs.
  EvaluationStage outputs;
  // Every component's derivatives (and observables), once every output is known: any
  // order would do; one run per type. Model::evaluate_derivatives.
  EvaluationStage derivatives;
  struct StateCopy {
    int y, x;
  };
  std::vector<StateCopy> state_copies;  // in the order of y
  std::vector<PlanVariable> accesses;   // every step's reads and writes

  std::span<const PlanVariable> reads(const EvaluationStep& s) const {
    return {accesses.data() + s.reads_begin, accesses.data() + s.writes_begin};
  }
  std::span<const PlanVariable> writes(const EvaluationStep& s) const {
    return {accesses.data() + s.writes_begin, accesses.data() + s.writes_end};
  }
  // The components a step runs on (Model::components() indices; none for the copies).
  static std::span<const int> components(const EvaluationStage& stage, const EvaluationStep& s) {
    return {stage.instance_component.data() + s.first, stage.instance_component.data() + s.last};
  }
};

}  // namespace jourdain
