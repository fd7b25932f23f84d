// The derived stage (Component::calc_derived) and the one reading of a parameter's value
// (parse_parameter): derived values are computed for the netlist's values when the model
// is built, again for a Context whose parameters were set before it is next evaluated,
// and never at an evaluation that changed nothing; they belong to the Context. A world
// setting is read once per World (World::parsed).
#include <cmath>
#include <memory>
#include <stdexcept>

#include "jourdain/components/domains.hpp"
#include "jourdain/errors.hpp"
#include "jourdain/model.hpp"
#include "jourdain_test.hpp"
#include "parameter_runs.hpp"

using namespace jourdain;
using jourdain::test::input_error;

namespace {

// A square of side s: its area s² is derived, and published on `area`. The side must
// stay below `limit` (a relation its range cannot say). Counts its derived stages in
// `*runs`, which the test owns.
class TestSquare final : public Component {
 public:
  explicit TestSquare(int* runs) : runs_(runs) {
    side_ = declare_real("side", "m", std::nullopt, "side s", Range::positive());
    limit_ = declare_real("limit", "m", 10.0, "the side stays below it", Range::positive());
  }
  void configure() override {
    out_ = declare_port("area", signal_domain(), PortSide::State, "s²");
    set_dependencies(out_, {});
    area_ = declare_derived("area", "m^2", "s²");
  }
  void calc_derived(Eval& e) const override {
    ++*runs_;
    const double s = e.param(side_);
    if (!(s < e.param(limit_))) parameter_error("side", "must be below the limit");
    e.set_derived(area_, s * s);
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.derived(area_)); }

 private:
  int* runs_;
  RealParam side_, limit_;
  PortId out_;
  DerivedId area_;
};

Model square_model(int* runs, const nlohmann::json& side) {
  auto square = std::make_unique<TestSquare>(runs);
  square->set_identity("sq", "test.square");
  square->set_parameter("side", side);
  ModelBuilder builder;
  builder.add(std::move(square), InputLocation{"square.json", "/components/sq", "sq", ""});
  return std::move(builder).build();
}

double published_area(const Model& m, Context& ctx) {
  m.evaluate(ctx);
  return m.value(ctx, m.recordable("sq.area"));
}

}  // namespace

TEST_CASE("derived values: computed at build and when a Context's parameters change, never per evaluation") {
  int runs = 0;
  const Model m = square_model(&runs, "300 mm");
  CHECK(runs == 1);  // the netlist's values, at build
  Context a = m.make_context(0.0);
  CHECK(m.derived_value(a, "sq.area") == 0.3 * 0.3);
  for (int k = 0; k < 10; ++k) CHECK(published_area(m, a) == 0.3 * 0.3);
  CHECK(runs == 1);  // a new Context copies them; evaluations read them

  Context b = m.make_context(0.0);
  m.set_parameter(a, "sq.side", "2 m");
  CHECK(a.derived_outdated);
  CHECK(published_area(m, a) == 4.0);  // computed again before the evaluation
  CHECK(runs == 2);
  CHECK_FALSE(a.derived_outdated);
  CHECK(m.derived_value(a, "sq.area") == 4.0);
  published_area(m, a);
  CHECK(runs == 2);

  // They belong to the Context: another keeps its own; a copy takes them along.
  CHECK(m.derived_value(b, "sq.area") == 0.3 * 0.3);
  Context copy = a;
  CHECK(m.derived_value(copy, "sq.area") == 4.0);
  CHECK(runs == 2);

  // Read by name, with the close names of a mistake.
  CHECK(input_error([&] { m.derived_value(a, "sq.aera"); }).find("did you mean 'sq.area'") != std::string::npos);
}

TEST_CASE("a relation the derived stage refuses: at build, located at the params; for a run, when it is evaluated") {
  int runs = 0;
  const std::string at_build = input_error([&] { square_model(&runs, "12 m"); });
  CHECK(at_build.find("/components/sq/params") != std::string::npos);
  CHECK(at_build.find("parameter 'side': must be below the limit") != std::string::npos);

  const Model m = square_model(&runs, 3.0);
  Context ctx = m.make_context(0.0);
  m.set_parameter(ctx, "sq.side", 20.0);  // each value alone is in range: accepted
  CHECK(input_error([&] { m.evaluate(ctx); }).find("parameter 'side': must be below the limit") != std::string::npos);
  m.set_parameter(ctx, "sq.limit", 30.0);
  CHECK(published_area(m, ctx) == 400.0);
}

TEST_CASE("a derived value is set by calc_derived only") {
  int runs = 0;
  const Model m = square_model(&runs, 1.0);
  Context ctx = m.make_context(0.0);
  Eval outputs = m.view(0, ctx, Eval::Phase::Outputs);
  CHECK_THROWS_AS(outputs.set_derived(DerivedId{0}, 2.0), std::logic_error);
  CHECK(m.derived_value(ctx, "sq.area") == 1.0);
}

TEST_CASE("a parameter's value is read once, by one function, for the netlist and for a run alike") {
  int runs = 0;
  const Model m = square_model(&runs, "300 mm");
  const Component& square = *m.find_component("sq");
  CHECK(std::get<double>(square.typed_value("side")) == 0.3);
  CHECK(square.parameter_value("side") == 0.3);

  // The same value refused the same way at load and in a run.
  const std::string at_load = input_error([&] { square_model(&runs, "-1 m"); });
  Context ctx = m.make_context(0.0);
  const std::string in_run = input_error([&] { m.set_parameter(ctx, "sq.side", "-1 m"); });
  const std::string what = "parameter 'side': value -1 m is out of its range (0, inf) m";
  CHECK(at_load.find(what) != std::string::npos);
  CHECK(in_run.find(what) != std::string::npos);
  CHECK(input_error([&] { m.set_parameter(ctx, "sq.side", "2 s"); }).find("parameter 'side'") != std::string::npos);
  CHECK_FALSE(ctx.derived_outdated);  // nothing was set
}

TEST_CASE("a world setting is parsed once per World; a copy parses its own") {
  World world;
  world.settings["answer"] = 42;
  int parses = 0;
  auto read = [&](const World& w) {
    ++parses;
    return w.settings.at("answer").get<int>();
  };
  const auto first = world.parsed<int>("answer", read);
  const auto second = world.parsed<int>("answer", read);
  CHECK(*first == 42);
  CHECK(first.get() == second.get());
  CHECK(parses == 1);

  World changed = world;
  changed.settings["answer"] = 7;
  CHECK(*changed.parsed<int>("answer", read) == 7);
  CHECK(parses == 2);
  CHECK(*world.parsed<int>("answer", read) == 42);

  // A parse that throws keeps nothing: the next asks again.
  World bad;
  bad.settings["answer"] = "many";
  CHECK_THROWS(bad.parsed<int>("answer", read));
  bad.settings["answer"] = 1;
  CHECK(*bad.parsed<int>("answer", read) == 1);
}
