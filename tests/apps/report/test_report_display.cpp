// What report.html shows beyond the numbers: the netlist's display units (checked at
// load, applied to the page's plots and never to results.csv), plots grouped by
// quantity rather than by unit alone, and the force elements drawn in the animation
// (a planar cylinder as barrel and rod, a spring as a zigzag) between the body points
// their ports are connected to. (The page in a browser: test_report_browser.cpp.)
#include <algorithm>
#include <cmath>
#include <set>

#include "jourdain/report/report.hpp"
#include "jourdain/units.hpp"
#include "jourdain_test.hpp"

using jourdain::test::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

json netlist_doc(const std::string& name) {
  return json::parse(jourdain::test::read_text(jourdain::test::netlist_path(name)));
}

// The report's data of a netlist given as a document (written to `dir`), run to t_end.
struct Reported {
  jourdain::RunResult result;
  json data;
};
Reported report_of(const json& doc, const fs::path& dir, double t_end) {
  fs::create_directories(dir);
  const fs::path file = dir / "netlist.json";
  jourdain::test::write_text(file, doc.dump(1));
  auto registry = jourdain::test::builtin_registry();
  const jourdain::Netlist net = jourdain::load_netlist(file, registry);
  jourdain::report::Report page(net.model, net.record, {}, net.display_units);
  jourdain::RunOptions options;
  options.output_dir = dir;
  options.t_end = t_end;
  options.keep_rows = true;
  options.listeners.push_back(&page);
  Reported out{jourdain::session::run(net, options, /*report=*/false).result, json()};
  out.data = page.data({net.name, net.description, net.file.string()}, out.result.summary);
  return out;
}

// The plot that holds variable `name`.
const json& plot_of(const json& data, const std::string& name) {
  for (const json& p : data["plots"])
    for (int k : p["variables"])
      if (data["variables"][k]["name"] == name) return p;
  FAIL("no plot holds " << name);
  static const json none;
  return none;
}

// The InputError (its JSON path and message) that loading `doc` raises.
jourdain::InputError load_error(const json& doc) {
  try {
    jourdain::test::load(doc.dump());
  } catch (const jourdain::InputError& e) {
    return e;
  }
  FAIL("the netlist loaded");
  return jourdain::InputError({}, "");
}

}  // namespace

TEST_CASE("quantities are named from their SI unit strings, each with everyday units that parse") {
  CHECK(jourdain::quantity_of_unit("Pa")->name == "pressure");
  CHECK(jourdain::quantity_of_unit("m^3/s")->name == "volume_flow");
  CHECK(jourdain::quantity_of_unit("m")->name == "length");
  CHECK(jourdain::quantity_of_unit("rad")->name == "angle");
  CHECK(jourdain::quantity_of_unit("") == nullptr);
  CHECK(jourdain::find_quantity("volume_flow")->si_unit == "m^3/s");
  std::set<std::string> names, si_units;
  for (const auto& q : jourdain::quantities()) {
    CAPTURE(q.name);
    CHECK(names.insert(q.name).second);
    CHECK(si_units.insert(q.si_unit).second);  // one quantity per SI unit string
    const jourdain::Unit si = jourdain::parse_unit(q.si_unit);
    CHECK(si.scale == 1.0);
    REQUIRE(!q.everyday_units.empty());
    CHECK(q.everyday_units.front() == q.si_unit);
    for (const auto& u : q.everyday_units) CHECK(jourdain::parse_unit(u).dimension == si.dimension);
  }
}

TEST_CASE("display units: plots in bar and L/min, by quantity and by variable; results.csv unchanged") {
  TempDir dir;
  json doc = netlist_doc("excavator_hydraulic");
  doc.erase("display");  // the shipped file may choose its own
  doc["record"].push_back("relief.opening");  // an overpressure, in Pa
  const Reported plain = report_of(doc, dir.path() / "plain", 0.2);
  doc["display"] = {{"units", {{"pressure", "bar"}, {"volume_flow", "L/min"}, {"boom_cylinder.extension", "mm"}}}};
  const Reported shown = report_of(doc, dir.path() / "shown", 0.2);
  REQUIRE(plain.result.finished);
  REQUIRE(shown.result.finished);

  // results.csv and summary.json stay SI, byte for byte.
  CHECK(jourdain::test::read_text(dir.path() / "plain" / "results.csv") ==
        jourdain::test::read_text(dir.path() / "shown" / "results.csv"));

  const json& d = shown.data;
  const json& pressures = plot_of(d, "boom_cylinder.pressure_a");
  CHECK(pressures["axis"] == "pressure");
  CHECK(pressures["unit"] == "Pa");
  CHECK(pressures["display"] == "bar");
  bool offers_bar = false, offers_mpa = false;
  for (const json& u : pressures["units"]) {
    if (u["name"] == "bar") offers_bar = u["scale"] == 1e5 && u["offset"] == 0.0;
    if (u["name"] == "MPa") offers_mpa = u["scale"] == 1e6;
  }
  CHECK(offers_bar);
  CHECK(offers_mpa);
  CHECK(plot_of(d, "supply.pressure") == pressures);  // same quantity, same unit: one axis

  // The relief valve's opening is an overpressure: in Pa (and shown in bar, as the
  // netlist asks for pressures) but on an axis of its own.
  const json& over = plot_of(d, "relief.opening");
  CHECK(over["axis"] == "overpressure");
  CHECK(over["display"] == "bar");
  CHECK(over != pressures);
  for (int k : over["variables"]) CHECK(d["variables"][k]["axis"] == "overpressure");

  const json& flows = plot_of(d, "pump.flow");
  CHECK(flows["display"] == "L/min");
  CHECK(flows["axis"] == "volume_flow");

  // A variable's own unit wins over its quantity's and takes it to a plot of its own.
  const json& extension = plot_of(d, "boom_cylinder.extension");
  CHECK(extension["display"] == "mm");
  CHECK(extension["variables"].size() == 1);
  CHECK(plot_of(d, "arm_cylinder.extension")["display"] == "m");

  // Without a display key: SI, and the same grouping by quantity.
  CHECK(plot_of(plain.data, "boom_cylinder.pressure_a")["display"] == "Pa");
  CHECK(plot_of(plain.data, "relief.opening") != plot_of(plain.data, "boom_cylinder.pressure_a"));
  // The series themselves are SI in both (the page converts).
  CHECK(plain.data["series"] == d["series"]);
}

TEST_CASE("display units are checked at load: the JSON path names the key at fault") {
  json doc = netlist_doc("position_servo");
  auto with_units = [&](const json& units) {
    json d = doc;
    d["display"] = {{"units", units}};
    return d;
  };
  auto e = load_error(with_units({{"presure", "bar"}}));
  CHECK(e.where().json_path == "/display/units/presure");
  CHECK(e.message().find("did you mean 'pressure'") != std::string::npos);
  e = load_error(with_units({{"pressure", "L/min"}}));
  CHECK(e.where().json_path == "/display/units/pressure");
  CHECK(e.message().find("does not fit quantity 'pressure'") != std::string::npos);
  e = load_error(with_units({{"pressure", "barr"}}));
  CHECK(e.where().json_path == "/display/units/pressure");
  CHECK(e.message().find("unknown unit 'barr'") != std::string::npos);
  e = load_error(with_units({{"volume_flow", 60}}));
  CHECK(e.where().json_path == "/display/units/volume_flow");
  e = load_error(with_units({{"nosuch.x", "mm"}}));
  CHECK(e.where().json_path == "/display/units/nosuch.x");
  json d = doc;
  d["display"] = {{"unit", {{"pressure", "bar"}}}};
  e = load_error(d);
  CHECK(e.where().json_path == "/display/unit");
  d["display"] = "bar";
  CHECK(load_error(d).where().json_path == "/display");

  // The command line: bad input, exit code 2, the file and the path named.
  TempDir dir;
  const fs::path file = dir.path() / "servo.json";
  jourdain::test::write_text(file, with_units({{"pressure", "N"}}).dump());
  auto r = jourdain::test::run_command(jourdain::test::jourdain_exe() + " check " + jourdain::test::shell_quote(file));
  CAPTURE(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("/display/units/pressure") != std::string::npos);

  // Good ones load: a quantity's unit, a variable's, an angle in degrees.
  const jourdain::Netlist net = jourdain::test::load(with_units({{"pressure", "MPa"}, {"angle", "deg"}}).dump());
  CHECK(net.display_units.at("pressure") == "MPa");
  CHECK(net.display_units.at("angle") == "deg");
}

TEST_CASE("excavator_hydraulic: the planar cylinders are drawn between the body points they act on") {
  TempDir dir;
  json doc = netlist_doc("excavator_hydraulic");
  const Reported r = report_of(doc, dir.path(), 0.1);
  const json& anim = r.data["animation"];
  REQUIRE(anim.is_object());
  std::set<std::string> drawn;
  for (const json& s : anim["sketches"]) {
    if (!s.contains("links")) continue;
    for (const json& link : s["links"]) {
      CAPTURE(link);
      CHECK(link["kind"] == "cylinder");
      CHECK(link["barrel"].get<double>() > 0.5);  // the retracted lengths, 0.9 m or so
      // Both ends read from the body points the ports are connected to, recorded in the
      // animation's own channel.
      for (const char* end : {"from", "to"})
        for (const char* xy : {"x", "y"}) {
          const std::string name = link[end][xy];
          CHECK(anim["values"].contains(name));
          CHECK(anim["values"][name].size() == anim["time"].size());
        }
      drawn.insert(s["component"].get<std::string>());
    }
  }
  CHECK(drawn == std::set<std::string>{"boom_cylinder", "arm_cylinder", "bucket_cylinder"});

  // The link's length is the cylinder's: L = retracted_length + extension, at t = 0.
  auto registry = jourdain::test::builtin_registry();
  const jourdain::Netlist net = jourdain::load_netlist(jourdain::test::netlist_path("excavator_hydraulic"), registry);
  const auto vars = jourdain::report::sketch_variables(net.model);
  for (const json& s : anim["sketches"]) {
    if (s.value("component", "") != "boom_cylinder") continue;
    const json& link = s["links"][0];
    for (const char* end : {"from", "to"})
      CHECK(std::find(vars.begin(), vars.end(), link[end]["x"].get<std::string>()) != vars.end());
    const auto at0 = [&](const json& end, const char* xy) { return anim["values"][end[xy].get<std::string>()][0].get<double>(); };
    const double dx = at0(link["to"], "x") - at0(link["from"], "x"), dy = at0(link["to"], "y") - at0(link["from"], "y");
    const double extension = jourdain::test::at_time(r.result, "boom_cylinder.extension", 0.0);
    CHECK(std::hypot(dx, dy) == doctest::Approx(0.905 + extension).epsilon(1e-6));
  }
}

TEST_CASE("andrews_squeezer: the spring between two points is drawn as a spring") {
  TempDir dir;
  const Reported r = report_of(netlist_doc("andrews_squeezer"), dir.path(), 1e-3);
  bool spring = false;
  for (const json& s : r.data["animation"]["sketches"])
    if (s.contains("links"))
      for (const json& link : s["links"]) spring = spring || (s["component"] == "spring" && link["kind"] == "spring");
  CHECK(spring);
}
