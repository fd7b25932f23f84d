// The augmented Lagrangian formulation (formulation.hpp), the default: the method of
// Bayo and Ledesma's "ALI3-P" (index-3 augmented Lagrangian with mass-orthogonal
// projections, Nonlinear Dynamics 9, 1996; its acceleration-level form is Bayo, García de
// Jalón and Serna, CMAME 71, 1988) written for a right-hand side that any ODE method
// integrates. Every linear problem the mechanism poses has the form
//
//     W x + Φ_qᵀ λ = f,     Φ_q x = b                                     (1)
//
// (accelerations: W = M, f = Q, b = γ − 2αΦ̇ − β²Φ; a correction after a step: W the
// projection metric, f = 0, b the residual to remove). Instead of factorizing the
// indefinite KKT matrix, which is singular when Φ_q loses rank, it factorizes the leading
// matrix
//
//     L = W + Φ_qᵀ A Φ_q,     A = diag(α_i),                              (2)
//
// which stays symmetric positive definite whatever the rank of Φ_q, and iterates on the
// multipliers (the method of multipliers, Hestenes 1969 / Powell 1969):
//
//     L x_{k+1} = f − Φ_qᵀ λ_k + Φ_qᵀ A b,     λ_{k+1} = λ_k + A (Φ_q x_{k+1} − b).   (3)
//
// Each step is taken in defect form, x_{k+1} = x_k + L⁻¹(f − W x_k − Φ_qᵀ(λ_k + A r_k))
// with r_k = Φ_q x_k − b, so that the converged x and λ satisfy (1) as computed from W and
// Φ_q themselves: the rounding of L (W's entries added to much larger penalty terms) slows
// the iteration down but does not enter the answer.
//
// The iteration contracts each direction of the constraints by 1/(1 + p) where the groups
// of equations do not interact, and by 1/(1 + p σ²) for σ the singular value of the
// penalty-scaled Φ_q along it (in the W⁻¹ metric): two or three iterations resolve a
// well-conditioned mechanism to rounding. Near a singular configuration the directions
// whose p σ² is small converge slowly and, at the configuration itself, not at all:
// the iteration stops after kMaxIterations, leaving them regularized (their constraint
// force grows no larger than ~√(α w) times the inconsistency of b) instead of amplified by
// 1/σ as an exact solution of (1) is. That is what carries a mechanism through a singular
// pose without a jump to another branch: the same bounded answer for the corrections of
// the positions and velocities after a step (mass-orthogonal projections, W = M) as for
// the accelerations. Redundant constraints are a singular direction at every pose: the
// multipliers converge to the least-norm set (in the A⁻¹ metric) that gives the motion.
//
// The penalty is scaled per group of equations (the equations of one joint or driver),
// A_g = p (Φ_q W⁻¹ Φ_qᵀ)_gg⁻¹ (PenaltyBlocks below), so that p
// (world.constraints.penalty, dimensionless) means the same for every equation whatever its
// unit, the masses it moves and the directions of its rows. Larger p: faster convergence
// and a smaller neighbourhood of a singular pose where the iteration stops short, but more
// rounding in L.
//
// Servo rows and actuators (Φ_r ≠ Φ_q: the KKT matrix is not symmetric) have no such
// form: the coordinator solves the accelerations of a mechanism that has them by the KKT
// system (mechanism_solver.cpp); this formulation's corrections need only Φ_q.
//
// The linear algebra is in two pieces: SparseJacobian (Φ_q as a fixed list of entries,
// with its products) and LeadingMatrix (L's pattern, kept per run, its values and its
// block Cholesky factorization, block_cholesky.hpp), which the iteration sees only
// through factorize and solve.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <Eigen/LU>
#include <Eigen/Eigenvalues>

#include "block_cholesky.hpp"
#include "constraint_tree.hpp"
#include "formulation.hpp"
#include "mechanism_jacobian.hpp"

namespace jourdain::mechanical {

namespace {

// Iterations of (3) before the remaining directions count as singular. Far from a singular
// pose the iteration ends in 2–4; at p = 1e8 a direction with σ² α / w = 0.1 still gains
// 1e-1 per pass, so 40 passes leave it ~1e-2 of the way to an exact answer that itself is
// only meaningful away from the singularity.
constexpr int kMaxIterations = 40;
// Iterations of (3) for a correction after a step (f = 0): the first is the penalty
// solution, M-orthogonal to the motion but carrying L's rounding (p ε of the correction)
// into it; the next two take that out in defect form. Few, so that near a singular pose
// the correction along the singular directions stays small (at most ~√(3p)/2 times the
// residual it removes) rather than converge to an unbounded one.
constexpr int kCorrectionIterations = 3;
// Stop once the correction of an iteration and the constraint residual are down to this,
// relative to the terms of (1) (64 rounding units: the rounding of the defect, summed over
// a few terms, and of its solve), or once the correction is below kStall of them and no
// longer halving (the rounding floor of an ill-conditioned L).
constexpr double kConvergence = 64 * std::numeric_limits<double>::epsilon();
constexpr double kStall = 1e-13;
// A tree's direct solve (constraint_tree.hpp) stops refining when its residual is no
// longer halving and below this, relative to the terms: a thousand times kConvergence,
// the rounding of the accelerations where a body of small inertia hangs on a long arm
// (its residual floor 1e-13 of the terms), and far below what a dependent row would leave.
constexpr double kTreeStall = 1e-11;

// The penalty A of (2): one block per group of equations, the equations of one joint or
// driver (at most three), which are independent: redundant constraints (two hinges on one
// pivot) stay in groups of their own, and the iteration shares their load as it did,
//
//     A_g = p S_g⁻¹,     S_g = (Φ_q W⁻¹ Φ_qᵀ)_gg,                           (2a)
//
// so that A S has the identity times p on its diagonal blocks, whatever the directions of
// the group's rows: every direction of a joint contracts by 1/(1 + p) per iteration, apart
// from what couples it to other groups (a singular pose). A scaling per equation, p /
// (S)_ii, does that only when a group's S_g is near a multiple of the identity: for a
// body of small inertia I pinned at r from its centre (a bob the textbook way), a
// revolute's rows (x, y) both turn it far more readily than they move it, S_g = (1/m)
// 1 + (r²/I) b bᵀ (b the unit vector across the arm), both diagonals are ~r²/I, and the
// direction along the arm, which only the mass resists, got a penalty m r²/I times too
// small: at I = 1e-12 kg·m², m = 1 kg, r = 1 m, a contraction of 1/(1 + 1e-4) per
// iteration, no convergence in 40, accelerations off by 1e-4 and corrections that never
// met the projection's tolerance (issue 38).
//
// S_g is symmetric positive semi-definite; its eigenvalues below 64 ε of its largest (a
// row that vanishes at this pose, or the rounding that a direction of ~r²/I leaves on one
// of ~1/m once I/(m r²) is below ε) are raised to that, and a group whose rows all vanish
// keeps 1e-12 of the largest diagonal of S, rather than an infinite penalty.
// The eigenvectors are found by a backward-stable symmetric eigensolver, accurate to
// ε‖S_g‖/gap: the stiff and the soft directions stay apart to rounding even at a ratio of
// 1e12 between them.
class PenaltyBlocks {
 public:
  // det of a group's correlation matrix below which its rows count as correlated and the
  // group takes the block penalty (2a); above, a penalty per equation contracts each of
  // its directions by at least 1/(1 + p kCorrelated).
  static constexpr double kCorrelated = 1e-2;
  using Block = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 3, 3>;
  struct Group {
    int first, count;  // its equations: equations[first .. first + count)
  };

  // `owner`: per equation, the constraint (joint or driver) it belongs to.
  void analyze(const std::vector<int>& owner) {
    const int rows = static_cast<int>(owner.size());
    groups_.clear();
    equations_.clear();
    group_of_.assign(rows, -1);
    slot_of_.assign(rows, 0);
    std::map<int, int> open;  // constraint → its group still taking equations
    std::vector<std::vector<int>> members;
    for (int i = 0; i < rows; ++i) {
      int g = -1;
      if (const auto it = open.find(owner[i]); it != open.end() && members[it->second].size() < 3) g = it->second;
      if (g < 0) {
        g = static_cast<int>(members.size());
        members.emplace_back();
        open[owner[i]] = g;
      }
      group_of_[i] = g;
      slot_of_[i] = static_cast<int>(members[g].size());
      members[g].push_back(i);
    }
    for (const auto& list : members) {
      groups_.push_back({static_cast<int>(equations_.size()), static_cast<int>(list.size())});
      equations_.insert(equations_.end(), list.begin(), list.end());
    }
    blocks_.assign(groups_.size(), Block());
  }

  const std::vector<Group>& groups() const { return groups_; }
  int group_of(int equation) const { return group_of_[equation]; }
  int slot_of(int equation) const { return slot_of_[equation]; }
  int equation(const Group& g, int slot) const { return equations_[g.first + slot]; }
  const Block& block(int group) const { return blocks_[group]; }

  // A_g = p S_g⁻¹ (2a) from Φ_q's parts at the last gather and W's diagonal w.
  void compute(const JacobianParts& parts, const Eigen::VectorXd& w, double penalty) {
    double largest = 0.0;
    for (size_t g = 0; g < groups_.size(); ++g) {
      const Group& group = groups_[g];
      Block& s = blocks_[g];
      s.setZero(group.count, group.count);
      for (int a = 0; a < group.count; ++a) {
        const int i = equation(group, a);
        // The diagonal: row i's squared norm in the W⁻¹ metric, a sum over its bodies.
        double norm = 0.0;
        for (int p = parts.part_start[i]; p < parts.part_start[i + 1]; ++p)
          norm += parts.u[p].cwiseAbs2().cwiseQuotient(w.segment<3>(3 * parts.part_body[p])).sum();
        s(a, a) = norm;
        for (int b = 0; b < a; ++b) {
          const int j = equation(group, b);
          double sum = 0.0;
          for (int p = parts.part_start[i]; p < parts.part_start[i + 1]; ++p)
            for (int q = parts.part_start[j]; q < parts.part_start[j + 1]; ++q)
              if (parts.part_body[p] == parts.part_body[q])
                sum += parts.u[p].dot(parts.u[q].cwiseQuotient(w.segment<3>(3 * parts.part_body[p])));
          s(a, b) = s(b, a) = sum;
        }
      }
      largest = std::max(largest, s.diagonal().maxCoeff());
    }
    const double floor = std::max(largest, std::numeric_limits<double>::min()) * 1e-12;
    for (Block& s : blocks_) {
      // Where a group's rows are near-independent in the W⁻¹ metric (its correlation
      // matrix C = D^{-1/2} S_g D^{-1/2}, D = diag S_g, far from singular: det C ≥
      // kCorrelated bounds its smallest eigenvalue from below), the penalty per equation,
      // p / (S_g)_ii, contracts every direction of the group by at least 1/(1 + p det C):
      // A_g diagonal, as for a single equation. That is every joint between bodies whose
      // inertias are not far below m r² (the chains, four-bars and arms of the examples),
      // at the cost of a scalar per equation. Rows strongly correlated (a bob of small
      // inertia on a pin: det C → 0 as I/(m r²) → 0, but for the poses where the rows
      // line up with the bob's axes) take the block (2a).
      const Eigen::Index n = s.rows();
      double det_c = 1.0;
      if (n > 1) {
        Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1> d = s.diagonal().cwiseMax(floor).cwiseSqrt().cwiseInverse();
        const Block c = d.asDiagonal() * s * d.asDiagonal();
        det_c = n == 2 ? c(0, 0) * c(1, 1) - c(0, 1) * c(1, 0) : Eigen::Matrix3d(c).determinant();
      }
      if (det_c >= kCorrelated) {
        for (Eigen::Index k = 0; k < n; ++k) {
          const double diagonal = s(k, k);
          s.row(k).setZero();
          s(k, k) = penalty / std::max(diagonal, floor);
        }
        continue;
      }
      solver_.compute(s);
      const auto& values = solver_.eigenvalues();  // ascending
      const double own = 64 * std::numeric_limits<double>::epsilon() * values[values.size() - 1];
      Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1> inverse(values.size());
      for (Eigen::Index k = 0; k < values.size(); ++k) inverse[k] = penalty / std::max({values[k], own, floor});
      s = solver_.eigenvectors() * inverse.asDiagonal() * solver_.eigenvectors().transpose();
    }
  }

  // y = A x, group by group.
  void times(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
    y.resize(x.size());
    for (size_t g = 0; g < groups_.size(); ++g) {
      const Group& group = groups_[g];
      const Block& a = blocks_[g];
      for (int r = 0; r < group.count; ++r) {
        double sum = 0.0;
        for (int c = 0; c < group.count; ++c) sum += a(r, c) * x[equation(group, c)];
        y[equation(group, r)] = sum;
      }
    }
  }

 private:
  std::vector<Group> groups_;
  std::vector<int> equations_;           // by group, in slot order
  std::vector<int> group_of_, slot_of_;  // per equation
  std::vector<Block> blocks_;            // S_g, then A_g
  Eigen::SelfAdjointEigenSolver<Block> solver_;
};

// L = W + Φ_qᵀ A Φ_q (2) in 3×3 blocks, one per pair of bodies a group of equations
// couples (PenaltyBlocks), with its block Cholesky factorization (block_cholesky.hpp: linear in the bodies
// of a tree). Each equation's row of Φ_q is gathered as one 3-vector u per body it
// involves, so that a group's share of L is A_g(i, j) u_a u_bᵀ on the blocks of its bodies
// for each pair of its equations (i, j) (a few fixed-size outer products). The pattern, the
// groups, the elimination order and the blocks each product adds into are found once per
// run; an evaluation then writes the values and refactorizes, without allocating.
class LeadingMatrix {
 public:
  // Φ_q's values at this evaluation, by equation and body.
  void gather(const SparseJacobian& J, const MechanismSystem& system) {
    if (!cholesky_.analyzed()) analyze(J, system);
    parts_.gather(J);
  }
  // A (2a) for W = diag(w), from the last gather.
  void penalize(const Eigen::VectorXd& w, double penalty) { penalty_.compute(parts_, w, penalty); }
  const PenaltyBlocks& penalty() const { return penalty_; }
  // L from the last gather and penalize; false when it is not positive definite (W is not).
  bool factorize(const Eigen::VectorXd& w) {
    cholesky_.zero();
    for (int b = 0; b < cholesky_.bodies(); ++b)
      cholesky_.block(cholesky_.block_of(b, b)).diagonal() += w.segment<3>(3 * b);
    for (const Coupling& c : couplings_)
      if (const double a = penalty_.block(c.group)(c.row_slot, c.column_slot); a != 0.0)  // a diagonal A_g: no cross terms
        cholesky_.block(c.block).noalias() += a * parts_.u[c.row_part] * parts_.u[c.column_part].transpose();
    return cholesky_.factorize();
  }
  void solve(const Eigen::VectorXd& rhs, Eigen::VectorXd& x) const { cholesky_.solve(rhs, x); }

 private:
  // A_g(row_slot, column_slot) u_row u_columnᵀ adds into this block.
  struct Coupling {
    int block, group, row_slot, column_slot, row_part, column_part;
  };
  void analyze(const SparseJacobian& J, const MechanismSystem& system) {
    parts_.analyze(J);
    std::vector<int> owner(J.rows);
    for (int i = 0; i < J.rows; ++i) owner[i] = system.equation(i).constraint;
    penalty_.analyze(owner);
    const std::vector<int>& start = parts_.part_start;
    const std::vector<int>& body = parts_.part_body;
    // The parts of each group's equations.
    std::vector<std::vector<int>> group_parts(penalty_.groups().size());
    for (int i = 0; i < J.rows; ++i)
      for (int a = start[i]; a < start[i + 1]; ++a) group_parts[penalty_.group_of(i)].push_back(a);
    std::vector<std::pair<int, int>> coupled;
    for (const auto& list : group_parts)
      for (int a : list)
        for (int b : list)
          if (body[a] != body[b]) coupled.emplace_back(body[a], body[b]);
    cholesky_.analyze(J.cols / 3, coupled);
    couplings_.clear();
    for (size_t g = 0; g < group_parts.size(); ++g)
      for (int a : group_parts[g])
        for (int b : group_parts[g])
          if (const int block = cholesky_.block_of(body[a], body[b]); block >= 0)
            couplings_.push_back({block, static_cast<int>(g), penalty_.slot_of(parts_.part_equation[a]),
                                  penalty_.slot_of(parts_.part_equation[b]), a, b});
  }

  BlockCholesky cholesky_;
  JacobianParts parts_;
  PenaltyBlocks penalty_;
  std::vector<Coupling> couplings_;
};

// One metric W's leading matrix and the vectors of the iteration, kept for the run.
struct MetricWork {
  LeadingMatrix L;
  Eigen::VectorXd w, root;                                         // W's diagonal (n), its square root
  Eigen::VectorXd x, lambda, mu, r, penalized, rho, delta, force;  // the iteration's vectors
  // The Φ_q entries and W that L was last factorized at (none yet: empty).
  std::vector<double> factored_jacobian;
  Eigen::VectorXd factored_w;
};

struct AugmentedLagrangianScratch final : FormulationScratch {
  SparseJacobian jacobian;
  MetricWork mass, euclidean;
  // The accelerations of a mechanism whose constraints form a tree, by one elimination
  // (constraint_tree.hpp); found on the first evaluation: 1 a tree, -1 not.
  ConstraintTree tree;
  int tree_shape = 0;
  // What the last iteration did: its count, and whether it converged (a multipliers'
  // refinement follows only then).
  int iterations = 0;
  bool converged = true;
};

class AugmentedLagrangianFormulation final : public Formulation {
 public:
  explicit AugmentedLagrangianFormulation(const ConstraintSettings& settings)
      : penalty_(settings.penalty),
        least_squares_(settings.redundant == "least_squares"),
        mass_metric_(settings.mass_metric()) {}

  std::string title() const override { return "augmented Lagrangian (ALI3-P)"; }

  bool takes_servo_rows() const override { return false; }
  bool follows_singular_configurations() const override { return true; }

  std::string solution_path(const MechanismEval& me) const override {
    SparseJacobian J;
    J.gather(me.system, me.ws.state);
    ConstraintTree tree;
    if (J.rows == 0) return "no constraints: q̈ = M⁻¹Q";
    if (!tree.analyze(J))
      return "accelerations by the multipliers' iteration (the constraints close loops, or join more than two "
             "bodies, or put more than three equations on a pair)";
    const int size = tree.block_size();
    const int pairs = tree.nodes();
    return "accelerations by one elimination along the tree (" + std::to_string(pairs) +
           (pairs == 1 ? " pair of bodies, " : " pairs of bodies, ") +
           std::to_string(size) + "×" + std::to_string(size) +
           " blocks), the iteration where it cannot (a point mass on a long arm, a refinement that stalls)";
  }

  void accelerations(const MechanismEval& me, const Eigen::VectorXd& rhs, Eigen::VectorXd& sol) const override {
    const int n = me.system.coordinates(), m = me.system.equations();
    AugmentedLagrangianScratch& s = me.ws.scratch<AugmentedLagrangianScratch>(this);
    s.jacobian.gather(me.system, me.ws.state);
    sol.resize(n + m);
    if (s.tree_shape == 0) s.tree_shape = s.tree.analyze(s.jacobian) ? 1 : -1;
    if (s.tree_shape > 0) {
      // A tree: Φ_q has full rank, and one elimination gives what the iteration would
      // converge to (constraint_tree.hpp); where it cannot, the iteration takes over.
      MetricWork& work = s.mass;
      masses(me, work.w, true);
      if (s.tree.solve(s.jacobian, work.w, rhs.head(n), rhs.tail(m), kConvergence, kTreeStall, work.x, work.lambda)) {
        sol.head(n) = work.x;
        sol.tail(m) = work.lambda;
        return;
      }
    }
    MetricWork& work = prepared(me, s, /*mass=*/true);
    iterate(s, work, rhs.head(n), rhs.tail(m), kMaxIterations);
    sol.head(n) = work.x;
    sol.tail(m) = work.lambda;
  }

  Eigen::VectorXd minimum_norm(const MechanismEval& me, const Eigen::VectorXd& r) const override {
    AugmentedLagrangianScratch& s = me.ws.scratch<AugmentedLagrangianScratch>(this);
    s.jacobian.gather(me.system, me.ws.state);
    MetricWork& work = prepared(me, s, mass_metric_);
    iterate(s, work, Eigen::VectorXd::Zero(me.system.coordinates()), r, kCorrectionIterations);
    return work.x;
  }

  bool solves_redundant() const override { return least_squares_; }
  std::string redundant_policy() const override { return least_squares_ ? "least_squares" : "error"; }

 private:
  // W's diagonal: the bodies' masses and inertias, or ones.
  static void masses(const MechanismEval& me, Eigen::VectorXd& w, bool mass) {
    const int n = me.system.coordinates();
    w.resize(n);
    for (int b = 0; b < n / 3; ++b) w.segment<3>(3 * b) = mass ? me.system.mass(me.model, me.ctx, b) : Vec3::Ones();
  }

  // W and A for the metric, and L factorized, at the Φ_q last gathered.
  MetricWork& prepared(const MechanismEval& me, AugmentedLagrangianScratch& s, bool mass) const {
    MetricWork& work = mass ? s.mass : s.euclidean;
    masses(me, work.w, mass);
    // L is a function of Φ_q and W alone: kept while both are what it was factorized at,
    // to the bit. Evaluations that move no position find it so: a Jacobian's columns for
    // velocities, pressures and speeds, and the evaluations that repeat a point.
    if (!work.factored_jacobian.empty() && work.factored_jacobian == s.jacobian.value && work.factored_w == work.w)
      return work;
    work.factored_jacobian.clear();
    work.L.gather(s.jacobian, me.system);
    work.root = work.w.cwiseSqrt();
    work.L.penalize(work.w, penalty_);  // A (2a)
    if (!work.L.factorize(work.w))
      throw SimulationError(me.ctx.t, {}, "the augmented Lagrangian matrix M + Φ_qᵀAΦ_q is not positive definite: "
                                          "a body with zero mass or inertia");
    work.factored_jacobian = s.jacobian.value;
    work.factored_w = work.w;
    return work;
  }

  // The method of multipliers (3) in defect form from x = 0, λ = 0 (a cold start: the
  // answer depends on the state it is asked at only), into work.x and work.lambda.
  static void iterate(AugmentedLagrangianScratch& s, MetricWork& work, Eigen::Ref<const Eigen::VectorXd> f,
                      Eigen::Ref<const Eigen::VectorXd> b, int max_iterations) {
    const SparseJacobian& J = s.jacobian;
    work.x.setZero(J.cols);
    work.lambda.setZero(J.rows);
    work.r = -b;  // Φ_q x − b at x = 0
    const double b_scale = b.lpNorm<Eigen::Infinity>();
    const double applied = f.cwiseAbs().cwiseQuotient(work.root).maxCoeff();
    s.converged = false;
    double last_step = std::numeric_limits<double>::infinity();
    int k = 0;
    while (k < max_iterations) {
      ++k;
      work.L.penalty().times(work.r, work.penalized);
      work.mu = work.lambda + work.penalized;
      J.transpose_times(work.mu, work.force);
      work.rho = f - work.w.cwiseProduct(work.x) - work.force;
      work.L.solve(work.rho, work.delta);
      work.x += work.delta;
      const SparseJacobian::Residual r = J.residual(work.x, b, work.r);
      const double terms = std::max(b_scale, r.scale), residual = r.largest;
      work.L.penalty().times(work.r, work.penalized);
      work.lambda += work.penalized;
      // The sizes the rounding of this iteration is relative to, in the W^{1/2}-scaled
      // units of ‖W^{1/2} δ‖: the terms of the first row (f, W x and the constraint forces
      // Φ_qᵀμ, each scaled by W^{-1/2}), and of the second (b and each Φ_q entry times x).
      const double forces = std::max({applied, work.force.cwiseAbs().cwiseQuotient(work.root).maxCoeff(),
                                      work.x.cwiseAbs().cwiseProduct(work.root).maxCoeff()});
      const double step = work.delta.cwiseAbs().cwiseProduct(work.root).maxCoeff();
      if (!std::isfinite(step)) break;
      // Converged: the correction and the constraint residual are down to a few rounding
      // units of those terms; or the next correction will be: the iteration contracts
      // linearly, by c = step / last_step per pass, so what is left after this one is
      // about c / (1 − c) times its step (the a posteriori bound of a contraction; a
      // 64-link chain contracts by ~2e-5 per pass, and the pass that would only confirm
      // the answer was a sixth of its run); or the correction has stopped shrinking while
      // already that small (the rounding of the last digits, not a singular direction,
      // which shrinks slowly from a size of the solution's own).
      const double contraction = step / last_step;
      const double left = k >= 2 && contraction < 0.5 ? step * contraction / (1.0 - contraction) : step;
      const bool at_rounding = std::min(step, left) <= kConvergence * forces && residual <= kConvergence * terms;
      const bool stalled = step <= kStall * forces && step > 0.5 * last_step;
      if (at_rounding || stalled || (forces == 0.0 && residual == 0.0)) {
        s.converged = true;
        break;
      }
      last_step = step;
    }
    s.iterations = k;
    // The multipliers' last update, λ += A r, carries the rounding of r times the penalty
    // (p ε of λ, ~2e-8 at p = 1e8), which x does not feel (L⁻¹Φ_qᵀ divides it by p again)
    // but the reactions would show. Once converged, λ is refined from the first row's
    // defect instead: δλ = A Φ_q L⁻¹ (f − W x − Φ_qᵀλ), which is the defect's part along
    // the constraint forces to a relative 1/p, and rounds to ε of λ. One pass: its own
    // error is ~p ε (L's conditioning) times the p ε it removes, (p ε)² ≈ 5e-16 of λ at
    // p = 1e8; a second pass moved the reactions of the four-bar, the slider-crank and
    // Andrews' squeezer by at most 1e-15 of their largest value.
    if (s.converged && max_iterations == kMaxIterations) {
      J.transpose_times(work.lambda, work.force);
      work.rho = f - work.w.cwiseProduct(work.x) - work.force;
      work.L.solve(work.rho, work.delta);
      J.times(work.delta, work.r);
      work.L.penalty().times(work.r, work.penalized);
      work.lambda += work.penalized;
    }
  }

  double penalty_;      // p of α_i = p / (Φ_q W⁻¹ Φ_qᵀ)_ii
  bool least_squares_;  // world.constraints.redundant = "least_squares"
  bool mass_metric_;    // world.constraints.projection_metric = "mass"
};

}  // namespace

std::unique_ptr<const Formulation> make_augmented_lagrangian_formulation(const ConstraintSettings& settings) {
  return std::make_unique<AugmentedLagrangianFormulation>(settings);
}

}  // namespace jourdain::mechanical
