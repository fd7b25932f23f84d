// Event location: a mass released from height h hits an end stop at t = sqrt(2h/g).
#include <cmath>

#include "jourdain_test.hpp"

using namespace jourdain;

namespace {

std::string drop(const std::string& method, double h) {
  return R"({
    "components": {
      "ball": {"type": "mechanical1d.mass",
               "params": {"inclination": "90 deg", "x_min": 0, "restitution": 0.5},
               "initial": {"x": )" + std::to_string(h) + R"(}}
    },
    "record": ["ball.x", "ball.v"],
    "solver": {"method": ")" + method + R"(", "t_end": 1, "rtol": 1e-10, "atol": 1e-12, "step": 1e-3,
               "output_interval": 0.05, "event_tolerance": 1e-12}
  })";
}

}  // namespace

TEST_CASE("impact time agrees with sqrt(2h/g) for every solver") {
  const double h = 1.25, g = 9.81;
  const double t_impact = std::sqrt(2.0 * h / g);
  for (std::string method : {"rk4", "dopri5", "bdf", "adams"}) {
    CAPTURE(method);
    RunResult r = jourdain::test::run(drop(method, h));
    REQUIRE(r.finished);
    REQUIRE(!r.events.empty());
    const auto& first = r.events.front();
    CHECK(first.component == "ball");
    CHECK(first.description.find("bounces") != std::string::npos);
    const double error = std::abs(first.time - t_impact);
    MESSAGE(method << ": impact at " << first.time << " s, error " << error << " s");
    // Free fall is a quadratic in t: rk4 and dopri5 integrate it exactly, so the only error
    // is the bisection bracket (event_tolerance = 1e-12 s). CVODE places roots to about
    // 100 ulp of t times its step, on a BDF or Adams solution accurate to rtol = 1e-10.
    CHECK(error < (method == "bdf" || method == "adams" ? 1e-8 : 1e-11));
    // A row is recorded just before and just after the impact: the velocity jumps there.
    auto t = r.column("time"), v = r.column("ball.v");
    bool jump = false;
    for (size_t i = 1; i < t.size(); ++i)
      if (t[i] == t[i - 1] && v[i - 1] < 0 && v[i] > 0) {
        jump = true;
        CHECK(v[i] == doctest::Approx(-0.5 * v[i - 1]).epsilon(1e-9));
      }
    CHECK(jump);
  }
}

TEST_CASE("events are listed in the run's summary") {
  RunResult r = jourdain::test::run(drop("dopri5", 1.0));
  REQUIRE(r.finished);
  REQUIRE(r.summary["events"].size() == r.events.size());
  CHECK(r.summary["events"][0]["component"] == "ball");
  CHECK(r.summary["statistics"]["events"].get<long>() >= static_cast<long>(r.events.size()));
}
