// report.html from real runs: the Report listens to the run's rows (as the command line
// wires it: apps/cli/jourdain.cpp) and the page holds the plotted variables, thinned
// rows and, for a mechanism, the sketches and poses of the animation, read through the
// report's own channel while results.csv holds exactly the netlist's record list. The
// command line writes it next to results.csv and summary.json (also after a failure,
// and not with --no-report). (That the page runs in a browser is
// test_report_browser.cpp; the thinning on synthetic rows is test_report_data.cpp.)
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "jourdain/report/report.hpp"
#include "jourdain_test.hpp"

using jourdain::test::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The page's data: the JSON object in <script id="report-data">.
json report_data(const std::string& html) {
  const std::string open = "<script id=\"report-data\" type=\"application/json\">";
  const size_t begin = html.find(open);
  REQUIRE(begin != std::string::npos);
  const size_t end = html.find("</script>", begin);
  REQUIRE(end != std::string::npos);
  return json::parse(html.substr(begin + open.size(), end - begin - open.size()));
}

// Nothing is fetched: no external script, style sheet, image or import; the only
// address in the page is the SVG namespace name. (ELK's bundle, inlined when a level
// needs laying out, holds the EMF model's namespace names, which name and fetch nothing:
// it is left out of the search for addresses.)
void check_self_contained(std::string html) {
  for (const char* bad : {"src=\"http", "href=\"http", "src='http", "href='http", "<link", "@import", "url(http"})
    CHECK_MESSAGE(html.find(bad) == std::string::npos, bad);
  const std::string elk = jourdain::test::read_text(std::filesystem::path(JOURDAIN_WEB_BUNDLES) / "elk.js");
  if (const size_t at = html.find(elk); at != std::string::npos) html.erase(at, elk.size());
  const std::string svg_ns = "http://www.w3.org/2000/svg";
  for (size_t at = html.find("http"); at != std::string::npos; at = html.find("http", at + 1))
    CHECK_MESSAGE(html.compare(at, svg_ns.size(), svg_ns) == 0, html.substr(at, 60));
}

// A run with its report, as the command line does it: results.csv and summary.json in
// `dir` (none when empty), the Report listening, report.html written after the run.
struct ReportedRun {
  jourdain::RunResult result;
  std::vector<std::string> record;  // the netlist's
  std::string html;
};
ReportedRun run_with_report(const fs::path& netlist_file, const fs::path& dir) {
  auto registry = jourdain::test::builtin_registry();
  const jourdain::Netlist net = jourdain::load_netlist(netlist_file, registry);
  jourdain::report::Report page(net.model, net.record);
  jourdain::RunOptions options;
  options.keep_rows = true;
  options.output_dir = dir;
  options.listeners.push_back(&page);
  ReportedRun out{jourdain::session::run(net, options, /*report=*/false).result, net.record, ""};
  out.html = jourdain::report::render_page(page.data({net.name, net.description, net.file.string()}, out.result.summary));
  return out;
}

bool has_variable(const json& data, const std::string& name) {
  for (const auto& v : data["variables"])
    if (v["name"] == name) return true;
  return false;
}

}  // namespace

TEST_CASE("pendulum: plots thinned to min and max per bucket, and the animation's sketches and poses") {
  const auto run = run_with_report(jourdain::test::netlist_path("pendulum"), {});
  const auto& r = run.result;
  REQUIRE(r.finished);
  const std::string& html = run.html;
  check_self_contained(html);
  CHECK(html.find("<title>pendulum · Jourdain report</title>") != std::string::npos);
  CHECK(html.find("data-report-ready") != std::string::npos);
  const json d = report_data(html);
  CHECK(d["name"] == "pendulum");
  CHECK(d["summary"]["status"] == "finished");
  CHECK(d["rows"] == r.row_count);
  for (const char* v : {"bob.x", "bob.theta", "hinge.fx", "hinge.fy", "mechanism.constraint_norm"})
    CHECK_MESSAGE(has_variable(d, v), v);

  // 10001 rows thinned to two points per bucket; each curve keeps its extremes exactly
  // (to the page's 7 digits), and the first and last rows as they are.
  REQUIRE(r.row_count == 10001);
  CHECK(d["thinned"] == true);
  const auto& time = d["series"]["time"];
  CHECK(time.size() <= 2000);
  CHECK(time.size() >= 1000);
  CHECK(time.front().get<double>() == 0.0);
  CHECK(time.back().get<double>() == doctest::Approx(10.0));
  for (size_t k = 0; k < d["variables"].size(); ++k) {
    const std::string name = d["variables"][k]["name"];
    const auto& values = d["series"]["values"][k];
    REQUIRE(values.size() == time.size());
    const auto column = r.column(name);
    CAPTURE(name);
    CHECK(values.back().get<double>() == doctest::Approx(column.back()).epsilon(1e-6).scale(1e-300));
    CHECK(values.front().get<double>() == doctest::Approx(column.front()).epsilon(1e-6).scale(1e-300));
    const auto [lo, hi] = std::minmax_element(column.begin(), column.end());
    double page_lo = 1e300, page_hi = -1e300;
    for (const auto& v : values)
      page_lo = std::min(page_lo, v.get<double>()), page_hi = std::max(page_hi, v.get<double>());
    // Monitors keep the largest value of each bucket only (a norm's size is what matters).
    if (name.rfind("mechanism.", 0) != 0) CHECK(page_lo == doctest::Approx(*lo).epsilon(1e-6).scale(1e-300));
    CHECK(page_hi == doctest::Approx(*hi).epsilon(1e-6).scale(1e-300));
  }
  // Plots: grouped by unit, at most six curves, monitors on their own.
  for (const auto& p : d["plots"]) {
    CHECK(p["variables"].size() <= 6);
    for (const auto& v : p["variables"]) CHECK(d["variables"][v.get<int>()]["unit"] == p["unit"]);
  }

  // Animation: the bob drawn in its frame, the ground's pivot as an anchor.
  const json& a = d["animation"];
  REQUIRE(a.is_object());
  CHECK(a["time"].size() <= 2001);
  CHECK(a["time"].back().get<double>() == doctest::Approx(10.0));
  for (const char* v : {"bob.x", "bob.y", "bob.theta"}) CHECK(a["values"][v].size() == a["time"].size());
  bool bob = false, ground = false;
  for (const auto& s : a["sketches"]) {
    if (s["component"] == "bob") {
      bob = true;
      CHECK(s["frame"] == json{{"x", "bob.x"}, {"y", "bob.y"}, {"theta", "bob.theta"}});
      CHECK(s["polyline"].size() == 2);  // the rod from the pin to the mass centre
      CHECK(s["points"]["pin"] == json::parse("[-1.0, 0.0]"));
    }
    if (s["component"] == "ground") {
      ground = true;
      CHECK_FALSE(s.contains("frame"));
      CHECK(s["anchors"]["pivot"] == json::parse("[0.0, 0.0]"));
    }
  }
  CHECK(bob);
  CHECK(ground);
  // Mid-run the bob hangs below the pivot, 1 m away.
  const size_t mid = a["time"].size() / 2;
  const double x = a["values"]["bob.x"][mid], y = a["values"]["bob.y"][mid];
  CHECK(std::hypot(x, y) == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("mass-spring-damper: every row plotted, no animation") {
  const auto run = run_with_report(jourdain::test::netlist_path("mass_spring_damper"), {});
  const auto& r = run.result;
  REQUIRE(r.finished);
  check_self_contained(run.html);
  const json d = report_data(run.html);
  for (const char* v : {"mass.x", "mass.v", "spring.force", "damper.force", "wall.reaction"})
    CHECK_MESSAGE(has_variable(d, v), v);
  CHECK(d["thinned"] == false);
  REQUIRE(d["series"]["time"].size() == static_cast<size_t>(r.row_count));
  // Every row as it is (to the page's digits).
  const auto x = r.column("mass.x");
  for (size_t i = 0; i < x.size(); i += 97)
    CHECK(d["series"]["values"][0][i].get<double>() == doctest::Approx(x[i]).epsilon(1e-6).scale(1e-300));
  CHECK(d["animation"].is_null());
  // Position, velocity, acceleration and force: four units, four plots.
  CHECK(d["plots"].size() == 4);
}

TEST_CASE("the animation's poses come through the report's own channel: results.csv records the netlist's list only") {
  const auto file = jourdain::test::netlist_path("andrews_squeezer");
  TempDir dir;
  const auto run = run_with_report(file, dir.path());
  const auto& r = run.result;
  REQUIRE(r.finished);
  // results.csv and the run's columns: time, then exactly the netlist's record list.
  std::vector<std::string> expected{"time"};
  expected.insert(expected.end(), run.record.begin(), run.record.end());
  CHECK(r.columns == expected);
  const std::string csv = jourdain::test::read_text(dir.path() / "results.csv");
  const std::string header = csv.substr(0, csv.find('\n'));
  CHECK(header.rfind("time [s],crank.theta [rad],crank.omega [rad/s],", 0) == 0);
  CHECK(std::count(header.begin(), header.end(), ',') == static_cast<long>(run.record.size()));
  for (const char* v : {"crank.x [", "crank.y [", "triangle.x ["}) CHECK_MESSAGE(header.find(v) == std::string::npos, v);

  // The page still animates all seven bodies from poses it read itself, row by row.
  const json d = report_data(run.html);
  CHECK_FALSE(has_variable(d, "crank.x"));        // plotted: the netlist's own variables
  CHECK(d["animation"]["sketches"].size() == 9);  // ground, seven bodies and the spring (a link)
  for (const auto& s : d["animation"]["sketches"])
    if (s["component"] == "triangle") CHECK(s["polygon"].size() == 3);  // B, E, D (the mass centre is inside)
  const json& a = d["animation"];
  // x, y, theta of seven bodies, and x, y of the spring's two ends (ground point C,
  // triangle point D), read from the ports the spring is connected to.
  CHECK(a["values"].size() == 25);
  for (const char* v : {"crank.x", "crank.y", "link7.theta", "ground.C.x", "triangle.D.y"}) {
    CAPTURE(v);
    REQUIRE(a["values"].contains(v));
    CHECK(a["values"][v].size() == a["time"].size());
  }
  // A recorded one agrees with results.csv at the last row.
  CHECK(a["values"]["link7.theta"].back().get<double>() ==
        doctest::Approx(r.column("link7.theta").back()).epsilon(1e-8));

  auto registry = jourdain::test::builtin_registry();
  const auto netlist = jourdain::load_netlist(file, registry);
  CHECK(jourdain::report::sketch_variables(netlist.model).size() == 25);  // as the animation's values
}

TEST_CASE("a netlist without a record list: results.csv holds the default record, with or without a report") {
  TempDir dir;
  // The pendulum without its "record" key: the model's default record (every state,
  // observable and signal output), which the report does not extend.
  json doc = json::parse(jourdain::test::read_text(jourdain::test::netlist_path("pendulum")), nullptr, true, true);
  doc.erase("record");
  doc["solver"]["t_end"] = 0.1;
  const fs::path file = dir.path() / "pendulum_default.json";
  jourdain::test::write_text(file, doc.dump());
  auto registry = jourdain::test::builtin_registry();
  const auto net = jourdain::load_netlist(file, registry);
  std::vector<std::string> expected{"time"};
  expected.insert(expected.end(), net.record.begin(), net.record.end());
  const auto with = run_with_report(file, dir.path() / "with");
  CHECK(with.result.columns == expected);
  const auto r = jourdain::test::run_command(jourdain::test::jourdain_exe() + " run -q " +
                                             jourdain::test::shell_quote(file) + " -o " +
                                             jourdain::test::shell_quote(dir.path() / "cli"));
  REQUIRE(r.exit_code == 0);
  const std::string csv = jourdain::test::read_text(dir.path() / "cli" / "results.csv");
  const std::string header = csv.substr(0, csv.find('\n'));
  CHECK(std::count(header.begin(), header.end(), ',') == static_cast<long>(net.record.size()));
  CHECK(report_data(jourdain::test::read_text(dir.path() / "cli" / "report.html"))["animation"].is_object());
}

TEST_CASE("the command line prints the report's path; --no-report writes none") {
  TempDir dir;
  const auto net = jourdain::test::shell_quote(jourdain::test::netlist_path("mass_spring_damper"));
  const auto with = dir.path() / "with", without = dir.path() / "without";
  auto r = jourdain::test::run_command(jourdain::test::jourdain_exe() + " run " + net + " -o " +
                                       jourdain::test::shell_quote(with));
  CAPTURE(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("report: " + (with / "report.html").string()) != std::string::npos);
  CHECK(fs::exists(with / "report.html"));
  r = jourdain::test::run_command(jourdain::test::jourdain_exe() + " run " + net + " --no-report -o " +
                                  jourdain::test::shell_quote(without));
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("report:") == std::string::npos);
  CHECK(fs::exists(without / "results.csv"));
  CHECK(fs::exists(without / "summary.json"));
  CHECK_FALSE(fs::exists(without / "report.html"));
}

TEST_CASE("a failed run still writes a report: the failure and the rows up to it") {
  TempDir dir;
  const auto file = dir.path() / "stiff.json";
  jourdain::test::write_text(file, R"({
    "name": "stiff",
    "components": {
      "wall": {"type": "mechanical1d.fixed"},
      "spring": {"type": "mechanical1d.spring", "params": {"stiffness": 1e4}},
      "damper": {"type": "mechanical1d.damper", "params": {"damping": 1e3}},
      "mass": {"type": "mechanical1d.mass", "params": {"mass": 1e-3}, "initial": {"x": 0.1}}
    },
    "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"], ["wall.p", "damper.a"], ["mass.p", "damper.b"]],
    "solver": {"method": "dopri5", "t_end": 1, "output_interval": 0.001, "max_steps": 20000},
    "record": ["mass.x"]
  })");
  const auto out = dir.path() / "out";
  // Without -q, which keeps stdout silent: the lines that say where the files went.
  const auto r =
      jourdain::test::run_command(jourdain::test::jourdain_exe() + " run " + jourdain::test::shell_quote(file) +
                                  " -o " + jourdain::test::shell_quote(out));
  CAPTURE(r.output);
  CHECK(r.exit_code == 1);
  CHECK(r.output.find("report: ") != std::string::npos);
  const std::string html = jourdain::test::read_text(out / "report.html");
  check_self_contained(html);
  const json d = report_data(html);
  CHECK(d["summary"]["status"] == "failed");
  const std::string message = d["summary"]["failure"]["message"];
  CHECK(message.find("max_steps") != std::string::npos);
  const double t_fail = d["summary"]["failure"]["time"];
  CHECK(d["series"]["time"].back().get<double>() <= t_fail);
  CHECK(d["series"]["time"].size() == d["rows"].get<size_t>());
  CHECK(has_variable(d, "mass.x"));
}

TEST_CASE("a kinematic run says so: the log, summary.json and the page name the analysis, no integrator") {
  // slider_crank.json: "analysis": "kinematic", no method given (the default, dopri5,
  // would be named if anything integrated).
  TempDir dir;
  const auto out = dir.path() / "slider";
  auto r = jourdain::test::run_command(jourdain::test::jourdain_exe() + " run " +
                                       jourdain::test::shell_quote(jourdain::test::netlist_path("slider_crank")) +
                                       " -o " + jourdain::test::shell_quote(out));
  CAPTURE(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("kinematic analysis") != std::string::npos);
  CHECK(r.output.find("dopri5") == std::string::npos);
  CHECK(r.output.find("right-hand-side") == std::string::npos);
  CHECK(r.output.find("kinematic analysis at 401 output times") != std::string::npos);  // 2 s every 5 ms

  const json summary = json::parse(jourdain::test::read_text(out / "summary.json"));
  CHECK(summary["analysis"] == "kinematic");
  CHECK(summary["statistics"]["method"] == "kinematic");
  CHECK_FALSE(summary["solver"].contains("method"));
  CHECK_FALSE(summary["solver"].contains("rtol"));  // a method's own setting
  CHECK(summary["solver"]["t_end"] == 2.0);
  CHECK(summary["solver"]["output_interval"] == 0.005);

  // The page's data carries that summary: its script shows the analysis, and the
  // method's tiles only when dynamic (test_report_browser.cpp looks at the page).
  const json data = report_data(jourdain::test::read_text(out / "report.html"));
  CHECK(data["summary"]["analysis"] == "kinematic");
  CHECK_FALSE(data["summary"]["solver"].contains("method"));
}

TEST_CASE("a dynamic run keeps naming its method and its settings") {
  TempDir dir;
  const ReportedRun run = run_with_report(jourdain::test::netlist_path("mass_spring_damper"), dir.path());
  CHECK(run.result.summary["analysis"] == "dynamic");
  CHECK(run.result.summary["solver"]["method"] == "dopri5");
  CHECK(run.result.summary["solver"]["rtol"] == 1e-8);
}
