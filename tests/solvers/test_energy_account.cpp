// The energy account (framework energy.hpp, integrated by run_netlist along every
// accepted step): closed forms for what was supplied and lost, conservation in a
// lossless oscillator with every method, and the energy an impact takes.
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

double number(const json& j) { return j.get<double>(); }

}  // namespace

TEST_CASE("a force driving a mass against a damper: supplied and lost energy in closed form") {
  // m v' = F − c v from rest: v = (F/c)(1 − e^(−t/τ)), τ = m/c. The force supplies
  // ∫F v dt = (F²/c)(t − τ(1 − e^(−t/τ))); the mass keeps ½ m v²; the damper loses the rest.
  const double m = 2.0, c = 4.0, F = 10.0, t = 3.0, tau = m / c;
  json n = json::parse(R"({
    "components": {
      "ground": {"type": "mechanical1d.fixed"},
      "damper": {"type": "mechanical1d.damper", "params": {"damping": 4}},
      "cart": {"type": "mechanical1d.mass", "params": {"mass": 2}},
      "push": {"type": "mechanical1d.force_source"},
      "F": {"type": "signal.constant", "params": {"value": 10}}
    },
    "connections": [["ground.p", "damper.a"], ["cart.p", "damper.b"], ["cart.p", "push.p"], ["F.out", "push.f"]],
    "record": ["cart.v"],
    "energy": true,
    "solver": {"method": "dopri5", "t_end": 3, "output_interval": 0.5, "rtol": 1e-11, "atol": 1e-12}
  })");
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const json& e = r.summary.at("energy");
  const double supplied = F * F / c * (t - tau * (1.0 - std::exp(-t / tau)));
  const double v = F / c * (1.0 - std::exp(-t / tau));
  const double kinetic = 0.5 * m * v * v;
  // rtol 1e-11 on the states; the quadrature (degree 5 on each step) adds far less.
  CHECK(number(e["components"]["push"]["supplied"]) == doctest::Approx(supplied).epsilon(1e-9));
  CHECK(number(e["components"]["cart"]["stored"]["change"]) == doctest::Approx(kinetic).epsilon(1e-9));
  CHECK(number(e["components"]["damper"]["lost"]) == doctest::Approx(supplied - kinetic).epsilon(1e-9));
  // What the damper took in through its ports is what it lost.
  CHECK(number(e["components"]["damper"]["ports"]["b"]["in"]) == doctest::Approx(supplied - kinetic).epsilon(1e-9));
  CHECK(number(e["components"]["damper"]["ports"]["a"]["in"]) == 0.0);  // at the fixed end v = 0
  CHECK(number(e["total"]["relative_balance_residual"]) < 1e-10);
  CHECK(number(e["total"]["component_residual"]) < 1e-9 * number(e["total"]["moved"]));
  CHECK(e["domains"]["mechanical1d"]["lost"].get<double>() == doctest::Approx(supplied - kinetic).epsilon(1e-9));
}

TEST_CASE("a lossless oscillator keeps its energy to the accuracy of each method") {
  // 2 kg on a 200 N/m spring, 0.1 m out: 1 J, ω = 10 rad/s, over 5 s (8 periods).
  json n = json::parse(R"({
    "components": {
      "wall": {"type": "mechanical1d.fixed"},
      "spring": {"type": "mechanical1d.spring", "params": {"stiffness": 200}},
      "bob": {"type": "mechanical1d.mass", "params": {"mass": 2}, "initial": {"x": 0.1}}
    },
    "connections": [["wall.p", "spring.a"], ["bob.p", "spring.b"]],
    "record": ["bob.x"],
    "energy": true,
    "solver": {"t_end": 5, "output_interval": 0.1}
  })");
  struct Case {
    const char* method;
    double rtol, step, bound;
  };
  // dopri5 and bdf at rtol 1e-10: a drift of the order of the tolerance per period or less
  // (measured 1.3e-9 J and 3.5e-8 J); rk4 is checked against its closed form below.
  for (const Case& k : {Case{"rk4", 0.0, 1e-3, 1e-9}, Case{"dopri5", 1e-10, 0.0, 1e-8}, Case{"bdf", 1e-10, 0.0, 1e-6}}) {
    CAPTURE(k.method);
    n["solver"]["method"] = k.method;
    if (k.rtol > 0) n["solver"]["rtol"] = k.rtol, n["solver"]["atol"] = 1e-12;
    else n["solver"].erase("rtol"), n["solver"].erase("atol");
    if (k.step > 0) n["solver"]["step"] = k.step;
    else n["solver"].erase("step");
    RunResult r = test::run(n.dump());
    REQUIRE(r.finished);
    const json& e = r.summary.at("energy");
    CHECK(number(e["components"]["spring"]["stored"]["start"]) == doctest::Approx(1.0).epsilon(1e-14));
    CHECK(std::abs(number(e["total"]["stored_change"])) < k.bound);
    if (std::string(k.method) == "rk4") {
      // Its amplification on x'' = −ω² x is R(iωh), R(z) = 1 + z + z²/2 + z³/6 + z⁴/24,
      // so the energy after N steps is |R|^(2N) E0: about −N (ωh)⁶/72 = −6.94e-11 J. The
      // account, quadrature and all, must find that drift and not another.
      const double z = 10.0 * 1e-3;
      const double re = 1.0 - z * z / 2.0 + z * z * z * z / 24.0, im = z - z * z * z / 6.0;
      const double drift = std::pow(re * re + im * im, 5000) - 1.0;
      CHECK(number(e["total"]["stored_change"]) == doctest::Approx(drift).epsilon(1e-3));
    }
    // With nothing supplied or lost, the balance is the drift itself; the account must
    // not add to it: each component's ports match its change of stored energy.
    CHECK(number(e["total"]["component_residual"]) < k.bound * number(e["total"]["moved"]));
  }
}

TEST_CASE("an impact's energy is reported as changed at the event, not as a flow") {
  // 1 kg dropped from 1 m onto a stop, restitution 0.5: the impact takes
  // (1 − e²) m g h = 0.75 · 9.81 J; the run ends after the first bounce's top (0.45 s +
  // 0.226 s).
  json n = json::parse(R"({
    "components": {
      "ball": {"type": "mechanical1d.mass",
               "params": {"mass": 1, "inclination": "90 deg", "x_min": 0, "restitution": 0.5},
               "initial": {"x": 1}}
    },
    "connections": [],
    "record": ["ball.x"],
    "energy": true,
    "solver": {"method": "dopri5", "t_end": 0.6, "output_interval": 0.01, "rtol": 1e-10, "atol": 1e-12}
  })");
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const json& ball = r.summary["energy"]["components"]["ball"];
  // The impact is located to the event tolerance; the energy taken follows to ~1e-9.
  CHECK(number(ball["stored"]["changed_at_events"]) == doctest::Approx(-0.75 * 9.81).epsilon(1e-7));
  CHECK(std::abs(number(ball["residual"])) < 1e-8);
}

TEST_CASE("throttling loss: an orifice loses Δp q, all that the flow source supplies at steady state") {
  json n = json::parse(R"({
    "components": {
      "pump": {"type": "hydraulic.flow_source", "params": {"flow": "10 l/min"}},
      "line": {"type": "hydraulic.volume", "params": {"volume": "0.1 l"}, "initial": {"p": "50 bar"}},
      "throttle": {"type": "hydraulic.orifice", "params": {"diameter": "2 mm"}},
      "tank": {"type": "hydraulic.tank"}
    },
    "connections": [["line.p1", "pump.p"], ["line.p2", "throttle.a"], ["tank.p", "throttle.b"]],
    "record": ["line.p", "throttle.flow", "throttle.power_loss"],
    "energy": true,
    "solver": {"method": "bdf", "t_end": 1, "output_interval": 0.01, "rtol": 1e-9, "atol": 1e-6}
  })");
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const double p = r.column("line.p").back(), q = r.column("throttle.flow").back();
  CHECK(r.column("throttle.power_loss").back() == doctest::Approx(p * q).epsilon(1e-14));
  const json& e = r.summary["energy"];
  CHECK(number(e["components"]["throttle"]["lost"]) ==
        doctest::Approx(number(e["components"]["throttle"]["ports"]["a"]["in"]) -
                        number(e["components"]["throttle"]["ports"]["b"]["out"])).epsilon(1e-9));
  // The volume's compressed liquid (V p² / 2β without air) closes the circuit's balance:
  // the source supplied what the throttle lost plus what the volume gained.
  CHECK(number(e["components"]["line"]["stored"]["start"]) ==
        doctest::Approx(1e-4 * 50e5 * 50e5 / (2.0 * 1.5e9)).epsilon(1e-12));
  CHECK(number(e["total"]["relative_balance_residual"]) < 1e-7);
}

TEST_CASE("a planar pendulum trades kinetic for potential energy; its joint does no work") {
  json n = json::parse(test::read_text(test::netlist_path("pendulum")));
  n["energy"] = true;
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const json& e = r.summary.at("energy");
  // The netlist's dopri5 at its own tolerance: the energy drifts by ~1e-8 J of the
  // ~330 J traded between the bob's kinetic and potential energy over the run.
  CHECK(number(e["total"]["relative_balance_residual"]) < 1e-9);
  CHECK(number(e["total"]["moved"]) > 100.0);
  for (const auto& component : e["components"].items())
    for (const auto& port : component.value()["ports"].items()) {
      const std::string where = component.key() + "." + port.key();
      CAPTURE(where);
      CHECK(std::abs(number(port.value()["in"]) - number(port.value()["out"])) <
            1e-6);  // an ideal hinge: no net work
    }
}

TEST_CASE("the wheel loader's account closes: actuators supply, tyres store and lose") {
  // Its lift and tilt actuators (actuated translational joints, forces solved for) bring
  // the work in; the tyres' contact springs store and their damping and friction lose.
  json n = json::parse(test::read_text(test::netlist_path("wheel_loader")));
  n["energy"] = true;
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const json& e = r.summary.at("energy");
  // dopri5 at the netlist's tolerance: measured 1.4e-10 of the ~315 kJ moved.
  CHECK(number(e["total"]["relative_balance_residual"]) < 1e-8);
  CHECK(number(e["components"]["lift_cylinder"]["supplied"]) > 0.0);
  CHECK(number(e["components"]["front_tyre"]["lost"]) > 0.0);
  test::check_energy_balance(r, 1e-8);
}
