// The report of a linear analysis (report.hpp: set_linear, mode_frame): the page's data
// carries linear.json's object as it was given and, for a model that draws itself, the
// poses of each mode's frames read from the contexts the linearizer hands over; a run of
// 0 or 1 rows still makes a page. (That the section builds in a browser is
// test_report_browser.cpp.)
#include <cmath>
#include <numbers>

#include "jourdain/report/report.hpp"
#include "jourdain_test.hpp"
#include "linear_example.hpp"

using jourdain::report::Report;
using jourdain::test::PendulumLinear;
using nlohmann::json;

namespace {

jourdain::Netlist pendulum() {
  auto registry = jourdain::test::builtin_registry();
  return jourdain::load_netlist(jourdain::test::netlist_path("pendulum"), registry);
}

const jourdain::report::ReportHeading kHeading{"pendulum", "", "netlists/pendulum.json"};

}  // namespace

TEST_CASE("a linear run's data: the analysis as given, one cycle of frames per animated mode") {
  const auto net = pendulum();
  Report page(net.model, net.record);
  const int frames = 24;
  PendulumLinear::fill(net.model, page, frames);
  const json d = page.data(kHeading, json::object());

  // The linear analysis, untouched (the page reads its names and numbers as written).
  CHECK(d["linear"] == PendulumLinear::json());
  CHECK(d["linear"]["modes"][0]["natural_frequency_rad_s"].get<double>() ==
        doctest::Approx(std::sqrt(9.81 / 1.000001)).epsilon(1e-12));

  // The operating point's row: one row, one animation frame at rest.
  CHECK(d["rows"] == 1);
  CHECK(d["series"]["time"].size() == 1);
  REQUIRE(d["animation"].is_object());
  CHECK(d["animation"]["time"].size() == 1);
  CHECK(d["animation"]["values"]["bob.theta"][0].get<double>() == doctest::Approx(-std::numbers::pi / 2).epsilon(1e-8));

  // Mode 0: 24 frames in phase order, read from the contexts (θ = −π/2 + 0.3 cos φ, the
  // bob's mass centre on the unit circle; to the page's 9 digits), with the sketches
  // that draw them.
  const json& ma = d["mode_animation"];
  REQUIRE(ma.is_object());
  CHECK(ma["sketches"] == d["animation"]["sketches"]);
  REQUIRE(ma["modes"].size() == 1);
  const json& mode = ma["modes"][0];
  CHECK(mode["mode"] == 0);
  CHECK(mode["frames"] == frames);
  for (const char* v : {"bob.x", "bob.y", "bob.theta"}) CHECK(mode["values"][v].size() == frames);
  CHECK(mode["values"].size() == jourdain::report::sketch_variables(net.model).size());
  for (int k = 0; k < frames; ++k) {
    CAPTURE(k);
    const double th = PendulumLinear::theta(k, frames, 0.3);
    CHECK(mode["values"]["bob.theta"][k].get<double>() == doctest::Approx(th).epsilon(1e-8));
    CHECK(mode["values"]["bob.x"][k].get<double>() == doctest::Approx(std::cos(th)).epsilon(1e-8));
    CHECK(mode["values"]["bob.y"][k].get<double>() == doctest::Approx(std::sin(th)).epsilon(1e-8));
  }
  // Half a cycle on: the swing's other end.
  CHECK(mode["values"]["bob.theta"][12].get<double>() == doctest::Approx(-std::numbers::pi / 2 - 0.3).epsilon(1e-8));
}

TEST_CASE("mode frames: bounded, checked against the modes, ignored when nothing is drawn") {
  const auto net = pendulum();
  jourdain::report::ReportSettings settings;
  settings.animation_frames = 10;
  Report page(net.model, {}, settings);
  auto ctx = net.model.make_context(0.0);
  PendulumLinear::set_mode_pose(net.model, ctx, 0, 4, 0.1);
  // Before set_linear the count of modes is unknown: any mode >= 0 is taken.
  page.mode_frame(3, ctx);
  page.set_linear(PendulumLinear::json());
  CHECK_THROWS_AS(page.mode_frame(1, ctx), jourdain::InputError);  // one mode only
  CHECK_THROWS_AS(page.mode_frame(-1, ctx), jourdain::InputError);
  for (int k = 0; k < 25; ++k) page.mode_frame(0, ctx);
  const json d = page.data(kHeading, json::object());
  REQUIRE(d["mode_animation"]["modes"].size() == 2);
  CHECK(d["mode_animation"]["modes"][0]["mode"] == 0);
  CHECK(d["mode_animation"]["modes"][0]["frames"] == 10);  // settings.animation_frames
  CHECK(d["mode_animation"]["modes"][1]["mode"] == 3);
  CHECK(d["mode_animation"]["modes"][1]["frames"] == 1);
  // No rows at all: no series, no animation, the linear section still there.
  CHECK(d["rows"] == 0);
  CHECK(d["series"]["time"].empty());
  CHECK(d["animation"].is_null());
  CHECK(d["linear"]["stability"] == "marginally stable");

  CHECK_THROWS_AS(page.set_linear(json::array()), jourdain::InputError);
  CHECK_THROWS_AS(page.set_linear({{"modes", 3}}), jourdain::InputError);

  // An oscillator draws nothing: its modes get no frames, the analysis is still shown.
  auto registry = jourdain::test::builtin_registry();
  const auto msd = jourdain::load_netlist(jourdain::test::netlist_path("mass_spring_damper"), registry);
  Report plain(msd.model, msd.record);
  plain.set_linear({{"stability", "asymptotically stable"}, {"modes", json::array({json::object()})}});
  plain.mode_frame(0, msd.model.make_context(0.0));
  const json p = plain.data({"msd", "", ""}, json::object());
  CHECK(p["mode_animation"].is_null());
  CHECK(p["linear"]["stability"] == "asymptotically stable");

  // A run without a linear analysis: both keys null, the rest as before.
  Report none(msd.model, msd.record);
  const json n = none.data({"msd", "", ""}, json::object());
  CHECK(n["linear"].is_null());
  CHECK(n["mode_animation"].is_null());
}

TEST_CASE("write_page: the page carries the linear section's data and the script that draws it") {
  const auto net = pendulum();
  Report page(net.model, net.record);
  PendulumLinear::fill(net.model, page, 24);
  jourdain::test::TempDir dir;
  const auto file = dir.path() / "report.html";
  jourdain::report::write_page(file, page.data(kHeading, json::object()));
  const std::string html = jourdain::test::read_text(file);
  const std::string open = "<script id=\"report-data\" type=\"application/json\">";
  const size_t begin = html.find(open), end = html.find("</script>", begin);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  const json back = json::parse(html.substr(begin + open.size(), end - begin - open.size()));
  CHECK(back["linear"] == PendulumLinear::json());
  CHECK(back["mode_animation"]["modes"][0]["frames"] == 24);
  CHECK(html.find("function buildLinear()") != std::string::npos);
  CHECK(html.find("\"Linear analysis\"") != std::string::npos);
}
