// Orifice and valves: the orifice law both ways and through its laminar region; the
// relief valve's steady pressure against flow (with and without poppet dynamics, and its
// hysteresis); check, pilot-operated check and counterbalance valves; the directional
// valves' paths, overlaps and centres; spool dynamics.
#include <cmath>
#include <map>

#include "hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const double rho = 850.0, nu = 4.6e-5;  // the default fluid


json source(double p) { return {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", p}}}}; }

const json quick = {{"method", "dopri5"}, {"t_end", 0.01}, {"output_interval", 0.005}};

}  // namespace

TEST_CASE("orifice: turbulent law both ways, and a continuous laminar region through zero") {
  // The pressure at a sweeps −2 MPa ... +2 MPa (a ramp driving a pressure source); b is
  // the tank. The flow is an algebraic function of Δp: each row is checked against the law.
  const double cd = 0.65, d = 0.002, A = pi * d * d / 4, lc = 200;
  json n =
      circuit({{"ramp", {{"type", "signal.ramp"}, {"params", {{"start_time", 0}, {"slope", 1e6}, {"offset", -2e6}}}}},
               {"pa", {{"type", "hydraulic.pressure_source"}, {"params", {{"source", "signal"}}}}},
               {"tank", {{"type", "hydraulic.tank"}}},
               {"orifice",
                {{"type", "hydraulic.orifice"},
                 {"params", {{"diameter", d}, {"discharge_coefficient", cd}, {"critical_flow_number", lc}}}}}},
              {{"ramp.out", "pa.command"}, {"pa.p", "orifice.a"}, {"tank.p", "orifice.b"}},
              {"orifice.flow", "orifice.pressure_drop", "tank.flow"},
              {{"method", "rk4"}, {"t_end", 4.0}, {"step", 1e-4}, {"output_interval", 1e-3}});
  RunResult r = run_circuit(n);
  const auto dp = r.column("orifice.pressure_drop"), q = r.column("orifice.flow"), tank = r.column("tank.flow");
  for (size_t k = 0; k < dp.size(); ++k) {
    CHECK(q[k] == doctest::Approx(orifice_law(cd, A, dp[k], lc)).epsilon(1e-12));
    CHECK(tank[k] == doctest::Approx(q[k]).epsilon(1e-12));  // what leaves a reaches b
    if (k > 0) CHECK(q[k] >= q[k - 1]);                      // monotone in Δp
  }
  // Far from 0 the law is turbulent: at 2 MPa, λ = 2·10⁴ >> λ_crit, tanh(2λ/λ_crit) = 1.
  CHECK(q.back() == doctest::Approx(turbulent_flow(cd, A, 2e6, rho)).epsilon(1e-12));
  CHECK(q.front() == doctest::Approx(-q.back()).epsilon(1e-12));  // antisymmetric
  // Near 0 it is laminar, q = 4 C_d A D_h Δp / (ν λ_crit ρ): the slopes on both sides of
  // zero meet (the rows at ±1 kPa differ from the limit by O(λ²/λ_crit²) ~ 1e-3).
  const double slope0 = 4 * cd * A * d / (nu * lc * rho);
  for (double small : {-1e3, 1e3}) {
    const double qs = orifice_law(cd, A, small, lc);
    CHECK(qs / small == doctest::Approx(slope0).epsilon(2e-3));
  }
}

TEST_CASE("relief valve: steady pressure p = p_c + Q/G against flow, with and without poppet dynamics") {
  // A pump delivers Q into a 10 L volume guarded by a relief valve (p_c = 10 MPa,
  // G = 2e-9 m³/(s Pa)); in steady state the valve passes Q at p_c + Q/G. The valve's
  // equivalent orifice reproduces q = G (Δp − p_c) exactly when turbulent, which
  // critical_flow_number 10 ensures (λ > 10⁴ at these openings). The volume and the
  // poppet form a loop of gain β G / V = 300 rad/s; a poppet of 2000 rad/s keeps it
  // stable (a slower poppet on a smaller volume chatters, as real relief valves do).
  const double pc = 10e6, G = 2e-9;
  for (const std::string dynamics : {"none", "first_order", "second_order"}) {
    for (double Q : {0.5e-3, 1e-3, 4e-3}) {
      CAPTURE(dynamics);
      CAPTURE(Q);
      json n =
          circuit({{"tank", {{"type", "hydraulic.tank"}}},
                   {"pump", {{"type", "hydraulic.pump"}, {"params", {{"displacement", Q / 100}, {"speed", 100}}}}},
                   {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", 1e-2}, {"ports", 1}}}}},
                   {"relief",
                    {{"type", "hydraulic.relief_valve"},
                     {"params",
                      {{"cracking_pressure", pc},
                       {"gradient", G},
                       {"critical_flow_number", 10},
                       {"dynamics", dynamics},
                       {"time_constant", 5e-4},
                       {"natural_frequency", 2000},
                       {"damping", 0.7}}}}}},
                  {{"tank.p", "pump.inlet"}, {"vol.p1", "pump.outlet"}, {"vol.p1", "relief.p"}, {"tank.p", "relief.t"}},
                  {"vol.pressure", "relief.flow", "relief.opening"},
                  // atol in the units of the states that matter here (Pa): 1e-6 Pa.
                  {{"method", "bdf"}, {"t_end", 1.0}, {"rtol", 1e-10}, {"atol", 1e-6}, {"output_interval", 0.01}});
      RunResult r = run_circuit(n);
      // The volume's time constant V/(β G) = 3.3 ms: after the fill (< 0.3 s) the
      // transient is gone long before 1 s.
      CHECK(last(r, "vol.pressure") == doctest::Approx(pc + Q / G).epsilon(1e-9));
      CHECK(last(r, "relief.flow") == doctest::Approx(Q).epsilon(1e-9));
      CHECK(last(r, "relief.opening") == doctest::Approx(Q / G).epsilon(1e-9));
    }
  }
}

TEST_CASE("relief valve with hysteresis: it opens at p_c rising and recloses h lower, falling") {
  // First-order poppet with hysteresis h = 1 MPa: rising, the steady pressure is
  // p_c + Q/G; coming down from a larger flow, the poppet is open for y = Δp − p_c + h
  // and passes G y sqrt(Δp/(p_c + y)) = Q: p = p_c − h + y.
  const double pc = 10e6, G = 2e-9, h = 1e6, Q = 1e-3;
  json n =
      circuit({{"tank", {{"type", "hydraulic.tank"}}},
               {"speed", {{"type", "signal.step"}, {"params", {{"step_time", 1.0}, {"before", 300}, {"after", 100}}}}},
               {"pump",
                {{"type", "hydraulic.pump"},
                 {"params", {{"displacement", Q / 100}, {"speed", 100}, {"speed_source", "signal"}}}}},
               {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", 1e-2}, {"ports", 1}}}}},
               {"relief",
                {{"type", "hydraulic.relief_valve"},
                 {"params",
                  {{"cracking_pressure", pc},
                   {"gradient", G},
                   {"critical_flow_number", 10},
                   {"dynamics", "first_order"},
                   {"time_constant", 5e-4},
                   {"hysteresis", h}}}}}},
              {{"speed.out", "pump.speed"},
               {"tank.p", "pump.inlet"},
               {"vol.p1", "pump.outlet"},
               {"vol.p1", "relief.p"},
               {"tank.p", "relief.t"}},
              {"vol.pressure", "relief.flow"},
              {{"method", "bdf"}, {"t_end", 2.0}, {"rtol", 1e-10}, {"atol", 1e-6}, {"output_interval", 0.01}});
  RunResult r = run_circuit(n);
  // Rising to 3Q: the rising branch. In a dead zone any position is a rest: the poppet
  // stops where the approach first brings it within the band, and the loop's slight
  // overshoot leaves it a fraction of a pascal inside (1e-6 of 11.5 MPa is 11 Pa, against
  // a band h = 1 MPa wide).
  MESSAGE("rising branch: relative error " << at_time(r, "vol.pressure", 0.99) / (pc + 3 * Q / G) - 1);
  CHECK(at_time(r, "vol.pressure", 0.99) == doctest::Approx(pc + 3 * Q / G).epsilon(1e-6));
  // Then down to Q: the poppet closes from a larger opening, on the falling branch; y by
  // bisection (the left side grows with y).
  double lo = 0, hi = 2 * Q / G;
  for (int i = 0; i < 200; ++i) {
    const double y = (lo + hi) / 2;
    (G * y * std::sqrt((pc - h + y) / (pc + y)) < Q ? lo : hi) = y;
  }
  MESSAGE("falling branch: y = " << lo << " Pa (Q/G = " << Q / G << " Pa)");
  CHECK(last(r, "vol.pressure") == doctest::Approx(pc - h + lo).epsilon(1e-6));
  CHECK(last(r, "vol.pressure") < pc);  // held open below its cracking pressure
  // Without dynamics a hysteresis has nothing to act on: refused.
  n["components"]["relief"]["params"]["dynamics"] = "none";
  CHECK(load_error(n).find("hysteresis") != std::string::npos);
}

TEST_CASE("check valve: shut below its cracking pressure, a ramp to full opening above it, shut backwards") {
  const double pc = 0.2e6, open = 0.3e6, A = 1e-4, cd = 0.7;
  for (double pa : {0.1e6, 0.3e6, 0.4e6, 1e6, -1e6}) {
    CAPTURE(pa);
    json n = circuit({{"a", source(pa)},
                      {"b", source(0.0)},
                      {"check",
                       {{"type", "hydraulic.check_valve"},
                        {"params",
                         {{"cracking_pressure", pc},
                          {"full_open_pressure", open},
                          {"max_area", A},
                          {"critical_flow_number", 10}}}}}},
                     {{"a.p", "check.a"}, {"b.p", "check.b"}}, {"check.flow", "check.opening"}, quick);
    RunResult r = run_circuit(n);
    const double fraction = std::clamp((pa - pc) / open, 0.0, 1.0);
    CHECK(last(r, "check.opening") == doctest::Approx(fraction).epsilon(1e-14));
    CHECK(last(r, "check.flow") == doctest::Approx(orifice_law(cd, A * fraction, pa, 10)).epsilon(1e-12).scale(1e-18));
    CHECK(last(r, "check.flow") >= 0.0);
  }
}

TEST_CASE(
    "pilot-operated check valve: free flow a->b; the pilot opens it against p_b; the decompression poppet first") {
  // Main poppet: Π = (p_a − p_b) + φ max(p_x − p_a, 0) − p_c with φ = 0.5; decompression poppet
  // φ_d = 20. With p_b = 20 MPa and a 3 MPa pilot the main poppet stays shut (Π = −18.5 MPa)
  // while the decompression poppet is wide open (Π_d = 40 MPa): only A_d passes, b -> a.
  const double A = 2e-3, Ad = 1e-5, pc = 0.02e6, open = 0.05e6;
  json comps = {{"a", source(0.0)},
                {"b", source(20e6)},
                {"x", source(3e6)},
                {"prefill",
                 {{"type", "hydraulic.pilot_check_valve"},
                  {"params",
                   {{"max_area", A},
                    {"cracking_pressure", pc},
                    {"full_open_pressure", open},
                    {"pilot_ratio", 0.5},
                    {"decompression_area", Ad},
                    {"decompression_pilot_ratio", 20},
                    {"critical_flow_number", 10}}}}}};
  const Links links = {{"a.p", "prefill.a"}, {"b.p", "prefill.b"}, {"x.p", "prefill.x"}};
  const std::vector<std::string> record = {"prefill.flow", "prefill.opening", "prefill.decompression_opening"};
  RunResult r = run_circuit(circuit(comps, links, record, quick));
  CHECK(last(r, "prefill.opening") == 0.0);
  CHECK(last(r, "prefill.decompression_opening") == 1.0);
  CHECK(last(r, "prefill.flow") == doctest::Approx(orifice_law(0.7, Ad, -20e6, 10)).epsilon(1e-12));
  // Once b is down to 1 MPa the pilot opens the main poppet: Π = −1 + 1.5 − 0.02 = 0.48 MPa > Δp_open.
  comps["b"] = source(1e6);
  r = run_circuit(circuit(comps, links, record, quick));
  CHECK(last(r, "prefill.opening") == 1.0);
  CHECK(last(r, "prefill.flow") == doctest::Approx(orifice_law(0.7, A + Ad, -1e6, 10)).epsilon(1e-12));
  // No pilot: free flow a -> b (suction of a press's fast descent), 30 kPa above cracking.
  comps["x"] = source(0.0);
  comps["a"] = source(0.05e6);
  comps["b"] = source(0.0);
  r = run_circuit(circuit(comps, links, record, quick));
  // The pilot piston, at 0 on its pilot side and p_a on the other, moves back off the
  // poppet and leaves it to its own balance: Π = 0.05 − 0.02 = 0.03 MPa, and so the
  // decompression poppet's (its pilot ratio no longer matters).
  CHECK(last(r, "prefill.opening") == doctest::Approx((0.05e6 - pc) / open).epsilon(1e-12));
  CHECK(last(r, "prefill.decompression_opening") == doctest::Approx((0.05e6 - pc) / open).epsilon(1e-12));
  CHECK(last(r, "prefill.flow") > 0.0);
  // A make-up valve of a pump-controlled cylinder: boost at a (2 MPa), the chamber at b
  // fallen below it (0.5 MPa), the other chamber at x below the boost too (1 MPa): it
  // refills the chamber as a check valve, Π = 1.5 − 0.02 MPa (fully open).
  comps["a"] = source(2e6);
  comps["b"] = source(0.5e6);
  comps["x"] = source(1e6);
  r = run_circuit(circuit(comps, links, record, quick));
  CHECK(last(r, "prefill.opening") == 1.0);
  CHECK(last(r, "prefill.flow") == doctest::Approx(orifice_law(0.7, A + Ad, 1.5e6, 10)).epsilon(1e-12));
}

TEST_CASE("counterbalance valve: holds the load up to its setting, opens with the pilot, free reverse flow") {
  const double setting = 3e6, open = 1e6, A = 1e-4, cd = 0.7;
  auto run_at = [&](double p_load, double p_valve, double p_pilot) {
    json n = circuit({{"load", source(p_load)},
                      {"valve", source(p_valve)},
                      {"pilot", source(p_pilot)},
                      {"cb",
                       {{"type", "hydraulic.counterbalance_valve"},
                        {"params",
                         {{"setting", setting},
                          {"pilot_ratio", 3},
                          {"full_open_pressure", open},
                          {"max_area", A},
                          {"check_cracking_pressure", 0.1e6},
                          {"critical_flow_number", 10}}}}}},
                     {{"load.p", "cb.load"}, {"valve.p", "cb.valve"}, {"pilot.p", "cb.pilot"}}, {"cb.flow"}, quick);
    return last(run_circuit(n), "cb.flow");
  };
  CHECK(run_at(2.5e6, 0.0, 0.0) == 0.0);  // below the setting: held
  // Above it by half of Δp_open: half open.
  CHECK(run_at(3.5e6, 0.0, 0.0) == doctest::Approx(orifice_law(cd, A * 0.5, 3.5e6, 10)).epsilon(1e-12));
  // The pilot assists: 2 MPa of load with 0.5 MPa of pilot × 3 = 3.5 MPa of drive.
  CHECK(run_at(2e6, 0.0, 0.5e6) == doctest::Approx(orifice_law(cd, A * 0.5, 2e6, 10)).epsilon(1e-12));
  // Reverse flow passes the built-in check: valve -> load, 0.3 MPa above its 0.1 MPa cracking.
  CHECK(run_at(0.0, 0.4e6, 0.0) == doctest::Approx(orifice_law(cd, A * 0.3, -0.4e6, 10)).epsilon(1e-12));
}

TEST_CASE("4/3 valve: the paths each centre opens, and the metering edges with overlap") {
  // Sources at every port (P 10 MPa, T 0, A 4 MPa, B 2 MPa) and a static spool (dynamics
  // none): the flows are the orifice law on each path's area
  //   A = A_max clamp((±x − o)/(x_max − o), 0, 1),  tandem P->T: A_max clamp((c − |x|)/c, 0, 1).
  const double xmax = 1e-3, o = 1e-4, c = 2e-4, Amax = 2e-5, cd = 0.7;
  const std::map<std::string, double> p = {{"p", 10e6}, {"t", 0.0}, {"a", 4e6}, {"b", 2e6}};
  for (const std::string centre : {"closed", "open", "float", "tandem"}) {
    for (double x : {0.0, 0.5e-3, -0.5e-3, 2e-3}) {
      CAPTURE(centre);
      CAPTURE(x);
      json n = circuit({{"P", source(p.at("p"))},
                        {"T", source(p.at("t"))},
                        {"A", source(p.at("a"))},
                        {"B", source(p.at("b"))},
                        {"cmd", {{"type", "signal.constant"}, {"params", {{"value", x}}}}},
                        {"valve",
                         {{"type", "hydraulic.valve_4_3"},
                          {"params",
                           {{"centre", centre},
                            {"max_opening", xmax},
                            {"overlap", o},
                            {"centre_opening", c},
                            {"max_area", Amax},
                            {"dynamics", "none"},
                            {"critical_flow_number", 10}}}}}},
                       {{"P.p", "valve.p"},
                        {"T.p", "valve.t"},
                        {"A.p", "valve.a"},
                        {"B.p", "valve.b"},
                        {"cmd.out", "valve.command"}},
                       {"valve.flow_p", "valve.flow_t", "valve.flow_a", "valve.flow_b"}, quick);
      RunResult r = run_circuit(n);
      const double xc = std::clamp(x, -xmax, xmax);
      double o_p = o, o_t = o;
      if (centre == "open") o_p = o_t = -c;
      if (centre == "float") o_t = -c;
      auto area = [&](double sign, double overlap) {
        return Amax * std::clamp((sign * xc - overlap) / (xmax - overlap), 0.0, 1.0);
      };
      std::map<std::string, double> into = {{"p", 0}, {"t", 0}, {"a", 0}, {"b", 0}};
      auto path = [&](const std::string& from, const std::string& to, double a) {
        const double q = orifice_law(cd, a, p.at(from) - p.at(to), 10);
        into[from] -= q;
        into[to] += q;
      };
      path("p", "a", area(1, o_p));
      path("b", "t", area(1, o_t));
      path("p", "b", area(-1, o_p));
      path("a", "t", area(-1, o_t));
      if (centre == "tandem") path("p", "t", Amax * std::clamp((c - std::abs(xc)) / c, 0.0, 1.0));
      for (const auto& port : {"p", "t", "a", "b"})
        CHECK(last(r, std::string("valve.flow_") + port) == doctest::Approx(into[port]).epsilon(1e-12).scale(1e-15));
      // Each path takes from one port what it gives to another.
      CHECK(std::abs(into["p"] + into["t"] + into["a"] + into["b"]) < 1e-15);
    }
  }
}

TEST_CASE("closed-centre 4/3 valve: shut at the centre, as wide as its travel allows at the end") {
  // With the default closed centre and a positive overlap nothing passes inside |x| < o.
  json n = circuit(
      {{"P", source(10e6)},
       {"T", source(0.0)},
       {"A", source(4e6)},
       {"B", source(2e6)},
       {"cmd", {{"type", "signal.constant"}, {"params", {{"value", 0.9e-4}}}}},
       {"valve",
        {{"type", "hydraulic.valve_4_3"},
         {"params", {{"max_opening", 1e-3}, {"overlap", 1e-4}, {"dynamics", "none"}}}}}},
      {{"P.p", "valve.p"}, {"T.p", "valve.t"}, {"A.p", "valve.a"}, {"B.p", "valve.b"}, {"cmd.out", "valve.command"}},
      {"valve.flow_a", "valve.flow_b"}, quick);
  RunResult r = run_circuit(n);
  CHECK(last(r, "valve.flow_a") == 0.0);
  CHECK(last(r, "valve.flow_b") == 0.0);
}

TEST_CASE("two-position valves: the spring position at rest, the other at full travel") {
  // 2/2 (normally closed, or open), 3/2 and 4/2 switch at half travel: at rest (command 0)
  // and at full travel the open paths have the full area.
  const double Amax = 1e-5, cd = 0.7;
  struct Case {
    std::string type;
    bool normally_open;
    double command;
    std::map<std::string, double> expected;  // flow into each port's element
  };
  const double qpa = orifice_law(cd, Amax, 10e6 - 4e6, 10), qat = orifice_law(cd, Amax, 4e6, 10);
  const double qbt = orifice_law(cd, Amax, 2e6, 10), qpb = orifice_law(cd, Amax, 8e6, 10);
  const std::vector<Case> cases = {
      {"hydraulic.valve_2_2", false, 0.0, {{"p", 0}, {"a", 0}}},
      {"hydraulic.valve_2_2", false, 1e-3, {{"p", -qpa}, {"a", qpa}}},
      {"hydraulic.valve_2_2", true, 0.0, {{"p", -qpa}, {"a", qpa}}},
      {"hydraulic.valve_3_2", false, 0.0, {{"p", 0}, {"a", -qat}, {"t", qat}}},
      {"hydraulic.valve_3_2", false, 1e-3, {{"p", -qpa}, {"a", qpa}, {"t", 0}}},
      {"hydraulic.valve_4_2", false, 0.0, {{"p", -qpb}, {"a", -qat}, {"b", qpb}, {"t", qat}}},
      {"hydraulic.valve_4_2", false, 1e-3, {{"p", -qpa}, {"a", qpa}, {"b", -qbt}, {"t", qbt}}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.type);
    CAPTURE(c.command);
    json comps = {
        {"P", source(10e6)},
        {"A", source(4e6)},
        {"cmd", {{"type", "signal.constant"}, {"params", {{"value", c.command}}}}},
        {"valve",
         {{"type", c.type},
          {"params",
           {{"max_opening", 1e-3}, {"max_area", Amax}, {"dynamics", "none"}, {"critical_flow_number", 10}}}}}};
    if (c.type == "hydraulic.valve_2_2") comps["valve"]["params"]["normally_open"] = c.normally_open;
    Links links = {{"P.p", "valve.p"}, {"A.p", "valve.a"}, {"cmd.out", "valve.command"}};
    if (c.expected.count("t")) comps["T"] = source(0.0), links.push_back({"T.p", "valve.t"});
    if (c.expected.count("b")) comps["B"] = source(2e6), links.push_back({"B.p", "valve.b"});
    std::vector<std::string> record;
    for (const auto& [port, q] : c.expected) record.push_back("valve.flow_" + port);
    RunResult r = run_circuit(circuit(comps, links, record, quick));
    for (const auto& [port, q] : c.expected)
      CHECK(last(r, "valve.flow_" + port) == doctest::Approx(q).epsilon(1e-12).scale(1e-15));
  }
}

TEST_CASE("proportional valve: the rated flow at the rated pressure drop per edge, proportional to the command") {
  // q_n = 40 L/min at 5 bar per edge; at half command the area is half: q = q_n/2 at 5 bar.
  const double qn = 40e-3 / 60, dpn = 5e5;
  for (double u : {1.0, 0.5, -0.5}) {
    CAPTURE(u);
    json n = circuit(
        {{"P", source(dpn)},
         {"T", source(0.0)},
         {"A", source(0.0)},
         {"B", source(0.0)},
         {"cmd", {{"type", "signal.constant"}, {"params", {{"value", u}}}}},
         {"valve",
          {{"type", "hydraulic.proportional_valve"},
           {"params",
            {{"rated_flow", qn}, {"rated_pressure_drop", dpn}, {"dynamics", "none"}, {"critical_flow_number", 10}}}}}},
        {{"P.p", "valve.p"}, {"T.p", "valve.t"}, {"A.p", "valve.a"}, {"B.p", "valve.b"}, {"cmd.out", "valve.command"}},
        {"valve.flow_a", "valve.flow_b"}, quick);
    RunResult r = run_circuit(n);
    CHECK(last(r, u > 0 ? "valve.flow_a" : "valve.flow_b") == doctest::Approx(qn * std::abs(u)).epsilon(1e-12));
  }
}

TEST_CASE("spool dynamics: the second-order step response of the spool position") {
  // d²x/dt² = ω² (u − x) − 2ζω dx/dt, a step u = 0.5 mm at t = 0.05 s, ω = 200 rad/s, ζ = 0.5:
  //   x = u [1 − e^(−ζωτ) (cos ω_d τ + ζ/sqrt(1−ζ²) sin ω_d τ)],  τ = t − 0.05, ω_d = ω sqrt(1−ζ²).
  const double w = 200, z = 0.5, u = 0.5e-3, t0 = 0.05, wd = w * std::sqrt(1 - z * z);
  json n = circuit(
      {{"P", source(10e6)},
       {"T", source(0.0)},
       {"A", source(0.0)},
       {"B", source(0.0)},
       {"cmd", {{"type", "signal.step"}, {"params", {{"step_time", t0}, {"before", 0}, {"after", u}}}}},
       {"valve",
        {{"type", "hydraulic.valve_4_3"},
         {"params", {{"max_opening", 1e-3}, {"dynamics", "second_order"}, {"natural_frequency", w}, {"damping", z}}}}}},
      {{"P.p", "valve.p"}, {"T.p", "valve.t"}, {"A.p", "valve.a"}, {"B.p", "valve.b"}, {"cmd.out", "valve.command"}},
      {"valve.position"},
      {{"method", "dopri5"}, {"t_end", 0.1}, {"rtol", 1e-10}, {"atol", 1e-14}, {"output_interval", 1e-3}});
  RunResult r = run_circuit(n);
  const auto t = r.column("time"), x = r.column("valve.position");
  for (size_t k = 0; k < t.size(); ++k) {
    const double tau = t[k] - t0;
    const double exact =
        tau <= 0
            ? 0.0
            : u * (1 - std::exp(-z * w * tau) * (std::cos(wd * tau) + z / std::sqrt(1 - z * z) * std::sin(wd * tau)));
    // dopri5 at rtol 1e-10 on a linear system: 1e-9 of the step is ample.
    CHECK(x[k] == doctest::Approx(exact).scale(u).epsilon(1e-9));
  }
}

TEST_CASE("proportional relief valve: the setting follows the command, p = p_min + (p_max − p_min) u + Q/G") {
  // The relief test's circuit with the setting from a command: 10 MPa at full command, 2 MPa
  // at none; the steady pressure at Q = 1 L/s is the setting plus Q/G.
  const double pmax = 10e6, pmin = 2e6, G = 2e-9, Q = 1e-3;
  for (double u : {0.0, 0.25, 0.8, 1.0}) {
    CAPTURE(u);
    json n = circuit({{"tank", {{"type", "hydraulic.tank"}}},
                      {"u", {{"type", "signal.constant"}, {"params", {{"value", u}}}}},
                      {"pump", {{"type", "hydraulic.pump"}, {"params", {{"displacement", Q / 100}, {"speed", 100}}}}},
                      {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", 1e-2}, {"ports", 1}}}}},
                      {"relief",
                       {{"type", "hydraulic.relief_valve"},
                        {"params",
                         {{"cracking_pressure", pmax},
                          {"min_pressure", pmin},
                          {"control", "signal"},
                          {"gradient", G},
                          {"critical_flow_number", 10}}}}}},
                     {{"tank.p", "pump.inlet"}, {"vol.p1", "pump.outlet"}, {"vol.p1", "relief.p"}, {"tank.p", "relief.t"},
                      {"u.out", "relief.command"}},
                     {"vol.pressure"},
                     {{"method", "bdf"}, {"t_end", 1.0}, {"rtol", 1e-10}, {"atol", 1e-6}, {"output_interval", 0.01}});
    RunResult r = run_circuit(n);
    CHECK(last(r, "vol.pressure") == doctest::Approx(pmin + (pmax - pmin) * u + Q / G).epsilon(1e-9));
  }
  // A minimum above the maximum is refused as the netlist loads.
  json bad = {{"type", "hydraulic.relief_valve"},
              {"params", {{"cracking_pressure", 1e6}, {"min_pressure", 2e6}, {"control", "signal"}}}};
  json c = {{"relief", bad},
            {"tank", {{"type", "hydraulic.tank"}}},
            {"u", {{"type", "signal.constant"}, {"params", {{"value", 1.0}}}}}};
  CHECK(load_error(circuit(c, {{"tank.p", "relief.p"}, {"tank.p", "relief.t"}, {"u.out", "relief.command"}}, {}, quick))
            .find("min_pressure") != std::string::npos);
}

TEST_CASE("pressure-reducing valve: the outlet droops below the setting by the band its flow needs") {
  // Supply 200 bar → reducing valve (setting 30 bar, band 5 bar, 20 mm²) → outlet volume
  // → orifice to tank (1 mm): in steady state the reducing edge's opening f satisfies
  // orifice(f A_max, p_s − p_a) = orifice(A_o, p_a), with p_a = p_r − f Δp_band.
  // Solved here by bisection on f, independently of the run.
  const double ps = 200e5, pr = 30e5, band = 5e5, amax = 2e-5, ao = pi * 1e-6 / 4, cd = 0.7;
  auto mismatch = [&](double f) {
    const double pa = pr - f * band;
    return orifice_law(cd, f * amax, ps - pa, 10) - orifice_law(cd, ao, pa, 10);
  };
  double lo = 0.0, hi = 1.0;
  for (int k = 0; k < 100; ++k) (mismatch(0.5 * (lo + hi)) < 0 ? lo : hi) = 0.5 * (lo + hi);
  const double pa_expected = pr - 0.5 * (lo + hi) * band;
  for (bool proportional : {false, true}) {
    CAPTURE(proportional);
    json params = {{"setting", proportional ? 2 * pr : pr}, {"regulation_band", band}, {"max_area", amax},
                   {"three_way", false}, {"critical_flow_number", 10}};
    json c = {{"supply", source(ps)},
              {"reducer", {{"type", "hydraulic.pressure_reducing_valve"}, {"params", params}}},
              {"out", {{"type", "hydraulic.volume"}, {"params", {{"volume", 1e-4}, {"ports", 2}}}}},
              {"load", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", 1e-3}, {"critical_flow_number", 10}}}}},
              {"tank", {{"type", "hydraulic.tank"}}}};
    Links links = {{"supply.p", "reducer.p"}, {"out.p1", "reducer.a"}, {"out.p2", "load.a"}, {"tank.p", "load.b"}};
    if (proportional) {  // half of a 60 bar maximum
      c["reducer"]["params"]["control"] = "signal";
      c["u"] = {{"type", "signal.constant"}, {"params", {{"value", 0.5}}}};
      links.push_back({"u.out", "reducer.command"});
    }
    RunResult r = run_circuit(circuit(c, links, {"out.pressure", "reducer.flow_a", "load.flow"},
                                      {{"method", "bdf"}, {"t_end", 0.5}, {"rtol", 1e-10}, {"atol", 1e-6}}));
    CHECK(last(r, "out.pressure") == doctest::Approx(pa_expected).epsilon(1e-7));
    CHECK(last(r, "reducer.flow_a") == doctest::Approx(last(r, "load.flow")).epsilon(1e-7));
  }
}

TEST_CASE("three-way pressure-reducing valve: flow pushed into its outlet is relieved to tank above the setting") {
  // A flow source pushes Q into the outlet volume, which the valve's supply edge would
  // fill further: the relieving edge A → T opens by f with orifice(f A_max, p_a) = Q and
  // p_a = p_r + f Δp_band.
  const double pr = 30e5, band = 5e5, amax = 2e-5, Q = 1e-4, cd = 0.7;
  double lo = 0.0, hi = 1.0;
  for (int k = 0; k < 100; ++k) {
    const double f = 0.5 * (lo + hi);
    (orifice_law(cd, f * amax, pr + f * band, 10) < Q ? lo : hi) = f;
  }
  json n = circuit({{"supply", source(200e5)},
                    {"reducer",
                     {{"type", "hydraulic.pressure_reducing_valve"},
                      {"params", {{"setting", pr}, {"regulation_band", band}, {"max_area", amax}, {"critical_flow_number", 10}}}}},
                    {"push", {{"type", "hydraulic.flow_source"}, {"params", {{"flow", Q}}}}},
                    {"out", {{"type", "hydraulic.volume"}, {"params", {{"volume", 1e-4}, {"ports", 1}}}}},
                    {"tank", {{"type", "hydraulic.tank"}}}},
                   {{"supply.p", "reducer.p"}, {"out.p1", "reducer.a"}, {"out.p1", "push.p"}, {"tank.p", "reducer.t"}},
                   {"out.pressure", "reducer.flow_a", "reducer.position"},
                   {{"method", "bdf"}, {"t_end", 0.5}, {"rtol", 1e-10}, {"atol", 1e-6}});
  RunResult r = run_circuit(n);
  CHECK(last(r, "out.pressure") == doctest::Approx(pr + 0.5 * (lo + hi) * band).epsilon(1e-7));
  CHECK(last(r, "reducer.flow_a") == doctest::Approx(-Q).epsilon(1e-7));
  CHECK(last(r, "reducer.position") < 0.0);
}
