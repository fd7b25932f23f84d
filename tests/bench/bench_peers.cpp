// Jourdain against two peers, MuJoCo (C API) and Simbody (C++ API), side by side in one
// run on the same planar models (issue 14, part 4; PARTIAL: the pendulum and the N-link
// chain only, not yet the four-bar and the slider-crank).
//
// The model is the chain of chain_netlist.hpp: N uniform rods (1 m, 1 kg, inertia
// m L²/12 about the centre) joined end to end by revolute joints, the first pinned to the
// ground, released from rest horizontal under gravity 9.81 m/s²; N = 1 is the pendulum.
// Each peer model is our own code through the peer's public API:
//   Jourdain  the netlist (absolute coordinates, Baumgarte α = β = 10), run_netlist;
//   MuJoCo    an MJCF text: N bodies in a chain of hinges about −y (so that the x–z plane
//             is Jourdain's x–y plane), each with an explicit inertial (the centre at
//             L/2, I_yy = m L²/12), no geoms (nothing collides), mj_step;
//   Simbody   N MobilizedBody::Pin (about z) with MassProperties about the pin (I_zz =
//             m L²/3), Force::UniformGravity, an integrator and a TimeStepper.
// The angle of the last link from the horizontal, θ_N (Jourdain's link's theta; the sum
// of the relative joint angles for the peers), is compared at t_end. For N = 1 the
// reference is the pendulum's equation in its one angle, θ'' = −(3g / 2L) cos θ,
// integrated by classical RK4 at 1e-5 s (its own error, estimated against the run at
// 2e-5 s, is printed). For N ≥ 2 the chain is chaotic: runs that differ by rounding part
// by O(1) in 10 s, so no reference exists at that horizon and only times are compared.
//
// Times: wall time of the integration only (Jourdain: run_netlist, whose own model and
// context set-up are included; peers: the stepping loop, their model building excluded),
// median of R interleaved runs. J/this = Jourdain rk4's time / the row's time (the issue's
// "Jourdain's time / peer's time": above 1, the row is faster than Jourdain at rk4 1 ms).
//
// With N = 1 among the sizes it first compares the pendulum at matched accuracy: each
// way's fastest setting (of a few steps or tolerances) whose angle at t_end is within
// 1e-8 rad of the reference.
//
// Usage: bench_peers [N ...] [--t-end T] [--repeats R]   (default N = 1 4 16 64, T = 10, R = 3)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include "chain_netlist.hpp"
#include "jourdain/components/builtin.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/solvers/run.hpp"
#include "pendulum_reference.hpp"
#include "peers_simbody.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kLength = 1.0, kMass = 1.0, kGravity = 9.81, kStep = 1e-3;

// What one way of simulating returns: θ_N at t_end, or a failure.
struct Outcome {
  double theta = NAN;
  std::string failure;
};

// ---- Jourdain ----
Outcome run_jourdain(const jourdain::Netlist& net, const nlohmann::json& solver, long n) {
  jourdain::RunOptions opt;
  opt.keep_rows = true;
  opt.solver = solver;
  jourdain::RunResult r = jourdain::run_netlist(net, opt);
  if (!r.finished) return {NAN, r.failure};
  return {r.column(jourdain::bench::chain_link_name(n) + ".theta").back(), ""};
}

// ---- MuJoCo ----
std::string mjcf_chain(long n, const std::string& integrator) {
  const double centre_inertia = kMass * kLength * kLength / 12.0;
  char buf[512];
  std::string s = "<mujoco model=\"chain\">\n";
  std::snprintf(buf, sizeof buf, "  <option timestep=\"%.17g\" integrator=\"%s\" gravity=\"0 0 %.17g\"/>\n", kStep,
                integrator.c_str(), -kGravity);
  s += buf;
  s += "  <worldbody>\n";
  for (long i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf,
                  "<body pos=\"%.17g 0 0\"><joint type=\"hinge\" axis=\"0 -1 0\"/>"
                  "<inertial pos=\"%.17g 0 0\" mass=\"%.17g\" diaginertia=\"1e-9 %.17g %.17g\"/>\n",
                  i == 0 ? 0.0 : kLength, kLength / 2, kMass, centre_inertia, centre_inertia);
    s += buf;
  }
  for (long i = 0; i < n; ++i) s += "</body>";
  s += "\n  </worldbody>\n</mujoco>\n";
  return s;
}

struct MujocoChain {
  mjModel* model = nullptr;
  mjData* data = nullptr;
  MujocoChain(long n, const std::string& integrator) {
    // mj_loadXML reads a file: the text goes through a temporary one.
    const auto file = std::filesystem::temp_directory_path() / ("bench_peers_chain_" + std::to_string(n) + ".xml");
    std::ofstream(file) << mjcf_chain(n, integrator);
    char error[1000] = "";
    model = mj_loadXML(file.c_str(), nullptr, error, sizeof error);
    std::filesystem::remove(file);
    if (!model) throw std::runtime_error(std::string("MuJoCo refused the model: ") + error);
    data = mj_makeData(model);
  }
  ~MujocoChain() {
    if (data) mj_deleteData(data);
    if (model) mj_deleteModel(model);
  }
  Outcome run(double t_end) {
    mj_resetData(model, data);
    const long steps = std::lround(t_end / model->opt.timestep);
    for (long k = 0; k < steps; ++k) mj_step(model, data);
    double theta = 0.0;
    for (int j = 0; j < model->nq; ++j) theta += data->qpos[j];
    return {theta, ""};
  }
};

struct Way {
  std::string label;
  std::function<Outcome()> run;
  std::vector<double> times;
  Outcome last;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? NAN : v[v.size() / 2];
}

// The pendulum at matched accuracy (issue 14: the angle at t_end within 1e-8 rad): each
// way's settings from coarse to fine, each timed (median of `repeats`) and compared with
// the reference; the fastest setting of each way that reaches the target is marked, and
// a way that reaches it with none is said to.
void matched_pendulum(jourdain::Registry& registry, double t_end, int repeats) {
  constexpr double kTarget = 1e-8;
  const double reference = jourdain::bench::rod_pendulum_angle(t_end, 1e-5, kGravity, kLength);
  jourdain::bench::ChainOptions o;
  o.t_end = t_end;
  o.output_interval = t_end / 10;
  const jourdain::Netlist net =
      jourdain::load_netlist_text(jourdain::bench::make_chain_netlist(1, o), "pendulum.json", registry);
  MujocoChain mujoco(1, "RK4");
  bench::SimbodyChain simbody(1, kLength, kMass, kGravity);
  struct Setting {
    std::string way, setting;
    std::function<Outcome()> run;
  };
  auto label = [](const char* what, double value) {
    char text[32];
    std::snprintf(text, sizeof text, what, value);
    return std::string(text);
  };
  std::vector<Setting> settings;
  for (double h : {8e-3, 4e-3, 2e-3, 1e-3, 5e-4})
    settings.push_back({"Jourdain rk4", label("step %g ms", h * 1e3),
                        [&net, h] { return run_jourdain(net, {{"method", "rk4"}, {"step", h}}, 1); }});
  for (double tol : {1e-8, 1e-9, 1e-10, 1e-11, 1e-12})
    settings.push_back({"Jourdain dopri5", label("rtol %.0e", tol),
                        [&net, tol] { return run_jourdain(net, {{"method", "dopri5"}, {"rtol", tol}, {"atol", tol / 100}}, 1); }});
  for (double h : {8e-3, 4e-3, 2e-3, 1e-3})
    settings.push_back({"MuJoCo RK4", label("step %g ms", h * 1e3), [&mujoco, h, t_end] {
                          mujoco.model->opt.timestep = h;
                          return mujoco.run(t_end);
                        }});
  for (double h : {8e-3, 4e-3, 2e-3, 1e-3})
    settings.push_back({"Simbody RK-Merson", label("step %g ms", h * 1e3),
                        [&simbody, h, t_end] { return Outcome{simbody.run(t_end, 0.0, h), ""}; }});
  for (double tol : {1e-8, 1e-9, 1e-10, 1e-11, 1e-12})
    settings.push_back({"Simbody RK-Merson", label("accuracy %.0e", tol),
                        [&simbody, tol, t_end] { return Outcome{simbody.run(t_end, tol, 0.0), ""}; }});

  std::printf("Pendulum at matched accuracy: |theta - reference| at %g s within %.0e rad; each way's fastest setting "
              "that reaches it is marked *\n  %-20s %-14s %11s %10s\n", t_end, kTarget, "way", "setting", "time", "err");
  std::vector<double> times(settings.size()), errors(settings.size());
  for (size_t k = 0; k < settings.size(); ++k) {
    std::vector<double> t;
    Outcome out;
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = Clock::now();
      out = settings[k].run();
      t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    times[k] = median(t);
    errors[k] = out.failure.empty() ? std::abs(out.theta - reference) : NAN;
  }
  std::string best_way;
  double best_time = INFINITY;
  for (size_t k = 0; k < settings.size(); ++k) {
    if (k > 0 && settings[k].way == settings[k - 1].way) continue;
    size_t chosen = settings.size();
    for (size_t j = k; j < settings.size() && settings[j].way == settings[k].way; ++j)
      if (errors[j] <= kTarget && (chosen == settings.size() || times[j] < times[chosen])) chosen = j;
    for (size_t j = k; j < settings.size() && settings[j].way == settings[k].way; ++j)
      std::printf("  %-20s %-14s %9.4f s %10.2e %s\n", settings[j].way.c_str(), settings[j].setting.c_str(), times[j],
                  errors[j], j == chosen ? "*" : "");
    if (chosen == settings.size()) {
      std::printf("  %-20s reaches %.0e rad with none of these settings\n", settings[k].way.c_str(), kTarget);
    } else if (times[chosen] < best_time) {
      best_time = times[chosen];
      best_way = settings[k].way + ", " + settings[chosen].setting;
    }
  }
  std::printf("  fastest within %.0e rad: %s, %.4f s\n\n", kTarget, best_way.c_str(), best_time);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> sizes;
  double t_end = 10.0;
  int repeats = 3;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--t-end" && a + 1 < argc) t_end = std::atof(argv[++a]);
    else if (arg == "--repeats" && a + 1 < argc) repeats = std::max(1, std::atoi(argv[++a]));
    else if (!arg.empty() && arg.find_first_not_of("0123456789") == std::string::npos) sizes.push_back(std::atol(arg.c_str()));
    else {
      std::printf("usage: %s [N ...] [--t-end T] [--repeats R]   (default N = 1 4 16 64, T = 10, R = 3)\n", argv[0]);
      return arg == "-h" || arg == "--help" ? 0 : 2;
    }
  }
  if (sizes.empty()) sizes = {1, 4, 16, 64};
  jourdain::Registry registry;
  jourdain::register_builtin_components(registry);

  std::printf("N-link chain (N = 1: the pendulum), %g s; median wall time of %d interleaved runs; MuJoCo %s, Simbody %s\n"
              "J/this = Jourdain rk4's time / this row's time; err = |theta_N - reference| at t_end (N = 1 only: the chain is chaotic)\n\n",
              t_end, repeats, mj_versionString(), "3.7");
  bool ok = true;
  if (std::find(sizes.begin(), sizes.end(), 1L) != sizes.end()) matched_pendulum(registry, t_end, repeats);
  for (long n : sizes) {
    jourdain::bench::ChainOptions o;
    o.t_end = t_end;
    o.output_interval = t_end / 10;
    const jourdain::Netlist net = jourdain::load_netlist_text(jourdain::bench::make_chain_netlist(n, o),
                                                              "chain.json", registry);
    // MJCF nests each link in the one before, and MuJoCo's XML parser stops at a depth of
    // about 100: a longer chain is one MuJoCo cannot load this way (said, not a failure).
    std::unique_ptr<MujocoChain> mujoco_rk4, mujoco_euler;
    std::string mujoco_refused;
    try {
      mujoco_rk4 = std::make_unique<MujocoChain>(n, "RK4");
      mujoco_euler = std::make_unique<MujocoChain>(n, "Euler");
    } catch (const std::exception& e) {
      mujoco_refused = e.what();
      std::replace(mujoco_refused.begin(), mujoco_refused.end(), '\n', ' ');
    }
    bench::SimbodyChain simbody(n, kLength, kMass, kGravity);
    std::vector<Way> ways = {
        {"Jourdain rk4 1 ms", [&] { return run_jourdain(net, {{"method", "rk4"}, {"step", kStep}}, n); }, {}, {}},
        {"Jourdain dopri5 rtol 1e-8",
         [&] { return run_jourdain(net, {{"method", "dopri5"}, {"rtol", 1e-8}, {"atol", 1e-10}}, n); }, {}, {}},
        {"Simbody RK-Merson 1 ms", [&] { return Outcome{simbody.run(t_end, 0.0, kStep), ""}; }, {}, {}},
        {"Simbody RK-Merson acc 1e-8", [&] { return Outcome{simbody.run(t_end, 1e-8, 0.0), ""}; }, {}, {}},
    };
    if (mujoco_rk4) {
      ways.insert(ways.begin() + 2, {"MuJoCo Euler 1 ms", [&] { return mujoco_euler->run(t_end); }, {}, {}});
      ways.insert(ways.begin() + 2, {"MuJoCo RK4 1 ms", [&] { return mujoco_rk4->run(t_end); }, {}, {}});
    }
    for (int r = 0; r < repeats; ++r)
      for (auto& w : ways) {
        const auto t0 = Clock::now();
        w.last = w.run();
        w.times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      }
    double reference = NAN, reference_error = NAN;
    if (n == 1) {
      reference = jourdain::bench::rod_pendulum_angle(t_end, 1e-5, kGravity, kLength);
      reference_error = std::abs(reference - jourdain::bench::rod_pendulum_angle(t_end, 2e-5, kGravity, kLength));
    }
    if (n == 1) std::printf("N = 1  (reference theta = %.12f, its own error ~%.1e)\n", reference, reference_error);
    else std::printf("N = %ld\n", n);
    std::printf("  %-28s %11s %8s %12s %10s\n", "way", "time", "J/this", "theta_N", "err");
    if (!mujoco_refused.empty()) std::printf("  MuJoCo cannot load this chain: %s\n", mujoco_refused.c_str());
    const double base = median(ways[0].times);
    for (const auto& w : ways) {
      if (!w.last.failure.empty()) {
        std::printf("  %-28s failed: %s\n", w.label.c_str(), w.last.failure.c_str());
        ok = false;
        continue;
      }
      const double t = median(w.times);
      char err[32] = "-";
      if (n == 1) std::snprintf(err, sizeof err, "%.2e", std::abs(w.last.theta - reference));
      std::printf("  %-28s %9.4f s %8.3f %12.6f %10s\n", w.label.c_str(), t, base / t, w.last.theta, err);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return ok ? 0 : 1;
}
