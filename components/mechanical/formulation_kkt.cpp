// The KKT formulation (formulation.hpp): the stabilized augmented system of README.md
// (seed 000, with Baumgarte's right-hand side),
//
//     [ M    Φ_rᵀ ] [ q̈ ]   [ Q ]
//     [ Φ_q  0    ] [ λ  ] = [ b ],     b = γ − 2α(Φ_q q̇ + Φ_t) − β²Φ,
//
// assembled sparsely from the system's Jacobian entries and factorized by Eigen's SparseLU,
// whose symbolic analysis is kept for the run (KktScratch): the cost grows linearly with
// the number of bodies on chains and trees. Φ_r are the rows that carry a multiplier; they
// differ from the equation rows Φ_q by servo and actuator rows (planar.hpp). With
// world.constraints.redundant = "least_squares" the system is solved instead by a complete
// orthogonal decomposition (dense), the least-squares answer that redundant constraints
// need; otherwise a singular system is an error naming the dependent equations.
//
// Its minimum-norm corrections solve the same kind of system with W = I (Euclidean:
// δ = Φ_q⁺ r, seed 002 eqs. (17)–(18)) or W = M (δ = M⁻¹Φ_qᵀ(Φ_q M⁻¹Φ_qᵀ)⁻¹ r, the least
// δᵀMδ) in place of M and Φ_q in place of Φ_r: its first rows W δ + Φ_qᵀμ = 0 make δ the
// minimum-norm one.
#include <Eigen/Dense>
#include <Eigen/Sparse>

#include "formulation.hpp"
#include "mechanism_rank.hpp"

namespace jourdain::mechanical {

namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

// One sparse system with its LU; the symbolic analysis is done on first use (the pattern
// depends only on the system's structure, and both metrics W give the same one).
struct SparseSystem {
  SparseMatrix A;
  Eigen::SparseLU<SparseMatrix> lu;
  bool analyzed = false;
};

struct KktScratch final : FormulationScratch {
  SparseSystem kkt;        // [M Φ_rᵀ; Φ_q 0]: accelerations and multipliers
  SparseSystem augmented;  // [W Φ_qᵀ; Φ_q 0]: minimum-norm corrections
  std::vector<Eigen::Triplet<double>> triplets;
};

class KktFormulation final : public Formulation {
 public:
  explicit KktFormulation(const ConstraintSettings& settings)
      : least_squares_(settings.redundant == "least_squares"), mass_metric_(settings.mass_metric()) {}

  std::string title() const override { return "KKT"; }

  void accelerations(const MechanismEval& me, const Eigen::VectorXd& rhs, Eigen::VectorXd& sol) const override {
    sol = solve(me, /*kkt=*/true, /*with_mass=*/true, rhs);
  }

  Eigen::VectorXd minimum_norm(const MechanismEval& me, const Eigen::VectorXd& r) const override {
    const int n = me.system.coordinates(), m = me.system.equations();
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + m);
    rhs.tail(m) = r;
    return solve(me, /*kkt=*/false, mass_metric_, rhs).head(n);
  }

  bool solves_redundant() const override { return least_squares_; }
  std::string redundant_policy() const override { return least_squares_ ? "least_squares" : "error"; }

 private:
  // Solves [W Φ_rᵀ; Φ_q 0] z = rhs (n + m) with W = M and Φ_r the reacting rows (kkt), or
  // W = M or I and Φ_r = Φ_q (!kkt).
  Eigen::VectorXd solve(const MechanismEval& me, bool kkt, bool with_mass, const Eigen::VectorXd& rhs) const {
    const MechanismSystem& system = me.system;
    const int n = system.coordinates(), m = system.equations();
    KktScratch& s = me.ws.scratch<KktScratch>(this);
    auto& triplets = s.triplets;
    triplets.clear();
    // W: diagonal, (m, m, I) or (1, 1, 1) per body.
    for (int b = 0; b < n / 3; ++b) {
      const Vec3 w = with_mass ? system.mass(me.model, me.ctx, b) : Vec3::Ones();
      for (int j = 0; j < 3; ++j) triplets.emplace_back(3 * b + j, 3 * b + j, w[j]);
    }
    // Φ_q below, Φ_rᵀ (or Φ_qᵀ) to the right.
    system.for_each_jacobian_entry(me.ws.state, [&](int r, int c, double v) {
      const RowInfo& row = system.row(r);
      const int eq = row.equation, column = kkt ? row.reaction : eq;
      if (eq >= 0) triplets.emplace_back(n + eq, c, v);
      if (column >= 0) triplets.emplace_back(c, n + column, v);
    });
    SparseSystem& sys = kkt ? s.kkt : s.augmented;
    sys.A.resize(n + m, n + m);
    sys.A.setFromTriplets(triplets.begin(), triplets.end());
    if (least_squares_) return Eigen::MatrixXd(sys.A).completeOrthogonalDecomposition().solve(rhs);
    if (!sys.analyzed) {
      sys.lu.analyzePattern(sys.A);
      sys.analyzed = true;
    }
    sys.lu.factorize(sys.A);
    if (sys.lu.info() != Eigen::Success) singular(me);
    Eigen::VectorXd z = sys.lu.solve(rhs);
    if (!z.allFinite()) singular(me);
    return z;
  }

  // The LU found the system singular: the dependent equations by name.
  [[noreturn]] static void singular(const MechanismEval& me) {
    const std::vector<int> dependent = dependent_equations(me.system.dense_jacobian(me.ws.state));
    throw SimulationError(me.ctx.t, me.system.component_names(dependent),
                          "the constraint Jacobian is singular (" +
                              (dependent.empty() ? std::string("ill-conditioned")
                                                 : "dependent: " + me.system.equation_names(dependent)) +
                              "): a redundant constraint or a singular configuration; set world.constraints.redundant "
                              "= \"least_squares\" for redundant constraints");
  }

  bool least_squares_;  // world.constraints.redundant = "least_squares"
  bool mass_metric_;    // world.constraints.projection_metric = "mass"
};

}  // namespace

std::unique_ptr<const Formulation> make_kkt_formulation(const ConstraintSettings& settings) {
  return std::make_unique<KktFormulation>(settings);
}

}  // namespace jourdain::mechanical
