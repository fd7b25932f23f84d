// The dense linear solver on Eigen's LU (eigen_dense_solver.hpp).
#include "eigen_dense_solver.hpp"

#include <new>

#include <Eigen/LU>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

namespace jourdain::detail {

namespace {

struct Content {
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  Eigen::VectorXd rhs;          // a copy of b when x and b are one vector
  sunindextype last_flag = 0;  // as SUNLinSol_Dense's: 0, or the failed pivot's column + 1
};

Content& content(SUNLinearSolver S) { return *static_cast<Content*>(S->content); }

Eigen::Map<Eigen::MatrixXd> matrix(SUNMatrix A) {
  return {SUNDenseMatrix_Data(A), static_cast<Eigen::Index>(SUNDenseMatrix_Rows(A)),
          static_cast<Eigen::Index>(SUNDenseMatrix_Columns(A))};
}

Eigen::Map<Eigen::VectorXd> vector(N_Vector v) {
  return {N_VGetArrayPointer(v), static_cast<Eigen::Index>(N_VGetLength(v))};
}

SUNLinearSolver_Type type(SUNLinearSolver) { return SUNLINEARSOLVER_DIRECT; }
SUNLinearSolver_ID id(SUNLinearSolver) { return SUNLINEARSOLVER_CUSTOM; }
int initialize(SUNLinearSolver S) {
  content(S).last_flag = 0;
  return SUNLS_SUCCESS;
}

int setup(SUNLinearSolver S, SUNMatrix A) {
  Content& c = content(S);
  c.lu.compute(matrix(A));
  // PartialPivLU divides by a zero pivot without saying so: look for one.
  const auto diagonal = c.lu.matrixLU().diagonal();
  for (Eigen::Index k = 0; k < diagonal.size(); ++k)
    if (diagonal[k] == 0.0) {
      c.last_flag = static_cast<sunindextype>(k + 1);
      return SUNLS_LUFACT_FAIL;
    }
  c.last_flag = 0;
  return SUNLS_SUCCESS;
}

int solve(SUNLinearSolver S, SUNMatrix, N_Vector x, N_Vector b, realtype) {
  Content& c = content(S);
  auto xv = vector(x);
  if (N_VGetArrayPointer(x) == N_VGetArrayPointer(b)) {
    c.rhs = xv;
    xv = c.lu.solve(c.rhs);
  } else {
    xv = c.lu.solve(vector(b));
  }
  c.last_flag = 0;
  return SUNLS_SUCCESS;
}

sunindextype last_flag(SUNLinearSolver S) { return content(S).last_flag; }

int free_solver(SUNLinearSolver S) {
  if (!S) return SUNLS_SUCCESS;
  delete static_cast<Content*>(S->content);
  S->content = nullptr;
  SUNLinSolFreeEmpty(S);
  return SUNLS_SUCCESS;
}

}  // namespace

SUNLinearSolver eigen_dense_solver(SUNContext sunctx) {
  SUNLinearSolver S = SUNLinSolNewEmpty(sunctx);
  if (!S) return nullptr;
  S->content = new (std::nothrow) Content;
  if (!S->content) {
    SUNLinSolFreeEmpty(S);
    return nullptr;
  }
  S->ops->gettype = type;
  S->ops->getid = id;
  S->ops->initialize = initialize;
  S->ops->setup = setup;
  S->ops->solve = solve;
  S->ops->lastflag = last_flag;
  S->ops->free = free_solver;
  return S;
}

}  // namespace jourdain::detail
