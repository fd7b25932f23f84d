// Signal blocks read their numeric parameters from the run's Context (issue 12): a value
// given to a loaded model with Model::set_parameter must give exactly (==, bit for bit)
// the run of a netlist written with that value, and configuration must be refused by
// set_parameter with a message naming it. Values that are each in range but do not fit
// together (lower above upper) are refused when the run starts.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "jourdain/solvers/linear.hpp"
#include "parameter_runs.hpp"
#include "signal_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

using Values = std::vector<std::pair<std::string, nlohmann::json>>;

// A PID on a first-order lag (no algebraic loop: the lag's output is its state). The set
// point steps at 0.1 s, so the derivative filter, the limits and the anti-windup all act.
std::string pid_loop(const std::string& pid_params) {
  return netlist(R"("setpoint": {"type": "signal.step", "params": {"step_time": "0.1 s", "before": 0, "after": 1}},
                    "error": {"type": "signal.sum", "params": {"signs": "+-"}},
                    "pid": {"type": "signal.pid", "params": )" +
                     pid_params + R"(},
                    "plant": {"type": "signal.first_order_lag", "params": {"K": 2, "T": "0.5 s"}})",
                 R"(["setpoint.out", "error.in1"], ["plant.out", "error.in2"], ["error.out", "pid.error"],
                    ["pid.command", "plant.in"])",
                 R"("plant.out", "pid.command", "pid.unsaturated", "pid.integral")");
}

void check_same_run(const RunResult& a, const RunResult& b) {
  REQUIRE(a.finished);
  REQUIRE(b.finished);
  CHECK(a.rows.size() > 10);
  CHECK(a.columns == b.columns);
  CHECK(a.rows == b.rows);  // bit for bit
  CHECK(a.stats.steps == b.stats.steps);
  CHECK(a.events.size() == b.events.size());
}

}  // namespace

TEST_CASE("PID gains set per run through the Context give the run of a netlist written with them, bit for bit") {
  const Netlist loaded = load(pid_loop(R"({"kp": 2, "ki": "1.5 1/s", "kd": "50 ms", "u_min": -4, "u_max": 4})"));
  const Values values = {{"pid.kp", 3.5}, {"pid.kd", "80 ms"}, {"pid.u_max", "2.5"}};
  const RunResult per_run = run_with(loaded, values);
  const Netlist written = load(pid_loop(R"({"kp": 3.5, "ki": "1.5 1/s", "kd": "80 ms", "u_min": -4, "u_max": "2.5"})"));
  check_same_run(per_run, run_with(written, {}));
  // The values reached the run: the netlist's own gains give another response, and the
  // new upper limit holds the command.
  const RunResult netlist_gains = run_with(loaded, {});
  REQUIRE(netlist_gains.finished);
  CHECK(netlist_gains.rows.back() != per_run.rows.back());
  CHECK(max_of(per_run, "pid.command") == 2.5);
  CHECK(max_of(netlist_gains, "pid.command") > 2.5);

  // The same through a Context directly: one evaluation of the derivatives.
  Context ctx = loaded.model.make_context(0.0);
  for (const auto& [name, value] : values) loaded.model.set_parameter(ctx, name, value);
  loaded.model.initialize(ctx);
  Context ref = written.model.make_context(0.0);
  written.model.initialize(ref);
  CHECK(ctx.xdot == ref.xdot);
  CHECK(ctx.y == ref.y);
}

TEST_CASE("a gain in an algebraic loop and a step time set per run, bit for bit") {
  // The feedback amplifier's loop is solved by Newton's method: the gain is read at every
  // iteration from the Context.
  Registry registry = builtin_registry();
  const Netlist amplifier = load_netlist(netlist_path("feedback_amplifier"), registry);
  nlohmann::json doc = nlohmann::json::parse(read_text(netlist_path("feedback_amplifier")));
  doc["components"]["amplifier"]["params"]["k"] = 2.5e4;
  doc["components"]["feedback"]["params"]["k"] = "0.2";
  const RunResult per_run = run_with(amplifier, {{"amplifier.k", 2.5e4}, {"feedback.k", "0.2"}});
  check_same_run(per_run, run_with(load(doc.dump()), {}));
  // y = A u / (1 + A b) with u = 1 after the step.
  CHECK(per_run.rows.back()[3] == doctest::Approx(2.5e4 / (1.0 + 2.5e4 * 0.2)).epsilon(1e-9));

  // A step moved to t0 = 0 by the run: the step's initial state and the comparator that
  // reads it at t0 (initially high because the step has happened) follow the run's
  // value, as they follow a netlist written with it.
  auto step_and_comparator = [](const std::string& step_time) {
    return netlist(R"("step": {"type": "signal.step", "params": {"step_time": ")" + step_time +
                       R"(", "before": 0, "after": 1}},
                      "cmp": {"type": "signal.comparator", "params": {"lower": 0.2, "upper": 0.5, "high_value": 3}},
                      "int": {"type": "signal.integrator"})",
                   R"(["step.out", "cmp.in"], ["cmp.out", "int.in"])", R"("step.out", "cmp.out", "int.out")");
  };
  const RunResult moved = run_with(load(step_and_comparator("1 s")), {{"step.step_time", "0 s"}});
  check_same_run(moved, run_with(load(step_and_comparator("0 s")), {}));
  CHECK(moved.rows.front()[2] == 3.0);  // high from the start
  CHECK(at_time(moved, "int.out", 2.0) == doctest::Approx(6.0).epsilon(1e-12));
}

TEST_CASE("set_parameter refuses configuration, naming it") {
  const Netlist loaded = load(pid_loop(R"({"kp": 2, "ki": 1})"));
  Context ctx = loaded.model.make_context(0.0);
  const std::string boolean = input_error([&] { loaded.model.set_parameter(ctx, "pid.start_filter_at_error", false); });
  CHECK(boolean.find("parameter 'start_filter_at_error'") != std::string::npos);
  CHECK(boolean.find("configuration") != std::string::npos);
  const std::string text = input_error([&] { loaded.model.set_parameter(ctx, "error.signs", "++"); });
  CHECK(text.find("parameter 'signs'") != std::string::npos);
  CHECK(text.find("configuration") != std::string::npos);
  // A numeric one is accepted, with its unit, and checked against its range.
  CHECK(input_error([&] { loaded.model.set_parameter(ctx, "pid.ki", "2 1/s"); }) == "(no error)");
  CHECK(ctx.parameters[loaded.model.parameter("pid.ki").index] == 2.0);
  CHECK(input_error([&] { loaded.model.set_parameter(ctx, "pid.kp", -1.0); }).find("out of its range") !=
        std::string::npos);
}

TEST_CASE("values that do not fit together are refused when the run starts, naming the parameter") {
  // Saturation: lower above upper.
  const Netlist saturation = load(netlist(R"("s": {"type": "signal.sine"},
                                             "sat": {"type": "signal.saturation", "params": {"lower": -0.5, "upper": 0.5}})",
                                          R"(["s.out", "sat.in"])", R"("sat.out")"));
  std::string msg = input_error([&] { (void)run_with(saturation, {{"sat.lower", 0.7}}); });
  CHECK(msg.find("component 'sat'") != std::string::npos);
  CHECK(msg.find("parameter 'lower': must be less than upper (lower = 0.7, upper = 0.5)") != std::string::npos);

  // PID: u_min above u_max; kd without kp and no Tf (the automatic Tf needs kp).
  const Netlist pid = load(pid_loop(R"({"kp": 2, "kd": 0.1})"));
  msg = input_error([&] { (void)run_with(pid, {{"pid.u_min", 1.0}, {"pid.u_max", 0.5}}); });
  CHECK(msg.find("parameter 'u_min': must be less than u_max") != std::string::npos);
  msg = input_error([&] { (void)run_with(pid, {{"pid.kp", 0.0}}); });
  CHECK(msg.find("parameter 'Tf'") != std::string::npos);
  CHECK(input_error([&] { (void)run_with(pid, {{"pid.kp", 0.0}, {"pid.Tf", "10 ms"}}); }) == "(no error)");

  // A pure integral controller's command was scheduled as independent of the error: a
  // run cannot give it proportional action.
  const Netlist integral = load(pid_loop(R"({"kp": 0, "ki": 2})"));
  msg = input_error([&] { (void)run_with(integral, {{"pid.kp", 1.0}}); });
  CHECK(msg.find("component 'pid'") != std::string::npos);
  CHECK(msg.find("parameter 'kp': must stay 0 in this run") != std::string::npos);
  CHECK(input_error([&] { (void)run_with(integral, {{"pid.ki", "3 1/s"}}); }) == "(no error)");
}

TEST_CASE("a PI controller (kd = 0) has no derivative filter state: no spurious mode in its linear model") {
  // The loop's closed form: plant T y' = K u − y, u = kp e + I, I' = ki e, e = r − y:
  // s² + s (1 + K kp)/T + K ki/T = 0, two states (plant.y, pid.integral). An idle filter
  // once added a third, λ = −1/Tf = −1 s⁻¹, that nothing drives and nothing reads.
  const double kp = 2, ki = 1.5, K = 2, T = 0.5;
  const Netlist pi = load(pid_loop(R"({"kp": 2, "ki": "1.5 1/s"})"));
  CHECK(pi.model.state_count() == 2);
  for (const auto& name : pi.model.state_names()) CHECK(name != "pid.filter");
  LinearSettings at_start;
  at_start.at = LinearSettings::At::Initial;
  const LinearRunResult r = run_linear(pi, at_start, {});
  REQUIRE(r.finished);
  REQUIRE(r.linear.A.rows() == 2);
  // λ = −b/2 ± sqrt(b²/4 − c), b = (1 + K kp)/T = 10, c = K ki/T = 6: two real roots
  // −5 ± sqrt(19), two modes. Central differences of a linear model: exact to ~1e-10 (linear.hpp).
  const double b = (1 + K * kp) / T, c = K * ki / T;
  std::vector<double> roots;
  for (const auto& l : r.linear.eigenvalues) roots.push_back(l.real());
  std::sort(roots.begin(), roots.end());
  REQUIRE(roots.size() == 2);
  CHECK(roots[0] == doctest::Approx(-b / 2 - std::sqrt(b * b / 4 - c)).epsilon(1e-8));
  CHECK(roots[1] == doctest::Approx(-b / 2 + std::sqrt(b * b / 4 - c)).epsilon(1e-8));
  // The structure follows the netlist, as for kp = kd = 0: a run cannot give it a
  // derivative term; a netlist with kd > 0 keeps its filter and any kd per run.
  const std::string msg = input_error([&] { (void)run_with(pi, {{"pid.kd", 0.1}}); });
  CHECK(msg.find("parameter 'kd': must stay 0 in this run") != std::string::npos);
  const Netlist pid = load(pid_loop(R"({"kp": 2, "ki": "1.5 1/s", "kd": "50 ms"})"));
  CHECK(pid.model.state_count() == 3);
  CHECK(input_error([&] { (void)run_with(pid, {{"pid.kd", 0.0}}); }) == "(no error)");
}
