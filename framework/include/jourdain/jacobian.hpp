// ComponentJacobian: J = ∂ẋ/∂x of a Model by forward difference quotients, column by
// column, where each column evaluates only the components that its state reaches.
//
// Differencing the whole model costs one evaluation of every component per state: a
// 26-component press pays 24 evaluations per Jacobian. Yet moving one state changes few
// values: the outputs of the components that read it, those of the components that read
// those, and so on along the evaluation plan (evaluation_plan.hpp), then the derivatives
// of the components that read any of them. That set, the state's cone, is read from the
// plan once; a column moves x_j by δ_j, calls the hooks of its cone in plan order (a
// component's calc_outputs or calc_derivatives, an implicit block's solver) whose reads
// moved (a sequencer whose commands stay as they were stops the cone there), forms
//
//   J(:, j) = (1/δ_j) ẋ(x + δ_j e_j) − (1/δ_j) ẋ(x)
//
// for the derivatives the cone computed (the others did not move: their quotients are
// exactly 0), and puts every value back. The quotients are the whole model's: the same
// floating-point operations on the same values, formed as CVODE's dense quotient forms
// them (cvLsDenseDQJac). With the same increments the matrix is bit for bit the one
// differencing the whole model gives, for a model whose implicit blocks' solutions depend
// on the point alone (a mechanism's); a general Newton block restarts from the unmoved
// point's guess in every column, so there the two agree to the block's tolerance
// (framework/README.md, "Jacobians").
//
// The Context must be evaluated at its point (Model::evaluate or Model::derivatives just
// ran): the columns are taken against its derivatives, and every value of it is left as
// it was found (outputs, unknowns, derivatives), the observables aside.
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
  // Throws what a hook or a block solver throws at a moved point (a block that cannot be
  // solved there).
  void assemble(Context& ctx, const Eigen::VectorXd& increments);

  // Column j of the last J: (row, value) pairs, rows ascending; zeros left out.
  std::span<const std::pair<int, double>> column(int j) const { return columns_[j]; }
  Eigen::MatrixXd dense() const;  // the last J, whole (tests, small models)
  int state_count() const { return n_; }
  // The hook calls and block solves made so far, over all assemblies, and those of one
  // whole-model evaluation: their ratio is what the Jacobians cost in evaluations.
  long calls() const { return calls_; }
  long calls_per_evaluation() const { return static_cast<long>(units_.size()); }

 private:
  // One unit of an evaluation: a component's hook or a block's solver, with what it reads
  // (states by index, values by slot) and writes (slots). Slots: outputs [0, ny), unknowns
  // [ny, ny + nu), derivatives [ny + nu, ny + nu + n).
  struct Unit {
    enum class Kind { Outputs, Block, Derivatives } kind = Kind::Outputs;
    int component = -1;  // Outputs, Derivatives
    int step = -1;       // Block: into the plan's outputs stage
    std::vector<int> state_reads, slot_reads, writes;
  };
  void add_component_unit(Unit::Kind kind, int component, const std::vector<char>& is_copy);
  void find_cones();
  double& value(Context& ctx, int slot) const;
  void call(const Unit& u, Context& ctx) const;
  void clear_moved(int j);

  const Model& model_;
  int n_ = 0, ny_ = 0, nu_ = 0;
  std::vector<Unit> units_;                  // in plan order: outputs, blocks, then derivatives
  std::vector<std::vector<int>> copies_;     // per state: the output slots that copy it
  std::vector<std::vector<int>> cones_;      // per state: its units, in plan order
  std::vector<std::vector<std::pair<int, double>>> columns_;
  std::vector<double> saved_;                // scratch: a column's written values
  std::vector<char> moved_;                  // scratch, per slot: moved in this column
  long calls_ = 0;
};

}  // namespace jourdain
