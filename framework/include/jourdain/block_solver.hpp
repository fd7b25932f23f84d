// BlockSolver: a structured solver for one implicit block of the schedule.
//
// The scheduler turns every algebraic loop into an implicit block, and the Model solves
// each block through the BlockSolver the builder attached to it. A component library
// whose components form blocks of a known structure (a mechanism's stabilized KKT
// system: sparse, and linear in its unknowns) offers a BlockSolverFactory through
// Component::block_solver(); when the members of a block name one (all the same), the
// block gets the solver it makes. Any other block gets the framework's general one,
// Newton's method with a dense finite-difference Jacobian (newton_block_solver.hpp):
// general, but O(n^3). The framework knows none of the physics: it only calls the hooks
// below.
//
// Besides solving its block at one (t, x), a block solver may
//   - make the states it governs consistent before a run (a mechanism's assembly),
//   - move them back onto their invariants after accepted steps (projection),
//   - carry out analyses other than time integration ("kinematic", "static"),
//   - offer monitors (constraint norms) that runs can record and whose largest
//     magnitude the summary reports,
//   - describe itself for `jourdain check` (degrees of freedom).
// A block solver is immutable, like the Model; per-run scratch data (factorizations)
// live in the Context (Context::block_workspaces).
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "jourdain/context.hpp"

namespace jourdain {

class Model;
struct ScheduledStep;

struct MonitorSpec {
  std::string name;  // "component.variable"-style, e.g. "mechanism.constraint_norm"
  std::string unit;
  // The largest magnitude the results are vouched for with (infinite: none): a run whose
  // recorded values exceed it ends with an accuracy warning naming `limit_setting` (the
  // setting it comes from, "world.constraints.tolerance").
  double limit = std::numeric_limits<double>::infinity();
  std::string limit_setting = {};
};

class BlockSolver {
 public:
  virtual ~BlockSolver() = default;

  // Computes every output, unknown and residual of the block's members at ctx.t, ctx.x
  // (the outputs the block reads from outside it are already computed).
  virtual void solve(const Model& model, Context& ctx) const = 0;

  // Before a run, once the outputs it reads from outside are known: may change the
  // states of its members (through Eval with Phase::Initialize).
  virtual void initialize(const Model& /*model*/, Context& /*ctx*/) const {}

  // True if project() does something (solvers then call it after accepted steps).
  virtual bool projects() const { return false; }
  // Moves ctx.x back onto the block's invariants at ctx.t (Eval with Phase::Project);
  // ctx is evaluated at (t, x) on entry. Returns true if ctx.x changed.
  virtual bool project(const Model& /*model*/, Context& /*ctx*/) const { return false; }
  // A point of the trajectory of a dynamic run (ctx evaluated there, after any
  // projection): after every accepted step and at every recorded point, in time order
  // (a rejected attempt may come before the retry that replaces it). A block may watch
  // its states here (a mechanism's singular configurations) and log events or warnings.
  virtual void observe(const Model& /*model*/, Context& /*ctx*/) const {}
  // Projects a small change `dx` of the whole state vector (an integrator's error
  // estimate) onto the tangent space of the block's invariants at ctx (evaluated there):
  // the part that project() would remove is taken out, so that the solver's error test
  // measures only the error that projection keeps. Default: dx unchanged.
  virtual void project_change(const Model& /*model*/, Context& /*ctx*/, Eigen::Ref<Eigen::VectorXd> /*dx*/) const {}

  // The invariants the block keeps its states on, h(t, x) = 0 (a mechanism: Φ(q, t) = 0
  // and Φ̇ = Φ_q q̇ + Φ_t = 0), as their Jacobian ∂h/∂x: one row per invariant, one
  // column per state of the whole model (Context::x order), at ctx.t, ctx.x. The linear
  // analysis moves along the null space of these rows (the tangent space of the
  // invariant manifold), so that it sees the model's independent coordinates only.
  // Returns 0 rows when the block keeps none. ctx is left as it was given.
  virtual Eigen::MatrixXd invariant_jacobian(const Model& /*model*/, Context& /*ctx*/) const { return {}; }
  // Pairs (a position state, its rate's state) among the states the invariants tie (a
  // body's x and vx): the linear analysis makes a coordinate and its rate dependent or
  // independent together, so that its independent states read as coordinates and their
  // rates whatever the velocities at the operating point.
  virtual std::vector<std::pair<int, int>> coordinate_pairs(const Model& /*model*/, Context& /*ctx*/) const { return {}; }
  // Brings ctx.x back onto the invariants whatever the run's projection settings (an
  // operating-point search takes steps along the tangent space and returns to the
  // manifold after each). Default: project().
  virtual bool restore_invariants(const Model& model, Context& ctx) const { return project(model, ctx); }

  // Analyses other than "dynamic" this block can carry out, and doing one: sets the
  // states of its members at ctx.t as the analysis defines them (ctx.analysis names it).
  virtual bool supports(Analysis /*analysis*/) const { return false; }
  virtual void analyze(const Model& /*model*/, Context& /*ctx*/) const {}

  // True if the solver watches a run's trajectory (observe(), monitors, projection): a
  // run then evaluates every point it records, for it to see (Model::block_solvers_observe).
  // Library solvers do; the general Newton solver watches nothing.
  virtual bool observes() const { return true; }

  // Monitors, written by solve() into ctx.monitors from the offset it was created with.
  virtual std::vector<MonitorSpec> monitors() const { return {}; }

  // A few lines for `jourdain check` (empty: nothing to say).
  virtual std::string describe(const Model& /*model*/, const Context& /*ctx*/) const { return ""; }
};

class BlockSolverFactory {
 public:
  virtual ~BlockSolverFactory() = default;
  virtual std::string name() const = 0;
  // Throws InputError (naming the component at fault) when the block's members are not
  // what it can solve. `monitor_offset` is where its monitors start in Context::monitors.
  virtual std::unique_ptr<BlockSolver> create(const Model& model, const ScheduledStep& block, int block_index,
                                              int monitor_offset) const = 0;
};

// The factory of a block solver whose constructor takes (model, block, block_index,
// monitor_offset) and checks the block itself: most need nothing more than a name.
template <class Solver>
class BlockSolverFactoryOf final : public BlockSolverFactory {
 public:
  explicit BlockSolverFactoryOf(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::unique_ptr<BlockSolver> create(const Model& model, const ScheduledStep& block, int block_index,
                                      int monitor_offset) const override {
    return std::make_unique<Solver>(model, block, block_index, monitor_offset);
  }

 private:
  std::string name_;
};

}  // namespace jourdain
