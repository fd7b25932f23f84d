// mechanical1d.spring, damper, fixed: sign conventions and static equilibrium.
#include <cmath>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

constexpr double g = 9.81;  // the world's default gravity, m/s^2

// First recorded row (t = 0) of a short run: forces and accelerations there involve no
// integration, so they are checked to round-off.
double at_start(const RunResult& r, const std::string& column) { return r.column(column).front(); }

}  // namespace

TEST_CASE("spring tension is positive when stretched and pulls its ends together") {
  // Two free 2 kg masses on a horizontal axis, spring from A (end a) to B (end b), L0 = 1 m.
  json n = R"({
    "components": {
      "A": {"type": "mechanical1d.mass", "params": {"mass": "2 kg"}, "initial": {"x": 0}},
      "B": {"type": "mechanical1d.mass", "params": {"mass": "2 kg"}, "initial": {"x": 1.5}},
      "spring": {"type": "mechanical1d.spring", "params": {"stiffness": "100 N/m", "free_length": "1 m"}}
    },
    "connections": [["A.p", "spring.a"], ["B.p", "spring.b"]],
    "record": ["A.a", "B.a", "spring.force", "spring.elongation"],
    "solver": {"method": "dopri5", "t_end": 0.01}
  })"_json;
  SUBCASE("stretched by 0.5 m: tension +50 N, A pulled along +x, B along -x") {
    RunResult r = test::run(n.dump());
    REQUIRE(r.finished);
    CHECK(at_start(r, "spring.elongation") == doctest::Approx(0.5).epsilon(1e-15));
    CHECK(at_start(r, "spring.force") == doctest::Approx(50.0).epsilon(1e-14));
    CHECK(at_start(r, "A.a") == doctest::Approx(25.0).epsilon(1e-14));
    CHECK(at_start(r, "B.a") == doctest::Approx(-25.0).epsilon(1e-14));
  }
  SUBCASE("compressed by 0.4 m: tension -40 N, the ends pushed apart") {
    n["components"]["B"]["initial"]["x"] = 0.6;
    RunResult r = test::run(n.dump());
    REQUIRE(r.finished);
    CHECK(at_start(r, "spring.elongation") == doctest::Approx(-0.4).epsilon(1e-14));
    CHECK(at_start(r, "spring.force") == doctest::Approx(-40.0).epsilon(1e-14));
    CHECK(at_start(r, "A.a") == doctest::Approx(-20.0).epsilon(1e-14));
    CHECK(at_start(r, "B.a") == doctest::Approx(20.0).epsilon(1e-14));
  }
}

TEST_CASE("damper force opposes the relative velocity of its ends") {
  // B moves away from A at 2 m/s: the damper (10 N s/m) pulls A along +x with 20 N
  // (its "force", the force on end a) and holds B back with -20 N.
  json n = R"({
    "components": {
      "A": {"type": "mechanical1d.mass", "params": {"mass": "2 kg"}, "initial": {"x": 0, "v": 0}},
      "B": {"type": "mechanical1d.mass", "params": {"mass": "4 kg"}, "initial": {"x": 1, "v": 2}},
      "damper": {"type": "mechanical1d.damper", "params": {"damping": "10 N*s/m"}}
    },
    "connections": [["A.p", "damper.a"], ["B.p", "damper.b"]],
    "record": ["A.a", "B.a", "A.v", "B.v", "damper.force"],
    "solver": {"method": "dopri5", "t_end": 3, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.1}
  })"_json;
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  CHECK(at_start(r, "damper.force") == doctest::Approx(20.0).epsilon(1e-14));
  CHECK(at_start(r, "A.a") == doctest::Approx(10.0).epsilon(1e-14));
  CHECK(at_start(r, "B.a") == doctest::Approx(-5.0).epsilon(1e-14));
  // Closed form: the relative velocity decays as 2 exp(-c (1/mA + 1/mB) t) and the
  // momentum mA vA + mB vB = 8 kg m/s is conserved.
  auto t = r.column("time"), va = r.column("A.v"), vb = r.column("B.v");
  for (size_t i = 0; i < t.size(); ++i) {
    CAPTURE(t[i]);
    // dopri5 at rtol 1e-10 on velocities of order 1 m/s: 1e-8 allows the error of ~100 steps.
    CHECK(std::abs((vb[i] - va[i]) - 2 * std::exp(-10 * (0.5 + 0.25) * t[i])) < 1e-8);
    CHECK(std::abs(2 * va[i] + 4 * vb[i] - 8) < 1e-8);
  }
}

TEST_CASE("spring with a free length: static equilibrium under gravity (vertical, damped)") {
  // 2 kg, k = 200 N/m, c = 40 N s/m (critical: zeta = c / (2 sqrt(k m)) = 1, omega0 = 10 rad/s),
  // support at 1 m, L0 = 0.3 m. After 5 s the transient is (1 + 50) e^-50 * 0.1 m ~ 1e-21 m.
  const double m = 2.0, k = 200.0, L0 = 0.3, xf = 1.0;
  json n = R"({
    "components": {
      "support": {"type": "mechanical1d.fixed", "params": {"position": "1 m"}},
      "spring":  {"type": "mechanical1d.spring", "params": {"stiffness": "200 N/m", "free_length": "300 mm"}},
      "damper":  {"type": "mechanical1d.damper", "params": {"damping": "40 N*s/m"}},
      "mass":    {"type": "mechanical1d.mass", "params": {"mass": "2 kg", "inclination": "90 deg"}}
    },
    "record": ["mass.x", "mass.v", "spring.force", "support.reaction"],
    "solver": {"method": "dopri5", "t_end": 5, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.05}
  })"_json;
  // dopri5's error at a stable equilibrium stays within a few (rtol |x| + atol) ~ 1e-10 m:
  // the bounds are 1e-9 m on x and v, and 1e-9 relative on the forces (k * 1e-9 m = 2e-7 N
  // on m g = 19.6 N is 1e-8; the forces are in fact computed from the same x).
  SUBCASE("mass standing on the spring: x - x_support = L0 - m g / k, spring compressed") {
    n["connections"] = R"([["support.p", "spring.a"], ["mass.p", "spring.b"],
                           ["support.p", "damper.a"], ["mass.p", "damper.b"]])"_json;
    n["components"]["mass"]["initial"]["x"] = 1.4;
    RunResult r = test::run(n.dump());
    REQUIRE(r.finished);
    const double x_eq = xf + L0 - m * g / k;  // 1.2019 m
    MESSAGE("x(5 s) - x_eq = " << r.column("mass.x").back() - x_eq);
    CHECK(std::abs(r.column("mass.x").back() - x_eq) < 1e-9);
    CHECK(std::abs(r.column("mass.v").back()) < 1e-9);
    CHECK(r.column("spring.force").back() == doctest::Approx(-m * g).epsilon(1e-9));  // compression
    CHECK(r.column("support.reaction").back() == doctest::Approx(-m * g).epsilon(1e-9));  // pushed down
  }
  SUBCASE("mass hanging below the support: x_support - x = L0 + m g / k, spring stretched") {
    n["connections"] = R"([["mass.p", "spring.a"], ["support.p", "spring.b"],
                           ["mass.p", "damper.a"], ["support.p", "damper.b"]])"_json;
    n["components"]["mass"]["initial"]["x"] = 0.5;
    RunResult r = test::run(n.dump());
    REQUIRE(r.finished);
    const double x_eq = xf - L0 - m * g / k;  // 0.6019 m
    MESSAGE("x(5 s) - x_eq = " << r.column("mass.x").back() - x_eq);
    CHECK(std::abs(r.column("mass.x").back() - x_eq) < 1e-9);
    CHECK(std::abs(r.column("mass.v").back()) < 1e-9);
    CHECK(r.column("spring.force").back() == doctest::Approx(m * g).epsilon(1e-9));  // tension
    CHECK(r.column("support.reaction").back() == doctest::Approx(-m * g).epsilon(1e-9));  // pulled down
  }
}
