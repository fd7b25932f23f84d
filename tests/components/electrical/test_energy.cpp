// The energy account (framework energy.hpp) over electrical models: every component's
// balance (E1: power in through its ports + supplied − lost − d(stored)/dt = 0) and the
// model's (E2) close to the accuracy of the run. A wrong sign of a port's current, a
// missing loss or a loss counted twice (also through a heat port) would leave a residual
// of the order of the energy moved; the quadrature of the account is exact to degree 5
// on each step, so what remains is the integration error (rtol 1e-10: 1e-8 of the
// energy moved leaves a wide margin). The chopper's case also pins a fix in
// run_netlist's account: an event that changes discrete states alone must not reuse the
// evaluation made before it.
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "electrical_test_util.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

json tight(double t_end, double interval, const std::string& method = "dopri5") {
  return {{"method", method}, {"rtol", 1e-10}, {"atol", 1e-12}, {"t_end", t_end}, {"output_interval", interval}};
}

void check_balances(const RunResult& r) {
  INFO(r.failure);
  REQUIRE(r.finished);
  const json& e = r.summary.at("energy");
  CHECK(e["total"]["component_residual"].get<double>() < 1e-8 * e["total"]["moved"].get<double>());
  test::check_energy_balance(r, 1e-8);
}

}  // namespace

TEST_CASE("energy account: a battery through a DC/DC converter drives a DC motor, heat into capacities") {
  // A 48 V pack (a single 4 V cell could not give the converter the motor's starting
  // power: a constant-power load beyond OCV²/4R has no operating point).
  json n = {{"components",
             {{"bat", {{"type", "electrical.battery"},
                       {"params", {{"capacity", "2 A*h"}, {"ocv", {{0.0, 40.0}, {1.0, 50.0}}}, {"rc_pairs", 2},
                                   {"heat_port", true}}},
                       {"initial", {{"soc", 0.8}}}}},
              {"conv", {{"type", "electrical.dc_dc_converter"}, {"params", {{"voltage", "12 V"}, {"efficiency", 0.92}}}}},
              {"line", {{"type", "electrical.resistor"}, {"params", {{"resistance", "0.2 V/A"}}}}},
              {"x", {{"type", "electrical.node"}}},
              {"M", {{"type", "electrical.dc_machine"},
                     {"params", {{"inductance", "0.5 mV*s/A"}, {"viscous_friction", "1e-5 N*m*s/rad"},
                                 {"coulomb_friction", "1e-3 N*m"}, {"heat_port", true},
                                 {"temperature_coefficient", "0.004 1/K"}}}}},
              {"Cb", {{"type", "thermal.heat_capacity"}, {"params", {{"heat_capacity", "20 J/K"}}}}},
              {"Cm", {{"type", "thermal.heat_capacity"}, {"params", {{"heat_capacity", "5 J/K"}}}}},
              {"gnd", {{"type", "electrical.ground"}}}}},
            {"connections", test::wires({{"bat.p", "conv.in_p"}, {"conv.in_n", "gnd.p"}, {"bat.n", "gnd.p"},
                                         {"conv.out_p", "line.p"}, {"line.n", "x.p"}, {"M.p", "x.p"},
                                         {"M.n", "gnd.p"}, {"conv.out_n", "gnd.p"}, {"bat.heat", "Cb.p"},
                                         {"M.heat", "Cm.p"}})},
            {"record", {"M.w"}},
            {"energy", true},
            {"solver", tight(0.5, 0.01)}};
  check_balances(test::run(n.dump()));
}

TEST_CASE("energy account: a switched RLC circuit with a current source and a brake chopper") {
  json n = {{"components",
             {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "50 V"}}}}},
              {"on", {{"type", "signal.step"}, {"params", {{"step_time", "0.01 s"}}}}},
              {"S", {{"type", "electrical.switch"}, {"params", {{"on_resistance", "0.5 V/A"}}}}},
              {"x", {{"type", "electrical.node"}}},
              {"L", {{"type", "electrical.inductor"}, {"params", {{"inductance", "10 mV*s/A"}}}}},
              {"C", {{"type", "electrical.capacitor"}, {"params", {{"capacitance", "1 mA*s/V"}}}}},
              {"I", {{"type", "electrical.current_source"}, {"params", {{"current", "0.5 A"}}}}},
              {"chop", {{"type", "electrical.brake_chopper"},
                        {"params", {{"resistance", "20 V/A"}, {"on_voltage", "60 V"}, {"off_voltage", "55 V"}}}}},
              {"gnd", {{"type", "electrical.ground"}}}}},
            {"connections", test::wires({{"on.out", "S.control"}, {"src.p", "S.p"}, {"S.n", "x.p"}, {"L.p", "x.p"},
                                         {"L.n", "C.p"}, {"C.n", "gnd.p"}, {"I.p", "C.p"}, {"I.n", "gnd.p"},
                                         {"chop.p", "C.p"}, {"chop.n", "gnd.p"}, {"src.n", "gnd.p"}})},
            {"record", {"C.v", "chop.on"}},
            {"energy", true},
            // The open switch's large resistance against the inductor makes the circuit
            // stiff (dopri5 needed 3e5 steps): bdf, measured 5e-11 of the energy moved.
            {"solver", tight(0.3, 0.005, "bdf")}};
  RunResult r = test::run(n.dump());
  check_balances(r);
  bool chopped = false;
  for (double on : r.column("chop.on")) chopped = chopped || on != 0.0;
  CHECK(chopped);  // the overshoot above 60 V switched the chopper in
}

TEST_CASE("energy account: a PMSM drive under FOC and a map machine on one DC bus") {
  json map = json::array();
  for (double w : {0.0, 500.0, 1000.0})
    for (double t : {0.0, 100.0}) map.push_back({w, t, 0.8 + 1e-4 * w + 5e-4 * t});
  json n = {{"components",
             {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "300 V"}}}}},
              {"M", {{"type", "electrical.pmsm_drive"}, {"params", {{"viscous_friction", "1e-3 N*m*s/rad"}, {"lq", "2 mV*s/A"}}}}},
              {"foc", {{"type", "electrical.foc_controller"}, {"params", {{"lq", "2 mV*s/A"}}}}},
              {"T", {{"type", "signal.constant"}, {"params", {{"value", 10}}}}},
              {"Q", {{"type", "electrical.map_machine"},
                     {"params", {{"efficiency", map}, {"max_torque", {{0.0, 100.0}, {1000.0, 0.0}}}, {"inertia", 0.5},
                                 {"viscous_friction", "0.01 N*m*s/rad"}}}}},
              {"gnd", {{"type", "electrical.ground"}}}}},
            {"connections", test::wires({{"src.p", "M.dc_p"}, {"M.dc_n", "gnd.p"}, {"src.n", "gnd.p"},
                                         {"T.out", "foc.torque"}, {"M.i_d_out", "foc.i_d"}, {"M.i_q_out", "foc.i_q"},
                                         {"M.w_out", "foc.w"}, {"foc.v_d", "M.v_d"}, {"foc.v_q", "M.v_q"},
                                         {"src.p", "Q.dc_p"}, {"Q.dc_n", "gnd.p"}, {"T.out", "Q.torque"}})},
            {"record", {"M.w", "Q.w"}},
            {"energy", true},
            {"solver", tight(0.2, 0.005)}};
  check_balances(test::run(n.dump()));
}
