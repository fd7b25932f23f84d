// A stiff model: a 1 g mass between a 10 kN/m spring and a 1 kN·s/m damper. Its
// eigenvalues are about -c/m = -1e6 1/s and -k/c = -10 1/s: explicit methods are held to
// steps of ~3/1e6 s by stability, while BDF steps follow the slow mode.
#include <cmath>

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
