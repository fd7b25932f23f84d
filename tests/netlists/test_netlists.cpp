// Every netlist in netlists/ is run here and checked against a physical property.
#include <cmath>
#include <set>

#include "jourdain_test.hpp"

using namespace jourdain;
using jourdain::test::netlist_path;
using jourdain::test::run_file;

TEST_CASE("every netlist in netlists/ has a test here") {
  // Keep this list in step with the test cases below.
  const std::set<std::string> tested = {"mass_spring_damper", "bouncing_mass", "feedback_amplifier"};
  for (const auto& entry : std::filesystem::directory_iterator(jourdain::test::source_dir() / "netlists")) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path());
    CHECK(tested.count(entry.path().stem().string()) == 1);
  }
}

TEST_CASE("mass_spring_damper follows the closed form of the damped oscillator") {
  RunResult r = run_file(netlist_path("mass_spring_damper"));
  REQUIRE(r.finished);
  const double m = 1.0, k = 100.0, c = 2.0, x0 = 0.1;
  const double w0 = std::sqrt(k / m), zeta = c / (2 * std::sqrt(k * m)), wd = w0 * std::sqrt(1 - zeta * zeta);
  auto t = r.column("time"), x = r.column("mass.x"), fs = r.column("spring.force"), fw = r.column("wall.reaction");
  auto a = r.column("mass.a"), fd = r.column("damper.force");
  double err = 0.0;
  for (size_t i = 0; i < t.size(); ++i) {
    const double exact = x0 * std::exp(-zeta * w0 * t[i]) * (std::cos(wd * t[i]) + zeta * w0 / wd * std::sin(wd * t[i]));
    err = std::max(err, std::abs(x[i] - exact));
    // Newton's second law and the wall reaction balance at every row, to rounding.
    CHECK(m * a[i] == doctest::Approx(-fs[i] - fd[i]).epsilon(1e-9).scale(1.0));
    CHECK(fw[i] == doctest::Approx(fs[i] + fd[i]).epsilon(1e-12).scale(1.0));
  }
  MESSAGE("max |x - x_exact| = " << err << " m (rtol 1e-8)");
  // dopri5 at rtol 1e-8: global error within 2 rtol x0 (see tests/solvers/test_accuracy.cpp).
  CHECK(err < 2e-8 * x0);
}

TEST_CASE("bouncing_mass: impact times, apex heights e^2 h, then rest carrying m g") {
  RunResult r = run_file(netlist_path("bouncing_mass"));
  REQUIRE(r.finished);
  const double g = 9.81, h = 1.0, e = 0.8;
  std::vector<double> impacts;
  for (const auto& ev : r.events)
    if (ev.description.find("bounces") != std::string::npos || ev.description.find("comes to rest") != std::string::npos)
      impacts.push_back(ev.time);
  REQUIRE(impacts.size() > 10);
  // Impact k happens at t1 (1 + 2e + 2e^2 + ... + 2e^(k-1)), t1 = sqrt(2h/g).
  const double t1 = std::sqrt(2 * h / g);
  double expected = t1, flight = 2 * t1 * e;
  for (size_t k = 0; k < 8; ++k) {
    CAPTURE(k);
    // Free flight is integrated exactly (a quadratic); only the event bracket, 1e-10 s
    // per impact, accumulates: 1e-9 s is a margin of ten impacts.
    CHECK(std::abs(impacts[k] - expected) < 1e-9);
    expected += flight;
    flight *= e;
  }
  // Apex after bounce k: rows just after the impact give v+, so the rise is v+^2 / 2g.
  auto t = r.column("time"), v = r.column("ball.v");
  std::vector<double> rebound;
  for (size_t i = 1; i < t.size(); ++i)
    if (t[i] == t[i - 1] && v[i - 1] < 0 && v[i] > 0) rebound.push_back(v[i]);
  REQUIRE(rebound.size() > 5);
  for (size_t k = 0; k < 5; ++k) {
    const double apex = rebound[k] * rebound[k] / (2 * g);
    CHECK(apex == doctest::Approx(h * std::pow(e * e, k + 1)).epsilon(1e-9));
  }
  // At the end the mass rests on the stop, which carries its weight.
  CHECK(r.column("ball.contact").back() == -1.0);
  CHECK(r.column("ball.x").back() == 0.0);
  CHECK(r.column("ball.stop_force").back() == doctest::Approx(1.0 * g));
}

TEST_CASE("feedback_amplifier: the loop gives y = A u / (1 + A b) at every row") {
  RunResult r = run_file(netlist_path("feedback_amplifier"));
  REQUIRE(r.finished);
  CHECK(r.summary["schedule"]["algebraic_loops"] == 1);
  const double A = 1e5, b = 0.1;
  auto u = r.column("input.out"), y = r.column("amplifier.out"), err = r.column("error.out");
  double worst = 0.0;
  for (size_t i = 0; i < u.size(); ++i) worst = std::max(worst, std::abs(y[i] / (A * u[i] / (1 + A * b)) - 1.0));
  MESSAGE("largest relative error of y against A u / (1 + A b): " << worst);
  for (size_t i = 0; i < u.size(); ++i) {
    // Newton on a linear loop: exact to rounding of the loop's conditioning (A b = 1e4).
    CHECK(y[i] == doctest::Approx(A * u[i] / (1 + A * b)).epsilon(1e-12));
    CHECK(err[i] == doctest::Approx(u[i] / (1 + A * b)).epsilon(1e-8));
  }
  CHECK(u.front() == 0.2);
  CHECK(u.back() == 1.0);
}
