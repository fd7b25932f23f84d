// One loaded model, many runs at once (issue 12; framework/README.md, "Model and Context"): numeric
// parameters live in the Context, and a copy of a Context shares no scratch with the
// original, so threads running one Model with different parameter values must give
// exactly what the same runs give one after another. This test is also built and run
// under ThreadSanitizer (CMake preset "thread", .ci/test-thread).
#include <thread>

#include "jourdain_test.hpp"

namespace jourdain::test {
namespace {

// Runs `netlist` once per parameter set, in one thread each when `threaded`.
std::vector<RunResult> run_all(const Netlist& netlist, const std::vector<std::string>& values,
                               const std::string& parameter, double t_end, bool threaded) {
  std::vector<RunResult> results(values.size());
  auto one = [&](size_t k) {
    RunOptions o;
    o.keep_rows = true;
    o.t_end = t_end;
    o.parameters = {{parameter, values[k]}};
    results[k] = run_netlist(netlist, o);
  };
  if (!threaded) {
    for (size_t k = 0; k < values.size(); ++k) one(k);
    return results;
  }
  std::vector<std::thread> threads;
  for (size_t k = 0; k < values.size(); ++k) threads.emplace_back(one, k);
  for (auto& t : threads) t.join();
  return results;
}

void check_threads_match_serial(const std::string& name, const std::string& parameter,
                                const std::vector<std::string>& values, double t_end) {
  Registry registry = builtin_registry();
  const Netlist netlist = load_netlist(netlist_path(name), registry);
  const auto serial = run_all(netlist, values, parameter, t_end, false);
  const auto threaded = run_all(netlist, values, parameter, t_end, true);
  for (size_t k = 0; k < values.size(); ++k) {
    INFO(name << " with " << parameter << " = " << values[k]);
    REQUIRE(serial[k].finished);
    REQUIRE(threaded[k].finished);
    CHECK(serial[k].rows.size() > 10);
    // Bit for bit: the same arithmetic in the same order, whatever the other threads do.
    CHECK(threaded[k].rows == serial[k].rows);
    CHECK(threaded[k].stats.steps == serial[k].stats.steps);
    // The parameter reached the run: every value gives another motion.
    if (k > 0) CHECK(serial[k].rows.back() != serial[0].rows.back());
  }
}

}  // namespace

TEST_CASE("four threads run one mechanism with different masses, as serial runs do, bit for bit") {
  // The KKT block solver keeps its sparse factorization in the Context's workspaces.
  check_threads_match_serial("four_bar", "coupler.mass", {"4 kg", "6 kg", "8000 g", "10 kg"}, 1.0);
}

TEST_CASE("four threads run one hydraulic servo (CVODE BDF) with different relief settings, as serial runs do") {
  // Stiff integration with events: CVODE's memory is per run, the relief's setting per
  // Context.
  check_threads_match_serial("position_servo", "relief.cracking_pressure", {"200 bar", "150 bar", "120 bar", "9 MPa"},
                             1.0);
}

TEST_CASE("a copy of a Context shares no solver scratch with the original") {
  Registry registry = builtin_registry();
  const Netlist netlist = load_netlist(netlist_path("four_bar"), registry);
  Context a = netlist.model.make_context(0.0);
  netlist.model.initialize(a);  // fills the mechanism's workspace
  Context b = a;
  netlist.model.set_parameter(b, "coupler.mass", "7 kg");
  CHECK(a.parameters != b.parameters);
  netlist.model.evaluate(b);
  netlist.model.evaluate(a);
  // The same state, other coupler masses: other accelerations.
  CHECK(a.x == b.x);
  CHECK(a.xdot != b.xdot);
}

TEST_CASE("Model::set_parameter checks names, units and ranges, and names configuration") {
  Registry registry = builtin_registry();
  const Netlist netlist = load_netlist(netlist_path("four_bar"), registry);
  const Model& model = netlist.model;
  Context ctx = model.make_context(0.0);
  model.set_parameter(ctx, "coupler.mass", "2500 g");
  CHECK(ctx.parameters[model.parameter("coupler.mass").index] == doctest::Approx(2.5).epsilon(1e-15));
  model.set_parameter(ctx, "coupler.mass", 3.0);
  CHECK(ctx.parameters[model.parameter("coupler.mass").index] == 3.0);
  auto message = [&](const std::string& name, const nlohmann::json& value) {
    try {
      model.set_parameter(ctx, name, value);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(message("coupler.mas", 1.0).find("did you mean 'coupler.mass'") != std::string::npos);
  CHECK(message("coupler.mass", "3 m").find("parameter 'mass'") != std::string::npos);
  CHECK(message("coupler.mass", -1.0).find("out of its range") != std::string::npos);
  // Checked as the netlist's value is (parse_parameter): the same words.
  CHECK(message("coupler.mass", "inf kg").find("is not a finite number") != std::string::npos);
  CHECK(message("coupler.points", 1.0).find("configuration") != std::string::npos);
  // Nothing was changed by the refused values.
  CHECK(ctx.parameters[model.parameter("coupler.mass").index] == 3.0);
}

}  // namespace jourdain::test
