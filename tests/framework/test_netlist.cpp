// Netlist validation: every error names the JSON path, the component and the port.
#include <sys/stat.h>

#include <fstream>

#include "jourdain_test.hpp"
#include "test_components.hpp"

using namespace jourdain;

namespace {

Netlist load(const std::string& text, const NetlistOverrides& o = {}) {
  Registry r = jourdain::test::builtin_registry();
  jourdain::test::register_test_components(r);
  return load_netlist_text(text, "net.json", r, o);
}

// The InputError that loading `text` throws.
InputError error_of(const std::string& text, const NetlistOverrides& o = {}) {
  try {
    load(text, o);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError for: " << text);
  return InputError({}, "");
}

const char* kMass = R"({"type": "mechanical1d.mass"})";

}  // namespace

TEST_CASE("a valid netlist loads, with units, comments and initial values") {
  Netlist n = load(R"({
    // comments are allowed
    "name": "ok",
    "components": {
      "m": {"type": "mechanical1d.mass", "params": {"mass": "2500 g"}, "initial": {"x": "20 cm", "v": "-1 m/s"}}
    }
  })");
  CHECK(n.name == "ok");
  Context ctx = n.model.make_context(0.0);
  CHECK(ctx.x[0] == doctest::Approx(0.2));
  CHECK(ctx.x[1] == doctest::Approx(-1.0));
  CHECK(n.model.find_component("m")->parameter_value("mass").get<double>() == doctest::Approx(2.5));
}

TEST_CASE("malformed JSON gives the line and column") {
  InputError e = error_of("{\n  \"components\": {\n    \"m\": {\"type\": \"x\",}\n  }\n}");
  CHECK(e.where().file == "net.json");
  CHECK(std::string(e.what()).find("line 3") != std::string::npos);
}

TEST_CASE("unknown keys are errors at their path") {
  InputError top = error_of(R"({"components": {"m": {"type": "mechanical1d.mass"}}, "solvr": {}})");
  CHECK(top.where().json_path == "/solvr");
  CHECK(top.message().find("unknown key 'solvr'") != std::string::npos);
  InputError comp = error_of(R"({"components": {"m": {"type": "mechanical1d.mass", "param": {}}}})");
  CHECK(comp.where().json_path == "/components/m/param");
  InputError world = error_of(R"({"world": {"gravity": [0, -9.81], "wind": 3}, "components": {"m": {"type": "mechanical1d.mass"}}})");
  CHECK(world.where().json_path == "/world/wind");
}

TEST_CASE("unknown component type suggests the right one") {
  InputError e = error_of(R"({"components": {"m": {"type": "mass"}}})");
  CHECK(e.where().json_path == "/components/m/type");
  CHECK(e.where().component == "m");
  CHECK(e.message().find("mechanical1d.mass") != std::string::npos);
}

TEST_CASE("parameter errors name the parameter's path") {
  SUBCASE("unknown parameter") {
    InputError e = error_of(R"({"components": {"m": {"type": "mechanical1d.mass", "params": {"weight": 3}}}})");
    CHECK(e.where().json_path == "/components/m/params/weight");
    CHECK(e.message().find("its parameters are") != std::string::npos);
  }
  SUBCASE("wrong unit") {
    InputError e = error_of(R"({"components": {"m": {"type": "mechanical1d.mass", "params": {"mass": "3 bar"}}}})");
    CHECK(e.where().json_path == "/components/m/params/mass");
    CHECK(e.message().find("does not fit") != std::string::npos);
  }
  SUBCASE("unknown unit") {
    InputError e = error_of(R"({"components": {"m": {"type": "mechanical1d.mass", "params": {"mass": "3 stone"}}}})");
    CHECK(e.message().find("unknown unit 'stone'") != std::string::npos);
  }
  SUBCASE("out of range") {
    InputError e = error_of(R"({"components": {"m": {"type": "mechanical1d.mass", "params": {"mass": -1}}}})");
    CHECK(e.where().json_path == "/components/m/params/mass");
    CHECK(e.where().component == "m");
    CHECK(e.message().find("out of its range") != std::string::npos);
  }
  SUBCASE("missing required parameter") {
    InputError e = error_of(R"({"components": {"t": {"type": "test.needs_table"}}})");
    CHECK(e.where().json_path == "/components/t/params");
    CHECK(e.message().find("'curve'") != std::string::npos);
    CHECK(e.message().find("missing") != std::string::npos);
  }
  SUBCASE("not finite (issue 18, D8)") {
    // Refused at load, at their place, rather than failing at t = 0.
    for (const std::string value : {R"("inf kg")", R"("1e400 kg")", R"("-inf")"}) {
      CAPTURE(value);
      InputError e = error_of(std::string(R"({"components": {"m": {"type": "mechanical1d.mass", "params": {"mass": )") +
                              value + "}}}}");
      CHECK(e.where().json_path == "/components/m/params/mass");
      CHECK(e.message().find("is not a finite number") != std::string::npos);
    }
    InputError set = error_of(R"({"components": {"m": {"type": "mechanical1d.mass"}}})", NetlistOverrides{{"m.mass=inf"}});
    CHECK(set.where().json_path == "--set m.mass");
    CHECK(set.message().find("is not a finite number") != std::string::npos);
    // A parameter that uses infinity for "none" (an end stop) still takes it.
    Netlist stops = load(R"({"components": {"m": {"type": "mechanical1d.mass", "params": {"x_min": "-inf", "x_max": "1e400 m"}}}})");
    CHECK(std::isinf(stops.model.find_component("m")->parameter_value("x_max").get<double>()));
  }
  SUBCASE("wrong kind") {
    InputError e = error_of(R"({"components": {"m": {"type": "mechanical1d.mass", "params": {"mass": [1]}}}})");
    CHECK(e.where().json_path == "/components/m/params/mass");
  }
}

TEST_CASE("connection errors name the component and port") {
  SUBCASE("unknown port") {
    InputError e = error_of(R"({"components": {"m": {"type": "mechanical1d.mass"}, "s": {"type": "mechanical1d.spring"}},
                                "connections": [["m.q", "s.a"]]})");
    CHECK(e.where().json_path == "/connections/0");
    CHECK(e.where().component == "m");
    CHECK(e.where().port == "q");
    CHECK(e.message().find("did you mean 'p'") != std::string::npos);
    CHECK(e.message().find("its ports are: p") != std::string::npos);
  }
  SUBCASE("unknown component") {
    InputError e = error_of(R"({"components": {"mass": {"type": "mechanical1d.mass"}, "s": {"type": "mechanical1d.spring"}},
                                "connections": [["mas.p", "s.a"]]})");
    CHECK(e.where().component == "mas");
    CHECK(e.message().find("did you mean 'mass'") != std::string::npos);
  }
  SUBCASE("two outputs drive one input") {
    InputError e = error_of(R"({"components": {"a": {"type": "signal.constant"}, "b": {"type": "signal.constant"},
                                               "g": {"type": "signal.gain"}},
                                "connections": [["a.out", "g.in"], ["b.out", "g.in"]]})");
    CHECK(e.where().component == "g");
    CHECK(e.where().port == "in");
    CHECK(e.message().find("driven by 2") != std::string::npos);
    CHECK(e.message().find("/connections/1") != std::string::npos);
  }
  SUBCASE("input left unconnected") {
    InputError e = error_of(R"({"components": {"g": {"type": "signal.gain"}}})");
    CHECK(e.where().component == "g");
    CHECK(e.where().port == "in");
    CHECK(e.message().find("not connected") != std::string::npos);
  }
  SUBCASE("incompatible port types") {
    InputError e = error_of(R"({"components": {"c": {"type": "signal.constant"}, "s": {"type": "mechanical1d.spring"}},
                                "connections": [["c.out", "s.a"]]})");
    CHECK(e.where().json_path == "/connections/0");
    CHECK(e.message().find("signal") != std::string::npos);
    CHECK(e.message().find("mechanical1d") != std::string::npos);
  }
  SUBCASE("two state sides") {
    InputError e = error_of(R"({"components": {"a": {"type": "mechanical1d.mass"}, "b": {"type": "mechanical1d.mass"}},
                                "connections": [["a.p", "b.p"]]})");
    CHECK(e.message().find("state-side") != std::string::npos);
  }
  SUBCASE("two outputs") {
    InputError e = error_of(R"({"components": {"a": {"type": "signal.constant"}, "b": {"type": "signal.constant"}},
                                "connections": [["a.out", "b.out"]]})");
    CHECK(e.message().find("both are outputs") != std::string::npos);
  }
}

TEST_CASE("record and initial values are checked") {
  InputError rec = error_of(R"({"components": {"m": {"type": "mechanical1d.mass"}}, "record": ["m.x", "m.speed"]})");
  CHECK(rec.where().json_path == "/record/1");
  CHECK(rec.message().find("m.v") != std::string::npos);  // lists what 'm' offers
  InputError init = error_of(R"({"components": {"m": {"type": "mechanical1d.mass", "initial": {"z": 1}}}})");
  CHECK(init.where().json_path == "/components/m/initial/z");
  CHECK(init.message().find("its states are: x, v") != std::string::npos);
}

TEST_CASE("a variable recorded twice is an error naming both places") {
  InputError twice = error_of(R"({"components": {"m": {"type": "mechanical1d.mass"}},
                                  "record": ["m.x", "m.v", "m.x"]})");
  CHECK(twice.where().json_path == "/record/2");
  CHECK(twice.message().find("'m.x' is recorded twice: already at /record/0") != std::string::npos);
  // A list without repeats loads as written, in its order.
  Netlist once = load(R"({"components": {"m": {"type": "mechanical1d.mass"}}, "record": ["m.x", "m.v"]})");
  CHECK(once.record == std::vector<std::string>{"m.x", "m.v"});
}

TEST_CASE("--set overrides parameters, with units") {
  const std::string text = R"({"components": {"m": {"type": "mechanical1d.mass"}}})";
  Netlist n = load(text, NetlistOverrides{{"m.mass=\"3 kg\"", "m.x_min=-2"}});
  CHECK(n.model.find_component("m")->parameter_value("mass").get<double>() == doctest::Approx(3.0));
  Netlist n2 = load(text, NetlistOverrides{{"m.mass=500 g"}});
  CHECK(n2.model.find_component("m")->parameter_value("mass").get<double>() == doctest::Approx(0.5));
  InputError e = error_of(text, NetlistOverrides{{"q.mass=3"}});
  CHECK(e.where().component == "q");
  // A value given by --set answers for itself: its messages name the option, not a place
  // in the file (which holds another value, or none).
  InputError bad = error_of(text, NetlistOverrides{{"m.mass=-3"}});
  CHECK(bad.where().json_path == "--set m.mass");
  CHECK(bad.message().find("out of its range") != std::string::npos);
  InputError unit = error_of(text, NetlistOverrides{{"m.mass=25 kgg"}});
  CHECK(unit.where().json_path == "--set m.mass");
  CHECK(std::string(unit.what()).find("/components") == std::string::npos);
  InputError unknown = error_of(text, NetlistOverrides{{"m.masss=1"}});
  CHECK(unknown.where().json_path == "--set m.masss");
  CHECK(unknown.message().find("unknown parameter 'masss'") != std::string::npos);
  InputError typo = error_of(text, NetlistOverrides{{"n.mass=1"}});
  CHECK(typo.where().json_path == "--set n.mass");
  CHECK(typo.message().find("did you mean 'm'?") != std::string::npos);
  // The file's own mistakes are still located in the file.
  InputError file = error_of(R"({"components": {"m": {"type": "mechanical1d.mass", "params": {"mass": -1}}}})",
                             NetlistOverrides{{"m.x_min=-2"}});
  CHECK(file.where().json_path == "/components/m/params/mass");
}

TEST_CASE("--set: a misspelt unit of a relief valve is blamed on the option") {
  const std::string text = R"({"components": {"relief": {"type": "hydraulic.relief_valve",
                                   "params": {"cracking_pressure": "200 bar"}}}})";
  InputError e = error_of(text, NetlistOverrides{{"relief.cracking_pressure=25 barr"}});
  CAPTURE(e.what());
  CHECK(e.where().json_path == "--set relief.cracking_pressure");
  CHECK(std::string(e.what()).find("--set relief.cracking_pressure: component 'relief': parameter "
                                   "'cracking_pressure'") != std::string::npos);
  CHECK(std::string(e.what()).find("/components/relief/params") == std::string::npos);
}

TEST_CASE("unknown solver settings are errors") {
  Netlist n = load(std::string(R"({"components": {"m": )") + kMass + R"(}, "solver": {"methd": "rk4"}})");
  CHECK_THROWS_WITH_AS(run_netlist(n, {}), doctest::Contains("/solver/methd"), InputError);
  Netlist n2 = load(std::string(R"({"components": {"m": )") + kMass + R"(}, "solver": {"method": "euler"}})");
  CHECK_THROWS_WITH_AS(run_netlist(n2, {}), doctest::Contains("unknown method 'euler'; registered methods: adams, bdf, dopri5, rk4"), InputError);
  Netlist n3 = load(std::string(R"({"components": {"m": )") + kMass + R"(}, "solver": {"t_end": "2 bar"}})");
  CHECK_THROWS_WITH_AS(run_netlist(n3, {}), doctest::Contains("/solver/t_end"), InputError);
  // t_start after the default t_end (1 s) is located at t_start.
  Netlist n4 = load(std::string(R"({"components": {"m": )") + kMass + R"(}, "solver": {"t_start": 5}})");
  CHECK_THROWS_WITH_AS(run_netlist(n4, {}), doctest::Contains("/solver/t_start"), InputError);
  // A maximum step that could never reach t_end within max_steps.
  Netlist n5 = load(std::string(R"({"components": {"m": )") + kMass + R"(}, "solver": {"max_step": 1e-300}})");
  CHECK_THROWS_WITH_AS(run_netlist(n5, {}), doctest::Contains("/solver/max_step"), InputError);
}

TEST_CASE("netlists are read from regular files only (issue 18, D14, D16)") {
  Registry r = jourdain::test::builtin_registry();
  jourdain::test::TempDir dir;
  auto refusal = [&](const std::filesystem::path& file) -> std::string {
    try {
      load_netlist(file, r);
    } catch (const InputError& e) {
      return e.what();
    }
    FAIL("not refused: " << file);
    return "";
  };
  CHECK(refusal(dir.path()).find("is a directory") != std::string::npos);
  CHECK(refusal("/dev/zero").find("is not a regular file") != std::string::npos);
  // A FIFO nobody writes to would block the read forever.
  const auto fifo = dir.path() / "pipe.json";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(refusal(fifo).find("is not a regular file") != std::string::npos);
  // A file too large to be a netlist is refused before it is read (a sparse file: no disk).
  const auto huge = dir.path() / "huge.json";
  std::ofstream(huge) << "{}";
  std::filesystem::resize_file(huge, (64u << 20) + 1);
  CHECK(refusal(huge).find("larger than 64 MiB") != std::string::npos);
  // The same for a subsystem file.
  const auto net = dir.path() / "net.json";
  std::ofstream(net) << R"({"subsystems": {"sub": "pipe.json"}, "components": {"s": {"type": "sub"}}})";
  CHECK(refusal(net).find("is not a regular file") != std::string::npos);
}
