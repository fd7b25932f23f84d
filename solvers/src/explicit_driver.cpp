// Explicit integration driver (explicit.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>

#include "internal.hpp"
#include "jourdain/netlist.hpp"

namespace jourdain {
namespace detail {

OutputClock::OutputClock(const SolverSettings& s) : t0(s.t_start), t_end(s.t_end) {
  const double span = s.t_end - s.t_start;
  interval = s.output_interval > 0.0 ? s.output_interval : span / 500.0;
  // Saturated rather than converted when out of range; check_solver_bounds has refused
  // such settings before any method runs.
  const double n = std::ceil(span / interval - 1e-9);
  constexpr long most = std::numeric_limits<long>::max();
  count = !(n >= 1.0) ? 1 : n >= static_cast<double>(most) ? most : static_cast<long>(n);
}

ObservedPoints::ObservedPoints(const Model& model, Observer& observer, bool projecting)
    : model_(model), observer_(observer), needed_(observer.evaluation_needed()), projecting_(projecting) {
  if (needed_ == PointEvaluation::States && model.block_solvers_observe()) needed_ = PointEvaluation::Stage;
}

void ObservedPoints::hand(Context& ctx) const {
  if (needed_ != PointEvaluation::States) {
    if (needed_ == PointEvaluation::Full) model_.evaluate(ctx);
    else model_.derivatives(ctx, ctx.t, ctx.x);  // ctx.x onto itself: an element-wise copy
    if (projecting_) model_.project(ctx);
    model_.observe(ctx);
  }
  observer_.output(ctx);
}

}  // namespace detail

namespace {

// Scaled RMS norm used for the first step guess (Hairer, Nørsett, Wanner, Solving ODE I, II.4).
double rms(const Eigen::VectorXd& v, const Eigen::VectorXd& x, const SolverSettings& s) {
  if (v.size() == 0) return 0.0;
  Eigen::ArrayXd scale = s.atol + s.rtol * x.array().abs();
  return std::sqrt((v.array() / scale).square().mean());
}

double initial_step(RightHandSide& f, double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0, int order,
                    const SolverSettings& s, double h_max) {
  if (s.initial_step > 0.0) return std::min(s.initial_step, h_max);
  const double h_floor = 1e-12 * std::max(1.0, std::abs(t));
  double d0 = rms(x, x, s), d1 = rms(f0, x, s);
  double h0 = (d0 < 1e-5 || d1 < 1e-5 || !std::isfinite(d1)) ? 1e-6 : 0.01 * d0 / d1;
  h0 = std::clamp(h0, h_floor, h_max);
  // A trial Euler step estimates the second derivative; a model that cannot take it
  // (its values overflow) gets a smaller first step, and the error control takes over.
  Eigen::VectorXd f1;
  for (;;) {
    try {
      f(t + h0, x + h0 * f0, f1);
      break;
    } catch (const NonFiniteError&) {
      if (h0 <= h_floor) return h_floor;
      h0 = std::max(h0 * 1e-3, h_floor);
    }
  }
  double d2 = rms(f1 - f0, x, s) / h0;
  double dmax = std::max(d1, d2);
  double h1 = !(dmax > 1e-15) ? std::max(1e-6, h0 * 1e-3)
              : std::isfinite(dmax) ? std::pow(0.01 / dmax, 1.0 / order)
                                    : h0;
  return std::clamp(std::min(100.0 * h0, h1), h_floor, h_max);
}

// A fixed step too large for a stiff model does not always blow up: where a nonlinearity
// bounds the growing mode (a relief valve that closes again), the run ends normally with
// a sawtooth instead of the model's motion. Two stages, so that the check costs next to
// nothing when all is well and never warns on a stable run:
// - screening: the stepper's own estimate of h |λ| from its stages (stiffness_ratio),
//   beyond the method's stability limit in at least kBeyond of the last kWindow steps;
// - confirmation: the spectral radius of the Jacobian at the two stage points whose
//   secant gave the estimate (OneStepMethod::stiffest_secant) and at the step's end, by
//   power iteration on finite-difference products J v (kPowerIterations evaluations of
//   the model each). A mode that is stiff only inside the steps (a relief valve that
//   opens and closes again within each step, a sawtooth whose every step ends closed)
//   shows at the stages, never at the ends. A mode beyond the limit is reported when a
//   second confirmation, a window later, finds it still there: a transient of a few steps
//   (a mechanism through a singular pose) makes no sawtooth. Stage secants can
//   overestimate |λ| where the states' scales differ widely (a non-normal Jacobian); the power iteration's growth rate tends to the spectral radius
//   itself, whatever the scaling. Only a confirmed h ρ(J) beyond the limit is reported
//   (once); an unconfirmed screening waits twice as long before the next confirmation.
class FixedStepStabilityWatch {
 public:
  static constexpr int kWindow = 40, kBeyond = 10, kPowerIterations = 24;

  // After an accepted step to (t1, x1): ctx is left evaluated there, as the driver
  // expects (the confirmation evaluates elsewhere, then at (t1, x1) again).
  void after_step(const OneStepMethod& method, RightHandSide& f, double t1, const Eigen::VectorXd& x1,
                  const Eigen::VectorXd& f1, double h) {
    const double limit = method.stability_limit();
    const bool beyond = method.stiffness_ratio() > limit;  // false for NaN (no estimate)
    beyond_ += static_cast<int>(beyond) - static_cast<int>(recent_[next_]);
    recent_[next_] = beyond;
    next_ = (next_ + 1) % kWindow;
    ++steps_;
    if (wait_ > 0) --wait_;
    if (warned_ || beyond_ < kBeyond || wait_ > 0) return;
    // Where the stages met the stiff dynamics first: they may be there only inside the
    // step (a relief valve that opens and closes again between the step's ends), then at
    // the step's end, which leaves the context there.
    double rho = 0.0, at = t1, ta = 0.0, tb = 0.0;
    Eigen::VectorXd xa, xb, fx;
    if (method.stiffest_secant(ta, xa, tb, xb)) {
      for (const auto& [ts, xs] : {std::pair<double, const Eigen::VectorXd&>{ta, xa}, {tb, xb}}) {
        try {
          f(ts, xs, fx);
        } catch (const NonFiniteError&) {
          continue;
        }
        if (const double r = spectral_radius(f, ts, xs, fx, h); r > rho) rho = r, at = ts;
      }
    }
    if (const double r = spectral_radius(f, t1, x1, f1, h); !(h * rho > limit) && r > rho) rho = r, at = t1;
    // Confirmed twice, a window apart: the mode stays beyond the limit, as in a sawtooth,
    // rather than for the few steps of a transient (a mechanism passing a singular pose,
    // whose stiff regularized direction the projection damps: no oscillation follows).
    const bool persists = confirmed_at_ >= 0 && steps_ - confirmed_at_ <= 3 * kWindow;
    if (h * rho > limit && !persists) {
      confirmed_at_ = steps_;
      wait_ = kWindow;
    } else if (h * rho > limit) {
      warned_ = true;
      std::ostringstream msg;
      msg.precision(3);
      msg << "t = " << at << " s: the fixed step h = " << h << " s is beyond the method's stability limit for this "
          << "model's fastest dynamics: h ρ(J) = " << h * rho << " > " << limit << " (the Jacobian's spectral radius "
          << "ρ ≈ " << rho << " 1/s, a time constant of " << 1.0 / rho << " s). The results may be a numerical "
          << "oscillation (a sawtooth) rather than the model's motion: use a step below " << limit / rho
          << " s, or method \"bdf\" for a stiff model";
      f.ctx.warnings.emplace_back(msg.str(), Warning::Kind::Accuracy);
    } else {
      confirmed_at_ = -1;
      backoff_ *= 2;
      wait_ = backoff_;
    }
  }

 private:
  // ρ(J) at (t, x) by power iteration in coordinates scaled by each state's size (a
  // similarity transform: the eigenvalues are J's). 0 when the model cannot be evaluated
  // near x. Leaves the context evaluated at (t, x).
  static double spectral_radius(RightHandSide& f, double t, const Eigen::VectorXd& x, const Eigen::VectorXd& fx,
                                double h) {
    const Eigen::Index n = x.size();
    if (n == 0) return 0.0;
    const Eigen::ArrayXd scale = x.array().abs().max(h * fx.array().abs()).max(1e-12);
    // A fixed start vector with components of both signs and unequal sizes: the check is
    // deterministic, and no eigenvector is likely to be orthogonal to it.
    Eigen::VectorXd v(n), fv, w;
    for (Eigen::Index i = 0; i < n; ++i) v[i] = std::sin(1.0 + 2.3 * static_cast<double>(i));
    v.normalize();
    constexpr double delta = 1e-7;
    double log_growth = 0.0;
    int counted = 0;
    try {
      for (int k = 0; k < kPowerIterations; ++k) {
        f(t, x + delta * (scale * v.array()).matrix(), fv);
        w = ((fv - fx).array() / (delta * scale)).matrix();  // S⁻¹ J S v
        const double norm = w.norm();
        if (!(norm > 0.0) || !std::isfinite(norm)) break;
        // The growth over the second half: the early iterations carry the start vector's
        // transient (a non-normal Jacobian's), the later ones ρ.
        if (k >= kPowerIterations / 2) log_growth += std::log(norm), ++counted;
        v = w / norm;
      }
    } catch (const NonFiniteError&) {
      counted = 0;
    }
    f(t, x, w);  // the context back at (t, x)
    return counted > 0 ? std::exp(log_growth / counted) : 0.0;
  }

  std::array<bool, kWindow> recent_{};
  int next_ = 0, beyond_ = 0;
  int wait_ = 0, backoff_ = kWindow / 2;
  long steps_ = 0, confirmed_at_ = -1;  // steps so far; the step of a first confirmation
  bool warned_ = false;
};

// Where in a bracket [ta, tb] the earliest crossing lies, as a fraction of its width: the
// secant root, through the ends, of each function that crosses in it (values weighted by
// wa and wb, the Illinois method's), the earliest of them. 1 when none has a secant.
double secant_fraction(const Model& model, const Eigen::VectorXd& ga, const Eigen::VectorXd& gb, double wa = 1.0,
                       double wb = 1.0) {
  double fraction = 1.0;
  for (int i : model.crossed(ga, gb)) {
    const double a = wa * ga[i], b = wb * gb[i];
    if (a != b) fraction = std::min(fraction, a / (a - b));
  }
  return fraction;
}

}  // namespace

void integrate_explicit(OneStepMethod& method, const Model& model, Context& ctx, const SolverSettings& s,
                        Observer& observer, SolverStats& stats) {
  RightHandSide f{model, ctx, stats};
  detail::OutputClock clock(s);
  const double span = s.t_end - s.t_start;
  const double h_max = s.max_step > 0.0 ? std::min(s.max_step, span) : span;
  const bool events = model.zero_crossing_count() > 0;
  const bool projecting = model.projects();
  const bool intervals = observer.wants_intervals();
  detail::EventAccumulationGuard accumulation(model, s);
  FixedStepStabilityWatch stability;

  double t = ctx.t;
  Eigen::VectorXd x = ctx.x, f0, x1, f1, dense_x;
  f(t, x, f0);
  Eigen::VectorXd g0, g1, ga, gb, gm;  // at the step's start and end; a bracket and a sample inside
  auto zero_crossings_at = [&](double tt, const Eigen::VectorXd& xx, Eigen::VectorXd& g) {
    ++stats.zero_crossing_evaluations;
    model.evaluate_zero_crossings(ctx, tt, xx);
    g = ctx.zero_crossings;
  };
  if (events) zero_crossings_at(t, x, g0);
  // The next time event (Model::next_time_event): a step ends exactly there.
  double time_event = events ? model.next_time_event(ctx) : std::numeric_limits<double>::infinity();
  const detail::ObservedPoints observed(model, observer, projecting);
  auto emit = [&](double tt, const Eigen::VectorXd& xx) {
    ctx.t = tt;
    ctx.x = xx;
    observed.hand(ctx);
  };

  double h;
  if (method.adaptive()) {
    h = initial_step(f, t, x, f0, method.order(), s, h_max);
  } else {
    // A fixed step is the method's "step" alone (max_step is the adaptive methods'
    // setting); the last step is cut to t_end below.
    h = std::min(s.step > 0.0 ? s.step : clock.interval / 10.0, span);
  }
  double facmax = 10.0;
  while (t < s.t_end) {
    const double h_min = 1e-14 * std::max(1.0, std::abs(t));
    double hh = std::min(h, s.t_end - t);
    // Do not leave a sliver of a step before t_end (rounding in t += h would add one).
    if (s.t_end - (t + hh) < std::max(h_min, 1e-6 * hh)) hh = s.t_end - t;
    const bool to_time_event = time_event <= t + hh;
    if (to_time_event) hh = time_event - t;
    double err = 0.0;
    try {
      method.step(f, t, x, f0, hh, x1, f1, err);
      // The stages checked only what the step reads (Model::derivatives); the context
      // holds the last one, at the step's end: an output or observable that went non-finite
      // within the step, though nothing reads it, is caught here, at its step, like the rest.
      model.check_finite(ctx);
    } catch (const NonFiniteError&) {
      if (!method.adaptive() || hh <= h_min) throw;
      ++stats.rejected_steps;
      h = hh * 0.25;
      facmax = 1.0;
      continue;
    }
    if (method.adaptive() && !(err <= 1.0)) {
      ++stats.rejected_steps;
      h = hh * std::max(0.2, 0.9 * std::pow(err, -1.0 / method.order()));
      facmax = 1.0;
      if (h < h_min) {
        // Name the state whose error could not be brought under the tolerance.
        std::vector<std::string> who;
        std::string which;
        if (Eigen::Index i = method.largest_error_state(); i >= 0 && i < model.state_count()) {
          const std::string state = model.state_names()[i];
          who.push_back(state.substr(0, state.find('.')));
          which = " in state '" + state + "'";
        }
        std::ostringstream msg;
        msg.precision(3);
        msg << "step size underflow (h = " << h << " s): the error" << which
            << " cannot be held to the tolerance; a singularity, a discontinuity without an event, or a stiff model "
               "(try method \"bdf\")";
        throw SimulationError(t, who, msg.str());
      }
      continue;
    }
    ++stats.steps;
    if (!method.adaptive()) stability.after_step(method, f, t + hh, x1, f1, hh);
    if (stats.steps > s.max_steps)
      throw SimulationError(t, {}, "more than max_steps = " + std::to_string(s.max_steps) + " steps");
    // A step to a time event ends on it to the bit (t + hh may round to a neighbour).
    const double t1 = to_time_event ? time_event : t + hh;

    // Event: the earliest sign change of the zero-crossing functions within the step,
    // bracketed on the dense output to event_tolerance. The functions are watched at the
    // step's end and at every output time inside the step: one that crosses and crosses
    // back within a step (a fast input into a slow model, whose steps grow long) is seen
    // at the resolution of the rows the run records, as CVODE sees it (its root finding
    // also checks each output time it interpolates to). The samples cost one evaluation
    // of the zero crossings each, and only in models that have some.
    std::vector<int> triggered;
    double t_event = t1;
    if (events) {
      // The step's last right-hand side left the context at (t1, x1): no new evaluation,
      // unless the step ends on a time event, which is met at t1 itself.
      if (to_time_event) {
        zero_crossings_at(t1, x1, g1);
      } else {
        ++stats.zero_crossing_evaluations;
        model.update_zero_crossings(ctx);
        g1 = ctx.zero_crossings;
      }
      double ta = t, tb = t1;
      ga = g0;
      gb = g1;
      for (long k = clock.next; k <= clock.count; ++k) {
        const double ts = clock.time(k);
        if (ts >= t1) break;
        if (ts <= ta) continue;
        method.dense((ts - t) / hh, dense_x);
        zero_crossings_at(ts, dense_x, gm);
        if (!model.crossed(ga, gm).empty()) {
          tb = ts;
          gb = gm;
          break;
        }
        ta = ts;
        std::swap(ga, gm);
      }
      triggered = model.crossed(ga, gb);
      if (!triggered.empty()) {
        // The bracket narrowed by the Illinois method (regula falsi whose end kept twice
        // in a row has its value halved; Dowell & Jarratt 1972), as CVODE's root finding
        // does: the secant root, through the bracket's ends, of each function crossing in
        // it, the earliest of them; a bisection when two trials did not halve the bracket.
        // A smooth crossing is placed to rounding in a few evaluations, where bisection
        // stops anywhere in the last interval of event_tolerance: in a chain of events
        // (a bouncing ball) those errors add up.
        double wa = 1.0, wb = 1.0;
        int kept_a = 0, kept_b = 0;
        constexpr double kUnknown = std::numeric_limits<double>::infinity();
        double widths[2] = {kUnknown, kUnknown};  // the bracket before the last two trials
        while (tb - ta > s.event_tolerance) {
          const double width = tb - ta;
          double tm = 0.5 * (ta + tb);
          if (width <= 0.5 * widths[0]) {
            // Half the tolerance from either end at least, so that the bracket shrinks.
            const double margin = std::min(0.5 * s.event_tolerance, 0.25 * width);
            tm = std::clamp(ta + secant_fraction(model, ga, gb, wa, wb) * width, ta + margin, tb - margin);
          }
          if (tm <= ta || tm >= tb) break;  // ta, tb adjacent doubles: no finer bracket exists
          method.dense((tm - t) / hh, dense_x);
          zero_crossings_at(tm, dense_x, gm);
          if (model.crossed(ga, gm).empty()) {
            ta = tm, std::swap(ga, gm);
            wa = 1.0, kept_a = 0;
            if (++kept_b >= 2) wb *= 0.5;
          } else {
            tb = tm, std::swap(gb, gm);
            wb = 1.0, kept_b = 0;
            if (++kept_a >= 2) wa *= 0.5;
          }
          widths[0] = widths[1], widths[1] = width;
        }
        // The bracket is within the tolerance; its far end may still be most of it past
        // the crossing. One more trial a few rounding units past the secant root brings
        // the event there when the function is smooth.
        if (tb - ta > 0.0) {
          const double tm = ta + secant_fraction(model, ga, gb) * (tb - ta) +
                            8.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(tb));
          if (tm > ta && tm < tb) {
            method.dense((tm - t) / hh, dense_x);
            zero_crossings_at(tm, dense_x, gm);
            if (!model.crossed(ga, gm).empty()) tb = tm, std::swap(gb, gm);
          }
        }
        t_event = tb;
        triggered = model.crossed(ga, gb);
      }
    }

    // Outputs up to the end of the valid part of the step.
    while (!clock.done() && clock.upcoming() <= t_event + h_min) {
      double to = std::min(clock.upcoming(), t_event);
      if (to >= t1) emit(t1, x1);
      else {
        method.dense((to - t) / hh, dense_x);
        emit(to, dense_x);
      }
      ++clock.next;
    }

    if (intervals) {
      const double t_step = t;
      observer.interval(ctx, t, triggered.empty() ? t1 : t_event, [&](double tt, Eigen::VectorXd& xx) {
        if (tt >= t1) xx = x1;
        else method.dense((tt - t_step) / hh, xx);
      });
    }

    if (!triggered.empty()) {
      Eigen::VectorXd xe;
      if (t_event >= t1) xe = x1;
      else method.dense((t_event - t) / hh, xe);
      emit(t_event, xe);  // the row just before the discrete change
      ctx.t = t_event;
      ctx.x = xe;
      model.handle_zero_crossings(ctx, triggered);
      stats.events += static_cast<long>(triggered.size());
      accumulation.after_events(ctx, triggered);
      x = ctx.x;
      t = t_event;
      emit(t, x);  // and just after it
      if (ctx.termination) {  // a component ended the run here (Eval::terminate)
        stats.last_time = t;
        observer.progress(t);
        break;
      }
      f(t, x, f0);
      zero_crossings_at(t, x, g0);
      time_event = model.next_time_event(ctx);
    } else {
      t = t1;
      x = x1;
      f0 = f1;
      if (projecting) {
        // Back onto the invariants (a mechanism's constraint manifold); the step's dense
        // output above is the unprojected one, which differs by the (small) drift.
        model.derivatives(ctx, t, x);
        ++stats.rhs_evaluations;
        if (model.project(ctx)) {
          ++stats.rhs_evaluations;
          x = ctx.x;
          f0 = ctx.xdot;
          if (events) {
            model.update_zero_crossings(ctx);
            g1 = ctx.zero_crossings;
          }
        }
        model.observe(ctx);  // the accepted step's end, as the next step starts from it
      }
      if (events) g0 = g1;
      if (t >= time_event) {  // a time event at which nothing switched: the one after it
        ctx.t = t;
        time_event = model.next_time_event(ctx);
      }
    }
    stats.last_time = t;
    observer.progress(t);

    if (method.adaptive()) {
      double fac = err > 0.0 ? std::min(facmax, std::max(0.2, 0.9 * std::pow(err, -1.0 / method.order()))) : facmax;
      // A step cut short by a time event does not shrink the next one.
      h = to_time_event ? std::max(h, std::min(hh * fac, h_max)) : std::min(hh * fac, h_max);
      if (hh < h && t1 >= s.t_end) h = hh;
      facmax = 10.0;
    }
  }
  stats.algebraic_iterations = ctx.algebraic_iterations;
}

void ExplicitSolverMethod::check_bounds(const SolverSettings& s, const InputLocation& where) const {
  if (stepper(s)->adaptive()) return;
  // The fixed step as integrate_explicit takes it.
  const double span = s.t_end - s.t_start;
  const double step = s.step > 0.0 ? s.step : detail::OutputClock(s).interval / 10.0;
  const double steps = span / step;
  if (steps > static_cast<double>(s.max_steps)) {
    InputLocation w = where;
    w.json_path = json_check::pointer(where.json_path, "step");
    throw InputError(w, name() + " would take " + detail::count_text(steps) +
                            " steps, more than max_steps = " + std::to_string(s.max_steps));
  }
}

void ExplicitSolverMethod::integrate(const Model& model, Context& ctx, const SolverSettings& s, Observer& observer,
                                     SolverStats& stats) const {
  auto method = stepper(s);
  integrate_explicit(*method, model, ctx, s, observer, stats);
}

}  // namespace jourdain
