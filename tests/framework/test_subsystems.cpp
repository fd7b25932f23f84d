// Subsystems (netlist-defined supercomponents) and composite C++ components: both are
// flattened into the model, so they must give exactly what the flat netlist gives.
#include <cmath>
#include <fstream>
#include <set>

#include "jourdain_test.hpp"

using namespace jourdain;
using jourdain::test::load;
using jourdain::test::run;
using nlohmann::json;

namespace {

// A link of a pendulum: a uniform rod pinned at its end "hinge" to whatever the user
// connects; its far end is the external port "end". Its start pose comes from the
// parameters (angle from the x axis, pivot position).
const json link_definition = json::parse(R"json({
  "description": "uniform rod hinged at one end",
  "parameters": {
    "length": {"unit": "m", "default": 1},
    "mass": {"unit": "kg", "default": 1},
    "angle": {"unit": "rad", "default": 0, "description": "start angle from the x axis"},
    "x0": {"unit": "m", "default": 0}, "y0": {"unit": "m", "default": 0}
  },
  "components": {
    "rod": {"type": "mechanical.body",
            "params": {"mass": "$mass", "inertia": "$mass*$length^2/12",
                       "points": {"a": ["-$length/2", 0], "b": ["$length/2", 0]}},
            "initial": {"x": "$x0 + $length/2*cos($angle)", "y": "$y0 + $length/2*sin($angle)", "theta": "$angle"}},
    "hinge": {"type": "mechanical.revolute"}
  },
  "connections": [["rod.a", "hinge.b"]],
  "ports": {"hinge": "hinge.a", "end": "rod.b"}
})json");

// A connections array [["a.p", "b.q"], ...], spelled out: nested braces would make an
// object, and json::array of one array copies it instead of nesting it.
json connections(std::initializer_list<std::pair<const char*, const char*>> pairs) {
  json out = json::array();
  for (const auto& [a, b] : pairs) out.push_back(json::array({a, b}));
  return out;
}

json double_pendulum_with_subsystems() {
  return {{"subsystems", {{"link", link_definition}}},
          {"components",
           {{"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"o", {0, 0}}}}}}}},
            {"upper", {{"type", "link"}, {"params", {{"length", "800 mm"}, {"mass", 2}, {"angle", -0.3}}}}},
            {"lower",
             {{"type", "link"},
              {"params",
               {{"length", 0.5}, {"mass", 1}, {"angle", 0.4}, {"x0", 0.8 * std::cos(-0.3)}, {"y0", 0.8 * std::sin(-0.3)}}}}}}},
          {"connections", connections({{"ground.o", "upper.hinge"}, {"upper.end", "lower.hinge"}})},
          {"solver", {{"method", "dopri5"}, {"t_end", 2.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.05}}},
          {"record", {"upper/rod.theta", "lower/rod.theta", "lower/rod.x", "lower/hinge.fx"}}};
}

// The same pendulum written out by hand.
json double_pendulum_flat() {
  auto rod = [](double L, double m, double angle, double x0, double y0) {
    return json{{"type", "mechanical.body"},
                {"params", {{"mass", m}, {"inertia", m * L * L / 12}, {"points", {{"a", {-L / 2, 0}}, {"b", {L / 2, 0}}}}}},
                {"initial", {{"x", x0 + L / 2 * std::cos(angle)}, {"y", y0 + L / 2 * std::sin(angle)}, {"theta", angle}}}};
  };
  return {{"components",
           {{"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"o", {0, 0}}}}}}}},
            {"upper_rod", rod(0.8, 2, -0.3, 0, 0)},
            {"upper_hinge", {{"type", "mechanical.revolute"}}},
            {"lower_rod", rod(0.5, 1, 0.4, 0.8 * std::cos(-0.3), 0.8 * std::sin(-0.3))},
            {"lower_hinge", {{"type", "mechanical.revolute"}}}}},
          {"connections",
           connections({{"ground.o", "upper_hinge.a"}, {"upper_rod.a", "upper_hinge.b"},
                        {"upper_rod.b", "lower_hinge.a"}, {"lower_rod.a", "lower_hinge.b"}})},
          {"solver", {{"method", "dopri5"}, {"t_end", 2.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.05}}},
          {"record", {"upper_rod.theta", "lower_rod.theta", "lower_rod.x", "lower_hinge.fx"}}};
}

std::string error_of(const json& netlist) {
  try {
    load(netlist.dump());
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a subsystem used twice gives the result of the flattened netlist") {
  RunResult a = run(double_pendulum_with_subsystems().dump());
  RunResult b = run(double_pendulum_flat().dump());
  INFO(a.failure, b.failure);
  REQUIRE(a.finished);
  REQUIRE(b.finished);
  REQUIRE(a.rows.size() == b.rows.size());
  const std::pair<const char*, const char*> pairs[] = {{"upper/rod.theta", "upper_rod.theta"},
                                                       {"lower/rod.theta", "lower_rod.theta"},
                                                       {"lower/rod.x", "lower_rod.x"},
                                                       {"lower/hinge.fx", "lower_hinge.fx"}};
  double worst = 0;
  for (const auto& [sub, flat] : pairs) {
    const auto x = a.column(sub), y = b.column(flat);
    for (size_t k = 0; k < x.size(); ++k) worst = std::max(worst, std::abs(x[k] - y[k]) / std::max(1.0, std::abs(y[k])));
  }
  MESSAGE("largest difference subsystem vs flat: " << worst);
  // The same equations in the same order of bodies: identical to rounding.
  CHECK(worst <= 1e-12);
  // It moved: the comparison is not between two resting pendulums.
  CHECK(std::abs(a.column("lower/rod.theta").back() - 0.4) > 0.1);
}

TEST_CASE("subsystems: parameters pass down with units and arithmetic, definitions come from files, nest") {
  Netlist n = load(double_pendulum_with_subsystems().dump());
  const Model& m = n.model;
  REQUIRE(m.find_component("upper/rod") != nullptr);
  // "800 mm" reached the body's points as 0.4 m either side of its centre.
  const json points = m.find_component("upper/rod")->parameter_value("points");
  CHECK(points["b"][0].get<double>() == doctest::Approx(0.4));
  CHECK(m.find_component("upper/rod")->parameter_value("inertia").get<double>() == doctest::Approx(2 * 0.64 / 12));

  // The definition in a file of its own (relative to the netlist), and a subsystem made of
  // subsystems: the double pendulum itself, instantiated in a netlist.
  const auto dir = std::filesystem::temp_directory_path() / "jourdain_subsystems";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "link.json") << link_definition.dump(1);
  json pendulum2 = {{"subsystems", {{"link", "link.json"}}},
                    {"parameters", {{"tilt", {{"unit", "rad"}, {"default", 0}}}}},
                    {"components",
                     {{"first", {{"type", "link"}, {"params", {{"angle", "$tilt"}}}}},
                      {"second", {{"type", "link"}, {"params", {{"angle", "$tilt"}, {"x0", "cos($tilt)"}, {"y0", "sin($tilt)"}}}}}}},
                    {"connections", connections({{"first.end", "second.hinge"}})},
                    {"ports", {{"pivot", "first.hinge"}}}};
  std::ofstream(dir / "double_pendulum.json") << pendulum2.dump(1);
  json top = {{"subsystems", {{"double_pendulum", "double_pendulum.json"}}},
              {"components",
               {{"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"o", {0, 0}}}}}}}},
                {"left", {{"type", "double_pendulum"}, {"params", {{"tilt", "-30 deg"}}}}},
                {"right", {{"type", "double_pendulum"}}}}},
              {"connections", connections({{"ground.o", "left.pivot"}, {"ground.o", "right.pivot"}})},
              {"solver", {{"t_end", 0.1}}}};
  std::ofstream(dir / "top.json") << top.dump(1);
  Registry registry = jourdain::test::builtin_registry();
  Netlist t = load_netlist(dir / "top.json", registry);
  REQUIRE(t.model.find_component("left/second/rod") != nullptr);
  REQUIRE(t.model.find_component("right/first/hinge") != nullptr);
  // −30° reached the inner link's start angle, through two levels.
  const Component& second = *t.model.find_component("left/second/rod");
  CHECK(second.states()[second.find_state("theta").index].initial == doctest::Approx(-M_PI / 6));
  CHECK(second.states()[second.find_state("x").index].initial == doctest::Approx(std::cos(-M_PI / 6) * 1.5));
}

TEST_CASE("subsystem errors name the file, the JSON path and the component") {
  auto with = [](auto edit) {
    json n = double_pendulum_with_subsystems();
    edit(n);
    return error_of(n);
  };
  // A parameter the subsystem does not declare, at the instance's params.
  std::string e = with([](json& n) { n["components"]["upper"]["params"]["lenght"] = 1; });
  CHECK(e.find("/components/upper/params/lenght") != std::string::npos);
  CHECK(e.find("its parameters are: angle, length, mass, x0, y0") != std::string::npos);
  // An external port that does not exist.
  e = with([](json& n) { n["connections"][1][0] = "upper.tip"; });
  CHECK(e.find("/connections/1") != std::string::npos);
  CHECK(e.find("no external port 'tip'; its ports are: end, hinge") != std::string::npos);
  // A bad unit for a declared parameter.
  e = with([](json& n) { n["components"]["upper"]["params"]["length"] = "2 kg"; });
  CHECK(e.find("/components/upper/params/length") != std::string::npos);
  // A reference to a parameter that is not there, inside the definition: located in it,
  // naming the instance it was met in.
  e = with([](json& n) { n["subsystems"]["link"]["components"]["rod"]["params"]["mass"] = "$weight"; });
  CHECK(e.find("/subsystems/link/components/rod/params/mass") != std::string::npos);
  CHECK(e.find("no parameter 'weight'") != std::string::npos);
  CHECK(e.find("lower/rod") != std::string::npos);  // the first instance placed
  // Arithmetic that does not parse.
  e = with([](json& n) { n["subsystems"]["link"]["components"]["rod"]["params"]["inertia"] = "$mass*"; });
  CHECK(e.find("cannot evaluate '$mass*'") != std::string::npos);
  // Initial values belong to the parts, not to the instance.
  e = with([](json& n) { n["components"]["upper"]["initial"] = {{"x", 1}}; });
  CHECK(e.find("/components/upper/initial") != std::string::npos);
  // A subsystem that contains itself.
  e = with([](json& n) { n["subsystems"]["link"]["components"]["again"] = {{"type", "link"}}; });
  CHECK(e.find("nested more than 32 deep") != std::string::npos);
  // A component name with '/' is the loader's to make, not the user's.
  e = with([](json& n) { n["components"]["a/b"] = {{"type", "mechanical.revolute"}}; });
  CHECK(e.find("a component name is ASCII letters, digits") != std::string::npos);
}

TEST_CASE("a composite C++ component expands into its parts when the model is built") {
  json n = {{"components",
             {{"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"o", {0, 0}}}}}}}},
              {"beam",
               {{"type", "mechanical.flexible_beam"},
                {"params", {{"length", 2}, {"bending_stiffness", 100}, {"mass_per_length", 3}, {"segments", 4}}}}}}},
            {"connections", connections({{"ground.o", "beam.root"}})}};
  Netlist net = load(n.dump());
  const Model& m = net.model;
  // N bodies, N revolute joints (one at the clamp) and N springs, plus the ground.
  CHECK(m.components().size() == 1 + 4 + 4 + 4);
  REQUIRE(m.find_component("beam/segment4") != nullptr);
  const Component& last = *m.find_component("beam/segment4");
  CHECK(last.parameter_value("mass").get<double>() == doctest::Approx(1.5));
  CHECK(last.states()[last.find_state("x").index].initial == doctest::Approx(1.75));
  // 2EI/l at the clamp, EI/l between segments.
  CHECK(m.find_component("beam/root_spring")->parameter_value("stiffness").get<double>() == doctest::Approx(400));
  CHECK(m.find_component("beam/spring2")->parameter_value("stiffness").get<double>() == doctest::Approx(200));
  // Its own parameters are checked like any component's.
  n["components"]["beam"]["params"]["segments"] = 0;
  const std::string e = error_of(n);
  CHECK(e.find("/components/beam/params/segments") != std::string::npos);
}

TEST_CASE("--set reaches the parts of subsystems and composites, and the instances' own parameters") {
  const std::string text = double_pendulum_with_subsystems().dump();
  // A part of one instance: the other instance of the same definition keeps its value.
  Netlist part = load(text, NetlistOverrides{{"upper/rod.mass=\"3 kg\""}});
  CHECK(part.model.find_component("upper/rod")->parameter_value("mass").get<double>() == doctest::Approx(3.0));
  CHECK(part.model.find_component("lower/rod")->parameter_value("mass").get<double>() == doctest::Approx(1.0));
  // The inertia, derived from the instance's parameter in the definition, is not touched.
  CHECK(part.model.find_component("upper/rod")->parameter_value("inertia").get<double>() == doctest::Approx(2 * 0.64 / 12));
  // An instance's own parameter, with a unit: it flows down as the file's value would.
  Netlist own = load(text, NetlistOverrides{{"upper.length=1 m"}});
  CHECK(own.model.find_component("upper/rod")->parameter_value("inertia").get<double>() == doctest::Approx(2.0 / 12));
  // A composite's part ("beam/segment1"), after its expansion.
  json beam = {{"components",
                {{"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"o", {0, 0}}}}}}}},
                 {"beam",
                  {{"type", "mechanical.flexible_beam"},
                   {"params", {{"length", 2}, {"bending_stiffness", 100}, {"mass_per_length", 3}, {"segments", 4}}}}}}},
               {"connections", connections({{"ground.o", "beam.root"}})}};
  Netlist b = load(beam.dump(), NetlistOverrides{{"beam/segment1.mass=2.5", "beam/spring2.stiffness=250"}});
  CHECK(b.model.find_component("beam/segment1")->parameter_value("mass").get<double>() == doctest::Approx(2.5));
  CHECK(b.model.find_component("beam/segment2")->parameter_value("mass").get<double>() == doctest::Approx(1.5));
  CHECK(b.model.find_component("beam/spring2")->parameter_value("stiffness").get<double>() == doctest::Approx(250));

  // Mistakes name the option.
  auto refused = [&](const std::string& item) {
    try {
      load(text, NetlistOverrides{{item}});
    } catch (const InputError& e) {
      return e;
    }
    FAIL("--set " << item << " was accepted");
    return InputError({}, "");
  };
  InputError unit = refused("upper/rod.mass=3 kgg");
  CHECK(unit.where().json_path == "--set upper/rod.mass");
  CHECK(unit.where().component == "upper/rod");
  InputError param = refused("upper.lenght=1");
  CHECK(param.where().json_path == "--set upper.lenght");
  CHECK(param.message().find("the subsystem has no parameter 'lenght'") != std::string::npos);
  InputError dimension = refused("upper.length=2 kg");
  CHECK(dimension.where().json_path == "--set upper.length");
  InputError name = refused("upper/rood.mass=1");
  CHECK(name.where().json_path == "--set upper/rood.mass");
  CHECK(name.message().find("did you mean 'upper/rod'?") != std::string::npos);
}

TEST_CASE("the flat netlist stage: parts under their model names, values substituted, connections resolved") {
  Registry registry = jourdain::test::builtin_registry();
  const std::string text = double_pendulum_with_subsystems().dump();
  FlatNetlist flat = flatten_netlist_text(text, "pendulum.json", registry);
  std::vector<std::string> names;
  for (const auto& c : flat.components()) names.push_back(c->name());
  // In the order placed (the file's objects are read with their keys sorted).
  CHECK(names == std::vector<std::string>{"ground", "lower/hinge", "lower/rod", "upper/hinge", "upper/rod"});
  // "$mass*$length^2/12" of instance "upper" (800 mm, 2 kg), evaluated and in SI.
  const Component& upper_rod = *flat.components()[4];
  CHECK(upper_rod.parameter_value("inertia").get<double>() == doctest::Approx(2 * 0.8 * 0.8 / 12));
  // Each part located where it is written: the subsystem's parts in the definition.
  CHECK(flat.locations()[4].json_path == "/subsystems/link/components/rod");
  // The inner connection of each instance and the two of the top level, through the
  // external ports to the parts they stand for; each oriented from its state side.
  std::set<std::set<std::string>> joined;
  for (const auto& c : flat.connections()) {
    const auto side = [&](const FlatNetlist::Endpoint& e) {
      return flat.components()[e.component]->ports()[e.port.index].side;
    };
    CHECK(side(c.state_side) == PortSide::State);
    CHECK(side(c.response_side) == PortSide::Response);
    joined.insert({flat.name_of(c.state_side), flat.name_of(c.response_side)});
  }
  CHECK(flat.connections().size() == 4);
  CHECK(joined == std::set<std::set<std::string>>{{"ground.o", "upper/hinge.a"},
                                                  {"upper/rod.a", "upper/hinge.b"},
                                                  {"upper/rod.b", "lower/hinge.a"},
                                                  {"lower/rod.a", "lower/hinge.b"}});
  // The third stage builds from it the model a load builds: the same variables, the same
  // parameter defaults, the same start, the same schedule.
  const Model built = ModelBuilder(std::move(flat)).build();
  const Netlist loaded = load(text);
  CHECK(built.state_names() == loaded.model.state_names());
  std::vector<std::string> built_names, loaded_names;
  for (const auto& v : built.recordable()) built_names.push_back(v.name);
  for (const auto& v : loaded.model.recordable()) loaded_names.push_back(v.name);
  CHECK(built_names == loaded_names);
  const Context built_start = built.make_context(0.0), loaded_start = loaded.model.make_context(0.0);
  CHECK(built_start.parameters == loaded_start.parameters);
  CHECK(built_start.x == loaded_start.x);
  REQUIRE(built.schedule().steps.size() == loaded.model.schedule().steps.size());
  for (size_t k = 0; k < built.schedule().steps.size(); ++k)
    CHECK(built.schedule().steps[k].components == loaded.model.schedule().steps[k].components);
  // A name the second stage cannot resolve is its fault, located where it is written.
  json bad = double_pendulum_with_subsystems();
  bad["connections"].push_back(json::array({"lower.end", "ground.p"}));
  try {
    flatten_netlist_text(bad.dump(), "pendulum.json", registry);
    FAIL("an unknown port was accepted");
  } catch (const InputError& e) {
    CHECK(e.where().json_path == "/connections/2");
    CHECK(e.where().port == "p");
    CHECK(e.message().find("no such port on type 'mechanical.ground'") != std::string::npos);
  }
}
