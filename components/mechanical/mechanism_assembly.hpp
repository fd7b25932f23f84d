// Assembly and projection of a mechanism onto its constraints (README.md, "Projection":
// q and q̇ moved onto the constraint manifold after accepted steps; seed 002's direct
// elimination q ← q − Φ_q⁺Φ, q̇ ← q̇ − Φ_q⁺Φ̇, eqs. (17)–(18)). Positions by Newton's method
// on Φ(q, t) = 0 with minimum-norm steps, velocities by one minimum-norm correction of
// Φ̇ = Φ_q q̇ + Φ_t = 0; the minimum-norm δ (and its metric) is the formulation's
// (Formulation::minimum_norm). Used before a run, after accepted steps and at each point
// of a kinematic analysis.
#pragma once

#include <string>

#include "jourdain/component.hpp"
#include "mechanism_system.hpp"

namespace jourdain::mechanical {

class Formulation;

// Newton's method with minimum-norm steps until ‖Φ‖∞ is down to rounding (or stalled
// below `tolerance`); a residual that stops shrinking (along the singular directions of a
// singular configuration) is accepted up to `limit` (≥ tolerance). Writes q through Evals
// in `phase` and leaves me.ws.state evaluated there. Returns the iterations; throws
// SimulationError starting with `failure` and naming the worst equations when it does
// not get below `limit`.
int assemble(const MechanismEval& me, const Formulation& formulation, Eval::Phase phase, double tolerance,
             double limit, const std::string& failure);

// q̇ ← q̇ + δ with Φ_q δ = −Φ̇, δ of least norm; leaves me.ws.state evaluated at the new q̇.
// Returns ‖δ‖.
double project_velocities(const MechanismEval& me, const Formulation& formulation, Eval::Phase phase);

}  // namespace jourdain::mechanical
