// Machine-cycle benchmark: how much faster than real time the electrified machines and
// their baselines run, side by side in one run: netlists/electric_excavator.json,
// excavator_diesel.json, excavator_hydraulic.json, excavator_open_centre.json and
// excavator_ls.json (the same 8 s dig-and-dump cycle) and electro_hydraulic_actuator.json
// (8 s), each at its own tolerance, with and without the energy account.
//
// Reported per run: wall time of run_netlist (best of repeated runs), the real-time factor
// t_end / wall, steps, rejected steps, right-hand-side evaluations (CVODE's
// finite-difference Jacobians included), Jacobian evaluations and the wall time per
// right-hand side. Issues 35 and 36 ask for the electric and the load-sensing excavator's
// cycles at 20 times real time or faster.
//
// Usage: bench_machines [--repeats R]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "best_run.hpp"
#include "jourdain/components/builtin.hpp"
#include "jourdain/netlist.hpp"

#ifndef JOURDAIN_SOURCE_DIR
#error "JOURDAIN_SOURCE_DIR must be defined (tests/bench/CMakeLists.txt does)"
#endif

namespace {

using namespace jourdain;

nlohmann::json read_netlist(const std::string& name) {
  const std::string path = std::string(JOURDAIN_SOURCE_DIR) + "/netlists/" + name + ".json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return nlohmann::json::parse(in);
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 3;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--repeats" && a + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++a]));
    } else if (arg == "-h" || arg == "--help") {
      std::printf("usage: %s [--repeats R]   (default R = 3)\n", argv[0]);
      return 0;
    } else {
      std::fprintf(stderr, "unknown argument: %s (see --help)\n", arg.c_str());
      return 2;
    }
  }
  Registry registry;
  register_builtin_components(registry);
  bool ok = true;
  std::printf("Machine cycles at their netlists' tolerances; wall time of run_netlist, best of %d runs or more.\n\n",
              repeats);
  std::printf("%-28s %6s | %9s %9s %7s %6s %8s %5s %9s\n", "netlist", "energy", "wall", "x realtime", "steps", "reject",
              "rhs", "jac", "us/rhs");
  std::printf("%s\n", std::string(100, '-').c_str());
  try {
    for (const char* name :
         {"electric_excavator", "excavator_diesel", "excavator_hydraulic", "excavator_open_centre", "excavator_ls",
          "electro_hydraulic_actuator"}) {
      for (const bool energy : {false, true}) {
        nlohmann::json doc = read_netlist(name);
        doc["energy"] = energy;
        const Netlist net = load_netlist_text(doc.dump(), std::string("netlists/") + name + ".json", registry);
        const double t_end = doc["solver"].value("t_end", 1.0);
        const bench::BestRun b = bench::best_run(net, RunOptions{}, repeats, 2.0, 50);
        if (!b.failure.empty()) {
          std::printf("%-28s %6s | failed: %s\n", name, energy ? "yes" : "no", b.failure.c_str());
          ok = false;
          continue;
        }
        const auto& s = b.stats;
        std::printf("%-28s %6s | %8.3fs %9.1f %7ld %6ld %8ld %5ld %9.1f\n", name, energy ? "yes" : "no", b.wall,
                    t_end / b.wall, s.steps, s.rejected_steps, s.rhs_evaluations, s.jacobian_evaluations,
                    1e6 * b.wall / static_cast<double>(s.rhs_evaluations));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return ok ? 0 : 1;
}
