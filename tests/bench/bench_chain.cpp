// Planar mechanism benchmark: an N-link pendulum chain.
//
// The model (chain_netlist.hpp): N uniform rods, 1 m, 1 kg, inertia m L²/12, joined end
// to end by revolute joints, the first pinned to the ground at the origin, released from
// rest horizontal along +x under gravity −9.81; dopri5 (rtol 1e-6, atol 1e-8, output
// every 0.1 s) for 10 s; Baumgarte α = β = 10, no projection.
//
// It is simulated twice, side by side, through the same Model and solver code
// (run_netlist → simulate):
//   framework    the netlist of N mechanical.body, N mechanical.revolute and one
//                mechanical.ground, generated as JSON text and loaded with
//                load_netlist_text: the mechanism's block solver (mechanism_solver.cpp)
//                assembles the sparse KKT system from the components' point Jacobians
//                and solves it with Eigen's SparseLU (symbolic analysis kept): the
//                netlist asks for world.constraints.formulation "kkt";
//   hand-written one component (bench.pendulum_chain, registered into the same registry
//                the way a plugin would) whose calc_derivatives assembles the same KKT
//                system in absolute coordinates in one loop (the same entries, explicit
//                zeros included, in the same order, with the same Baumgarte terms),
//                factorizes it with SparseLU (analyzePattern once, in a mutable member)
//                and solves it; its 6N states sit in the framework's order (per link
//                x, y, θ, vx, vy, ω).
// The ratio of their run times is the cost of the framework and of the library's
// generality (ports, point kinematics, per-evaluation bookkeeping) over the linear
// algebra, which both share. The two runs compute the same numbers operation for
// operation, so they agree to the last bit; the last link's angle is compared over the
// whole run (the chain is chaotic: the smallest difference would grow to O(1) in 10 s).
//
// Usage: bench_chain [N ...] [--max-n K] [--quick] [--t-end T] [--repeats R]
//   default N = 1 2 4 8 16 32 64 128 256; --quick: t_end 1 s, N ≤ 32, three runs each.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Sparse>
#include <nlohmann/json.hpp>

#include "chain_netlist.hpp"
#include "jourdain/components/builtin.hpp"
#include "jourdain/components/gravity.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/solvers/run.hpp"

namespace {

using namespace jourdain;
using jourdain::bench::chain_link_name;
using jourdain::bench::ChainOptions;
using jourdain::bench::make_chain_netlist;
using Clock = std::chrono::steady_clock;

std::string indexed(const char* prefix, long i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%06ld", prefix, i);
  return buf;
}

// ---- the hand-written chain, as one component ----
//
// KKT system (n = 3N body coordinates, m = 2N joint equations):
//   [ M    Φ_qᵀ ] [ q̈ ]   [ Q                       ]
//   [ Φ_q  0    ] [ λ  ] = [ γ − 2α Φ̇ − β² Φ          ]
// Joint j joins the tip of link j−1 (the ground's origin for j = 1) to the pin of link j:
// Φ = r_pin,j − r_tip,j−1 (x and y rows). With a point's arm s = A(θ)s', its rows of
// Φ_q on a link are [±1, 0, ∓s_y] (x) and [0, ±1, ±s_x] (y), and γ = ω_j² s_pin,j −
// ω_{j−1}² s_tip,j−1 (the ω² s parts of the point accelerations).
class PendulumChain final : public Component {
 public:
  PendulumChain() {
    declare_integer("n", 1, "number of links", Range::at_least(1));
    declare_config_real("length", "m", 1.0, "link length", Range::positive());
    declare_config_real("mass", "kg", 1.0, "link mass", Range::positive());
    declare_config_real("alpha", "1/s", 10.0, "Baumgarte velocity gain", Range::non_negative());
    declare_config_real("beta", "1/s", 10.0, "Baumgarte position gain", Range::non_negative());
  }
  void configure() override {
    n_ = integer("n");
    gravity_ = planar_gravity(world());
    length_ = config_real("length");
    mass_ = config_real("mass");
    inertia_ = mass_ * length_ * length_ / 12.0;
    alpha_ = config_real("alpha");
    beta_ = config_real("beta");
    for (long i = 1; i <= n_; ++i) {
      x_.push_back(declare_state(indexed("x", i), "m", (static_cast<double>(i) - 0.5) * length_, "centre of link i, x"));
      y_.push_back(declare_state(indexed("y", i), "m", 0.0, "centre of link i, y"));
      th_.push_back(declare_state(indexed("theta", i), "rad", 0.0, "angle of link i"));
      vx_.push_back(declare_state(indexed("vx", i), "m/s", 0.0, "its velocity, x"));
      vy_.push_back(declare_state(indexed("vy", i), "m/s", 0.0, "its velocity, y"));
      om_.push_back(declare_state(indexed("omega", i), "rad/s", 0.0, "its angular velocity"));
    }
    phi_norm_ = declare_observable("constraint_norm", "", "‖Φ‖ of the joint equations");
    energy_ = declare_observable("energy", "J", "kinetic + potential energy of the chain (0 at the start)");
  }

  void calc_derivatives(Eval& e) const override {
    const int nb = static_cast<int>(n_), n = 3 * nb, m = 2 * nb;
    const Eigen::Vector2d& g = gravity_;
    const double half = 0.5 * length_;
    // Point kinematics of each link's pin (x' = −L/2) and tip (x' = +L/2).
    pin_r_.resize(nb), pin_v_.resize(nb), pin_s_.resize(nb);
    tip_r_.resize(nb), tip_v_.resize(nb), tip_s_.resize(nb);
    omega_.resize(nb);
    for (int b = 0; b < nb; ++b) {
      const double th = e.state(th_[b]), c = std::cos(th), s = std::sin(th), om = e.state(om_[b]);
      const Eigen::Vector2d r{e.state(x_[b]), e.state(y_[b])}, v{e.state(vx_[b]), e.state(vy_[b])};
      const Eigen::Vector2d sp{c * -half - s * 0.0, s * -half + c * 0.0}, st{c * half - s * 0.0, s * half + c * 0.0};
      pin_s_[b] = sp;
      tip_s_[b] = st;
      pin_r_[b] = r + sp;
      tip_r_[b] = r + st;
      pin_v_[b] = v + om * Eigen::Vector2d{-sp.y(), sp.x()};
      tip_v_[b] = v + om * Eigen::Vector2d{-st.y(), st.x()};
      omega_[b] = om;
    }

    // Matrix: masses, then Φ_q and Φ_qᵀ joint by joint (rows x, y; port a, port b),
    // three entries per port and row, as the mechanism solver emits them.
    triplets_.clear();
    triplets_.reserve(3 * nb + 24 * nb);
    for (int b = 0; b < nb; ++b) {
      triplets_.emplace_back(3 * b, 3 * b, mass_);
      triplets_.emplace_back(3 * b + 1, 3 * b + 1, mass_);
      triplets_.emplace_back(3 * b + 2, 3 * b + 2, inertia_);
    }
    auto emit = [&](int row, int col, double v) {
      triplets_.emplace_back(n + row, col, v);
      triplets_.emplace_back(col, n + row, v);
    };
    rhs_.resize(n + m);
    phi_.resize(m);
    for (int b = 0; b < nb; ++b) {
      rhs_[3 * b] = mass_ * g.x();
      rhs_[3 * b + 1] = mass_ * g.y();
      rhs_[3 * b + 2] = 0.0;
    }
    for (int j = 0; j < nb; ++j) {
      const bool grounded = j == 0;
      const Eigen::Vector2d ra = grounded ? Eigen::Vector2d::Zero() : tip_r_[j - 1];
      const Eigen::Vector2d va = grounded ? Eigen::Vector2d::Zero() : tip_v_[j - 1];
      const Eigen::Vector2d sa = grounded ? Eigen::Vector2d::Zero() : tip_s_[j - 1];
      const double wa2 = grounded ? 0.0 : omega_[j - 1] * omega_[j - 1], wb2 = omega_[j] * omega_[j];
      for (int i = 0; i < 2; ++i) {
        const int row = 2 * j + i;
        const double phi = pin_r_[j][i] - ra[i];
        const double phidot = pin_v_[j][i] - va[i];
        double gamma = -0.0;
        gamma += wa2 * -sa[i];
        gamma += wb2 * pin_s_[j][i];
        double rhs = gamma;
        rhs -= 2.0 * alpha_ * phidot + beta_ * beta_ * phi;
        rhs_[n + row] = rhs;
        phi_[row] = phi;
        // Point Jacobian of the row: −e_i on a, +e_i on b; body columns
        // [j0, j1, j2 − j0 s_y + j1 s_x] for each port on a link.
        const double j0 = i == 0 ? 1.0 : 0.0, j1 = i == 1 ? 1.0 : 0.0;
        if (!grounded) {
          const double a0 = i == 0 ? -1.0 : 0.0, a1 = i == 1 ? -1.0 : 0.0;
          const int col = 3 * (j - 1);
          emit(row, col, a0);
          emit(row, col + 1, a1);
          emit(row, col + 2, 0.0 - a0 * sa.y() + a1 * sa.x());
        }
        const int col = 3 * j;
        emit(row, col, j0);
        emit(row, col + 1, j1);
        emit(row, col + 2, 0.0 - j0 * pin_s_[j].y() + j1 * pin_s_[j].x());
      }
    }
    kkt_.resize(n + m, n + m);
    kkt_.setFromTriplets(triplets_.begin(), triplets_.end());
    if (!analyzed_) {
      lu_.analyzePattern(kkt_);
      analyzed_ = true;
    }
    lu_.factorize(kkt_);
    if (lu_.info() != Eigen::Success) throw SimulationError(e.time(), {name()}, "singular KKT matrix");
    sol_ = lu_.solve(rhs_);

    for (int b = 0; b < nb; ++b) {
      e.set_derivative(x_[b], e.state(vx_[b]));
      e.set_derivative(y_[b], e.state(vy_[b]));
      e.set_derivative(th_[b], e.state(om_[b]));
      e.set_derivative(vx_[b], sol_[3 * b]);
      e.set_derivative(vy_[b], sol_[3 * b + 1]);
      e.set_derivative(om_[b], sol_[3 * b + 2]);
    }
    e.set_observable(phi_norm_, phi_.norm());
    // Energy: conserved by the exact solution (an independent check of the KKT terms,
    // which the comparison with the library cannot be: both compute the same numbers).
    double energy = 0.0;
    for (int b = 0; b < nb; ++b) {
      const double vx = e.state(vx_[b]), vy = e.state(vy_[b]), om = e.state(om_[b]);
      energy += 0.5 * mass_ * (vx * vx + vy * vy) + 0.5 * inertia_ * om * om -
                mass_ * (g.x() * e.state(x_[b]) + g.y() * e.state(y_[b]));
    }
    e.set_observable(energy_, energy);
  }

 private:
  long n_ = 0;
  double length_ = 1.0, mass_ = 1.0, inertia_ = 1.0, alpha_ = 10.0, beta_ = 10.0;
  Eigen::Vector2d gravity_;  // world.gravity
  std::vector<StateId> x_, y_, th_, vx_, vy_, om_;
  ObservableId phi_norm_, energy_;
  // Scratch and the factorization: mutable, this is a benchmark (a real component
  // keeps run data in the Context).
  mutable std::vector<Eigen::Vector2d> pin_r_, pin_v_, pin_s_, tip_r_, tip_v_, tip_s_;
  mutable std::vector<double> omega_;
  mutable std::vector<Eigen::Triplet<double>> triplets_;
  mutable Eigen::SparseMatrix<double> kkt_;
  mutable Eigen::SparseLU<Eigen::SparseMatrix<double>> lu_;
  mutable bool analyzed_ = false;
  mutable Eigen::VectorXd rhs_, phi_, sol_;
};

std::string hand_netlist(long n, const ChainOptions& o) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                R"({"name": "pendulum_chain_hand_%ld", "world": {"gravity": [0, %.17g]}, )"
                R"("components": {"chain": {"type": "bench.pendulum_chain", "params": {"n": %ld, "length": %.17g, )"
                R"("mass": %.17g, "alpha": %.17g, "beta": %.17g}}}, )"
                R"("solver": {"method": "%s", "t_end": %.17g, "rtol": %.17g, "atol": %.17g, "output_interval": %.17g}, )",
                n, o.gravity, n, o.length, o.mass, o.alpha, o.beta, o.method.c_str(), o.t_end, o.rtol, o.atol,
                o.output_interval);
  return std::string(buf) + R"("record": ["chain.)" + indexed("x", n) + R"(", "chain.)" + indexed("y", n) +
         R"(", "chain.)" + indexed("theta", n) + R"(", "chain.constraint_norm", "chain.energy"]})";
}

// ---- measuring ----
struct Measure {
  double run_s = 1e300;  // best run_netlist time
  int runs = 0;
  RunResult result;      // of the last run
};

bool run_once(const Netlist& net, Measure& m) {
  RunOptions o;
  o.keep_rows = true;  // t_end / 0.1 + 1 rows of 5 values
  const auto t0 = Clock::now();
  RunResult res = run_netlist(net, o);
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  m.run_s = std::min(m.run_s, s);
  ++m.runs;
  m.result = std::move(res);
  return m.result.finished;
}

double per_link_us(const Measure& m, long n) {
  return 1e6 * m.run_s / static_cast<double>(m.result.stats.rhs_evaluations) / static_cast<double>(n);
}

// --setup: how the time to load a chain and start its run grows with N. The run is one
// rk4 step of 1 ms with the library's default formulation, so that it is mostly the
// mechanism's setup: assembly, the rank analysis of Φ_q, the formulation's analysis of
// its pattern. Linear in N is the aim (a cubic rank check took 4.6 s at N = 1000).
int setup_scaling(std::vector<long> sizes, Registry& registry) {
  if (sizes.empty()) sizes = {500, 1000, 2000, 4000, 8000};
  ChainOptions opt;
  opt.method = "rk4";
  opt.t_end = opt.output_interval = 1e-3;
  std::printf("Loading (load_netlist_text) and starting (run_netlist: assembly, rank analysis, one rk4 step of 1 ms)\n"
              "an N-link chain, default formulation; best of 3.\n\n%6s %9s %9s %12s\n",
              "N", "load s", "run s", "run us/link");
  std::vector<std::pair<long, double>> runs;
  for (long n : sizes) {
    const std::string text = make_chain_netlist(n, opt);
    double load_s = 1e300, run_s = 1e300;
    for (int r = 0; r < 3; ++r) {
      auto t0 = Clock::now();
      Netlist net = load_netlist_text(text, "bench_chain.json", registry);
      load_s = std::min(load_s, std::chrono::duration<double>(Clock::now() - t0).count());
      Measure m;
      if (!run_once(net, m)) {
        std::fprintf(stderr, "N = %ld failed: %s\n", n, m.result.failure.c_str());
        return 1;
      }
      run_s = std::min(run_s, m.run_s);
    }
    std::printf("%6ld %9.4f %9.4f %12.2f\n", n, load_s, run_s, 1e6 * run_s / static_cast<double>(n));
    std::fflush(stdout);
    runs.emplace_back(n, run_s);
  }
  if (runs.size() > 1)
    std::printf("\nGrowth exponent of the run time, N = %ld to %ld: %.2f (1 = linear)\n", runs.front().first,
                runs.back().first,
                std::log(runs.back().second / runs.front().second) /
                    std::log(static_cast<double>(runs.back().first) / static_cast<double>(runs.front().first)));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> sizes;
  long max_n = 0;
  bool quick = false;
  double t_end = 10.0;
  bool t_end_given = false;
  int repeats = 0;  // 0: automatic (repeat short runs up to about 1 s per model)
  bool setup = false;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--max-n" && a + 1 < argc) max_n = std::atol(argv[++a]);
    else if (arg == "--quick") quick = true;
    else if (arg == "--setup") setup = true;
    else if (arg == "--t-end" && a + 1 < argc) {
      t_end = std::atof(argv[++a]);
      t_end_given = true;
    } else if (arg == "--repeats" && a + 1 < argc) repeats = std::max(1, std::atoi(argv[++a]));
    else if (arg == "-h" || arg == "--help") {
      std::printf("usage: %s [N ...] [--max-n K] [--quick] [--t-end T] [--repeats R] | --setup [N ...]\n"
                  "  default N = 1 2 4 8 16 32 64 128 256, t_end = 10 s; --quick: t_end = 1 s, N <= 32, three runs each\n"
                  "  --setup: load and start chains of N = 500 ... 8000 links (one step), and the growth of that time\n",
                  argv[0]);
      return 0;
    } else {
      char* end = nullptr;
      const long n = std::strtol(arg.c_str(), &end, 10);
      if (!end || *end || n < 1) {
        std::fprintf(stderr, "not a chain length: %s (see --help)\n", arg.c_str());
        return 2;
      }
      sizes.push_back(n);
    }
  }
  Registry registry;
  register_builtin_components(registry);
  if (setup) return setup_scaling(sizes, registry);
  if (sizes.empty()) sizes = {1, 2, 4, 8, 16, 32, 64, 128, 256};
  if (quick) {
    if (!t_end_given) t_end = 1.0;
    if (max_n == 0) max_n = 32;
    if (repeats == 0) repeats = 3;
  }
  if (max_n > 0) sizes.erase(std::remove_if(sizes.begin(), sizes.end(), [&](long n) { return n > max_n; }), sizes.end());
  if (!(t_end > 0.0)) {
    std::fprintf(stderr, "--t-end must be positive\n");
    return 2;
  }

  registry.set_origin("bench_chain");
  registry.add<PendulumChain>("bench.pendulum_chain", "hand-written N-link pendulum chain (benchmark)");
  registry.set_origin("built-in");

  ChainOptions opt;
  opt.t_end = t_end;
  // The hand-written component solves the KKT system; the framework's mechanism solver
  // solves the same one only when asked (its default is the augmented Lagrangian, whose
  // rounding differs, and the chain's chaos would part the runs).
  opt.formulation = "kkt";
  std::printf("N-link pendulum chain (1 m, 1 kg rods, from rest horizontal), dopri5 rtol %g atol %g, t_end %g s,\n"
              "Baumgarte alpha = beta = %g, no projection. framework: N bodies + N revolutes + ground (library);\n"
              "hand: one component assembling and solving the same KKT system. Run times are the best of the runs\n"
              "(interleaved framework/hand); per-link figures divide by N.\n\n",
              opt.rtol, opt.atol, opt.t_end, opt.alpha);
  std::printf("%4s %5s %6s %7s | %8s %8s %5s | %8s %8s | %4s %8s | %8s %8s %8s | %9s %8s\n", "N", "t_end", "steps",
              "rhs", "fw s/s", "hd s/s", "ratio", "fw us/rl", "hd us/rl", "runs", "fw build", "max|Phi|", "end|Phi|",
              "max|dE|", "theta_N", "|dtheta|");
  std::printf("%s\n", std::string(142, '-').c_str());

  struct Row {
    long n;
    double fw_per_link, hd_per_link;
  };
  std::vector<Row> table;
  bool all_ok = true;
  for (long n : sizes) {
    const std::string fw_text = make_chain_netlist(n, opt);
    const auto tb = Clock::now();
    Netlist fw = load_netlist_text(fw_text, "bench_chain.json", registry);
    const double build_s = std::chrono::duration<double>(Clock::now() - tb).count();
    Netlist hd = load_netlist_text(hand_netlist(n, opt), "bench_chain_hand.json", registry);

    Measure mf, mh;
    double spent_f = 0.0, spent_h = 0.0;
    bool ok = true;
    for (int r = 0; ok && r < 50; ++r) {
      // Automatic: one run when a run takes 5 s or more, else at least two and until each
      // model has run for 1 s (up to 50 runs).
      if (repeats > 0 ? r >= repeats : (r >= 1 && spent_f >= 5.0) || (r >= 2 && spent_f >= 1.0 && spent_h >= 1.0))
        break;
      auto t0 = Clock::now();
      ok = run_once(fw, mf);
      spent_f += std::chrono::duration<double>(Clock::now() - t0).count();
      if (!ok) break;
      t0 = Clock::now();
      ok = run_once(hd, mh);
      spent_h += std::chrono::duration<double>(Clock::now() - t0).count();
    }
    if (!ok) {
      std::printf("%4ld failed: %s | %s\n", n, mf.result.failure.c_str(), mh.result.failure.c_str());
      all_ok = false;
      continue;
    }
    const RunResult& rf = mf.result;
    const RunResult& rh = mh.result;
    const std::string last = chain_link_name(n);
    const auto th_f = rf.column(last + ".theta"), th_h = rh.column("chain." + indexed("theta", n));
    double de_max = 0.0;  // energy drift, J (the chain starts with E = 0)
    for (double energy : rh.column("chain.energy")) de_max = std::max(de_max, std::abs(energy));
    double dth_end = th_f.size() == th_h.size() ? std::abs(th_f.back() - th_h.back()) : 1e300;
    double dth_max = 0.0;
    for (size_t k = 0; k < std::min(th_f.size(), th_h.size()); ++k) dth_max = std::max(dth_max, std::abs(th_f[k] - th_h[k]));
    if (th_f.size() != th_h.size()) dth_max = 1e300;
    const double phi_max = rf.summary["monitors"]["mechanism.constraint_norm"]["max_abs"].get<double>();
    const double phi_end = rf.summary["final_values"]["mechanism.constraint_norm"].get<double>();
    const double sim = rf.stats.last_time;
    char steps[32];
    if (rf.stats.steps == rh.stats.steps) std::snprintf(steps, sizeof steps, "%ld", rf.stats.steps);
    else std::snprintf(steps, sizeof steps, "%ld/%ld", rf.stats.steps, rh.stats.steps);
    const double fw_pl = per_link_us(mf, n), hd_pl = per_link_us(mh, n);
    std::printf("%4ld %5g %6s %7ld | %8.4f %8.4f %5.2f | %8.2f %8.2f | %4d %6.3f s | %8.1e %8.1e %8.1e | %9.4f %8.1e\n",
                n, sim, steps, rf.stats.rhs_evaluations, mf.run_s / sim, mh.run_s / sim, mf.run_s / mh.run_s, fw_pl,
                hd_pl, mf.runs, build_s, phi_max, phi_end, de_max, th_f.back(), dth_end);
    std::fflush(stdout);
    if (dth_max > 1e-6) {
      std::printf("     !! framework and hand-written runs differ: max |dtheta_N| over the run = %.3e\n", dth_max);
      all_ok = false;
    }
    table.push_back({n, fw_pl, hd_pl});
  }
  std::printf("\ns/s = wall time per simulated second; us/rl = microseconds per right-hand-side evaluation per link;\n"
              "ratio = framework / hand-written run time; fw build = load_netlist_text of the framework netlist;\n"
              "max|Phi| = summary monitor mechanism.constraint_norm (largest over the output rows), end|Phi| its final\n"
              "value; max|dE| = largest |total energy - initial energy| over the output rows (J); theta_N = last\n"
              "link's angle at t_end (framework); |dtheta| = |framework - hand| of it at t_end; runs = runs per model.\n");
  auto find = [&](long n) -> const Row* {
    for (const auto& r : table)
      if (r.n == n) return &r;
    return nullptr;
  };
  const Row* hi = nullptr;
  for (const auto& r : table)
    if (r.n > 16 && (!hi || r.n > hi->n)) hi = &r;
  if (const Row* lo = find(16); lo && hi) {
    std::printf("\nGrowth (time per rhs per link, N = %ld vs N = 16): framework %.2f, hand-written %.2f (1 = linear in N)\n",
                hi->n, hi->fw_per_link / lo->fw_per_link, hi->hd_per_link / lo->hd_per_link);
  }
  if (!all_ok) {
    std::fprintf(stderr, "error: a run failed or the two models disagree\n");
    return 1;
  }
  return 0;
}
