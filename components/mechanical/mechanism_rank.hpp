// Rank analysis of a mechanism's constraint Jacobian Φ_q (README.md: redundant
// constraints are detected and either reported by name or handled by a least-squares
// option; seed 001's singular configurations). A column-pivoted QR of Φ_qᵀ gives the rank
// and, as the columns left out of its pivoted basis, the equations that depend on the
// others; they are named from the system's row table (RowInfo).
//
// A rank deficiency at the assembled pose is either structural, the same at every pose
// (a duplicated joint, two drivers on one degree of freedom, a kinematic analysis with
// degrees of freedom left: bad input), or a property of that pose alone (the mechanism
// starts in a singular configuration). check_structure() tells them apart by moving the
// mechanism a little along its free directions and assembling it again there: a
// structural deficiency stays.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "mechanism_jacobian.hpp"
#include "mechanism_system.hpp"

namespace jourdain::mechanical {

class Formulation;

// Rank of J (m × n) at the threshold below (0 for no rows).
int jacobian_rank(const Eigen::MatrixXd& J);
// Whether Φ_q has full row rank by its structure. When the equations' pairs of bodies form
// a forest (PairForest, as for ConstraintTree), each pair's equations act on a body, its
// child, that only its own equations and those of pairs further out touch. Ordered from
// the root outwards, Φ_q is then block lower-triangular with the equations' parts on their
// child bodies on the diagonal, and it has full row rank when each of those small blocks
// (at most 3 × 3) has: the last block's equations are the only ones on its child's
// columns, and so on inwards. Each block is judged with its rows scaled to their
// equation's whole row, independent when its smallest singular value is above 1e-6; a
// block below that, an equation on three bodies, or a loop leave the question to
// jacobian_rank's factorizations. Linear in the equations.
bool forest_has_full_row_rank(const SparseJacobian& J);
// Whether Φ_q has full row rank with a margin, for mechanisms with loops: a sparse QR of
// Φ_qᵀ in a fill-reducing order (COLAMD), which sets aside every equation whose part left
// by the ones before it is small. An equation that depends on others leaves a part at
// rounding level; an independent one at a regular pose keeps a part of the order of its
// norm. Without pivoting on norms the parts only bound the smallest singular value from
// above, so "full rank" is trusted only with a margin of 1000 over the dense QR's
// threshold (rank_threshold times the largest row norm, as the dense QR scales it);
// anything less (a redundant joint, a singular or near-singular pose) is left to the
// dense pivoted QR. Eigen's sparse QR grows faster than linearly (measured on chains,
// which the forest test spares it: 0.6 s at 1000 links, 75 s at 5000), still far below
// the dense QR's cube (4.6 s at 1000 links, over 10 min at 5000).
bool sparse_qr_has_full_row_rank(const SparseJacobian& J);
// Rank of the system's Φ_q at the pose s holds. Full rank is told cheaply when it is
// plain: by forest_has_full_row_rank, else by a sparse QR; the dense QR runs only when
// they leave it in doubt (a redundant joint, a singular pose), and decides.
int jacobian_rank(const MechanismSystem& system, const SystemState& s);
// Equations (indices among the m) that depend on the others.
std::vector<int> dependent_equations(const Eigen::MatrixXd& J);

// What the rank of Φ_q says about the mechanism, at its assembled pose (me evaluated there).
struct Structure {
  int rank = 0;
  std::vector<int> redundant;  // equations that depend on the others at every pose
  bool singular_start = false;  // rank lost at this pose only: a singular configuration
};

// Throws InputError naming the netlist, the JSON path and the components for redundant
// constraints unless `solve_redundant` (world.constraints.redundant = "least_squares", for
// the formulation serving ctx.analysis), and for a kinematic analysis with no drivers or
// with degrees of freedom left; warns once that redundant constraints are solved.
// `corrections` assembles the nearby poses it tries (to `tolerance`): one that takes
// Φ_q of any rank. Leaves me as given.
Structure check_structure(const MechanismEval& me, const Formulation& corrections, bool solve_redundant, bool kinematic,
                          double tolerance);

}  // namespace jourdain::mechanical
