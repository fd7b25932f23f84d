// Singular configurations along a run (mechanism_singularity.hpp).
#include "mechanism_singularity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

#include "mechanism_jacobian.hpp"

namespace jourdain::mechanical {

namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

// Inverse iterations per sample: warm-started from the last sample's vector, a few are
// enough for σ to three digits, which is all a threshold test and a minimum search need.
constexpr int kInverseIterations = 3;
// B Bᵀ + εI is factorized: the shift keeps the LDLᵀ defined at an exactly singular pose
// (σ then comes out as √ε ≈ 3e-8, well below any useful threshold).
constexpr double kShift = 1e-15;
// Golden-section steps along the cubic between two samples: 0.618^30 ≈ 5e-7 of the
// interval, well inside the time a pass spends below the threshold.
constexpr int kSearchSteps = 30;
constexpr int kBisections = 40;
// The equations named as involved: those with at least this part of the singular
// vector's largest entry, at most kNamed of them in a message.
constexpr double kInvolved = 0.3;
constexpr size_t kNamed = 4;

struct Sample {
  double t;
  Eigen::VectorXd q, v;
  double sigma;
  bool inside = false;  // in a singular configuration after this sample
};

struct SingularityTrack final : FormulationScratch {
  SparseJacobian jacobian;
  std::vector<char> excluded;  // per equation
  Eigen::VectorXd vector;      // the last singular vector, where the next inverse iteration starts
  ProductMatrix gram;  // B Bᵀ + εI, its pattern fixed for the run
  Eigen::SimplicialLDLT<SparseMatrix> ldlt;
  Eigen::VectorXd diagonal;
  std::vector<Sample> samples;  // the last three, in time order
  bool inside = false;
  double entered = 0.0;
  // The last pass logged: a step attempt that the solver rejects and retries finds the
  // same pass again, which is logged once.
  double pass_from = -std::numeric_limits<double>::infinity(), pass_to = -std::numeric_limits<double>::infinity();
  bool pass_left = false;  // its leaving is logged
  // A copy of the run's Context in which positions between two samples are tried.
  std::unique_ptr<Context> probe;
  Workspace probe_workspace;
};

// σ of B = D Φ_q M^{-1/2} at the evaluated state of `me`, with `track`'s buffers.
Conditioning measure(const MechanismEval& me, SingularityTrack& track) {
  Conditioning out;
  const MechanismSystem& system = me.system;
  const int n = system.coordinates(), m = system.equations();
  if (m == 0) return out;
  SparseJacobian& J = track.jacobian;
  J.gather(system, me.ws.state);
  if (track.excluded.size() != static_cast<size_t>(m)) track.excluded.assign(m, 0);
  Eigen::VectorXd w(n), row_scale(m);
  for (int b = 0; b < n / 3; ++b) w.segment<3>(3 * b) = system.mass(me.model, me.ctx, b);
  for (int i = 0; i < m; ++i) {
    const double g = J.squared_norm(i, w);
    row_scale[i] = g > 0.0 ? 1.0 / std::sqrt(g) : 0.0;
  }
  // B Bᵀ: (B Bᵀ)_ij = d_i d_j Σ_c J_ic J_jc / w_c, the products of entries within a column.
  if (!track.gram.built()) {
    std::vector<std::vector<int>> of_column(n);
    for (size_t e = 0; e < J.column.size(); ++e) of_column[J.column[e]].push_back(static_cast<int>(e));
    track.gram.build(of_column, J.equation, m);
    track.ldlt.analyzePattern(track.gram.matrix());
  }
  // Left-out equations (and a row that vanishes here) stand as unit rows of their own.
  track.diagonal.resize(m);
  for (int i = 0; i < m; ++i) {
    const bool out_of_it = track.excluded[i] || row_scale[i] == 0.0;
    track.diagonal[i] = (out_of_it ? 1.0 : 0.0) + kShift;
    if (out_of_it) row_scale[i] = 0.0;
  }
  track.gram.assemble(track.diagonal, [&](int a, int b) {
    return row_scale[J.equation[a]] * row_scale[J.equation[b]] * J.value[a] * J.value[b] / w[J.column[a]];
  });
  const SparseMatrix& shifted = track.gram.matrix();
  track.ldlt.factorize(shifted);
  if (track.ldlt.info() != Eigen::Success) {
    out.sigma = 0.0;
    return out;
  }
  Eigen::VectorXd v = track.vector.size() == m ? track.vector : Eigen::VectorXd::Ones(m);
  for (int k = 0; k < kInverseIterations; ++k) {
    v = track.ldlt.solve(v);
    const double norm = v.norm();
    if (!(norm > 0.0) || !std::isfinite(norm)) {
      v = Eigen::VectorXd::Ones(m);
      break;
    }
    v /= norm;
  }
  track.vector = v;
  // The matrix holds its lower triangle: vᵀSv = 2 vᵀ(lower)v − Σ diag v².
  const Eigen::VectorXd lower = shifted.triangularView<Eigen::Lower>() * v;
  const double rayleigh = 2.0 * v.dot(lower) - v.cwiseProduct(shifted.diagonal()).dot(v) - kShift;
  out.sigma = std::sqrt(std::max(rayleigh, 0.0));
  const double largest = v.cwiseAbs().maxCoeff();
  for (int i = 0; i < m; ++i)
    if (!track.excluded[i] && std::abs(v[i]) >= kInvolved * largest) out.equations.push_back(i);
  return out;
}

Eigen::VectorXd velocities(const MechanismEval& me) {
  Eigen::VectorXd v(me.system.coordinates());
  for (size_t b = 0; b < me.system.bodies().size(); ++b) {
    const Eval e = me.model.view(me.system.bodies()[b].comp, me.ctx, Eval::Phase::Outputs);
    v.segment<3>(3 * b) = me.system.bodies()[b].body->velocity(e);
  }
  return v;
}

// The positions at fraction s of [a.t, b.t] on the cubic Hermite curve through a's and
// b's positions and velocities.
Eigen::VectorXd hermite(const Sample& a, const Sample& b, double s) {
  const double h = b.t - a.t;
  const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s);
  const double h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
  return h00 * a.q + (h10 * h) * a.v + h01 * b.q + (h11 * h) * b.v;
}

// σ along the cubic between two samples, evaluated in the track's probe Context.
class Path {
 public:
  Path(const MechanismEval& me, SingularityTrack& track, const Sample& a, const Sample& b) : me_(me), track_(track), a_(a), b_(b) {
    if (!track.probe) {
      track.probe = std::make_unique<Context>(me.ctx);
      track.probe_workspace.state = me.system.make_state();
    } else {
      *track.probe = me.ctx;
    }
  }
  double time(double s) const { return a_.t + s * (b_.t - a_.t); }
  Conditioning at(double s) const {
    Context& probe = *track_.probe;
    probe.t = time(s);
    me_.system.set_positions(me_.model, probe, Eval::Phase::Project, hermite(a_, b_, s));
    const MechanismEval pe{me_.model, me_.system, probe, track_.probe_workspace};
    pe.publish_kinematics();
    pe.evaluate();
    return measure(pe, track_);
  }
  // The fraction where σ crosses `threshold` between s0 (σ on one side) and s1 (the other).
  double crossing(double s0, double s1, double threshold) const {
    const bool below0 = at(s0).sigma < threshold;
    for (int k = 0; k < kBisections; ++k) {
      const double mid = 0.5 * (s0 + s1);
      ((at(mid).sigma < threshold) == below0 ? s0 : s1) = mid;
    }
    return 0.5 * (s0 + s1);
  }
  // The fraction where σ is smallest on [0, 1] (golden-section search: σ has one dip
  // between the two samples).
  double minimum() const {
    const double r = 0.5 * (std::sqrt(5.0) - 1.0);
    double lo = 0.0, hi = 1.0, x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
    double f1 = at(x1).sigma, f2 = at(x2).sigma;
    for (int k = 0; k < kSearchSteps; ++k) {
      if (f1 < f2) {
        hi = x2, x2 = x1, f2 = f1, x1 = hi - r * (hi - lo), f1 = at(x1).sigma;
      } else {
        lo = x1, x1 = x2, f1 = f2, x2 = lo + r * (hi - lo), f2 = at(x2).sigma;
      }
    }
    return 0.5 * (lo + hi);
  }

 private:
  const MechanismEval& me_;
  SingularityTrack& track_;
  const Sample &a_, &b_;
};

std::string involved(const MechanismSystem& system, const std::vector<int>& equations) {
  std::vector<int> named(equations.begin(), equations.begin() + std::min(equations.size(), kNamed));
  std::string text = system.equation_names(named);
  if (equations.size() > named.size()) text += " and " + std::to_string(equations.size() - named.size()) + " more";
  return text;
}

}  // namespace

Conditioning SingularityMonitor::conditioning(const MechanismEval& me) const {
  return measure(me, me.ws.scratch<SingularityTrack>(this));
}

void SingularityMonitor::exclude(const MechanismEval& me, const std::vector<int>& equations) const {
  SingularityTrack& track = me.ws.scratch<SingularityTrack>(this);
  track.excluded.assign(me.system.equations(), 0);
  for (int i : equations) track.excluded[i] = 1;
}

bool SingularityMonitor::inside(const MechanismEval& me) const { return me.ws.scratch<SingularityTrack>(this).inside; }

int SingularityMonitor::sample(const MechanismEval& me, bool along_path) const {
  SingularityTrack& track = me.ws.scratch<SingularityTrack>(this);
  const Conditioning here = measure(me, track);
  Sample now{me.ctx.t, me.system.positions(me.model, me.ctx, Eval::Phase::Outputs), velocities(me), here.sigma};
  // A sample at or before the last ones replaces them: a rejected step's attempt, or a
  // recorded point at the end of the step just observed (its time computed another way:
  // equal to rounding).
  const double same = 1e-10 * std::max(1.0, std::abs(now.t));
  while (!track.samples.empty() && track.samples.back().t >= now.t - same) track.samples.pop_back();
  if (!track.samples.empty()) track.inside = track.samples.back().inside;
  auto log = [&](double t, const std::string& text) { me.ctx.log_event(t, mechanism_, text); };
  // Whether a pass entered at t is the last one logged, found again.
  auto logged = [&](double t) {
    const double slack = 1e-9 * std::max(1.0, std::abs(t)) + (track.pass_to - track.pass_from);
    return t >= track.pass_from - slack && t <= track.pass_to + slack;
  };
  auto enter = [&](double t, const Conditioning& c) {
    track.inside = true;
    track.entered = t;
    if (logged(t)) return;
    track.pass_from = track.pass_to = t;
    track.pass_left = false;
    std::ostringstream msg;
    msg.precision(3);
    msg << "enters a singular configuration (σ = " << c.sigma << " < " << threshold_
        << "): the constraint Jacobian loses rank; equations involved: " << involved(me.system, c.equations);
    log(t, msg.str());
  };
  auto leave = [&](double t) {
    track.inside = false;
    if (track.pass_left) return;  // logged already, by an attempt the solver retried
    track.pass_to = t;
    track.pass_left = true;
    std::ostringstream msg;
    msg.precision(10);
    msg << "leaves the singular configuration entered at t = " << track.entered << " s";
    log(t, msg.str());
  };
  int entered = 0;
  if (track.samples.empty()) {
    if (here.sigma < threshold_) enter(now.t, here), ++entered;
  } else {
    const Sample& last = track.samples.back();
    // Where σ crosses the threshold between the last sample and this one.
    auto crossing = [&] {
      if (!along_path) return now.t;
      const Path path(me, track, last, now);
      return path.time(path.crossing(0.0, 1.0, threshold_));
    };
    if (!track.inside && now.sigma < threshold_) {
      enter(crossing(), here);
      ++entered;
    } else if (track.inside && now.sigma >= threshold_) {
      leave(crossing());
    } else if (!track.inside && along_path && track.samples.size() >= 2 &&
               last.sigma < track.samples[track.samples.size() - 2].sigma && last.sigma < now.sigma) {
      // A dip at the last sample: the smallest σ lies on one of the two intervals around it.
      const Sample& before = track.samples[track.samples.size() - 2];
      for (const auto& [a, b] : {std::pair<const Sample*, const Sample*>{&before, &last}, {&last, &now}}) {
        const Path path(me, track, *a, *b);
        const double s = path.minimum();
        const Conditioning deepest = path.at(s);
              if (deepest.sigma >= threshold_) continue;
        enter(path.time(path.crossing(0.0, s, threshold_)), deepest);
        leave(path.time(path.crossing(s, 1.0, threshold_)));
        ++entered;
        break;
      }
    }
  }
  now.inside = track.inside;
  track.samples.push_back(std::move(now));
  if (track.samples.size() > 3) track.samples.erase(track.samples.begin());
  return entered;
}

}  // namespace jourdain::mechanical
