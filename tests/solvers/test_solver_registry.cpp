// The solver registry: the built-in methods' schemas, the settings parser's messages
// (unknown method, unknown key, a key of another method, bad values), a method's own
// settings in SolverSettings::extra, the refusals at registration, simulate()'s dispatch,
// and the Registry extension slot that holds the application's methods.
#include "jourdain/solvers/solver_registry.hpp"

#include "jourdain/errors.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

const InputLocation kWhere{"net.json", "/solver", "", ""};

SolverSettings parse(const std::string& text, const SolverRegistry& solvers = SolverRegistry(),
                     std::vector<std::string>* warnings = nullptr) {
  return solver_settings_from_json(json::parse(text), kWhere, solvers, warnings);
}

// The message of the InputError that reading `text` throws; with `bounds`, also checking
// the settings' bounds (check_solver_bounds), as a run does before it starts.
std::string refusal(const std::string& text, const SolverRegistry& solvers = SolverRegistry(), bool bounds = false) {
  try {
    const SolverSettings s = parse(text, solvers);
    if (bounds) check_solver_bounds(s, kWhere, solvers);
  } catch (const InputError& e) {
    return e.what();
  }
  FAIL("not refused: " << text);
  return "";
}

// A method that records what it was run with and writes one output per call, with two
// settings of its own: a real with a unit and a whole number.
class Probe final : public SolverMethod {
 public:
  explicit Probe(std::string name = "probe")
      : SolverMethod(std::move(name), "records its settings (test)",
                     {standard_solver_setting("rtol"),
                      {"relaxation", SolverSetting::Kind::Real, "s", 0.01, Range::positive(), "a time constant"},
                      {"stages", SolverSetting::Kind::Integer, "", 2, Range::between(1, 5), "stage count"}}) {}
  void integrate(const Model&, Context& ctx, const SolverSettings& s, Observer& observer,
                 SolverStats& stats) const override {
    *seen = s;
    ctx.t = s.t_end;
    stats.steps = 1;
    observer.output(ctx);
  }
  std::shared_ptr<SolverSettings> seen = std::make_shared<SolverSettings>();
};

// A method declared with settings the registry must refuse.
class Declares final : public SolverMethod {
 public:
  Declares(std::string name, std::vector<SolverSetting> settings)
      : SolverMethod(std::move(name), "test", std::move(settings)) {}
  void integrate(const Model&, Context&, const SolverSettings&, Observer&, SolverStats&) const override {}
};

class CountingObserver final : public Observer {
 public:
  void output(const Context&) override { ++outputs; }
  int outputs = 0;
};

}  // namespace

TEST_CASE("the built-in methods and their schemas") {
  const SolverRegistry solvers;
  CHECK(solvers.names() == std::vector<std::string>{"adams", "bdf", "dopri5", "rk4"});
  CHECK(solvers.methods_using("step") == std::vector<std::string>{"rk4"});
  CHECK(solvers.methods_using("rtol") == std::vector<std::string>{"adams", "bdf", "dopri5"});
  CHECK(solvers.methods_using("max_step") == std::vector<std::string>{"adams", "bdf", "dopri5"});
  // CVODE locates roots itself: event_tolerance is the explicit methods'.
  CHECK(solvers.methods_using("event_tolerance") == std::vector<std::string>{"dopri5", "rk4"});
  for (const char* shared : {"t_start", "t_end", "output_interval", "max_steps", "max_output_rows"})
    CHECK(solvers.methods_using(shared) == std::vector<std::string>{"adams", "bdf", "dopri5", "rk4"});
  CHECK(solvers.methods_using("nonsense").empty());
  // A whole schema: the shared settings, then the method's own, with their defaults.
  std::vector<std::string> keys;
  for (const auto& s : solvers.schema(*solvers.find("rk4"))) keys.push_back(s.key);
  CHECK(keys == std::vector<std::string>{"t_start", "t_end", "output_interval", "max_steps", "max_output_rows", "step",
                                         "event_tolerance"});
  json d = describe_solver(solvers, *solvers.find("dopri5"));
  CHECK(d["origin"] == "built-in");
  bool rtol_found = false;
  for (const auto& s : d["settings"])
    if (s["key"] == "rtol") {
      rtol_found = true;
      CHECK(s["default"] == 1e-6);
      CHECK(s["range"] == "(0, inf)");
      CHECK(s["methods"] == json{"adams", "bdf", "dopri5"});
    }
  CHECK(rtol_found);
  CHECK(describe_solvers(solvers)["methods"].size() == 4);
}

TEST_CASE("the settings parser's messages come from the registry") {
  // An unknown method lists the registered ones, and the closest.
  std::string m = refusal(R"({"method": "dopri"})");
  CHECK(m.find("net.json: /solver/method: unknown method 'dopri'; registered methods: adams, bdf, dopri5, rk4; did you mean "
               "'dopri5'?") != std::string::npos);
  CHECK(refusal(R"({"method": "euler"})").find("did you mean") == std::string::npos);
  CHECK(refusal(R"({"method": 4})").find("/solver/method: expected a string") != std::string::npos);
  // An unknown key lists the method's keys, and the closest.
  std::string k = refusal(R"({"method": "bdf", "rtoll": 1e-3})");
  CHECK(k.find("/solver/rtoll: unknown key 'rtoll' for method bdf; its keys: method, t_start, t_end, output_interval, "
               "max_steps, max_output_rows, rtol, atol, max_step, initial_step, dense_jacobian_max_states, "
               "gmres_min_states, jacobian_by_components; did you mean 'rtol'?") !=
        std::string::npos);
  // A key of another method is ignored, with a warning that names the method.
  std::vector<std::string> warnings;
  SolverSettings s = parse(R"({"method": "rk4", "rtol": 1e-3, "step": 0.01, "max_step": 0.1})", SolverRegistry(), &warnings);
  CHECK(s.rtol == SolverSettings{}.rtol);
  CHECK(s.max_step == 0.0);
  CHECK(s.step == 0.01);
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0] == "/solver/max_step: not read by method rk4 (a setting of adams, bdf, dopri5); ignored");
  CHECK(warnings[1] == "/solver/rtol: not read by method rk4 (a setting of adams, bdf, dopri5); ignored");
  warnings.clear();
  parse(R"({"method": "bdf", "event_tolerance": 1e-9})", SolverRegistry(), &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("method bdf (a setting of dopri5, rk4)") != std::string::npos);
  // Values are checked against the schema: ranges, kinds, units, finiteness.
  CHECK(refusal(R"({"rtol": -1})").find("/solver/rtol: must be positive") != std::string::npos);
  CHECK(refusal(R"({"method": "rk4", "step": -1})").find("/solver/step: must not be negative") != std::string::npos);
  CHECK(refusal(R"({"max_steps": 1.5})").find("/solver/max_steps: must be a positive whole number") != std::string::npos);
  CHECK(refusal(R"({"max_output_rows": 0})").find("must be a positive whole number") != std::string::npos);
  // Counts written as reals are whole numbers when they are exactly (issue 18, D9); beyond
  // 2^53 a real cannot say which whole number it means.
  CHECK(parse(R"({"max_steps": 5e7, "max_output_rows": 2.0E6})").max_steps == 50'000'000);
  CHECK(parse(R"({"max_output_rows": 2.0E6})").max_output_rows == 2'000'000);
  CHECK(refusal(R"({"max_steps": 5.5e0})").find("must be a positive whole number") != std::string::npos);
  CHECK(refusal(R"({"max_steps": 1e300})").find("must be a positive whole number") != std::string::npos);
  // Counts too large for any integer are printed as reals, not cast (D10: the message said
  // -9223372036854775808, from an out-of-range conversion).
  auto bounds_refusal = [](const std::string& text) { return refusal(text, SolverRegistry(), true); };
  const std::string tiny_interval = bounds_refusal(R"({"output_interval": 1e-300})");
  const std::string huge_span = bounds_refusal(R"({"t_end": 1e300, "output_interval": 1})");
  const std::string tiny_step = bounds_refusal(R"({"method": "rk4", "step": 1e-300})");
  CAPTURE(tiny_interval);
  CAPTURE(huge_span);
  CAPTURE(tiny_step);
  CHECK(tiny_interval.find("asks for 1e+300 output rows") != std::string::npos);
  CHECK(huge_span.find("asks for 1e+300 output rows") != std::string::npos);
  CHECK(tiny_step.find("rk4 would take 1e+300 steps") != std::string::npos);
  for (const std::string& m : {tiny_interval, huge_span, tiny_step}) CHECK(m.find("-92233720") == std::string::npos);
  // Below 1e15 the count is whole.
  CHECK(bounds_refusal(R"({"output_interval": 1e-7, "t_end": 2})").find("asks for 20000000 output rows") !=
        std::string::npos);
  CHECK(refusal(R"({"t_end": "2 bar"})").find("/solver/t_end") != std::string::npos);
  CHECK(refusal(R"({"t_start": 3, "t_end": 2})").find("/solver/t_end: t_end (2 s) must be after t_start") !=
        std::string::npos);
  CHECK(refusal(R"([1, 2])").find("/solver: expected a JSON object") != std::string::npos);
  // Units convert to SI.
  CHECK(parse(R"({"method": "rk4", "step": "2 ms", "t_end": "1 min"})").step == doctest::Approx(0.002));
  CHECK(parse(R"({"t_end": "1 min"})").t_end == doctest::Approx(60.0));
}

TEST_CASE("a method's own settings: in extra, converted, defaults filled in, checked") {
  SolverRegistry solvers;
  solvers.add(std::make_shared<Probe>());
  SolverSettings s = parse(R"({"method": "probe", "relaxation": "5 ms", "rtol": 1e-4})", solvers);
  CHECK(s.rtol == 1e-4);
  CHECK(s.extra["relaxation"].get<double>() == doctest::Approx(0.005));
  CHECK(s.extra["stages"] == 2);  // its default
  CHECK(to_json(s)["relaxation"].get<double>() == doctest::Approx(0.005));
  CHECK(to_json(s)["stages"] == 2);
  CHECK(refusal(R"({"method": "probe", "stages": 6})", solvers).find("/solver/stages: must be a whole number in [1, 5]") !=
        std::string::npos);
  CHECK(refusal(R"({"method": "probe", "relaxation": 0})", solvers).find("/solver/relaxation: must be positive") !=
        std::string::npos);
  CHECK(refusal(R"({"method": "probe", "relaxation": "3 bar"})", solvers).find("/solver/relaxation") != std::string::npos);
  // The built-in methods read none of them; the probe reads no step.
  CHECK(refusal(R"({"method": "rk4", "stages": 3})").find("unknown key 'stages' for method rk4") != std::string::npos);
  std::vector<std::string> warnings;
  parse(R"({"method": "probe", "step": 0.1})", solvers, &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "/solver/step: not read by method probe (a setting of rk4); ignored");
}

TEST_CASE("registration refuses a taken name and schemas that cannot be honoured") {
  SolverRegistry solvers;
  auto refused = [&](std::shared_ptr<const SolverMethod> m) {
    try {
      solvers.add(std::move(m));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    FAIL("not refused");
    return std::string();
  };
  using Kind = SolverSetting::Kind;
  CHECK(refused(std::make_shared<Probe>("rk4")).find("solver method 'rk4' (built-in): the name is taken (built-in)") !=
        std::string::npos);
  CHECK(refused(std::make_shared<Probe>("")).find("the name is empty") != std::string::npos);
  CHECK(refused(std::make_shared<Declares>("a", std::vector<SolverSetting>{{"t_end", Kind::Real, "s", 1.0, Range::any(), ""}}))
            .find("it declares 't_end', which every method reads") != std::string::npos);
  SolverSetting step_in_ms = standard_solver_setting("step");
  step_in_ms.unit = "ms";
  CHECK(refused(std::make_shared<Declares>("b", std::vector<SolverSetting>{step_in_ms}))
            .find("must keep the kind, unit and default of SolverSettings::step") != std::string::npos);
  SolverSetting positive_step = standard_solver_setting("step");
  positive_step.range = Range::positive();  // its default, 0, is then refused
  CHECK(refused(std::make_shared<Declares>("c", std::vector<SolverSetting>{positive_step}))
            .find("the default 0.0 of 'step' is refused by its own schema: must be positive") != std::string::npos);
  CHECK(refused(std::make_shared<Declares>("d", std::vector<SolverSetting>{standard_solver_setting("rtol"),
                                                                           standard_solver_setting("rtol")}))
            .find("it declares 'rtol' twice") != std::string::npos);
  CHECK(refused(std::make_shared<Declares>("e", std::vector<SolverSetting>{{"gain", Kind::Integer, "", 0.5, Range::any(), ""}}))
            .find("the default 0.5 of 'gain' is refused") != std::string::npos);
  CHECK_THROWS_AS(standard_solver_setting("t_end"), std::invalid_argument);
  CHECK_THROWS_AS(standard_solver_setting("nonsense"), std::invalid_argument);
  CHECK(solvers.names() == std::vector<std::string>{"adams", "bdf", "dopri5", "rk4"});  // nothing was added
}

TEST_CASE("simulate() dispatches through the registry and checks the method's extra settings") {
  SolverRegistry solvers;
  auto probe = std::make_shared<Probe>();
  solvers.add(probe);
  Netlist net = test::load(R"({"components": {"m": {"type": "mechanical1d.mass"}}})");
  auto run = [&](const SolverSettings& s) {
    Context ctx = net.model.make_context(s.t_start);
    net.model.initialize(ctx);
    CountingObserver observer;
    SolverStats stats;
    simulate(net.model, ctx, s, observer, stats, solvers);
    CHECK(stats.method == s.method);
    return observer.outputs;
  };
  SolverSettings s;
  s.method = "probe";
  s.t_end = 3.0;
  CHECK(run(s) == 2);  // simulate's first point, then the probe's
  CHECK(probe->seen->t_end == 3.0);
  CHECK(probe->seen->extra == json{{"relaxation", 0.01}, {"stages", 2}});  // defaults filled in
  s.extra = {{"stages", 4}};
  run(s);
  CHECK(probe->seen->extra["stages"] == 4);
  s.extra = {{"stages", 9}};
  CHECK_THROWS_WITH_AS(run(s), doctest::Contains("/solver/stages: must be a whole number in [1, 5]"), InputError);
  s.extra = {{"bogus", 1}};
  CHECK_THROWS_WITH_AS(run(s), doctest::Contains("method probe has no setting 'bogus'; its own settings: relaxation, stages"),
                       InputError);
  s.extra = json::object();
  s.method = "prob";
  CHECK_THROWS_WITH_AS(run(s), doctest::Contains("unknown method 'prob'; registered methods: adams, bdf, dopri5, probe, rk4; did "
                                                 "you mean 'probe'?"),
                       InputError);
  // The overload without a registry knows the built-in methods only.
  s.method = "probe";
  Context ctx = net.model.make_context(0.0);
  net.model.initialize(ctx);
  CountingObserver observer;
  SolverStats stats;
  CHECK_THROWS_WITH_AS(simulate(net.model, ctx, s, observer, stats), doctest::Contains("unknown method 'probe'"), InputError);
}

TEST_CASE("run_netlist uses RunOptions::solvers; the summary records the extra settings") {
  SolverRegistry solvers;
  solvers.add(std::make_shared<Probe>());
  Netlist net = test::load(
      R"({"components": {"m": {"type": "mechanical1d.mass"}}, "solver": {"method": "probe", "stages": 3, "t_end": 2}})");
  RunOptions options;
  options.solvers = &solvers;
  RunResult r = run_netlist(net, options);
  CHECK(r.finished);
  CHECK(r.stats.method == "probe");
  CHECK(r.summary["solver"]["stages"] == 3);
  CHECK(r.summary["solver"]["relaxation"] == 0.01);
  CHECK_THROWS_WITH_AS(run_netlist(net, {}), doctest::Contains("unknown method 'probe'"), InputError);
  // An analysis over time integrates nothing: the method named (a plugin's) is not in its way.
  json crank = json::parse(test::read_text(test::netlist_path("slider_crank")));
  REQUIRE(crank["analysis"] == "kinematic");
  crank["solver"] = {{"method", "probe"}, {"t_end", 0.5}, {"output_interval", 0.1}};
  RunResult k = run_netlist(test::load(crank.dump()), options);
  CHECK(k.finished);
  CHECK(k.row_count == 6);
  CHECK(k.stats.method == "kinematic");
}

TEST_CASE("the Registry's extension slot: one SolverRegistry per Registry, origins stamped, removed by origin") {
  Registry a, b;
  SolverRegistry& sa = solvers(a);
  CHECK(&solvers(a) == &sa);  // created once, then found
  CHECK(a.find_extension<SolverRegistry>() == &sa);
  CHECK(b.find_extension<SolverRegistry>() == nullptr);  // not created until used
  a.set_origin("/plugins/probe.so");
  sa.add(std::make_shared<Probe>());
  a.set_origin("built-in");
  CHECK(sa.origin_of("probe") == "/plugins/probe.so");
  CHECK(solvers(b).find("probe") == nullptr);  // registries share nothing
  CHECK(solvers(b).names() == std::vector<std::string>{"adams", "bdf", "dopri5", "rk4"});
  // A Registry moved keeps its extensions (they are owned on the heap).
  Registry moved = std::move(a);
  CHECK(&solvers(moved) == &sa);
  sa.remove_origin("/plugins/probe.so");
  CHECK(sa.find("probe") == nullptr);
  CHECK(sa.names() == std::vector<std::string>{"adams", "bdf", "dopri5", "rk4"});
}
