// The report's digest of a run (report.hpp) on rows fed by hand, so that their number,
// their values and their events are known exactly: memory and page stay bounded for a
// million rows, every curve keeps its extremes, the first and last rows and the rows at
// events are kept as they are, no bucket spans an event, and the result depends only on
// the rows. The Report reads states straight from the context, so setting ctx.x is a
// whole "evaluation" here.
#include <algorithm>
#include <cmath>

#include "jourdain/report/report.hpp"
#include "jourdain_test.hpp"

using jourdain::report::Report;
using jourdain::report::ReportSettings;
using nlohmann::json;

namespace {

constexpr const char* kOscillator = R"({
  "name": "oscillator",
  "components": {
    "wall": {"type": "mechanical1d.fixed"},
    "spring": {"type": "mechanical1d.spring", "params": {"stiffness": 100}},
    "mass": {"type": "mechanical1d.mass", "params": {"mass": 1}}
  },
  "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"]],
  "record": ["mass.x", "mass.v"]
})";

constexpr const char* kPendulum = R"({
  "name": "pendulum",
  "components": {
    "ground": {"type": "mechanical.ground", "params": {"points": {"pivot": [0, 0]}}},
    "bob": {"type": "mechanical.body", "params": {"mass": 1, "inertia": 0.1, "points": {"pin": [-1, 0]}},
            "initial": {"x": 1, "y": 0, "theta": 0}},
    "hinge": {"type": "mechanical.revolute"}
  },
  "connections": [["ground.pivot", "hinge.a"], ["bob.pin", "hinge.b"]],
  "record": ["bob.omega"]
})";

// Sets the named states and hands the context to the report as one recorded row.
class Feeder {
 public:
  Feeder(const jourdain::Model& model, Report& report) : model_(model), report_(report), ctx_(model.make_context(0.0)) {}
  void row(double t, std::initializer_list<std::pair<const char*, double>> states) {
    ctx_.t = t;
    for (const auto& [name, value] : states) ctx_.x[model_.recordable(name).index] = value;
    report_.row_recorded(ctx_, {});
  }

 private:
  const jourdain::Model& model_;
  Report& report_;
  jourdain::Context ctx_;
};

const json kSummary = json::object();

// x(t) = sin t with one spike, v(t) = cos t, for n rows 1 ms apart.
json million_rows(const jourdain::Netlist& net, long n, long spike) {
  Report report(net.model, net.record);
  Feeder feed(net.model, report);
  for (long i = 0; i < n; ++i) {
    const double t = 1e-3 * static_cast<double>(i);
    feed.row(t, {{"mass.x", i == spike ? 5.0 : std::sin(t)}, {"mass.v", std::cos(t)}});
  }
  CHECK(report.rows() == n);
  return report.data({net.name, "", "oscillator.json"}, kSummary);
}

}  // namespace

TEST_CASE("a million rows: at most plot_points points a curve, extremes, first and last rows kept, deterministic") {
  const auto net = jourdain::test::load(kOscillator);
  const long n = 1000000, spike = 654321;
  const json d = million_rows(net, n, spike);
  CHECK(d["rows"] == n);
  CHECK(d["thinned"] == true);
  const auto& time = d["series"]["time"];
  const auto& x = d["series"]["values"][0];
  const auto& v = d["series"]["values"][1];
  // 2000 points from the buckets, the first and the last rows.
  CHECK(time.size() <= 2002);
  CHECK(time.size() > 1000);
  REQUIRE(x.size() == time.size());
  REQUIRE(v.size() == time.size());
  CHECK(std::is_sorted(time.begin(), time.end()));
  CHECK(time.front().get<double>() == 0.0);
  CHECK(x.front().get<double>() == 0.0);
  const double t_last = 1e-3 * static_cast<double>(n - 1);
  CHECK(time.back().get<double>() == doctest::Approx(t_last).epsilon(1e-12));
  CHECK(x.back().get<double>() == doctest::Approx(std::sin(t_last)).epsilon(1e-6));
  CHECK(v.back().get<double>() == doctest::Approx(std::cos(t_last)).epsilon(1e-6));
  // The one-row spike survives the thinning, and so do the curves' extremes.
  CHECK(*std::max_element(x.begin(), x.end()) == 5.0);
  CHECK(std::min_element(x.begin(), x.end())->get<double>() == doctest::Approx(-1.0).epsilon(1e-6));
  CHECK(std::max_element(v.begin(), v.end())->get<double>() == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(std::min_element(v.begin(), v.end())->get<double>() == doctest::Approx(-1.0).epsilon(1e-6));
  // The spike is drawn at its bucket's first or last time: next to its own.
  const size_t at = static_cast<size_t>(std::max_element(x.begin(), x.end()) - x.begin());
  const double t_spike = 1e-3 * static_cast<double>(spike);
  REQUIRE(at > 0);
  REQUIRE(at + 1 < time.size());
  CHECK(time[at - 1].get<double>() <= t_spike);
  CHECK(time[at + 1].get<double>() >= t_spike);
  // The same rows give the same page.
  CHECK(million_rows(net, n, spike) == d);
}

TEST_CASE("event rows are kept as they are and no bucket spans an event") {
  const auto net = jourdain::test::load(kOscillator);
  Report report(net.model, net.record);
  Feeder feed(net.model, report);
  // x climbs from 0 to 1 until t = 50, jumps to -1 there (the rows just before and
  // just after the discrete change share that time), and climbs again.
  for (long i = 0; i <= 100000; ++i) {
    const double t = 1e-3 * static_cast<double>(i);
    if (i == 50000) {
      feed.row(t, {{"mass.x", 1.0}, {"mass.v", 2.0}});
      feed.row(t, {{"mass.x", -1.0}, {"mass.v", -2.0}});
      continue;
    }
    const double x = i < 50000 ? t / 50.0 : -1.0 + (t - 50.0) / 50.0;
    feed.row(t, {{"mass.x", x}, {"mass.v", 0.0}});
  }
  const json d = report.data({}, kSummary);
  CHECK(d["thinned"] == true);
  const auto& time = d["series"]["time"];
  const auto& x = d["series"]["values"][0];
  std::vector<size_t> at_event;
  for (size_t k = 0; k < time.size(); ++k)
    if (time[k].get<double>() == 50.0) at_event.push_back(k);
  REQUIRE(at_event.size() == 2);
  CHECK(at_event[1] == at_event[0] + 1);
  CHECK(x[at_event[0]] == 1.0);
  CHECK(x[at_event[1]] == -1.0);
  CHECK(d["series"]["values"][1][at_event[0]] == 2.0);
  // The bucket before ends before the event with values below 1; the one after begins
  // after it with values above -1: neither mixes both sides.
  CHECK(time[at_event[0] - 1].get<double>() < 50.0);
  CHECK(x[at_event[0] - 1].get<double>() < 1.0);
  CHECK(time[at_event[1] + 1].get<double>() > 50.0);
  CHECK(x[at_event[1] + 1].get<double>() > -1.0);
}

TEST_CASE("many events: the first pinned_rows event rows are kept, the rest thinned, the page stays bounded") {
  const auto net = jourdain::test::load(kOscillator);
  ReportSettings settings;
  settings.plot_points = 200;
  settings.pinned_rows = 40;
  settings.animation_frames = 50;
  Report report(net.model, net.record, settings);
  Feeder feed(net.model, report);
  // An event every 10 rows: 10000 events over 100000 rows.
  double x = 0;
  for (long i = 0; i < 100000; ++i) {
    const double t = 1e-3 * static_cast<double>(i);
    feed.row(t, {{"mass.x", x}, {"mass.v", 0.0}});
    if (i % 10 == 5) {
      x = 1.0 - x;
      feed.row(t, {{"mass.x", x}, {"mass.v", 0.0}});
    }
  }
  const json d = report.data({}, kSummary);
  CHECK(d["rows"] == 110000);
  const auto& time = d["series"]["time"];
  // Buckets' points, the pinned rows (the first row and 39 event rows) and the last row.
  CHECK(time.size() <= static_cast<size_t>(settings.plot_points + settings.pinned_rows + 1));
  CHECK(std::is_sorted(time.begin(), time.end()));
  // The first events are there exactly: rows at 5 ms, 15 ms, ... in pairs.
  CHECK(std::count(time.begin(), time.end(), json(0.005)) == 2);
  CHECK(std::count(time.begin(), time.end(), json(0.015)) == 2);
  CHECK(d["animation"].is_null());  // an oscillator draws nothing
}

TEST_CASE("the animation reads the sketches' frames from the context, whatever is plotted") {
  const auto net = jourdain::test::load(kPendulum);
  ReportSettings settings;
  settings.animation_frames = 100;
  Report report(net.model, {}, settings);  // nothing plotted
  Feeder feed(net.model, report);
  const long n = 12345;
  for (long i = 0; i < n; ++i) {
    const double t = 1e-3 * static_cast<double>(i), theta = -0.5 * std::sin(t);
    feed.row(t, {{"bob.x", std::cos(theta)}, {"bob.y", std::sin(theta)}, {"bob.theta", theta}});
  }
  const json d = report.data({"pendulum", "", ""}, kSummary);
  CHECK(d["variables"].empty());
  CHECK(d["plots"].empty());
  const json& a = d["animation"];
  REQUIRE(a.is_object());
  const auto& time = a["time"];
  // The first row, every s-th (s doubling) as long as at most 100 are kept, the last row.
  CHECK(time.size() <= 102);
  CHECK(time.size() > 50);
  CHECK(time.front() == 0.0);
  const double t_last = 1e-3 * static_cast<double>(n - 1);
  CHECK(time.back().get<double>() == doctest::Approx(t_last).epsilon(1e-12));
  CHECK(a["values"]["bob.theta"].back().get<double>() == doctest::Approx(-0.5 * std::sin(t_last)).epsilon(1e-8));
  for (const char* v : {"bob.x", "bob.y", "bob.theta"}) CHECK(a["values"][v].size() == time.size());
  // Frames at evenly spaced rows (the stride), then the last.
  const double step = time[2].get<double>() - time[1].get<double>();
  for (size_t k = 2; k + 1 < time.size(); ++k)
    CHECK(time[k].get<double>() - time[k - 1].get<double>() == doctest::Approx(step));
  CHECK(jourdain::report::sketch_variables(net.model) == std::vector<std::string>{"bob.x", "bob.y", "bob.theta"});
}

TEST_CASE("a report refuses unknown plotted variables and settings that cannot bound the page") {
  const auto net = jourdain::test::load(kOscillator);
  CHECK_THROWS_AS(Report(net.model, {"mass.nope"}), jourdain::InputError);
  ReportSettings settings;
  settings.pinned_rows = settings.plot_points;  // merging could no longer shrink the buckets
  CHECK_THROWS_AS(Report(net.model, net.record, settings), jourdain::InputError);
  // Before any row: an empty page, not a crash.
  const json d = Report(net.model, net.record).data({}, kSummary);
  CHECK(d["rows"] == 0);
  CHECK(d["series"]["time"].empty());
}
