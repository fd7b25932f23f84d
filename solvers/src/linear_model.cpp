// The linear model at a point (linear.hpp): A, B, C and D by central differences in the
// independent coordinates, what is held frozen there, the modes with their participation
// factors and shapes, the frequency response, and the poses that draw a mode.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include "linear_internal.hpp"

namespace jourdain {

using cd = std::complex<double>;
using detail::check_regular;
using detail::kStepScale;
using detail::Partition;
using detail::partition;
using detail::Prober;
using detail::scaled_residual;
using detail::tangent_jacobians;

namespace {

// Eigenvalues whose real part is within this of zero are on the imaginary axis: the
// central differences give A to about 1e-9 of its scale, and eigenvalues follow to
// that accuracy times their conditioning.
double axis_tolerance(const Eigen::VectorXcd& lambda) {
  double scale = 0.0;
  for (const cd& l : lambda) scale = std::max(scale, std::abs(l));
  return 1e-7 * std::max(scale, 1e-3);
}

// Balancing (B. N. Parlett and C. Reinsch, "Balancing a matrix for calculation of
// eigenvalues and eigenvectors", Numer. Math. 13, 1969; the scaling step of LAPACK's
// xGEBAL): B = D⁻¹ A D with D diagonal, of powers of 2 so that the scaling is exact,
// chosen so that each state's off-diagonal row and column norms come close. The QR
// iterations are backward stable relative to ‖A‖ only, and a model whose states have
// units far apart (pressures in Pa beside flows in m³/s: entries 20 orders of magnitude
// apart) otherwise loses its small eigenvalues to rounding: a passive line came out
// "unstable", its first mode 30 % off. Returns D's diagonal; B overwrites A.
Eigen::VectorXd balance(Eigen::MatrixXd& a) {
  const int n = static_cast<int>(a.rows());
  Eigen::VectorXd d = Eigen::VectorXd::Ones(n);
  constexpr double radix = 2.0;
  for (bool done = false; !done;) {
    done = true;
    for (int i = 0; i < n; ++i) {
      const double c = a.col(i).cwiseAbs().sum() - std::abs(a(i, i));
      const double r = a.row(i).cwiseAbs().sum() - std::abs(a(i, i));
      if (c == 0.0 || r == 0.0) continue;
      // f, a power of 2, brings c f and r / f within a factor of 2 of each other.
      double f = 1.0, cs = c;
      while (cs < r / radix) { f *= radix; cs *= radix * radix; }
      while (cs >= r * radix) { f /= radix; cs /= radix * radix; }
      if ((cs + r) / f < 0.95 * (c + r)) {
        done = false;
        d[i] *= f;
        a.row(i) /= f;
        a.col(i) *= f;
      }
    }
  }
  return d;
}

void modes_of(LinearModel& lm) {
  const int n = static_cast<int>(lm.A.rows());
  if (n == 0) {
    lm.stability = "no dynamics: no independent state (y = D u)";
    return;
  }
  Eigen::MatrixXd balanced = lm.A;
  const Eigen::VectorXd scale = balance(balanced);
  Eigen::EigenSolver<Eigen::MatrixXd> es(balanced, true);
  if (es.info() != Eigen::Success) throw SimulationError(lm.time, {}, "the eigenvalue problem of A did not converge");
  Eigen::VectorXcd lambda = es.eigenvalues();
  // A's eigenvectors are D times B's, normalised again.
  Eigen::MatrixXcd V = scale.cast<cd>().asDiagonal() * es.eigenvectors();
  for (int i = 0; i < n; ++i) V.col(i).normalize();
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
  // The solves on the balanced model (balance()): C (sI − A)⁻¹ B = (C D) (sI − D⁻¹ A D)⁻¹ (D⁻¹ B),
  // so that pivoting sees entries of comparable size.
  Eigen::MatrixXd balanced = lm.A;
  const Eigen::VectorXd scale = balance(balanced);
  const Eigen::MatrixXcd A = balanced.cast<cd>();
  const Eigen::MatrixXcd B = (scale.cwiseInverse().asDiagonal() * lm.B).cast<cd>();
  const Eigen::MatrixXcd C = (lm.C * scale.asDiagonal()).cast<cd>();
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

}  // namespace jourdain
