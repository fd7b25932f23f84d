// The Udwadia–Kalaba formulation (formulation.hpp; seed 002, eqs. (4)–(5)): with a = M⁻¹Q,
// A = Φ_q and b = γ − 2αΦ̇ − β²Φ,
//
//     q̈ = a + M^{-1/2} (A M^{-1/2})⁺ (b − A a),   Q_c = M^{1/2} (A M^{-1/2})⁺ (b − A a),
//
// dense, with the Moore–Penrose inverse from a complete orthogonal decomposition: it needs
// no full rank, so redundant constraints give the same motion and minimum-norm
// multipliers. Its constraint force is ideal (Q_c in the range of Φ_qᵀ): it refuses servo
// rows and actuators, which need the KKT formulation.
//
// Its minimum-norm corrections are δ = D (Φ_q D)⁺ r with D = I (Euclidean, seed 002 eqs.
// (17)–(18)) or D = M^{-1/2} (the least δᵀMδ), dense, so that redundant constraints need
// no special setting there either.
#include <Eigen/Dense>

#include "formulation.hpp"

namespace jourdain::mechanical {

namespace {

// Singular values of A M^{-1/2} below this fraction of the largest count as zero (column
// pivots of the decomposition stand for them). Rounding leaves a duplicated or dependent
// equation ~1e-16 relative; a real mechanism is this ill-conditioned only within ~1e-10 of
// a singular pose, where the pseudo-inverse then drops the direction rather than blow up.
constexpr double kPseudoInverseThreshold = 1e-10;

// The rank-revealing factorization of B, for B⁺ (its solve() is B⁺ r).
Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> pseudo_inverse(const Eigen::MatrixXd& B) {
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  cod.setThreshold(kPseudoInverseThreshold);
  cod.compute(B);
  return cod;
}

class UdwadiaKalabaFormulation final : public Formulation {
 public:
  explicit UdwadiaKalabaFormulation(const ConstraintSettings& settings)
      : least_squares_(settings.redundant == "least_squares"), mass_metric_(settings.mass_metric()) {}

  std::string title() const override { return "Udwadia-Kalaba"; }

  // The Udwadia–Kalaba force is ideal, Q_c in the range of Φ_qᵀ: it has no room for a
  // servo row's motion imposed through another row's (an actuator's) force.
  void admit(const Constraint& con, const World& world) const override {
    for (int i = 0; i < con.equation_count(); ++i) {
      if (con.is_equation(i) && con.reacts(i)) continue;
      throw InputError({world.file, "/world/constraints/formulation", con.name(), ""},
                       std::string(con.is_equation(i) ? "is a servo driver" : "is an actuated joint") +
                           ": servo constraints need world.constraints.formulation = \"kkt\" (the "
                           "Udwadia-Kalaba equation gives ideal constraint forces only)");
    }
  }

  // With B = A M^{-1/2} (m × n) and x = B⁺(b − A a) (n): q̈ = a + M^{-1/2} x, Q_c = M^{1/2} x.
  // x lies in the range of Bᵀ, so Bᵀμ = x has an exact solution, and then Φ_qᵀμ = M^{1/2}x
  // = Q_c; the minimum-norm one, μ = (Bᵀ)⁺x, is the minimum-norm multiplier set (the KKT
  // least-squares answer). The KKT sign (M q̈ + Φ_qᵀλ = Q) makes λ = −μ.
  void accelerations(const MechanismEval& me, const Eigen::VectorXd& rhs, Eigen::VectorXd& sol) const override {
    const int n = me.system.coordinates(), m = me.system.equations();
    const Eigen::VectorXd d = me.system.inverse_sqrt_mass(me.model, me.ctx);
    sol.resize(n + m);
    const Eigen::VectorXd a = d.cwiseProduct(d).cwiseProduct(rhs.head(n));  // M⁻¹Q
    if (m == 0) {
      sol.head(n) = a;
      return;
    }
    const Eigen::MatrixXd A = me.system.dense_jacobian(me.ws.state), B = A * d.asDiagonal();
    const Eigen::VectorXd x = pseudo_inverse(B).solve(rhs.tail(m) - A * a);
    sol.head(n) = a + d.cwiseProduct(x);
    sol.tail(m) = -pseudo_inverse(B.transpose()).solve(x);
  }

  Eigen::VectorXd minimum_norm(const MechanismEval& me, const Eigen::VectorXd& r) const override {
    const int n = me.system.coordinates();
    const Eigen::VectorXd d = mass_metric_ ? me.system.inverse_sqrt_mass(me.model, me.ctx) : Eigen::VectorXd::Ones(n);
    return d.cwiseProduct(pseudo_inverse(me.system.dense_jacobian(me.ws.state) * d.asDiagonal()).solve(r));
  }

  // The pseudo-inverse takes redundant constraints as they are; like any formulation, it is
  // asked to with world.constraints.redundant = "least_squares" (otherwise they are an
  // input error: mechanism_rank.cpp).
  bool solves_redundant() const override { return least_squares_; }
  std::string redundant_policy() const override { return least_squares_ ? "minimum norm" : "error"; }

 private:
  bool least_squares_;  // world.constraints.redundant = "least_squares"
  bool mass_metric_;  // world.constraints.projection_metric = "mass"
};

}  // namespace

std::unique_ptr<const Formulation> make_udwadia_kalaba_formulation(const ConstraintSettings& settings) {
  return std::make_unique<UdwadiaKalabaFormulation>(settings);
}

}  // namespace jourdain::mechanical
