// bdf's dense linear solver on Eigen's LU (solvers/src/eigen_dense_solver.hpp), against
// SUNDIALS' own dense solver (SUNLinSol_Dense) on the same SUNDIALS matrices: the same
// solutions to rounding, the same answer for a singular matrix (a recoverable failure
// naming the column), and a solve whose x and b are one vector.
#include <random>

#include <Eigen/Core>
#include <Eigen/LU>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "../../solvers/src/eigen_dense_solver.hpp"
#include "jourdain_test.hpp"

namespace {

Eigen::Map<Eigen::VectorXd> view(N_Vector v) { return {N_VGetArrayPointer(v), N_VGetLength(v)}; }
Eigen::Map<Eigen::MatrixXd> view(SUNMatrix A) {
  return {SUNDenseMatrix_Data(A), SUNDenseMatrix_Rows(A), SUNDenseMatrix_Columns(A)};
}

// SUNDIALS objects for one n×n system, freed at the end.
struct System {
  explicit System(int n) {
    SUNContext_Create(nullptr, &sun);
    A = SUNDenseMatrix(n, n, sun);
    copy = SUNDenseMatrix(n, n, sun);
    b = N_VNew_Serial(n, sun);
    x = N_VNew_Serial(n, sun);
    ours = jourdain::detail::eigen_dense_solver(sun);
    theirs = SUNLinSol_Dense(b, copy, sun);
  }
  ~System() {
    SUNLinSolFree(ours);
    SUNLinSolFree(theirs);
    N_VDestroy(b);
    N_VDestroy(x);
    SUNMatDestroy(A);
    SUNMatDestroy(copy);
    SUNContext_Free(&sun);
  }
  SUNContext sun = nullptr;
  SUNMatrix A = nullptr, copy = nullptr;  // each solver factors its own in place
  N_Vector b = nullptr, x = nullptr;
  SUNLinearSolver ours = nullptr, theirs = nullptr;
};

}  // namespace

TEST_CASE("eigen_dense_solver: a direct solver of its own kind") {
  System s(3);
  REQUIRE(s.ours != nullptr);
  CHECK(SUNLinSolGetType(s.ours) == SUNLINEARSOLVER_DIRECT);
  CHECK(SUNLinSolGetID(s.ours) == SUNLINEARSOLVER_CUSTOM);
  CHECK(SUNLinSolInitialize(s.ours) == SUNLS_SUCCESS);
}

TEST_CASE("eigen_dense_solver: the solutions of SUNDIALS' dense LU, to rounding") {
  // A Newton matrix's shape, I − γJ with a J of mixed scales, as CVODE hands it over.
  const int n = 40;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd J(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) J(i, j) = u(random) * std::pow(10.0, (i % 5) - (j % 3));
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(n, n) - 0.05 * J;
  Eigen::VectorXd rhs(n);
  for (int i = 0; i < n; ++i) rhs[i] = u(random);

  System s(n);
  view(s.A) = M;
  view(s.copy) = M;
  REQUIRE(SUNLinSolInitialize(s.ours) == SUNLS_SUCCESS);
  REQUIRE(SUNLinSolInitialize(s.theirs) == SUNLS_SUCCESS);
  REQUIRE(SUNLinSolSetup(s.ours, s.A) == SUNLS_SUCCESS);
  REQUIRE(SUNLinSolSetup(s.theirs, s.copy) == SUNLS_SUCCESS);
  view(s.b) = rhs;
  REQUIRE(SUNLinSolSolve(s.ours, s.A, s.x, s.b, 0.0) == SUNLS_SUCCESS);
  const Eigen::VectorXd ours = view(s.x);
  REQUIRE(SUNLinSolSolve(s.theirs, s.copy, s.x, s.b, 0.0) == SUNLS_SUCCESS);
  const Eigen::VectorXd theirs = view(s.x);
  // Both are backward stable: each residual is rounding of ‖M‖‖x‖, and the two solutions
  // differ by at most the condition number times that.
  const double scale = M.cwiseAbs().rowwise().sum().maxCoeff() * ours.cwiseAbs().maxCoeff();
  CHECK((M * ours - rhs).cwiseAbs().maxCoeff() <= 1e-13 * scale);
  CHECK((M * theirs - rhs).cwiseAbs().maxCoeff() <= 1e-13 * scale);
  const double condition = M.norm() * M.inverse().norm();
  CHECK((ours - theirs).cwiseAbs().maxCoeff() <= 1e-14 * condition * theirs.cwiseAbs().maxCoeff());

  // x and b one vector: the same solution.
  view(s.x) = rhs;
  REQUIRE(SUNLinSolSolve(s.ours, s.A, s.x, s.x, 0.0) == SUNLS_SUCCESS);
  CHECK(view(s.x) == ours);
}

TEST_CASE("eigen_dense_solver: a singular matrix fails recoverably, naming its column, as SUNDIALS' does") {
  const int n = 5;
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(n, n) + 0.1 * Eigen::MatrixXd::Ones(n, n);
  M.col(2).setZero();  // the third column: no pivot there
  System s(n);
  view(s.A) = M;
  view(s.copy) = M;
  const int ours = SUNLinSolSetup(s.ours, s.A), theirs = SUNLinSolSetup(s.theirs, s.copy);
  CHECK(ours == SUNLS_LUFACT_FAIL);
  CHECK(ours == theirs);
  CHECK(ours > 0);  // recoverable: CVODE retries with a smaller step
  CHECK(SUNLinSolLastFlag(s.ours) == 3);
  CHECK(SUNLinSolLastFlag(s.ours) == SUNLinSolLastFlag(s.theirs));
}
