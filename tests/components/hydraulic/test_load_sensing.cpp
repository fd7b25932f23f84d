// Load sensing and mobile valve sections: the LS section's post-compensator sharing the
// pump's flow in the ratio of the openings when the pump saturates (and the
// pre-compensator starving the highest load instead), the pressure compensator holding a
// meter-in drop, the shuttle valve selecting the highest pressure, the open-centre
// section's bypass, and a data-sheet flow curve.
#include <cmath>

#include "hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const double rho = 850.0;
const double bar = 1e5, lpm = 1e-3 / 60.0;
// λ_crit = 10 puts every edge here deep in the turbulent regime (λ > 10⁴): the laws below
// are then the library's orifice law, restated with orifice_law.
const double lc = 10.0, cd = 0.7;

json constant(double v) { return {{"type", "signal.constant"}, {"params", {{"value", v}}}}; }
json source(double p) { return {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", p}}}}; }
json volume(double v, int ports) { return {{"type", "hydraulic.volume"}, {"params", {{"volume", v}, {"ports", ports}}}}; }

const json settle = {{"method", "bdf"}, {"t_end", 1.0}, {"rtol", 1e-10}, {"atol", 1e-8}, {"output_interval", 0.05}};

// A flow source of Q into the supply volume P, three LS sections on loads of 50, 100 and
// 150 bar with commands 1, 0.5 and 0.25, their LS ports on one LS volume bled to tank.
json three_sections(const std::string& compensator, double Q) {
  json c = {{"pump", {{"type", "hydraulic.flow_source"}, {"params", {{"flow", Q}}}}},
            {"supply", volume(0.5e-3, 4)},
            {"ls_line", volume(0.05e-3, 4)},
            {"bleed", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", "0.2 mm"}, {"critical_flow_number", lc}}}}},
            {"tank", {{"type", "hydraulic.tank"}}}};
  Links links = {{"supply.p1", "pump.p"}, {"ls_line.p4", "bleed.a"}, {"tank.p", "bleed.b"}};
  const double loads[3] = {50 * bar, 100 * bar, 150 * bar}, commands[3] = {1.0, 0.5, 0.25};
  for (int i = 0; i < 3; ++i) {
    const std::string s = "s" + std::to_string(i + 1), k = std::to_string(i + 2);
    c[s] = {{"type", "hydraulic.ls_section"},
            {"params",
             {{"rated_flow", 60 * lpm},
              {"rated_pressure_drop", 10 * bar},
              {"compensator", compensator},
              {"compensator_setting", compensator == "pre" ? 10 * bar : 0.0},
              {"ls_tap_area", 5e-6},
              {"discharge_coefficient", cd},
              {"critical_flow_number", lc},
              {"dynamics", "none"}}}};
    c["u" + s] = constant(commands[i]);
    c["load" + s] = source(loads[i]);
    links.push_back({"supply.p" + k, s + ".p"});
    links.push_back({"ls_line.p" + std::to_string(i + 1), s + ".ls"});
    links.push_back({"u" + s + ".out", s + ".command"});
    links.push_back({"load" + s + ".p", s + ".a"});
    links.push_back({"tank.p", s + ".b"});
    links.push_back({"tank.p", s + ".t"});
  }
  return circuit(c, links,
                 {"supply.pressure", "ls_line.pressure", "s1.flow_a", "s2.flow_a", "s3.flow_a", "s3.flow_ls",
                  "s1.flow_p", "s2.flow_p", "s3.flow_p", "bleed.flow"},
                 settle);
}

}  // namespace

TEST_CASE("ls_section, post-compensated: a saturated pump's flow is shared in the ratio of the openings") {
  // 90 L/min for sections that would take 60, 30 and 15 L/min at 10 bar: the pump
  // saturates and its pressure settles where the three flows add up to it. The two lower
  // loads' compensators throttle to the LS line's pressure, so their meter-in edges see
  // p_P − p_LS; the highest load's is wide open and its edge sees p_P − p_A3, larger by
  // the LS tap's drop p_A3 − p_LS (its tap open by a quarter, like its edge).
  const double Q = 90 * lpm;
  RunResult r = run_circuit(three_sections("post", Q));
  const double pP = last(r, "supply.pressure"), pLS = last(r, "ls_line.pressure");
  const double q1 = last(r, "s1.flow_a"), q2 = last(r, "s2.flow_a"), q3 = last(r, "s3.flow_a");
  const double tap = last(r, "s3.flow_ls");
  MESSAGE("p_P " << pP / bar << " bar, p_LS " << pLS / bar << " bar; flows " << q1 / lpm << ", " << q2 / lpm << ", "
                 << q3 / lpm << " L/min");
  // The LS line sits just below the highest load, by the drop that passes the bleed.
  CHECK(pLS < 150 * bar);
  CHECK(pLS > 149 * bar);
  CHECK(last(r, "bleed.flow") == doctest::Approx(tap).epsilon(1e-6));
  // Everything the pump gives goes into the loads and the LS line (steady state: the
  // volumes no longer fill; rtol 1e-10 over a settled run).
  CHECK(q1 + q2 + q3 + tap == doctest::Approx(Q).epsilon(1e-6));
  // Each flow is the orifice law at the compensated drop, with the full area
  // A = q_n / (C_d sqrt(2 Δp_n/ρ)) times the command.
  const double area = 60 * lpm / (cd * std::sqrt(2 * 10 * bar / rho));
  CHECK(q1 == doctest::Approx(orifice_law(cd, 1.0 * area, pP - pLS, lc)).epsilon(1e-6));
  CHECK(q2 == doctest::Approx(orifice_law(cd, 0.5 * area, pP - pLS, lc)).epsilon(1e-6));
  CHECK(q3 + tap == doctest::Approx(orifice_law(cd, 0.25 * area, pP - 150 * bar, lc)).epsilon(1e-6));
  // Flow sharing: the two lower loads' flows are in the ratio of their openings to
  // rounding; the highest one's departs by sqrt(1 + (p_A3 − p_LS)/(p_P − p_A3)) − 1, the
  // tap's share, here below 2 %.
  CHECK(q1 / q2 == doctest::Approx(2.0).epsilon(1e-6));
  const double tap_share = std::sqrt(1 + (150 * bar - pLS) / (pP - 150 * bar)) - 1;
  CHECK(tap_share < 0.02);
  CHECK((q3 + tap) / q2 == doctest::Approx(0.5 / (1 + tap_share)).epsilon(1e-6));
  // The pump pressure: Q = C_d A (Σ c_i) sqrt(2 Δp/ρ) up to that tap share.
  const double dp_shared = rho / 2 * std::pow((Q - tap) / (cd * area * 1.75), 2);
  CHECK(pP - pLS == doctest::Approx(dp_shared).epsilon(0.02));
}

TEST_CASE("ls_section, pre-compensated: a saturated pump starves the highest loads") {
  // The same circuit with pre-compensators holding 10 bar on each meter-in edge: the
  // lowest load alone would take 60 L/min, more than the pump's 50, so the pump pressure
  // settles where section 1 takes it all, below the other loads: their load checks shut.
  const double Q = 50 * lpm;
  RunResult r = run_circuit(three_sections("pre", Q));
  const double pP = last(r, "supply.pressure");
  CHECK(pP < 100 * bar);
  CHECK(last(r, "s2.flow_p") == 0.0);
  CHECK(last(r, "s3.flow_p") == 0.0);
  // The LS line still reads the highest load (its tap is open with the spool): the
  // bleed's flow comes from that load, and a load-sensing pump would rise to it.
  CHECK(last(r, "ls_line.pressure") > 149 * bar);
  const double q1 = last(r, "s1.flow_a");
  const double area = 60 * lpm / (cd * std::sqrt(2 * 10 * bar / rho));
  // Below the setting the compensator is wide open: q1 = orifice(A, p_P − 50 bar).
  CHECK(pP - 50 * bar < 10 * bar);
  CHECK(q1 == doctest::Approx(orifice_law(cd, area, pP - 50 * bar, lc)).epsilon(1e-6));
  CHECK(q1 == doctest::Approx(Q).epsilon(1e-6));
}

TEST_CASE("ls_section, pre-compensated: the meter-in drop is held at its setting whatever the load") {
  // A pump pressure far above the loads: each section passes its opening's flow at the
  // setting's drop, q_i = c_i q_n sqrt(Δp_s/Δp_n) (here Δp_s = Δp_n: q_i = c_i q_n).
  json n = three_sections("pre", 1.0);
  n["components"]["pump"] = source(250 * bar);
  n["components"].erase("supply");
  json links = json::array();
  for (auto link : n["connections"]) {
    if (link[1] == "pump.p") continue;  // the flow source's link to the supply volume
    for (auto& end : link)
      if (end.get<std::string>().rfind("supply.", 0) == 0) end = "pump.p";
    links.push_back(link);
  }
  n["connections"] = links;
  n["record"] = {"s1.flow_a", "s2.flow_a", "s3.flow_a", "s3.flow_ls"};
  RunResult r = run_circuit(n);
  CHECK(last(r, "s1.flow_a") == doctest::Approx(60 * lpm).epsilon(1e-6));
  CHECK(last(r, "s2.flow_a") == doctest::Approx(30 * lpm).epsilon(1e-6));
  CHECK(last(r, "s3.flow_a") + last(r, "s3.flow_ls") == doctest::Approx(15 * lpm).epsilon(1e-6));
}

TEST_CASE("pressure_compensator ahead of a metering orifice holds its drop within the regulation band") {
  // Supply p_s → compensator (normally open, Δp_s = 10 bar, band 1 bar; x on the load,
  // y on its own outlet m) → volume m → metering orifice → load at 50 bar. In steady
  // state the orifice's drop is Δp_s − f Δp_band, f the compensator's opening: within
  // [9, 10] bar, whatever the supply pressure.
  for (double supply : {100 * bar, 200 * bar, 300 * bar}) {
    CAPTURE(supply);
    json n = circuit(
        {{"supply", source(supply)},
         {"load", source(50 * bar)},
         {"m", volume(0.1e-3, 2)},
         {"comp",
          {{"type", "hydraulic.pressure_compensator"},
           {"params",
            {{"setting", 10 * bar}, {"regulation_band", 1 * bar}, {"max_area", 2e-5}, {"critical_flow_number", lc}}}}},
         {"meter", {{"type", "hydraulic.orifice"}, {"params", {{"area", 1e-5}, {"critical_flow_number", lc}}}}}},
        {{"supply.p", "comp.a"}, {"m.p1", "comp.b"}, {"load.p", "comp.x"}, {"m.p1", "comp.y"}, {"m.p2", "meter.a"},
         {"load.p", "meter.b"}},
        {"m.pressure", "meter.flow", "comp.flow", "comp.opening"}, settle);
    RunResult r = run_circuit(n);
    const double drop = last(r, "m.pressure") - 50 * bar, f = last(r, "comp.opening");
    CHECK(drop == doctest::Approx(10 * bar - f * bar).epsilon(1e-8));
    CHECK(drop > 9 * bar);
    CHECK(drop < 10 * bar);
    CHECK(last(r, "meter.flow") == doctest::Approx(last(r, "comp.flow")).epsilon(1e-8));
    // And the compensator's own flow is the orifice law at its opening and drop.
    CHECK(last(r, "comp.flow") ==
          doctest::Approx(orifice_law(0.7, 2e-5 * f, supply - last(r, "m.pressure"), lc)).epsilon(1e-8));
  }
}

TEST_CASE("shuttle_valve: the outlet follows the highest inlet, and no flow goes back into the lower ones") {
  // Inlets at 100, 180 and 150 bar; the outlet volume drains through a bleed orifice.
  json n = circuit({{"i1", source(100 * bar)},
                    {"i2", source(180 * bar)},
                    {"i3", source(150 * bar)},
                    {"shuttle", {{"type", "hydraulic.shuttle_valve"}, {"params", {{"inputs", 3}, {"critical_flow_number", lc}}}}},
                    {"out", volume(0.02e-3, 2)},
                    {"bleed", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", "0.3 mm"}, {"critical_flow_number", lc}}}}},
                    {"tank", {{"type", "hydraulic.tank"}}}},
                   {{"i1.p", "shuttle.in1"}, {"i2.p", "shuttle.in2"}, {"i3.p", "shuttle.in3"}, {"out.p1", "shuttle.out"},
                    {"out.p2", "bleed.a"}, {"tank.p", "bleed.b"}},
                   {"out.pressure", "shuttle.flow", "bleed.flow", "i1.flow", "i3.flow"}, settle);
  RunResult r = run_circuit(n);
  const double p = last(r, "out.pressure");
  CHECK(p < 180 * bar);
  CHECK(p > 179 * bar);
  CHECK(last(r, "shuttle.flow") == doctest::Approx(last(r, "bleed.flow")).epsilon(1e-8));
  CHECK(last(r, "i1.flow") == 0.0);
  CHECK(last(r, "i3.flow") == 0.0);
  // The highest inlet's seat: open by (180 bar − p)/Δp_open of its 2 mm² (default area).
  const double dp = 180 * bar - p;
  CHECK(last(r, "shuttle.flow") == doctest::Approx(orifice_law(0.7, 2e-6 * dp / 1e5, dp, lc)).epsilon(1e-6));
}

TEST_CASE("open_centre_section: the bypass sets the neutral pressure, and the load takes flow once it closes") {
  // A 40 L/min pump through the bypass (rated 80 L/min at 5 bar) at neutral: the pump
  // pressure is Δp_n (Q/q_c)² = 1.25 bar. With the spool at 0.5 (the bypass shut from 0.3
  // on) the pump pressure rises to the 100 bar load's and the whole flow goes to A.
  const double Q = 40 * lpm;
  for (double command : {0.0, 0.5}) {
    CAPTURE(command);
    json n = circuit({{"pump", {{"type", "hydraulic.flow_source"}, {"params", {{"flow", Q}}}}},
                      {"supply", volume(0.5e-3, 2)},
                      {"u", constant(command)},
                      {"sec",
                       {{"type", "hydraulic.open_centre_section"},
                        {"params",
                         {{"rated_flow", 80 * lpm},
                          {"bypass_rated_flow", 80 * lpm},
                          {"rated_pressure_drop", 5 * bar},
                          {"critical_flow_number", lc},
                          {"dynamics", "none"}}}}},
                      {"load", source(100 * bar)},
                      {"tank", {{"type", "hydraulic.tank"}}}},
                     {{"supply.p1", "pump.p"}, {"supply.p2", "sec.p"}, {"supply.p2", "sec.bypass_in"}, {"u.out", "sec.command"}, {"tank.p", "sec.bypass_out"},
                      {"tank.p", "sec.t"}, {"load.p", "sec.a"}, {"tank.p", "sec.b"}},
                     {"supply.pressure", "sec.flow_a", "sec.flow_bypass_out"}, settle);
    RunResult r = run_circuit(n);
    if (command == 0.0) {
      CHECK(last(r, "supply.pressure") == doctest::Approx(5 * bar * std::pow(Q / (80 * lpm), 2)).epsilon(1e-6));
      CHECK(last(r, "sec.flow_a") == 0.0);  // the load check holds the load
    } else {
      CHECK(last(r, "sec.flow_bypass_out") == 0.0);
      CHECK(last(r, "sec.flow_a") == doctest::Approx(Q).epsilon(1e-6));
      // q = 0.5 q_n sqrt((p_P − p_A)/Δp_n): the drop over the half-open edge.
      CHECK(last(r, "supply.pressure") - 100 * bar == doctest::Approx(5 * bar * std::pow(Q / (40 * lpm), 2)).epsilon(1e-6));
    }
  }
}

TEST_CASE("proportional_valve with a data-sheet flow curve: flow over stroke from the table") {
  // Curve: no flow up to 10 % stroke (the dead band), 20 % of the rated flow at 40 %,
  // 100 % at full stroke. At a command of 0.7 the table gives 0.6; at the rated drop the
  // edge passes 0.6 q_n.
  json n = circuit({{"supply", source(10 * bar)},
                    {"u", constant(0.7)},
                    {"valve",
                     {{"type", "hydraulic.proportional_valve"},
                      {"params",
                       {{"rated_flow", 60 * lpm},
                        {"rated_pressure_drop", 5 * bar},
                        {"critical_flow_number", lc},
                        {"dynamics", "none"},
                        {"flow_curve", json::array({json::array({0.0, 0.0}), json::array({0.1, 0.0}),
                                                    json::array({0.4, 0.2}), json::array({1.0, 1.0})})}}}}},
                    {"load", source(5 * bar)},
                    {"tank", {{"type", "hydraulic.tank"}}}},
                   {{"supply.p", "valve.p"}, {"u.out", "valve.command"}, {"load.p", "valve.a"}, {"tank.p", "valve.b"},
                    {"tank.p", "valve.t"}},
                   {"valve.flow_a"}, {{"method", "rk4"}, {"t_end", 0.01}, {"step", 1e-3}});
  RunResult r = run_circuit(n);
  CHECK(last(r, "valve.flow_a") == doctest::Approx(0.6 * 60 * lpm).epsilon(1e-9));
}
