// Averaged power electronics: the DC/DC converter's power balance (both ways, and on a
// battery, where its input current closes a nonlinear algebraic loop), the brake
// chopper's hysteresis events, and the PMSM drive under field-oriented control against
// the closed form of its first-order current loops.
//
// Tolerances: dopri5 at rtol 1e-10, atol 1e-12 (test_circuits.cpp); algebraic values
// (no integration) to 1e-9; event times to the event bracket (1e-10 s) plus the error of
// the voltage there.
#include <cmath>

#include <nlohmann/json.hpp>

#include "electrical_test_util.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

json tight(double t_end, double interval) {
  return {{"method", "dopri5"}, {"rtol", 1e-10}, {"atol", 1e-12}, {"t_end", t_end}, {"output_interval", interval}};
}

// 48 V in, 12 V out at 90 %, into a 2 Ω load.
json converter() {
  return {{"components",
           {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "48 V"}}}}},
            {"conv", {{"type", "electrical.dc_dc_converter"}, {"params", {{"voltage", "12 V"}, {"efficiency", 0.9}}}}},
            {"R", {{"type", "electrical.resistor"}, {"params", {{"resistance", "2 V/A"}}}}},
            {"gnd", {{"type", "electrical.ground"}}}}},
          {"connections", test::wires({{"src.p", "conv.in_p"}, {"conv.in_n", "gnd.p"}, {"src.n", "gnd.p"}, {"conv.out_p", "R.p"},
                           {"R.n", "gnd.p"}, {"conv.out_n", "gnd.p"}})},
          {"record", {"src.current", "conv.input_power", "conv.output_power", "conv.loss", "R.current"}},
          {"solver", tight(0.01, 0.005)}};
}

}  // namespace

TEST_CASE("DC/DC converter: P_in = P_out/η forwards, η P_out backwards") {
  SUBCASE("step-down into a resistor: 72 W out, 80 W in") {
    RunResult r = test::run(converter().dump());
    REQUIRE(r.finished);
    CHECK(r.column("R.current").front() == doctest::Approx(6.0).epsilon(1e-12));
    CHECK(r.column("conv.output_power").front() == doctest::Approx(72.0).epsilon(1e-12));
    CHECK(r.column("conv.input_power").front() == doctest::Approx(80.0).epsilon(1e-12));
    CHECK(r.column("conv.loss").front() == doctest::Approx(8.0).epsilon(1e-12));
    CHECK(r.column("src.current").front() == doctest::Approx(80.0 / 48.0).epsilon(1e-12));
  }
  SUBCASE("regenerating: 2 A pushed into the output returns 0.9 of its power to the input") {
    json n = converter();
    n["components"].erase("R");
    n["components"]["I"] = {{"type", "electrical.current_source"}, {"params", {{"current", "2 A"}}}};
    n["connections"] = test::wires({{"src.p", "conv.in_p"}, {"conv.in_n", "gnd.p"}, {"src.n", "gnd.p"}, {"I.p", "conv.out_p"},
                        {"I.n", "gnd.p"}, {"conv.out_n", "gnd.p"}});
    n["record"] = {"src.current", "conv.input_power", "conv.output_power", "conv.loss"};
    RunResult r = test::run(n.dump());
    REQUIRE(r.finished);
    CHECK(r.column("conv.output_power").front() == doctest::Approx(-24.0).epsilon(1e-12));
    CHECK(r.column("conv.input_power").front() == doctest::Approx(-21.6).epsilon(1e-12));
    CHECK(r.column("conv.loss").front() == doctest::Approx(2.4).epsilon(1e-12));
    CHECK(r.column("src.current").front() == doctest::Approx(-21.6 / 48.0).epsilon(1e-12));
  }
  SUBCASE("fed by a battery: v² − OCV v + R0 P_in = 0 solved in the loop") {
    json n = converter();
    n["components"].erase("src");
    n["components"]["bat"] = {{"type", "electrical.battery"},
                              {"params", {{"ocv", {{0.0, 48.0}, {1.0, 48.0}}}, {"series_resistance", "0.5 V/A"},
                                          {"rc_pairs", 0}, {"capacity", "10 A*h"}}}};
    n["connections"] = test::wires({{"bat.p", "conv.in_p"}, {"conv.in_n", "gnd.p"}, {"bat.n", "gnd.p"}, {"conv.out_p", "R.p"},
                        {"R.n", "gnd.p"}, {"conv.out_n", "gnd.p"}});
    n["record"] = {"bat.voltage", "bat.current", "bat.chemical_power", "bat.loss", "conv.loss", "R.loss"};
    RunResult r = test::run(n.dump());
    REQUIRE(r.finished);
    const double ocv = 48.0, r0 = 0.5, p_in = 80.0;
    const double v = 0.5 * (ocv + std::sqrt(ocv * ocv - 4 * r0 * p_in));
    CHECK(r.column("bat.voltage").front() == doctest::Approx(v).epsilon(1e-9));
    CHECK(r.column("bat.current").front() == doctest::Approx(p_in / v).epsilon(1e-9));
    // Nothing stores energy here: the supplied power (the battery's OCV i) is the sum of
    // the losses, battery, converter and load.
    const double lost = r.column("bat.loss").front() + r.column("conv.loss").front() + r.column("R.loss").front();
    CHECK(r.column("bat.chemical_power").front() == doctest::Approx(lost).epsilon(1e-9));
  }
}

TEST_CASE("brake chopper: switched in above on_voltage, out below off_voltage") {
  // 10 A charge a 10 mF DC link from 380 V at 1000 V/s: in at 420 V (t1 = 40 ms); then
  // C dv/dt = I − v/R with R = 10 Ω falls toward I R = 100 V and reaches 400 V at
  // t2 = t1 + R C ln((420 − 100)/(400 − 100)); out again, back to 420 V 20 ms later.
  json n = {{"components",
             {{"I", {{"type", "electrical.current_source"}, {"params", {{"current", "10 A"}}}}},
              {"C", {{"type", "electrical.capacitor"}, {"params", {{"capacitance", "10 mA*s/V"}}}, {"initial", {{"v", 380}}}}},
              {"chop", {{"type", "electrical.brake_chopper"},
                        {"params", {{"resistance", "10 V/A"}, {"on_voltage", "420 V"}, {"off_voltage", "400 V"}}}}},
              {"gnd", {{"type", "electrical.ground"}}}}},
            {"connections", test::wires({{"I.p", "C.p"}, {"I.n", "gnd.p"}, {"C.n", "gnd.p"}, {"chop.p", "C.p"}, {"chop.n", "gnd.p"}})},
            {"record", {"C.v", "chop.on", "chop.loss"}},
            {"solver", tight(0.1, 1e-3)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const double t1 = 0.04, t2 = t1 + 0.1 * std::log(320.0 / 300.0), t3 = t2 + 0.02;
  std::vector<double> in, out;
  for (const auto& ev : r.events) {
    if (ev.description.find("switches the brake resistor in") != std::string::npos) in.push_back(ev.time);
    if (ev.description.find("switches the brake resistor out") != std::string::npos) out.push_back(ev.time);
  }
  REQUIRE(in.size() >= 2);
  REQUIRE(out.size() >= 1);
  CHECK(in[0] == doctest::Approx(t1).epsilon(1e-8));
  CHECK(out[0] == doctest::Approx(t2).epsilon(1e-8));
  CHECK(in[1] == doctest::Approx(t3).epsilon(1e-8));
  for (double v : r.column("C.v")) CHECK(v <= 420.0 + 1e-6);
}

TEST_CASE("PMSM drive under field-oriented control: first-order current loop, speed closed form") {
  // 300 V bus; R = 0.1 Ω, L_d = L_q = 1 mH, ψ = 0.1 V·s, p = 4, J = 0.01 kg·m², b = 1e-3;
  // the controller, given the same parameters and ω_c = 1000 rad/s, cancels the winding's
  // pole and the coupling: i_d = 0, i_q = I* (1 − e^(−ω_c t)) with I* = τ*/(3/2 p ψ), and
  // J dω/dt = 3/2 p ψ i_q − b ω.
  json n = {{"components",
             {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "300 V"}}}}},
              {"M", {{"type", "electrical.pmsm_drive"}, {"params", {{"viscous_friction", "1e-3 N*m*s/rad"}}}}},
              {"foc", {{"type", "electrical.foc_controller"}}},
              {"T", {{"type", "signal.constant"}, {"params", {{"value", 10}}}}},
              {"gnd", {{"type", "electrical.ground"}}}}},
            {"connections", test::wires({{"src.p", "M.dc_p"}, {"M.dc_n", "gnd.p"}, {"src.n", "gnd.p"}, {"T.out", "foc.torque"},
                             {"M.i_d_out", "foc.i_d"}, {"M.i_q_out", "foc.i_q"}, {"M.w_out", "foc.w"}, {"foc.v_d", "M.v_d"},
                             {"foc.v_q", "M.v_q"}})},
            {"record", {"M.i_d", "M.i_q", "M.w", "M.torque", "M.dc_current", "M.ac_power", "M.inverter_loss",
                        "M.modulation", "src.power", "M.copper_loss", "M.kinetic_energy", "M.magnetic_energy"}},
            {"solver", tight(0.2, 1e-3)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const double K = 1.5 * 4 * 0.1, tau = 10.0, I = tau / K, wc = 1000.0, J = 0.01, b = 1e-3;
  const double a = b / J, c = tau / J;
  auto iq = [&](double t) { return I * (1 - std::exp(-wc * t)); };
  auto w = [&](double t) { return c / a * (1 - std::exp(-a * t)) - c / (a - wc) * (std::exp(-wc * t) - std::exp(-a * t)); };
  CHECK(test::max_error(r, "M.i_d", [](double) { return 0.0; }) < 1e-7 * I);
  CHECK(test::max_error(r, "M.i_q", iq) < 1e-7 * I);
  CHECK(test::max_error(r, "M.w", w) < 1e-7 * w(0.2));
  CHECK(r.column("M.torque").back() == doctest::Approx(tau).epsilon(1e-7));
  // The inverter stays in its linear range, and the bus supplies P_ac/η.
  for (double m : r.column("M.modulation")) CHECK(m < 1.0);
  const auto pdc = r.column("src.power"), pac = r.column("M.ac_power"), loss = r.column("M.inverter_loss");
  for (size_t k = 0; k < pdc.size(); ++k) {
    CHECK(pdc[k] == doctest::Approx(pac[k] >= 0 ? pac[k] / 0.97 : pac[k] * 0.97).epsilon(1e-9));
    CHECK(pdc[k] - pac[k] == doctest::Approx(loss[k]).epsilon(1e-9));
  }
  // Energy into the windings: ∫ P_ac dt = ΔE_magnetic + ΔE_kinetic + ∫ (copper + friction)
  // (trapezoidal rule over 1 ms rows: 1e-3 of the total).
  const auto t = r.column("time"), cu = r.column("M.copper_loss"), speed = r.column("M.w");
  double in = 0, lost = 0;
  for (size_t k = 1; k < t.size(); ++k) {
    const double dt = t[k] - t[k - 1];
    in += 0.5 * (pac[k] + pac[k - 1]) * dt;
    lost += 0.5 * (cu[k] + cu[k - 1] + b * (speed[k] * speed[k] + speed[k - 1] * speed[k - 1])) * dt;
  }
  const double stored = r.column("M.kinetic_energy").back() + r.column("M.magnetic_energy").back();
  CHECK(stored + lost == doctest::Approx(in).epsilon(1e-3));

  SUBCASE("a weak bus: the command is limited to v_dc/√3 and the speed falls short") {
    n["components"]["src"]["params"]["voltage"] = "100 V";
    n["components"]["foc"]["params"]["voltage_limit"] = 100.0 / std::sqrt(3.0);
    RunResult weak = test::run(n.dump());
    REQUIRE(weak.finished);
    for (double m : weak.column("M.modulation")) CHECK(m <= 1.0 + 1e-12);
    CHECK(weak.column("M.modulation").back() == doctest::Approx(1.0).epsilon(1e-9));
    CHECK(weak.column("M.w").back() < 0.9 * w(0.2));
  }
}

TEST_CASE("map machine: torque within its limit, DC power = τ ω / η from the map, and back") {
  // η = 0.8 + 1e-4 ω + 5e-4 τ on the grid (bilinear interpolation reproduces it exactly);
  // τ_max = 100 − 0.1 ω falls from 100 N·m at rest to 0 at 1000 rad/s. A 50 N·m command on J = 0.5
  // accelerates the rotor at 100 rad/s² until the limit takes
  // over at ω = 500 rad/s (t = 5 s); then J dω/dt = 100 − 0.1 ω.
  auto eta = [](double w, double t) { return 0.8 + 1e-4 * w + 5e-4 * t; };
  json map = json::array();
  for (double w : {0.0, 500.0, 1000.0})
    for (double t : {0.0, 100.0}) map.push_back({w, t, eta(w, t)});
  json n = {{"components",
             {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "400 V"}}}}},
              {"M", {{"type", "electrical.map_machine"},
                     {"params", {{"efficiency", map}, {"max_torque", {{0.0, 100.0}, {1000.0, 0.0}}}, {"inertia", 0.5}}}}},
              {"T", {{"type", "signal.constant"}, {"params", {{"value", 50}}}}},
              {"gnd", {{"type", "electrical.ground"}}}}},
            {"connections", test::wires({{"src.p", "M.dc_p"}, {"M.dc_n", "gnd.p"}, {"src.n", "gnd.p"}, {"T.out", "M.torque"}})},
            {"record", {"M.w", "M.torque", "M.efficiency", "M.dc_current", "M.mechanical_power", "M.loss", "src.power"}},
            {"solver", tight(8.0, 0.05)}};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  auto w = [](double t) { return t <= 5.0 ? 100.0 * t : 1000.0 - 500.0 * std::exp(-0.2 * (t - 5.0)); };
  CHECK(test::max_error(r, "M.w", w) < 1e-6 * 1000.0);
  const auto t = r.column("time"), tau = r.column("M.torque"), i = r.column("M.dc_current"), speed = r.column("M.w");
  for (size_t k = 0; k < t.size(); ++k) {
    CAPTURE(t[k]);
    CHECK(tau[k] == doctest::Approx(std::min(50.0, 100.0 - 0.1 * speed[k])).epsilon(1e-9));
    CHECK(i[k] * 400.0 == doctest::Approx(tau[k] * speed[k] / eta(speed[k], tau[k])).epsilon(1e-9));
  }
  SUBCASE("braking: the bus receives η |τ ω|") {
    n["components"]["T"]["params"]["value"] = -30;
    n["components"]["M"]["initial"] = {{"w", 200.0}};
    n["solver"]["t_end"] = 1.0;
    RunResult b = test::run(n.dump());
    REQUIRE(b.finished);
    const double w0 = 200.0, p = -30.0 * w0;
    CHECK(b.column("src.power").front() == doctest::Approx(p * eta(w0, 30.0)).epsilon(1e-9));
    CHECK(b.column("M.loss").front() == doctest::Approx(p * eta(w0, 30.0) - p).epsilon(1e-9));
    CHECK(b.column("M.w").back() == doctest::Approx(w0 - 30.0 / 0.5 * 1.0).epsilon(1e-7));
  }
}
