// FMUs as components (components/fmi): what reading a large FMU costs as it grows, and
// what a call costs in the FMU's own process against one in Jourdain's (README.md here).
//
//   bench_fmu [--repeats R]
//
// 1. Description: an FMU whose modelDescription.xml declares N Real parameters and N Real
//    outputs (N = 10000, 20000, 40000), described as `jourdain describe` does (the XML
//    read, every parameter and port declared; no binary loaded). Linear work doubles
//    with N: the ratio column is t(N) / t(N/2), 2 for linear, 4 for quadratic.
// 2. Calls: mass_spring_damper.json exported as an FMU, run as a component with a 1 ms
//    communication step over 5 s (5000 steps, each an fmi2DoStep and one fmi2GetReal of
//    its six outputs), isolation "process"
//    against "none", the run times side by side.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "best_run.hpp"
#include "jourdain/components/fmi.hpp"
#include "jourdain/components/builtin.hpp"
#include "jourdain/descriptor.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/registry.hpp"
#include "jourdain/solvers/run.hpp"

using namespace jourdain;

namespace {

// The best wall time of `repeats` calls of f.
template <class F>
double best_of(int repeats, F&& f) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

std::string description(int n) {
  std::string xml = R"(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="wide" guid="{0}">
  <CoSimulation modelIdentifier="wide"/>
  <DefaultExperiment stepSize="0.1"/>
  <ModelVariables>
)";
  for (int k = 0; k < n; ++k)
    xml += "    <ScalarVariable name=\"p" + std::to_string(k) + "\" valueReference=\"" + std::to_string(k) +
           "\" causality=\"parameter\" variability=\"tunable\"><Real start=\"1\"/></ScalarVariable>\n"
           "    <ScalarVariable name=\"y" + std::to_string(k) + "\" valueReference=\"" + std::to_string(n + k) +
           "\" causality=\"output\" variability=\"discrete\"><Real/></ScalarVariable>\n";
  return xml + "  </ModelVariables>\n</fmiModelDescription>\n";
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 3;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--repeats") repeats = std::max(1, std::atoi(argv[i + 1]));
  const auto folder = std::filesystem::temp_directory_path() / ("jourdain-bench-fmu-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  Registry registry;
  register_builtin_components(registry);
  const ComponentType& type = *registry.find("fmi.cosimulation");

  std::printf("Describing an FMU of N Real parameters and N Real outputs (best of %d)\n", repeats);
  std::printf("%8s %12s %8s\n", "N", "time [s]", "ratio");
  double previous = 0.0;
  for (int n : {10000, 20000, 40000}) {
    const auto file = folder / ("wide" + std::to_string(n) + ".fmu");
    fmi::ZipWriter zip(file);
    zip.add("modelDescription.xml", description(n));
    zip.close();
    const double t = best_of(repeats, [&] { describe_type(type, &registry, {{"fmu", file.string()}}); });
    std::printf("%8d %12.4f %8s\n", n, t, previous > 0.0 ? std::to_string(t / previous).substr(0, 5).c_str() : "");
    previous = t;
  }

  // The same FMU run both ways: the exported mass-spring-damper, through the command line
  // (beside this program's build tree) so that both runs are what a user starts.
  const std::string exe = JOURDAIN_CLI;
  const auto fmu = folder / "msd.fmu";
  if (std::system((exe + " export-fmu -q " + JOURDAIN_SOURCE_DIR "/netlists/mass_spring_damper.json -o " + fmu.string())
                      .c_str()) != 0) {
    std::fprintf(stderr, "export-fmu failed\n");
    return 1;
  }
  std::printf("\nmass_spring_damper.json as an FMU, 1 ms communication step, 5 s (5000 steps), rk4; run time (best of %d)\n",
              repeats);
  double none = 0.0;
  for (const std::string isolation : {"none", "process"}) {
    const auto net = folder / ("net_" + isolation + ".json");
    std::FILE* f = std::fopen(net.c_str(), "w");
    std::fprintf(f,
                 R"({"components": {"msd": {"type": "fmi.cosimulation", "params": {"fmu": "%s", "communication_step": "1 ms", "isolation": "%s"}}},
 "connections": [], "solver": {"method": "rk4", "t_end": 5, "output_interval": 0.01}, "record": ["msd.fmi_steps"]})",
                 fmu.c_str(), isolation.c_str());
    std::fclose(f);
    NetlistOverrides trust;
    trust.allow_plugins = true;
    trust.allow_any_path = true;
    const Netlist loaded = load_netlist(net, registry, trust);
    const bench::BestRun run = bench::best_run(loaded, RunOptions{}, repeats, 0.0, repeats);
    if (!run.failure.empty()) {
      std::fprintf(stderr, "the run failed: %s\n", run.failure.c_str());
      return 1;
    }
    const double t = run.wall;
    if (isolation == "none") none = t;
    std::printf("  isolation %-8s %8.3f s%s\n", isolation.c_str(), t,
                isolation == "none" ? "" : ("   " + std::to_string(t / none).substr(0, 5) + " x none").c_str());
  }
  std::filesystem::remove_all(folder);
  return 0;
}
