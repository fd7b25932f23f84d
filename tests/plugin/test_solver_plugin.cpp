// A plugin adds a solver method (solver_plugin.cpp: explicit Euler at a fixed step, with
// a setting of its own). The method is reached by name like the built-in ones, runs a
// netlist, and is checked against the closed form of exponential decay; a plugin that
// fails half-way leaves no method behind.
#include <cmath>

#include "jourdain/errors.hpp"
#include "jourdain/solvers/solver_registry.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;
using namespace jourdain::test;
namespace fs = std::filesystem;

namespace {

constexpr double kLambda = 2.0;  // 1/s: y' = -lambda y, y(0) = 1

// An integrator fed back on itself: y' = k y with k = -lambda.
std::string decay_netlist(const std::string& solver, const std::string& plugins_json = "") {
  return R"({
  "name": "decay",
  )" + (plugins_json.empty() ? std::string() : "\"plugins\": " + plugins_json + ",\n") +
         R"(  "components": {"integ": {"type": "signal.integrator", "params": {"k": -2}, "initial": {"y": 1}}},
  "connections": [["integ.out", "integ.in"]],
  "solver": )" + solver + R"(,
  "record": ["integ.y"]
})";
}

struct Plugged {
  Registry registry;
  Plugged() {
    register_builtin_components(registry);
    registry.load_plugin(SOLVER_PLUGIN);
  }
  RunResult run(const std::string& solver) {
    Netlist net = load_netlist_text(decay_netlist(solver), "decay.json", registry);
    RunOptions options;
    options.keep_rows = true;
    options.solvers = &solvers(registry);
    return run_netlist(net, options);
  }
};

std::string euler(double h, long substeps = 1) {
  return R"({"method": "euler", "t_end": 2, "output_interval": 0.1, "step": )" + std::to_string(h) +
         R"(, "substeps": )" + std::to_string(substeps) + "}";
}

// Euler's global error on y' = -lambda y, y(0) = 1, at t_n = n h (0 <= lambda h <= 1):
//   e_{n+1} = (1 - lambda h) e_n + tau_n,  tau_n = (e^{-lambda h} - 1 + lambda h) y(t_n),
// with 0 <= tau_n <= (lambda h)^2 / 2 e^{-lambda t_n} and 0 <= 1 - lambda h <= e^{-lambda h}, so
//   0 <= e_n = sum_{j<n} (1 - lambda h)^{n-1-j} tau_j <= n (lambda h)^2 / 2 e^{-lambda (t_n - h)}
//        = lambda^2 h t_n / 2 e^{-lambda (t_n - h)},
// and to leading order e_n = lambda^2 h t_n / 2 e^{-lambda t_n}: the bound is sharp to a
// factor e^{lambda h} (1 + O(lambda^2 h t)).
double error_bound(double h, double t) { return kLambda * kLambda * h * t / 2.0 * std::exp(-kLambda * (t - h)); }

}  // namespace

TEST_CASE("a plugin's solver method is registered with its schema and origin") {
  Plugged p;
  const SolverRegistry& all = solvers(p.registry);
  const SolverMethod* m = all.find("euler");
  REQUIRE(m != nullptr);
  CHECK(all.origin_of("euler") == fs::canonical(SOLVER_PLUGIN).string());
  CHECK(all.origin_of("rk4") == "built-in");
  CHECK(all.methods_using("step") == std::vector<std::string>{"euler", "rk4"});
  CHECK(all.methods_using("substeps") == std::vector<std::string>{"euler"});

  // Its own setting: in `extra`, default filled in, validated against its schema.
  SolverSettings s = solver_settings_from_json(nlohmann::json::parse(R"({"method": "euler", "step": "5 ms"})"),
                                               {"x.json", "/solver", "", ""}, all);
  CHECK(s.step == doctest::Approx(0.005));
  CHECK(s.extra == nlohmann::json{{"substeps", 1}});
  CHECK_THROWS_WITH_AS(solver_settings_from_json(nlohmann::json::parse(R"({"method": "euler", "substeps": 0})"),
                                                 {"x.json", "/solver", "", ""}, all),
                       doctest::Contains("/solver/substeps: must be a positive whole number"), InputError);
  // A key only the other methods read: a warning naming the method.
  std::vector<std::string> warnings;
  solver_settings_from_json(nlohmann::json::parse(R"({"method": "euler", "rtol": 1e-3})"), {"x.json", "/solver", "", ""},
                            all, &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("method euler") != std::string::npos);
  // The built-in methods do not know its key.
  CHECK_THROWS_WITH_AS(solver_settings_from_json(nlohmann::json::parse(R"({"method": "rk4", "substeps": 2})"),
                                                 {"x.json", "/solver", "", ""}),
                       doctest::Contains("unknown key 'substeps' for method rk4"), InputError);
}

TEST_CASE("the plugin's explicit Euler on exponential decay: error within its bound, first order in h") {
  Plugged p;
  auto max_relative_to_bound = [&](double h, double& worst_error, double& lowest_ratio) {
    RunResult r = p.run(euler(h));
    REQUIRE(r.finished);
    CHECK(r.stats.method == "euler");
    CHECK(r.stats.steps == std::lround(2.0 / h));
    CHECK(r.summary["solver"]["substeps"] == 1);
    const auto t = r.column("time"), y = r.column("integ.y");
    REQUIRE(t.size() == 21);
    double highest = 0.0;
    worst_error = 0.0;
    lowest_ratio = 1.0;
    for (size_t i = 1; i < t.size(); ++i) {
      const double error = std::exp(-kLambda * t[i]) - y[i];  // Euler decays too fast: error >= 0
      CAPTURE(t[i]);
      CHECK(error >= 0.0);
      highest = std::max(highest, error / error_bound(h, t[i]));
      lowest_ratio = std::min(lowest_ratio, error / error_bound(h, t[i]));
      worst_error = std::max(worst_error, error);
    }
    return highest;
  };
  const double h = 0.01;
  double e1 = 0, e2 = 0, low1 = 0, low2 = 0;
  const double r1 = max_relative_to_bound(h, e1, low1);
  const double r2 = max_relative_to_bound(h / 2, e2, low2);
  MESSAGE("Euler h = " << h << ": max error " << e1 << ", error/bound in [" << low1 << ", " << r1 << "]; h/2: " << e2
                       << ", [" << low2 << ", " << r2 << "]; ratio " << e1 / e2);
  CHECK(r1 <= 1.0);
  CHECK(r2 <= 1.0);
  // The bound is sharp (leading order): an error far below it would be another method's.
  CHECK(low1 >= 0.9);
  CHECK(low2 >= 0.9);
  // First order: halving h halves the error, to within 10 %.
  CHECK(e1 / e2 == doctest::Approx(2.0).epsilon(0.1));

  // Its own setting is used: two substeps per step of h are the steps of h/2.
  RunResult sub = p.run(euler(h, 2));
  RunResult half = p.run(euler(h / 2));
  REQUIRE(sub.finished);
  const auto ys = sub.column("integ.y"), yh = half.column("integ.y");
  REQUIRE(ys.size() == yh.size());
  for (size_t i = 0; i < ys.size(); ++i) CHECK(ys[i] == doctest::Approx(yh[i]).epsilon(1e-12));
}

TEST_CASE("the command line: a netlist names the plugin and its method; jourdain solvers lists it") {
  TempDir tmp;
  fs::create_directories(tmp.path() / "plugins");
  fs::copy_file(SOLVER_PLUGIN, tmp.path() / "plugins" / "euler.so");
  const fs::path netlist = tmp.path() / "decay.json";
  write_text(netlist, decay_netlist(euler(0.01), R"(["plugins/euler.so"])"));
  auto r = run_command(shell_quote(jourdain_exe()) + " run -q --allow-plugins " + shell_quote(netlist) + " -o " +
                       shell_quote(tmp.path() / "out") + " --no-report");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  auto summary = nlohmann::json::parse(read_text(tmp.path() / "out" / "summary.json"));
  CHECK(summary["statistics"]["method"] == "euler");
  CHECK(summary["statistics"]["steps"] == 200);

  // Without the plugin the method is unknown: bad input listing the registered ones.
  const fs::path bare = tmp.path() / "bare.json";
  write_text(bare, decay_netlist(euler(0.01)));
  auto u = run_command(shell_quote(jourdain_exe()) + " check " + shell_quote(bare));
  INFO(u.output);
  CHECK(u.exit_code == 2);
  CHECK(u.output.find("/solver/method: unknown method 'euler'; registered methods: adams, bdf, dopri5, rk4") != std::string::npos);

  auto list = run_command(shell_quote(jourdain_exe()) + " solvers --plugin " + shell_quote(SOLVER_PLUGIN));
  INFO(list.output);
  CHECK(list.exit_code == 0);
  CHECK(list.output.find("euler - explicit Euler") != std::string::npos);
  CHECK(list.output.find("substeps (integer) = 1") != std::string::npos);
  auto one = run_command(shell_quote(jourdain_exe()) + " solvers euler --json --plugin " + shell_quote(SOLVER_PLUGIN));
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  auto d = nlohmann::json::parse(one.output);
  CHECK(d["name"] == "euler");
  CHECK(d["origin"] == fs::canonical(SOLVER_PLUGIN).string());
  bool step_shared_with_rk4 = false;
  for (const auto& s : d["settings"])
    if (s["key"] == "step") step_shared_with_rk4 = s["methods"] == nlohmann::json{"euler", "rk4"};
  CHECK(step_shared_with_rk4);
}

TEST_CASE("a plugin that fails after adding its method leaves no method behind") {
  Registry registry;
  register_builtin_components(registry);
  CHECK_THROWS_WITH_AS(registry.load_plugin(SOLVER_PLUGIN_SHADOW), doctest::Contains("signal.constant"), InputError);
  CHECK(solvers(registry).find("euler") == nullptr);
  CHECK(solvers(registry).names() == std::vector<std::string>{"adams", "bdf", "dopri5", "rk4"});
  // The good one still loads afterwards (the name was freed).
  registry.load_plugin(SOLVER_PLUGIN);
  CHECK(solvers(registry).find("euler") != nullptr);
}
