// electrical.dc_machine against the closed form of its second-order linear system:
//   d/dt [i, ω] = A [i, ω] + b,   A = [[−R/L, −k/L], [k/J, −b/J]]
// (electrical_test_util.hpp, linear2_solution): motor start from a voltage step (two
// time constants, steady state ω = V k/(k² + R b)), generator driven by a torque into a
// resistor, the heat port's losses into a heat capacity, and a load through the
// rotational library's shaft, inertia and torque source.
//
// Tolerances: dopri5 at rtol 1e-10, atol 1e-12 (see test_circuits.cpp): 1e-7 of each
// variable's scale over the run.
#include <cmath>

#include <nlohmann/json.hpp>

#include "electrical_test_util.hpp"

using namespace jourdain;
using nlohmann::json;

namespace {

// R = 1 Ω, L = 0.5 mH, k = 0.05 N·m/A, J = 1e-4 kg·m², b = 1e-5 N·m·s: the electrical
// time constant L/R = 0.5 ms and the mechanical one J R/(k² + R b) ≈ 40 ms.
constexpr double R = 1.0, L = 5e-4, k = 0.05, J = 1e-4, b = 1e-5;

json machine() {
  return {{"type", "electrical.dc_machine"},
          {"params",
           {{"resistance", "1 V/A"},
            {"inductance", "0.5 mV*s/A"},
            {"torque_constant", "0.05 N*m/A"},
            {"inertia", "1e-4 kg*m^2"},
            {"viscous_friction", "1e-5 N*m*s/rad"}}}};
}

json tight(double t_end, double interval) {
  return {{"method", "dopri5"}, {"rtol", 1e-10}, {"atol", 1e-12}, {"t_end", t_end}, {"output_interval", interval}};
}

}  // namespace

TEST_CASE("DC motor: current and speed after a voltage step, and the steady state ω = V k/(k² + R b)") {
  const double V = 12.0;
  json n = {{"components",
             {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "12 V"}}}}},
              {"M", machine()},
              {"gnd", {{"type", "electrical.ground"}}}}},
            {"connections", test::wires({{"src.p", "M.p"}, {"M.n", "gnd.p"}, {"src.n", "gnd.p"}})},
            {"record", {"M.i", "M.w", "M.phi", "M.torque", "M.back_emf", "M.copper_loss", "M.friction_loss",
                        "src.power", "M.kinetic_energy", "M.magnetic_energy"}},
            {"solver", tight(1.0, 5e-4)}};  // 25 mechanical time constants: settled to 1e-10
  RunResult r = test::run(n.dump());
  REQUIRE(r.finished);
  Eigen::Matrix2d A;
  A << -R / L, -k / L, k / J, -b / J;
  const Eigen::Vector2d u(V / L, 0.0), x0(0.0, 0.0);
  // Two real time constants: the armature's and the rotor's.
  const double disc = A.trace() * A.trace() / 4 - A.determinant();
  REQUIRE(disc > 0);
  const double w_ss = V * k / (k * k + R * b), i_ss = b * w_ss / k;
  CHECK(test::max_error(r, "M.i", [&](double t) { return test::linear2_solution(A, u, x0, t)[0]; }) < 1e-7 * V / R);
  CHECK(test::max_error(r, "M.w", [&](double t) { return test::linear2_solution(A, u, x0, t)[1]; }) < 1e-7 * w_ss);
  CHECK(r.column("M.w").back() == doctest::Approx(w_ss).epsilon(1e-6));
  CHECK(r.column("M.i").back() == doctest::Approx(i_ss).epsilon(1e-5));
  // Peak current near V/R right after the step (the rotor has barely moved).
  double peak = 0;
  for (double i : r.column("M.i")) peak = std::max(peak, i);
  CHECK(peak > 0.9 * V / R);
  // Power balance at the end (steady state: nothing stored changes): V i = R i² + b ω².
  const double p_in = r.column("src.power").back();
  CHECK(p_in == doctest::Approx(r.column("M.copper_loss").back() + r.column("M.friction_loss").back()).epsilon(1e-5));
  CHECK(r.column("M.kinetic_energy").back() == doctest::Approx(0.5 * J * w_ss * w_ss).epsilon(1e-6));
  CHECK(r.column("M.back_emf").back() == doctest::Approx(k * w_ss).epsilon(1e-6));

  SUBCASE("with Coulomb friction: the steady state meets V = R i + k ω and k i = b ω + T_c tanh(ω/ω_c)") {
    const double Tc = 0.02, wc = 0.1;
    n["components"]["M"]["params"]["coulomb_friction"] = "0.02 N*m";
    RunResult c = test::run(n.dump());
    REQUIRE(c.finished);
    const double i = c.column("M.i").back(), w = c.column("M.w").back();
    CHECK(V - R * i - k * w == doctest::Approx(0.0).scale(V).epsilon(1e-6));
    CHECK(k * i - b * w - Tc * std::tanh(w / wc) == doctest::Approx(0.0).scale(Tc).epsilon(1e-6));
    // Far above ω_c the friction is T_c itself: ω = (V k − R T_c)/(k² + R b).
    CHECK(w == doctest::Approx((V * k - R * Tc) / (k * k + R * b)).epsilon(1e-6));
    CHECK(c.column("M.friction_loss").back() == doctest::Approx(b * w * w + Tc * w).epsilon(1e-6));
  }
}

TEST_CASE("DC generator: a driving torque and a resistive load, current out of p") {
  // τ = 0.02 N·m on the shaft, armature through a node into R_L = 3 Ω: at steady state
  // ω = τ/(b + k²/(R + R_L)) and i = −k ω/(R + R_L) (the current leaves p: generating).
  const double tau = 0.02, RL = 3.0;
  json n = {{"components",
             {{"drive", {{"type", "test.torque"}, {"params", {{"torque", tau}}}}},
              {"M", machine()},
              {"x", {{"type", "electrical.node"}}},
              {"load", {{"type", "electrical.resistor"}, {"params", {{"resistance", RL}}}}},
              {"gnd", {{"type", "electrical.ground"}}}}},
            {"connections", test::wires({{"drive.p", "M.shaft"}, {"M.p", "x.p"}, {"load.p", "x.p"}, {"load.n", "gnd.p"},
                             {"M.n", "gnd.p"}})},
            {"record", {"M.i", "M.w", "x.p.v", "load.loss", "M.copper_loss", "M.friction_loss"}},
            {"solver", tight(3.0, 2e-3)}};
  RunResult r = test::run_with_test_parts(n);
  REQUIRE(r.finished);
  Eigen::Matrix2d A;
  A << -(R + RL) / L, -k / L, k / J, -b / J;
  const Eigen::Vector2d u(0.0, tau / J), x0(0.0, 0.0);
  const double w_ss = tau / (b + k * k / (R + RL)), i_ss = -k * w_ss / (R + RL);
  CHECK(test::max_error(r, "M.i", [&](double t) { return test::linear2_solution(A, u, x0, t)[0]; }) <
        1e-7 * std::abs(i_ss));
  CHECK(test::max_error(r, "M.w", [&](double t) { return test::linear2_solution(A, u, x0, t)[1]; }) < 1e-7 * w_ss);
  CHECK(r.column("M.w").back() == doctest::Approx(w_ss).epsilon(1e-6));
  CHECK(r.column("M.i").back() == doctest::Approx(i_ss).epsilon(1e-6));
  // The terminal voltage is positive (v = −R_L i) and the mechanical power τ ω ends up in
  // the load, the winding and the friction.
  CHECK(r.column("x.p.v").back() == doctest::Approx(-RL * i_ss).epsilon(1e-6));
  const double sum = r.column("load.loss").back() + r.column("M.copper_loss").back() + r.column("M.friction_loss").back();
  CHECK(sum == doctest::Approx(tau * w_ss).epsilon(1e-6));
}

TEST_CASE("DC machine heat port: the losses heat a capacity, and R follows its temperature") {
  // The motor of the first case, its losses into a 50 J/K capacity. With α = 0 the capacity's temperature rise is the integral of the
  // losses, and the machine runs as without the port.
  json n = {{"components",
             {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "12 V"}}}}},
              {"M", machine()},
              {"C", {{"type", "test.heat_capacity"}, {"params", {{"capacity", 50.0}}}}},
              {"gnd", {{"type", "electrical.ground"}}}}},
            {"connections", test::wires({{"src.p", "M.p"}, {"M.n", "gnd.p"}, {"src.n", "gnd.p"}, {"M.heat", "C.p"}})},
            {"record", {"M.w", "C.T", "M.copper_loss", "M.friction_loss", "src.power", "M.kinetic_energy",
                        "M.magnetic_energy"}},
            {"solver", tight(1.0, 2e-5)}};
  n["components"]["M"]["params"]["heat_port"] = true;
  RunResult r = test::run_with_test_parts(n);
  REQUIRE(r.finished);
  // Energy balance over the run: ∫ V i dt = ΔE_kinetic + ΔE_magnetic + C ΔT.
  const auto t = r.column("time"), p = r.column("src.power");
  double supplied = 0;
  for (size_t k = 1; k < t.size(); ++k) supplied += 0.5 * (p[k] + p[k - 1]) * (t[k] - t[k - 1]);
  const double stored = r.column("M.kinetic_energy").back() + r.column("M.magnetic_energy").back();
  const double heat = 50.0 * (r.column("C.T").back() - 293.15);
  // The trapezoidal rule over rows 20 µs apart carries the error, (Δt/τ_e)²/12 ≈ 1e-4 of
  // the energy of the current's first rise (τ_e = 0.5 ms), far less of the total.
  CHECK(stored + heat == doctest::Approx(supplied).epsilon(1e-4));
  const double w_ss = 12.0 * k / (k * k + R * b);
  CHECK(r.column("M.w").back() == doctest::Approx(w_ss).epsilon(1e-6));

  SUBCASE("a hot winding: R (1 + α (T − T_ref)) lowers the no-load speed") {
    n["components"]["C"]["initial"] = {{"T", 393.15}};
    n["components"]["M"]["params"]["temperature_coefficient"] = "0.004 1/K";
    n["components"]["C"]["params"]["capacity"] = 1e9;  // holds its temperature
    RunResult hot = test::run_with_test_parts(n);
    REQUIRE(hot.finished);
    const double Rh = R * (1 + 0.004 * 100);
    CHECK(hot.column("M.w").back() == doctest::Approx(12.0 * k / (k * k + Rh * b)).epsilon(1e-6));
  }
}

TEST_CASE("DC motor with the rotational library: through a shaft to a load inertia and a load torque") {
  // The rotor (state side) drives a rotational.shaft (response side both ends) to a
  // rotational.inertia that a rotational.torque_source brakes with 5 mN·m. At steady
  // state both turn at ω = (V k − R τ_L)/(k² + R b); the energy account closes.
  const double V = 12.0, tau_load = 0.005;
  json n = {{"components",
             {{"src", {{"type", "electrical.voltage_source"}, {"params", {{"voltage", "12 V"}}}}},
              {"M", machine()},
              {"shaft", {{"type", "rotational.shaft"}, {"params", {{"stiffness", "10 N*m/rad"}, {"damping", "0.01 N*m*s/rad"}}}}},
              {"load", {{"type", "rotational.inertia"}, {"params", {{"inertia", "1e-3 kg*m^2"}}}}},
              {"brake", {{"type", "rotational.torque_source"}, {"params", {{"torque", -tau_load}}}}},
              {"gnd", {{"type", "electrical.ground"}}}}},
            {"connections", test::wires({{"src.p", "M.p"}, {"M.n", "gnd.p"}, {"src.n", "gnd.p"}, {"shaft.a", "M.shaft"},
                                         {"shaft.b", "load.a"}, {"brake.flange", "load.b"}})},
            {"record", {"M.w", "M.i"}},
            {"energy", true},
            {"solver", tight(8.0, 0.01)}};
  RunResult r = test::run(n.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  const double w_ss = (V * k - R * tau_load) / (k * k + R * b);
  CHECK(r.column("M.w").back() == doctest::Approx(w_ss).epsilon(1e-6));
  CHECK(r.column("M.i").back() == doctest::Approx((b * w_ss + tau_load) / k).epsilon(1e-6));
  const nlohmann::json& e = r.summary.at("energy");
  CHECK(e["total"]["relative_balance_residual"].get<double>() < 1e-8);
  CHECK(e["total"]["component_residual"].get<double>() < 1e-8 * e["total"]["moved"].get<double>());
}
