// Scheduling: port-level dependencies, algebraic loops solved as implicit blocks,
// algebraic unknowns, and the failure of a loop that has no solution.
#include <cmath>

#include "jourdain/recorder.hpp"
#include "jourdain_test.hpp"
#include "test_components.hpp"

using namespace jourdain;

namespace {

Netlist load_with_tests(const std::string& text) {
  Registry r = jourdain::test::builtin_registry();
  jourdain::test::register_test_components(r);
  return load_netlist_text(text, "test.json", r);
}

RunResult run_with_tests(const std::string& text) {
  Netlist n = load_with_tests(text);
  RunOptions o;
  o.keep_rows = true;
  return run_netlist(n, o);
}

}  // namespace

TEST_CASE("a negative-feedback loop is solved against its closed form y = A u / (1 + A b)") {
  // u -> sum(+ -) -> gain A -> y, and y -> gain b -> sum: an algebraic loop.
  const double A = 50.0, b = 0.3, u = 2.0;
  RunResult r = run_with_tests(R"({
    "components": {
      "u":   {"type": "test.source", "params": {"value": 2.0}},
      "err": {"type": "signal.sum", "params": {"signs": "+-"}},
      "amp": {"type": "signal.gain", "params": {"k": 50}},
      "fb":  {"type": "signal.gain", "params": {"k": 0.3}}
    },
    "connections": [["u.out", "err.in1"], ["err.out", "amp.in"], ["amp.out", "fb.in"], ["fb.out", "err.in2"]],
    "record": ["amp.out"],
    "solver": {"method": "rk4", "t_end": 0.1, "output_interval": 0.05}
  })");
  REQUIRE(r.finished);
  // Newton on a linear loop converges to rounding: relative 1e-12 is a generous margin.
  for (double y : r.column("amp.out")) CHECK(y == doctest::Approx(A * u / (1.0 + A * b)).epsilon(1e-12));
  CHECK(r.summary["schedule"]["algebraic_loops"] == 1);
  CHECK(r.stats.algebraic_iterations > 0);
}

TEST_CASE("the scheduler reports the loop and its members") {
  Netlist n = load_with_tests(R"({
    "components": {
      "u":   {"type": "test.source"},
      "err": {"type": "signal.sum", "params": {"signs": "+-"}},
      "amp": {"type": "signal.gain"},
      "lag": {"type": "signal.integrator"}
    },
    "connections": [["u.out", "err.in1"], ["err.out", "amp.in"], ["amp.out", "err.in2"], ["amp.out", "lag.in"]]
  })");
  const Schedule& s = n.model.schedule();
  REQUIRE(s.loop_count() == 1);
  std::vector<const Component*> comps;
  for (const auto& c : n.model.components()) comps.push_back(c.get());
  const std::string text = s.describe(comps);
  CHECK(text.find("implicit block") != std::string::npos);
  CHECK(text.find("err.out") != std::string::npos);
  CHECK(text.find("amp.out") != std::string::npos);
  // The source comes before the loop and the integrator's output (a state) does not join it.
  CHECK(text.find("u  (u.out)") < text.find("implicit block"));
}

TEST_CASE("port-level dependencies: a state output feeding back is not a loop") {
  // held -> gain -> in, and in -> echo: component-level this is a cycle, port-level not.
  RunResult r = run_with_tests(R"({
    "components": {
      "tf":  {"type": "test.two_faced"},
      "g":   {"type": "signal.gain", "params": {"k": 5}}
    },
    "connections": [["tf.held", "g.in"], ["g.out", "tf.in"]],
    "record": ["tf.echo", "g.out"],
    "solver": {"method": "rk4", "t_end": 0.1, "output_interval": 0.1}
  })");
  REQUIRE(r.finished);
  CHECK(r.summary["schedule"]["algebraic_loops"] == 0);
  CHECK(r.column("tf.echo").back() == doctest::Approx(2.0 * 5.0 * 3.0));
}

TEST_CASE("algebraic unknowns are solved with their residuals") {
  RunResult r = run_with_tests(R"({
    "components": {
      "u":    {"type": "test.source", "params": {"value": 10.0}},
      "root": {"type": "test.cubic_root"}
    },
    "connections": [["u.out", "root.in"]],
    "record": ["root.out"],
    "solver": {"method": "dopri5", "t_end": 0.1}
  })");
  REQUIRE(r.finished);
  const double z = r.column("root.out").back();
  CHECK(z == doctest::Approx(2.0).epsilon(1e-12));  // 2^3 + 2 = 10
}

TEST_CASE("a loop without a solution stops the run naming its components") {
  // y = u + y has no solution for u != 0.
  RunResult r = run_with_tests(R"({
    "components": {
      "u":   {"type": "test.source", "params": {"value": 1.0}},
      "add": {"type": "signal.sum", "params": {"signs": "++"}},
      "one": {"type": "signal.gain", "params": {"k": 1}}
    },
    "connections": [["u.out", "add.in1"], ["add.out", "one.in"], ["one.out", "add.in2"]],
    "solver": {"method": "rk4", "t_end": 1}
  })");
  CHECK_FALSE(r.finished);
  CHECK(r.failure.find("algebraic loop") != std::string::npos);
  CHECK(r.failure.find("'add'") != std::string::npos);
  CHECK(r.failure.find("'one'") != std::string::npos);
  CHECK(r.summary["status"] == "failed");
}

TEST_CASE("one model serves several contexts") {
  Netlist n = load_with_tests(R"({
    "components": {
      "m": {"type": "mechanical1d.mass", "params": {"inclination": "90 deg"}, "initial": {"x": 1.0}}
    }
  })");
  const Model& model = n.model;
  Context a = model.make_context(0.0), b = model.make_context(0.0);
  b.x[0] = 5.0;
  model.initialize(a);
  model.initialize(b);
  model.derivatives(a, 0.0, a.x);
  CHECK(a.x[0] == 1.0);
  CHECK(b.x[0] == 5.0);
  CHECK(a.xdot[1] == doctest::Approx(-9.81));
  CHECK(b.xdot[1] == doctest::Approx(-9.81));
  CHECK(model.state_names() == std::vector<std::string>{"m.x", "m.v"});
}

namespace {

// A chain wall - s1 - m1 - s2 - m2 - ... - sN - mN of 1D masses and springs.
std::string spring_chain(int n, const std::string& record = R"(["m1.x", "m5.v", "s3.force", "m2.a", "wall.reaction"])") {
  std::string components = R"("wall": {"type": "mechanical1d.fixed"})", connections;
  for (int i = 1; i <= n; ++i) {
    const std::string m = "m" + std::to_string(i), s = "s" + std::to_string(i);
    const std::string left = i == 1 ? "wall" : "m" + std::to_string(i - 1);
    components += ", \"" + m + R"(": {"type": "mechanical1d.mass", "params": {"mass": )" + std::to_string(i) +
                  R"(}, "initial": {"x": )" + std::to_string(0.01 * i) + "}}";
    components += ", \"" + s + R"(": {"type": "mechanical1d.spring", "params": {"stiffness": 100, "free_length": 0.005}})";
    connections += std::string(i == 1 ? "" : ", ") + "[\"" + left + ".p\", \"" + s + ".a\"], [\"" + s + ".b\", \"" +
                   m + ".p\"]";
  }
  return R"({"components": {)" + components + R"(}, "connections": [)" + connections + R"(], "record": )" +
         record + R"(, "solver": {"method": "rk4", "t_end": 1, "step": 0.01, "output_interval": 0.1}})";
}

}  // namespace

TEST_CASE("components of one type that wait for nothing of each other are evaluated in one run") {
  Netlist n = load_with_tests(spring_chain(5));
  // Masses publish their states (level 0), springs read them (level 1): the schedule
  // keeps each type together, whatever the netlist's order (m1, s1, m2, s2, ...).
  std::vector<std::string> types;
  for (const auto& step : n.model.schedule().steps) {
    REQUIRE(!step.implicit);
    const std::string& type = n.model.components()[step.components[0]]->type_name();
    if (types.empty() || types.back() != type) types.push_back(type);
  }
  CHECK(types.size() == 3);  // the wall, the masses, the springs (the first two in either order)
  CHECK(types.back() == "mechanical1d.spring");
}

TEST_CASE("runs of one type compute exactly what one virtual call per component computes") {
  // The same library types created without their TypeEvaluation: the model calls each
  // component through its virtual hooks, one at a time, in the netlist's order for the
  // derivatives. Every recorded value (states, observables, a reaction) agrees to the bit.
  Registry with_runs = jourdain::test::builtin_registry();
  Registry one_by_one;
  for (const ComponentType* t : with_runs.all()) {
    one_by_one.add(ComponentType{t->name, t->summary, t->origin, [create = t->create] {
                                   auto c = create();
                                   c->set_type_evaluation(nullptr);
                                   return c;
                                 }});
  }
  for (const auto& [name, setting] : with_runs.world_settings()) one_by_one.add_world_setting(name, setting.description);
  RunOptions o;
  o.keep_rows = true;
  Netlist a = load_netlist_text(spring_chain(6), "chain.json", with_runs);
  Netlist b = load_netlist_text(spring_chain(6), "chain.json", one_by_one);
  CHECK(a.model.components()[0]->type_evaluation() != nullptr);
  CHECK(b.model.components()[0]->type_evaluation() == nullptr);
  RunResult ra = run_netlist(a, o), rb = run_netlist(b, o);
  REQUIRE(ra.finished);
  REQUIRE(rb.finished);
  REQUIRE(ra.rows.size() == 11);
  CHECK(ra.rows == rb.rows);
  // and the springs did act: the first mass has left its start
  CHECK(ra.column("m1.x").back() != ra.column("m1.x").front());
}

TEST_CASE("recorded points: evaluated whole when an observable is recorded, as a stage for an output, not at all for states") {
  RunOptions o;
  o.keep_rows = true;
  Registry r = jourdain::test::builtin_registry();
  Netlist states_only = load_netlist_text(spring_chain(4, R"(["m2.x", "m3.x"])"), "a.json", r);
  Netlist with_force = load_netlist_text(spring_chain(4, R"(["m2.x", "m3.x", "s3.force"])"), "b.json", r);
  Netlist with_output = load_netlist_text(spring_chain(4, R"(["m2.x", "m3.x", "s3.a.f"])"), "c.json", r);
  // Which of the two paths each run takes: the recorder says whether it reads observables.
  struct NoOp final : RowListener {
    void row_recorded(const Context&, const std::vector<double>&) override {}
  } listener;
  Recorder reads_states(states_only.model, states_only.record), reads_force(with_force.model, with_force.record);
  Recorder reads_output(with_output.model, with_output.record);
  CHECK(reads_states.evaluation_needed() == PointEvaluation::States);
  CHECK(reads_output.evaluation_needed() == PointEvaluation::Stage);
  CHECK(reads_force.evaluation_needed() == PointEvaluation::Full);
  reads_states.add_listener(listener);  // a listener may read any variable
  CHECK(reads_states.evaluation_needed() == PointEvaluation::Full);
  // The same states on the three paths, with the explicit methods (the netlist's rk4)
  // and through CVODE (bdf); the spring's force on its end a, an output (a stage's
  // evaluation), is its tension, the observable (a whole evaluation).
  RunOptions with_bdf = o;
  with_bdf.solver = {{"method", "bdf"}, {"rtol", 1e-8}};
  std::vector<RunResult> a, b;  // per solver: states only, with the tension
  for (const RunOptions* run : {&o, &with_bdf}) {
    RunResult ra = run_netlist(states_only, *run), rb = run_netlist(with_force, *run), rc = run_netlist(with_output, *run);
    REQUIRE(ra.finished);
    REQUIRE(rb.finished);
    REQUIRE(rc.finished);
    CHECK(ra.column("m2.x") == rb.column("m2.x"));
    CHECK(ra.column("m3.x") == rb.column("m3.x"));
    CHECK(ra.column("m2.x") == rc.column("m2.x"));
    CHECK(rc.column("s3.a.f") == rb.column("s3.force"));
    a.push_back(std::move(ra));
    b.push_back(std::move(rb));
  }
  // bdf's motion is rk4's: rk4's error at h = 0.01 s bounds the difference, (ωh)⁴/120 per
  // radian of the fastest mode (ω ≤ 2 √(k/m) = 20 rad/s, 20 rad in 1 s) times its
  // amplitude (≤ 0.01 m): 3e-6 m (it is 1e-8 m).
  CHECK(std::abs(a[1].column("m2.x").back() - a[0].column("m2.x").back()) < 3e-6);
  // The tension of spring 3 (between masses 2 and 3), k (x3 - x2 - L0), at every row.
  const auto x2 = b[0].column("m2.x"), x3 = b[0].column("m3.x"), f = b[0].column("s3.force");
  REQUIRE(f.size() == 11);
  for (size_t k = 0; k < f.size(); ++k) CHECK(f[k] == doctest::Approx(100.0 * (x3[k] - x2[k] - 0.005)).epsilon(1e-12));
  CHECK(f.back() != f.front());
}

TEST_CASE("a point whose states alone are read is not evaluated; one whose outputs are read is") {
  // White-box: an observer that reads the first mass's state and its port's position
  // output (the same quantity, x) at every output time. Evaluated as a stage, the two
  // agree at every point; not evaluated, the output is the one of the step's last rk4
  // stage, at x + h k3 rather than at the step's end, and differs while the mass moves.
  // This fails if a solver evaluates points it need not.
  Registry r = jourdain::test::builtin_registry();
  Netlist n = load_netlist_text(spring_chain(3, R"(["m1.x"])"), "chain.json", r);
  const Model& model = n.model;
  struct Watch final : Observer {
    PointEvaluation needed;
    const Model& model;
    std::vector<double> state, port;
    Watch(PointEvaluation e, const Model& m) : needed(e), model(m) {}
    PointEvaluation evaluation_needed() const override { return needed; }
    void output(const Context& ctx) override {
      state.push_back(model.value(ctx, model.recordable("m1.x")));
      port.push_back(model.value(ctx, model.recordable("m1.p.x")));
    }
  };
  // With bdf (CVODE) the output without an evaluation is the one of CVODE's last
  // right-hand side, at a time of its own, not the output time it interpolates to.
  for (const std::string method : {"rk4", "bdf"}) {
    CAPTURE(method);
    SolverSettings settings;
    settings.method = method;
    settings.step = 0.01;
    settings.rtol = 1e-8;
    settings.output_interval = 0.1;
    Watch stage(PointEvaluation::Stage, model), states(PointEvaluation::States, model);
    for (Watch* w : {&stage, &states}) {
      Context ctx = model.make_context(0.0);
      model.initialize(ctx);
      SolverStats stats;
      simulate(model, ctx, settings, *w, stats);
      REQUIRE(w->state.size() == 11);
    }
    CHECK(stage.state == states.state);  // the same states, to the bit
    CHECK(stage.port == stage.state);
    int stale = 0;
    for (size_t k = 1; k < states.state.size(); ++k) stale += states.port[k] != states.state[k];
    // Not at every point: the initial one is initialize()'s, and rk4's stability watch
    // evaluates some step ends itself (explicit_driver.cpp, FixedStepStabilityWatch).
    CHECK(stale >= 5);
  }
}
