// Implicit integration benchmark: CVODE BDF with each of its linear-algebra paths
// (solvers/src/cvode.cpp), side by side in one run, on two families of models:
//   chain  the N-link pendulum chain of chain_netlist.hpp (a mechanism: 6N states whose
//          Jacobian is dense, every acceleration depending on every coordinate through
//          the constraint forces), 10 s, Baumgarte α = β = 10;
//   springs N masses and N springs (the 1D chain of bench_framework_overhead: 2N states,
//          a banded Jacobian), stiff springs (10⁶ N/m) and light dampers.
// Each model runs with the dense finite-difference Jacobian (dense_jacobian_max_states
// above the state count: the path every model took before), with the structure-based
// path (dense_jacobian_max_states and gmres_min_states 0: sparse by column groups where
// the model's graph halves the evaluations, else GMRES), and with the defaults (auto). Reported: wall time (best of R runs),
// steps, right-hand sides (those of the Jacobians included), Jacobians, the ratio
// dense / structure, and the largest difference of the recorded variables between the
// two paths, against the spread the tolerance allows (each path's own error).
//
// Usage: bench_bdf [--quick] [--repeats R] [--rtol X] [--chain N ...]  (--chain: only those chains)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "best_run.hpp"
#include "chain_netlist.hpp"
#include "spring_chain_netlist.hpp"
#include "jourdain/components/builtin.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/solvers/run.hpp"

namespace {

using namespace jourdain;

// The stiff spring chain over t_end at rtol (atol rtol/100), released in the shape of
// its first mode's quarter wave.
std::string springs_netlist(long n, double t_end, double rtol) {
  bench::SpringChainOptions o;
  o.initial_x = [n](long i) { return 0.01 * std::sin(3.14159 * static_cast<double>(i) / (2.0 * static_cast<double>(n))); };
  char solver[200];
  std::snprintf(solver, sizeof solver, R"({"method": "bdf", "t_end": %g, "rtol": %g, "atol": %g, "output_interval": %g})",
                t_end, rtol, rtol * 1e-2, t_end / 10);
  o.solver = solver;
  return bench::make_spring_chain_netlist(n, o);
}

using Outcome = bench::BestRun;

// The solver's own settings for each path.
const nlohmann::json kDense = {{"dense_jacobian_max_states", 1'000'000'000L}};
const nlohmann::json kStructure = {{"dense_jacobian_max_states", 0}, {"gmres_min_states", 0}};
const nlohmann::json kAuto = nlohmann::json::object();

Outcome run(const Netlist& net, const nlohmann::json& settings, int repeats) {
  RunOptions opt;
  opt.solver = settings;
  return bench::best_run(net, opt, repeats, 0.2, 50);
}

double max_difference(const Outcome& a, const Outcome& b) {
  if (a.rows.size() != b.rows.size()) return INFINITY;
  double d = 0.0;
  for (size_t r = 0; r < a.rows.size(); ++r)
    for (size_t k = 1; k < a.rows[r].size(); ++k) d = std::max(d, std::abs(a.rows[r][k] - b.rows[r][k]));
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 3;
  bool quick = false;
  double rtol = 1e-8;
  std::vector<long> only_chains;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--repeats" && a + 1 < argc) repeats = std::max(1, std::atoi(argv[++a]));
    else if (arg == "--rtol" && a + 1 < argc) rtol = std::atof(argv[++a]);
    else if (arg == "--quick") quick = true;
    else if (arg == "--chain" && a + 1 < argc) only_chains.push_back(std::atol(argv[++a]));
    else {
      std::printf("usage: %s [--quick] [--repeats R] [--rtol X] [--chain N ...]\n", argv[0]);
      return arg == "-h" || arg == "--help" ? 0 : 2;
    }
  }
  Registry registry;
  register_builtin_components(registry);

  struct Case {
    std::string label;
    std::string text;
  };
  std::vector<Case> cases;
  const std::vector<long> chains = !only_chains.empty() ? only_chains
                                   : quick              ? std::vector<long>{4, 16}
                                                        : std::vector<long>{2, 4, 8, 16, 32, 64};
  for (long n : chains) {
    bench::ChainOptions o;
    o.method = "bdf";
    o.rtol = rtol;
    o.atol = rtol * 1e-2;
    o.t_end = quick ? 2.0 : 10.0;
    cases.push_back({"chain N=" + std::to_string(n), bench::make_chain_netlist(n, o)});
  }
  const std::vector<long> springs = !only_chains.empty() ? std::vector<long>{}
                                    : quick              ? std::vector<long>{10, 100}
                                                         : std::vector<long>{3, 5, 8, 10, 25, 50, 100, 1000};
  for (long n : springs) cases.push_back({"springs N=" + std::to_string(n), springs_netlist(n, 1.0, rtol)});

  std::printf("CVODE BDF, rtol %g (atol rtol/100): dense finite-difference Jacobian against the structure-based path\n"
              "(sparse by column groups + KLU, or GMRES), and the default; wall time best of at least %d runs.\n\n",
              rtol, repeats);
  std::printf("%-17s %6s | %10s %6s %7s %5s | %10s %6s %7s %5s | %6s | %10s | %9s\n", "model", "states", "dense",
              "steps", "rhs", "jac", "structure", "steps", "rhs", "jac", "ratio", "auto", "max|diff|");
  std::printf("%s\n", std::string(128, '-').c_str());
  bool ok = true;
  for (auto& c : cases) {
    Netlist net = load_netlist_text(c.text, c.label + ".json", registry);
    const long states = net.model.state_count();
    Outcome dense = run(net, kDense, repeats);
    Outcome structure = run(net, kStructure, repeats);
    Outcome automatic = run(net, kAuto, repeats);
    if (!dense.failure.empty() || !structure.failure.empty() || !automatic.failure.empty()) {
      std::printf("%-17s failed: %s%s%s\n", c.label.c_str(), dense.failure.c_str(), structure.failure.c_str(),
                  automatic.failure.c_str());
      ok = false;
      continue;
    }
    std::printf("%-17s %6ld | %8.4f s %6ld %7ld %5ld | %8.4f s %6ld %7ld %5ld | %6.2f | %8.4f s | %9.2e\n",
                c.label.c_str(), states, dense.wall, dense.stats.steps, dense.stats.rhs_evaluations,
                dense.stats.jacobian_evaluations, structure.wall, structure.stats.steps,
                structure.stats.rhs_evaluations, structure.stats.jacobian_evaluations, dense.wall / structure.wall,
                automatic.wall, max_difference(dense, structure));
    std::fflush(stdout);
  }
  std::printf("\nratio = dense / structure wall time; max|diff| = largest difference of the recorded variables\n"
              "between the dense and the structure-based runs.\n");
  return ok ? 0 : 1;
}
