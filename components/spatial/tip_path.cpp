// The task-space path constraint on an arm's tip (spatial.hpp): Φ(x, t) = x − x_d(t).
#include <cmath>

#include "spatial.hpp"

namespace jourdain::spatial {

namespace {
constexpr const char* kCoordinates[3] = {"x", "y", "z"};
}

TipPath::TipPath() {
  for (const char* c : kCoordinates) {
    declare_table(c, {"m", "rad/s", "rad", "rad/s", "rad"},
                  std::string("desired tip ") + c + "(t) = Σ A cos(ω₁t + φ₁) cos(ω₂t + φ₂), one row [A, ω₁, φ₁, ω₂, φ₂] "
                  "per term (constant: ω = φ = 0; sine: φ = −90 deg)");
  }
  declare_text("drift", std::string("projection"),
               "drift control (seed 002): none; baumgarte (b − 2αΦ̇ − β²Φ); projection of q and q̇ onto the path "
               "after every accepted step",
               {"none", "baumgarte", "projection"});
  alpha_ = declare_real("alpha", "1/s", 10.0, "Baumgarte velocity gain", Range::non_negative());
  beta_ = declare_real("beta", "1/s", 10.0, "Baumgarte position gain", Range::non_negative());
  declare_text("projection_metric", std::string("euclidean"),
               "projection step: euclidean (A⁺Φ, the smallest joint step) or mass (M⁻¹Aᵀ(AM⁻¹Aᵀ)⁻¹Φ, the smallest "
               "kinetic-energy step)",
               {"euclidean", "mass"});
  tolerance_ =
      declare_real("projection_tolerance", "m", 1e-12, "projection stops once |Φ|∞ is below this", Range::positive());
  declare_integer("projection_iterations", 3, "Gauss–Newton iterations at most per projection", Range::between(1, 50));
  declare_boolean("assemble", true, "before the run, move the arm onto the path (Newton, minimum-norm steps) and "
                                    "its rates onto the path's velocity");
}

void TipPath::configure() {
  for (int k = 0; k < 3; ++k)
    for (const auto& row : table(kCoordinates[k])) terms_[k].push_back({row[0], row[1], row[2], row[3], row[4]});
  const std::string kind = text("drift");
  drift_.kind = kind == "none"        ? DriftControl::Kind::None
                : kind == "baumgarte" ? DriftControl::Kind::Baumgarte
                                      : DriftControl::Kind::Projection;
  drift_.mass_weighted = text("projection_metric") == "mass";
  drift_.iterations = static_cast<int>(integer("projection_iterations"));
  drift_.assemble = boolean("assemble");

  tip_ = declare_port("tip", spatial_domain(), PortSide::Response, "the arm's tip");
  const char* force[3] = {"fx", "fy", "fz"};
  for (int k = 0; k < 3; ++k) {
    f_[k] = declare_unknown(force[k], "N", 0.0, std::string("force on the tip along ") + kCoordinates[k]);
    desired_[k] = declare_observable(std::string(kCoordinates[k]) + "_desired", "m",
                                     std::string("desired tip position ") + kCoordinates[k]);
  }
  error_ = declare_observable("error", "m", "tracking error |x − x_d|");
  error_rate_ = declare_observable("error_rate", "m/s", "velocity error |ẋ − ẋ_d|");
}

// Per term f = A c₁c₂ with c_k = cos θ_k, θ_k = ω_k t + φ_k, s_k = sin θ_k:
//   ḟ = −A (ω₁ s₁c₂ + ω₂ c₁s₂),   f̈ = A (−(ω₁² + ω₂²) c₁c₂ + 2ω₁ω₂ s₁s₂).
PathPoint TipPath::target(double t) const {
  PathPoint p;
  for (int k = 0; k < 3; ++k) {
    for (const Term& T : terms_[k]) {
      const double c1 = std::cos(T.w1 * t + T.phi1), s1 = std::sin(T.w1 * t + T.phi1);
      const double c2 = std::cos(T.w2 * t + T.phi2), s2 = std::sin(T.w2 * t + T.phi2);
      p.x[k] += T.amplitude * c1 * c2;
      p.v[k] -= T.amplitude * (T.w1 * s1 * c2 + T.w2 * c1 * s2);
      p.a[k] += T.amplitude * (-(T.w1 * T.w1 + T.w2 * T.w2) * c1 * c2 + 2.0 * T.w1 * T.w2 * s1 * s2);
    }
  }
  return p;
}

void TipPath::set_force(Eval& e, const Vec3& f) const {
  for (int k = 0; k < 3; ++k) e.set_unknown(f_[k], f[k]);
}

// The force on the tip, and the residual of the (stabilized) acceleration equation for
// the general Newton method: ẍ − ẍ_d + 2αΦ̇ + β²Φ = 0.
void TipPath::calc_outputs(Eval& e) const {
  const Var pos[3] = {x, y, z}, vel[3] = {vx, vy, vz}, acc[3] = {ax, ay, az}, force[3] = {fx, fy, fz};
  const PathPoint d = target(e.time());
  const bool baumgarte = drift_.kind == DriftControl::Kind::Baumgarte && e.context().analysis == Analysis::Dynamic;
  const double alpha = e.param(alpha_), beta = e.param(beta_);
  for (int k = 0; k < 3; ++k) {
    e.set_out(tip_, force[k], e.unknown(f_[k]));
    const double phi = e.in(tip_, pos[k]) - d.x[k], phidot = e.in(tip_, vel[k]) - d.v[k];
    e.set_residual(f_[k], e.in(tip_, acc[k]) - d.a[k] +
                              (baumgarte ? 2.0 * alpha * phidot + beta * beta * phi : 0.0));
  }
}

void TipPath::calc_derivatives(Eval& e) const {
  const Var pos[3] = {x, y, z}, vel[3] = {vx, vy, vz};
  const PathPoint d = target(e.time());
  Vec3 phi, phidot;
  for (int k = 0; k < 3; ++k) {
    phi[k] = e.in(tip_, pos[k]) - d.x[k];
    phidot[k] = e.in(tip_, vel[k]) - d.v[k];
    e.set_observable(desired_[k], d.x[k]);
  }
  e.set_observable(error_, phi.norm());
  e.set_observable(error_rate_, phidot.norm());
}

void register_tip_path(Registry& r) {
  r.add<TipPath>("spatial.tip_path", "task-space path constraint: an arm's tip follows x_d(t) (sums of cosine "
                                     "products); Udwadia–Kalaba with none/Baumgarte/projection drift control");
}

}  // namespace jourdain::spatial
