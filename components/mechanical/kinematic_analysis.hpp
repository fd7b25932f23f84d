// Kinematic analysis of a mechanism (README.md, "Other analyses": Newton on
// Φ(q, t) = 0; seed 001: position, velocity and acceleration analysis of a mechanism
// driven in all its degrees of freedom). At each output time: positions by Newton from the
// Taylor extrapolation of the last point, velocities from Φ_q q̇ = −Φ_t; the accelerations
// and multipliers then come from the block's solve() (Φ_q q̈ = γ, M q̈ + Φ_rᵀλ = Q: inverse
// dynamics).
#pragma once

#include "mechanism_system.hpp"

namespace jourdain::mechanical {

class Formulation;

// One point at me.ctx.t, `dt` after the last one: q and q̇ of the bodies (Phase::Project),
// me.ws.state evaluated there. `formulation` gives the minimum-norm corrections. Throws
// SimulationError when Newton fails ("lost") or Φ_q is not square and regular (a singular
// configuration, or degrees of freedom left).
void kinematic_point(const MechanismEval& me, const Formulation& formulation, double dt, double tolerance);

}  // namespace jourdain::mechanical
