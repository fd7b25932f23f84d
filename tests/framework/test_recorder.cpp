// results.csv's header: every column "name [unit]", the unit being the variable's own,
// also for signals whose unit their port declares (sensors), discrete states (times),
// joints' violations and the mechanisms' constraint norms. Checked on the example
// netlists and on a netlist with one sensor of each kind.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <limits>
#include <map>
#include <set>

#include "jourdain/descriptor.hpp"
#include "jourdain/recorder.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;

namespace {

// The header results.csv gets for `net`'s record list (written by the Recorder itself):
// name -> unit.
std::map<std::string, std::string> header_units(const Netlist& net) {
  test::TempDir dir;
  {
    Recorder recorder(net.model, net.record);
    recorder.open(dir.path() / "results.csv");
  }
  const std::string text = test::read_text(dir.path() / "results.csv");
  std::map<std::string, std::string> units;
  std::string line = text.substr(0, text.find('\n')) + ",";
  for (size_t start = 0, comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
    const std::string column = line.substr(start, comma - start);
    const auto open = column.rfind(" [");
    REQUIRE(open != std::string::npos);
    REQUIRE(column.back() == ']');
    units[column.substr(0, open)] = column.substr(open + 2, column.size() - open - 3);
  }
  return units;
}

std::map<std::string, std::string> header_of(const std::string& netlist) {
  Registry registry = test::builtin_registry();
  return header_units(load_netlist(test::netlist_path(netlist), registry));
}

}  // namespace

TEST_CASE("results.csv headers of the example netlists carry the units of sensors, norms and times") {
  const std::map<std::string, std::map<std::string, std::string>> expected = {
      {"excavator",
       {{"boom_length.distance", "m"}, {"arm_length.distance", "m"}, {"bucket_length.distance", "m"},
        {"mechanism.constraint_norm", "m"}}},
      {"wheel_loader", {{"lift_length.distance", "m"}, {"tilt_length.distance", "m"}}},
      {"flexible_spinup", {{"tip.x", "m"}, {"tip.y", "m"}, {"mechanism.constraint_norm", "m"}}},
      {"cantilever", {{"tip.x", "m"}, {"tip.y", "m"}, {"tip.angle", "rad"}}},
      {"pendulum", {{"mechanism.constraint_norm", "m"}, {"mechanism.constraint_rate_norm", "m/s"}}},
      {"press_3150kN", {{"cycle.entered_return", "s"}, {"cycle.duration_return", "s"}, {"cap_pressure.max", "Pa"}}},
  };
  for (const auto& entry : expected) {
    // Named references, not structured bindings: CAPTURE takes them into a lambda.
    const auto& netlist = entry.first;
    const auto& columns = entry.second;
    CAPTURE(netlist);
    const auto units = header_of(netlist);
    for (const auto& column : columns) {
      const auto& name = column.first;
      const auto& unit = column.second;
      CAPTURE(name);
      REQUIRE(units.count(name) == 1);
      CHECK(units.at(name) == unit);
    }
  }
}

TEST_CASE("the only dimensionless columns of the example netlists are ratios, indices, flags and unit-free signals") {
  // What is left at "1" once every sensor, norm and time says its unit: each is a pure
  // number (a contact flag, a sequencer's state index and valve commands, displacement
  // fractions and openings) or a signal of the signal library, which has no unit of its
  // own (a setpoint, a PI command, a table's output).
  const std::map<std::string, std::set<std::string>> dimensionless = {
      {"bouncing_mass", {"ball.contact"}},
      {"driveline_launch", {"clutch.mode"}},  // open, slipping ±1, stuck: a mode index
      {"electro_hydraulic_actuator", {"reference.out"}},
      {"electric_excavator", {"battery.soc", "cycle.state"}},
      {"excavator_diesel", {"pump.displacement_state"}},
      {"excavator_hydraulic", {"pump.displacement_state"}},
      {"excavator_ls", {"pump.displacement_state"}},
      {"feedback_amplifier", {"input.out", "error.out", "amplifier.out"}},
      {"position_servo", {"setpoint.out", "pi.command"}},
      {"press_3150kN",
       {"cycle.state", "cycle.main", "cycle.pilot", "cycle.bypass", "pump.displacement_fraction", "prefill.opening",
        "prefill.decompression_opening", "workpiece.out"}},
      {"press_3150kN_fixed",
       {"cycle.state", "cycle.main", "cycle.pilot", "cycle.bypass", "pump.displacement_fraction", "prefill.opening",
        "prefill.decompression_opening", "workpiece.out"}},
  };
  int netlists = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() / "netlists")) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().stem().string();
    CAPTURE(name);
    ++netlists;
    const auto allowed = dimensionless.count(name) ? dimensionless.at(name) : std::set<std::string>{};
    for (const auto& header : header_of(name)) {
      const auto& column = header.first;
      const auto& unit = header.second;
      CAPTURE(column);
      CHECK((unit == "1") == (allowed.count(column) == 1));
    }
  }
  CHECK(netlists >= 16);
}

TEST_CASE("sensors' outputs, joints' violations and constraint norms are recorded in their units") {
  // A pendulum with a sensor of each kind on it, a weld (positions and an angle), an
  // angle driver (an angle alone), a 1D mass with its sensors and a pressure sensor.
  const std::string text = R"({
    "components": {
      "ground": {"type": "mechanical.ground", "params": {"points": {"O": [0, 0]}}},
      "rod": {"type": "mechanical.body", "params": {"mass": 1, "inertia": 0.1, "points": {"p": [-0.5, 0], "q": [0.5, 0]}},
              "initial": {"x": 0.5}},
      "arm": {"type": "mechanical.body", "params": {"mass": 1, "inertia": 0.1, "points": {"p": [-0.5, 0]}},
              "initial": {"x": 1.5}},
      "hinge": {"type": "mechanical.revolute"},
      "weld": {"type": "mechanical.weld"},
      "motor": {"type": "mechanical.driver_angle", "params": {"value": 0}},
      "point": {"type": "mechanical.point_sensor"},
      "span": {"type": "mechanical.distance_sensor"},
      "relative": {"type": "mechanical.relative_position_sensor"},
      "mass": {"type": "mechanical1d.mass"},
      "position": {"type": "mechanical1d.position_sensor"},
      "speed": {"type": "mechanical1d.velocity_sensor"},
      "tank": {"type": "hydraulic.tank"},
      "gauge": {"type": "hydraulic.pressure_sensor"}
    },
    "connections": [["ground.O", "hinge.a"], ["rod.p", "hinge.b"], ["rod.q", "weld.a"], ["arm.p", "weld.b"],
                    ["rod.cm", "motor.a"], ["rod.q", "point.a"], ["ground.O", "span.a"], ["rod.q", "span.b"],
                    ["ground.O", "relative.a"], ["arm.p", "relative.b"], ["mass.p", "position.p"], ["mass.p", "speed.p"],
                    ["tank.p", "gauge.p"]]
  })";
  const Netlist net = test::load(text);
  auto unit = [&](const std::string& name) { return net.model.recordable(name).unit; };
  const std::map<std::string, std::string> expected = {
      {"point.x", "m"},        {"point.y", "m"},         {"point.theta", "rad"},  {"point.vx", "m/s"},
      {"point.omega", "rad/s"}, {"point.ax", "m/s^2"},   {"point.alpha", "rad/s^2"},
      {"span.distance", "m"},  {"span.rate", "m/s"},     {"relative.x", "m"},    {"relative.angle", "rad"},
      {"position.out", "m"},   {"speed.out", "m/s"},     {"gauge.out", "Pa"},
      {"hinge.violation", "m"}, {"motor.violation", "rad"}, {"weld.violation", "m"},  // weld: its rad counted as m
      {"mechanism.constraint_norm", "m"}, {"mechanism.constraint_rate_norm", "m/s"}};
  for (const auto& entry : expected) {
    const auto& name = entry.first;
    const auto& u = entry.second;
    CAPTURE(name);
    CHECK(unit(name) == u);
  }
  // The default record (no "record" key) writes them so too.
  const auto header = header_units(net);
  CHECK(header.at("point.x") == "m");
  CHECK(header.at("gauge.out") == "Pa");
  CHECK(header.at("motor.violation") == "rad");
  // And describe shows the unit on the port.
  const nlohmann::json d = describe_type(*test::builtin_registry().find("mechanical.point_sensor"));
  for (const auto& port : d["ports"])
    if (port["name"] == "vx") CHECK(port["outputs"][0]["unit"] == "m/s");
}

TEST_CASE("a recorded value that is not finite stops its row and names the variable, the point evaluated or not") {
  // Two states recorded: the solvers hand such points over without evaluating them, so
  // the recorder's own check of each value is the one that meets a NaN there.
  Registry registry = test::builtin_registry();
  Netlist net = load_netlist_text(R"({"components": {"m": {"type": "mechanical1d.mass"}}, "record": ["m.x", "m.v"]})",
                                  "mass.json", registry);
  Recorder recorder(net.model, net.record);
  REQUIRE(recorder.evaluation_needed() == PointEvaluation::States);
  Context ctx = net.model.make_context(0.0);
  net.model.initialize(ctx);
  recorder.record(ctx);
  CHECK(recorder.rows() == 1);
  ctx.x[net.model.recordable("m.v").index] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(recorder.record(ctx), doctest::Contains("recorded variable 'm.v' is not finite"), NonFiniteError);
  CHECK(recorder.rows() == 1);  // the row with the NaN is not recorded
}

// Issue 40, point 3: two runs into one output folder (two `jourdain run … -o same`, Python
// threads with one output_dir) interleaved malformed rows, both exit 0. A Recorder takes
// its folder (flock on .jourdain.lock) before it touches results.csv.
TEST_CASE("one output folder, one run at a time: the second is refused, naming the first, its rows untouched") {
  const Netlist net = test::load(R"({"components": {"m": {"type": "mechanical1d.mass"}}, "record": ["m.x"]})");
  test::TempDir dir;
  const auto csv = dir.path() / "results.csv";
  {
    Recorder first(net.model, net.record);
    first.open(csv);
    const std::string header = test::read_text(csv);
    Recorder second(net.model, net.record);
    try {
      second.open(csv);
      FAIL("the second recorder took a folder in use");
    } catch (const OutputError& e) {
      const std::string m = e.what();
      CHECK_MESSAGE(m.find("the output folder is in use by another run (process " + std::to_string(::getpid()) +
                           ", since ") != std::string::npos,
                    m);
    }
    CHECK(test::read_text(csv) == header);  // not truncated by the refused one
  }
  // Released with the first recorder: the folder serves the next run.
  Recorder third(net.model, net.record);
  CHECK_NOTHROW(third.open(csv));
}

TEST_CASE("a run into a folder another process holds exits 2 before writing anything") {
  test::TempDir dir;
  const auto out = dir.path() / "out";
  std::filesystem::create_directories(out);
  test::write_text(out / "results.csv", "someone else's rows\n");
  const int holder = ::open((out / ".jourdain.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  REQUIRE(holder >= 0);
  REQUIRE(::flock(holder, LOCK_EX) == 0);
  const auto r = test::run_command(test::shell_quote(test::jourdain_exe()) + " run --no-report " +
                                   test::shell_quote(test::netlist_path("mass_spring_damper")) + " -o " +
                                   test::shell_quote(out));
  ::close(holder);
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.output.find("the output folder is in use by another run") != std::string::npos, r.output);
  CHECK(test::read_text(out / "results.csv") == "someone else's rows\n");
}
