// Kinematic analysis (kinematic_analysis.hpp; seed 001).
#include "kinematic_analysis.hpp"

#include "mechanism_assembly.hpp"
#include "mechanism_rank.hpp"

namespace jourdain::mechanical {

void kinematic_point(const MechanismEval& me, const Formulation& formulation, double dt, double tolerance) {
  // Start Newton from q + dt q̇ + dt²/2 q̈ of the last point.
  for (const auto& b : me.system.bodies()) {
    Eval e = me.model.view(b.comp, me.ctx, Eval::Phase::Project);
    b.body->set_position(e, b.body->position(e) + dt * b.body->velocity(e) + 0.5 * dt * dt * b.body->acceleration(e));
  }
  assemble(me, formulation, Eval::Phase::Project, tolerance, "the kinematic analysis lost the mechanism");
  check_rank(me, formulation, /*kinematic=*/true);
  project_velocities(me, formulation, Eval::Phase::Project);
}

}  // namespace jourdain::mechanical
