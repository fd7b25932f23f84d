// mechanical1d.mass end stops: impact times, restitution, resting on a stop and leaving
// it, with the force source as the driver.
#include <algorithm>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

constexpr double g = 9.81;  // the world's default gravity, m/s^2

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The events a component logged whose description contains `part`.
std::vector<EventRecord> events_of(const RunResult& r, const std::string& component, const std::string& part) {
  std::vector<EventRecord> out;
  for (const auto& e : r.events)
    if (e.component == component && contains(e.description, part)) out.push_back(e);
  return out;
}

}  // namespace

TEST_CASE("a dropped mass hits the lower stop at sqrt(2h/g), with every solver") {
  const double h = 0.8;
  const double t_impact = std::sqrt(2 * h / g), v_impact = std::sqrt(2 * g * h);
  json n = R"({
    "components": {
      "ball": {"type": "mechanical1d.mass",
               "params": {"mass": "2 kg", "inclination": "90 deg", "x_min": "0 m", "restitution": 0.6},
               "initial": {"x": "800 mm"}}
    },
    "record": ["ball.x", "ball.v"],
    "solver": {"t_end": 0.6, "rtol": 1e-10, "atol": 1e-12, "step": 1e-3, "output_interval": 0.05,
               "event_tolerance": 1e-12}
  })"_json;
  for (std::string method : {"rk4", "dopri5", "bdf"}) {
    CAPTURE(method);
    n["solver"]["method"] = method;
    RunResult r = test::run(n.dump());
    INFO(r.failure);
    REQUIRE(r.finished);
    auto bounces = events_of(r, "ball", "bounces on the lower end stop");
    REQUIRE(bounces.size() == 1);  // the second impact comes at 3 t_impact ≈ 1.21 s
    const double error = std::abs(bounces[0].time - t_impact);
    MESSAGE(method << ": impact at " << bounces[0].time << " s, error " << error << " s");
    if (method == "bdf") {
      // CVODE's root lies on its interpolant, accurate to about rtol * |x| + atol ~ 1e-10 m
      // (a few times more over the ~50 steps to the impact); divided by the impact speed,
      // 3.96 m/s, that is ~1e-10 s; 1e-8 s leaves a factor of 100 for CVODE's global error.
      CHECK(error < 1e-8);
    } else {
      // Free fall is a quadratic: rk4 (cubic Hermite dense output) and dopri5 are exact on it,
      // so only the bisection bracket, event_tolerance = 1e-12 s, remains (plus round-off).
      CHECK(error < 2e-12);
    }
    // Rows just before and after the impact: the speed there is sqrt(2 g h), reversed and
    // scaled by e = 0.6, with the mass placed on the stop.
    auto t = r.column("time"), x = r.column("ball.x"), v = r.column("ball.v");
    bool seen = false;
    for (size_t i = 1; i < t.size(); ++i) {
      if (t[i] != t[i - 1] || !(v[i - 1] < 0 && v[i] > 0)) continue;
      seen = true;
      // bdf: velocity error ~ g * (time error) + CVODE's error in v; 1e-7 relative covers both.
      CHECK(-v[i - 1] == doctest::Approx(v_impact).epsilon(method == "bdf" ? 1e-7 : 1e-10));
      CHECK(v[i] == doctest::Approx(-0.6 * v[i - 1]).epsilon(1e-14));  // v+ = -e v-, exactly
      CHECK(x[i] == 0.0);
    }
    CHECK(seen);
  }
}

TEST_CASE("restitution: successive apex heights scale by e^2") {
  const double e = 0.7, h = 1.0;
  json n = R"({
    "components": {
      "ball": {"type": "mechanical1d.mass",
               "params": {"inclination": "90 deg", "x_min": 0, "restitution": 0.7},
               "initial": {"x": 1}}
    },
    "record": ["ball.x", "ball.v"],
    "solver": {"method": "dopri5", "t_end": 2.35, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01,
               "event_tolerance": 1e-12}
  })"_json;
  RunResult r = test::run(n.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  auto impacts = events_of(r, "ball", "bounces");
  // Impacts at 0.452, 1.084, 1.526, 1.836, 2.053, 2.205, 2.311 s (the next at 2.385 s):
  // six complete flights.
  REQUIRE(impacts.size() == 7);
  // Apex of each flight: the highest recorded row between two impacts. The top of a flight
  // is itself an event (v = 0), so a row is recorded there, within 1e-12 s of it:
  // x misses the apex by g dt^2 / 2 ~ 1e-23 m.
  auto t = r.column("time"), x = r.column("ball.x");
  std::vector<double> apex;
  for (size_t k = 0; k + 1 < impacts.size(); ++k) {
    double top = 0.0;
    for (size_t i = 0; i < t.size(); ++i)
      if (t[i] > impacts[k].time && t[i] < impacts[k + 1].time) top = std::max(top, x[i]);
    apex.push_back(top);
  }
  // Flight times also follow: the k-th flight lasts 2 e^k sqrt(2 h / g).
  const double t1 = std::sqrt(2 * h / g);
  double expected_height = h, expected_time = t1;
  for (size_t k = 0; k < apex.size(); ++k) {
    expected_height *= e * e;
    CAPTURE(k);
    MESSAGE("apex " << k + 1 << ": " << apex[k] << " m, relative error " << (apex[k] / expected_height - 1));
    // dopri5 is exact on each parabola. Each impact is handled up to event_tolerance =
    // 1e-12 s past the crossing, with the mass put back on the stop: the energy gains
    // g |x| = g v dt, a relative error 2 g dt / v = 2e-11 / v(m/s) in the height. Summed
    // over the six impacts (v from 4.43 down to 0.74 m/s, sum of 1/v = 3.95 s/m) that is
    // 8e-11: the bound is 1e-10 relative. (Later bounces, slower, lose this accuracy as
    // 1/v grows: only these six are checked.)
    CHECK(apex[k] == doctest::Approx(expected_height).epsilon(1e-10));
    if (k > 0) CHECK(apex[k] / apex[k - 1] == doctest::Approx(e * e).epsilon(1e-10));
    CHECK(impacts[k].time == doctest::Approx(expected_time).epsilon(1e-10));
    expected_time += 2 * std::pow(e, k + 1) * t1;
  }
}

TEST_CASE("a force source pushes a mass onto its upper stop, where it comes to rest") {
  // 2 kg, horizontal, 4 N from a signal.constant: x = t^2 until x_max = 0.25 m at t = 0.5 s,
  // hit at 1 m/s; with e = 0 it stays there and the stop holds the 4 N.
  json n = R"({
    "components": {
      "push":   {"type": "signal.constant", "params": {"value": 4}},
      "source": {"type": "mechanical1d.force_source"},
      "cart":   {"type": "mechanical1d.mass", "params": {"mass": "2 kg", "x_max": "250 mm"}}
    },
    "connections": [["push.out", "source.f"], ["source.p", "cart.p"]],
    "record": ["cart.x", "cart.v", "cart.a", "cart.stop_force", "cart.contact"],
    "solver": {"t_end": 1, "rtol": 1e-10, "atol": 1e-12, "step": 1e-3, "output_interval": 0.01,
               "event_tolerance": 1e-12}
  })"_json;
  for (std::string method : {"rk4", "dopri5", "bdf"}) {
    CAPTURE(method);
    n["solver"]["method"] = method;
    RunResult r = test::run(n.dump());
    INFO(r.failure);
    REQUIRE(r.finished);
    REQUIRE(r.events.size() == 1);
    CHECK(r.events[0].component == "cart");
    CHECK(contains(r.events[0].description, "comes to rest on the upper end stop"));
    MESSAGE(method << ": hit at " << r.events[0].time << " s, error " << r.events[0].time - 0.5 << " s");
    // As for the dropped mass: exact quadratic flight for rk4 and dopri5, so the bracket
    // (1e-12 s); for bdf, position error ~ rtol over a 1 m/s impact, with margin.
    CHECK(std::abs(r.events[0].time - 0.5) < (method == "bdf" ? 1e-8 : 2e-12));
    auto t = r.column("time"), x = r.column("cart.x"), v = r.column("cart.v"), a = r.column("cart.a"),
         sf = r.column("cart.stop_force"), contact = r.column("cart.contact");
    for (size_t i = 0; i < t.size(); ++i) {
      CAPTURE(t[i]);
      if (t[i] < 0.5 - 1e-6) {  // pushed along +x: a = F / m exactly
        CHECK(a[i] == 2.0);
        CHECK(sf[i] == 0.0);
        CHECK(contact[i] == 0.0);
      } else if (t[i] > 0.5 + 1e-6) {  // resting on the stop, which pushes back with -4 N
        CHECK(x[i] == 0.25);
        CHECK(v[i] == 0.0);
        CHECK(a[i] == 0.0);
        CHECK(sf[i] == -4.0);
        CHECK(contact[i] == 1.0);
      }
    }
  }
}

TEST_CASE("a mass resting on its stop leaves it when a stepped force pulls it away") {
  // 1 kg on a vertical axis, resting on x_min = 0. The force source presses it down with
  // 5 N, then at t = 0.5 s pulls it up with 2 m g: it must leave at once, and rise as
  // x = (2 g - g) (t - 0.5)^2 / 2. The force jumps across zero at the signal's event.
  const double F = 2 * g, ts = 0.5;
  json n = R"({
    "components": {
      "cmd":    {"type": "signal.step", "params": {"step_time": 0.5, "before": -5, "after": 19.62}},
      "source": {"type": "mechanical1d.force_source"},
      "ball":   {"type": "mechanical1d.mass", "params": {"inclination": "90 deg", "x_min": 0},
                 "initial": {"x": 0, "v": 0}}
    },
    "connections": [["cmd.out", "source.f"], ["source.p", "ball.p"]],
    "record": ["ball.x", "ball.v", "ball.force", "ball.stop_force", "ball.contact"],
    "solver": {"t_end": 1, "rtol": 1e-10, "atol": 1e-12, "step": 1e-3, "output_interval": 0.01,
               "event_tolerance": 1e-12}
  })"_json;
  for (std::string method : {"rk4", "dopri5", "bdf"}) {
    CAPTURE(method);
    n["solver"]["method"] = method;
    RunResult r = test::run(n.dump());
    INFO(r.failure);
    REQUIRE(r.finished);
    auto leave = events_of(r, "ball", "leaves the lower end stop");
    REQUIRE(leave.size() == 1);
    MESSAGE(method << ": leave event logged at " << leave[0].time << " s");
    // The force jumps across zero at the step's event; leave_stop crosses with it and is
    // handled at the same instant (Model::handle_zero_crossings). The step itself is
    // located to event_tolerance = 1e-12 s (rk4, dopri5) or CVODE's root tolerance.
    CHECK(std::abs(leave[0].time - ts) < (method == "bdf" ? 1e-9 : 1e-11));
    auto t = r.column("time"), x = r.column("ball.x"), f = r.column("ball.force"), sf = r.column("ball.stop_force"),
         contact = r.column("ball.contact");
    double max_error = 0.0;
    for (size_t i = 0; i < t.size(); ++i) {
      CAPTURE(t[i]);
      if (t[i] < ts) {  // resting: the stop carries the weight and the 5 N push
        CHECK(x[i] == 0.0);
        CHECK(contact[i] == -1.0);
        CHECK(f[i] == doctest::Approx(-g - 5).epsilon(1e-14));
        CHECK(sf[i] == -f[i]);
      } else if (t[i] > ts + 1e-3) {
        CHECK(contact[i] == 0.0);
        CHECK(sf[i] == 0.0);
        const double dt = t[i] - ts;
        max_error = std::max(max_error, std::abs(x[i] - 0.5 * (F - g) * dt * dt));
      }
    }
    MESSAGE(method << ": max |x error| after leaving " << max_error << " m");
    // rk4, dopri5: exact parabolas from a start located to 1e-12 s (x error ~ v * 1e-12
    // < 1e-11 m). bdf: rtol * |x| + atol ~ 1e-10 m per step, grown over ~100 steps.
    CHECK(max_error < (method == "bdf" ? 1e-7 : 1e-10));
  }
}

TEST_CASE("a mass leaves its stop exactly when a ramped force overcomes its weight") {
  // f = 20 t (signal.integrator of 20): the pull overcomes m g = 9.81 N at tl = 0.4905 s,
  // a smooth zero crossing of the applied force; then x = 20 (t - tl)^3 / (6 m).
  const double rate = 20.0, tl = g / rate;
  json n = R"({
    "components": {
      "rate":   {"type": "signal.constant", "params": {"value": 20}},
      "ramp":   {"type": "signal.integrator"},
      "source": {"type": "mechanical1d.force_source"},
      "ball":   {"type": "mechanical1d.mass", "params": {"inclination": "90 deg", "x_min": 0}}
    },
    "connections": [["rate.out", "ramp.in"], ["ramp.out", "source.f"], ["source.p", "ball.p"]],
    "record": ["ball.x", "ball.force", "ball.stop_force", "ball.contact"],
    "solver": {"method": "dopri5", "t_end": 1, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.01,
               "event_tolerance": 1e-12}
  })"_json;
  RunResult r = test::run(n.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].description == "leaves the lower end stop");
  MESSAGE("leave at " << r.events[0].time << " s, error " << r.events[0].time - tl);
  // The crossing, 20 t - m g, is linear in t and integrated exactly: only the bracket remains.
  CHECK(std::abs(r.events[0].time - tl) < 2e-12);
  auto t = r.column("time"), x = r.column("ball.x"), f = r.column("ball.force"), sf = r.column("ball.stop_force"),
       contact = r.column("ball.contact");
  double max_error = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (contact[i] == -1.0) {  // resting, up to and including the row just before the event
      CHECK(t[i] <= r.events[0].time);
      CHECK(x[i] == 0.0);
      CHECK(sf[i] == -f[i]);  // the stop holds exactly what the weight and the pull leave
      CHECK(sf[i] == doctest::Approx(g - rate * t[i]).epsilon(1e-12).scale(1.0));
    } else {
      CHECK(sf[i] == 0.0);
      const double dt = t[i] - tl;
      max_error = std::max(max_error, std::abs(x[i] - rate * dt * dt * dt / 6));
    }
  }
  MESSAGE("max |x error| after leaving " << max_error << " m");
  // The event restarts the integration at the located leave time from x = 0, v = 0; the
  // free motion is then a cubic, which dopri5 integrates exactly. What remains is the
  // location error δ <= 2e-12 s, which shifts the cubic: |dx/dtl| = rate dt^2 / 2 <= 2.6 m/s
  // over the run, so the error stays below 2.6 * 2e-12 ≈ 5e-12 m.
  CHECK(max_error < 1e-11);
}

TEST_CASE("a mass stopped dead on its upper stop falls back at once when gravity pulls it away") {
  // Thrown up at 4 m/s towards x_max = 0.5 m with e = 0: it arrives at
  // sqrt(16 - 2 g 0.5) = 2.488 m/s at t_hit = (4 - 2.488) / g, stops (below rest_velocity),
  // and since nothing presses it onto the stop it falls: x = 0.5 - g (t - t_hit)^2 / 2.
  const double v_hit = std::sqrt(16 - 2 * g * 0.5), t_hit = (4 - v_hit) / g;
  json n = R"({
    "components": {
      "ball": {"type": "mechanical1d.mass", "params": {"inclination": "90 deg", "x_max": 0.5, "restitution": 0},
               "initial": {"x": 0, "v": 4}}
    },
    "record": ["ball.x", "ball.v", "ball.stop_force", "ball.contact"],
    "solver": {"t_end": 0.6, "rtol": 1e-10, "atol": 1e-12, "step": 1e-3, "output_interval": 0.01,
               "event_tolerance": 1e-12}
  })"_json;
  for (std::string method : {"rk4", "dopri5", "bdf"}) {
    CAPTURE(method);
    n["solver"]["method"] = method;
    RunResult r = test::run(n.dump());
    INFO(r.failure);
    REQUIRE(r.finished);
    REQUIRE(r.events.size() == 2);
    CHECK(contains(r.events[0].description, "comes to rest on the upper end stop"));
    CHECK(contains(r.events[1].description, "leaves the upper end stop"));
    // bdf places the impact to ~1e-11 s (see the dropped mass); rk4, dopri5 to the bracket.
    CHECK(std::abs(r.events[0].time - t_hit) < (method == "bdf" ? 1e-8 : 2e-12));
    // Nothing presses it on the stop: leave_stop rises through zero as the contact starts,
    // and the mass leaves at the same instant.
    CHECK(r.events[1].time == r.events[0].time);
    auto t = r.column("time"), x = r.column("ball.x"), sf = r.column("ball.stop_force");
    double max_error = 0.0;
    for (size_t i = 0; i < t.size(); ++i) {
      // The row recorded just before the impact lies up to event_tolerance past the
      // crossing: 2.5 m/s * 1e-12 s beyond the stop at most.
      CHECK(x[i] <= 0.5 + 1e-11);
      CHECK(sf[i] == 0.0);  // the stop never holds the mass: nothing presses it there
      if (t[i] > t_hit + 1e-6) max_error = std::max(max_error, std::abs(x[i] - (0.5 - 0.5 * g * std::pow(t[i] - t_hit, 2))));
    }
    MESSAGE(method << ": max |x error| after the impact " << max_error << " m");
    // rk4, dopri5: exact parabola from a restart placed to 1e-12 s (x error < g t 1e-12).
    // bdf: impact time error 1e-11 s times the fall speed, plus CVODE's error of
    // ~rtol |x| per step over ~100 steps: 1e-7 m.
    CHECK(max_error < (method == "bdf" ? 1e-7 : 1e-10));
  }
}

TEST_CASE("a mass launched into its stop at t0 bounces instead of passing through") {
  json n = R"({
    "components": {
      "ball": {"type": "mechanical1d.mass", "params": {"x_min": 0, "restitution": 0.5},
               "initial": {"x": 0, "v": -2}}
    },
    "record": ["ball.x", "ball.v"],
    "solver": {"method": "dopri5", "t_end": 1, "rtol": 1e-10, "atol": 1e-12}
  })"_json;
  RunResult r = test::run(n.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].time == 0.0);
  CHECK(contains(r.events[0].description, "bounces on the lower end stop"));
  // Horizontal and frictionless: after the impact at t = 0 it moves at +1 m/s for ever.
  CHECK(r.column("ball.x").back() == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(r.column("ball.v").back() == 1.0);
}
