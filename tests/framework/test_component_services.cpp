// What the framework offers components beyond ports and equations (component.hpp,
// context.hpp, registry.hpp): parameters that decide which others exist, parameters that
// name files (relative to the file that writes them, listed in Netlist::files), workspaces
// a Context carries for a component (copied with it, or not), and kinds of files that
// stand for a component.
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "jourdain/components/builtin.hpp"
#include "jourdain/descriptor.hpp"
#include "jourdain/schema.hpp"
#include "jourdain_test.hpp"
#include "test_components.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

// A reader of a "file" that decides its parameters: each line of the file names one real
// parameter, whose sum is the output. The file is read once, when its parameters are
// declared: the component's other parameters are what the file says.
class TestFileSum final : public Component {
 public:
  TestFileSum() {
    declare_path("file", std::nullopt, "one parameter name per line");
    set_decides_parameters("file");
    declare_real("offset", "", 0.0, "added to the sum");  // an ordinary parameter beside them
  }
  void declare_dependent_parameters() override {
    std::ifstream in(text("file"));
    if (!in) parameter_error("file", text("file") + ": cannot be read");
    for (std::string name; std::getline(in, name);)
      if (!name.empty()) terms_.push_back(declare_real(name, "m", 1.0, "a term"));
  }
  void configure() override {
    out_ = declare_port("out", signal_domain(), PortSide::State, "the sum");
    set_dependencies(out_, {});
  }
  void calc_outputs(Eval& e) const override {
    double sum = 0.0;
    for (RealParam p : terms_) sum += e.param(p);
    e.set_out(out_, signal::value, sum);
  }

 private:
  std::vector<RealParam> terms_;
  PortId out_;
};

// A workspace that counts how often its component handled an event in one Context, and
// says whether it can be copied.
struct Counter final : ComponentWorkspace {
  explicit Counter(bool copyable) : copyable(copyable) {}
  std::unique_ptr<ComponentWorkspace> clone() const override {
    if (!copyable) return nullptr;
    auto c = std::make_unique<Counter>(true);
    c->count = count;
    return c;
  }
  bool copyable;
  int count = 0;
};

class TestCounting final : public Component {
 public:
  TestCounting() { declare_boolean("copyable", true, "whether the workspace can be copied"); }
  void configure() override { copyable_ = boolean("copyable"); }
  void initialize(Eval& e) const override { e.workspace<Counter>([&] { return new Counter(copyable_); }); }
  int count(Eval& e) const {
    Counter* c = e.find_workspace<Counter>();
    return c ? c->count : -1;
  }
  void bump(Eval& e) const { ++e.find_workspace<Counter>()->count; }

 private:
  bool copyable_ = true;
};

// Over-aligned: its storage must keep the alignment wherever it is created.
class alignas(64) TestWide final : public Component {
 public:
  TestWide() { lanes_.fill(1.0); }
  double sum() const {
    double s = 0.0;
    for (double v : lanes_) s += v;
    return s;
  }

 private:
  std::array<double, 8> lanes_;
};

class TestThrowing final : public Component {
 public:
  TestThrowing() { throw std::runtime_error("cannot be made"); }
};

Registry registry_with_tests() {
  Registry r;
  register_builtin_components(r);
  r.add<TestFileSum>("test.file_sum", "sum of the parameters a file names");
  r.add<TestCounting>("test.counting", "counts in its workspace");
  return r;
}

}  // namespace

TEST_CASE("a parameter that decides others: set first, whatever the order written") {
  TempDir tmp;
  write_text(tmp.path() / "terms.txt", "a\nb\n");
  // "a" and "offset" come before "file" in the object's order; the loader sets "file" first.
  write_text(tmp.path() / "net.json", R"({"components": {
      "sum": {"type": "test.file_sum", "params": {"a": "20 mm", "offset": 1, "file": "terms.txt"}}},
      "connections": [], "record": ["sum.out"]})");
  Registry r = registry_with_tests();
  Netlist n = load_netlist(tmp.path() / "net.json", r);
  CHECK(n.model.parameter("sum.a").unit == "m");
  CHECK(n.model.parameter("sum.a").default_value == doctest::Approx(0.02));
  CHECK(n.model.parameter("sum.b").default_value == 1.0);
  // The path, relative to the netlist, is the netlist's folder's file; the netlist lists it.
  const Component* c = n.model.find_component("sum");
  CHECK(c->parameter_value("file") == (tmp.path() / "terms.txt").lexically_normal().string());
  REQUIRE(n.files.size() == 1);
  CHECK(n.files[0] == (tmp.path() / "terms.txt").lexically_normal());
  SUBCASE("an unknown name is still refused, naming the parameters the file gave") {
    write_text(tmp.path() / "net.json", R"({"components": {
        "sum": {"type": "test.file_sum", "params": {"file": "terms.txt", "c": 1}}}, "connections": []})");
    CHECK_THROWS_WITH_AS(load_netlist(tmp.path() / "net.json", r),
                         doctest::Contains("its parameters are: file, offset, a, b"),
                         InputError);
  }
  SUBCASE("what goes wrong while declaring them is located at the deciding parameter") {
    write_text(tmp.path() / "net.json", R"({"components": {
        "sum": {"type": "test.file_sum", "params": {"a": 1, "file": "absent.txt"}}}, "connections": []})");
    CHECK_THROWS_WITH_AS(load_netlist(tmp.path() / "net.json", r),
                         doctest::Contains("/components/sum/params/file: component 'sum': parameter 'file'"), InputError);
  }
  SUBCASE("a deciding parameter that is missing") {
    write_text(tmp.path() / "net.json", R"({"components": {"sum": {"type": "test.file_sum", "params": {"a": 1}}},
        "connections": []})");
    CHECK_THROWS_WITH_AS(load_netlist(tmp.path() / "net.json", r),
                         doctest::Contains("parameter 'file': missing (required; text, one parameter name per line): "
                                           "the component's other parameters depend on it"),
                         InputError);
  }
  SUBCASE("the netlist schema leaves the type's other parameters to the loader") {
    const nlohmann::json schema = netlist_schema(r, nlohmann::json::object(), nlohmann::json::object());
    const std::string text = schema.dump();
    CHECK(text.find(R"({"additionalProperties":true,"description":"parameters of test.file_sum)") != std::string::npos);
    CHECK(text.find(R"({"additionalProperties":false,"description":"parameters of test.counting)") != std::string::npos);
  }
}

TEST_CASE("paths: relative to the file that writes them; a --set one to the working folder") {
  TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "parts");
  write_text(tmp.path() / "parts" / "terms.txt", "x\n");
  write_text(tmp.path() / "parts" / "summer.json", R"({"components": {
      "sum": {"type": "test.file_sum", "params": {"file": "terms.txt"}}}, "connections": [], "ports": {"out": "sum.out"}})");
  write_text(tmp.path() / "net.json", R"({"subsystems": {"summer": "parts/summer.json"},
      "components": {"s": {"type": "summer"}}, "connections": []})");
  Registry r = registry_with_tests();
  Netlist n = load_netlist(tmp.path() / "net.json", r);
  CHECK(n.model.find_component("s/sum")->parameter_value("file") ==
        (tmp.path() / "parts" / "terms.txt").lexically_normal().string());
  // The subsystem's file, then the file its component reads.
  REQUIRE(n.files.size() == 2);
  CHECK(n.files[0] == (tmp.path() / "parts" / "summer.json").lexically_normal());
  CHECK(n.files[1] == (tmp.path() / "parts" / "terms.txt").lexically_normal());

  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(tmp.path() / "parts");
  Netlist set = load_netlist(tmp.path() / "net.json", r, NetlistOverrides{{"s/sum.file=terms.txt"}});
  std::filesystem::current_path(cwd);
  CHECK(set.model.find_component("s/sum")->parameter_value("file") ==
        (tmp.path() / "parts" / "terms.txt").lexically_normal().string());
}

TEST_CASE("a component's workspace lives in the Context; a copy carries a clone or nothing") {
  Registry r = registry_with_tests();
  for (const bool copyable : {true, false}) {
    CAPTURE(copyable);
    Netlist n = load_netlist_text(R"({"components": {"c": {"type": "test.counting", "params": {"copyable": )" +
                                      std::string(copyable ? "true" : "false") + R"(}}}, "connections": []})",
                                  "net.json", r);
    const Model& m = n.model;
    const auto& c = dynamic_cast<const TestCounting&>(*m.find_component("c"));
    Context ctx = m.make_context(0.0);
    {
      Eval e = m.view(0, ctx, Eval::Phase::Event);
      CHECK(c.count(e) == -1);  // none before initialize() makes it
    }
    m.initialize(ctx);
    Eval e = m.view(0, ctx, Eval::Phase::Event);
    c.bump(e);
    c.bump(e);
    Context copy = ctx;
    Eval ec = m.view(0, copy, Eval::Phase::Event);
    CHECK(c.count(e) == 2);
    CHECK(c.count(ec) == (copyable ? 2 : -1));
    CHECK(copy.component_workspaces.uncopied() == (copyable ? 0u : 1u));
    if (copyable) {
      c.bump(ec);  // the copy shares nothing with the original
      CHECK(c.count(e) == 2);
      CHECK(c.count(ec) == 3);
    }
    m.initialize(ctx);  // a second start keeps the workspace it finds
    CHECK(c.count(e) == 2);
    e.drop_workspace();
    CHECK(c.count(e) == -1);
  }
}

TEST_CASE("a kind of file stands for a component: registered once, found by its extension") {
  Registry r;
  r.add<TestFileSum>("test.file_sum", "sum of the parameters a file names");
  r.add_file_type(".SUM", "test.file_sum", "file");
  const FileType* kind = r.file_type("/a/b/terms.Sum");
  REQUIRE(kind);
  CHECK(kind->type == "test.file_sum");
  CHECK(kind->parameter == "file");
  CHECK(r.file_type("terms.txt") == nullptr);
  CHECK_THROWS_AS(r.add_file_type(".sum", "test.other", "file"), std::invalid_argument);
  CHECK_THROWS_AS(r.add_file_type("sum", "test.other", "file"), std::invalid_argument);

  TempDir tmp;
  write_text(tmp.path() / "terms.sum", "p\nq\n");
  const auto d = describe_type(*r.find("test.file_sum"), &r, {{"file", (tmp.path() / "terms.sum").string()}});
  std::vector<std::string> names;
  for (const auto& p : d["parameters"]) names.push_back(p["name"]);
  CHECK(names == std::vector<std::string>{"file", "offset", "p", "q"});
  CHECK_THROWS_AS(describe_type(*r.find("test.file_sum"), &r, {{"file", (tmp.path() / "absent").string()}}), InputError);
}

TEST_CASE("components live in their Registry's memory, as long as any of them does") {
  std::unique_ptr<Component> mass, gain;
  {
    Registry r;
    register_builtin_components(r);
    mass = r.find("mechanical1d.mass")->create();
    gain = r.find("signal.gain")->create();
    // A type added with add<C> evaluates in runs (TypeEvaluation).
    CHECK(mass->type_evaluation() != nullptr);
    CHECK(mass->type_evaluation() != gain->type_evaluation());
    r.add<TestWide>("test.wide", "over-aligned");
    r.add<TestThrowing>("test.throwing", "a constructor that throws");
    auto wide = r.find("test.wide")->create();
    CHECK(reinterpret_cast<std::uintptr_t>(wide.get()) % 64 == 0);
    CHECK(static_cast<TestWide&>(*wide).sum() == 8.0);
    CHECK_THROWS_AS(r.find("test.throwing")->create(), std::runtime_error);
    CHECK(r.find("test.wide")->create() != nullptr);  // the memory still serves
  }
  // The Registry is gone; its components are whole (the sanitizer build checks the rest).
  mass->set_identity("m", "mechanical1d.mass");
  mass->finish_configuration();
  CHECK(mass->states().size() == 2);
  mass.reset();
  gain.reset();
  // A component made with new takes the heap, with the same delete.
  auto plain = std::make_unique<TestWide>();
  CHECK(reinterpret_cast<std::uintptr_t>(plain.get()) % 64 == 0);
  std::unique_ptr<Component> as_base = std::move(plain);
  as_base.reset();
}

TEST_CASE("an integrator's stage leaves the observables out; a whole evaluation computes them") {
  Registry r = registry_with_tests();
  Netlist n = load_netlist_text(R"({
    "components": {
      "wall": {"type": "mechanical1d.fixed"},
      "s": {"type": "mechanical1d.spring", "params": {"stiffness": 200, "free_length": 0.1}},
      "m": {"type": "mechanical1d.mass", "params": {"mass": 2}, "initial": {"x": 0.25}}
    },
    "connections": [["wall.p", "s.a"], ["s.b", "m.p"]]
  })", "spring.json", r);
  const Model& model = n.model;
  Context ctx = model.make_context(0.0);
  model.initialize(ctx);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ctx.observables.setConstant(nan);
  model.derivatives(ctx, 0.0, ctx.x);
  CHECK(ctx.observables_wanted);  // off during the stage only
  CHECK(ctx.xdot[1] == doctest::Approx(-200.0 * 0.15 / 2.0).epsilon(1e-15));  // the stage's result is whole
  CHECK(std::isnan(model.value(ctx, model.recordable("s.force"))));          // its observables untouched
  model.evaluate(ctx);
  CHECK(model.value(ctx, model.recordable("s.force")) == doctest::Approx(200.0 * 0.15).epsilon(1e-15));
  CHECK(model.value(ctx, model.recordable("m.a")) == doctest::Approx(-15.0).epsilon(1e-15));
  CHECK(model.value(ctx, model.recordable("wall.reaction")) == doctest::Approx(30.0).epsilon(1e-15));  // the tension pulls the wall toward the mass
}

TEST_CASE("an output that is a state is the state, wherever it changed; a mistaken declaration names itself") {
  // A ball on an end stop publishes x and v as state outputs (mechanical1d.mass): a
  // damper to the ground reads v, at every recorded point, those just after an impact
  // reversed v included, and an integrator's output (signal.integrator) is its state.
  Registry r = registry_with_tests();
  Netlist n = load_netlist_text(R"({
    "world": {"gravity": [0, -9.81]},
    "components": {
      "ground": {"type": "mechanical1d.fixed"},
      "d": {"type": "mechanical1d.damper", "params": {"damping": 0.5}},
      "ball": {"type": "mechanical1d.mass", "params": {"inclination": "90 deg", "x_min": 0, "restitution": 0.8},
               "initial": {"x": 1}},
      "u": {"type": "signal.constant", "params": {"value": 2}},
      "integral": {"type": "signal.integrator", "initial": {"y": 1}},
      "triple": {"type": "signal.gain", "params": {"k": 3}}
    },
    "connections": [["ground.p", "d.a"], ["d.b", "ball.p"], ["u.out", "integral.in"], ["integral.out", "triple.in"]],
    "record": ["ball.v", "d.force", "integral.y", "triple.out"],
    "solver": {"method": "dopri5", "t_end": 1.5, "output_interval": 0.05, "rtol": 1e-9, "atol": 1e-12}
  })", "ball.json", r);
  RunOptions o;
  o.keep_rows = true;
  RunResult res = run_netlist(n, o);
  REQUIRE(res.finished);
  REQUIRE(!res.events.empty());  // it bounced
  const auto v = res.column("ball.v"), f = res.column("d.force"), y = res.column("integral.y"),
             out = res.column("triple.out"), t = res.column("time");
  int reversed = 0;
  for (size_t k = 0; k < v.size(); ++k) {
    CHECK(f[k] == 0.5 * v[k]);  // c (v_b - v_a), the ground still
    CHECK(out[k] == 3.0 * y[k]);
    CHECK(y[k] == doctest::Approx(1.0 + 2.0 * t[k]).epsilon(1e-12));  // dy/dt = u = 2
    if (k > 0 && t[k] == t[k - 1] && v[k] * v[k - 1] < 0.0) ++reversed;  // the rows around an impact
  }
  CHECK(reversed >= 1);
  // Recording states alone, the points (the rows around each impact included) are not
  // evaluated: the same motion, to the bit.
  n.record = {"ball.x", "ball.v", "integral.y"};
  RunResult states_only = run_netlist(n, o);
  REQUIRE(states_only.finished);
  CHECK(states_only.column("ball.v") == v);
  CHECK(states_only.column("integral.y") == y);
  CHECK(states_only.column("time") == t);

  // Declarations that cannot be: each names the type and the mistake, when configured.
  enum class Mistake { NoPort, InputNotOutput, NoState, Twice };
  class Mistaken final : public Component {
   public:
    explicit Mistaken(Mistake m) : mistake_(m) {}
    void configure() override {
      const PortId p = declare_port("p", mech1d_domain(), PortSide::State, "");
      const StateId x = declare_state("x", "m", 0.0, "");
      switch (mistake_) {
        case Mistake::NoPort: declare_state_output(PortId{3}, mech1d::position, x); break;
        case Mistake::InputNotOutput: declare_state_output(p, mech1d::force, x); break;
        case Mistake::NoState: declare_state_output(p, mech1d::position, StateId{1}); break;
        case Mistake::Twice:
          declare_state_output(p, mech1d::position, x);
          declare_state_output(p, mech1d::position, x);
          break;
      }
    }

   private:
    Mistake mistake_;
  };
  const std::pair<Mistake, const char*> cases[] = {
      {Mistake::NoPort, "type 'test.mistaken', declare_state_output: undeclared port"},
      {Mistake::InputNotOutput, "type 'test.mistaken', declare_state_output: port 'p' has no such output"},
      {Mistake::NoState, "type 'test.mistaken', declare_state_output: undeclared state"},
      {Mistake::Twice, "type 'test.mistaken', declare_state_output: an output of port 'p' declared twice"}};
  for (const auto& [mistake, message] : cases) {
    Mistaken c(mistake);
    c.set_identity("c", "test.mistaken");
    CHECK_THROWS_WITH_AS(c.finish_configuration(), message, std::logic_error);
  }
}
