// The thermal library against closed forms: a body cooling through a conductance, a
// heated body, convection and radiation laws, and the energy account of a cooling body.
#include <cmath>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

// A body (C = 1000 J/K, 400 K) cooling through G = 10 W/K to surroundings at 300 K:
//   T(t) = 300 + 100 exp(−t G / C),  time constant 100 s.
json cooling(const std::string& method) {
  return json::parse(R"({
    "components": {
      "body": {"type": "thermal.heat_capacity", "params": {"heat_capacity": "1000 J/K"}, "initial": {"T": 400}},
      "wall": {"type": "thermal.conductance", "params": {"conductance": "10 W/K"}},
      "air": {"type": "thermal.fixed_temperature", "params": {"temperature": "300 K"}}
    },
    "connections": [["body.p", "wall.a"], ["air.p", "wall.b"]],
    "record": ["body.T", "wall.heat_flow", "air.heat"],
    "energy": true,
    "solver": {"method": ")" + method + R"(", "t_end": 200, "output_interval": 10, "rtol": 1e-10, "atol": 1e-10}
  })");
}

}  // namespace

TEST_CASE("a body cools through a conductance exponentially, its heat reaching the surroundings") {
  for (const char* method : {"dopri5", "bdf"}) {
    CAPTURE(method);
    RunResult r = test::run(cooling(method).dump());
    REQUIRE(r.finished);
    for (double t : {10.0, 100.0, 200.0}) {
      // rtol 1e-10: the error of T stays near 1e-8 K on a 100 K swing (bdf's global error
      // grows to a few 1e-8 relative over 2 time constants).
      CHECK(test::at_time(r, "body.T", t) == doctest::Approx(300.0 + 100.0 * std::exp(-t / 100.0)).epsilon(1e-8));
    }
    CHECK(r.column("wall.heat_flow").front() == doctest::Approx(1000.0).epsilon(1e-14));  // G ΔT at t = 0
    // The surroundings received what the body gave: C (T0 − T).
    const double given = 1000.0 * (400.0 - r.column("body.T").back());
    CHECK(r.column("air.heat").back() == doctest::Approx(given).epsilon(1e-8));

    // The energy account: the surroundings supplied minus that heat, the body's stored
    // energy fell by it, the conductance passed it on, and the balance closes.
    const json& energy = r.summary.at("energy");
    CHECK(energy["components"]["air"]["supplied"].get<double>() == doctest::Approx(-given).epsilon(1e-8));
    CHECK(energy["components"]["body"]["stored"]["change"].get<double>() == doctest::Approx(-given).epsilon(1e-8));
    CHECK(energy["components"]["wall"]["ports"]["a"]["in"].get<double>() == doctest::Approx(given).epsilon(1e-8));
    CHECK(energy["components"]["wall"]["ports"]["b"]["out"].get<double>() == doctest::Approx(given).epsilon(1e-8));
    CHECK(energy["components"]["wall"]["ports"]["a"]["domain"] == "thermal");
    CHECK(energy["total"]["relative_balance_residual"].get<double>() < 1e-9);
  }
}

TEST_CASE("a heat flow source warms a body linearly") {
  // 50 W into C = 200 J/K for 10 s: T = 300 + 50 t / 200.
  json n = json::parse(R"({
    "components": {
      "body": {"type": "thermal.heat_capacity", "params": {"heat_capacity": "200 J/K"}, "initial": {"T": 300}},
      "heater": {"type": "thermal.heat_flow_source", "params": {"heat_flow": "50 W"}},
      "probe": {"type": "thermal.temperature_sensor"}
    },
    "connections": [["body.p", "heater.p"], ["body.p", "probe.p"]],
    "record": ["body.T", "probe.out"],
    "energy": true,
    "solver": {"method": "rk4", "t_end": 10, "output_interval": 1}
  })");
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  CHECK(r.column("body.T").back() == doctest::Approx(302.5).epsilon(1e-13));
  CHECK(r.column("probe.out").back() == doctest::Approx(302.5).epsilon(1e-13));
  CHECK(r.summary["energy"]["components"]["heater"]["supplied"].get<double>() == doctest::Approx(500.0).epsilon(1e-12));
  CHECK(r.summary["energy"]["total"]["balance_residual"].get<double>() == doctest::Approx(0.0).scale(500.0).epsilon(1e-10));
}

TEST_CASE("convection and radiation follow their laws") {
  // A 350 K body, h = 25 W/(m² K) from a signal over 0.4 m², and radiating with ε = 0.8
  // from 0.4 m² to surroundings at 300 K.
  json n = json::parse(R"({
    "components": {
      "body": {"type": "thermal.heat_capacity", "params": {"heat_capacity": "5000 J/K"}, "initial": {"T": 350}},
      "air": {"type": "thermal.fixed_temperature", "params": {"temperature": "300 K"}},
      "h": {"type": "signal.constant", "params": {"value": 25}},
      "film": {"type": "thermal.convection", "params": {"area": "0.4 m^2", "source": "signal"}},
      "glow": {"type": "thermal.radiation", "params": {"area": "0.4 m^2", "emissivity": 0.8}}
    },
    "connections": [["body.p", "film.a"], ["air.p", "film.b"], ["h.out", "film.coefficient"],
                    ["body.p", "glow.a"], ["air.p", "glow.b"]],
    "record": ["film.heat_flow", "glow.heat_flow", "film.temperature_difference"],
    "solver": {"method": "rk4", "t_end": 1, "output_interval": 1}
  })");
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  CHECK(r.column("film.heat_flow").front() == doctest::Approx(25.0 * 0.4 * 50.0).epsilon(1e-14));
  CHECK(r.column("film.temperature_difference").front() == doctest::Approx(50.0).epsilon(1e-14));
  const double sigma = 5.670374419e-8;
  CHECK(r.column("glow.heat_flow").front() ==
        doctest::Approx(0.8 * sigma * 0.4 * (std::pow(350.0, 4) - std::pow(300.0, 4))).epsilon(1e-14));
}

TEST_CASE("a fixed temperature may follow a signal, and temperatures take degC") {
  json n = json::parse(R"({
    "components": {
      "body": {"type": "thermal.heat_capacity", "params": {"heat_capacity": "100 J/K"}, "initial": {"T": "20 degC"}},
      "wall": {"type": "thermal.conductance", "params": {"conductance": "1 W/K"}},
      "bath": {"type": "thermal.fixed_temperature", "params": {"source": "signal"}},
      "setpoint": {"type": "signal.constant", "params": {"value": 353.15}}
    },
    "connections": [["body.p", "wall.a"], ["bath.p", "wall.b"], ["setpoint.out", "bath.command"]],
    "record": ["body.T", "wall.heat_flow"],
    "solver": {"method": "rk4", "t_end": 1, "output_interval": 1}
  })");
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  CHECK(r.column("body.T").front() == doctest::Approx(293.15).epsilon(1e-15));
  CHECK(r.column("wall.heat_flow").front() == doctest::Approx(-60.0).epsilon(1e-12));  // 60 K into the body
}
