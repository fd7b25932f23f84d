// Each joint and driver in free motion WITHOUT stabilization (α = β = 0, no projection):
// the solver integrates only Φ̈ = 0, so Φ stays at the integration error exactly when each
// constraint's Jacobian J and velocity-quadratic term c are the true derivatives of its
// Φ. Wrong terms show as drift of order ω² L t² (about 1 here). Passive joints must also
// conserve energy (their reactions −Jᵀλ do no work only with the right J); drivers must
// deliver exactly the energy the mechanism gains (their power, effort · Ċ).
#include <algorithm>
#include <cmath>

#include "closed_forms.hpp"
#include "mechanism_netlist.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const json no_stabilization = {{"alpha", 0}, {"beta", 0}};

// rtol 1e-11 over a few seconds: the drift of Φ is bounded by the accumulated local
// error, ~1e-11 × (steps ~1e3) × (lengths ~1 m); 1e-7 leaves a wide margin yet is
// six orders below the drift a wrong term produces.
constexpr double kDrift = 1e-7;

void check_energy(const RunResult& r, const std::vector<std::string>& bodies, const std::vector<std::string>& springs = {}) {
  const double e0 = energy(r, bodies, 0, springs);
  double drift = 0.0, scale = 0.0;
  for (size_t k = 0; k < r.rows.size(); ++k) {
    drift = std::max(drift, std::abs(energy(r, bodies, k, springs) - e0));
    for (const auto& b : bodies) scale = std::max(scale, std::abs(r.column(b + ".kinetic_energy")[k]));
  }
  MESSAGE("energy drift " << drift << " J on a kinetic-energy scale of " << scale << " J");
  CHECK(drift < 1e-8 * std::max(1.0, scale));
}

RunResult run_checked(const json& doc) {
  RunResult r = run(doc.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  // Every mechanism of the netlist (each has its monitors).
  double drift = 0.0;
  for (const auto& [name, m] : r.summary["monitors"].items())
    if (name.find(".constraint_norm") != std::string::npos) drift = std::max(drift, m["max_abs"].get<double>());
  MESSAGE("max |Φ| without stabilization: " << drift);
  CHECK(drift < kDrift);
  return r;
}

const json ground_at_origin = {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}, {"P", {1.5, 0}}}}}}};

}  // namespace

TEST_CASE("revolute: a double pendulum keeps its joints and its energy") {
  json comps = {{"ground", ground_at_origin},
                {"upper", rod(1.0, 1.0, 0.5, 0.0, 0.0, 2.0)},
                {"lower", rod(0.8, 0.7, 1.0, -0.4, -M_PI / 2, -3.0)},
                {"hinge1", {{"type", "mechanical.revolute"}}},
                {"hinge2", {{"type", "mechanical.revolute"}}}};
  json conns = links({{"ground.O", "hinge1.a"}, {"upper.p", "hinge1.b"}, {"upper.q", "hinge2.a"}, {"lower.p", "hinge2.b"}});
  json rec = {"upper.kinetic_energy", "upper.potential_energy", "lower.kinetic_energy", "lower.potential_energy",
              "mechanism.constraint_norm"};
  RunResult r = run_checked(mechanism(comps, conns, 3.0, rec, no_stabilization));
  check_energy(r, {"upper", "lower"});
}

TEST_CASE("weld: two rods welded at 90 degrees swing as one rigid body") {
  json comps = {{"ground", ground_at_origin},
                {"arm", rod(1.0, 1.0, 0.5, 0.0, 0.0, 1.0)},
                {"cross", rod(0.6, 0.5, 1.0, 0.3, M_PI / 2)},
                {"hinge", {{"type", "mechanical.revolute"}}},
                {"weld", {{"type", "mechanical.weld"}, {"params", {{"angle", M_PI / 2}}}}}};
  json conns = links({{"ground.O", "hinge.a"}, {"arm.p", "hinge.b"}, {"arm.q", "weld.a"}, {"cross.p", "weld.b"}});
  json rec = {"arm.kinetic_energy", "arm.potential_energy", "cross.kinetic_energy", "cross.potential_energy",
              "arm.omega", "cross.omega", "mechanism.constraint_norm"};
  RunResult r = run_checked(mechanism(comps, conns, 3.0, rec, no_stabilization));
  check_energy(r, {"arm", "cross"});
  const auto wa = r.column("arm.omega"), wc = r.column("cross.omega");
  for (size_t k = 0; k < wa.size(); k += 50) CHECK(wc[k] == doctest::Approx(wa[k]).epsilon(1e-8).scale(1.0));
}

TEST_CASE("translational: a slider on a spinning guide, held by a spring") {
  json comps = {{"ground", ground_at_origin},
                {"guide", rod(1.0, 2.0, 0.0, 0.0, 0.0, 3.0)},
                {"slider", {{"type", "mechanical.body"},
                            {"params", {{"mass", 0.5}, {"inertia", 0.01}}},
                            {"initial", {{"x", 0.3}, {"y", 0.0}, {"theta", 0.0}}}}},
                {"pivot", {{"type", "mechanical.revolute"}}},
                {"guideway", {{"type", "mechanical.translational"}, {"params", {{"axis", {1, 0}}}}}},
                {"spring", {{"type", "mechanical.spring_damper"}, {"params", {{"stiffness", 40.0}, {"free_length", 0.2}}}}}};
  comps["guide"]["params"]["points"]["c"] = {0.0, 0.0};
  json conns = links({{"ground.O", "pivot.a"}, {"guide.cm", "pivot.b"}, {"guide.cm", "guideway.a"}, {"slider.cm", "guideway.b"},
                {"guide.cm", "spring.a"}, {"slider.cm", "spring.b"}});
  json rec = {"guide.kinetic_energy", "guide.potential_energy", "slider.kinetic_energy", "slider.potential_energy",
              "spring.energy", "guideway.position", "mechanism.constraint_norm"};
  RunResult r = run_checked(mechanism(comps, conns, 3.0, rec, no_stabilization, 0.0));
  check_energy(r, {"guide", "slider"}, {"spring"});
  const auto s = r.column("guideway.position");  // it really slides
  CHECK(*std::max_element(s.begin(), s.end()) - *std::min_element(s.begin(), s.end()) > 0.05);
}

TEST_CASE("pin in slot: a pin sliding and turning in a spinning slot") {
  json comps = {{"ground", ground_at_origin},
                {"slotted", rod(1.0, 2.0, 0.0, 0.0, 0.3, 2.0)},
                {"pin", rod(0.2, 0.3, 0.35 * std::cos(0.3) + 0.1, 0.35 * std::sin(0.3), 0.0, -4.0)},
                {"pivot", {{"type", "mechanical.revolute"}}},
                {"slot", {{"type", "mechanical.pin_in_slot"}, {"params", {{"axis", {1, 0}}}}}},
                {"spring", {{"type", "mechanical.spring_damper"}, {"params", {{"stiffness", 30.0}, {"free_length", 0.1}}}}}};
  json conns = links({{"ground.O", "pivot.a"}, {"slotted.cm", "pivot.b"}, {"slotted.cm", "slot.a"}, {"pin.p", "slot.b"},
                {"slotted.cm", "spring.a"}, {"pin.p", "spring.b"}});
  json rec = {"slotted.kinetic_energy", "slotted.potential_energy", "pin.kinetic_energy", "pin.potential_energy",
              "spring.energy", "mechanism.constraint_norm"};
  RunResult r = run_checked(mechanism(comps, conns, 3.0, rec, no_stabilization));
  check_energy(r, {"slotted", "pin"}, {"spring"});
}

TEST_CASE("gear pair: the speed ratio holds and energy is conserved") {
  json comps = {{"ground", ground_at_origin},
                {"wheel1", rod(0.4, 1.0, 0.0, 0.0, 0.0, 3.0)},
                {"wheel2", rod(0.8, 3.0, 1.5, 0.0, 0.2)},
                {"bearing1", {{"type", "mechanical.revolute"}}},
                {"bearing2", {{"type", "mechanical.revolute"}}},
                {"mesh", {{"type", "mechanical.gear_pair"}, {"params", {{"ratio", -0.5}, {"reference_angle_b", 0.2}}}}}};
  json conns = links({{"ground.O", "bearing1.a"}, {"wheel1.cm", "bearing1.b"}, {"ground.P", "bearing2.a"}, {"wheel2.cm", "bearing2.b"},
                {"wheel1.cm", "mesh.a"}, {"wheel2.cm", "mesh.b"}});
  json rec = {"wheel1.kinetic_energy", "wheel1.potential_energy", "wheel2.kinetic_energy", "wheel2.potential_energy",
              "wheel1.omega", "wheel2.omega", "mechanism.constraint_norm"};
  RunResult r = run_checked(mechanism(comps, conns, 2.0, rec, no_stabilization));
  check_energy(r, {"wheel1", "wheel2"});
  const auto w1 = r.column("wheel1.omega"), w2 = r.column("wheel2.omega");
  CHECK(w1.back() != 0.0);
  for (size_t k = 0; k < w1.size(); k += 20) CHECK(w2[k] == doctest::Approx(-0.5 * w1[k]).epsilon(1e-9).scale(1.0));
}

TEST_CASE("rack and pinion: the rack's travel follows the pinion's rotation") {
  json comps = {{"ground", ground_at_origin},
                {"rack", rod(2.0, 4.0, 0.0, -0.1, 0.0)},
                {"pinion", rod(0.2, 0.5, 0.0, 0.0, 0.0, 5.0)},
                {"rail", {{"type", "mechanical.translational"}}},
                {"bearing", {{"type", "mechanical.revolute"}}},
                {"teeth", {{"type", "mechanical.rack_pinion"}, {"params", {{"radius", 0.1}}}}}};
  comps["ground"]["params"]["points"]["R"] = {0.0, -0.1};
  json conns = links({{"ground.R", "rail.a"}, {"rack.cm", "rail.b"}, {"ground.O", "bearing.a"}, {"pinion.cm", "bearing.b"},
                {"rack.cm", "teeth.a"}, {"pinion.cm", "teeth.b"}});
  json rec = {"rack.kinetic_energy", "rack.potential_energy", "pinion.kinetic_energy", "pinion.potential_energy",
              "rack.x", "pinion.theta", "mechanism.constraint_norm"};
  RunResult r = run_checked(mechanism(comps, conns, 2.0, rec, no_stabilization));
  check_energy(r, {"rack", "pinion"});
  const auto x = r.column("rack.x"), th = r.column("pinion.theta");
  // uᵀ(r_b − r_a) + R (θ_b − θ_a) = 0 with r_b − r_a = −x along the rack axis.
  for (size_t k = 0; k < x.size(); k += 20) CHECK(std::abs(-x[k] + 0.1 * th[k]) < 1e-12);
}

TEST_CASE("drivers: each law and each driver type is followed without stabilization, and its power is the energy gained") {
  struct Case {
    std::string name;
    json driver;
    std::vector<std::pair<std::string, std::string>> ports;  // (body point, driver port)
  };
  const json cosine = {{"law", "cosine"}, {"amplitude", 0.3}, {"angular_frequency", 4.0}, {"phase", 0.2}, {"offset", 0.1}};
  const json poly = {{"law", "polynomial"}, {"coefficients", {0.2, 0.5, -0.3, 0.1}}};
  const json spline = {{"law", "spline"}, {"table", {{0, 0.0}, {0.5, 0.4}, {1.0, 0.1}, {1.5, 0.6}, {3.0, 0.2}}}};
  std::vector<Case> cases = {
      {"angle, cosine", {{"type", "mechanical.driver_angle"}, {"params", cosine}}, {{"arm.cm", "a"}}},
      {"angle, polynomial", {{"type", "mechanical.driver_angle"}, {"params", poly}}, {{"arm.cm", "a"}}},
      {"angle, spline", {{"type", "mechanical.driver_angle"}, {"params", spline}}, {{"arm.cm", "a"}}},
      {"relative angle", {{"type", "mechanical.driver_relative_angle"}, {"params", cosine}}, {{"link.cm", "a"}, {"arm.cm", "b"}}},
      {"distance", {{"type", "mechanical.driver_distance"}, {"params", {{"law", "cosine"}, {"amplitude", 0.2}, {"angular_frequency", 3.0}, {"offset", 1.2}}}},
       {{"ground.P", "a"}, {"arm.q", "b"}}},
      {"translational", {{"type", "mechanical.driver_translational"}, {"params", {{"law", "cosine"}, {"amplitude", 0.2}, {"angular_frequency", 3.0}, {"offset", 0.6}, {"axis", {1, 0}}}}},
       {{"link.cm", "a"}, {"arm.q", "b"}}},
      {"x", {{"type", "mechanical.driver_x"}, {"params", {{"law", "cosine"}, {"amplitude", 0.1}, {"angular_frequency", 3.0}, {"offset", 0.8}}}},
       {{"arm.q", "a"}}},
      {"y", {{"type", "mechanical.driver_y"}, {"params", {{"law", "cosine"}, {"amplitude", 0.1}, {"angular_frequency", 3.0}, {"offset", 0.2}}}},
       {{"arm.q", "a"}}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    // A pendulum arm on a pivot, and a second free-swinging link pinned to the ground:
    // the driver acts on the arm (and the link for two-point drivers).
    json comps = {{"ground", ground_at_origin},
                  {"arm", rod(1.0, 1.0, 0.5 * std::cos(-0.5), 0.5 * std::sin(-0.5), -0.5)},
                  {"link", rod(0.6, 0.8, 1.5, -0.3, -M_PI / 2)},
                  {"pivot", {{"type", "mechanical.revolute"}}},
                  {"link_pivot", {{"type", "mechanical.revolute"}}},
                  {"drive", c.driver}};
    comps["link"]["params"]["points"]["p"] = {-0.3, 0.0};
    comps["link"]["initial"]["y"] = -0.3;
    json conns = links({{"ground.O", "pivot.a"}, {"arm.p", "pivot.b"}, {"ground.P", "link_pivot.a"}, {"link.p", "link_pivot.b"}});
    for (const auto& [point, port] : c.ports) conns.push_back(json::array({point, "drive." + port}));
    // The joints' violations rather than "mechanism.constraint_norm": with a one-point
    // driver the arm and the link are two mechanisms (mechanism1, mechanism2).
    json rec = {"arm.kinetic_energy", "arm.potential_energy", "link.kinetic_energy", "link.potential_energy",
                "drive.power", "drive.value", "pivot.violation", "link_pivot.violation"};
    json doc = mechanism(comps, conns, 3.0, rec, no_stabilization);
    doc["solver"]["output_interval"] = 0.001;
    RunResult r = run_checked(doc);
    // Energy gained = ∫ power dt (trapezoid on 1 ms rows: error ~ dt² |P''| T/12 ≈ 1e-5 J).
    const auto t = r.column("time"), p = r.column("drive.power");
    double work = 0.0;
    for (size_t k = 1; k < t.size(); ++k) work += 0.5 * (p[k] + p[k - 1]) * (t[k] - t[k - 1]);
    const double gained = energy(r, {"arm", "link"}, t.size() - 1) - energy(r, {"arm", "link"}, 0);
    MESSAGE("energy gained " << gained << " J, driver work " << work << " J");
    CHECK(std::abs(gained - work) < 1e-4 * std::max(1.0, std::abs(work)));
  }
}

TEST_CASE("rod: a bob on a massless rod is the simple pendulum, period 4√(L/g) K(sin²(θ0/2)), tension m g (3 cos θ − 2 cos θ0)") {
  // The rod holds the bob's centre at L from the pivot and acts through it only: the bob's
  // own rotation is free and apart, so the motion is a point mass's.
  const double m = 2.0, L = 0.8, g = 9.81, theta0 = 1.2;  // from the downward vertical
  json comps = {{"ground", ground_at_origin},
                {"bob", {{"type", "mechanical.body"},
                         {"params", {{"mass", m}, {"inertia", 0.01}}},
                         {"initial", {{"x", L * std::sin(theta0)}, {"y", -L * std::cos(theta0)}}}}},
                {"link", {{"type", "mechanical.rod"}, {"params", {{"length", L}}}}}};
  json doc = mechanism(comps, links({{"ground.O", "link.a"}, {"bob.cm", "link.b"}}), 4.0,
                       json::array({"bob.x", "bob.y", "bob.vx", "link.tension", "link.violation",
                                    "bob.kinetic_energy", "bob.potential_energy"}));
  doc["solver"]["output_interval"] = 0.001;
  RunResult r = run_checked(doc);
  const double period = 4.0 * std::sqrt(L / g) * elliptic_k(std::pow(std::sin(theta0 / 2), 2));
  // Turning points: vx changes sign every half period, the first at T/2 (released at rest:
  // the first row's vx = 0 is no turn).
  const auto t = r.column("time"), vx = r.column("bob.vx");
  std::vector<double> turns;
  for (size_t k = 2; k < t.size(); ++k)
    if ((vx[k - 1] < 0) != (vx[k] < 0)) turns.push_back(t[k - 1] + (t[k] - t[k - 1]) * vx[k - 1] / (vx[k - 1] - vx[k]));
  REQUIRE(turns.size() >= 3);
  MESSAGE("half periods at " << turns[0] << ", " << turns[1] << " s; closed form T/2 = " << period / 2 << " s");
  // rtol 1e-11 and linear interpolation of vx on 1 ms rows (vx is linear to ~1e-8 s there).
  CHECK(turns[0] == doctest::Approx(period / 2).epsilon(1e-6));
  CHECK(turns[1] - turns[0] == doctest::Approx(period / 2).epsilon(1e-6));
  const auto x = r.column("bob.x"), y = r.column("bob.y"), tension = r.column("link.tension");
  double worst = 0.0;
  for (size_t k = 0; k < t.size(); ++k) {
    const double cos_theta = -y[k] / std::hypot(x[k], y[k]);
    worst = std::max(worst, std::abs(tension[k] - m * g * (3 * cos_theta - 2 * std::cos(theta0))));
  }
  MESSAGE("largest tension error " << worst << " N");
  CHECK(worst < 1e-7 * m * g);  // the multiplier of an exact point-mass model, to the integration's accuracy
  for (double v : r.column("link.violation")) CHECK(v < 1e-10);
  // Its length is a numeric parameter, settable per run, and must be positive.
  doc["components"]["link"]["params"]["length"] = 0.0;
  CHECK_THROWS_WITH_AS(load(doc.dump()), doctest::Contains("/components/link/params/length"), InputError);
}
