// Numeric parameters of the planar mechanical library live in the Context
// (framework/README.md, "Model and Context"): a run given a value with Model::set_parameter must follow exactly the
// motion of a netlist written with that value, for every numeric parameter of every
// component kind (a component that still read a value cached in configure() would keep
// the netlist's value and fail here). Configuration parameters are refused by name.
// Direction parameters (axes, normals) are parsed by one parser that checks their size.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "mechanism_netlist.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

// Short runs at a moderate tolerance: what is compared is bit-for-bit equality of two
// runs, not accuracy.
json quick(json doc, double t_end = 0.3) {
  doc["solver"]["t_end"] = t_end;
  doc["solver"]["rtol"] = 1e-8;
  doc["solver"]["atol"] = 1e-10;
  doc["solver"]["output_interval"] = 0.01;
  return doc;
}

const json two_anchors = {{"type", "mechanical.ground"}, {"params", {{"points", {{"O", {0, 0}}, {"P", {1.5, 0}}}}}}};

// A rod pinned at the origin under every force element: a spring–damper to P, a torsion
// spring–damper at the pin, a force at its tip and a torque; a distance gauge.
json forces_pendulum() {
  json comps = {{"ground", two_anchors},
                {"rod", rod(1.0, 1.0, 0.5, 0.0, 0.0)},
                {"hinge", {{"type", "mechanical.revolute"}}},
                {"spring", {{"type", "mechanical.spring_damper"},
                            {"params", {{"stiffness", 50.0}, {"free_length", 0.3}, {"damping", 0.5}}}}},
                {"twist", {{"type", "mechanical.rotational_spring_damper"},
                           {"params", {{"stiffness", 2.0}, {"damping", 0.1}, {"free_angle", 0.2}}}}},
                {"push", {{"type", "mechanical.force"}, {"params", {{"fx", 1.0}, {"fy", 2.0}}}}},
                {"drive", {{"type", "mechanical.torque"}, {"params", {{"torque", 0.5}}}}},
                {"gauge", {{"type", "mechanical.distance_sensor"}}}};
  json conns = links({{"ground.O", "hinge.a"},
                      {"rod.p", "hinge.b"},
                      {"ground.P", "spring.a"},
                      {"rod.q", "spring.b"},
                      {"ground.O", "twist.a"},
                      {"rod.p", "twist.b"},
                      {"rod.q", "push.a"},
                      {"rod.cm", "drive.a"},
                      {"ground.P", "gauge.a"},
                      {"rod.q", "gauge.b"}});
  return quick(mechanism(comps, conns, 1.0,
                         {"rod.theta", "rod.omega", "spring.force", "spring.energy", "twist.torque", "twist.energy",
                          "drive.power", "hinge.fx", "hinge.fy"}));
}

// A rod pinned at the origin whose angle a driver prescribes, with the law `law`.
json driven_rod(const json& law) {
  json comps = {{"ground", two_anchors},
                {"rod", rod(1.0, 1.0, 0.5, 0.0, 0.0)},
                {"hinge", {{"type", "mechanical.revolute"}}},
                {"motor", {{"type", "mechanical.driver_angle"}, {"params", law}}}};
  json conns = links({{"ground.O", "hinge.a"}, {"rod.p", "hinge.b"}, {"rod.q", "motor.a"}});
  return quick(mechanism(comps, conns, 1.0, {"rod.theta", "rod.omega", "motor.effort", "motor.value", "motor.power"}));
}

// Joints with numeric parameters, each in a mechanism of its own: a rod welded across a
// pendulum's tip; two rods on fixed centres (Q, R) geared together; a block sliding down
// an inclined guide; a pinion rolling down an inclined rack.
// A body with its mass centre as its only point, at rest at (x, y).
json lump(double m, double inertia, double x, double y) {
  return {{"type", "mechanical.body"},
          {"params", {{"mass", m}, {"inertia", inertia}, {"points", json::object()}}},
          {"initial", {{"x", x}, {"y", y}, {"theta", 0.0}}}};
}

json jointed() {
  const json incline = json::array({1.0, -0.3});
  json comps = {{"ground", {{"type", "mechanical.ground"},
                            {"params", {{"points", {{"O", {0, 0}}, {"Q", {0, -3}}, {"R", {2, -3}}, {"S", {0, 3}}}}}}}},
                {"arm", rod(1.0, 1.0, 0.5, 0.0, 0.0, 1.0)},
                {"cross", rod(0.6, 0.5, 1.0, 0.3, M_PI / 2)},
                {"hinge", {{"type", "mechanical.revolute"}}},
                {"weld", {{"type", "mechanical.weld"}, {"params", {{"angle", M_PI / 2}}}}},
                {"left", rod(1.0, 1.0, 0.5, -3.0, 0.0, 2.0)},  // pinned at its end p
                {"right", rod(1.0, 2.0, 2.0, -3.0, 0.0, -1.0)},  // pinned at its centre
                {"left_pin", {{"type", "mechanical.revolute"}}},
                {"right_pin", {{"type", "mechanical.revolute"}}},
                {"gear", {{"type", "mechanical.gear_pair"}, {"params", {{"ratio", -0.5}}}}},
                {"block", lump(1.0, 0.01, 0.0, 3.0)},
                {"slide", {{"type", "mechanical.translational"}, {"params", {{"axis", incline}}}}},
                {"pinion", lump(2.0, 0.04, 0.0, 0.0)},
                {"slot", {{"type", "mechanical.pin_in_slot"}, {"params", {{"axis", incline}}}}},
                {"rack", {{"type", "mechanical.rack_pinion"}, {"params", {{"axis", incline}, {"radius", 0.2}}}}}};
  json conns = links({{"ground.O", "hinge.a"},
                      {"arm.p", "hinge.b"},
                      {"arm.q", "weld.a"},
                      {"cross.p", "weld.b"},
                      {"ground.Q", "left_pin.a"},
                      {"left.p", "left_pin.b"},
                      {"ground.R", "right_pin.a"},
                      {"right.cm", "right_pin.b"},
                      {"left.p", "gear.a"},
                      {"right.cm", "gear.b"},
                      {"ground.S", "slide.a"},
                      {"block.cm", "slide.b"},
                      {"ground.O", "slot.a"},
                      {"pinion.cm", "slot.b"},
                      {"ground.O", "rack.a"},
                      {"pinion.cm", "rack.b"}});
  return quick(mechanism(comps, conns, 1.0,
                         {"arm.theta", "cross.theta", "weld.fx", "left.omega", "right.theta", "gear.violation",
                          "block.x", "block.theta", "slide.position", "pinion.x", "pinion.theta", "rack.violation"}));
}

// A disk dropped rolling and sliding onto the ground.
json wheel() {
  json comps = {{"disk", {{"type", "mechanical.body"},
                          {"params", {{"mass", 10.0}, {"inertia", 0.45}, {"points", json::object()}}},
                          {"initial", {{"x", 0.0}, {"y", 0.31}, {"vx", 3.0}, {"omega", 2.0}}}}},
                {"tyre", {{"type", "mechanical.wheel_contact"},
                          {"params", {{"radius", 0.3}, {"stiffness", 1e5}, {"damping", 300.0}, {"friction", 0.5},
                                      {"slip_velocity", 1e-2}}}}}};
  return quick(mechanism(comps, links({{"disk.cm", "tyre.a"}}), 1.0,
                         {"disk.x", "disk.y", "disk.vx", "disk.omega", "tyre.normal_force", "tyre.friction_force"}));
}

RunResult run_with(const json& doc, const std::vector<std::pair<std::string, json>>& parameters = {}) {
  const Netlist netlist = load(doc.dump());
  RunOptions o;
  o.keep_rows = true;
  o.parameters = parameters;
  RunResult r = run_netlist(netlist, o);
  INFO(r.failure);
  REQUIRE(r.finished);
  return r;
}

// For each "component.parameter" -> value: a run of `doc` given the value through its
// Context (Model::set_parameter) gives bit for bit the rows of `doc` written with that
// value, and not the rows of `doc` as it is.
void check_set_as_written(const json& doc, const std::vector<std::pair<std::string, json>>& changes) {
  const RunResult as_is = run_with(doc);
  for (const auto& change : changes) {
    // Named references, not structured bindings: INFO captures them in a lambda.
    const std::string& name = change.first;
    const json& value = change.second;
    INFO(name << " = " << value.dump());
    const auto dot = name.find('.');
    json written = doc;
    written["components"][name.substr(0, dot)]["params"][name.substr(dot + 1)] = value;
    const RunResult set = run_with(doc, {{name, value}});
    const RunResult netlist = run_with(written);
    REQUIRE(set.rows.size() > 10);
    CHECK(set.rows == netlist.rows);
    CHECK(set.stats.steps == netlist.stats.steps);
    CHECK(set.rows.back() != as_is.rows.back());  // the value reached the run
  }
}

std::string refusal(const Model& model, Context& ctx, const std::string& name, const json& value) {
  try {
    model.set_parameter(ctx, name, value);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string load_error(const json& doc) {
  try {
    load(doc.dump());
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("force elements: a value set in the Context runs as the netlist written with it, bit for bit") {
  check_set_as_written(forces_pendulum(), {{"spring.stiffness", "80 N/m"},
                                           {"spring.free_length", "250 mm"},
                                           {"spring.damping", "2 N*s/m"},
                                           {"twist.stiffness", "3 N*m/rad"},
                                           {"twist.damping", 0.4},
                                           {"twist.free_angle", "-10 deg"},
                                           {"push.fx", "-3 N"},
                                           {"push.fy", "0.005 kN"},
                                           {"drive.torque", "-1.5 N*m"}});
}

TEST_CASE("drivers: the numbers of their laws are set in the Context as in the netlist, bit for bit") {
  const json cosine = {{"law", "cosine"}, {"amplitude", 0.3}, {"angular_frequency", 2.0}, {"phase", 0.1}, {"offset", 0.2}};
  check_set_as_written(driven_rod(cosine), {{"motor.amplitude", "20 deg"},
                                            {"motor.angular_frequency", "3 rad/s"},
                                            {"motor.phase", -0.4},
                                            {"motor.offset", "0.1 rad"}});
  const json ramp = {{"law", "smooth_ramp"}, {"rate", 2.0}, {"ramp_time", 0.2}};
  check_set_as_written(driven_rod(ramp), {{"motor.rate", "-1 rad/s"}, {"motor.ramp_time", "150 ms"}, {"motor.offset", 0.3}});
  check_set_as_written(driven_rod({{"law", "constant"}, {"value", 0.1}}), {{"motor.value", "-5 deg"}});
}

TEST_CASE("joints: weld angle, gear ratio and references, translational angle, rack radius and reference") {
  check_set_as_written(jointed(), {{"weld.angle", "80 deg"},
                                   {"gear.ratio", -0.8},
                                   {"gear.reference_angle_a", "0.1 rad"},
                                   {"gear.reference_angle_b", 0.2},
                                   {"slide.angle", "0.2 rad"},
                                   {"rack.radius", "150 mm"},
                                   {"rack.reference", "50 mm"}});
}

TEST_CASE("wheel contact: radius, stiffness, damping and friction are set in the Context as in the netlist") {
  check_set_as_written(wheel(), {{"tyre.radius", "305 mm"},
                                 {"tyre.stiffness", "200 kN/m"},
                                 {"tyre.damping", 100.0},
                                 {"tyre.friction", 0.2},
                                 {"tyre.slip_velocity", "5 mm/s"}});
}

TEST_CASE("one Context given a stiffness evaluates as the model written with it; the model's own Context is untouched") {
  const json doc = forces_pendulum();
  json written = doc;
  written["components"]["spring"]["params"]["stiffness"] = "80 N/m";
  const Netlist base = load(doc.dump()), other = load(written.dump());
  Context a = base.model.make_context(0.0), b = base.model.make_context(0.0), c = other.model.make_context(0.0);
  base.model.set_parameter(b, "spring.stiffness", "80 N/m");
  for (Context* ctx : {&a, &b}) base.model.initialize(*ctx);
  other.model.initialize(c);
  CHECK(b.x == c.x);
  CHECK(b.xdot == c.xdot);
  CHECK(b.observables == c.observables);
  CHECK(a.observables != b.observables);
}

TEST_CASE("configuration parameters of the mechanical library are refused by set_parameter, by name") {
  const json docs[] = {forces_pendulum(), driven_rod({{"law", "cosine"}}), jointed(), wheel()};
  const std::vector<std::pair<std::string, std::string>> config = {
      {"rod.points", "points"},  {"ground.points", "points"}, {"spring.actuator", "actuator"},
      {"gauge.min", "min"},      {"gauge.max", "max"},        {"push.source", "source"},
      {"motor.law", "law"},      {"motor.coefficients", "coefficients"}, {"motor.table", "table"},
      {"motor.servo", "servo"},  {"slide.axis", "axis"},      {"slide.actuated", "actuated"},
      {"rack.axis", "axis"},     {"tyre.ground_normal", "ground_normal"}};
  for (const auto& entry : config) {
    const std::string& name = entry.first;  // INFO captures it: no structured binding
    const std::string& param = entry.second;
    bool found = false;
    for (const json& doc : docs) {
      if (!doc["components"].contains(name.substr(0, name.find('.')))) continue;
      found = true;
      const Netlist netlist = load(doc.dump());
      Context ctx = netlist.model.make_context(0.0);
      const std::string message = refusal(netlist.model, ctx, name, 1.0);
      INFO(name << ": " << message);
      CHECK(message.find("parameter '" + param + "' is configuration") != std::string::npos);
      CHECK(message.find("'" + name.substr(0, name.find('.')) + "'") != std::string::npos);
    }
    CHECK(found);
  }
}

TEST_CASE("an axis must be two numbers: one or three are refused, naming the component and the parameter") {
  struct Case {
    std::string component, param;
  };
  // Each axis or normal parameter of the library, in the netlists above.
  const std::vector<Case> cases = {{"slide", "axis"}, {"slot", "axis"}, {"rack", "axis"}, {"tyre", "ground_normal"},
                                   {"lift", "axis"}};
  auto with = [](const Case& c, const json& value) {
    json doc;
    if (c.component == "tyre") {
      doc = wheel();
    } else if (c.component == "lift") {
      doc = jointed();
      doc["components"].erase("slide");
      doc["components"]["lift"] = {{"type", "mechanical.driver_translational"},
                                   {"params", {{"law", "constant"}, {"value", 0.0}}}};
      for (auto& link : doc["connections"])
        for (auto& end : link)
          if (end.get<std::string>().rfind("slide.", 0) == 0) end = "lift." + end.get<std::string>().substr(6);
      doc["record"].erase(std::find(doc["record"].begin(), doc["record"].end(), "slide.position"));
    } else {
      doc = jointed();
    }
    doc["components"][c.component]["params"][c.param] = value;
    return doc;
  };
  for (const Case& c : cases) {
    for (const json& value : {json::array({1.0}), json::array({1.0, 0.0, 0.0}), json::array()}) {
      const std::string message = load_error(with(c, value));
      INFO(c.component << "." << c.param << " = " << value.dump() << ": " << message);
      CHECK(message.find("component '" + c.component + "'") != std::string::npos);
      CHECK(message.find("parameter '" + c.param + "'") != std::string::npos);
      CHECK(message.find("got " + std::to_string(value.size())) != std::string::npos);
    }
    const std::string zero = load_error(with(c, json::array({0.0, 0.0})));
    INFO(zero);
    CHECK(zero.find("parameter '" + c.param + "': the direction must not be zero") != std::string::npos);
    // A valid, unnormalized direction is accepted.
    CHECK(load_error(with(c, json::array({0.0, 2.0}))) == "(no error)");
  }
}
