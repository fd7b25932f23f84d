// The mechanism's analyses and failure modes: static equilibrium, kinematic analysis
// limits, redundant constraints (bad input), assembly, and the default formulation
// against a closed form.
#include <cmath>

#include <Eigen/Core>

#include "mechanism_netlist.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const json ground = {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}}}}}};

double total(const RunResult& r, size_t k) {
  return energy(r, {"boom", "barrel", "piston"}, k);
}

// A uniform rod pinned at one end (the classic compound pendulum).
json pendulum(double theta0, json extra_components = json::object(), json extra_connections = json::array()) {
  json comps = {{"ground", ground},
                {"rod", rod(1.0, 2.0, 0.5 * std::cos(theta0), 0.5 * std::sin(theta0), theta0)},
                {"hinge", {{"type", "mechanical.revolute"}}}};
  for (auto& [k, v] : extra_components.items()) comps[k] = v;
  json conns = links({{"ground.O", "hinge.a"}, {"rod.p", "hinge.b"}});
  for (auto& c : extra_connections) conns.push_back(c);
  return mechanism(comps, conns, 1.0, json::array({"rod.theta", "rod.alpha", "hinge.fx", "hinge.fy"}));
}

}  // namespace

TEST_CASE("a horizontal rod pinned at one end starts with α = 3g/(2L) and a hinge force m g/4") {
  // Closed form: I_O α = m g L/2 with I_O = m L²/3; the hinge carries m g − m α L/2 = m g/4.
  RunResult r = run(pendulum(0.0).dump());
  REQUIRE(r.finished);
  const double g = 9.81, m = 2.0, L = 1.0;
  CHECK(r.column("rod.alpha")[0] == doctest::Approx(-1.5 * g / L).epsilon(1e-12));
  CHECK(r.column("hinge.fy")[0] == doctest::Approx(m * g / 4).epsilon(1e-12));
  CHECK(std::abs(r.column("hinge.fx")[0]) < 1e-12);
}

TEST_CASE("a rod pinned at one end, released at rest at 0.6 rad: the hinge force in the rod's frame") {
  // At rest α = −(3g/2L) cos θ0 and the mass centre accelerates across the rod only,
  // α L/2; along the rod (x) the hinge cancels gravity, m g sin θ0, and across it (y) it
  // carries m (α L/2 + g cos θ0) = m g cos θ0 / 4. The rod's frame turns with it, so
  // these are the world-frame force turned by −θ0: what fx_body, fy_body report.
  const double theta0 = 0.6, g = 9.81, m = 2.0;
  json doc = pendulum(theta0);
  doc["record"] = {"hinge.fx_body", "hinge.fy_body", "hinge.fx", "hinge.fy"};
  RunResult r = run(doc.dump());
  REQUIRE(r.finished);
  CHECK(r.column("hinge.fx_body")[0] == doctest::Approx(m * g * std::sin(theta0)).epsilon(1e-12));
  CHECK(r.column("hinge.fy_body")[0] == doctest::Approx(m * g * std::cos(theta0) / 4).epsilon(1e-12));
  CHECK(r.column("hinge.fx")[0] ==
        doctest::Approx(m * g * (std::sin(theta0) * std::cos(theta0) - std::cos(theta0) / 4 * std::sin(theta0)))
            .epsilon(1e-12));
}

TEST_CASE("static analysis: a rod on a torsion spring settles where k θ balances m g L/2 cos θ") {
  // Rotational spring from the ground to the rod with free angle 0: equilibrium
  // k θ + m g (L/2) cos θ = 0. Solved here by bisection, independently.
  const double k = 40.0, m = 2.0, g = 9.81, L = 1.0;
  double lo = -M_PI / 2, hi = 0.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (k * mid + m * g * L / 2 * std::cos(mid) > 0 ? hi : lo) = mid;
  }
  json extra = {{"spring", {{"type", "mechanical.rotational_spring_damper"}, {"params", {{"stiffness", k}}}}}};
  json conns = links({{"ground.O", "spring.a"}, {"rod.cm", "spring.b"}});
  json doc = pendulum(0.0, extra, conns);
  doc["analysis"] = "static";
  doc["solver"] = {{"t_end", 1.0}, {"output_interval", 0.5}};
  doc["record"] = {"rod.theta", "hinge.fy", "spring.torque"};
  RunResult r = run(doc.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  // Gauss–Newton to a step of 1e-12 (relative): the angle to ~1e-12.
  CHECK(r.column("rod.theta").back() == doctest::Approx(lo).epsilon(1e-9));
  // At rest the hinge carries the whole weight.
  CHECK(r.column("hinge.fy").back() == doctest::Approx(m * g).epsilon(1e-9));
}

TEST_CASE("static analysis: a rod released horizontal hangs, found by the globalized search (issue 38)") {
  // Horizontal, the torque m g L/2 cos θ is at its largest and its derivative zero:
  // Gauss–Newton on ‖r‖ has no descent direction there (it once failed so). The overdamped
  // search walks down to θ = −π/2, where the hinge carries the weight m g and nothing
  // else. Tolerance: Gauss–Newton stops at ‖r‖ ≤ 1e-11 ‖r0‖ (r0 ≈ m g = 20 N), so θ and
  // the forces to ~1e-10; 1e-9 leaves margin.
  const double m = 2.0, g = 9.81;
  json doc = pendulum(0.0);
  doc["analysis"] = "static";
  doc["solver"] = {{"t_end", 1.0}, {"output_interval", 0.5}};
  doc["record"] = {"rod.theta", "rod.x", "rod.y", "hinge.fx", "hinge.fy"};
  RunResult r = run(doc.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  for (size_t k = 0; k < r.column("rod.theta").size(); ++k) {
    CHECK(r.column("rod.theta")[k] == doctest::Approx(-M_PI / 2).epsilon(1e-9));
    CHECK(std::abs(r.column("rod.x")[k]) < 1e-9);
    CHECK(r.column("rod.y")[k] == doctest::Approx(-0.5).epsilon(1e-9));
    CHECK(r.column("hinge.fy")[k] == doctest::Approx(m * g).epsilon(1e-9));
    CHECK(std::abs(r.column("hinge.fx")[k]) < 1e-9);
  }
  // Which equilibrium, found how, and whether it holds: in the event log, once.
  int said = 0;
  for (const auto& e : r.summary["events"]) {
    const std::string text = e["description"];
    if (text.find("pseudo-transient continuation") == std::string::npos) continue;
    ++said;
    CHECK(text.find("rod.theta") != std::string::npos);
    CHECK(text.find("stable (") != std::string::npos);
  }
  CHECK(said == 1);
}

TEST_CASE("static analysis: a driver holding a rod horizontal carries m g L/2") {
  json extra = {{"hold", {{"type", "mechanical.driver_angle"}, {"params", {{"value", 0.0}}}}}};
  json doc = pendulum(0.1, extra, links({{"rod.cm", "hold.a"}}));
  doc["analysis"] = "static";
  doc["solver"] = {{"t_end", 1.0}, {"output_interval", 1.0}};
  doc["record"] = {"rod.theta", "hold.effort"};
  RunResult r = run(doc.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  CHECK(std::abs(r.column("rod.theta").back()) < 1e-12);
  CHECK(r.column("hold.effort").back() == doctest::Approx(2.0 * 9.81 * 0.5).epsilon(1e-10));
}

TEST_CASE("assembly moves approximate poses onto the constraints and reports it") {
  json doc = pendulum(0.0);
  doc["components"]["rod"]["initial"]["x"] = 0.55;  // 5 cm off
  doc["components"]["rod"]["initial"]["y"] = -0.02;
  RunResult r = run(doc.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  REQUIRE(!r.events.empty());
  CHECK(r.events.front().description.find("assembled in") != std::string::npos);
  CHECK(r.summary["monitors"]["mechanism.constraint_norm"]["max_abs"].get<double>() < 1e-9);
}

TEST_CASE("a mechanism that cannot be assembled fails with the joints named") {
  // Two rods of 1 m from pivots 3 m apart cannot meet.
  json comps = {{"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}, {"P", {3, 0}}}}}}}},
                {"left", rod(1.0, 1.0, 0.5, 0.0, 0.0)},
                {"right", rod(1.0, 1.0, 2.5, 0.0, M_PI)},
                {"pin_left", {{"type", "mechanical.revolute"}}},
                {"pin_right", {{"type", "mechanical.revolute"}}},
                {"knee", {{"type", "mechanical.revolute"}}}};
  json conns = links({{"ground.O", "pin_left.a"}, {"left.p", "pin_left.b"}, {"ground.P", "pin_right.a"}, {"right.p", "pin_right.b"},
                {"left.q", "knee.a"}, {"right.q", "knee.b"}});
  RunResult r = run(mechanism(comps, conns, 1.0, json::array({"left.theta"})).dump());
  CHECK_FALSE(r.finished);
  CHECK(r.failure.find("cannot be assembled") != std::string::npos);
  CHECK(r.failure.find("knee") != std::string::npos);
}

TEST_CASE("redundant constraints are bad input naming the netlist, the JSON path and the components, or shared in "
          "the least-squares sense when allowed") {
  // Two hinges at the same pivot: 4 equations where 2 are independent, at every pose.
  json extra = {{"hinge2", {{"type", "mechanical.revolute"}}}};
  json doc = pendulum(0.0, extra, links({{"ground.O", "hinge2.a"}, {"rod.p", "hinge2.b"}}));
  for (const std::string formulation : {"augmented_lagrangian", "kkt", "udwadia_kalaba"}) {
    CAPTURE(formulation);
    doc["world"]["constraints"]["formulation"] = formulation;
    try {
      run(doc.dump());
      FAIL("a duplicated hinge was accepted");
    } catch (const InputError& e) {
      CHECK(e.where().file == "test.json");
      CHECK(e.where().json_path == "/components/hinge2");
      CHECK(e.where().component == "hinge2");
      CHECK(e.message().find("redundant constraints") != std::string::npos);
      CHECK(e.message().find("least_squares") != std::string::npos);
    }
  }

  doc["world"]["constraints"] = {{"redundant", "least_squares"}};
  doc["record"] = {"rod.alpha", "hinge.fy", "hinge2.fy"};
  for (const std::string formulation : {"augmented_lagrangian", "kkt", "udwadia_kalaba"}) {
    CAPTURE(formulation);
    doc["world"]["constraints"]["formulation"] = formulation;
    RunResult r = run(doc.dump());
    INFO(r.failure);
    REQUIRE(r.finished);
    // The motion is the one of a single hinge; the minimum-norm multipliers share its load.
    CHECK(r.column("rod.alpha")[0] == doctest::Approx(-1.5 * 9.81).epsilon(1e-10));
    CHECK(r.column("hinge.fy")[0] == doctest::Approx(r.column("hinge2.fy")[0]).epsilon(1e-10));
    CHECK(r.column("hinge.fy")[0] + r.column("hinge2.fy")[0] == doctest::Approx(2.0 * 9.81 / 4).epsilon(1e-10));
    CHECK(!r.warnings.empty());
    CHECK(r.accuracy_warnings.empty());  // solved as asked: a notice, not a doubt
  }
}

TEST_CASE("a redundant constraint's error names the components of the dependent equations, and only those") {
  // A second hinge whose name holds the first one's ("x-hinge" contains 'hinge'):
  // the components named are those that own the dependent equations, whatever the text.
  json extra = {{"x-hinge", {{"type", "mechanical.revolute"}}}};
  json doc = pendulum(0.0, extra, links({{"ground.O", "x-hinge.a"}, {"rod.p", "x-hinge.b"}}));
  try {
    run(doc.dump());
    FAIL("a duplicated hinge was accepted");
  } catch (const InputError& e) {
    std::string owners;
    for (const std::string c : {"hinge", "x-hinge"})
      if (e.message().find("revolute '" + c + "' (equation") != std::string::npos)
        owners += (owners.empty() ? "'" : ", '") + c + "'";
    REQUIRE_FALSE(owners.empty());
    // Two of the four equations depend on the other two: those of one hinge, whose place
    // in the netlist the error gives.
    CHECK(owners.find(", ") == std::string::npos);
    CHECK(e.where().json_path == "/components/" + e.where().component);
    CHECK(owners == "'" + e.where().component + "'");
  }
}

TEST_CASE("two drivers on one degree of freedom are bad input, located at one of them") {
  // A rod pinned at one end, driven by its angle and by the x of its tip: the tip's x is
  // the angle's cosine, so the two drivers fight over one degree of freedom at every pose.
  json extra = {{"turn", {{"type", "mechanical.driver_angle"}, {"params", {{"law", "polynomial"}, {"coefficients", {0.0, 1.0}}}}}},
                {"push", {{"type", "mechanical.driver_x"}, {"params", {{"law", "polynomial"}, {"coefficients", {1.0}}}}}}};
  json doc = pendulum(0.0, extra, links({{"rod.cm", "turn.a"}, {"rod.q", "push.a"}}));
  doc["analysis"] = "kinematic";
  try {
    run(doc.dump());
    FAIL("two drivers on one degree of freedom were accepted");
  } catch (const InputError& e) {
    CHECK(e.where().json_path.rfind("/components/", 0) == 0);
    CHECK((e.where().component == "turn" || e.where().component == "push"));
    CHECK(e.message().find("two drivers on one degree of freedom") != std::string::npos);
  }
}

TEST_CASE("a kinematic analysis needs zero degrees of freedom; a driver past its limit position is named with the limit") {
  json doc = pendulum(0.0);
  doc["analysis"] = "kinematic";
  CHECK_THROWS_WITH_AS(run(doc.dump()), doctest::Contains("/analysis: a kinematic analysis needs zero degrees of freedom"),
                       InputError);

  // A slider-crank driven by its slider: at the dead centre (crank and rod aligned) the
  // slider is as far as it can go, and beyond it no pose exists.
  const double rc = 0.1, l = 0.3;
  json comps = {{"ground", ground},
                {"crank", rod(rc, 1.0, rc / 2 * std::cos(1.0), rc / 2 * std::sin(1.0), 1.0)},
                {"link", rod(l, 1.0, 0.2, 0.03, -0.1)},
                {"slider", {{"type", "mechanical.body"}, {"params", {{"mass", 0.5}, {"inertia", 0.01}}},
                            {"initial", {{"x", 0.3}, {"y", 0.0}}}}},
                {"pin_O", {{"type", "mechanical.revolute"}}},
                {"pin_A", {{"type", "mechanical.revolute"}}},
                {"pin_B", {{"type", "mechanical.revolute"}}},
                {"rail", {{"type", "mechanical.translational"}}},
                {"push", {{"type", "mechanical.driver_x"},
                          {"params", {{"law", "polynomial"}, {"coefficients", {0.3, 0.1}}}}}}};
  json conns = links({{"ground.O", "pin_O.a"}, {"crank.p", "pin_O.b"}, {"crank.q", "pin_A.a"}, {"link.p", "pin_A.b"},
                {"link.q", "pin_B.a"}, {"slider.cm", "pin_B.b"}, {"ground.O", "rail.a"}, {"slider.cm", "rail.b"},
                {"slider.cm", "push.a"}});
  json sc = mechanism(comps, conns, 2.0, json::array({"slider.x", "crank.theta"}));
  sc["analysis"] = "kinematic";
  RunResult r = run(sc.dump());
  REQUIRE_FALSE(r.finished);
  INFO(r.failure);
  // x = 0.3 + 0.1 t reaches r + l = 0.4 at t = 1: the bisection between the last point
  // that could be solved (0.99 s) and the first that could not (1.00 s) places it to the
  // accuracy Newton has near a double root (the pose moves as √(1 − t) there).
  CHECK(r.failure_time == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(r.failure.find("limit position") != std::string::npos);
  CHECK(r.failure.find("driver 'push'") != std::string::npos);
  CHECK(r.failure.find("prescribes 0.4") != std::string::npos);  // its value at the limit, r + l
  CHECK(r.failure.find("lost") == std::string::npos);
}

TEST_CASE("world.constraints settings are checked with their JSON path") {
  json doc = pendulum(0.0);
  doc["world"]["constraints"]["alfa"] = 3;
  CHECK_THROWS_WITH_AS(load(doc.dump()), doctest::Contains("/world/constraints/alfa"), InputError);
  doc = pendulum(0.0);
  doc["world"]["constraint"] = json::object();
  CHECK_THROWS_WITH_AS(load(doc.dump()), doctest::Contains("constraint"), InputError);
}

namespace {

json wheel_on_ground(double vx, double friction) {
  const double m = 10.0, R = 0.3;
  json comps = {{"wheel", {{"type", "mechanical.body"},
                           {"params", {{"mass", m}, {"inertia", 0.5 * m * R * R}}},
                           {"initial", {{"x", 0.0}, {"y", R}, {"vx", vx}}}}},
                {"tyre", {{"type", "mechanical.wheel_contact"},
                          {"params", {{"radius", R}, {"stiffness", 1e6}, {"damping", 4e3}, {"friction", friction},
                                      {"slip_velocity", 1e-4}}}}}};
  return mechanism(comps, links({{"wheel.cm", "tyre.a"}}), 2.0,
                   json::array({"wheel.x", "wheel.y", "wheel.vx", "wheel.omega", "tyre.normal_force", "tyre.penetration"}));
}

}  // namespace

TEST_CASE("wheel contact, static: the ground carries the weight at a penetration m g / k") {
  json doc = wheel_on_ground(0.0, 0.0);
  doc["analysis"] = "static";
  doc["solver"] = {{"t_end", 1.0}, {"output_interval", 1.0}};
  RunResult r = run(doc.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  CHECK(r.column("tyre.normal_force").back() == doctest::Approx(10.0 * 9.81).epsilon(1e-9));
  CHECK(r.column("tyre.penetration").back() == doctest::Approx(10.0 * 9.81 / 1e6).epsilon(1e-6));
}

TEST_CASE("wheel contact, dynamic: a sliding disk ends rolling at v0 / (1 + I/(m R²)) = 2 v0/3") {
  // Friction acts at the contact point, so the angular momentum about it is conserved:
  // m v0 R = m v R + I v / R with rolling v = −ω R at the end.
  json doc = wheel_on_ground(3.0, 0.5);
  doc["solver"]["rtol"] = 1e-8;
  doc["solver"]["atol"] = 1e-10;
  RunResult r = run(doc.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  const double v = r.column("wheel.vx").back(), w = r.column("wheel.omega").back();
  MESSAGE("final v = " << v << " m/s, ω R = " << w * 0.3 << " m/s");
  // Regularized friction (slip 1e-4 m/s) and the tyre's damping of the initial bounce
  // leave the end speed within 1e-3 of the rigid-contact answer.
  CHECK(v == doctest::Approx(2.0).epsilon(1e-3));
  CHECK(-w * 0.3 == doctest::Approx(v).epsilon(1e-3));
  CHECK(r.column("tyre.normal_force").back() == doctest::Approx(10.0 * 9.81).epsilon(1e-6));
}

TEST_CASE("servo constraints: an actuated cylinder lifts a boom along a prescribed angle") {
  // Boom (2 m, 100 kg) pinned at the origin; a cylinder from C = (0.5, −1) to the boom's
  // mass centre D = (1, 0): cylinder and rod bodies (nearly massless) joined by an actuated
  // translational joint. The boom angle is a servo driver: the cylinder's force, not the
  // driver, must lift the boom. Held level, the torque balance about the pivot gives
  // F (u × r_D) = m g x_D with u = (C→D)/|C→D|.
  const double m = 100.0, g = 9.81, eps = 1e-6;
  const Eigen::Vector2d C{0.5, -1.0}, D{1.0, 0.0};
  const Eigen::Vector2d u = (D - C).normalized();
  const double th = std::atan2(u.y(), u.x()), half = 0.3;
  auto small = [&](Eigen::Vector2d centre, json points) {
    return json{{"type", "mechanical.body"},
                {"params", {{"mass", eps}, {"inertia", eps * eps}, {"points", points}}},
                {"initial", {{"x", centre.x()}, {"y", centre.y()}, {"theta", th}}}};
  };
  json comps = {{"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}, {"C", {0.5, -1.0}}}}}}}},
                {"boom", rod(2.0, m, 1.0, 0.0, 0.0)},
                {"barrel", small(C + half * u, {{"base", {-half, 0.0}}})},
                {"piston", small(D - half * u, {{"tip", {half, 0.0}}})},
                {"pivot", {{"type", "mechanical.revolute"}}},
                {"pin_C", {{"type", "mechanical.revolute"}}},
                {"pin_D", {{"type", "mechanical.revolute"}}},
                {"cylinder", {{"type", "mechanical.translational"}, {"params", {{"actuated", true}}}}},
                {"lift", {{"type", "mechanical.driver_angle"},
                          {"params", {{"servo", true}, {"law", "cosine"}, {"amplitude", -0.2}, {"angular_frequency", 2.0},
                                      {"offset", 0.2}}}}}};
  json conns = links({{"ground.O", "pivot.a"}, {"boom.p", "pivot.b"}, {"ground.C", "pin_C.a"}, {"barrel.base", "pin_C.b"},
                      {"boom.cm", "pin_D.a"}, {"piston.tip", "pin_D.b"}, {"barrel.cm", "cylinder.a"},
                      {"piston.cm", "cylinder.b"}, {"boom.cm", "lift.a"}});
  json record = {"cylinder.force", "cylinder.power", "lift.effort", "boom.theta"};
  for (const std::string b : {"boom", "barrel", "piston"})
    for (const std::string v : {"kinetic_energy", "potential_energy"}) record.push_back(b + "." + v);
  json doc = mechanism(comps, conns, 3.0, record);
  doc["analysis"] = "kinematic";
  doc["solver"] = {{"t_end", 3.0}, {"output_interval", 0.001}};
  RunResult r = run(doc.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  // At t = 0 the boom is level and at rest, accelerating at C̈(0) = 0.8 rad/s²: about the
  // pivot, F (r_D × u) = m g x_D + I_O C̈(0) with I_O = m L²/3.
  const double F0 = (m * g * D.x() + m * 4.0 / 3.0 * 0.8) / (D.x() * u.y() - D.y() * u.x());
  CHECK(r.column("cylinder.force")[0] == doctest::Approx(F0).epsilon(1e-5));  // the 1e-6 kg bodies
  for (double e : r.column("lift.effort")) CHECK(e == 0.0);  // a servo driver applies nothing
  // Power balance along the motion: the cylinder delivers d(E_kin + E_pot)/dt.
  const auto t = r.column("time"), p = r.column("cylinder.power");
  double work = 0.0, worst = 0.0;
  const double e0 = total(r, 0);
  for (size_t k = 1; k < t.size(); ++k) {
    work += 0.5 * (p[k] + p[k - 1]) * (t[k] - t[k - 1]);
    worst = std::max(worst, std::abs(total(r, k) - e0 - work));
  }
  MESSAGE("largest |ΔE − ∫P dt| = " << worst << " J (trapezoid on 1 ms rows)");
  CHECK(worst < 1e-3);  // trapezoid error ~ dt² |P''| T / 12 with P ~ 1e3 W
}

TEST_CASE("monitors: one mechanism is 'mechanism'; separate ones are mechanism1, mechanism2, named with their bodies") {
  // One: the name every example netlist records.
  Netlist one = load(pendulum(0.3).dump());
  CHECK_NOTHROW(one.model.recordable("mechanism.constraint_norm"));

  // Two pendulums that share no joint (only the ground, which is no unknown of either).
  json comps = {{"ground", {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}, {"P", {2, 0}}}}}}}},
                {"left", rod(1.0, 2.0, 0.5, 0.0, 0.0)},
                {"right", rod(1.0, 1.0, 2.5, 0.0, 0.0)},
                {"pin_left", {{"type", "mechanical.revolute"}}},
                {"pin_right", {{"type", "mechanical.revolute"}}}};
  json conns = links({{"ground.O", "pin_left.a"}, {"left.p", "pin_left.b"}, {"ground.P", "pin_right.a"}, {"right.p", "pin_right.b"}});
  Netlist two = load(mechanism(comps, conns, 0.5, json::array({"mechanism1.constraint_norm", "mechanism2.constraint_norm"})).dump());
  std::vector<std::string> monitors;
  for (const auto& m : two.model.monitors()) monitors.push_back(m.name);
  CHECK(monitors == std::vector<std::string>{"mechanism1.constraint_norm", "mechanism1.constraint_rate_norm",
                                             "mechanism2.constraint_norm", "mechanism2.constraint_rate_norm"});
  CHECK_THROWS_AS(two.model.recordable("mechanism.constraint_norm"), InputError);
  // `jourdain check` lists them in that order, each with its bodies: the way to tell them apart.
  Context ctx = two.model.make_context(0.0);
  two.model.initialize(ctx);
  const std::string blocks = two.model.describe_blocks(ctx);
  CAPTURE(blocks);
  const auto first = blocks.find("Mechanism 'mechanism1' (monitors mechanism1.constraint_norm, "
                                 "mechanism1.constraint_rate_norm): 1 body (");
  const auto second = blocks.find("Mechanism 'mechanism2' (monitors mechanism2.constraint_norm, "
                                  "mechanism2.constraint_rate_norm): 1 body (");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(first < second);
  const bool left_first = blocks.find("(left)") < blocks.find("(right)");
  CHECK(blocks.find(left_first ? "(left)" : "(right)") < second);
  CHECK(blocks.find(left_first ? "(right)" : "(left)") > second);
  // Both run and hold their joints.
  RunResult r = run(two.document.dump());
  REQUIRE(r.finished);
  for (const char* m : {"mechanism1.constraint_norm", "mechanism2.constraint_norm"}) CHECK(r.column(m).back() < 1e-8);
}
