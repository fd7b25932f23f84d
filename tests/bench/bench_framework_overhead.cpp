// Framework-overhead benchmark.
//
// The model: a chain of N masses m joined by N springs k, the first spring tied to a
// fixed point (a wall at x = 0), the last mass free:
//   m x_i'' = k (x_{i+1} - x_i) - k (x_i - x_{i-1}),   x_0 = 0,  no spring after x_N,
// released from rest in the shape of the first mode, x_i(0) = A sin(π i / (2N)).
//
// It is simulated twice, through the same Model and the same solver code (run_netlist):
//   framework    the netlist of N mechanical1d.mass, N mechanical1d.spring and one
//                mechanical1d.fixed, generated here as JSON text and loaded with
//                load_netlist_text and the built-in registry: 2N+1 components, ports,
//                connections, the evaluation schedule, observables;
//   hand-written one component (bench.chain, registered into the same registry the
//                way a plugin would) whose calc_derivatives computes the whole chain in
//                one loop: the same equations in the same order, with the same states
//                in the same order.
// So the time ratio isolates the per-component cost of the framework (virtual calls,
// port input gathering, the schedule, the observables a library component computes),
// not differences of solver or arithmetic. The recorded positions of both runs (first
// and last mass, at every output time) are compared, to show that the two compute the
// same thing. The time to build each model (load_netlist_text) is reported apart.
//
// Usage: bench_framework_overhead [N ...] [--repeats R]   (default N = 10 100 1000 10000)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "best_run.hpp"
#include "jourdain/components/builtin.hpp"
#include "jourdain/components/domains.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/solvers/run.hpp"

namespace {

using namespace jourdain;
using Clock = std::chrono::steady_clock;

constexpr double kMass = 1.0;        // kg
constexpr double kStiffness = 100.0;  // N/m: highest chain frequency about 2 sqrt(k/m) = 20 rad/s
constexpr double kAmplitude = 0.01;  // m

double initial_x(long i, long n) {  // i = 1..n
  return kAmplitude * std::sin(std::numbers::pi * static_cast<double>(i) / (2.0 * static_cast<double>(n)));
}

// Names sort in chain order (components are laid out in the netlist's key order), so
// both models hold their states in the same order: x_1, v_1, x_2, v_2, ...
std::string index_name(const char* prefix, long i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%06ld", prefix, i);
  return buf;
}

// ---- the hand-written right-hand side, as one component ----
class Chain final : public Component {
 public:
  Chain() {
    declare_integer("n", 10, "number of masses", Range::at_least(1));
    declare_config_real("mass", "kg", kMass, "each mass", Range::positive());
    declare_config_real("stiffness", "N/m", kStiffness, "each spring", Range::non_negative());
  }
  void configure() override {
    n_ = integer("n");
    m_ = config_real("mass");
    k_ = config_real("stiffness");
    x_.clear();
    v_.clear();
    for (long i = 1; i <= n_; ++i) {
      x_.push_back(declare_state(index_name("x", i), "m", initial_x(i, n_), "position of mass i"));
      v_.push_back(declare_state(index_name("v", i), "m/s", 0.0, "velocity of mass i"));
    }
  }
  void calc_derivatives(Eval& e) const override {
    // Spring i joins mass i-1 (the wall for i = 1) to mass i; its tension k (x_i - x_{i-1})
    // pulls mass i back and mass i-1 forward. Forces are summed in the order the
    // framework sums a mass port's inputs (spring on the left, then on the right).
    double x_left = 0.0;
    double tension_left = k_ * (e.state(x_[0]) - x_left);
    for (long i = 0; i < n_; ++i) {
      const double xi = e.state(x_[i]);
      double f = 0.0;
      f += -tension_left;
      double tension_right = 0.0;
      if (i + 1 < n_) {
        tension_right = k_ * (e.state(x_[i + 1]) - xi);
        f += tension_right;
      }
      e.set_derivative(x_[i], e.state(v_[i]));
      e.set_derivative(v_[i], f / m_);
      tension_left = tension_right;
    }
  }

 private:
  long n_ = 0;
  double m_ = 1.0, k_ = 0.0;
  std::vector<StateId> x_, v_;
};

// ---- netlists ----
nlohmann::json solver_settings(const std::string& method, double t_end) {
  nlohmann::json j = {{"method", method}, {"t_end", t_end}, {"output_interval", t_end / 10}};
  if (method == "rk4") j["step"] = 0.01;
  else j.update({{"rtol", 1e-6}, {"atol", 1e-9}});
  return j;
}

// Both record the positions of the first and the last mass only: recording is not what
// is measured (and the framework looks recorded names up one by one).
std::string framework_netlist(long n) {
  std::string s;
  s.reserve(static_cast<size_t>(n) * 200 + 1000);
  s += R"({"name": "chain", "components": {"wall": {"type": "mechanical1d.fixed"})";
  char buf[256];
  for (long i = 1; i <= n; ++i) {
    std::snprintf(buf, sizeof buf,
                  R"(, "%s": {"type": "mechanical1d.mass", "params": {"mass": %.17g}, "initial": {"x": %.17g, "v": 0}})",
                  index_name("m", i).c_str(), kMass, initial_x(i, n));
    s += buf;
    std::snprintf(buf, sizeof buf, R"(, "%s": {"type": "mechanical1d.spring", "params": {"stiffness": %.17g}})",
                  index_name("s", i).c_str(), kStiffness);
    s += buf;
  }
  s += R"(}, "connections": [)";
  for (long i = 1; i <= n; ++i) {
    const std::string left = i == 1 ? std::string("wall") : index_name("m", i - 1);
    std::snprintf(buf, sizeof buf, R"(%s["%s.p", "%s.a"], ["%s.b", "%s.p"])", i == 1 ? "" : ", ", left.c_str(),
                  index_name("s", i).c_str(), index_name("s", i).c_str(), index_name("m", i).c_str());
    s += buf;
  }
  s += R"(], "record": [")" + index_name("m", 1) + R"(.x", ")" + index_name("m", n) + R"(.x"]})";
  return s;
}

std::string hand_netlist(long n) {
  return R"({"name": "chain_hand", "components": {"chain": {"type": "bench.chain", "params": {"n": )" +
         std::to_string(n) + R"(}}}, "record": ["chain.)" + index_name("x", 1) + R"(", "chain.)" +
         index_name("x", n) + R"("]})";
}

// ---- measuring ----
struct Built {
  Netlist net;
  double build_s = 0.0;  // load_netlist_text: parse, create, connect, schedule
};

Built build(Registry& registry, const std::string& text) {
  auto t0 = Clock::now();
  Netlist net = load_netlist_text(text, "bench.json", registry);
  return {std::move(net), std::chrono::duration<double>(Clock::now() - t0).count()};
}

// At least `repeats` runs, and more (up to 100) until 0.3 s have been spent, so that the
// short runs of small chains are not just timer noise (11 rows of 3 values kept).
bench::BestRun measure(Netlist& net, const nlohmann::json& solver, int repeats) {
  net.solver = solver;
  return bench::best_run(net, RunOptions{}, repeats, 0.3, 100);
}

// Simulated span per chain length, so that the default run stays well under two minutes:
// the cost of a step grows with N, the number of steps with t_end.
double t_end_for(long n, const std::string& method) {
  const double base = n <= 10 ? 200.0 : n <= 100 ? 50.0 : n <= 1000 ? 10.0 : 2.0;
  return method == "rk4" ? base / 4 : base;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> sizes;
  int repeats = 3;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--repeats" && a + 1 < argc) repeats = std::max(1, std::atoi(argv[++a]));
    else if (arg == "-h" || arg == "--help") {
      std::printf("usage: %s [N ...] [--repeats R]   (default N = 10 100 1000 10000, R = 3)\n", argv[0]);
      return 0;
    } else {
      char* end = nullptr;
      long n = std::strtol(arg.c_str(), &end, 10);
      if (!end || *end || n < 1) {
        std::fprintf(stderr, "not a chain length: %s\n", arg.c_str());
        return 2;
      }
      sizes.push_back(n);
    }
  }
  if (sizes.empty()) sizes = {10, 100, 1000, 10000};

  Registry registry;
  register_builtin_components(registry);
  registry.set_origin("bench_framework_overhead");
  registry.add<Chain>("bench.chain", "hand-written chain of masses and springs (benchmark)");
  registry.set_origin("built-in");

  std::printf("Chain of N masses (m = %g kg) and springs (k = %g N/m); wall time of run_netlist, best of at least %d runs.\n",
              kMass, kStiffness, repeats);
  std::printf("framework: 2N+1 library components; hand: one component computing the same equations.\n\n");
  std::printf("%6s %-6s %7s %7s %8s | %11s %11s %7s | %9s %9s | %9s %9s | %9s\n", "N", "method", "t_end", "steps",
              "rhs", "framework", "hand", "ratio", "fw us/rhs", "hd us/rhs", "fw build", "hd build", "max|dx|");
  std::printf("%s\n", std::string(150, '-').c_str());
  bool all_ok = true;
  for (long n : sizes) {
    Built fw = build(registry, framework_netlist(n));
    Built hd = build(registry, hand_netlist(n));
    for (const std::string method : {"dopri5", "rk4"}) {
      const double t_end = t_end_for(n, method);
      const nlohmann::json solver = solver_settings(method, t_end);
      bench::BestRun mf = measure(fw.net, solver, repeats);
      bench::BestRun mh = measure(hd.net, solver, repeats);
      if (!mf.failure.empty() || !mh.failure.empty()) {
        std::printf("%6ld %-6s failed: %s\n", n, method.c_str(), (mf.failure.empty() ? mh.failure : mf.failure).c_str());
        all_ok = false;
        continue;
      }
      // Same equations, same order of operations: the recorded positions agree to the
      // last bit in practice. Allow rounding with the fixed-step rk4; with dopri5 a
      // rounding difference could change a step-size decision, so allow well below the
      // integration error there.
      double dx = mf.rows.size() == mh.rows.size() ? 0.0 : 1e300;
      for (size_t r = 0; r < mf.rows.size() && r < mh.rows.size(); ++r)
        for (size_t k = 0; k < mf.rows[r].size(); ++k) dx = std::max(dx, std::abs(mf.rows[r][k] - mh.rows[r][k]));
      if (!(dx <= (method == "rk4" ? 1e-9 : 1e-4) * kAmplitude)) all_ok = false;
      const double fw_per = 1e6 * mf.wall / static_cast<double>(mf.stats.rhs_evaluations);
      const double hd_per = 1e6 * mh.wall / static_cast<double>(mh.stats.rhs_evaluations);
      char steps[32];
      if (mf.stats.steps == mh.stats.steps) std::snprintf(steps, sizeof steps, "%ld", mf.stats.steps);
      else std::snprintf(steps, sizeof steps, "%ld/%ld", mf.stats.steps, mh.stats.steps);
      std::printf("%6ld %-6s %7g %7s %8ld | %9.4f s %9.4f s %7.2f | %9.2f %9.2f | %7.3f s %7.3f s | %9.2e\n", n,
                  method.c_str(), t_end, steps, mf.stats.rhs_evaluations, mf.wall, mh.wall, mf.wall / mh.wall,
                  fw_per, hd_per, fw.build_s, hd.build_s, dx);
      std::fflush(stdout);
    }
  }
  std::printf("\nratio = framework / hand-written run time (same solver, same steps); us/rhs = run time per\n"
              "right-hand-side evaluation; build = load_netlist_text (parse, create, connect, schedule);\n"
              "max|dx| = largest difference of the recorded positions (first and last mass) between the runs.\n");
  if (!all_ok) {
    std::fprintf(stderr, "error: a run failed or the two models disagree\n");
    return 1;
  }
  return 0;
}
