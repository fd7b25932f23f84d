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
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jourdain/components/builtin.hpp"
#include "jourdain/jacobian.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/solvers/run.hpp"

#ifndef JOURDAIN_SOURCE_DIR
#error "JOURDAIN_SOURCE_DIR must be defined (tests/bench/CMakeLists.txt does)"
#endif

namespace {

using namespace jourdain;
using Clock = std::chrono::steady_clock;

struct Outcome {
  double wall = 1e300;
  RunResult result;
};

Outcome run_way(const Netlist& net, int by_components, int repeats) {
  Outcome out;
  for (int r = 0; r < repeats; ++r) {
    RunOptions o;
    o.keep_rows = true;
    o.solver = {{"jacobian_by_components", by_components}};
    const auto t0 = Clock::now();
    RunResult res = run_netlist(net, o);
    out.wall = std::min(out.wall, std::chrono::duration<double>(Clock::now() - t0).count());
    out.result = std::move(res);
    if (!out.result.finished) break;
  }
  return out;
}

void print_way(const char* way, const Outcome& o, long hooks_per_evaluation) {
  const auto& s = o.result.stats;
  const double steps = static_cast<double>(std::max(1L, s.steps));
  std::printf("  %-10s %8.4f s %7ld %8ld %6.2f %5ld %9ld %8.1f\n", way, o.wall, s.steps, s.rhs_evaluations,
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
  Registry registry;
  register_builtin_components(registry);
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
      const Netlist net = load_netlist_text(doc.dump(), path, registry);
      const long hooks_per_evaluation = ComponentJacobian(net.model).calls_per_evaluation();
      // Alternately, so that both ways see the machine alike.
      Outcome whole, cones;
      for (int r = 0; r < repeats; ++r) {
        Outcome w = run_way(net, 0, 1), c = run_way(net, 1, 1);
        if (w.wall < whole.wall) whole = std::move(w);
        if (c.wall < cones.wall) cones = std::move(c);
      }
      std::printf("%s (%d states, %ld hooks per evaluation)\n", name.c_str(), net.model.state_count(),
                  hooks_per_evaluation);
      print_way("whole", whole, hooks_per_evaluation);
      print_way("cones", cones, hooks_per_evaluation);
      if (!whole.result.finished || !cones.result.finished) {
        std::printf("  failed: %s\n", (whole.result.finished ? cones : whole).result.failure.c_str());
        ok = false;
        continue;
      }
      const bool same = whole.result.rows == cones.result.rows;
      std::printf("  cones / whole: wall %.2f, rhs per step %.2f; results %s\n", cones.wall / whole.wall,
                  (static_cast<double>(cones.result.stats.rhs_evaluations) / cones.result.stats.steps) /
                      (static_cast<double>(whole.result.stats.rhs_evaluations) / whole.result.stats.steps),
                  same ? "the same to the bit" : "differ (steps chosen apart)");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
      ok = false;
    }
  }
  return ok ? 0 : 1;
}
