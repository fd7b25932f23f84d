// Linear analysis (linear.hpp).
#include "jourdain/solvers/linear.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <sstream>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include "internal.hpp"
#include "jourdain/solvers/solver_registry.hpp"
#include "jourdain/units.hpp"
#include "jourdain/version.hpp"

namespace jourdain {

using nlohmann::json;
using cd = std::complex<double>;

// ------------------------------------------------------------------ settings

void parse_operating_point(const std::string& text, LinearSettings& settings, const InputLocation& where) {
  if (text == "equilibrium") {
    settings.at = LinearSettings::At::Equilibrium;
    return;
  }
  if (text == "initial") {
    settings.at = LinearSettings::At::Initial;
    return;
  }
  double t = 0.0;
  try {
    t = parse_quantity(text, "s");
  } catch (const std::exception& e) {
    throw InputError(where, "operating point '" + text + "': expected \"equilibrium\", \"initial\" or a time (" +
                                e.what() + ")");
  }
  if (!std::isfinite(t)) throw InputError(where, "the operating point's time must be finite");
  settings.at = LinearSettings::At::Time;
  settings.time = t;
}

LinearSettings linear_settings_from_json(const json& section, const InputLocation& where) {
  LinearSettings s;
  if (!section.is_object()) throw InputError(where, "expected an object of linear-analysis settings");
  json_check::only_keys(section, {"at", "inputs", "outputs", "frequency"}, where);
  auto at = [&](const std::string& key) {
    InputLocation w = where;
    w.json_path = json_check::pointer(where.json_path, key);
    return w;
  };
  if (section.contains("at")) {
    const json& v = section["at"];
    if (v.is_number()) {
      s.at = LinearSettings::At::Time;
      s.time = v.get<double>();
    } else if (v.is_string()) {
      parse_operating_point(v.get<std::string>(), s, at("at"));
    } else {
      throw InputError(at("at"), "expected \"equilibrium\", \"initial\" or a time");
    }
  }
  for (const char* key : {"inputs", "outputs"}) {
    if (!section.contains(key)) continue;
    const json& list = section[key];
    if (!list.is_array()) throw InputError(at(key), "expected an array of names");
    auto& target = std::string(key) == "inputs" ? s.inputs : s.outputs;
    for (size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_string()) throw InputError(at(std::string(key) + "/" + std::to_string(i)), "expected a name");
      target.push_back(list[i].get<std::string>());
    }
  }
  if (section.contains("frequency")) {
    const json& f = section["frequency"];
    const InputLocation w = at("frequency");
    if (!f.is_object()) throw InputError(w, "expected {\"from\": ..., \"to\": ..., \"points\": ...}");
    json_check::only_keys(f, {"from", "to", "points"}, w);
    auto sub = [&](const char* key) {
      InputLocation k = w;
      k.json_path = json_check::pointer(w.json_path, key);
      return k;
    };
    if (f.contains("points")) {
      const json& p = f["points"];
      if (!p.is_number() || p.get<double>() != std::floor(p.get<double>()) || p.get<double>() < 2 ||
          p.get<double>() > 100000)
        throw InputError(sub("points"), "expected a whole number from 2 to 100000");
      s.frequency_points = static_cast<int>(p.get<double>());
    }
    std::optional<double> from, to;
    if (f.contains("from")) from = json_check::quantity(f["from"], "Hz", sub("from"));
    if (f.contains("to")) to = json_check::quantity(f["to"], "Hz", sub("to"));
    set_frequency_range(s, from, to, sub("from"), sub("to"));
  }
  return s;
}

void set_frequency_range(LinearSettings& settings, std::optional<double> from_hz, std::optional<double> to_hz,
                         const InputLocation& from_where, const InputLocation& to_where) {
  // A log-spaced range: 0, a negative or an infinite end has no place on it (inf wrote
  // rows of inf and NaN, 0 was silently made automatic).
  auto check = [](double v, const InputLocation& where, const char* end) {
    if (!std::isfinite(v) || v <= 0.0) {
      std::ostringstream msg;
      msg << "the " << end << " frequency must be positive and finite (got " << v
          << " Hz; the response is log-spaced)";
      throw InputError(where, msg.str());
    }
  };
  if (from_hz) check(*from_hz, from_where, "lowest");
  if (to_hz) check(*to_hz, to_where, "highest");
  const double from = from_hz.value_or(settings.frequency_from), to = to_hz.value_or(settings.frequency_to);
  if (from > 0 && to > 0 && !(to > from)) {
    std::ostringstream msg;
    msg << "the highest frequency (" << to << " Hz) must be above the lowest (" << from << " Hz)";
    throw InputError(to_hz ? to_where : from_where, msg.str());
  }
  settings.frequency_from = from;
  settings.frequency_to = to;
}

json linear_settings_schema() {
  auto described = [](json schema, const char* text) {
    schema["description"] = text;
    return schema;
  };
  const json name_list = {{"type", "array"}, {"items", {{"type", "string"}}}};
  const json quantity = {{"type", json::array({"number", "string"})}};
  return {{"type", "object"},
          {"description", "the linear analysis (\"analysis\": \"linear\", or `jourdain linearize`)"},
          {"properties",
           {{"at", {{"type", json::array({"number", "string"})},
                    {"description", "operating point: \"equilibrium\" (default), \"initial\", or a time (s, or a "
                                    "string with a unit) the netlist's solver integrates to"}}},
            {"inputs", described(name_list, "numeric parameters perturbed as inputs (\"component.parameter\")")},
            {"outputs", described(name_list, "recordable variables (\"component.variable\")")},
            {"frequency", {{"type", "object"},
                           {"description", "frequency response range (default: a decade around the modes)"},
                           {"properties", {{"from", quantity}, {"to", quantity}, {"points", {{"type", "integer"}}}}},
                           {"additionalProperties", false}}}}},
          {"additionalProperties", false}};
}

// ------------------------------------------------------------------ the manifold

namespace {

// Throws Interrupted when the caller asks to stop (a Ctrl-C): checked at every step of
// the searches for an operating point, which may take long.
void check_stop(const std::function<bool()>& stop_requested, double t) {
  if (stop_requested && stop_requested()) throw detail::Interrupted(t, "interrupted on the way to the operating point");
}

const double kStepScale = std::cbrt(std::numeric_limits<double>::epsilon());

// The independent states and the basis T at ctx: δx = T δz, ∂h/∂x T = 0. Coordinate
// partitioning (Wehage & Haug 1982): a column-pivoted QR of the position-level rows of
// H = ∂h/∂x puts the best-conditioned coordinates first; those coordinates and their rates
// are dependent, the rest independent, and x_D = −H_D⁺ H_I x_I (H_D has full column rank;
// redundant rows are consistent). Without (coordinate, rate) pairs, the QR runs on H.
struct Partition {
  std::vector<int> independent, dependent;
  Eigen::MatrixXd basis;
  double conditioning = 1.0;  // smallest over largest pivot of the QR kept (1: no invariants)
};

// |R_kk| of the last pivot kept over |R_00|: a cheap estimate of how near the rank
// decision the kept columns are.
template <class QR>
double pivot_spread(const QR& qr) {
  if (qr.rank() == 0) return 1.0;
  const double first = std::abs(qr.matrixR()(0, 0)), last = std::abs(qr.matrixR()(qr.rank() - 1, qr.rank() - 1));
  return first > 0 ? last / first : 1.0;
}

Partition partition(const Model& model, Context& ctx) {
  const int n = model.state_count();
  Partition p;
  const Eigen::MatrixXd H = model.invariant_jacobian(ctx);
  if (H.rows() == 0) {
    for (int j = 0; j < n; ++j) p.independent.push_back(j);
    p.basis = Eigen::MatrixXd::Identity(n, n);
    return p;
  }
  // Entries are O(1) in the constraints' units; below 1e-9 of the largest they are the
  // differentiation's noise in ∂Φ̇/∂q, not structure.
  const double threshold = 1e-9;
  std::vector<bool> is_dependent(n, false);
  const auto pairs = model.coordinate_pairs(ctx);
  if (!pairs.empty()) {
    // Position-level rows: those with no entry in any rate's column.
    std::vector<Eigen::Index> rows;
    for (Eigen::Index i = 0; i < H.rows(); ++i) {
      bool position_level = true;
      for (const auto& pr : pairs) position_level = position_level && H(i, pr.second) == 0.0;
      if (position_level) rows.push_back(i);
    }
    Eigen::MatrixXd positions(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(pairs.size()));
    for (size_t i = 0; i < rows.size(); ++i)
      for (size_t k = 0; k < pairs.size(); ++k)
        positions(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) = H(rows[i], pairs[k].first);
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(positions);
    qr.setThreshold(threshold);
    p.conditioning = pivot_spread(qr);
    for (Eigen::Index k = 0; k < qr.rank(); ++k) {
      const auto& pr = pairs[static_cast<size_t>(qr.colsPermutation().indices()[k])];
      is_dependent[pr.first] = is_dependent[pr.second] = true;
    }
  } else {
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(H);
    qr.setThreshold(threshold);
    p.conditioning = pivot_spread(qr);
    for (Eigen::Index k = 0; k < qr.rank(); ++k) is_dependent[qr.colsPermutation().indices()[k]] = true;
  }
  for (int j = 0; j < n; ++j) (is_dependent[j] ? p.dependent : p.independent).push_back(j);
  const auto d = static_cast<Eigen::Index>(p.dependent.size()), r = static_cast<Eigen::Index>(p.independent.size());
  Eigen::MatrixXd HD(H.rows(), d), HI(H.rows(), r);
  for (Eigen::Index k = 0; k < d; ++k) HD.col(k) = H.col(p.dependent[static_cast<size_t>(k)]);
  for (Eigen::Index k = 0; k < r; ++k) HI.col(k) = H.col(p.independent[static_cast<size_t>(k)]);
  p.basis = Eigen::MatrixXd::Zero(n, r);
  for (Eigen::Index k = 0; k < r; ++k) p.basis(p.independent[static_cast<size_t>(k)], k) = 1.0;
  if (r == 0 || d == 0) return p;  // every state dependent (a driven mechanism), or none: no coupling
  const Eigen::MatrixXd coupling = -HD.colPivHouseholderQr().solve(HI);
  for (Eigen::Index k = 0; k < d; ++k) p.basis.row(p.dependent[static_cast<size_t>(k)]) = coupling.row(k);
  return p;
}

// Evaluations at the operating point with some states or parameters moved, on a copy
// of its Context (warm starts of algebraic loops and factorizations stay in the copy).
class Prober {
 public:
  Prober(const Model& model, const Context& ctx, std::vector<const RecordableVariable*> outputs)
      : model_(model), work_(ctx), x0_(ctx.x), p0_(ctx.parameters), outputs_(std::move(outputs)) {}

  // (ẋ, y) at x0 + dx with parameter `param` moved by dp (param < 0: none).
  void at(const Eigen::VectorXd& dx, int param, double dp, Eigen::VectorXd& xdot, Eigen::VectorXd& y) {
    work_.x = x0_ + dx;
    work_.parameters = p0_;
    if (param >= 0) work_.parameters[param] += dp;
    model_.evaluate(work_);
    xdot = work_.xdot;
    y.resize(static_cast<Eigen::Index>(outputs_.size()));
    for (size_t k = 0; k < outputs_.size(); ++k) y[static_cast<Eigen::Index>(k)] = model_.value(work_, *outputs_[k]);
  }

 private:
  const Model& model_;
  Context work_;
  Eigen::VectorXd x0_, p0_;
  std::vector<const RecordableVariable*> outputs_;
};

// ∂(ẋ_I, y)/∂z at ctx by central differences along the columns of T (linear.hpp).
void tangent_jacobians(const Model& model, const Context& ctx, const Partition& p,
                       const std::vector<const RecordableVariable*>& outputs, Eigen::MatrixXd& A, Eigen::MatrixXd& C) {
  const int r = static_cast<int>(p.independent.size());
  Prober probe(model, ctx, outputs);
  A.resize(r, r);
  C.resize(static_cast<Eigen::Index>(outputs.size()), r);
  Eigen::VectorXd fp, fm, yp, ym;
  for (int j = 0; j < r; ++j) {
    const double h = kStepScale * std::max(1.0, std::abs(ctx.x[p.independent[j]]));
    const Eigen::VectorXd dx = h * p.basis.col(j);
    probe.at(dx, -1, 0.0, fp, yp);
    probe.at(-dx, -1, 0.0, fm, ym);
    for (int i = 0; i < r; ++i) A(i, j) = (fp[p.independent[i]] - fm[p.independent[i]]) / (2.0 * h);
    C.col(j) = (yp - ym) / (2.0 * h);
  }
}

// A block solver's invariants bring the state back after a step; an evaluation follows.
void settle(const Model& model, Context& ctx) {
  model.evaluate(ctx);
  model.restore_invariants(ctx);
}

double scaled_residual(const Context& ctx, const std::vector<int>& independent) {
  double worst = 0.0;
  for (int j : independent) worst = std::max(worst, std::abs(ctx.xdot[j]) / std::max(1.0, std::abs(ctx.x[j])));
  return worst;
}

// Records nothing; stops the integration when the caller asks (a Ctrl-C on the way to a
// time's operating point).
class SilentObserver final : public Observer {
 public:
  explicit SilentObserver(const std::function<bool()>& stop_requested) : stop_requested_(stop_requested) {}
  void output(const Context&) override {}
  void progress(double t) override { check_stop(stop_requested_, t); }

 private:
  const std::function<bool()>& stop_requested_;
};

}  // namespace

// ------------------------------------------------------------------ operating point

namespace {

// Newton's method on ẋ_I(z) = 0 along the invariant manifold: a step δz solves
// A δz = −ẋ_I in the least-squares, minimum-norm sense (neutral directions such as a free
// body's position stay where they are), x ← x + T δz, then the block solvers bring x back
// onto their invariants. Returns its iterations; throws SimulationError when it stalls
// away from rest or does not converge. ctx is settled on entry.
int newton_equilibrium(const Model& model, Context& ctx, const std::function<bool()>& stop_requested) {
  const int max_iterations = 50;
  for (int it = 0; it < max_iterations; ++it) {
    check_stop(stop_requested, ctx.t);
    const Partition p = partition(model, ctx);
    if (p.independent.empty()) return it;
    Eigen::MatrixXd A, C;
    tangent_jacobians(model, ctx, p, {}, A, C);
    Eigen::VectorXd f(static_cast<Eigen::Index>(p.independent.size()));
    for (size_t i = 0; i < p.independent.size(); ++i) f[static_cast<Eigen::Index>(i)] = ctx.xdot[p.independent[i]];
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(A);
    cod.setThreshold(1e-10);
    const Eigen::VectorXd dz = cod.solve(-f);
    bool small = true;
    for (size_t i = 0; i < p.independent.size(); ++i)
      small = small && std::abs(dz[static_cast<Eigen::Index>(i)]) <=
                           1e-10 * std::max(1.0, std::abs(ctx.x[p.independent[i]]));
    ctx.x += p.basis * dz;
    settle(model, ctx);
    if (small) {
      const double res = scaled_residual(ctx, p.independent);
      if (res > 1e-6) {
        std::ostringstream msg;
        msg << "Newton's method stalls with |ẋ| = " << res << " where its Jacobian is singular in the direction it needs";
        throw SimulationError(ctx.t, {}, msg.str());
      }
      return it + 1;
    }
  }
  throw SimulationError(ctx.t, {}, "Newton's method did not converge in " + std::to_string(max_iterations) +
                                       " iterations");
}

// The globalized search: pseudo-transient continuation (Kelley & Keyes, SIAM J. Numer.
// Anal. 35, 1998) toward rest. Implicit Euler steps in a pseudo-time τ,
//
//     (I/τ − G) δw = g(w),
//
// follow a motion that ends at rest, with τ small where that motion turns (each step a
// short stretch of it) and growing as g shrinks (switched evolution relaxation:
// τ ← τ ‖g_old‖/‖g_new‖), until the step is Newton's. Which motion: a model's own
// dynamics do not come to rest when nothing dissipates (an undamped pendulum swings
// forever, and implicit Euler's numerical damping fades as τ shrinks), so a mechanism's
// coordinates follow the overdamped motion instead, q' = q̈(q, q̇ = 0) with q̇ held at 0:
// along the constraints, in the mass metric, the steepest descent of the potential
// energy, which ends in a minimum (a stable equilibrium) and walks away from maxima.
// Other states (pressures, filters, integrators) follow their own first-order dynamics.
// Chosen over an energy line search because the model gives forces, not a potential (a
// follower load has none), and over a damped run to rest because τ adapts by itself and
// ends in Newton's quadratic convergence. Near rest (|ẋ| ≤ 1e-4) Newton's method
// finishes from there. Returns the steps; throws SimulationError when none comes to rest.
int pseudo_transient_equilibrium(const Model& model, Context& ctx, const std::string& newton_failure,
                                 const std::function<bool()>& stop_requested) {
  const int n = model.state_count();
  const auto pairs = model.coordinate_pairs(ctx);
  std::vector<int> rate_of(static_cast<size_t>(n), -1);
  std::vector<bool> is_rate(static_cast<size_t>(n), false);
  for (const auto& [q, v] : pairs) {
    rate_of[static_cast<size_t>(q)] = v;
    is_rate[static_cast<size_t>(v)] = true;
  }
  auto at_rest = [&](Context& c) {
    for (const auto& pr : pairs) c.x[pr.second] = 0.0;
    settle(model, c);
  };
  at_rest(ctx);
  // A step moves no unknown by more than this fraction of its scale max(1, |w|) (rad or m
  // for a mechanism): each step a short stretch of the motion, turns followed.
  const double max_change = 0.2;
  const int max_steps = 400, max_solves = 2000;
  double tau = 0.0, previous = 0.0, handover = 1e-4, res = 0.0;
  int steps = 0, solves = 0;
  while (steps < max_steps && solves < max_solves) {
    check_stop(stop_requested, ctx.t);
    const Partition p = partition(model, ctx);
    if (p.independent.empty()) return steps;
    res = scaled_residual(ctx, p.independent);
    if (res <= handover) {
      Context trial = ctx;
      try {
        newton_equilibrium(model, trial, stop_requested);
        ctx = trial;
        return steps;
      } catch (const SimulationError&) {
        handover = res / 100.0;  // not near enough yet
      }
    }
    Eigen::MatrixXd A, C;
    tangent_jacobians(model, ctx, p, {}, A, C);
    std::vector<int> slot(static_cast<size_t>(n), -1);
    for (size_t i = 0; i < p.independent.size(); ++i) slot[static_cast<size_t>(p.independent[i])] = static_cast<int>(i);
    // The unknowns: the independent states that are not rates (rates stay 0). A
    // coordinate moves with its rate's derivative, the acceleration at rest.
    std::vector<int> unknowns, rows;
    for (size_t i = 0; i < p.independent.size(); ++i) {
      const int s = p.independent[i];
      if (is_rate[static_cast<size_t>(s)]) continue;
      const int rate = rate_of[static_cast<size_t>(s)];
      unknowns.push_back(static_cast<int>(i));
      rows.push_back(rate >= 0 && slot[static_cast<size_t>(rate)] >= 0 ? slot[static_cast<size_t>(rate)] : static_cast<int>(i));
    }
    const auto nw = static_cast<Eigen::Index>(unknowns.size());
    Eigen::VectorXd g(nw), scale(nw);
    Eigen::MatrixXd G(nw, nw);
    for (Eigen::Index a = 0; a < nw; ++a) {
      const int row = rows[static_cast<size_t>(a)];
      g[a] = ctx.xdot[p.independent[static_cast<size_t>(row)]];
      for (Eigen::Index b = 0; b < nw; ++b) G(a, b) = A(row, unknowns[static_cast<size_t>(b)]);
      scale[a] = std::max(1.0, std::abs(ctx.x[p.independent[static_cast<size_t>(unknowns[static_cast<size_t>(a)])]]));
    }
    const double g_norm = g.cwiseQuotient(scale).lpNorm<Eigen::Infinity>();
    if (nw == 0 || g_norm == 0.0) break;  // nothing moves the state, which is not at rest
    if (tau == 0.0) tau = 0.5 * max_change / g_norm;  // the first step: half the largest change
    else tau *= std::clamp(previous / g_norm, 0.25, 4.0);
    previous = g_norm;
    for (;;) {
      if (++solves > max_solves) break;
      const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(nw, nw) / tau - G;
      const Eigen::VectorXd dw = M.colPivHouseholderQr().solve(g);
      const double change = dw.cwiseQuotient(scale).lpNorm<Eigen::Infinity>();
      if (!std::isfinite(change) || change > max_change) {
        tau *= std::isfinite(change) ? std::max(0.1, 0.5 * max_change / change) : 0.1;
        continue;
      }
      Eigen::VectorXd dz = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(p.independent.size()));
      for (Eigen::Index a = 0; a < nw; ++a) dz[unknowns[static_cast<size_t>(a)]] = dw[a];
      Context trial = ctx;
      trial.x += p.basis * dz;
      try {
        at_rest(trial);
      } catch (const SimulationError&) {  // a step the invariants cannot take back: shorter
        tau *= 0.25;
        continue;
      }
      ctx = trial;
      ++steps;
      break;
    }
  }
  std::ostringstream msg;
  msg << "no equilibrium found: Newton's method from the initial state failed (" << newton_failure
      << "), and pseudo-transient continuation toward rest did not come to rest either (|ẋ| = " << res << " after "
      << steps << " steps: a load nothing resists, a source that keeps flowing); choose another operating point: "
         "\"at\": \"initial\" or a time";
  throw SimulationError(ctx.t, {}, msg.str());
}

// How far `to` lies from `from`: the largest change of a state, named.
std::string largest_move(const Model& model, const Context& from, const Context& to) {
  Eigen::Index worst = 0;
  const Eigen::VectorXd change = (to.x - from.x).cwiseAbs();
  if (change.size() == 0) return "no state moved";
  change.maxCoeff(&worst);
  std::ostringstream text;
  text.precision(4);
  text << "largest change " << model.state_names()[static_cast<size_t>(worst)] << " by " << to.x[worst] - from.x[worst];
  return text.str();
}

}  // namespace

void reach_operating_point(const Model& model, Context& ctx, const LinearSettings& settings,
                           const SolverSettings& solver, const SolverRegistry& solvers, std::string* how,
                           const std::function<bool()>& stop_requested) {
  switch (settings.at) {
    case LinearSettings::At::Initial:
      model.evaluate(ctx);
      if (how) *how = "the initial state";
      return;
    case LinearSettings::At::Time: {
      if (settings.time < ctx.t)
        throw InputError({"", "/linear/at", "", ""}, "the operating point's time is before the run's start (t_start = " +
                                                         std::to_string(ctx.t) + " s)");
      if (settings.time > ctx.t) {
        SolverSettings s = solver;
        s.t_end = settings.time;
        SilentObserver quiet(stop_requested);
        SolverStats stats;
        simulate(model, ctx, s, quiet, stats, solvers);
      }
      model.evaluate(ctx);
      if (how) {
        std::ostringstream text;
        text << "the state at t = " << settings.time << " s (" << solver.method << ")";
        *how = text.str();
      }
      return;
    }
    case LinearSettings::At::Equilibrium: {
      settle(model, ctx);
      if (partition(model, ctx).independent.empty()) {  // nothing free to move (no states, or all driven)
        if (how) *how = "the initial state: no independent state to bring to rest";
        return;
      }
      // Newton's method first: from a start near an equilibrium it converges in a few
      // iterations, to the nearest one. Where it fails (a start where the restoring
      // stiffness vanishes, an equilibrium far away), the globalized search below.
      const Context start = ctx;
      std::string newton_failure;
      try {
        const int iterations = newton_equilibrium(model, ctx, stop_requested);
        if (how) *how = "the equilibrium found in " + std::to_string(iterations) + " Newton iteration(s)";
        return;
      } catch (const SimulationError& e) {
        newton_failure = e.message();
      }
      ctx = start;
      const int steps = pseudo_transient_equilibrium(model, ctx, newton_failure, stop_requested);
      if (how) {
        std::ostringstream text;
        text.precision(4);
        text << "the equilibrium found by pseudo-transient continuation toward rest in " << steps
             << " step(s), then Newton's method (Newton's method alone failed from the initial state), "
             << largest_move(model, start, ctx) << " from the initial state";
        *how = text.str();
      }
      return;
    }
  }
}

// ------------------------------------------------------------------ linearization

namespace {

// Eigenvalues whose real part is within this of zero are on the imaginary axis: the
// central differences give A to about 1e-9 of its scale, and eigenvalues follow to
// that accuracy times their conditioning.
double axis_tolerance(const Eigen::VectorXcd& lambda) {
  double scale = 0.0;
  for (const cd& l : lambda) scale = std::max(scale, std::abs(l));
  return 1e-7 * std::max(scale, 1e-3);
}

// A singular configuration (a row of parallelograms lying flat, a slider-crank's rod
// folded onto its crank) is where the invariants' Jacobian loses rank: the partition there
// counts independent states the mechanism does not have (the other assembly branch's
// motion), and a linear model on them is of another mechanism: its extra modes (A02 at a
// flat pose once gave λ = ±77 s⁻¹, "unstable") are artefacts. Rank is lower at a singular pose than at every
// pose around it on the manifold, where redundant constraints (a duplicated joint) keep
// theirs: so the partition is taken again at two poses a step 1e-3 (m, rad) away along
// a generic tangent direction, brought back onto the invariants. More dependent states
// there: refused, as Simscape and Modelica tools refuse a state selection at a singular
// Jacobian, since no linear model of this mechanism exists at that pose. Full rank but
// nearly singular (the pivots of the coordinate partition spread over more than 1e6): a
// warning, as the dependent coordinates then follow the independent ones through a
// matrix that amplifies the differentiation's errors by as much.
void check_regular(const Model& model, const Context& ctx, const Partition& p, LinearModel& lm) {
  if (p.dependent.empty() || p.independent.empty()) return;
  Eigen::VectorXd direction = Eigen::VectorXd::Zero(ctx.x.size());
  for (Eigen::Index k = 0; k < p.basis.cols(); ++k)  // weights no symmetry of the mechanism shares
    direction += std::sqrt(2.0 + static_cast<double>(k)) * (k % 2 == 0 ? 1.0 : -1.0) * p.basis.col(k);
  if (direction.cwiseAbs().maxCoeff() == 0.0) return;
  direction /= direction.cwiseAbs().maxCoeff();
  for (const double step : {1e-3, -1e-3}) {
    Context probe = ctx;
    probe.x += step * direction;
    try {
      settle(model, probe);
    } catch (const Error&) {
      continue;  // cannot get there: no evidence either way
    }
    const Partition near = partition(model, probe);
    if (near.independent.size() < p.independent.size()) {
      std::ostringstream msg;
      msg << "the operating point is a singular configuration: the constraints' Jacobian loses rank there, leaving "
          << p.independent.size() << " independent states where poses nearby have " << near.independent.size()
          << "; a linear model there would have spurious modes (the motion of another assembly branch). Linearize at "
             "a pose off it: another \"at\" (a time, or \"initial\" with the initial pose moved)";
      throw SimulationError(ctx.t, {}, msg.str());
    }
  }
  if (p.conditioning < 1e-6) {
    std::ostringstream msg;
    msg.precision(2);
    msg << "the operating point is near a singular configuration (the constraints' Jacobian's pivots spread over "
        << 1.0 / p.conditioning << "): the linear model may lose as many digits";
    lm.warnings.push_back(msg.str());
  }
}

void modes_of(LinearModel& lm) {
  const int n = static_cast<int>(lm.A.rows());
  if (n == 0) {
    lm.stability = "no dynamics: no independent state (y = D u)";
    return;
  }
  Eigen::EigenSolver<Eigen::MatrixXd> es(lm.A, true);
  if (es.info() != Eigen::Success) throw SimulationError(lm.time, {}, "the eigenvalue problem of A did not converge");
  Eigen::VectorXcd lambda = es.eigenvalues();
  Eigen::MatrixXcd V = es.eigenvectors();
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const double ma = std::abs(lambda[a]), mb = std::abs(lambda[b]);
    if (std::abs(ma - mb) > 1e-12 * std::max(ma, mb)) return ma < mb;
    return lambda[a].imag() > lambda[b].imag();
  });
  lm.eigenvalues.resize(n);
  lm.right.resize(n, n);
  for (int i = 0; i < n; ++i) {
    lm.eigenvalues[i] = lambda[order[i]];
    lm.right.col(i) = V.col(order[i]);
  }
  // Left eigenvectors: the rows of V⁻¹. A defective A (a free body: a double zero
  // eigenvalue with one eigenvector) has no inverse; then the factors fall back to the
  // right eigenvectors' squared magnitudes.
  Eigen::FullPivLU<Eigen::MatrixXcd> lu(lm.right);
  const bool invertible = lu.isInvertible() && lu.rcond() > 1e-12;
  Eigen::MatrixXcd W;
  if (invertible) W = lu.inverse();
  const double tol = axis_tolerance(lm.eigenvalues);
  bool unstable = false, marginal = false;
  for (int i = 0; i < n; ++i) {
    const cd l = lm.eigenvalues[i];
    if (l.imag() < -tol) continue;  // the conjugate of a listed one
    LinearMode m;
    m.eigenvalue = std::abs(l.imag()) <= tol ? cd(l.real(), 0.0) : l;
    m.column = i;
    m.oscillatory = std::abs(l.imag()) > tol;
    m.natural_frequency = std::abs(l);
    m.damping_ratio = m.natural_frequency > 0 ? -l.real() / m.natural_frequency : std::numeric_limits<double>::quiet_NaN();
    const bool on_axis = std::abs(l.real()) <= tol;
    // On the imaginary axis to the differentiation's accuracy, Re λ is rounding (±1e-16
    // of |λ|, or -0): ζ is 0 for a pair, undefined for λ = 0 (a free body's position).
    if (on_axis) m.damping_ratio = m.oscillatory ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    m.time_constant = on_axis ? std::numeric_limits<double>::infinity() : -1.0 / l.real();
    m.stable = l.real() < -tol;
    m.unstable = l.real() > tol;
    unstable = unstable || l.real() > tol;
    marginal = marginal || on_axis;
    // Participation factors p_k = |w_k v_k| (Pérez-Arriaga, Verghese & Schweppe 1982),
    // normalized to sum to 1.
    Eigen::VectorXd factor(n);
    for (int k = 0; k < n; ++k)
      factor[k] = invertible ? std::abs(W(i, k) * lm.right(k, i)) : std::norm(lm.right(k, i));
    const double total = factor.sum();
    if (total > 0) factor /= total;
    for (int k = 0; k < n; ++k) m.participation.push_back({k, factor[k]});
    std::stable_sort(m.participation.begin(), m.participation.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    // The shape over every state, scaled so that its largest participant reads 1.
    const int ref = m.participation.front().first;
    Eigen::VectorXcd v = lm.right.col(i);
    if (std::abs(v[ref]) > 0) v /= v[ref];
    m.shape = lm.basis.cast<cd>() * v;
    lm.modes.push_back(std::move(m));
  }
  lm.stability = unstable ? "unstable" : marginal ? "marginally stable" : "asymptotically stable";
}

void frequency_response(LinearModel& lm, const LinearSettings& s) {
  if (lm.B.cols() == 0 || lm.C.rows() == 0) return;
  double lo = s.frequency_from, hi = s.frequency_to;
  double slowest = 0.0, fastest = 0.0;
  for (const cd& l : lm.eigenvalues) {
    const double w = std::abs(l);
    if (w <= axis_tolerance(lm.eigenvalues)) continue;
    slowest = slowest == 0.0 ? w : std::min(slowest, w);
    fastest = std::max(fastest, w);
  }
  const double two_pi = 2.0 * std::numbers::pi;
  if (lo <= 0) lo = slowest > 0 ? slowest / two_pi / 10.0 : 0.01;
  if (hi <= 0) hi = fastest > 0 ? fastest / two_pi * 10.0 : 100.0;
  // An automatic end that falls on the wrong side of a given one: three decades from it
  // (set_frequency_range refused a given pair out of order).
  if (!(hi > lo)) {
    if (s.frequency_to > 0) lo = hi / 1000.0;
    else hi = lo * 1000.0;
  }
  const int points = s.frequency_points;
  lm.frequencies_hz.resize(points);
  for (int k = 0; k < points; ++k)
    lm.frequencies_hz[k] = lo * std::pow(hi / lo, static_cast<double>(k) / (points - 1));
  const Eigen::Index n = lm.A.rows(), ni = lm.B.cols(), no = lm.C.rows();
  lm.response.assign(static_cast<size_t>(ni * no), Eigen::VectorXcd(points));
  const Eigen::MatrixXcd A = lm.A.cast<cd>(), B = lm.B.cast<cd>(), C = lm.C.cast<cd>();
  for (int k = 0; k < points; ++k) {
    const cd s_k(0.0, two_pi * lm.frequencies_hz[k]);
    Eigen::MatrixXcd G = lm.D.cast<cd>();
    if (n > 0) {
      const Eigen::MatrixXcd M = s_k * Eigen::MatrixXcd::Identity(n, n) - A;
      G += C * M.partialPivLu().solve(B);
    }
    for (Eigen::Index o = 0; o < no; ++o)
      for (Eigen::Index i = 0; i < ni; ++i) lm.response[static_cast<size_t>(o * ni + i)][k] = G(o, i);
  }
}

}  // namespace

LinearModel linearize(const Model& model, const Context& ctx_in, const LinearSettings& settings) {
  Context ctx = ctx_in;
  model.evaluate(ctx);
  LinearModel lm;
  lm.at = settings.at == LinearSettings::At::Equilibrium ? "equilibrium"
          : settings.at == LinearSettings::At::Initial   ? "initial"
                                                         : "time";
  lm.time = ctx.t;
  lm.x = ctx.x;
  lm.state_names = model.state_names();
  std::vector<const RecordableVariable*> outputs;
  for (size_t k = 0; k < settings.outputs.size(); ++k) {
    const RecordableVariable& v = model.recordable(settings.outputs[k]);
    outputs.push_back(&v);
    lm.outputs.push_back(v.name);
    lm.output_units.push_back(v.unit);
  }
  std::vector<int> params;
  for (const auto& name : settings.inputs) {
    const ParameterInfo& p = model.parameter(name);
    params.push_back(p.index);
    lm.inputs.push_back(p.name);
    lm.input_units.push_back(p.unit);
  }
  const Partition p = partition(model, ctx);
  lm.independent = p.independent;
  lm.dependent = p.dependent;
  lm.basis = p.basis;
  lm.residual = scaled_residual(ctx, p.independent);
  check_regular(model, ctx, p, lm);
  tangent_jacobians(model, ctx, p, outputs, lm.A, lm.C);

  // B, D: central differences in each input parameter, step ε^(1/3) max(1, |u|).
  const int r = static_cast<int>(p.independent.size());
  lm.B.resize(r, static_cast<Eigen::Index>(params.size()));
  lm.D.resize(static_cast<Eigen::Index>(outputs.size()), static_cast<Eigen::Index>(params.size()));
  Prober probe(model, ctx, outputs);
  const Eigen::VectorXd no_move = Eigen::VectorXd::Zero(ctx.x.size());
  Eigen::VectorXd fp, fm, yp, ym;
  for (size_t j = 0; j < params.size(); ++j) {
    const double h = kStepScale * std::max(1.0, std::abs(ctx.parameters[params[j]]));
    probe.at(no_move, params[j], h, fp, yp);
    probe.at(no_move, params[j], -h, fm, ym);
    for (int i = 0; i < r; ++i) lm.B(i, static_cast<Eigen::Index>(j)) = (fp[p.independent[i]] - fm[p.independent[i]]) / (2.0 * h);
    lm.D.col(static_cast<Eigen::Index>(j)) = (yp - ym) / (2.0 * h);
  }

  // What a linear model cannot follow is held at its operating-point value. A discrete
  // state changes only at its component's events (Component::on_zero_crossing, time
  // events included): one whose component has no zero crossing is a constant of the
  // run (a mass without end stops, its contact always 0), and holding it holds nothing.
  std::string discretes;
  int count = 0;
  for (const auto& c : model.components()) {
    if (c->zero_crossings().empty()) continue;
    for (const auto& d : c->discrete_states()) {
      const RecordableVariable& v = model.recordable(c->name() + "." + d.name);
      std::ostringstream value;
      value << model.value(ctx, v);
      discretes += (count++ == 0 ? "" : ", ") + v.name + " = " + value.str();
    }
  }
  if (count > 0)
    lm.frozen.push_back(std::to_string(count) + " discrete state(s) held at their operating-point values (" +
                        discretes + ")");
  if (model.zero_crossing_count() > 0)
    lm.frozen.push_back(std::to_string(model.zero_crossing_count()) +
                        " zero-crossing function(s) ignored: no event happens in the linear model");

  modes_of(lm);
  frequency_response(lm, settings);
  return lm;
}

// ------------------------------------------------------------------ output

namespace {

const char* stability_of(const LinearMode& m) { return m.stable ? "stable" : m.unstable ? "unstable" : "marginal"; }
json complex_json(const cd& z) { return json::array({z.real(), z.imag()}); }
json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json matrix_json(const Eigen::MatrixXd& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

// The unit of an output per unit of an input ("m/N"); "1" stands for no unit.
std::string ratio_unit(const std::string& out, const std::string& in) {
  const std::string o = out.empty() ? "1" : out;
  if (in.empty() || in == "1") return o;
  return o + "/" + (in.find_first_of("*/") != std::string::npos ? "(" + in + ")" : in);
}

// Phase in degrees, unwrapped along the frequencies (no jumps of 360°).
std::vector<double> unwrapped_phase(const Eigen::VectorXcd& g) {
  std::vector<double> phase;
  double offset = 0.0, previous = 0.0;
  for (Eigen::Index k = 0; k < g.size(); ++k) {
    const double raw = std::arg(g[k]) * 180.0 / std::numbers::pi;
    if (k > 0) {
      while (raw + offset - previous > 180.0) offset -= 360.0;
      while (raw + offset - previous < -180.0) offset += 360.0;
    }
    previous = raw + offset;
    phase.push_back(previous);
  }
  return phase;
}

}  // namespace

json to_json(const LinearModel& lm) {
  auto names = [&](const std::vector<int>& idx) {
    json out = json::array();
    for (int i : idx) out.push_back(lm.state_names[i]);
    return out;
  };
  json op_states = json::object();
  for (size_t i = 0; i < lm.state_names.size(); ++i) op_states[lm.state_names[i]] = lm.x[static_cast<Eigen::Index>(i)];
  json inputs = json::array(), outputs = json::array();
  for (size_t k = 0; k < lm.inputs.size(); ++k) inputs.push_back({{"name", lm.inputs[k]}, {"unit", lm.input_units[k]}});
  for (size_t k = 0; k < lm.outputs.size(); ++k)
    outputs.push_back({{"name", lm.outputs[k]}, {"unit", lm.output_units[k]}});
  json eigenvalues = json::array();
  for (const cd& l : lm.eigenvalues) eigenvalues.push_back(complex_json(l));
  json modes = json::array();
  const double two_pi = 2.0 * std::numbers::pi;
  for (const LinearMode& m : lm.modes) {
    json participation = json::array();
    for (const auto& [k, f] : m.participation)
      if (f >= 1e-3) participation.push_back({{"state", lm.state_names[lm.independent[k]]}, {"factor", f}});
    json shape = json::object();
    for (size_t i = 0; i < lm.state_names.size(); ++i) shape[lm.state_names[i]] = complex_json(m.shape[static_cast<Eigen::Index>(i)]);
    modes.push_back({{"eigenvalue", complex_json(m.eigenvalue)},
                     {"natural_frequency_hz", m.natural_frequency / two_pi},
                     {"natural_frequency_rad_s", m.natural_frequency},
                     {"damped_frequency_hz", std::abs(m.eigenvalue.imag()) / two_pi},
                     {"damping_ratio", finite_or_null(m.damping_ratio)},
                     {"time_constant_s", finite_or_null(m.time_constant)},
                     {"kind", m.oscillatory ? "oscillatory" : "real"},
                     {"stable", m.stable},
                     {"stability", stability_of(m)},
                     {"participation", participation},
                     {"shape", shape}});
  }
  json out = {{"operating_point", {{"at", lm.at}, {"time", lm.time},
                                   {"note", lm.frozen.empty() ? "the model has no discrete states or events"
                                                              : "discrete states and events are frozen at the "
                                                                "operating point"},
                                   {"frozen", lm.frozen},
                                   {"warnings", lm.warnings},
                                   {"states", op_states}}},
              {"states", names(lm.independent)},
              {"dependent_states", names(lm.dependent)},
              {"inputs", inputs},
              {"outputs", outputs},
              {"A", matrix_json(lm.A)},
              {"B", matrix_json(lm.B)},
              {"C", matrix_json(lm.C)},
              {"D", matrix_json(lm.D)},
              {"stability", lm.stability},
              {"eigenvalues", eigenvalues},
              {"modes", modes}};
  // How close to ẋ = 0 an equilibrium is; elsewhere ẋ is no error.
  if (lm.at == "equilibrium") out["operating_point"]["residual"] = lm.residual;
  if (!lm.response.empty()) {
    json pairs = json::array();
    const size_t ni = lm.inputs.size();
    for (size_t o = 0; o < lm.outputs.size(); ++o)
      for (size_t i = 0; i < ni; ++i) {
        const Eigen::VectorXcd& g = lm.response[o * ni + i];
        json mag = json::array(), db = json::array();
        for (Eigen::Index k = 0; k < g.size(); ++k) {
          mag.push_back(std::abs(g[k]));
          db.push_back(std::abs(g[k]) > 0 ? json(20.0 * std::log10(std::abs(g[k]))) : json(nullptr));
        }
        pairs.push_back({{"input", lm.inputs[i]},
                         {"output", lm.outputs[o]},
                         {"unit", ratio_unit(lm.output_units[o], lm.input_units[i])},
                         {"magnitude", mag},
                         {"magnitude_db", db},
                         {"phase_deg", unwrapped_phase(g)}});
      }
    json freq = json::array();
    for (Eigen::Index k = 0; k < lm.frequencies_hz.size(); ++k) freq.push_back(lm.frequencies_hz[k]);
    out["bode"] = {{"frequency_hz", freq}, {"pairs", pairs}};
  }
  return out;
}

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string matrix_csv(const Eigen::MatrixXd& m, const std::vector<std::string>& rows,
                       const std::vector<std::string>& cols) {
  std::string text = "row";
  for (const auto& c : cols) text += "," + c;
  text += "\n";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    text += rows[static_cast<size_t>(i)];
    for (Eigen::Index j = 0; j < m.cols(); ++j) text += "," + number(m(i, j));
    text += "\n";
  }
  return text;
}

}  // namespace

void write_linear_files(const LinearModel& lm, const std::filesystem::path& dir) {
  write_text_file(dir / "linear.json", to_json(lm).dump(2) + "\n");
  std::vector<std::string> states;
  for (int i : lm.independent) states.push_back(lm.state_names[i]);
  std::vector<std::string> derivatives;
  for (const auto& s : states) derivatives.push_back("d(" + s + ")/dt");
  write_text_file(dir / "A.csv", matrix_csv(lm.A, derivatives, states));
  write_text_file(dir / "B.csv", matrix_csv(lm.B, derivatives, lm.inputs));
  write_text_file(dir / "C.csv", matrix_csv(lm.C, lm.outputs, states));
  write_text_file(dir / "D.csv", matrix_csv(lm.D, lm.outputs, lm.inputs));
  const double two_pi = 2.0 * std::numbers::pi;
  std::string modes =
      "mode,real_1_per_s,imag_rad_per_s,natural_frequency_hz,damped_frequency_hz,damping_ratio,time_constant_s,stability,"
      "main_state,main_participation\n";
  for (size_t k = 0; k < lm.modes.size(); ++k) {
    const LinearMode& m = lm.modes[k];
    modes += std::to_string(k + 1) + "," + number(m.eigenvalue.real()) + "," + number(m.eigenvalue.imag()) + "," +
             number(m.natural_frequency / two_pi) + "," + number(std::abs(m.eigenvalue.imag()) / two_pi) + "," +
             (std::isfinite(m.damping_ratio) ? number(m.damping_ratio) : "") + "," +
             (std::isfinite(m.time_constant) ? number(m.time_constant) : "") + "," + (stability_of(m)) + "," +
             lm.state_names[lm.independent[m.participation.front().first]] + "," +
             number(m.participation.front().second) + "\n";
  }
  write_text_file(dir / "modes.csv", modes);
  if (!lm.response.empty()) {
    std::string text = "frequency_hz";
    const size_t ni = lm.inputs.size();
    std::vector<std::vector<double>> phases;
    for (size_t o = 0; o < lm.outputs.size(); ++o)
      for (size_t i = 0; i < ni; ++i) {
        const std::string pair = lm.outputs[o] + "/" + lm.inputs[i];
        text += "," + pair + ".magnitude," + pair + ".phase_deg";
        phases.push_back(unwrapped_phase(lm.response[o * ni + i]));
      }
    text += "\n";
    for (Eigen::Index k = 0; k < lm.frequencies_hz.size(); ++k) {
      text += number(lm.frequencies_hz[k]);
      for (size_t q = 0; q < lm.response.size(); ++q)
        text += "," + number(std::abs(lm.response[q][k])) + "," + number(phases[q][static_cast<size_t>(k)]);
      text += "\n";
    }
    write_text_file(dir / "bode.csv", text);
  }
}

Context mode_pose(const Model& model, const Context& operating_point, const LinearModel& lm, int mode, double phase) {
  const LinearMode& m = lm.modes.at(static_cast<size_t>(mode));
  Context ctx = operating_point;
  // Where states come as coordinates and rates (a mechanism), the coordinate that moves
  // most moves by 0.1 (m or rad): what a drawing shows. Otherwise the largest
  // participant moves by a tenth of its scale.
  double amplitude = 0.0;
  for (const auto& pr : model.coordinate_pairs(ctx)) amplitude = std::max(amplitude, std::abs(m.shape[pr.first]));
  if (amplitude > 0) amplitude = 0.1 / amplitude;
  else amplitude = 0.1 * std::max(1.0, std::abs(lm.x[lm.independent[m.participation.front().first]]));
  const cd turn = std::polar(1.0, phase);
  for (Eigen::Index i = 0; i < ctx.x.size(); ++i) ctx.x[i] = lm.x[i] + amplitude * (m.shape[i] * turn).real();
  model.evaluate(ctx);
  try {
    model.restore_invariants(ctx);  // a finite displacement along the tangent leaves the manifold a little
  } catch (const Error&) {
    model.evaluate(ctx);  // drawn as the linear shape says
  }
  return ctx;
}

// ------------------------------------------------------------------ a netlist's linear run

LinearRunResult run_linear(const Netlist& netlist, const LinearSettings& settings, const LinearRunOptions& options) {
  LinearRunResult result;
  std::optional<SolverRegistry> builtin;
  const SolverRegistry& solvers = options.solvers ? *options.solvers : builtin.emplace();
  const InputLocation where{netlist.file.string(), "/solver", "", ""};
  SolverSettings solver = solver_settings_from_json(netlist.solver, where, solvers, &result.warnings);
  if (settings.at == LinearSettings::At::Time) {
    if (!(settings.time >= solver.t_start))
      throw InputError({netlist.file.string(), "/linear/at", "", ""}, "the operating point's time is before t_start");
    if (settings.time > solver.t_start) {
      solver.t_end = settings.time;
      check_solver_bounds(solver, where, solvers);
    }
  }
  const Model& model = netlist.model;
  Context ctx = model.make_context(solver.t_start);
  ctx.stop_requested = options.stop_requested;
  for (const auto& [name, value] : options.parameters) model.set_parameter(ctx, name, value);
  // Names are checked before anything runs: a typo in an output is bad input, not a
  // failure found after the operating point.
  auto check_names = [&](const std::vector<std::string>& names, const char* key, auto&& find) {
    for (size_t k = 0; k < names.size(); ++k) {
      try {
        find(names[k]);
      } catch (const InputError& e) {
        throw InputError({netlist.file.string(), "/linear/" + std::string(key) + "/" + std::to_string(k), "", ""},
                         e.message());
      }
    }
  };
  check_names(settings.outputs, "outputs", [&](const std::string& n) { model.recordable(n); });
  check_names(settings.inputs, "inputs", [&](const std::string& n) { model.parameter(n); });

  Recorder recorder(model, netlist.record);
  for (auto* l : options.listeners) recorder.add_listener(*l);
  if (!options.output_dir.empty()) detail::open_output_folder(options.output_dir, recorder);
  if (options.started) options.started();
  const auto start = std::chrono::steady_clock::now();
  std::string how;
  try {
    model.initialize(ctx);
    reach_operating_point(model, ctx, settings, solver, solvers, &how, options.stop_requested);
    recorder.record(ctx);
    result.linear = linearize(model, ctx, settings);
    result.finished = true;
  } catch (const detail::Interrupted& e) {
    result.interrupted = true;
    result.failure = e.what();
  } catch (const Stopped& e) {  // a component's own long work, stopped (Eval::stop_requested)
    result.interrupted = true;
    result.failure = e.what();
  } catch (const SimulationError& e) {
    result.failure = e.what();
  } catch (const OutputError& e) {
    result.failure = e.what();
  }
  ctx.stop_requested = nullptr;  // the caller's, valid during this call only
  result.operating_point = ctx;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const LinearModel& lm = result.linear;
  for (const auto& f : lm.frozen) result.warnings.push_back("linear analysis: " + f);
  for (const auto& w : lm.warnings) result.warnings.push_back("linear analysis: " + w);
  // Which equilibrium: one a run started near would leave is worth saying aloud.
  if (result.finished && lm.at == "equilibrium" && lm.stability == "unstable")
    result.warnings.push_back("linear analysis: the equilibrium found is unstable (an eigenvalue with Re λ > 0): a "
                              "run started near it leaves it");

  json final_values = json::object();
  const auto& last = recorder.last_row();
  for (size_t k = 1; k < last.size(); ++k) final_values[recorder.variables()[k - 1]->name] = last[k];
  result.summary = {{"jourdain_version", JOURDAIN_VERSION},
                    {"netlist", netlist.file.string()},
                    {"name", netlist.name},
                    {"status", result.finished ? "finished" : result.interrupted ? "interrupted" : "failed"},
                    {"analysis", "linear"},
                    {"wall_time_s", wall},
                    {"rows", recorder.rows()},
                    {"events", detail::events_json(ctx.events)},
                    {"warnings", result.warnings},
                    {"variables", detail::variables_json(recorder)},
                    {"final_values", final_values}};
  if (result.finished) {
    json modes = json::array();
    for (const LinearMode& m : lm.modes)
      modes.push_back({{"natural_frequency_hz", m.natural_frequency / (2.0 * std::numbers::pi)},
                       {"damping_ratio", finite_or_null(m.damping_ratio)},
                       {"eigenvalue", complex_json(m.eigenvalue)}});
    json point = {{"at", lm.at}, {"time", lm.time}, {"how", how}};
    if (lm.at == "equilibrium") point["residual"] = lm.residual;
    result.summary["linear"] = {{"operating_point", point},
                                {"frozen", lm.frozen.empty() ? json("nothing: the model has no discrete states or events")
                                                             : json(lm.frozen)},
                                {"independent_states", lm.independent.size()},
                                {"dependent_states", lm.dependent.size()},
                                {"inputs", lm.inputs},
                                {"outputs", lm.outputs},
                                {"stability", lm.stability},
                                {"modes", modes}};
  } else {
    result.summary["failure"] = {{"message", result.failure}, {"time", ctx.t}};
  }
  if (!options.output_dir.empty()) {
    if (result.finished) {
      try {
        write_linear_files(lm, options.output_dir);
      } catch (const OutputError& e) {  // a full disk: the analysis is done, its files are not all there
        result.finished = false;
        result.failure = e.what();
        result.summary["status"] = "failed";
        result.summary["failure"] = {{"message", result.failure}, {"time", ctx.t}};
      }
    }
    if (std::string failed = detail::write_summary(options.output_dir, result.summary, recorder.rows()); !failed.empty()) {
      result.finished = false;
      result.failure = failed;
    }
  }
  return result;
}

}  // namespace jourdain
