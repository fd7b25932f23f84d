// A stiff model: a 1 g mass between a 10 kN/m spring and a 1 kN·s/m damper. Its
// eigenvalues are about -c/m = -1e6 1/s and -k/c = -10 1/s: explicit methods are held to
// steps of ~3/1e6 s by stability, while BDF steps follow the slow mode.
#include <cmath>

#include "jourdain/units.hpp"
#include "jourdain_test.hpp"
#include "oscillator.hpp"

using namespace jourdain;

TEST_CASE("CVODE BDF solves the stiff oscillator in few steps where DOPRI5 needs very many") {
  jourdain::test::Oscillator osc;
  osc.m = 1e-3;
  osc.k = 1e4;
  osc.c = 1e3;
  const std::string common = R"(, "t_end": 1, "rtol": 1e-6, "atol": 1e-10, "output_interval": 0.01})";
  RunResult bdf = jourdain::test::run(osc.netlist(R"({"method": "bdf")" + common));
  RunResult dp = jourdain::test::run(osc.netlist(R"({"method": "dopri5")" + common));
  REQUIRE(bdf.finished);
  REQUIRE(dp.finished);
  MESSAGE("steps: bdf " << bdf.stats.steps << " (" << bdf.stats.jacobian_evaluations << " Jacobians), dopri5 "
                        << dp.stats.steps << " (" << dp.stats.rejected_steps << " rejected)");
  // Stability bounds DOPRI5's step by about 3.3/|λ_fast| = 3.3e-6 s: ≥ 3e5 steps for 1 s.
  CHECK(dp.stats.steps > 100000);
  CHECK(bdf.stats.steps < 1000);
  CHECK(bdf.stats.jacobian_evaluations > 0);
  // Both are accurate: the slow mode x ≈ x0 e^{-10 t} (closed form in oscillator.hpp).
  auto t = bdf.column("time"), x = bdf.column("mass.x");
  double err = 0.0;
  for (size_t i = 0; i < t.size(); ++i) err = std::max(err, std::abs(x[i] - osc.x(t[i])));
  MESSAGE("bdf max error " << err);
  CHECK(err < 1e-5 * osc.x0 * 20);
}

// Issue 18, D18: a fixed step beyond rk4's stability limit for a stiff circuit ended with
// exit 0 and a sawtooth. A flow source Q fills a volume V limited by a relief valve (p_c,
// gradient G): once open, dp/dt = β/V (Q − G (p − p_c)), a mode λ = −βG/V, and a steady
// pressure p_c + Q/G.
TEST_CASE("rk4 beyond its stability limit on a stiff circuit warns, naming the step and the mode") {
  auto circuit = [](double step, const std::string& flow = "20 L/min", double t_end = 0.2) {
    return R"({"world": {"fluid": {"bulk_modulus": "1.5 GPa"}},
      "components": {
        "source": {"type": "hydraulic.flow_source", "params": {"flow": ")" + flow + R"("}},
        "line": {"type": "hydraulic.volume", "params": {"volume": "0.05 L"}},
        "relief": {"type": "hydraulic.relief_valve", "params": {"cracking_pressure": "100 bar", "gradient": "5 L/min/bar"}},
        "tank": {"type": "hydraulic.tank"}},
      "connections": [["source.p", "line.p1"], ["relief.p", "line.p1"], ["relief.t", "tank.p"]],
      "record": ["line.p"],
      "solver": {"method": "rk4", "t_end": )" + std::to_string(t_end) + R"(, "output_interval": 0.001, "step": )" +
           std::to_string(step) + "}}";
  };
  const double beta = 1.5e9, volume = 0.05e-3, gradient = 5.0 / 60000.0 / 1e5, flow = 20.0 / 60000.0;
  const double lambda = beta * gradient / volume;  // 2.5e4 1/s: rk4 is stable for h < 2.785/λ = 111 µs
  const double p_steady = 100e5 + flow / gradient;
  auto stability_warnings = [](const RunResult& r) {
    std::vector<std::string> out;
    for (const auto& w : r.warnings)
      if (w.find("beyond the method's stability limit") != std::string::npos) out.push_back(w);
    return out;
  };
  SUBCASE("h = 200 µs: h|λ| = 5, a sawtooth") {
    RunResult r = jourdain::test::run(circuit(200e-6));
    REQUIRE(r.finished);
    const auto warnings = stability_warnings(r);
    REQUIRE(warnings.size() == 1);
    // The power iteration's ρ(J) against λ of the closed form, to the 3 significant digits printed.
    const std::string w = warnings[0];
    const auto at = w.find("ρ ≈ ");
    REQUIRE(at != std::string::npos);
    CHECK(std::stod(w.substr(at + std::string("ρ ≈ ").size())) == doctest::Approx(lambda).epsilon(5e-3));
    CHECK(w.find("h ρ(J) = 5 > 2.79") != std::string::npos);
    CHECK(w.find("use a step below 0.000111 s") != std::string::npos);
    // And the warning is right: the pressure saws instead of settling.
    auto p = r.column("line.p");
    CHECK(std::abs(p.back() - p_steady) > 0.01 * p_steady);
  }
  // Issue 38, point 5: with other flows the sawtooth's every step ends with the valve
  // closed (the pressure rises past p_c and the open valve's overshoot pulls it back below
  // within the step): the Jacobian at the steps' ends has no fast mode, only the stages
  // inside the steps meet it, and the run ended "finished" without the warning.
  SUBCASE("h = 200 µs, the valve open only inside the steps: still warned") {
    for (const char* flow : {"5 L/min", "40 L/min"}) {
      CAPTURE(flow);
      RunResult r = jourdain::test::run(circuit(200e-6, flow, 1.0));
      REQUIRE(r.finished);
      const auto warnings = stability_warnings(r);
      REQUIRE(warnings.size() == 1);
      const auto at = warnings[0].find("ρ ≈ ");
      REQUIRE(at != std::string::npos);
      CHECK(std::stod(warnings[0].substr(at + std::string("ρ ≈ ").size())) == doctest::Approx(lambda).epsilon(5e-3));
      const double steady = 100e5 + parse_quantity(flow, "m^3/s") / gradient;
      auto p = r.column("line.p");
      CHECK(std::abs(p.back() - steady) > 0.01 * (steady - 100e5));  // and it is a sawtooth indeed
    }
  }
  SUBCASE("h = 100 µs: h|λ| = 2.5, stable and right") {
    RunResult r = jourdain::test::run(circuit(100e-6));
    REQUIRE(r.finished);
    CHECK(stability_warnings(r).empty());
    CHECK(r.column("line.p").back() == doctest::Approx(p_steady).epsilon(1e-9));
  }
}
