// A SUNDIALS linear solver for CVODE's dense Newton matrix M = I − γJ, on Eigen's LU
// factorization with partial pivoting (Eigen::PartialPivLU), in place of SUNDIALS' own
// dense solver (SUNLinSol_Dense). Same method, same pivoting rule; Eigen's factorization
// works on blocks of columns and its triangular solves vectorize, where SUNDIALS' loops
// go column by column: on the 40- to 60-state machines the factorizations and solves were
// a seventh of the run (tests/bench/README.md, "Machine cycles").
//
// The matrix is SUNDIALS' dense one (column-major, as Eigen's default): it is read in
// place. A factorization that meets an exactly zero pivot fails recoverably, as
// SUNLinSol_Dense's does (CVODE then retries with a smaller step).
#pragma once

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>

namespace jourdain::detail {

// A new solver (free it with SUNLinSolFree); nullptr if it cannot be allocated.
SUNLinearSolver eigen_dense_solver(SUNContext sunctx);

}  // namespace jourdain::detail
