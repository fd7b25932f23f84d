// Hydraulics benchmark: netlists/position_servo.json (3 s) and the press cycle,
// netlists/press_3150kN.json and press_3150kN_fixed.json (40 s), with CVODE BDF at the
// netlists' own tolerances and at rtol ten and a hundred times tighter (atol scaled alike).
//
// Reported per run: wall time of run_netlist (best of a few runs), steps, rejected steps,
// right-hand-side evaluations (CVODE's finite-difference Jacobians included: one per state
// and Jacobian), Jacobian evaluations, events; and the figures each netlist exists for:
// the servo's final position and speed, the press's peak pressures,
// largest |dp/dt|, return and cycle times (summary.json's final_values). Their change with
// the tolerance shows how far they are converged.
//
// Usage: bench_hydraulics [--repeats R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jourdain/components/builtin.hpp"
#include "jourdain/errors.hpp"
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

// Loads `name` with its solver tolerances divided by `tighten`, runs it `repeats` times.
Outcome run_case(Registry& registry, const std::string& name, double tighten, int repeats) {
  const std::string path = std::string(JOURDAIN_SOURCE_DIR) + "/netlists/" + name + ".json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, true, /*ignore_comments=*/true);
  doc["solver"]["rtol"] = doc["solver"].value("rtol", 1e-6) / tighten;
  doc["solver"]["atol"] = doc["solver"].value("atol", 1e-9) / tighten;
  Netlist net = load_netlist_text(doc.dump(), path, registry);
  Outcome out;
  for (int r = 0; r < repeats; ++r) {
    RunOptions o;
    const auto t0 = Clock::now();
    RunResult res = run_netlist(net, o);
    out.wall = std::min(out.wall, std::chrono::duration<double>(Clock::now() - t0).count());
    out.result = std::move(res);
    if (!out.result.finished) break;
  }
  return out;
}

double final_value(const RunResult& r, const std::string& name) {
  return r.summary["final_values"][name].get<double>();
}

void print_stats(const std::string& name, double rtol, const Outcome& o) {
  const auto& s = o.result.stats;
  std::printf("%-20s %7.0e | %8.4f s %7ld %6ld %8ld %5ld %6ld |", name.c_str(), rtol, o.wall, s.steps, s.rejected_steps,
              s.rhs_evaluations, s.jacobian_evaluations, s.events);
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 3;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--repeats" && a + 1 < argc)
      repeats = std::max(1, std::atoi(argv[++a]));
    else if (arg == "-h" || arg == "--help") {
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
  try {
    std::printf("Hydraulic netlists with bdf (CVODE); wall time of run_netlist, best of %d runs.\n\n", repeats);
    std::printf("%-20s %7s | %10s %7s %6s %8s %5s %6s | %s\n", "netlist", "rtol", "wall", "steps", "reject", "rhs",
                "jac", "events", "figures");
    std::printf("%s\n", std::string(140, '-').c_str());
    for (double tighten : {1.0, 10.0, 100.0}) {
      const Outcome o = run_case(registry, "position_servo", tighten, repeats);
      print_stats("position_servo", 1e-6 / tighten, o);
      if (!o.result.finished) {
        std::printf(" failed: %s\n", o.result.failure.c_str());
        ok = false;
        continue;
      }
      std::printf(" x(3 s) = %.6f m, v = %.2e m/s\n", final_value(o.result, "load.x"), final_value(o.result, "load.v"));
    }
    std::printf("\n");
    for (const char* name : {"press_3150kN", "press_3150kN_fixed"}) {
      for (double tighten : {1.0, 10.0, 100.0}) {
        const Outcome o = run_case(registry, name, tighten, repeats);
        print_stats(name, 1e-6 / tighten, o);
        if (!o.result.finished) {
          std::printf(" failed: %s\n", o.result.failure.c_str());
          ok = false;
          continue;
        }
        const RunResult& r = o.result;
        std::printf(
            " peaks cap %.2f annulus %.2f return %.3f pump %.2f MPa; |dp/dt| cap %.1f annulus %.1f MPa/s; "
            "return %.3f s, cycle %.3f s\n",
            final_value(r, "cap_pressure.max") / 1e6, final_value(r, "annulus_pressure.max") / 1e6,
            final_value(r, "return_pressure.max") / 1e6, final_value(r, "pump_pressure.max") / 1e6,
            final_value(r, "cap_pressure.max_rate") / 1e6, final_value(r, "annulus_pressure.max_rate") / 1e6,
            final_value(r, "cycle.duration_return"), final_value(r, "cycle.entered_top"));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return ok ? 0 : 1;
}
