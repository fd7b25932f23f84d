// CVODE BDF's three linear-algebra paths (solvers/src/cvode.cpp) and the Jacobian
// pattern they rest on (Model::jacobian_pattern): the pattern holds every nonzero of a
// finite-difference Jacobian; the sparse path (column groups + KLU) and the matrix-free
// one (GMRES) reach the same solutions as the dense Jacobian, each checked against an
// independent reference (the modal solution of a linear spring chain; the rigid
// pendulum's equation in its one angle).
#include <algorithm>
#include <cmath>
#include <complex>

#include <Eigen/Eigenvalues>

#include "../bench/chain_netlist.hpp"
#include "../bench/pendulum_reference.hpp"
#include "../bench/spring_chain_netlist.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;

namespace {

// N masses (1 kg) in a line, each tied to the one before (the first to a wall) by a
// spring k and a damper c: a banded Jacobian of 2N states.
struct SpringChain {
  int n = 20;
  double k = 1e4, c = 2.0;
  double x0(int i) const { return 0.01 * std::sin(1.3 * i); }  // m, not a mode shape: every mode moves

  std::string netlist(const std::string& solver) const {
    jourdain::bench::SpringChainOptions o;
    o.stiffness = k;
    o.damping = c;
    o.initial_x = [this](long i) { return x0(static_cast<int>(i)); };
    o.solver = solver;
    o.record_all = true;
    return jourdain::bench::make_spring_chain_netlist(n, o);
  }

  // The exact positions at time t: x' = A x with x = (positions, velocities), A =
  // [0 I; -K -C] (K, C the tridiagonal stiffness and damping matrices of a chain fixed
  // at one end, free at the other), solved by A's eigendecomposition.
  Eigen::VectorXd positions(double t) const {
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
    A.topRightCorner(n, n).setIdentity();
    for (int i = 0; i < n; ++i) {
      const double springs = i + 1 < n ? 2.0 : 1.0;  // the last mass has one neighbour
      A(n + i, i) = -springs * k;
      A(n + i, n + i) = -springs * c;
      if (i > 0) A(n + i, i - 1) = k, A(n + i, n + i - 1) = c;
      if (i + 1 < n) A(n + i, i + 1) = k, A(n + i, n + i + 1) = c;
    }
    Eigen::VectorXd start = Eigen::VectorXd::Zero(2 * n);
    for (int i = 0; i < n; ++i) start[i] = x0(i + 1);
    Eigen::EigenSolver<Eigen::MatrixXd> eig(A);
    const Eigen::MatrixXcd V = eig.eigenvectors();
    const Eigen::VectorXcd modes = V.partialPivLu().solve(start.cast<std::complex<double>>());
    Eigen::VectorXcd growth(2 * n);
    for (int j = 0; j < 2 * n; ++j) growth[j] = std::exp(eig.eigenvalues()[j] * t) * modes[j];
    return (V * growth).real().head(n);
  }
};

// The largest difference between the recorded positions at the last row and the exact ones.
double end_error(const RunResult& r, const SpringChain& chain, double t_end) {
  const Eigen::VectorXd exact = chain.positions(t_end);
  double worst = 0.0;
  for (int i = 1; i <= chain.n; ++i) {
    worst = std::max(worst, std::abs(r.column(jourdain::bench::spring_chain_mass_name(i) + ".x").back() - exact[i - 1]));
  }
  return worst;
}

bool in_row(const Model::JacobianPattern& p, int row, int column) {
  auto begin = p.columns.begin() + p.row_begin[row], end = p.columns.begin() + p.row_begin[row + 1];
  return std::binary_search(begin, end, column);
}

// Every entry of the central-difference Jacobian that is not zero lies in the pattern.
void check_pattern_holds_the_jacobian(const Model& model, const Model::JacobianPattern& p) {
  const int n = model.state_count();
  REQUIRE(static_cast<int>(p.row_begin.size()) == n + 1);
  Context ctx = model.make_context(0.0);
  Eigen::VectorXd x = ctx.x;
  for (int j = 0; j < n; ++j) x[j] += 0.01 * std::cos(3.0 * j);  // away from the symmetric start
  for (int j = 0; j < n; ++j) {
    Eigen::VectorXd up = x, down = x;
    up[j] += 1e-6;
    down[j] -= 1e-6;
    model.derivatives(ctx, 0.0, up);
    const Eigen::VectorXd f_up = ctx.xdot;
    model.derivatives(ctx, 0.0, down);
    const Eigen::VectorXd column = (f_up - ctx.xdot) / 2e-6;
    for (int i = 0; i < n; ++i)
      if (column[i] != 0.0) {
        CAPTURE(i);
        CAPTURE(j);
        CHECK(in_row(p, i, j));
      }
  }
}

}  // namespace

TEST_CASE("Model::jacobian_pattern holds every nonzero of the Jacobian: banded for a spring chain, dense for a mechanism") {
  SUBCASE("spring chain") {
    SpringChain chain;
    chain.n = 8;
    Netlist net = jourdain::test::load(chain.netlist(R"({"method": "bdf"})"));
    const auto p = net.model.jacobian_pattern();
    check_pattern_holds_the_jacobian(net.model, p);
    // A mass's derivatives read its own states and its neighbours' through the spring and
    // the damper: at most 3 masses × (x, v).
    int widest = 0;
    for (int i = 0; i < net.model.state_count(); ++i) widest = std::max(widest, p.row_begin[i + 1] - p.row_begin[i]);
    CHECK(widest <= 6);
  }
  SUBCASE("pendulum chain") {
    Netlist net = jourdain::test::load(jourdain::bench::make_chain_netlist(3));
    const auto p = net.model.jacobian_pattern();
    check_pattern_holds_the_jacobian(net.model, p);
    // Every acceleration depends on every coordinate through the constraint forces (one
    // implicit block): the velocity rows are full.
    const int n = net.model.state_count();
    int full_rows = 0;
    for (int i = 0; i < n; ++i) full_rows += p.row_begin[i + 1] - p.row_begin[i] == n;
    CHECK(full_rows >= n / 2);
  }
}

TEST_CASE("bdf: the sparse Jacobian by column groups (KLU) matches the dense one, with fewer evaluations") {
  SpringChain chain;  // 40 states: above dense_jacobian_max_states' default, so the sparse path by default
  const double t_end = 0.5;
  // Both by differences of the whole model (the grouping is what is tested).
  const std::string solver = R"({"method": "bdf", "t_end": 0.5, "rtol": 1e-8, "atol": 1e-11, "output_interval": 0.05, )"
                             R"("jacobian_by_components": 0)";
  RunResult dense = jourdain::test::run(chain.netlist(solver + R"(, "dense_jacobian_max_states": 1000})"));
  RunResult sparse = jourdain::test::run(chain.netlist(solver + "}"));
  REQUIRE(dense.finished);
  REQUIRE(sparse.finished);
  const double dense_error = end_error(dense, chain, t_end), sparse_error = end_error(sparse, chain, t_end);
  MESSAGE("dense: " << dense.stats.steps << " steps, " << dense.stats.rhs_evaluations << " rhs, error " << dense_error
                    << "; sparse: " << sparse.stats.steps << " steps, " << sparse.stats.rhs_evaluations << " rhs, error "
                    << sparse_error);
  // Amplitudes of 1 cm, frequencies up to 2√k ≈ 200 rad/s, so about 16 periods of the fastest
  // mode in 0.5 s: BDF's global error grows to some hundred times the local tolerance
  // (1e-8 × 1 cm = 1e-10 m; measured: 3e-9 m on either path): 3e-8 m bounds both.
  CHECK(dense_error < 3e-8);
  CHECK(sparse_error < 3e-8);
  CHECK(sparse.stats.jacobian_evaluations > 0);
  // The dense Jacobian costs 40 evaluations, the grouped one about the band width (6).
  CHECK(sparse.stats.rhs_evaluations < dense.stats.rhs_evaluations);
}

TEST_CASE("bdf: the Jacobian by components reaches the same solution as the whole model's, without its evaluations") {
  SpringChain chain;
  const double t_end = 0.5;
  const std::string solver = R"({"method": "bdf", "t_end": 0.5, "rtol": 1e-8, "atol": 1e-11, "output_interval": 0.05)";
  for (const char* path : {"dense", "sparse"}) {
    CAPTURE(path);
    const std::string size = std::string(path) == "dense" ? R"(, "dense_jacobian_max_states": 1000)" : "";
    RunResult whole = jourdain::test::run(chain.netlist(solver + size + R"(, "jacobian_by_components": 0})"));
    RunResult parts = jourdain::test::run(chain.netlist(solver + size + "}"));
    REQUIRE(whole.finished);
    REQUIRE(parts.finished);
    const double whole_error = end_error(whole, chain, t_end), parts_error = end_error(parts, chain, t_end);
    MESSAGE(path << ": whole model " << whole.stats.rhs_evaluations << " rhs, error " << whole_error << "; by components "
                 << parts.stats.rhs_evaluations << " rhs + " << parts.stats.jacobian_hook_calls << " hook calls, error "
                 << parts_error);
    // The same bound as the paths above: both estimate the same Jacobian.
    CHECK(parts_error < 3e-8);
    CHECK(whole.stats.jacobian_hook_calls == 0);
    CHECK(parts.stats.jacobian_hook_calls > 0);
    // The Jacobians cost no right-hand sides (40 each for the dense whole-model one, 6 for
    // the grouped one): fewer in all, with about as many steps.
    CHECK(parts.stats.rhs_evaluations < whole.stats.rhs_evaluations);
  }
}

TEST_CASE("bdf: GMRES (no matrix) on a mechanism matches the rigid pendulum's equation and the dense Jacobian") {
  // One rod (1 m, 1 kg) pinned at an end, released horizontal: θ'' = −(3g / 2L) cos θ, θ
  // from the horizontal (pivot inertia m L²/3, gravity's torque m g L/2 cos θ).
  jourdain::bench::ChainOptions o;
  o.method = "bdf";
  o.t_end = 2.0;
  o.rtol = 1e-9;
  o.atol = 1e-11;
  o.output_interval = 0.1;
  const std::string text = jourdain::bench::make_chain_netlist(1, o);
  Netlist net = jourdain::test::load(text);
  RunOptions krylov_options, dense_options;
  krylov_options.keep_rows = dense_options.keep_rows = true;
  krylov_options.solver = {{"dense_jacobian_max_states", 0}, {"gmres_min_states", 0}};
  dense_options.solver = {{"dense_jacobian_max_states", 1000}};
  RunResult krylov = run_netlist(net, krylov_options), dense = run_netlist(net, dense_options);
  REQUIRE(krylov.finished);
  REQUIRE(dense.finished);
  // The reference: the rod's equation in its one angle, RK4 at 1e-5 s (error ~ h⁴, far below 1e-10).
  const double theta = jourdain::bench::rod_pendulum_angle(2.0, 1e-5);
  const double krylov_error = std::abs(krylov.column("link000001.theta").back() - theta);
  const double dense_error = std::abs(dense.column("link000001.theta").back() - theta);
  MESSAGE("theta(2 s) = " << theta << "; krylov error " << krylov_error << " (" << krylov.stats.steps
                          << " steps), dense error " << dense_error << " (" << dense.stats.steps << " steps)");
  // The pendulum swings through about 3 rad in 2 s; BDF at rtol 1e-9 keeps the angle within
  // some hundred local tolerances (1e-9 rad), and the Baumgarte-stabilised constraint drift
  // (α = β = 10) adds less than that: 3e-7 rad bounds both paths (measured: 2e-8 with GMRES,
  // 4e-9 with the dense Jacobian).
  CHECK(krylov_error < 3e-7);
  CHECK(dense_error < 3e-7);
  // GMRES builds no Jacobian matrix; the dense path does.
  CHECK(krylov.stats.jacobian_evaluations == 0);
  CHECK(dense.stats.jacobian_evaluations > 0);
}
