// Integration with SUNDIALS CVODE, two methods sharing one driver, both with CVODE's own
// root finding for the zero crossings (the successor of the LSODAR family that seed 000
// used) and outputs from CVODE's interpolant (CV_NORMAL at each output time):
//   bdf    for stiff models: variable-order (1–5) BDF, Newton iterations;
//   adams  for smooth non-stiff models at tight tolerances: variable-order (1–12)
//          Adams–Moulton, its corrector iterated to convergence by fixed-point (functional)
//          iteration, no Jacobian; about two evaluations per step at orders that let the
//          steps grow long (Hindmarsh et al. 2005, "SUNDIALS: Suite of nonlinear and
//          differential/algebraic equation solvers", §2.1). CVODE projects only with BDF:
//          with adams a model that projects after steps (a mechanism) runs without, the
//          run's warnings say so, and a mechanism that passes a singular configuration,
//          which only projection follows, stops the run (Context::steps_projected).
//
// bdf's Newton iterations solve (I − γJ) δ = r, J = ∂f/∂x, one of three ways (LinearPath):
//   dense   a dense J and LU: the fastest for small models, O(n³) per factorization;
//   sparse  the model's Jacobian pattern (Model::jacobian_pattern, from its graph) and
//           SuiteSparse's KLU, whose symbolic analysis is kept as the pattern never
//           changes: the pattern comes from the graph, not from values, so events (which
//           change discrete states, never the graph) cannot make it wrong;
//   krylov  for large models whose Jacobian is dense (a mechanism: every acceleration
//           depends on every coordinate through the constraint forces), no matrix at all:
//           GMRES on products Jv, each one evaluation of f (CVODE's difference quotient),
//           unpreconditioned (Brown & Hindmarsh 1989, "Reduced storage matrix methods
//           in stiff ODE systems").
// The matrix of the first two is the whole model's difference quotients taken by cones
// (jacobian.hpp: each column evaluates only the components its state reaches, the same
// matrix for a fraction of the hook calls), or, with jacobian_by_components 0, by
// evaluations of the whole model: CVODE's dense quotients (one per state), or for the
// sparse path one per group of columns that share no row (a greedy colouring of the column
// intersection graph, Boost.Graph; Curtis, Powell & Reid 1974, "On the estimation of
// sparse Jacobian matrices").
// Which one runs: dense up to dense_jacobian_max_states states; above, sparse when the
// pattern fills at most half the matrix (by components) or the grouping needs at most half
// as many evaluations as there are states (whole model); else krylov from
// gmres_min_states states on (see kGmresMinStates), dense below
// (tests/bench/README.md, bench_bdf, measures where each pays).
#include <cvode/cvode.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <algorithm>
#include <cfloat>
#include <limits>
#include <cmath>
#include <exception>
#include <memory>
#include <optional>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/sequential_vertex_coloring.hpp>

#include "eigen_dense_solver.hpp"
#include "internal.hpp"
#include "jourdain/jacobian.hpp"
#include "jourdain/zero_crossing_evaluation.hpp"

namespace jourdain::detail {

namespace {

// Where the paths pay (tests/bench/README.md, bench_bdf: the 1D chain of stiff springs
// and the pendulum chain): the dense Jacobian up to this many states, ...
constexpr long kDenseJacobianMaxStates = 16;
// ... GMRES from this many states on when the Jacobian is dense: it pays from about 100
// states (7 times faster than the dense Jacobian on the 384-state pendulum chain at rtol
// 1e-8; 4 times on netlists/n_four_bar.json, 486 states) and follows the motion as closely:
// on n_four_bar.json B0 ends 2.4e-5 to 6.8e-5 m off at rtol 1e-8 and 5.4e-6 to 1.8e-5 m
// at 1e-9, against 5e-5 to 1.2e-4 m and 2.3e-6 to 1.9e-5 m with the dense Jacobian (six
// runs each, atol changed by a few rounding units: bdf's own error lands anywhere in such
// a range as its step sequence changes).
constexpr long kGmresMinStates = 100;

enum class LinearPath { Dense, Sparse, Krylov };

// The Jacobian's pattern by columns (compressed sparse column, as SUNDIALS' sparse
// matrices and KLU take it) and the groups of columns estimated by one evaluation each.
struct ColumnGroups {
  std::vector<sunindextype> column_begin, rows;
  std::vector<std::vector<int>> groups;
};

// Columns that share a row conflict; greedy colouring in the natural order (for a banded
// pattern this gives about the band width in colours).
std::vector<std::vector<int>> group_columns(int n, const Model::JacobianPattern& p) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Graph g(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    for (int a = p.row_begin[i]; a < p.row_begin[i + 1]; ++a)
      for (int b = a + 1; b < p.row_begin[i + 1]; ++b) boost::add_edge(p.columns[a], p.columns[b], g);
  std::vector<int> colour(static_cast<size_t>(n));
  auto map = boost::make_iterator_property_map(colour.begin(), boost::get(boost::vertex_index, g));
  const int count = static_cast<int>(boost::sequential_vertex_coloring(g, map));
  std::vector<std::vector<int>> groups(static_cast<size_t>(count));
  for (int j = 0; j < n; ++j) groups[colour[j]].push_back(j);
  return groups;
}

// The path for a model of n states (see the file comment), with the groups of the
// sparse one.
// `by_components`: the Jacobian is taken by cones (ComponentJacobian), whose cost does not
// depend on a grouping: the sparse path is taken when the pattern fills at most half of
// the matrix, where KLU's factorization costs less than dense LU's.
LinearPath choose_linear_path(const Model& model, long dense_max, long gmres_min, bool by_components,
                              ColumnGroups& out) {
  const int n = model.state_count();
  if (n <= dense_max) return LinearPath::Dense;
  const LinearPath otherwise = n >= gmres_min ? LinearPath::Krylov : LinearPath::Dense;
  Model::JacobianPattern p = model.jacobian_pattern();
  std::vector<std::vector<int>> groups;
  if (by_components) {
    if (2L * static_cast<long>(p.columns.size()) > static_cast<long>(n) * n) return otherwise;
  } else {
    // Every column of a row needs its own group: a row with more than n/2 entries already
    // rules the grouping out (and its n² conflicts need not be built).
    int widest = 0;
    for (int i = 0; i < n; ++i) widest = std::max(widest, p.row_begin[i + 1] - p.row_begin[i]);
    if (2L * widest > n) return otherwise;
    groups = group_columns(n, p);
    if (2L * static_cast<long>(groups.size()) > n) return otherwise;
  }
  // Transpose to columns; each column keeps its diagonal entry (CVODE adds I to the
  // matrix in place, which needs the diagonal stored).
  std::vector<std::vector<int>> by_column(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    bool diagonal = false;
    for (int k = p.row_begin[i]; k < p.row_begin[i + 1]; ++k) {
      by_column[p.columns[k]].push_back(i);
      diagonal = diagonal || p.columns[k] == i;
    }
    if (!diagonal) by_column[i].push_back(i);
  }
  out.column_begin.assign(1, 0);
  out.rows.clear();
  for (auto& rows : by_column) {
    std::sort(rows.begin(), rows.end());
    out.rows.insert(out.rows.end(), rows.begin(), rows.end());
    out.column_begin.push_back(static_cast<sunindextype>(out.rows.size()));
  }
  out.groups = std::move(groups);
  return LinearPath::Sparse;
}

struct CvodeRun {
  const Model& model;
  Context& ctx;
  SolverStats& stats;
  int n;                     // states handed to CVODE (at least 1)
  bool dummy;                // a model without states gets one constant dummy state
  std::exception_ptr error;  // first unrecoverable exception from a callback
  std::string message;       // CVODE's last error message
  Eigen::VectorXd x;
  void* mem = nullptr;       // CVODE's, for the Jacobian's increments
  ColumnGroups columns;      // the sparse path's pattern and groups
  std::unique_ptr<ComponentJacobian> assembler;  // the Jacobian by components, when used
  std::optional<ZeroCrossingEvaluation> crossings;  // the root function, when there are zero crossings
};

Eigen::Map<Eigen::VectorXd> view(N_Vector v) {
  return Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(v), N_VGetLength(v));
}

// Runs a callback's work; an exception is kept for after CVODE returns. A non-finite
// value is recoverable (CVODE retries with a smaller step); keep the latest one: if CVODE
// gives up, it is the one nearest to where the values stop being finite.
template <class Work>
int guarded(CvodeRun& run, Work&& work) {
  try {
    work();
    return 0;
  } catch (const NonFiniteError&) {
    run.error = std::current_exception();
    return 1;
  } catch (...) {
    run.error = std::current_exception();
    return -1;
  }
}

int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* data) {
  auto& run = *static_cast<CvodeRun*>(data);
  return guarded(run, [&] {
    auto dv = view(ydot);
    ++run.stats.rhs_evaluations;
    if (run.dummy) {
      run.model.derivatives(run.ctx, t, Eigen::VectorXd());
      dv.setZero();
    } else {
      // CVODE's steps are its own: the whole evaluation, every value checked, so that a
      // NaN is met where it appears (the explicit methods' stages are Model::derivatives,
      // their steps checked whole: explicit_driver.cpp).
      run.ctx.t = t;
      run.ctx.x = run.x = view(y);
      run.model.evaluate(run.ctx);
      dv = run.ctx.xdot;
    }
  });
}

// The increments of CVODE's own dense difference quotients (cvLsDenseDQJac):
// max(√u |x_j|, m / w_j) with w the error weights and m = 1000 |h| u n ‖f‖_w (or 1 when
// f = 0), so that every path estimates the same Jacobian.
Eigen::VectorXd increments(CvodeRun& run, N_Vector y, N_Vector fy, N_Vector weights) {
  CVodeGetErrWeights(run.mem, weights);
  sunrealtype h = 0.0;
  CVodeGetCurrentStep(run.mem, &h);
  const auto x0 = view(y), w = view(weights);
  const double root_u = std::sqrt(DBL_EPSILON);
  const double fnorm = N_VWrmsNorm(fy, weights);
  const double min_inc = fnorm != 0.0 ? 1000.0 * std::abs(h) * DBL_EPSILON * run.n * fnorm : 1.0;
  Eigen::VectorXd inc(run.n);
  for (int j = 0; j < run.n; ++j) inc[j] = std::max(root_u * std::abs(x0[j]), min_inc / w[j]);
  return inc;
}

// The sparse Jacobian's pattern handed to CVODE's matrix (KLU keeps its analysis).
sunrealtype* sparse_values(const ColumnGroups& cg, SUNMatrix J) {
  std::copy(cg.column_begin.begin(), cg.column_begin.end(), SUNSparseMatrix_IndexPointers(J));
  std::copy(cg.rows.begin(), cg.rows.end(), SUNSparseMatrix_IndexValues(J));
  return SUNSparseMatrix_Data(J);
}

// The sparse Jacobian by whole-model differences, one evaluation of f per group of columns.
int sparse_jacobian(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void* data, N_Vector weights, N_Vector,
                    N_Vector) {
  auto& run = *static_cast<CvodeRun*>(data);
  return guarded(run, [&] {
    const ColumnGroups& cg = run.columns;
    sunrealtype* values = sparse_values(cg, J);
    const Eigen::VectorXd inc = increments(run, y, fy, weights);
    const auto x0 = view(y), f0 = view(fy);
    for (const auto& group : cg.groups) {
      run.x = x0;
      for (int j : group) run.x[j] += inc[j];
      ++run.stats.rhs_evaluations;
      run.model.derivatives(run.ctx, t, run.x);
      for (int j : group)
        for (sunindextype k = cg.column_begin[j]; k < cg.column_begin[j + 1]; ++k)
          values[k] = (run.ctx.xdot[cg.rows[k]] - f0[cg.rows[k]]) / inc[j];
    }
  });
}

// The Jacobian by components (jacobian.hpp) at the point CVODE gives, against f there:
// ctx is evaluated at it first (a right-hand side, counted as one), whatever it last held
// (the root function may have left this very point's outputs with older derivatives).
// The cones' hook calls are counted apart (SolverStats::jacobian_hook_calls).
const ComponentJacobian& component_jacobian(CvodeRun& run, sunrealtype t, N_Vector y, N_Vector fy, N_Vector weights) {
  const Eigen::VectorXd inc = increments(run, y, fy, weights);
  run.x = view(y);
  ++run.stats.rhs_evaluations;
  run.model.derivatives(run.ctx, t, run.x);
  const long before = run.assembler->calls();
  run.assembler->assemble(run.ctx, inc);
  run.stats.jacobian_hook_calls += run.assembler->calls() - before;
  return *run.assembler;
}

int dense_component_jacobian(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void* data, N_Vector weights,
                             N_Vector, N_Vector) {
  auto& run = *static_cast<CvodeRun*>(data);
  return guarded(run, [&] {
    const ComponentJacobian& jac = component_jacobian(run, t, y, fy, weights);
    SUNMatZero(J);
    for (int j = 0; j < run.n; ++j) {
      sunrealtype* column = SUNDenseMatrix_Column(J, j);
      for (const auto& [i, v] : jac.column(j)) column[i] = v;
    }
  });
}

int sparse_component_jacobian(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void* data, N_Vector weights,
                              N_Vector, N_Vector) {
  auto& run = *static_cast<CvodeRun*>(data);
  return guarded(run, [&] {
    const ComponentJacobian& jac = component_jacobian(run, t, y, fy, weights);
    const ColumnGroups& cg = run.columns;
    sunrealtype* values = sparse_values(cg, J);
    std::fill(values, values + cg.rows.size(), 0.0);
    // The pattern holds every entry a cone can make (both follow the declared reads); both
    // lists are sorted by row.
    for (int j = 0; j < run.n; ++j) {
      sunindextype k = cg.column_begin[j];
      for (const auto& [i, v] : jac.column(j)) {
        while (k < cg.column_begin[j + 1] && cg.rows[k] < i) ++k;
        if (k < cg.column_begin[j + 1] && cg.rows[k] == i) values[k] = v;
      }
    }
  });
}

int roots(sunrealtype t, N_Vector y, sunrealtype* g, void* data) {
  auto& run = *static_cast<CvodeRun*>(data);
  try {
    ++run.stats.zero_crossing_evaluations;
    run.x = run.dummy ? Eigen::VectorXd() : Eigen::VectorXd(view(y));
    run.crossings->evaluate(run.ctx, t, run.x);
    for (int i = 0; i < run.model.zero_crossing_count(); ++i) g[i] = run.ctx.zero_crossings[i];
    return 0;
  } catch (...) {
    run.error = std::current_exception();
    return -1;
  }
}

// Projection after each accepted step (models whose block solvers keep invariants, such
// as a mechanism's constraints): CVODE asks for the correction that puts y back.
// The projection reads the states and the blocks' solves, observe() the same: the outputs
// alone are evaluated, before and after (counted as one right-hand side, as a whole
// evaluation here was).
int project(sunrealtype t, N_Vector y, N_Vector corr, sunrealtype, N_Vector err, void* data) {
  auto& run = *static_cast<CvodeRun*>(data);
  return guarded(run, [&] {
    run.x = view(y);
    run.model.evaluate_outputs(run.ctx, t, run.x);
    ++run.stats.rhs_evaluations;
    auto c = view(corr);
    if (run.model.project(run.ctx, /*outputs_only=*/true)) c = run.ctx.x - run.x;
    else c.setZero();
    if (err) {
      auto e = view(err);
      run.model.project_change(run.ctx, e);
    }
    run.model.observe(run.ctx);  // a step's end (a rejected attempt is replaced by its retry)
  });
}

void error_handler(int, const char*, const char*, char* msg, void* data) {
  static_cast<CvodeRun*>(data)->message = msg ? msg : "";
}

struct Handles {
  SUNContext sun = nullptr;
  N_Vector y = nullptr;
  N_Vector dky = nullptr;  // the interpolant's value, for Observer::interval
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  SUNNonlinearSolver NLS = nullptr;
  void* mem = nullptr;
  ~Handles() {
    if (mem) CVodeFree(&mem);
    if (NLS) SUNNonlinSolFree(NLS);
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    if (y) N_VDestroy(y);
    if (dky) N_VDestroy(dky);
    if (sun) SUNContext_Free(&sun);
  }
};

enum class Multistep { Bdf, Adams };

void integrate_cvode(const Model& model, Context& ctx, const SolverSettings& s, Observer& observer, SolverStats& stats,
                     Multistep method) {
  CvodeRun run{model, ctx, stats, std::max(1, model.state_count()), model.state_count() == 0, nullptr, "", {}, nullptr, {}, {}, {}};
  OutputClock clock(s);
  Handles h;
  auto check = [&](int flag, const char* what) {
    if (flag < 0) throw SimulationError(ctx.t, {}, std::string("CVODE ") + what + " failed (flag " + std::to_string(flag) + ")");
  };
  check(SUNContext_Create(nullptr, &h.sun), "context");
  h.y = N_VNew_Serial(run.n, h.sun);
  auto yv = view(h.y);
  if (run.dummy) yv.setZero();
  else yv = ctx.x;
  h.mem = CVodeCreate(method == Multistep::Bdf ? CV_BDF : CV_ADAMS, h.sun);
  if (!h.mem) throw SimulationError(ctx.t, {}, "CVODE could not be created");
  check(CVodeInit(h.mem, rhs, ctx.t, h.y), "init");
  check(CVodeSetUserData(h.mem, &run), "user data");
  check(CVodeSetErrHandlerFn(h.mem, error_handler, &run), "error handler");
  check(CVodeSStolerances(h.mem, s.rtol, s.atol), "tolerances");
  run.mem = h.mem;
  if (method == Multistep::Adams) {
    // Plain functional iteration (no Anderson acceleration): each iteration one evaluation.
    h.NLS = SUNNonlinSol_FixedPoint(h.y, 0, h.sun);
    if (!h.NLS) throw SimulationError(ctx.t, {}, "CVODE's fixed-point iteration could not be created");
    check(CVodeSetNonlinearSolver(h.mem, h.NLS), "nonlinear solver");
  } else {
    const long dense_max = s.extra.value("dense_jacobian_max_states", kDenseJacobianMaxStates);
    const long gmres_min = s.extra.value("gmres_min_states", kGmresMinStates);
    const bool by_components = !run.dummy && s.extra.value("jacobian_by_components", 1L) != 0;
    if (by_components) run.assembler = std::make_unique<ComponentJacobian>(model);
    switch (run.dummy ? LinearPath::Dense : choose_linear_path(model, dense_max, gmres_min, by_components, run.columns)) {
      case LinearPath::Dense:
        h.A = SUNDenseMatrix(run.n, run.n, h.sun);
        h.LS = eigen_dense_solver(h.sun);
        if (!h.LS) throw SimulationError(ctx.t, {}, "CVODE's dense linear solver could not be created");
        check(CVodeSetLinearSolver(h.mem, h.LS, h.A), "linear solver");
        if (by_components) check(CVodeSetJacFn(h.mem, dense_component_jacobian), "Jacobian");
        break;
      case LinearPath::Sparse:
        h.A = SUNSparseMatrix(run.n, run.n, static_cast<sunindextype>(run.columns.rows.size()), CSC_MAT, h.sun);
        h.LS = SUNLinSol_KLU(h.y, h.A, h.sun);
        if (!h.A || !h.LS) throw SimulationError(ctx.t, {}, "CVODE's sparse linear solver (KLU) could not be created");
        check(CVodeSetLinearSolver(h.mem, h.LS, h.A), "linear solver");
        check(CVodeSetJacFn(h.mem, by_components ? sparse_component_jacobian : sparse_jacobian), "Jacobian");
        break;
      case LinearPath::Krylov:
        h.LS = SUNLinSol_SPGMR(h.y, SUN_PREC_NONE, 0, h.sun);
        check(CVodeSetLinearSolver(h.mem, h.LS, nullptr), "linear solver");
        break;
    }
  }
  if (s.max_step > 0.0) check(CVodeSetMaxStep(h.mem, s.max_step), "max step");
  // Below ten rounding units of the largest time, t + h no longer moves: CVODE would only
  // warn and go on stepping in place (a singularity, x -> infinity). With this floor it
  // fails at once with its error-test message instead.
  check(CVodeSetMinStep(h.mem, 10.0 * DBL_EPSILON * std::max({1.0, std::abs(s.t_start), std::abs(s.t_end)})), "min step");
  if (s.initial_step > 0.0) check(CVodeSetInitStep(h.mem, s.initial_step), "initial step");
  // CVODE projects only with BDF (its Adams history would not follow a moved state): adams
  // leaves the invariants to the model's own stabilization and says so.
  const bool projecting = !run.dummy && model.projects() && method == Multistep::Bdf;
  if (projecting) check(CVodeSetProjFn(h.mem, project), "projection");
  else if (!run.dummy && model.projects()) {
    ctx.steps_projected = false;  // for the run's block solvers (a mechanism refuses a singular pass)
    ctx.warnings.emplace_back("adams does not project after steps (CVODE projects only with BDF): the constraints are "
                              "held by their stabilization alone (Baumgarte gains, world.constraints.alpha and beta); "
                              "bdf or dopri5 project");
  }
  const int nz = model.zero_crossing_count();
  std::vector<int> directions, found(std::max(nz, 1));
  for (const auto& z : model.zero_crossings())
    directions.push_back(z.direction == CrossingDirection::Rising ? 1 : z.direction == CrossingDirection::Falling ? -1 : 0);
  if (nz > 0) {
    run.crossings.emplace(model);
    check(CVodeRootInit(h.mem, nz, roots), "root finding");
    check(CVodeSetRootDirection(h.mem, directions.data()), "root directions");
  }

  // CVODE's counters restart at each re-initialisation: add them up as we go.
  SolverStats base = stats;
  auto collect = [&] {
    long steps = 0, fails = 0, jac = 0, nli = 0;
    CVodeGetNumSteps(h.mem, &steps);
    CVodeGetNumErrTestFails(h.mem, &fails);
    CVodeGetNumJacEvals(h.mem, &jac);
    CVodeGetNumNonlinSolvIters(h.mem, &nli);
    stats.steps = base.steps + steps;
    stats.rejected_steps = base.rejected_steps + fails;
    stats.jacobian_evaluations = base.jacobian_evaluations + jac;
    stats.nonlinear_iterations = base.nonlinear_iterations + nli;
  };
  auto set_state = [&](double t) {
    ctx.t = t;
    if (!run.dummy) ctx.x = yv;
  };
  const ObservedPoints observed(model, observer, projecting);
  auto emit = [&](double t) {
    set_state(t);
    observed.hand(ctx);
  };

  EventAccumulationGuard accumulation(model, s);
  double t = ctx.t;
  // Time events (Model::next_time_event): CVODE's stop time, so that a step ends on one
  // to the bit; there the zero crossings are compared with those at the last point CVODE
  // returned to (its root finding saw no sign change in between), which are kept while a
  // time event lies ahead.
  double time_event = nz > 0 ? model.next_time_event(ctx) : std::numeric_limits<double>::infinity();
  Eigen::VectorXd g_before;
  auto zero_crossings_here = [&](Eigen::VectorXd& g) {
    ++stats.zero_crossing_evaluations;
    run.crossings->evaluate(ctx, t, run.dummy ? ctx.x : Eigen::VectorXd(yv));
    g = ctx.zero_crossings;
  };
  if (std::isfinite(time_event)) zero_crossings_here(g_before);
  // An observer that integrates along the trajectory (Observer::interval) is handed every
  // step: CVODE then returns after each one (CV_ONE_STEP), and the output times a step
  // passed are read from its interpolant. The steps are CV_NORMAL's but for root finding,
  // which in this mode brackets over each whole step rather than up to the output time:
  // events land within the root tolerance of CV_NORMAL's (framework/README.md, "Energy").
  const bool intervals = observer.wants_intervals();
  if (intervals) h.dky = N_VNew_Serial(run.n, h.sun);
  // Where the last interval ended, and the state there: the point CVODE returned, or the
  // one an event left. The next step's interpolant gives that point back only to rounding
  // (its polynomial summed at the step's start), so the start of an interval is taken
  // from here, the same to the bit as the last end: the energy account then reuses its
  // evaluation there (RecordingObserver::interval) instead of making another.
  double t_last = t;
  Eigen::VectorXd x_last = run.dummy ? Eigen::VectorXd() : Eigen::VectorXd(yv);
  const Observer::Interpolant state_at = [&](double tq, Eigen::VectorXd& xx) {
    if (run.dummy) {
      xx.resize(0);
      return;
    }
    if (tq == t_last) {
      xx = x_last;
      return;
    }
    check(CVodeGetDky(h.mem, tq, 0, h.dky), "interpolation");
    xx = view(h.dky);
  };
  while (!clock.done()) {
    double tout = clock.upcoming();
    // CVODE's limit counts the steps of one CVode call; max_steps bounds the whole run.
    // The call may take the step past max_steps, so that exceeding it is seen below.
    check(CVodeSetMaxNumSteps(h.mem, std::min<long>(s.max_steps - stats.steps + 1, 1'000'000'000L)), "max steps");
    // CVODE forgets its stop time once it has reached it: set for every call.
    check(CVodeSetStopTime(h.mem, std::min(time_event, s.t_end)), "stop time");
    int flag = CVode(h.mem, tout, h.y, &t, intervals ? CV_ONE_STEP : CV_NORMAL);
    collect();
    if (stats.steps > s.max_steps)
      throw SimulationError(t, {}, "more than max_steps = " + std::to_string(s.max_steps) + " steps");
    if (flag < 0) {
      if (run.error) std::rethrow_exception(run.error);
      throw SimulationError(t, {}, "CVODE stopped: " + (run.message.empty() ? "flag " + std::to_string(flag) : run.message));
    }
    run.error = nullptr;
    stats.last_time = t;
    if (intervals) {
      // The run's Context sees the evaluations CV_NORMAL would make, in the same order
      // (an algebraic loop's Newton iteration starts from the last one): each output and,
      // with a time event ahead, the zero crossings there; none at a step's end.
      if (t > t_last) observer.interval(ctx, t_last, t, state_at);
      t_last = t;
      if (!run.dummy) x_last = yv;
      while (!clock.done() && clock.upcoming() < t - 1e-14 * std::max(1.0, std::abs(t))) {
        ctx.t = clock.upcoming();
        state_at(ctx.t, ctx.x);
        observed.hand(ctx);
        ++clock.next;
        if (std::isfinite(time_event)) {
          ++stats.zero_crossing_evaluations;
          run.crossings->evaluate(ctx, ctx.t, Eigen::VectorXd(ctx.x));
          g_before = ctx.zero_crossings;
        }
      }
      if (!clock.done()) tout = clock.upcoming();
      if (flag == CV_SUCCESS && !(std::abs(tout - t) <= 1e-14 * std::max(1.0, std::abs(t)))) {
        observer.progress(t);
        continue;  // a step inside an output interval
      }
    }
    std::vector<int> triggered;
    if (flag == CV_ROOT_RETURN) {
      CVodeGetRootInfo(h.mem, found.data());
      for (int i = 0; i < nz; ++i)
        if (found[i] != 0) triggered.push_back(i);
    } else if (flag == CV_TSTOP_RETURN && t == time_event) {
      set_state(t);
      Eigen::VectorXd g_now;
      zero_crossings_here(g_now);
      triggered = model.crossed(g_before, g_now);
    }
    const bool at_output = tout - t <= 1e-14 * std::max(1.0, std::abs(t));
    if (!triggered.empty()) {
      emit(t);  // just before the discrete change
      model.handle_zero_crossings(ctx, triggered);
      stats.events += static_cast<long>(triggered.size());
      accumulation.after_events(ctx, triggered);
      if (!run.dummy) yv = ctx.x;
      x_last = ctx.x;  // the next interval starts from the state the event left
      emit(t);  // just after it
      if (ctx.termination) {  // a component ended the run here (Eval::terminate)
        observer.progress(t);
        break;
      }
      base = stats;
      check(CVodeReInit(h.mem, t, h.y), "re-initialisation");
      if (at_output) ++clock.next;  // the event fell on the output time
    } else if ((flag != CV_TSTOP_RETURN && !intervals) || at_output) {
      emit(t);
      ++clock.next;
    }
    if (t >= time_event || !triggered.empty()) {
      set_state(t);
      time_event = model.next_time_event(ctx);
    }
    if (std::isfinite(time_event)) zero_crossings_here(g_before);
    observer.progress(t);
  }
  stats.algebraic_iterations = ctx.algebraic_iterations;
}

class BdfMethod final : public SolverMethod {
 public:
  // Zero crossings are located by CVODE's root finding: event_tolerance is not read.
  BdfMethod()
      : SolverMethod("bdf",
                     "SUNDIALS CVODE: variable-order BDF, Newton iterations (dense finite-difference Jacobian for "
                     "small models; sparse by column groups with KLU, or GMRES, for large ones), for stiff models",
                     {standard_solver_setting("rtol"), standard_solver_setting("atol"), standard_solver_setting("max_step"),
                      standard_solver_setting("initial_step"),
                      {"dense_jacobian_max_states", SolverSetting::Kind::Integer, "", kDenseJacobianMaxStates,
                       Range::at_least(0),
                       "models with up to this many states use a dense finite-difference Jacobian; larger ones a "
                       "sparse one by column groups (KLU) where the model's graph halves the evaluations"},
                      {"gmres_min_states", SolverSetting::Kind::Integer, "", kGmresMinStates, Range::at_least(0),
                       "larger models whose Jacobian is dense (mechanisms) use GMRES, without a matrix, from this "
                       "many states on (the dense Jacobian below; about 100 is where GMRES starts to pay)"},
                      {"jacobian_by_components", SolverSetting::Kind::Integer, "", 1L, Range::between(0, 1),
                       "1: the dense and sparse Jacobians are the whole model's difference quotients, each column "
                       "evaluating only the components its state reaches; 0: by evaluations of the whole model "
                       "(one per state, or per group of states)"}}) {}
  void integrate(const Model& model, Context& ctx, const SolverSettings& s, Observer& observer,
                 SolverStats& stats) const override {
    integrate_cvode(model, ctx, s, observer, stats, Multistep::Bdf);
  }
};

class AdamsMethod final : public SolverMethod {
 public:
  AdamsMethod()
      : SolverMethod("adams",
                     "SUNDIALS CVODE: variable-order (1-12) Adams-Moulton, fixed-point iteration, no Jacobian; for "
                     "smooth non-stiff models at tight tolerances (fewer evaluations than dopri5; pays when they "
                     "are costly)",
                     {standard_solver_setting("rtol"), standard_solver_setting("atol"), standard_solver_setting("max_step"),
                      standard_solver_setting("initial_step")}) {}
  void integrate(const Model& model, Context& ctx, const SolverSettings& s, Observer& observer,
                 SolverStats& stats) const override {
    integrate_cvode(model, ctx, s, observer, stats, Multistep::Adams);
  }
};

}  // namespace

std::shared_ptr<const SolverMethod> make_bdf_method() { return std::make_shared<BdfMethod>(); }
std::shared_ptr<const SolverMethod> make_adams_method() { return std::make_shared<AdamsMethod>(); }

}  // namespace jourdain::detail
