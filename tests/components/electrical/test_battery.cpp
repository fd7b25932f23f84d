// electrical.battery against closed forms: a constant-current discharge with one and two
// RC pairs, a resistive load (the algebraic loop through the terminal voltage), and the
// limits as events (empty: stop or warn; current and voltage limits).
//
// With a linear OCV table OCV = a + s SOC and a constant discharge current I:
//   SOC(t) = SOC0 − I t/Q,   v_k(t) = R_k I (1 − e^(−t/(R_k C_k))),
//   v(t)   = a + s SOC(t) − R0 I − Σ v_k(t).
// Tolerances: dopri5 at rtol 1e-10, atol 1e-12 (test_circuits.cpp): 1e-7 of the volts.
#include <cmath>

#include <nlohmann/json.hpp>

#include "electrical_test_util.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

// A 2 A·h cell, OCV 3.0 V empty to 4.2 V full, R0 = 50 mΩ, one RC pair (20 mΩ, 1500 F:
// τ1 = 30 s), discharged at I by a current source.
json discharge(double current, double t_end) {
  return {{"components",
           {{"bat",
             {{"type", "electrical.battery"},
              {"params",
               {{"capacity", "2 A*h"},
                {"ocv", {{0.0, 3.0}, {1.0, 4.2}}},
                {"series_resistance", "50 mV/A"},
                {"rc_pairs", 1},
                {"r1", "20 mV/A"},
                {"c1", "1500 A*s/V"}}},
              {"initial", {{"soc", 0.9}}}}},
            {"load", {{"type", "electrical.current_source"}, {"params", {{"current", current}}}}},
            {"gnd", {{"type", "electrical.ground"}}}}},
          // The source drives its current from bat.p (its pin n) to the ground (its pin p).
          {"connections", test::wires({{"load.n", "bat.p"}, {"load.p", "gnd.p"}, {"bat.n", "gnd.p"}})},
          {"record", {"bat.soc", "bat.v1", "bat.voltage", "bat.current", "bat.loss", "bat.chemical_power",
                      "bat.energy"}},
          {"solver", {{"method", "dopri5"}, {"rtol", 1e-10}, {"atol", 1e-12}, {"t_end", t_end}, {"output_interval", 1.0}}}};
}

}  // namespace

TEST_CASE("battery constant-current discharge: SOC falls linearly, the RC pair's transient, terminal voltage") {
  const double I = 4.0, Q = 2 * 3600.0, R0 = 0.05, R1 = 0.02, C1 = 1500.0, tau = R1 * C1;
  RunResult r = test::run(discharge(I, 200.0).dump());
  REQUIRE(r.finished);
  auto soc = [&](double t) { return 0.9 - I * t / Q; };
  auto v1 = [&](double t) { return R1 * I * (1 - std::exp(-t / tau)); };
  auto v = [&](double t) { return 3.0 + 1.2 * soc(t) - R0 * I - v1(t); };
  CHECK(test::max_error(r, "bat.soc", soc) < 1e-9);
  CHECK(test::max_error(r, "bat.v1", v1) < 1e-7);
  CHECK(test::max_error(r, "bat.voltage", v) < 1e-7);
  CHECK(test::max_error(r, "bat.current", [&](double) { return I; }) < 1e-12);
  // Energy: OCV i = v i + loss + d/dt(½ C1 v1²), with the loss R0 i² + v1²/R1.
  CHECK(test::max_error(r, "bat.loss", [&](double t) { return R0 * I * I + v1(t) * v1(t) / R1; }) < 1e-7);
  CHECK(test::max_error(r, "bat.chemical_power", [&](double t) { return (3.0 + 1.2 * soc(t)) * I; }) < 1e-7);
  CHECK(test::max_error(r, "bat.energy", [&](double t) { return 0.5 * C1 * v1(t) * v1(t); }) < 1e-5);
}

TEST_CASE("battery with two RC pairs: the two transients add up") {
  const double I = 4.0, Q = 2 * 3600.0, R0 = 0.05, R1 = 0.02, C1 = 1500.0, R2 = 0.01, C2 = 20000.0;
  json n = discharge(I, 600.0);
  auto& p = n["components"]["bat"]["params"];
  p["rc_pairs"] = 2;
  p["r2"] = "10 mV/A";
  p["c2"] = "20000 A*s/V";
  n["record"].push_back("bat.v2");
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  auto vk = [&](double Rk, double Ck, double t) { return Rk * I * (1 - std::exp(-t / (Rk * Ck))); };
  CHECK(test::max_error(r, "bat.v2", [&](double t) { return vk(R2, C2, t); }) < 1e-7);
  CHECK(test::max_error(r, "bat.voltage", [&](double t) {
          return 3.0 + 1.2 * (0.9 - I * t / Q) - R0 * I - vk(R1, C1, t) - vk(R2, C2, t);
        }) < 1e-7);
}

TEST_CASE("battery on a resistive load: the terminal voltage solves its algebraic loop") {
  // No RC pair: v = OCV − R0 i with i = v/R_L, so v = OCV R_L/(R_L + R0) at every instant.
  const double RL = 1.0, R0 = 0.05, Q = 2 * 3600.0;
  json n = discharge(0.0, 100.0);
  n["components"].erase("load");
  n["components"]["bat"]["params"]["rc_pairs"] = 0;
  n["components"]["R"] = {{"type", "electrical.resistor"}, {"params", {{"resistance", RL}}}};
  n["connections"] = test::wires({{"bat.p", "R.p"}, {"R.n", "gnd.p"}, {"bat.n", "gnd.p"}});
  n["record"] = {"bat.soc", "bat.voltage", "bat.current", "R.current"};
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  const auto soc = r.column("bat.soc"), v = r.column("bat.voltage"), i = r.column("R.current");
  for (size_t k = 0; k < soc.size(); ++k) {
    const double ocv = 3.0 + 1.2 * soc[k];
    CHECK(v[k] == doctest::Approx(ocv * RL / (RL + R0)).epsilon(1e-9));
    CHECK(i[k] == doctest::Approx(v[k] / RL).epsilon(1e-9));
  }
  // SOC: dSOC/dt = −(a + s SOC)/((R_L + R0) Q), an exponential approach to SOC = −a/s.
  const double a = 3.0, s = 1.2, rate = s / ((RL + R0) * Q);
  auto soc_exact = [&](double t) { return (0.9 + a / s) * std::exp(-rate * t) - a / s; };
  CHECK(test::max_error(r, "bat.soc", soc_exact) < 1e-9);
}

TEST_CASE("battery limits: empty stops the run (or warns), current and voltage limits warn") {
  // 4 A from 0.9 of 2 A·h: SOC 0.1 after 0.8 · 7200/4 = 1440 s.
  json n = discharge(4.0, 2000.0);
  n["components"]["bat"]["params"]["soc_min"] = 0.1;
  n["solver"]["output_interval"] = 10.0;
  SUBCASE("stop") {
    RunResult r = test::run(n.dump());
    REQUIRE(r.finished);
    REQUIRE(r.termination.has_value());
    CHECK(r.termination->reason.find("battery empty") != std::string::npos);
    CHECK(r.column("time").back() == doctest::Approx(1440.0).epsilon(1e-6));
  }
  SUBCASE("warn, with the voltage and current limits") {
    // The load steps from 2 A to 4 A at 100 s, across max_current = 3 A.
    n["components"]["bat"]["params"]["at_empty"] = "warn";
    n["components"]["bat"]["params"]["min_voltage"] = "3.2 V";
    n["components"]["bat"]["params"]["max_current"] = "3 A";
    n["components"]["load"]["params"] = {{"source", "signal"}};
    n["components"]["I"] = {{"type", "signal.step"}, {"params", {{"step_time", "100 s"}, {"before", 2}, {"after", 4}}}};
    n["connections"].push_back({"I.out", "load.command"});
    RunResult r = test::run(n.dump());
    REQUIRE(r.finished);
    CHECK_FALSE(r.termination.has_value());
    CHECK(r.column("time").back() == doctest::Approx(2000.0));
    // Empty when 0.8 of the charge has gone: 2 A for 100 s, then 4 A. A warning starts
    // with its time, "t = ... s: ".
    const double t_empty = 100.0 + (0.8 * 7200.0 - 200.0) / 4.0;
    int empty = 0, under = 0, over = 0;
    for (const auto& w : r.warnings) {
      if (w.find("battery empty") != std::string::npos)
        CHECK(std::stod(w.substr(w.find("t = ") + 4)) == doctest::Approx(t_empty).epsilon(1e-6));
      empty += w.find("battery empty") != std::string::npos;
      under += w.find("below min_voltage") != std::string::npos;
      over += w.find("beyond max_current") != std::string::npos;
    }
    CHECK(empty == 1);
    CHECK(under == 1);
    CHECK(over == 1);
  }
}

TEST_CASE("battery heat port: the Joule losses warm a heat capacity") {
  // No RC pair, 4 A for 200 s through R0 = 50 mΩ: 0.8 W, so a 10 J/K capacity warms by
  // R0 I² t / C = 16 K; with one RC pair its loss v1²/R1 adds ∫ R1 I² (1 − e^(−t/τ1))² dt.
  json n = discharge(4.0, 200.0);
  n["components"]["bat"]["params"]["heat_port"] = true;
  n["components"]["C"] = {{"type", "test.heat_capacity"}, {"params", {{"capacity", 10.0}}}};
  n["connections"].push_back({"bat.heat", "C.p"});
  n["record"] = {"C.T"};
  SUBCASE("series resistance alone") {
    n["components"]["bat"]["params"]["rc_pairs"] = 0;
    RunResult r = test::run_with_test_parts(n);
    REQUIRE(r.finished);
    CHECK(test::max_error(r, "C.T", [](double t) { return 293.15 + 0.05 * 16.0 * t / 10.0; }) < 1e-9);
  }
  SUBCASE("with an RC pair") {
    RunResult r = test::run_with_test_parts(n);
    REQUIRE(r.finished);
    const double I = 4.0, R0 = 0.05, R1 = 0.02, tau = 30.0;
    // ∫0^t (1 − e^(−s/τ))² ds = t − 2τ (1 − e^(−t/τ)) + τ/2 (1 − e^(−2t/τ))
    auto heat = [&](double t) {
      return R0 * I * I * t +
             R1 * I * I * (t - 2 * tau * (1 - std::exp(-t / tau)) + tau / 2 * (1 - std::exp(-2 * t / tau)));
    };
    CHECK(test::max_error(r, "C.T", [&](double t) { return 293.15 + heat(t) / 10.0; }) < 1e-7);
  }
}
