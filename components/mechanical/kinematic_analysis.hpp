// Kinematic analysis of a mechanism (README.md, "Other analyses": Newton on
// Φ(q, t) = 0; seed 001: position, velocity and acceleration analysis of a mechanism
// driven in all its degrees of freedom). At each output time: positions by Newton from the
// Taylor extrapolation of the last point, velocities from Φ_q q̇ = −Φ_t; the accelerations
// and multipliers then come from the block's solve() (Φ_q q̈ = γ, M q̈ + Φ_rᵀλ = Q: inverse
// dynamics).
//
// Where Newton finds no pose, a driver may ask for a motion the mechanism cannot make: past
// a limit position (a crank–rocker driven by its rocker beyond a dead centre), the
// equations have no solution. The failure is then located in time by bisection and the
// Jacobian at the last pose reached tells whether a driver's equation is among those that
// lose rank there: the message names the driver, the time and its value at the limit.
#pragma once

#include "mechanism_system.hpp"

namespace jourdain::mechanical {

class Formulation;

// What one point did: the largest correction Newton made to the extrapolated positions,
// and the largest change of a coordinate that the extrapolation itself predicted (both in
// m or rad), which together tell a step along the motion from a jump to another branch.
struct KinematicStep {
  double correction = 0.0;
  double motion = 0.0;
};

// One point at me.ctx.t, `dt` after the last one: q and q̇ of the bodies (Phase::Project),
// me.ws.state evaluated there. `formulation` gives the minimum-norm corrections. Throws
// SimulationError when Newton fails: naming the driver at a limit position, else the
// constraints it could not satisfy.
KinematicStep kinematic_point(const MechanismEval& me, const Formulation& formulation, double dt, double tolerance);

}  // namespace jourdain::mechanical
