// Andrews' squeezer benchmark: netlists/andrews_squeezer.json (seven bodies, ten
// revolute joints, a spring and a driving torque; Hairer & Wanner, Solving ODEs II,
// sec. VII.7, and the "andrews" problem of the Test Set for IVP Solvers) to t = 0.03 s
// with dopri5 and with bdf (CVODE), each at rtol 1e-6 (atol 1e-8) and rtol 1e-9
// (atol 1e-11); Baumgarte α = β = 10 (the library's defaults), no projection, as the
// netlist says.
//
// Reported per run: wall time (best of a few runs), steps, right-hand-side evaluations;
// the largest difference of the seven body angles at t = 0.03 s against the published
// reference solution, and per method between its two tolerances. The netlist's angles
// map to the test set's coordinates as crank = β, rod = β + Θ, triangle = γ,
// link4 = Φ + δ, link5 = δ, link6 = Ω + ε, link7 = ε.
//
// Usage: bench_andrews [--repeats R] [--netlist PATH]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

// Test Set for IVP Solvers, problem "andrews", reference solution at t = 0.03 s.
constexpr double kBeta = 15.81077119629904, kTheta = -15.75637105984298, kGamma = 0.04082224013073101,
                 kPhi = -0.5347301163226948, kDelta = 0.5244099658805304, kOmega = 0.5347301163226948,
                 kEpsilon = 1.048080741042263;

const std::vector<std::pair<std::string, double>>& reference() {
  static const std::vector<std::pair<std::string, double>> r = {
      {"crank.theta", kBeta},         {"rod.theta", kBeta + kTheta}, {"triangle.theta", kGamma},
      {"link4.theta", kPhi + kDelta}, {"link5.theta", kDelta},       {"link6.theta", kOmega + kEpsilon},
      {"link7.theta", kEpsilon}};
  return r;
}

struct Case {
  std::string method;
  double rtol = 0.0, atol = 0.0;
  double run_s = 1e300;
  int runs = 0;
  RunResult result;
  std::map<std::string, double> angles;  // final values
  double ref_error = 0.0;                // max |angle - reference|
  std::string worst;                     // which angle
};

}  // namespace

int main(int argc, char** argv) {
  int repeats = 3;
  std::string path = std::string(JOURDAIN_SOURCE_DIR) + "/netlists/andrews_squeezer.json";
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--repeats" && a + 1 < argc) repeats = std::max(1, std::atoi(argv[++a]));
    else if (arg == "--netlist" && a + 1 < argc) path = argv[++a];
    else if (arg == "-h" || arg == "--help") {
      std::printf("usage: %s [--repeats R] [--netlist PATH]   (default R = 3, the source tree's andrews_squeezer.json)\n",
                  argv[0]);
      return 0;
    } else {
      std::fprintf(stderr, "unknown argument: %s (see --help)\n", arg.c_str());
      return 2;
    }
  }

  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return 2;
  }
  const nlohmann::json doc = nlohmann::json::parse(in);

  Registry registry;
  register_builtin_components(registry);

  std::vector<Case> cases;
  for (const char* method : {"dopri5", "bdf"}) {
    for (const auto& [rtol, atol] : {std::pair{1e-6, 1e-8}, std::pair{1e-9, 1e-11}}) {
      Case c;
      c.method = method;
      c.rtol = rtol;
      c.atol = atol;
      cases.push_back(std::move(c));
    }
  }
  std::printf("Andrews' squeezer (%s) to t = 0.03 s; wall time of run_netlist, best of %d runs.\n", path.c_str(), repeats);
  std::printf("err = max over the 7 body angles of |theta - reference| at t = 0.03 s (Test Set for IVP Solvers).\n\n");
  std::printf("%-7s %6s %6s | %10s %7s %7s %7s %6s | %9s %-15s | %9s %9s\n", "method", "rtol", "atol", "wall", "steps",
              "reject", "rhs", "jac", "err", "(worst angle)", "max|Phi|", "end|Phi|");
  std::printf("%s\n", std::string(120, '-').c_str());
  bool all_ok = true;
  for (auto& c : cases) {
    nlohmann::json d = doc;
    d["solver"]["method"] = c.method;
    d["solver"]["rtol"] = c.rtol;
    d["solver"]["atol"] = c.atol;
    d["solver"]["t_end"] = 0.03;
    // Record the mechanism's constraint norm too (its final value; the summary holds the max).
    bool has_norm = false;
    for (const auto& r : d["record"]) has_norm = has_norm || r == "mechanism.constraint_norm";
    if (!has_norm) d["record"].push_back("mechanism.constraint_norm");
    Netlist net;
    try {
      net = load_netlist_text(d.dump(), path, registry);
    } catch (const InputError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 2;
    }
    for (int r = 0; r < repeats; ++r) {
      RunOptions o;
      const auto t0 = Clock::now();
      RunResult res = run_netlist(net, o);
      c.run_s = std::min(c.run_s, std::chrono::duration<double>(Clock::now() - t0).count());
      ++c.runs;
      c.result = std::move(res);
      if (!c.result.finished) break;
    }
    const RunResult& res = c.result;
    if (!res.finished) {
      std::printf("%-7s %6.0e %6.0e | failed at t = %g: %s\n", c.method.c_str(), c.rtol, c.atol, res.failure_time,
                  res.failure.c_str());
      all_ok = false;
      continue;
    }
    for (const auto& [name, ref] : reference()) {
      const double v = res.summary["final_values"][name].get<double>();
      c.angles[name] = v;
      if (std::abs(v - ref) > c.ref_error) {
        c.ref_error = std::abs(v - ref);
        c.worst = name;
      }
    }
    const auto& st = res.stats;
    const double phi_max = res.summary["monitors"]["mechanism.constraint_norm"]["max_abs"].get<double>();
    const double phi_end = res.summary["final_values"]["mechanism.constraint_norm"].get<double>();
    std::printf("%-7s %6.0e %6.0e | %8.4f s %7ld %7ld %7ld %6ld | %9.2e %-15s | %9.2e %9.2e\n", c.method.c_str(), c.rtol,
                c.atol, c.run_s, st.steps, st.rejected_steps, st.rhs_evaluations, st.jacobian_evaluations, c.ref_error,
                ("(" + c.worst + ")").c_str(), phi_max, phi_end);
    std::fflush(stdout);
  }

  auto diff = [](const Case& a, const Case& b) {
    double d = 0.0;
    for (const auto& [name, ref] : reference()) d = std::max(d, std::abs(a.angles.at(name) - b.angles.at(name)));
    return d;
  };
  if (all_ok) {
    std::printf("\nmax |theta(rtol 1e-6) - theta(rtol 1e-9)| over the 7 angles: dopri5 %.2e, bdf %.2e\n",
                diff(cases[0], cases[1]), diff(cases[2], cases[3]));
    std::printf("max |theta(dopri5) - theta(bdf)| at rtol 1e-9: %.2e\n", diff(cases[1], cases[3]));
    std::printf("\nFinal angles [rad] (rtol 1e-9) against the reference:\n");
    std::printf("%-15s %22s %22s %22s %10s %10s\n", "angle", "reference", "dopri5", "bdf", "dopri5 err", "bdf err");
    for (const auto& [name, ref] : reference()) {
      const double a = cases[1].angles.at(name), b = cases[3].angles.at(name);
      std::printf("%-15s %22.15f %22.15f %22.15f %10.2e %10.2e\n", name.c_str(), ref, a, b, std::abs(a - ref),
                  std::abs(b - ref));
    }
  }
  if (!all_ok) {
    std::fprintf(stderr, "error: a run failed\n");
    return 1;
  }
  return 0;
}
