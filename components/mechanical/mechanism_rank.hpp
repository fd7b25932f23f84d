// Rank analysis of a mechanism's constraint Jacobian Φ_q (README.md: redundant
// constraints are detected and either reported by name or handled by a pseudo-inverse /
// least-squares option; seed 001's singular configurations). A column-pivoted QR of Φ_qᵀ
// gives the rank and, as the columns left out of its pivoted basis, the equations that
// depend on the others; they are named from the system's row table (RowInfo).
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "mechanism_system.hpp"

namespace jourdain::mechanical {

class Formulation;

// Rank of J (m × n) at the threshold below (0 for no rows).
int jacobian_rank(const Eigen::MatrixXd& J);
// Equations (indices among the m) that depend on the others.
std::vector<int> dependent_equations(const Eigen::MatrixXd& J);

// Rank of Φ_q at the evaluated state: redundant constraints are an error unless
// `formulation` (the one serving ctx.analysis) solves them, when the first assembly warns;
// a kinematic analysis needs exactly as many independent equations as coordinates.
// Throws SimulationError naming the constraints.
void check_rank(const MechanismEval& me, const Formulation& formulation, bool kinematic);

}  // namespace jourdain::mechanical
