// The flow divider/combiner: two branches in the ratio r : (1 − r) whatever their loads,
// dividing and combining.
#include <cmath>

#include "hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

json divider_circuit(double inlet_pressure, double load_a, double load_b) {
  auto source = [](double p) { return json{{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", p}}}}; };
  return circuit({{"inlet", source(inlet_pressure)},
                  {"load_a", source(load_a)},
                  {"load_b", source(load_b)},
                  {"divider",
                   {{"type", "hydraulic.flow_divider"},
                    {"params",
                     {{"ratio", 0.3}, {"rated_flow", "40 L/min"}, {"rated_pressure_drop", "10 bar"}, {"critical_flow_number", 10}}}}}},
                 {{"inlet.p", "divider.p"}, {"load_a.p", "divider.a"}, {"load_b.p", "divider.b"}},
                 {"divider.flow_a", "divider.flow_b", "divider.power_loss"},
                 {{"method", "rk4"}, {"t_end", 0.01}, {"step", 1e-3}});
}

}  // namespace

TEST_CASE("flow divider: the branches keep the ratio r : (1 − r) whatever their loads; the drop is over the higher") {
  // Inlet at 150 bar, loads 50 and 130 bar: both metering orifices see 150 − 130 = 20 bar,
  // twice the rated drop, so the total is q_n sqrt(2) and a takes r of it.
  const double qn = 40e-3 / 60.0;
  for (const auto& loads : {std::array<double, 2>{50e5, 130e5}, std::array<double, 2>{130e5, 50e5}}) {
    CAPTURE(loads[0]);
    RunResult r = run_circuit(divider_circuit(150e5, loads[0], loads[1]));
    const double qa = last(r, "divider.flow_a"), qb = last(r, "divider.flow_b");
    CHECK(qa / qb == doctest::Approx(0.3 / 0.7).epsilon(1e-12));
    CHECK(qa + qb == doctest::Approx(qn * std::sqrt(2.0)).epsilon(1e-9));
    // The loss is the whole drop from the inlet to each load: (p − p_a) q_a + (p − p_b) q_b.
    CHECK(last(r, "divider.power_loss") ==
          doctest::Approx((150e5 - loads[0]) * qa + (150e5 - loads[1]) * qb).epsilon(1e-12));
  }
}

TEST_CASE("flow combiner: flows from both branches join in the same ratio, and none passes between") {
  const double qn = 40e-3 / 60.0;
  // Outlet at 20 bar, branches at 60 and 30 bar: the drop is 30 − 20 = 10 bar, the rated one.
  RunResult r = run_circuit(divider_circuit(20e5, 60e5, 30e5));
  const double qa = last(r, "divider.flow_a"), qb = last(r, "divider.flow_b");
  CHECK(qa / qb == doctest::Approx(0.3 / 0.7).epsilon(1e-12));
  CHECK(qa + qb == doctest::Approx(-qn).epsilon(1e-9));
  // With the common port between the branches' pressures the spool sits at its stop.
  RunResult between = run_circuit(divider_circuit(40e5, 60e5, 30e5));
  CHECK(last(between, "divider.flow_a") == 0.0);
  CHECK(last(between, "divider.flow_b") == 0.0);
}
