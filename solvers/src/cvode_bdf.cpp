// Stiff integration with SUNDIALS CVODE: variable-order (1–5) BDF, Newton iterations
// with a dense direct linear solver on CVODE's finite-difference Jacobian, and CVODE's
// own root finding for the zero crossings (the successor of the LSODAR family that
// seed 000 used). Outputs come from CVODE's interpolant (CV_NORMAL at each output time).
#include <cvode/cvode.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <exception>
#include <memory>

#include "internal.hpp"

namespace jourdain::detail {

namespace {

struct CvodeRun {
  const Model& model;
  Context& ctx;
  SolverStats& stats;
  int n;                     // states handed to CVODE (at least 1)
  bool dummy;                // a model without states gets one constant dummy state
  std::exception_ptr error;  // first unrecoverable exception from a callback
  std::string message;       // CVODE's last error message
  Eigen::VectorXd x;
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
      run.x = view(y);
      run.model.derivatives(run.ctx, t, run.x);
      dv = run.ctx.xdot;
    }
  });
}

int roots(sunrealtype t, N_Vector y, sunrealtype* g, void* data) {
  auto& run = *static_cast<CvodeRun*>(data);
  try {
    ++run.stats.zero_crossing_evaluations;
    run.x = run.dummy ? Eigen::VectorXd() : Eigen::VectorXd(view(y));
    run.model.evaluate_zero_crossings(run.ctx, t, run.x);
    for (int i = 0; i < run.model.zero_crossing_count(); ++i) g[i] = run.ctx.zero_crossings[i];
    return 0;
  } catch (...) {
    run.error = std::current_exception();
    return -1;
  }
}

// Projection after each accepted step (models whose block solvers keep invariants, such
// as a mechanism's constraints): CVODE asks for the correction that puts y back.
int project(sunrealtype t, N_Vector y, N_Vector corr, sunrealtype, N_Vector err, void* data) {
  auto& run = *static_cast<CvodeRun*>(data);
  return guarded(run, [&] {
    run.x = view(y);
    run.model.derivatives(run.ctx, t, run.x);
    ++run.stats.rhs_evaluations;
    auto c = view(corr);
    if (run.model.project(run.ctx)) c = run.ctx.x - run.x;
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
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  void* mem = nullptr;
  ~Handles() {
    if (mem) CVodeFree(&mem);
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    if (y) N_VDestroy(y);
    if (sun) SUNContext_Free(&sun);
  }
};

void integrate_cvode(const Model& model, Context& ctx, const SolverSettings& s, Observer& observer,
                     SolverStats& stats) {
  CvodeRun run{model, ctx, stats, std::max(1, model.state_count()), model.state_count() == 0, nullptr, "", {}};
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
  h.mem = CVodeCreate(CV_BDF, h.sun);
  if (!h.mem) throw SimulationError(ctx.t, {}, "CVODE could not be created");
  check(CVodeInit(h.mem, rhs, ctx.t, h.y), "init");
  check(CVodeSetUserData(h.mem, &run), "user data");
  check(CVodeSetErrHandlerFn(h.mem, error_handler, &run), "error handler");
  check(CVodeSStolerances(h.mem, s.rtol, s.atol), "tolerances");
  h.A = SUNDenseMatrix(run.n, run.n, h.sun);
  h.LS = SUNLinSol_Dense(h.y, h.A, h.sun);
  check(CVodeSetLinearSolver(h.mem, h.LS, h.A), "linear solver");
  if (s.max_step > 0.0) check(CVodeSetMaxStep(h.mem, s.max_step), "max step");
  // Below ten rounding units of the largest time, t + h no longer moves: CVODE would only
  // warn and go on stepping in place (a singularity, x -> infinity). With this floor it
  // fails at once with its error-test message instead.
  check(CVodeSetMinStep(h.mem, 10.0 * DBL_EPSILON * std::max({1.0, std::abs(s.t_start), std::abs(s.t_end)})), "min step");
  if (s.initial_step > 0.0) check(CVodeSetInitStep(h.mem, s.initial_step), "initial step");
  check(CVodeSetStopTime(h.mem, s.t_end), "stop time");
  if (!run.dummy && model.projects()) check(CVodeSetProjFn(h.mem, project), "projection");
  const int nz = model.zero_crossing_count();
  std::vector<int> directions, found(std::max(nz, 1));
  for (const auto& z : model.zero_crossings())
    directions.push_back(z.direction == CrossingDirection::Rising ? 1 : z.direction == CrossingDirection::Falling ? -1 : 0);
  if (nz > 0) {
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
  const bool projecting = !run.dummy && model.projects();
  auto emit = [&](double t) {
    set_state(t);
    model.evaluate(ctx);
    // CVODE's interpolant between projected steps: recorded points are projected too.
    if (projecting) model.project(ctx);
    model.observe(ctx);
    observer.output(ctx);
  };

  EventAccumulationGuard accumulation(model, s);
  double t = ctx.t;
  while (!clock.done()) {
    double tout = clock.upcoming();
    // CVODE's limit counts the steps of one CVode call; max_steps bounds the whole run.
    // The call may take the step past max_steps, so that exceeding it is seen below.
    check(CVodeSetMaxNumSteps(h.mem, std::min<long>(s.max_steps - stats.steps + 1, 1'000'000'000L)), "max steps");
    int flag = CVode(h.mem, tout, h.y, &t, CV_NORMAL);
    collect();
    if (stats.steps > s.max_steps)
      throw SimulationError(t, {}, "more than max_steps = " + std::to_string(s.max_steps) + " steps");
    if (flag < 0) {
      if (run.error) std::rethrow_exception(run.error);
      throw SimulationError(t, {}, "CVODE stopped: " + (run.message.empty() ? "flag " + std::to_string(flag) : run.message));
    }
    run.error = nullptr;
    stats.last_time = t;
    if (flag == CV_ROOT_RETURN) {
      CVodeGetRootInfo(h.mem, found.data());
      std::vector<int> triggered;
      for (int i = 0; i < nz; ++i)
        if (found[i] != 0) triggered.push_back(i);
      emit(t);  // just before the discrete change
      model.handle_zero_crossings(ctx, triggered);
      stats.events += static_cast<long>(triggered.size());
      accumulation.after_events(ctx, triggered);
      if (!run.dummy) yv = ctx.x;
      emit(t);  // just after it
      base = stats;
      check(CVodeReInit(h.mem, t, h.y), "re-initialisation");
      if (tout - t <= 1e-14 * std::max(1.0, std::abs(t))) ++clock.next;  // the event fell on the output time
    } else {
      emit(t);
      ++clock.next;
    }
    observer.progress(t);
  }
  stats.algebraic_iterations = ctx.algebraic_iterations;
}

class BdfMethod final : public SolverMethod {
 public:
  // Zero crossings are located by CVODE's root finding: event_tolerance is not read.
  BdfMethod()
      : SolverMethod("bdf",
                     "SUNDIALS CVODE: variable-order BDF, Newton iterations on a dense finite-difference Jacobian, "
                     "for stiff models",
                     {standard_solver_setting("rtol"), standard_solver_setting("atol"), standard_solver_setting("max_step"),
                      standard_solver_setting("initial_step")}) {}
  void integrate(const Model& model, Context& ctx, const SolverSettings& s, Observer& observer,
                 SolverStats& stats) const override {
    integrate_cvode(model, ctx, s, observer, stats);
  }
};

}  // namespace

std::shared_ptr<const SolverMethod> make_bdf_method() { return std::make_shared<BdfMethod>(); }

}  // namespace jourdain::detail
