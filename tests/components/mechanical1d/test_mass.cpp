// mechanical1d.mass: free motion along an inclined axis and energy conservation with a
// spring, against closed forms.
#include <algorithm>
#include <cmath>
#include <numbers>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

constexpr double g = 9.81;  // the world's default gravity, m/s^2

}  // namespace

TEST_CASE("free fall along a 30 deg incline: x = x0 + v0 t - g sin(i) t^2 / 2") {
  const double x0 = 2.0, v0 = 3.0, incl = std::numbers::pi / 6;
  json n = R"({
    "components": {
      "slider": {"type": "mechanical1d.mass", "params": {"mass": "3 kg", "inclination": "30 deg"},
                 "initial": {"x": 2, "v": 3}}
    },
    "record": ["slider.x", "slider.v", "slider.a"],
    "solver": {"t_end": 2, "rtol": 1e-10, "atol": 1e-12, "step": 1e-3, "output_interval": 0.02}
  })"_json;
  const double a = -g * std::sin(incl);
  for (std::string method : {"rk4", "dopri5", "bdf"}) {
    CAPTURE(method);
    n["solver"]["method"] = method;
    RunResult r = test::run(n.dump());
    REQUIRE(r.finished);
    auto t = r.column("time"), x = r.column("slider.x"), v = r.column("slider.v"), acc = r.column("slider.a");
    REQUIRE(t.size() == 101);
    double ex = 0.0, ev = 0.0;
    for (size_t k = 0; k < t.size(); ++k) {
      ex = std::max(ex, std::abs(x[k] - (x0 + v0 * t[k] + 0.5 * a * t[k] * t[k])));
      ev = std::max(ev, std::abs(v[k] - (v0 + a * t[k])));
      CHECK(acc[k] == doctest::Approx(a).epsilon(1e-14));  // m g sin(i) / m, no integration involved
    }
    MESSAGE(method << ": max |x error| " << ex << " m, max |v error| " << ev << " m/s");
    if (method == "bdf") {
      // BDF is not exact on a quadratic (its first steps are backward Euler); CVODE keeps
      // the local error below rtol |x| + atol = 1e-10 * 6 m; the global error may grow
      // over the ~100 steps to a few hundred times that: 1e-7 m.
      CHECK(ex < 1e-7);
      CHECK(ev < 1e-7);
    } else {
      // Runge-Kutta methods of order >= 2 integrate x'' = const exactly: what remains is
      // round-off, ~1e-16 relative per step over 2000 (rk4) steps on |x| < 10 m.
      CHECK(ex < 1e-11);
      CHECK(ev < 1e-11);
    }
  }
}

TEST_CASE("undamped mass-spring keeps its energy over 10 periods (dopri5, rtol 1e-10)") {
  const double m = 0.5, k = 200.0, L0 = 0.1;
  const double omega = std::sqrt(k / m), period = 2 * std::numbers::pi / omega;
  json n = R"({
    "components": {
      "wall":   {"type": "mechanical1d.fixed"},
      "spring": {"type": "mechanical1d.spring", "params": {"stiffness": "200 N/m", "free_length": "100 mm"}},
      "mass":   {"type": "mechanical1d.mass", "params": {"mass": "0.5 kg"}, "initial": {"x": 0.15, "v": 0.3}}
    },
    "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"]],
    "record": ["mass.x", "mass.v", "spring.elongation"],
    "solver": {"method": "dopri5", "rtol": 1e-10, "atol": 1e-12}
  })"_json;
  n["solver"]["t_end"] = 10 * period;
  n["solver"]["output_interval"] = period / 50;
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  auto t = r.column("time"), x = r.column("mass.x"), v = r.column("mass.v"), d = r.column("spring.elongation");
  auto energy = [&](size_t i) { return 0.5 * m * v[i] * v[i] + 0.5 * k * d[i] * d[i]; };
  const double e0 = energy(0);
  CHECK(e0 == doctest::Approx(0.5 * m * 0.09 + 0.5 * k * 0.0025));
  double drift = 0.0, phase_error = 0.0;
  const double amp_x = 0.05, amp_v = 0.3 / omega;
  for (size_t i = 0; i < t.size(); ++i) {
    drift = std::max(drift, std::abs(energy(i) - e0) / e0);
    const double exact = L0 + amp_x * std::cos(omega * t[i]) + amp_v * std::sin(omega * t[i]);
    phase_error = std::max(phase_error, std::abs(x[i] - exact));
  }
  MESSAGE("energy drift " << drift << " over " << r.stats.steps << " steps; max |x error| " << phase_error << " m");
  CHECK(t.back() == doctest::Approx(10 * period).epsilon(1e-12));
  // Each step's error is below rtol relative to the state (atol is negligible against
  // the amplitudes 0.05 m and 0.3 m/s), so the energy, a quadratic, changes by at most
  // 2 rtol per step: 2 * 1e-10 * steps bounds the drift (3.4e-7 for the ~1700 steps of
  // this run; measured: 3.8e-9).
  CHECK(drift < 2e-10 * static_cast<double>(r.stats.steps));
  // The same bound on the trajectory: |error| < steps * rtol * 0.1 m.
  CHECK(phase_error < 1e-10 * static_cast<double>(r.stats.steps) * 0.1);
}
