// mechanical1d sensors: position, velocity and in-line force sensors.
#include <cmath>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"

using namespace jourdain;
using nlohmann::json;

TEST_CASE("position and velocity sensors read the mass states and change nothing") {
  // Damped oscillator (1 kg, 100 N/m, 2 N s/m: omega0 = 10 rad/s, zeta = 0.1) released
  // from 0.1 m, with both sensors on the mass port.
  json n = R"({
    "components": {
      "wall":   {"type": "mechanical1d.fixed"},
      "spring": {"type": "mechanical1d.spring", "params": {"stiffness": "100 N/m"}},
      "damper": {"type": "mechanical1d.damper", "params": {"damping": "2 N*s/m"}},
      "mass":   {"type": "mechanical1d.mass", "initial": {"x": 0.1}},
      "xs":     {"type": "mechanical1d.position_sensor"},
      "vs":     {"type": "mechanical1d.velocity_sensor"}
    },
    "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"], ["wall.p", "damper.a"], ["mass.p", "damper.b"],
                    ["mass.p", "xs.p"], ["mass.p", "vs.p"]],
    "record": ["mass.x", "mass.v", "xs.out", "vs.out", "xs.p.f"],
    "solver": {"method": "dopri5", "t_end": 3, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01}
  })"_json;
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  CHECK(test::load(n.dump()).model.schedule().loop_count() == 0);
  auto t = r.column("time"), x = r.column("mass.x"), v = r.column("mass.v"), xs = r.column("xs.out"),
       vs = r.column("vs.out"), f = r.column("xs.p.f");
  const double w0 = 10.0, zeta = 0.1, wd = w0 * std::sqrt(1 - zeta * zeta), s = zeta * w0;
  double max_error = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    CAPTURE(t[i]);
    CHECK(xs[i] == x[i]);  // the same number, read in the same evaluation
    CHECK(vs[i] == v[i]);
    CHECK(f[i] == 0.0);
    const double exact = 0.1 * std::exp(-s * t[i]) * (std::cos(wd * t[i]) + s / wd * std::sin(wd * t[i]));
    max_error = std::max(max_error, std::abs(xs[i] - exact));
  }
  MESSAGE("max |x error| " << max_error << " m");
  // The sensors apply no force, so the motion is the closed-form oscillator: dopri5 at
  // rtol 1e-10 over ~300 steps on an amplitude of 0.1 m keeps the error below 1e-9 m.
  CHECK(max_error < 1e-9);
}

TEST_CASE("in-line force sensor: reads the spring force, adds no loop and leaves the motion unchanged") {
  // Mass -> force sensor (a) ; sensor (b) -> spring end b and damper end b ; wall -> ends a.
  json with = R"({
    "components": {
      "wall":   {"type": "mechanical1d.fixed"},
      "spring": {"type": "mechanical1d.spring", "params": {"stiffness": "400 N/m", "free_length": "0.2 m"}},
      "damper": {"type": "mechanical1d.damper", "params": {"damping": "4 N*s/m"}},
      "mass":   {"type": "mechanical1d.mass", "params": {"mass": "1 kg"}, "initial": {"x": 0.3, "v": -1}},
      "fs":     {"type": "mechanical1d.force_sensor"}
    },
    "connections": [["wall.p", "spring.a"], ["fs.b", "spring.b"], ["wall.p", "damper.a"], ["fs.b", "damper.b"],
                    ["mass.p", "fs.a"]],
    "record": ["mass.x", "mass.v", "mass.a", "fs.out", "spring.force", "damper.force"],
    "solver": {"method": "dopri5", "t_end": 2, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01}
  })"_json;
  json without = with;
  without["components"].erase("fs");
  without["connections"] = R"([["wall.p", "spring.a"], ["mass.p", "spring.b"], ["wall.p", "damper.a"],
                               ["mass.p", "damper.b"]])"_json;
  without["record"] = R"(["mass.x", "mass.v", "mass.a", "spring.force", "damper.force"])"_json;

  // The sensor passes motion a -> b and force b -> a separately: no algebraic loop.
  CHECK(test::load(with.dump()).model.schedule().loop_count() == 0);

  RunResult r = test::run(with.dump()), r0 = test::run(without.dump());
  REQUIRE(r.finished);
  REQUIRE(r0.finished);
  auto t = r.column("time"), x = r.column("mass.x"), v = r.column("mass.v"), a = r.column("mass.a"),
       out = r.column("fs.out"), fk = r.column("spring.force"), fc = r.column("damper.force");
  auto t0 = r0.column("time"), x0 = r0.column("mass.x"), v0 = r0.column("mass.v");
  REQUIRE(t.size() == t0.size());
  // Closed form: omega0 = 20 rad/s, zeta = 4 / (2 * 20) = 0.1, about x = L0 = 0.2 m.
  const double w0 = 20.0, zeta = 0.1, wd = w0 * std::sqrt(1 - zeta * zeta), s = zeta * w0;
  const double d0 = 0.1, v_init = -1.0;
  double max_error = 0.0, max_diff = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    CAPTURE(t[i]);
    // The force on the mass at end b of both elements is minus their "force" (the force
    // on end a); the sensor reports it, positive along the axis, and the mass feels it.
    CHECK(out[i] == doctest::Approx(-fk[i] - fc[i]).epsilon(1e-13).scale(1e-12));
    CHECK(out[i] == doctest::Approx(a[i] * 1.0).epsilon(1e-13).scale(1e-12));
    CHECK(fk[i] == doctest::Approx(400.0 * (x[i] - 0.2)).epsilon(1e-12).scale(1e-12));
    // The sensor adds no arithmetic on the way: the same steps, the same numbers.
    CHECK(t[i] == t0[i]);
    max_diff = std::max({max_diff, std::abs(x[i] - x0[i]), std::abs(v[i] - v0[i])});
    const double exact =
        0.2 + std::exp(-s * t[i]) * (d0 * std::cos(wd * t[i]) + (v_init + s * d0) / wd * std::sin(wd * t[i]));
    max_error = std::max(max_error, std::abs(x[i] - exact));
  }
  MESSAGE("max |x error| " << max_error << " m; max difference with / without sensor " << max_diff);
  CHECK(max_diff == 0.0);
  // dopri5 at rtol 1e-10 over ~500 steps on an amplitude of ~0.1 m: below 1e-9 m.
  CHECK(max_error < 1e-9);
}

TEST_CASE("force sensor on a spring end a reports the spring tension") {
  // Reversed orientation: the mass sits at end a of the spring (wall at end b, x = 1 m), so
  // the force on the mass is the tension itself.
  json n = R"({
    "components": {
      "wall":   {"type": "mechanical1d.fixed", "params": {"position": 1}},
      "spring": {"type": "mechanical1d.spring", "params": {"stiffness": "50 N/m", "free_length": "0.5 m"}},
      "mass":   {"type": "mechanical1d.mass", "params": {"mass": "0.5 kg"}, "initial": {"x": 0.3}},
      "fs":     {"type": "mechanical1d.force_sensor"}
    },
    "connections": [["mass.p", "fs.a"], ["fs.b", "spring.a"], ["wall.p", "spring.b"]],
    "record": ["mass.x", "mass.a", "fs.out", "spring.force"],
    "solver": {"method": "dopri5", "t_end": 1, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01}
  })"_json;
  CHECK(test::load(n.dump()).model.schedule().loop_count() == 0);
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  auto t = r.column("time"), x = r.column("mass.x"), a = r.column("mass.a"), out = r.column("fs.out"),
       fk = r.column("spring.force");
  CHECK(out.front() == doctest::Approx(50.0 * 0.2).epsilon(1e-14));  // stretched 0.2 m: 10 N towards the wall
  const double w = 10.0;  // sqrt(50 / 0.5)
  double max_error = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    CHECK(out[i] == fk[i]);
    CHECK(a[i] == doctest::Approx(out[i] / 0.5).epsilon(1e-14).scale(1e-12));
    max_error = std::max(max_error, std::abs(x[i] - (0.5 - 0.2 * std::cos(w * t[i]))));
  }
  MESSAGE("max |x error| " << max_error << " m");
  // dopri5, rtol 1e-10, amplitude 0.2 m, ~200 steps: below 1e-9 m.
  CHECK(max_error < 1e-9);
}
