// The speed source, the fixed flange and the sensors, on a driveline whose steady state
// is known: a speed source turns a rotor through a torque sensor and a shaft, against a
// viscous damper to a fixed flange.
#include <cmath>

#include "../hydraulic/hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

json driveline(const json& source) {
  return circuit({{"src", source},
                  {"ts", {{"type", "rotational.torque_sensor"}}},
                  {"shaft", {{"type", "rotational.shaft"}, {"params", {{"stiffness", 500}, {"damping", 2}}}}},
                  {"rotor", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.05}}}}},
                  {"ms", {{"type", "rotational.motion_sensor"}}},
                  {"damper", {{"type", "rotational.shaft"}, {"params", {{"stiffness", 0}, {"damping", 0.1}}}}},
                  {"wall", {{"type", "rotational.fixed"}}}},
                 {{"src.flange", "ts.a"},
                  {"ts.b", "shaft.a"},
                  {"shaft.b", "rotor.a"},
                  {"rotor.b", "damper.a"},
                  {"damper.b", "wall.flange"},
                  {"rotor.b", "ms.flange"}},
                 {"src.phi", "src.torque", "src.power", "ts.torque", "ts.power", "ts.b.phi", "rotor.w", "rotor.phi",
                  "ms.speed", "ms.angle", "wall.reaction", "damper.damper_loss", "shaft.torque"},
                 {{"method", "bdf"}, {"t_end", 2.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.01}});
}

}  // namespace

TEST_CASE("speed source at 50 rad/s: the torque it gives, the sensors' readings and the reaction at steady state") {
  const double w = 50.0, c = 0.1;
  json n = driveline({{"type", "rotational.speed_source"}, {"params", {{"speed", "50 rad/s"}}}});
  // The in-line sensor passes motion one way and torque the other: no algebraic loop.
  CHECK(load(n.dump()).model.schedule().loop_count() == 0);
  RunResult r = run_circuit(n);
  // The angle is integrated: Ω t.
  CHECK(last(r, "src.phi") == doctest::Approx(w * 2.0).epsilon(1e-12));
  CHECK(last(r, "ts.b.phi") == last(r, "src.phi"));
  // Steady state (the transients decay at (2 + 0.1) / (2 · 0.05) = 21 /s: e^(−42) left):
  // the rotor turns at Ω and the damper takes c Ω = 5 N m, which the source gives.
  // How close: the shaft's torque is 500 N m/rad times the difference of two angles of
  // about 100 rad, each held to rtol 1e-10, so to 1e-8 rad: 5e-6 N m, 1e-6 of 5 N m. The
  // speed's error is BDF's global error: over small changes of atol (either Jacobian)
  // it ranged from 1e-13 to 5e-8 rad/s, 1e-9 of 50 rad/s; 1e-8 bounds it.
  CHECK(last(r, "rotor.w") == doctest::Approx(w).epsilon(1e-8));
  CHECK(last(r, "ms.speed") == last(r, "rotor.w"));
  CHECK(last(r, "ms.angle") == last(r, "rotor.phi"));
  CHECK(last(r, "src.torque") == doctest::Approx(c * w).epsilon(1e-6));
  // The sensor reads the torque the shaft exerts on the source's side (−5 N m: it resists)
  // and the power that flows through it to that side (−250 W: 250 W leave the source).
  CHECK(last(r, "ts.torque") == doctest::Approx(-c * w).epsilon(1e-6));
  CHECK(last(r, "ts.torque") == last(r, "shaft.torque"));
  CHECK(last(r, "ts.power") == doctest::Approx(-c * w * w).epsilon(1e-6));
  // What the source supplies is what the damper dissipates (c ω², ω to 1e-8: 2e-8 of it);
  // the wall holds c ω.
  CHECK(last(r, "src.power") == doctest::Approx(last(r, "damper.damper_loss")).epsilon(1e-6));
  CHECK(last(r, "src.power") == doctest::Approx(c * w * w).epsilon(1e-6));
  CHECK(last(r, "wall.reaction") == doctest::Approx(c * w).epsilon(1e-8));
}

TEST_CASE("speed source from a signal: a ramp of 10 rad/s² integrates to 5 t² rad") {
  json n = driveline({{"type", "rotational.speed_source"}, {"params", {{"source", "signal"}}}});
  n["components"]["ramp"] = {{"type", "signal.ramp"}, {"params", {{"slope", 10}}}};
  n["connections"].push_back({"ramp.out", "src.command"});
  RunResult r = run_circuit(n);
  // bdf integrates the angle of a ramp speed (a polynomial of degree 2) to its tolerance.
  for (double t : {0.5, 1.0, 2.0}) CHECK(at_time(r, "src.phi", t) == doctest::Approx(5 * t * t).epsilon(1e-8));
  // The rotor follows the ramp with the lag of the damper: at steady ramp the shaft's
  // speed difference vanishes and J α + c ω = k Δφ, so the source gives J α + c ω.
  CHECK(last(r, "src.torque") == doctest::Approx(0.05 * 10 + 0.1 * last(r, "rotor.w")).epsilon(1e-6));
}

TEST_CASE("a fixed flange holds its angle and reports the torque on it") {
  // An inertia hangs on a twisted shaft from a wall at 0.3 rad: it settles at the wall's
  // angle, which the wall gives to the shaft, and the wall feels nothing at the end.
  json n = circuit({{"wall", {{"type", "rotational.fixed"}, {"params", {{"angle", 0.3}}}}},
                    {"shaft", {{"type", "rotational.shaft"}, {"params", {{"stiffness", 100}, {"damping", 5}}}}},
                    {"rotor", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.1}}}}}},
                   {{"wall.flange", "shaft.a"}, {"rotor.a", "shaft.b"}},
                   {"rotor.phi", "wall.reaction", "wall.flange.phi", "wall.flange.w", "shaft.torque"},
                   {{"method", "bdf"}, {"t_end", 2.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.01}});
  RunResult r = run_circuit(n);
  CHECK(at_time(r, "wall.reaction", 0.0) == doctest::Approx(-100 * 0.3).epsilon(1e-12));
  CHECK(last(r, "wall.flange.phi") == 0.3);
  CHECK(last(r, "wall.flange.w") == 0.0);
  // Decay at c / (2 J) = 25 /s over 2 s.
  CHECK(last(r, "rotor.phi") == doctest::Approx(0.3).epsilon(1e-9));
  CHECK(std::abs(last(r, "wall.reaction")) < 1e-8);
  for (double t : {0.05, 0.1, 0.5})
    CHECK(at_time(r, "wall.reaction", t) == doctest::Approx(at_time(r, "shaft.torque", t)));
}
