// ComponentJacobian: J = ∂ẋ/∂x of a Model assembled from its components' local
// derivatives, by the chain rule along the evaluation plan, instead of differencing the
// whole model once per state (or per group of states).
//
// An evaluation computes every output y from the states and the outputs before it, then
// every derivative ẋ from the states, outputs and unknowns (evaluation_plan.hpp). Walking
// the same steps, the row of each value with respect to x follows from the rows of what
// its step reads (framework/README.md, "Jacobians"):
//
//   dy/dx = ∂y/∂x + Σ_r ∂y/∂r · dr/dx,     J = dẋ/dx = ∂ẋ/∂x + Σ_r ∂ẋ/∂r · dr/dx,
//
// r running over the outputs and unknowns the step reads. A step's own partials ∂w/∂r
// are difference quotients of that step alone: its component's hook (calc_outputs or
// calc_derivatives), or its block's solver for an implicit block, called again with one
// read value moved. So a Jacobian costs about one call of each hook per value it reads,
// where the whole-model quotient costs one evaluation of every component per state. Reads
// whose row is empty (a time signal, a parameter) are not moved at all.
//
// Increments: state j moves by the solver's increment δ_j (as its own difference
// quotients would); an output or unknown r by what it moves when the states move by
// theirs, Σ_j |dr/dx_j| δ_j, at least √ε |r| — the same relative disturbance, so that the
// truncation and rounding errors of the assembled Jacobian are those of the whole-model
// one.
//
// The hooks are evaluated at the Context's point, which must be fully evaluated there
// (Model::evaluate or Model::derivatives just ran): the assembly leaves every value of it
// as it found it (outputs, unknowns and derivatives restored), the observables aside.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "jourdain/context.hpp"

namespace jourdain {

class Model;

class ComponentJacobian {
 public:
  explicit ComponentJacobian(const Model& model);

  // J at ctx (see the file comment); `increments` has one positive entry per state.
  // Throws NonFiniteError naming the component whose quotient is not finite, and what a
  // block solver throws when its block cannot be solved at a moved point.
  void assemble(Context& ctx, const Eigen::VectorXd& increments);

  // Row i of the last J: (column, value) pairs, columns ascending, no zero values.
  std::span<const std::pair<int, double>> row(int i) const { return rows_[derivative_slot(i)]; }
  Eigen::MatrixXd dense() const;  // the last J, whole (tests, small models)
  int state_count() const { return n_; }
  // Hook calls and block solves made so far, over all assemblies: the work one
  // assembly costs, next to a whole-model evaluation's.
  long calls() const { return calls_; }

 private:
  // A value of the Context that a row is kept for. Slots: outputs [0, ny), unknowns
  // [ny, ny + nu), derivatives [ny + nu, ny + nu + n).
  int derivative_slot(int i) const { return ny_ + nu_ + i; }

  // One unit of the chain: a component's hook or a block's solver, with what it reads
  // (states by index, rows by slot) and what it writes (slots).
  struct Unit {
    enum class Kind { Outputs, Block, Derivatives } kind = Kind::Outputs;
    int component = -1;  // Outputs, Derivatives
    int step = -1;       // Block: into the plan's outputs stage
    std::vector<int> state_reads, slot_reads, writes;
  };
  void add_component_unit(Unit::Kind kind, int component);
  double& value(Context& ctx, int slot) const;
  void call(const Unit& u, Context& ctx) const;
  void differentiate(const Unit& u, Context& ctx, const Eigen::VectorXd& increments);

  const Model& model_;
  int n_ = 0, ny_ = 0, nu_ = 0;
  std::vector<Unit> units_;                   // in plan order
  std::vector<std::pair<int, int>> copies_;   // (y slot, state): outputs that are states
  using Row = std::vector<std::pair<int, double>>;
  std::vector<Row> rows_;                     // per slot, of the current assembly
  // Scratch of differentiate(): the written values before, each write's terms.
  std::vector<double> base_;
  std::vector<Row> terms_;
  long calls_ = 0;
};

}  // namespace jourdain
