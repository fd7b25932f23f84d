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
    // Free fall is a quadratic in t: rk4 and dopri5 integrate it exactly, and the Illinois
    // bracket, polished past the secant root, places a smooth crossing to a few rounding
    // units of t (1e-13 s leaves room for 100 of them). CVODE places roots to about 100 ulp
    // of t times its step, on a BDF or Adams solution accurate to rtol = 1e-10.
    CHECK(error < (method == "bdf" || method == "adams" ? 1e-8 : 1e-13));
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

// Issue 38, point 4: a fast input into a slow model. A 0.37 Hz sine through a comparator
// (high above 0.5, low below -0.5) into a first-order lag of T = 100 s: the lag's state is
// slow, so dopri5's steps grew toward the whole span and stepped over 69 of the 74
// switchings, exit 0. The comparator switches high at ωt = π/6 + 2πk and low at
// ωt = 7π/6 + 2πk (37 periods in 100 s: 74 switchings), and the lag's response to that
// square wave is a chain of exponentials: y ← u + (y − u) e^(−Δt/T) between switchings.
TEST_CASE("a fast input's events are found whatever the slow model's step: sine, comparator, lag") {
  const double f = 0.37, T = 100.0, t_end = 100.0;
  std::vector<double> switchings;  // the closed form's, in order
  for (int k = 0; k < 37; ++k) {
    switchings.push_back((1.0 / 12.0 + k) / f);
    switchings.push_back((7.0 / 12.0 + k) / f);
  }
  double y = 0.0, t = 0.0, u = 0.0;
  for (double ts : switchings) {
    y = u + (y - u) * std::exp(-(ts - t) / T);
    t = ts;
    u = 1.0 - u;
  }
  const double y_end = u + (y - u) * std::exp(-(t_end - t) / T);
  for (std::string method : {"rk4", "dopri5", "bdf"}) {
    CAPTURE(method);
    const RunResult r = jourdain::test::run(R"({
      "components": {
        "wave": {"type": "signal.sine", "params": {"frequency": 0.37}},
        "cmp": {"type": "signal.comparator"},
        "lag": {"type": "signal.first_order_lag", "params": {"T": 100}}},
      "connections": [["wave.out", "cmp.in"], ["cmp.out", "lag.in"]],
      "record": ["lag.out", "cmp.out"],
      "solver": {"method": ")" + method + R"(", "t_end": 100, "output_interval": 0.01, "rtol": 1e-9, "atol": 1e-12}})");
    REQUIRE(r.finished);
    std::vector<double> found;
    for (const auto& e : r.events)
      if (e.component == "cmp") found.push_back(e.time);
    REQUIRE(found.size() == switchings.size());
    double worst = 0.0;
    for (size_t k = 0; k < found.size(); ++k) worst = std::max(worst, std::abs(found[k] - switchings[k]));
    const double y_run = r.column("lag.out").back();
    MESSAGE(method << ": 74 switchings, the worst " << worst << " s off; y(100 s) = " << y_run << " (closed form "
                   << y_end << ", error " << y_run - y_end << ")");
    // rk4 and dopri5 bracket each switching to event_tolerance = 1e-10 s; CVODE places its
    // roots to about 100 rounding units of t times its step. Each switching's time error
    // δ moves y by at most δ/T, the integration error is held to rtol = 1e-9 relative.
    CHECK(worst < 1e-7);
    CHECK(std::abs(y_run - y_end) < 1e-7);
  }
}
