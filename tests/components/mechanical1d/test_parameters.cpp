// mechanical1d: bad parameters are InputErrors that name the component and the parameter.
#include <string>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

// A netlist with one mass "slider" whose parameters are `params`.
std::string slider(const json& params) {
  json n = R"({
    "components": {"slider": {"type": "mechanical1d.mass"}},
    "solver": {"method": "dopri5", "t_end": 1}
  })"_json;
  n["components"]["slider"]["params"] = params;
  return n.dump();
}

// Loads `text`, expecting an InputError about parameter `param` of component `component`.
void expect_parameter_error(const std::string& text, const std::string& component, const std::string& param,
                            const std::string& why) {
  try {
    (void)test::load(text);
    FAIL("no InputError for " << param);
  } catch (const InputError& e) {
    const std::string what = e.what();
    MESSAGE(what);
    CHECK(e.where().component == component);
    CHECK(what.find("component '" + component + "'") != std::string::npos);
    CHECK(what.find("parameter '" + param + "'") != std::string::npos);
    CHECK(what.find(why) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("a mass must be positive") {
  expect_parameter_error(slider(R"({"mass": "-1 kg"})"_json), "slider", "mass", "out of its range");
  expect_parameter_error(slider(R"({"mass": 0})"_json), "slider", "mass", "out of its range");
}

TEST_CASE("the upper end stop must be above the lower one") {
  expect_parameter_error(slider(R"({"x_min": "0.5 m", "x_max": "0.2 m"})"_json), "slider", "x_max", "above x_min");
  expect_parameter_error(slider(R"({"x_min": 0.3, "x_max": 0.3})"_json), "slider", "x_max", "above x_min");
}

TEST_CASE("the coefficient of restitution lies in [0, 1]") {
  expect_parameter_error(slider(R"({"x_min": 0, "restitution": 1.2})"_json), "slider", "restitution",
                         "out of its range");
  expect_parameter_error(slider(R"({"x_min": 0, "restitution": -0.1})"_json), "slider", "restitution",
                         "out of its range");
  // The limits themselves are valid: 0 (plastic) and 1 (elastic).
  CHECK_NOTHROW((void)test::load(slider(R"({"x_min": 0, "restitution": 1})"_json)));
  CHECK_NOTHROW((void)test::load(slider(R"({"x_min": 0, "restitution": 0})"_json)));
}

TEST_CASE("springs and dampers refuse negative coefficients") {
  json n = R"({
    "components": {
      "wall": {"type": "mechanical1d.fixed"},
      "m":    {"type": "mechanical1d.mass"},
      "k":    {"type": "mechanical1d.spring", "params": {"stiffness": "-5 N/m"}}
    },
    "connections": [["wall.p", "k.a"], ["m.p", "k.b"]],
    "solver": {"method": "dopri5", "t_end": 1}
  })"_json;
  expect_parameter_error(n.dump(), "k", "stiffness", "out of its range");
  n["components"]["k"] = R"({"type": "mechanical1d.damper", "params": {"damping": "-1 N*s/m"}})"_json;
  expect_parameter_error(n.dump(), "k", "damping", "out of its range");
}

TEST_CASE("sensor and source ports must be connected") {
  // A force source without its signal input: the error names the component and the port.
  json n = R"({
    "components": {
      "m":   {"type": "mechanical1d.mass"},
      "src": {"type": "mechanical1d.force_source"}
    },
    "connections": [["m.p", "src.p"]],
    "solver": {"method": "dopri5", "t_end": 1}
  })"_json;
  try {
    (void)test::load(n.dump());
    FAIL("no InputError for the unconnected input");
  } catch (const InputError& e) {
    MESSAGE(std::string(e.what()));
    CHECK(e.where().component == "src");
    CHECK(e.where().port == "f");
  }
  // A force sensor's port a takes exactly one mass.
  n = R"({
    "components": {
      "m1": {"type": "mechanical1d.mass"},
      "m2": {"type": "mechanical1d.mass"},
      "fs": {"type": "mechanical1d.force_sensor"}
    },
    "connections": [["m1.p", "fs.a"], ["m2.p", "fs.a"]],
    "solver": {"method": "dopri5", "t_end": 1}
  })"_json;
  try {
    (void)test::load(n.dump());
    FAIL("no InputError for two drivers");
  } catch (const InputError& e) {
    MESSAGE(std::string(e.what()));
    CHECK(e.where().component == "fs");
    CHECK(e.where().port == "a");
  }
}
