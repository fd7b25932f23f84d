// Static analysis of a mechanism (README.md; seed 001's static equilibrium): q with
// Φ(q, t) = 0 and no acceleration at rest, M q̈(q) = 0 with q̇ = 0, where q̈(q) is what
// the block's solve() gives (with γ = 0 and no Baumgarte terms in a static analysis).
#pragma once

#include <functional>
#include <string>

#include "jourdain/component.hpp"
#include "mechanism_system.hpp"

namespace jourdain::mechanical {

// Sets q̇ = 0 and q at an equilibrium near the current pose at me.ctx.t, through Evals in
// `phase`; `solve` evaluates the block at the bodies' current q (the coordinator's
// solve()). Throws SimulationError naming `name` (the mechanism) when there is none.
void find_equilibrium(const MechanismEval& me, Eval::Phase phase, const std::function<void()>& solve,
                      const std::string& name);

}  // namespace jourdain::mechanical
