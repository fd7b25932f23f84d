// bdf's Jacobian by cones against the whole model's, side by side in one run
// (framework/include/jourdain/jacobian.hpp): each netlist runs at its own tolerances with
// jacobian_by_components 0 (CVODE's dense quotients, or column groups on the sparse path)
// and 1 (the same quotients, each column evaluating only its state's cone), alternately,
// best of R runs each, without the energy account.
//
// Reported per netlist and way: wall time of run_netlist, steps, right-hand sides (the
// whole model's Jacobian evaluations included) and per step, Jacobians, the cones' hook
// calls and what they come to in whole-model evaluations (calls / hooks per evaluation),
// and whether the two runs' results are the same to the bit (every recorded row).
//
// Usage: bench_jacobian [--repeats R] [NETLIST ...]   (names under netlists/, no .json)
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "best_run.hpp"
#include "jourdain/components/builtin.hpp"
#include "jourdain/jacobian.hpp"

#ifndef JOURDAIN_SOURCE_DIR
#error "JOURDAIN_SOURCE_DIR must be defined (tests/bench/CMakeLists.txt does)"
#endif

namespace {

using jourdain::bench::BestRun;

// One run of `net` with jacobian_by_components = `by_components`, kept in `best` if faster.
void run_way(const jourdain::Netlist& net, int by_components, BestRun& best) {
  jourdain::RunOptions o;
  o.solver = {{"jacobian_by_components", by_components}};
  BestRun run = jourdain::bench::best_run(net, o, 1, 0.0, 1);
  if (!run.failure.empty()) best.failure = run.failure;
  else if (run.wall < best.wall) best = std::move(run);
}

void print_way(const char* way, const BestRun& b, long hooks_per_evaluation) {
  const auto& s = b.stats;
  const double steps = static_cast<double>(std::max(1L, s.steps));
  std::printf("  %-10s %8.4f s %7ld %8ld %6.2f %5ld %9ld %8.1f\n", way, b.wall, s.steps, s.rhs_evaluations,
              static_cast<double>(s.rhs_evaluations) / steps, s.jacobian_evaluations, s.jacobian_hook_calls,
              static_cast<double>(s.jacobian_hook_calls) / static_cast<double>(hooks_per_evaluation));
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 3;
  std::vector<std::string> names;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--repeats" && a + 1 < argc) repeats = std::max(1, std::atoi(argv[++a]));
    else if (arg == "-h" || arg == "--help") {
      std::printf("usage: %s [--repeats R] [NETLIST ...]   (default R = 3; names under netlists/)\n", argv[0]);
      return 0;
    } else names.push_back(arg);
  }
  if (names.empty())
    names = {"position_servo",      "press_3150kN",  "press_3150kN_fixed", "electro_hydraulic_actuator",
             "excavator_hydraulic", "excavator_ls",  "electric_excavator"};
  jourdain::Registry registry;
  jourdain::register_builtin_components(registry);
  bool ok = true;
  std::printf("bdf at each netlist's tolerances, energy account off; wall time of run_netlist, best of %d runs.\n",
              repeats);
  std::printf("  %-10s %10s %7s %8s %6s %5s %9s %8s\n", "jacobian", "wall", "steps", "rhs", "rhs/st", "jac", "hooks",
              "= evals");
  for (const std::string& name : names) {
    try {
      const std::string path = std::string(JOURDAIN_SOURCE_DIR) + "/netlists/" + name + ".json";
      std::ifstream in(path);
      if (!in) throw std::runtime_error("cannot read " + path);
      nlohmann::json doc = nlohmann::json::parse(in, nullptr, true, /*ignore_comments=*/true);
      doc["energy"] = false;
      doc["solver"]["method"] = "bdf";
      const jourdain::Netlist net = jourdain::load_netlist_text(doc.dump(), path, registry);
      const long hooks_per_evaluation = jourdain::ComponentJacobian(net.model).calls_per_evaluation();
      // Alternately, so that both ways see the machine alike.
      BestRun whole, cones;
      for (int r = 0; r < repeats; ++r) {
        run_way(net, 0, whole);
        run_way(net, 1, cones);
      }
      std::printf("%s (%d states, %ld hooks per evaluation)\n", name.c_str(), net.model.state_count(),
                  hooks_per_evaluation);
      print_way("whole", whole, hooks_per_evaluation);
      print_way("cones", cones, hooks_per_evaluation);
      if (!whole.failure.empty() || !cones.failure.empty()) {
        std::printf("  failed: %s\n", (whole.failure.empty() ? cones : whole).failure.c_str());
        ok = false;
        continue;
      }
      const bool same = whole.rows == cones.rows;
      std::printf("  cones / whole: wall %.2f, rhs per step %.2f; results %s\n", cones.wall / whole.wall,
                  (static_cast<double>(cones.stats.rhs_evaluations) / cones.stats.steps) /
                      (static_cast<double>(whole.stats.rhs_evaluations) / whole.stats.steps),
                  same ? "the same to the bit" : "differ (steps chosen apart)");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
      ok = false;
    }
  }
  return ok ? 0 : 1;
}
