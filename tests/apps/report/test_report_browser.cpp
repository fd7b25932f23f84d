// report.html in a real browser: headless Chromium (Debian package `chromium`, which
// .ci/install-deps installs) opens the pendulum's report. The page must build without a
// script error (its script marks <body data-report-ready="1"> when done and writes any
// error into data-report-error, both visible in the dumped DOM), show the animation and
// its controls, and start playing (it does when its address ends in #autoplay).
// A linear analysis' page (linear_example.hpp) builds its section: stability, eigenvalue
// map, modes, Bode plot, mode shape and matrices, and its hover readouts answer.
// A parameter study's page (sweep.html) draws its scatter plots and its table of runs;
// a design study's (study.html) its convergence, parameters' paths, fit or Pareto front
// (each Pareto point linked to its run's report) and tables.
// Without a browser the test fails, unless JOURDAIN_ALLOW_NO_BROWSER=1: then it is
// skipped (exit code 77, which ctest reports as "Skipped").
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "jourdain/page/page.hpp"
#include "jourdain/report/report.hpp"
#include "jourdain_test.hpp"
#include "linear_example.hpp"

using jourdain::test::run_command;
using jourdain::test::shell_quote;
using jourdain::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string find_browser() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    auto r = run_command(std::string("command -v ") + name);
    if (r.exit_code == 0) {
      std::string path = r.output;
      while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
      if (!path.empty()) return path;
    }
  }
  return "";
}

// What the browser said, without its complaints about a missing desktop bus.
std::string browser_messages(const fs::path& log) {
  std::istringstream in(fs::exists(log) ? jourdain::test::read_text(log) : "");
  std::string line, out;
  while (std::getline(in, line))
    if (line.find("dbus") == std::string::npos && out.size() < 4000) out += line + "\n";
  return out;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The page as drawn: the DOM without its scripts' source (ELK's, inlined when a level
// is laid out automatically, tests isNaN in its own code).
std::string drawn(std::string dom) {
  for (size_t open = dom.find("<script"); open != std::string::npos; open = dom.find("<script", open)) {
    const size_t close = dom.find("</script>", open);
    if (close == std::string::npos) break;
    dom.erase(open, close + 9 - open);
  }
  return dom;
}

// The browser, or a skip (exit code 77) when JOURDAIN_ALLOW_NO_BROWSER=1 allows it.
std::string browser_or_skip() {
  const std::string browser = find_browser();
  if (browser.empty()) {
    const char* allow = std::getenv("JOURDAIN_ALLOW_NO_BROWSER");
    if (allow && std::string(allow) == "1") {
      std::cout << "SKIPPED: no chromium on PATH (JOURDAIN_ALLOW_NO_BROWSER=1); install the Debian package "
                   "`chromium` to run this test\n";
      std::exit(77);
    }
    FAIL(
        "no chromium on PATH: install the Debian package `chromium` (.ci/install-deps does), "
        "or set JOURDAIN_ALLOW_NO_BROWSER=1 to skip this test");
  }
  return browser;
}

// Headless Chromium with its own profile folder (runs in parallel do not share one) and
// a timeout, so that a hung browser fails.
std::string chromium_command(const std::string& browser, const TempDir& dir) {
  return "timeout 60 " + shell_quote(browser) +
         " --headless --disable-gpu --no-sandbox --no-first-run --hide-scrollbars --user-data-dir=" +
         shell_quote(dir.path() / "profile");
}

// The DOM of `page``hash` as headless Chromium builds it, checked free of script errors;
// stderr (Chromium's own chatter) apart from the DOM on stdout.
std::string dom_of(const std::string& browser, const TempDir& dir, const fs::path& page, const std::string& hash = "") {
  const std::string chromium = chromium_command(browser, dir);
  const fs::path dom_file = dir.path() / "dom.html", log = dir.path() / "chromium.log";
  auto dump = run_command("(" + chromium + " --virtual-time-budget=2000 --dump-dom " +
                          shell_quote("file://" + page.string() + hash) + " > " + shell_quote(dom_file) + " 2> " +
                          shell_quote(log) + ")");
  const std::string dom = fs::exists(dom_file) ? jourdain::test::read_text(dom_file) : "";
  const std::string messages = browser_messages(log);
  CAPTURE(messages);
  REQUIRE(dump.exit_code == 0);
  REQUIRE(!dom.empty());
  const size_t error = dom.find("data-report-error=\"");
  CHECK_MESSAGE(error == std::string::npos, dom.substr(error == std::string::npos ? 0 : error, 400));
  CHECK(dom.find("class=\"script-error\"") == std::string::npos);
  CHECK(dom.find("data-report-ready=\"1\"") != std::string::npos);
  return dom;
}

// `jourdain run -q NETLIST -o DIR/run ARGS`, then the DOM of DIR/run/report.html`hash`
// (dom_of).
std::string built_page(const std::string& browser, const TempDir& dir, const std::string& netlist,
                       const std::string& args = "", const std::string& hash = "") {
  const fs::path out = dir.path() / "run";
  auto run = run_command(jourdain::test::jourdain_exe() + " run -q " +
                         shell_quote(jourdain::test::netlist_path(netlist)) + " -o " + shell_quote(out) + " " + args);
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  return dom_of(browser, dir, out / "report.html", hash);
}

// A tile of the header: <div class="k">key</div><div class="v">value</div>.
std::string tile(const std::string& key, const std::string& value) {
  return "<div class=\"k\">" + key + "</div><div class=\"v\">" + value + "</div>";
}

}  // namespace

TEST_CASE("the pendulum's report opens in headless Chromium without script errors and plays") {
  const std::string browser = browser_or_skip();

  TempDir dir;
  const std::string dom = built_page(browser, dir, "pendulum", "", "#autoplay");
  const fs::path report = dir.path() / "run" / "report.html";
  const std::string chromium = chromium_command(browser, dir);
  const fs::path log = dir.path() / "chromium.log";

  // The animation: the scene, the bob drawn as a rod with its pin and the ground's
  // anchor, and the controls.
  CHECK(dom.find("id=\"scene\"") != std::string::npos);
  CHECK(dom.find("<polyline") != std::string::npos);
  CHECK(dom.find("bob.pin") != std::string::npos);
  CHECK(dom.find("ground.pivot") != std::string::npos);
  CHECK(dom.find("id=\"play\"") != std::string::npos);
  CHECK(dom.find("id=\"time-slider\"") != std::string::npos);
  CHECK(dom.find("id=\"speed\"") != std::string::npos);
  // The plots: one curve (a path) per plotted variable, and the legends name them.
  CHECK(count(dom, "<path d=\"M") >= 11);
  CHECK(dom.find("hinge.fx_body") != std::string::npos);
  // It plays (how far it got depends on how many frames the headless browser drew).
  CHECK(dom.find("❚❚ Pause") != std::string::npos);
  CHECK(std::regex_search(dom, std::regex("t = [0-9.]+ s / 10 s")));

  // And it renders: a screenshot of a reasonable size.
  const fs::path png = dir.path() / "report.png";
  auto shot = run_command("(" + chromium + " --window-size=1400,2000 --screenshot=" + shell_quote(png) + " " +
                          shell_quote("file://" + report.string()) + " > /dev/null 2>> " + shell_quote(log) + ")");
  CHECK(shot.exit_code == 0);
  REQUIRE(fs::exists(png));
  CHECK(fs::file_size(png) > 20000);
  // A dynamic run's tiles name its method and the integrator's work.
  CHECK(dom.find(tile("Analysis", "dynamic")) != std::string::npos);
  CHECK(dom.find(tile("Method", "dopri5")) != std::string::npos);
  CHECK(dom.find("<div class=\"k\">RHS evaluations</div>") != std::string::npos);
}

TEST_CASE("excavator_hydraulic's page draws its cylinders and shows pressures in the netlist's bar") {
  const std::string browser = browser_or_skip();
  TempDir dir;
  const std::string dom = built_page(browser, dir, "excavator_hydraulic", "--t-end 0.2");
  // Three planar cylinders, each a barrel and a rod between its two body points.
  CHECK(count(dom, "data-link=\"cylinder\"") == 3);
  CHECK(count(dom, "class=\"barrel\" points=\"") == 3);
  CHECK(count(dom, "class=\"rod\" points=\"") == 3);
  CHECK(drawn(dom).find("NaN") == std::string::npos);
  // "display": {"units": {"pressure": "bar", "volume_flow": "L/min"}}: the plots'
  // selectors and headings show them (test_report_display.cpp checks the grouping).
  CHECK(dom.find("class=\"unit-select\"") != std::string::npos);
  CHECK(dom.find("<option value=\"bar\" selected=\"\">bar</option>") != std::string::npos);
  CHECK(dom.find("<option value=\"L/min\" selected=\"\">L/min</option>") != std::string::npos);
  CHECK(dom.find("<span>Pressure [bar]") != std::string::npos);
}

TEST_CASE("a run with --energy shows where the energy went") {
  // The mass–spring–damper released from 100 mm: 0.5 J stored in the spring at the start,
  // almost all of it lost in the damper over 5 s.
  const std::string browser = browser_or_skip();
  TempDir dir;
  const std::string dom = built_page(browser, dir, "mass_spring_damper", "--energy");
  CHECK(dom.find("id=\"energy\"") != std::string::npos);
  CHECK(dom.find("Where the energy went") != std::string::npos);
  CHECK(std::regex_search(dom, std::regex("<td>damper</td><td>mechanical1d</td>")));
  CHECK(dom.find("<i class=\"lost\"") != std::string::npos);
  // The power over time: supplied, lost and the 1D mechanics' carried power, three curves.
  const size_t plot = dom.find("id=\"power-plot\"");
  REQUIRE(plot != std::string::npos);
  CHECK(count(dom.substr(plot, dom.find("</svg>", plot) - plot), "class=\"curve\"") == 3);
  CHECK(drawn(dom).find("NaN") == std::string::npos);
  // Without it, no such section.
  TempDir plain;
  CHECK(built_page(browser, plain, "mass_spring_damper").find("id=\"energy\"") == std::string::npos);
}

TEST_CASE("a kinematic run's page names the analysis and shows no integrator") {
  const std::string browser = browser_or_skip();
  TempDir dir;
  const std::string dom = built_page(browser, dir, "slider_crank");
  CHECK(dom.find(tile("Analysis", "kinematic")) != std::string::npos);
  CHECK(dom.find("<div class=\"k\">Method</div>") == std::string::npos);
  CHECK(dom.find("<div class=\"k\">RHS evaluations</div>") == std::string::npos);
  CHECK(dom.find("<div class=\"k\">Jacobians</div>") == std::string::npos);
  CHECK(dom.find(tile("Solved points", "401")) != std::string::npos);
  CHECK(dom.find("dopri5") == std::string::npos);
  CHECK(dom.find("Time settings (kinematic analysis, no integrator)") != std::string::npos);
}

TEST_CASE("a linear run's page: stability, eigenvalues, modes, Bode plots, the mode's shape and the matrices") {
  const std::string browser = browser_or_skip();
  TempDir dir;
  // As a linear run gives it (linear_example.hpp): the operating point's row, the
  // pendulum's analysis, 24 frames of its mode; a summary without solver or events.
  auto registry = jourdain::test::builtin_registry();
  const auto net = jourdain::load_netlist(jourdain::test::netlist_path("pendulum"), registry);
  jourdain::report::Report page(net.model, net.record);
  jourdain::test::PendulumLinear::fill(net.model, page, 24);
  const fs::path file = dir.path() / "report.html";
  jourdain::report::write_page(file, page.data({net.name, net.description, "netlists/pendulum.json"},
                                               {{"status", "finished"}, {"analysis", "linear"}}));
  const std::string dom = dom_of(browser, dir, file);
  CHECK(drawn(dom).find("NaN") == std::string::npos);
  CHECK(dom.find(tile("Analysis", "linear")) != std::string::npos);
  CHECK(dom.find(tile("Stability", "marginally stable")) != std::string::npos);
  // 1. The operating point and the stability statement.
  CHECK(dom.find("id=\"linear\"") != std::string::npos);
  CHECK(dom.find("Operating point: an equilibrium") != std::string::npos);
  CHECK(dom.find("class=\"stability marginal\"") != std::string::npos);
  // 2. The eigenvalue map: ±jω0, both stable (on the axis, not to its right).
  CHECK(dom.find("id=\"eigenvalue-map\"") != std::string::npos);
  CHECK(count(dom, "class=\"eig stable\"") == 2);
  CHECK(count(dom, "class=\"eig unstable\"") == 0);
  CHECK(count(dom, "class=\"zero\"") == 2);
  // 3. The modes' table: one row, fn = ω0/2π = 0.4985 Hz, both states at 50 %.
  CHECK(dom.find("id=\"mode-table\"") != std::string::npos);
  CHECK(dom.find("<td class=\"num\">0.4985</td>") != std::string::npos);
  CHECK(dom.find("bob.theta 50%, bob.omega 50%") != std::string::npos);
  // 4. One Bode plot: magnitude and phase, each a curve.
  CHECK(count(dom, "class=\"plot bode\"") == 1);
  CHECK(dom.find("torque.value → bob.theta") != std::string::npos);
  CHECK(dom.find("magnitude [dB]") != std::string::npos);
  CHECK(dom.find("phase [°]") != std::string::npos);
  // 5. The mode's shape: its own scene and selector; the single row's still frame and
  // its one-point plots are left out.
  CHECK(dom.find("id=\"mode-scene\"") != std::string::npos);
  CHECK(dom.find("id=\"mode-select\"") != std::string::npos);
  CHECK(dom.find("bob.pin") != std::string::npos);
  CHECK(dom.find("id=\"scene\"") == std::string::npos);
  CHECK(dom.find("id=\"plots\"") == std::string::npos);
  // 6. The matrices, folded: A's −ω0² = −9.81 (to 4 digits).
  CHECK(dom.find("<details class=\"matrices\">") != std::string::npos);
  CHECK(dom.find(">-9.81<") != std::string::npos);

  // The hover readouts, by a probe appended to the page: the pointer on the first
  // eigenvalue's cross, then mid-way across the magnitude plot (0.631 Hz of
  // 0.01–100 Hz, a computed point: |G| = 1/|ω0² − ω²| = 0.1693 rad/(N·m) = −15.43 dB,
  // past resonance so −180°).
  const std::string probe = R"(<script>
setTimeout(() => {
  const out = [];
  const at = (target, box, fx, fy) => target.dispatchEvent(new MouseEvent("mousemove",
      { clientX: box.left + fx * box.width, clientY: box.top + fy * box.height, bubbles: true }));
  const mark = document.querySelector("#eigenvalue-map path.eig");
  at(document.querySelector("#eigenvalue-map svg"), mark.getBoundingClientRect(), 0.5, 0.5);
  out.push(document.querySelector("#eigenvalue-map .tip").textContent);
  const bode = document.querySelector(".bode svg");
  at(bode, bode.getBoundingClientRect(), 0.5, 0.5);
  out.push(document.querySelector(".bode .tip").textContent);
  document.body.setAttribute("data-probe", out.join(" | "));
}, 300);
</script>)";
  std::string html = jourdain::test::read_text(file);
  html.insert(html.rfind("</body>"), probe);
  const fs::path probed = dir.path() / "probed.html";
  std::ofstream(probed) << html;
  const std::string hovered = dom_of(browser, dir, probed);
  std::smatch said;
  REQUIRE(std::regex_search(hovered, said, std::regex("data-probe=\"([^\"]*)\"")));
  const std::string readout = said[1];
  CAPTURE(readout);
  CHECK(readout.find("λ = 0 + 3.132j 1/s") != std::string::npos);
  CHECK(readout.find("mode 1 (oscillatory)") != std::string::npos);
  CHECK(readout.find("f = 0.63096 Hz") != std::string::npos);
  CHECK(readout.find("|G| = -15.43 dB (0.1693 rad/(N·m))") != std::string::npos);
  CHECK(readout.find("phase = -180°") != std::string::npos);
}

TEST_CASE("a parameter study's page draws a scatter plot per output and parameter, and its runs") {
  const std::string browser = browser_or_skip();
  // As jourdain.sweep_page writes it: two parameters, two outputs, the finished runs'
  // points (run 3 failed), a plot with none, and every run in the table.
  const nlohmann::json data = nlohmann::json::parse(R"({
    "name": "Relief valve study", "notes": ["netlist: relief.json"], "counts": "4 runs, 3 finished, 1 failed",
    "columns": 2,
    "plots": [
      {"x": "relief.p_crack [bar]", "y": "load.x:max [m]", "join": false,
       "points": [["0", 150, 0.011], ["1", 175, 0.012], ["2", 200, 0.0135]]},
      {"x": "orifice.d [m]", "y": "load.x:max [m]", "join": false,
       "points": [["0", 0.001, 0.011], ["1", 0.002, 0.012], ["2", 0.002, 0.0135]]},
      {"x": "relief.p_crack [bar]", "y": "press.p:max [Pa]", "join": false, "points": []},
      {"x": "orifice.d [m]", "y": "press.p:max [Pa]", "join": false, "points": [["0", 0.001, 2e7]]}],
    "table": {"head": ["run", "status", "relief.p_crack [bar]", "error"],
              "rows": [{"status": "finished", "failed": false, "cells": ["0", "finished", "150", ""]},
                       {"status": "finished", "failed": false, "cells": ["1", "finished", "175", ""]},
                       {"status": "finished", "failed": false, "cells": ["2", "finished", "200", ""]},
                       {"status": "failed", "failed": true, "cells": ["3", "failed", "NaN", "diverged <b>"]}],
              "numeric": [true, false, true, false], "error_column": 3}
  })");
  TempDir dir;
  const fs::path file = dir.path() / "sweep.html";
  jourdain::test::write_text(file, jourdain::page::render(jourdain::page::Kind::Sweep, data));
  const std::string dom = dom_of(browser, dir, file);
  CHECK(dom.find("<h1>Relief valve study</h1>") != std::string::npos);
  CHECK(dom.find("4 runs, 3 finished, 1 failed") != std::string::npos);
  CHECK(count(dom, "<svg") == 4);
  CHECK(count(dom, "<circle class=\"pt\"") == 7);
  CHECK(count(dom, ">no finished run</text>") == 1);
  CHECK(dom.find("run 2: relief.p_crack [bar] = 200, load.x:max [m] = 0.0135") != std::string::npos);
  // The toolkit's axes: tick labels under and beside each drawn plot.
  CHECK(dom.find("<g class=\"axis\"><text") != std::string::npos);
  // The table: every run, the failed one marked, its error shown as text.
  CHECK(count(dom, "data-status=") == 4);
  CHECK(count(dom, "class=\"failed\"") == 1);
  CHECK(dom.find("diverged &lt;b&gt;") != std::string::npos);
}

namespace {

// A design study's page (study.html) as jourdain.study_page writes it: the summary as
// the page's data, under its name.
std::string study_dom(const std::string& browser, const TempDir& dir, const std::string& name, const std::string& summary) {
  const fs::path file = dir.path() / "study.html";
  const nlohmann::json data = {{"name", name}, {"study", nlohmann::json::parse(summary)}};
  jourdain::test::write_text(file, jourdain::page::render(jourdain::page::Kind::Study, data));
  return dom_of(browser, dir, file);
}

}  // namespace

TEST_CASE("a parameter estimation's page draws its convergence, signals, paths and statistics") {
  const std::string browser = browser_or_skip();
  TempDir dir;
  // Two parameters fitted to one signal in four evaluations.
  const std::string dom = study_dom(browser, dir, "Parameter estimation · position_servo", R"json({
    "kind": "fit", "netlist": "netlists/position_servo.json", "method": "trf", "seed": null,
    "parameters": [{"name": "valve.max_opening", "unit": "mm", "low": 5, "high": 20, "start": 10},
                   {"name": "cylinder.viscous_friction", "unit": "N*s/m", "low": 100, "high": 5000, "start": 800}],
    "evaluations": [
      {"index": 0, "values": {"valve.max_opening": 10, "cylinder.viscous_friction": 800}, "objectives": [],
       "constraints": [], "feasible": true, "cost": 0.031, "status": "finished", "error": "", "report": null},
      {"index": 1, "values": {"valve.max_opening": 10.5, "cylinder.viscous_friction": 790}, "objectives": [],
       "constraints": [], "feasible": true, "cost": 0.004, "status": "finished", "error": "", "report": null},
      {"index": 2, "values": {"valve.max_opening": 12, "cylinder.viscous_friction": 700}, "objectives": [],
       "constraints": [], "feasible": false, "cost": null, "status": "failed", "error": "diverged <b>", "report": null},
      {"index": 3, "values": {"valve.max_opening": 10.02, "cylinder.viscous_friction": 797}, "objectives": [],
       "constraints": [], "feasible": true, "cost": 0.0012, "status": "finished", "error": "", "report": null}],
    "best": {"index": 3, "values": {"valve.max_opening": 10.02, "cylinder.viscous_friction": 797}, "objectives": []},
    "warnings": ["valve.max_opening and cylinder.viscous_friction are strongly correlated"],
    "fit": {"estimates": {"valve.max_opening": 10.02, "cylinder.viscous_friction": 797},
            "std_errors": {"valve.max_opening": 0.05, "cylinder.viscous_friction": 12},
            "intervals": {"valve.max_opening": [9.92, 10.12], "cylinder.viscous_friction": [773.5, 820.5]},
            "confidence": 0.95, "names": ["valve.max_opening", "cylinder.viscous_friction"],
            "correlation": [[1, -0.93], [-0.93, 1]], "residual_std": 0.001, "dof": 3, "cost": 0.0012,
            "signals": [{"variable": "load.x", "unit": "m", "time": [0, 0.1, 0.2, 0.3, 0.4],
                         "measured": [0, 0.011, 0.019, 0.032, 0.041], "fitted": [0, 0.01, 0.02, 0.03, 0.04],
                         "residual": [0, 0.001, -0.001, 0.002, 0.001]}]}
  })json");
  CHECK(drawn(dom).find("NaN</text>") == std::string::npos);
  CHECK(dom.find("<h1>Parameter estimation · position_servo</h1>") != std::string::npos);
  CHECK(dom.find("strongly correlated</li>") != std::string::npos);  // the warning
  // Convergence (the cost falls by decades: a log scale), the signal over its residuals,
  // a path per parameter; no Pareto front.
  CHECK(dom.find("id=\"convergence\"") != std::string::npos);
  CHECK(dom.find("(log)</text>") != std::string::npos);
  CHECK(dom.find("id=\"pareto\"") == std::string::npos);
  CHECK(count(dom, "<svg") == 5);
  CHECK(count(dom, "<path class=\"curve so-far\" d=\"M") == 3);
  CHECK(count(dom, "class=\"bound\"") == 4);
  CHECK(count(dom, "<path class=\"dots measured\" d=\"M") == 1);
  CHECK(count(dom, "<path class=\"curve fitted\" d=\"M") == 1);
  CHECK(count(dom, "<path class=\"dots residual\" d=\"M") == 1);
  CHECK(count(dom, "class=\"pt best\"") == 3);
  // The estimates, their correlation shaded by |r| (strong), every evaluation.
  CHECK(dom.find("<th>95 % interval low</th>") != std::string::npos);
  CHECK(dom.find("<td class=\"num\">10.02</td><td class=\"num\">0.05</td>") != std::string::npos);
  CHECK(count(dom, "style=\"background:rgba(37,99,235,") == 4);
  CHECK(count(dom, "class=\"num strong\"") == 2);
  CHECK(count(dom, "data-index=") == 4);
  CHECK(count(dom, "class=\"failed\"") == 1);
  CHECK(dom.find("diverged &lt;b&gt;") != std::string::npos);
  CHECK(dom.find("<td class=\"num nan\">NaN</td>") != std::string::npos);
}

TEST_CASE("an optimisation's page draws its Pareto front, each point linked to its run's report") {
  const std::string browser = browser_or_skip();
  TempDir dir;
  // Two objectives, one constraint: three evaluations on the front (one whose address is
  // not relative), one infeasible, one failed.
  const std::string dom = study_dom(browser, dir, "Optimisation · position_servo", R"json({
    "kind": "optimize", "netlist": "netlists/position_servo.json", "method": "nsga2", "seed": 0,
    "parameters": [{"name": "valve.max_opening", "unit": "mm", "low": 5, "high": 20, "start": 10}],
    "objectives": [{"name": "load.x:max", "sense": "min", "unit": "m"},
                   {"name": "supply.pressure:max", "sense": "min", "unit": "Pa"}],
    "constraints": [{"name": "supply.pressure:max", "op": "<", "limit": 2.5e7, "unit": "Pa",
                     "text": "supply.pressure:max<250 bar"}],
    "evaluations": [
      {"index": 0, "values": {"valve.max_opening": 10}, "objectives": [0.71, 2.1e7], "constraints": [2.1e7],
       "feasible": true, "status": "finished", "error": "", "report": "runs/0000/report.html"},
      {"index": 1, "values": {"valve.max_opening": 15}, "objectives": [0.52, 2.3e7], "constraints": [2.3e7],
       "feasible": true, "status": "finished", "error": "", "report": "javascript:alert(1)"},
      {"index": 2, "values": {"valve.max_opening": 19}, "objectives": [0.4, 2.7e7], "constraints": [2.7e7],
       "feasible": false, "status": "finished", "error": "", "report": "runs/0002/report.html"},
      {"index": 3, "values": {"valve.max_opening": 6}, "objectives": [0.95, 1.2e7], "constraints": [1.2e7],
       "feasible": true, "status": "finished", "error": "", "report": "runs/0003/report.html"},
      {"index": 4, "values": {"valve.max_opening": 8}, "objectives": [null, null], "constraints": [null],
       "feasible": false, "status": "failed", "error": "solver diverged", "report": null},
      {"index": 5, "values": {"valve.max_opening": 12}, "objectives": [0.8, 2.2e7], "constraints": [2.2e7],
       "feasible": true, "status": "finished", "error": "", "report": "runs/0005/report.html"}],
    "best": null, "pareto": [0, 1, 3], "warnings": []
  })json");
  // The front replaces the convergence; a path for the parameter.
  CHECK(dom.find("id=\"pareto\"") != std::string::npos);
  CHECK(dom.find("id=\"convergence\"") == std::string::npos);
  CHECK(dom.find("class=\"warnings\"") == std::string::npos);
  CHECK(count(dom, "<svg") == 2);
  CHECK(count(dom, "<circle class=\"pt front\"") == 3);
  CHECK(count(dom, "<circle class=\"pt infeasible\"") == 2);  // on the front's plot and on the path
  CHECK(dom.find("<path class=\"curve front\" d=\"M") != std::string::npos);
  CHECK(dom.find("1 evaluation without both objectives (failed) not drawn.") != std::string::npos);
  // A Pareto point opens its report: in the plot, in the front's table and in the
  // evaluations'; an address with a scheme is no link anywhere.
  CHECK(dom.find("<a href=\"runs/0000/report.html\" class=\"report-link\"><circle class=\"pt front\"") !=
        std::string::npos);
  CHECK(count(dom, "<a href=\"runs/0000/report.html\">report</a>") == 2);
  CHECK(count(dom, "<a href=\"runs/0003/report.html\"") == 3);
  CHECK(dom.find("href=\"javascript") == std::string::npos);
  // The table: the broken constraint, the failed evaluation's NaN.
  CHECK(dom.find("<th>supply.pressure:max&lt;250 bar</th>") != std::string::npos);
  CHECK(count(dom, "class=\"num violated\"") == 1);
  CHECK(count(dom, "class=\"failed\"") == 1);
  CHECK(count(dom, "class=\"infeasible\"") == 1);
}
