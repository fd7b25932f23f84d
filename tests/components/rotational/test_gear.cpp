// The gear: its speed ratio, the efficiency in the direction power flows (both directions,
// both senses of rotation), the drag torque and the hold band around zero speed.
#include <cmath>

#include "../hydraulic/hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

// A speed source at `w_in` on the gear's input, a torque source exerting `load` on its
// output (τ_b).
RunResult drive(double w_in, double load, const json& gear_params) {
  json n = circuit({{"src", {{"type", "rotational.speed_source"}, {"params", {{"speed", w_in}}}}},
                    {"gear", {{"type", "rotational.gear"}, {"params", gear_params}}},
                    {"load", {{"type", "rotational.torque_source"}, {"params", {{"torque", load}}}}}},
                   {{"src.flange", "gear.a"}, {"gear.b", "load.flange"}},
                   {"src.phi", "gear.b.phi", "gear.b.w", "src.torque", "src.power", "load.power", "gear.loss",
                    "gear.input_torque", "gear.load_torque"},
                   {{"method", "dopri5"}, {"t_end", 0.5}, {"output_interval", 0.1}});
  return run_circuit(n);
}

}  // namespace

TEST_CASE("gear: w_b = w_a / r, and the side driven gets eta times the power of the side driving, both ways") {
  const double r = 4.0, eta = 0.9, L = 5.0;
  const json params = {{"ratio", r}, {"efficiency", eta}};
  // (input speed, load torque): the load braked (power a -> b) or driving (b -> a), in
  // both senses of rotation.
  for (const auto& point : std::vector<std::pair<double, double>>{{100, -L}, {100, L}, {-100, L}, {-100, -L}}) {
    // (Named copies: clang 14 cannot capture structured bindings in CAPTURE's lambda.)
    const double w = point.first, load = point.second;
    CAPTURE(w);
    CAPTURE(load);
    RunResult res = drive(w, load, params);
    // The kinematics: exact divisions.
    CHECK(last(res, "gear.b.w") == w / r);
    CHECK(last(res, "gear.b.phi") == last(res, "src.phi") / r);
    const double p_in = last(res, "src.power"), p_load = last(res, "load.power"), loss = last(res, "gear.loss");
    const bool forward = -load * (w / r) > 0.0;  // power delivered to the load
    if (forward) {
      // −τ_b ω_b reaches the load, η of what the source gives: τ_a = τ_b / (η r).
      CHECK(-p_load == doctest::Approx(eta * p_in).epsilon(1e-13));
      CHECK(last(res, "gear.input_torque") == doctest::Approx(load / (eta * r)).epsilon(1e-13));
    } else {
      // The load drives: the source takes back η of the load's power: τ_a = η τ_b / r.
      CHECK(-p_in == doctest::Approx(eta * p_load).epsilon(1e-13));
      CHECK(last(res, "gear.input_torque") == doctest::Approx(eta * load / r).epsilon(1e-13));
    }
    // The balance: what both sides bring in is the loss, (1 − η) of the power driving.
    CHECK(loss > 0.0);
    CHECK(p_in + p_load == doctest::Approx(loss).epsilon(1e-13));
    CHECK(loss == doctest::Approx((1 - eta) * std::max(p_in, p_load)).epsilon(1e-12));
    CHECK(last(res, "src.torque") == -last(res, "gear.input_torque"));
    CHECK(last(res, "gear.load_torque") == load);
  }
  // An ideal gear (η = 1) passes the power unchanged; a negative ratio reverses.
  RunResult ideal = drive(100, -L, {{"ratio", -r}});
  CHECK(last(ideal, "gear.b.w") == -25.0);
  CHECK(last(ideal, "src.power") == doctest::Approx(-last(ideal, "load.power")).epsilon(1e-15));
  CHECK(std::abs(last(ideal, "gear.loss")) < 1e-12);
  RunResult reversed = drive(100, L, {{"ratio", -r}, {"efficiency", eta}});  // ω_b < 0, τ_b > 0: forward
  CHECK(-last(reversed, "load.power") == doctest::Approx(eta * last(reversed, "src.power")).epsilon(1e-13));
}

TEST_CASE("gear: the drag torque takes T_d w_a at no load") {
  RunResult res = drive(100, 0.0, {{"ratio", 3.0}, {"efficiency", 0.95}, {"drag_torque", "0.2 N*m"}});
  CHECK(last(res, "src.torque") == doctest::Approx(0.2).epsilon(1e-14));
  CHECK(last(res, "gear.loss") == doctest::Approx(0.2 * 100).epsilon(1e-14));
  CHECK(last(res, "load.power") == 0.0);
}

TEST_CASE("gear: a torque between the two laws holds a load at a creep speed inside the switch band") {
  // An inertia (0.1 kg m²) driven by T_d through a 1:1 gear with η = 0.8 against a load
  // torque of −10 N m: it lifts the load above L / η = 12.5 N m, lets it drive below
  // η L = 8 N m, and between the two the mesh friction holds it.
  const double L = 10.0, eta = 0.8, ws = 0.01;
  auto run_with = [&](double drive_torque) {
    json n = circuit({{"rotor", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.1}}}}},
                      {"motor", {{"type", "rotational.torque_source"}, {"params", {{"torque", drive_torque}}}}},
                      {"gear", {{"type", "rotational.gear"}, {"params", {{"ratio", 1.0}, {"efficiency", eta}}}}},
                      {"load", {{"type", "rotational.torque_source"}, {"params", {{"torque", -L}}}}}},
                     {{"rotor.a", "motor.flange"}, {"rotor.b", "gear.a"}, {"gear.b", "load.flange"}}, {"rotor.w"},
                     {{"method", "bdf"}, {"t_end", 1.0}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.1}});
    return run_circuit(n);
  };
  // Holding at T_d = 10 N m: the speed settles where T_d = L (m + d s): s = (1 − m) / d,
  // s(x) = x (3 − x²) / 2 with x = ω / ω_s.
  const double m = 0.5 * (1 / eta + eta), d = 0.5 * (1 / eta - eta);
  const double x = last(run_with(10.0), "rotor.w") / ws;
  CHECK(std::abs(x) < 1.0);
  CHECK(0.5 * x * (3 - x * x) == doctest::Approx((1 - m) / d).epsilon(1e-6));
  // Above L / η it accelerates at (T_d − L / η) / J; below η L it runs back at (T_d − η L) / J.
  // Leaving the band from rest takes about ω_s / α ≈ 0.5 ms, during which the torque
  // differs from the law outside by less than L / η − η L = 4.5 N m: less than 0.02 rad/s
  // on the speed after 1 s.
  CHECK(std::abs(last(run_with(14.0), "rotor.w") - (14.0 - L / eta) / 0.1) < 0.02);
  CHECK(std::abs(last(run_with(6.0), "rotor.w") - (6.0 - eta * L) / 0.1) < 0.02);
}

TEST_CASE("gear: a ratio is required and may not be 0") {
  json n = circuit({{"src", {{"type", "rotational.speed_source"}}},
                    {"gear", {{"type", "rotational.gear"}}},
                    {"load", {{"type", "rotational.torque_source"}}}},
                   {{"src.flange", "gear.a"}, {"gear.b", "load.flange"}}, {}, {{"t_end", 0.1}});
  CHECK(load_error(n).find("ratio") != std::string::npos);
  n["components"]["gear"]["params"] = {{"ratio", 0}};
  CHECK(load_error(n).find("must not be 0") != std::string::npos);
}
