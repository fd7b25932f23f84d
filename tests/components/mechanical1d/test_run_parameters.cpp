// mechanical1d components read their numeric parameters from the run's Context (issue
// 12): a stiffness, a mass or a restitution given to a loaded model with
// Model::set_parameter must give exactly (==, bit for bit) the run of a netlist written
// with that value; the end stops, which decide the events a mass has, are configuration
// and are refused by set_parameter with a message naming them.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"
#include "parameter_runs.hpp"

using namespace jourdain;
using namespace jourdain::test;
using nlohmann::json;

namespace {

using Values = std::vector<std::pair<std::string, json>>;

// Runs netlists/<name>.json loaded once with `values` given to the run's Context, and
// the same netlist with those values written in its "params"; both runs must agree bit
// for bit. Returns the first.
RunResult check_per_run_equals_written(const std::string& name, const Values& values) {
  Registry registry = builtin_registry();
  const Netlist loaded = load_netlist(netlist_path(name), registry);
  json doc = json::parse(read_text(netlist_path(name)));
  for (const auto& [parameter, value] : values) {
    const auto dot = parameter.find('.');
    doc["components"][parameter.substr(0, dot)]["params"][parameter.substr(dot + 1)] = value;
  }
  const RunResult per_run = run_with(loaded, values);
  const RunResult written = run_with(load(doc.dump()), {});
  INFO(name);
  REQUIRE(per_run.finished);
  REQUIRE(written.finished);
  CHECK(per_run.rows.size() > 100);
  CHECK(per_run.columns == written.columns);
  CHECK(per_run.rows == written.rows);  // bit for bit
  CHECK(per_run.stats.steps == written.stats.steps);
  CHECK(per_run.events.size() == written.events.size());
  // The values reached the run: the netlist's own values move otherwise.
  const RunResult own = run_with(loaded, {});
  REQUIRE(own.finished);
  CHECK(own.rows.back() != per_run.rows.back());
  return per_run;
}

}  // namespace

TEST_CASE("a spring stiffness, a damping and a mass set per run give the run of a netlist written with them") {
  const RunResult r = check_per_run_equals_written(
      "mass_spring_damper", {{"spring.stiffness", "250 N/m"}, {"damper.damping", "3 N*s/m"}, {"mass.mass", "1500 g"}});
  // The spring's tension is the run's k times its stretch (wall at 0, free length 0), at
  // every row; its period is that of sqrt(k/m) damped by c (ζ = c / (2 sqrt(k m))).
  const auto x = r.column("mass.x"), f = r.column("spring.force");
  for (size_t i = 0; i < x.size(); ++i) CHECK(f[i] == 250.0 * x[i]);
  const double w0 = std::sqrt(250.0 / 1.5), zeta = 3.0 / (2.0 * std::sqrt(250.0 * 1.5));
  const double wd = w0 * std::sqrt(1.0 - zeta * zeta);
  const double t = 1.0;
  const double exact = std::exp(-zeta * w0 * t) * 0.1 * (std::cos(wd * t) + zeta * w0 / wd * std::sin(wd * t));
  CHECK(at_time(r, "mass.x", t) == doctest::Approx(exact).epsilon(1e-6));
}

TEST_CASE("a restitution and an inclination set per run move the bounces as a netlist written with them does") {
  const RunResult r =
      check_per_run_equals_written("bouncing_mass", {{"ball.restitution", 0.6}, {"ball.inclination", "30 deg"}});
  // On a 30° slope gravity along the axis is g/2: the first impact after sqrt(2 h / (g/2)).
  REQUIRE(!r.events.empty());
  CHECK(r.events.front().time == doctest::Approx(std::sqrt(2.0 * 1.0 / (9.81 * 0.5))).epsilon(1e-6));
}

TEST_CASE("set_parameter refuses the end stops (configuration), naming them, and checks numeric ranges") {
  Registry registry = builtin_registry();
  const Netlist n = load_netlist(netlist_path("bouncing_mass"), registry);
  Context ctx = n.model.make_context(0.0);
  auto message = [&](const std::string& name, const json& value) {
    try {
      n.model.set_parameter(ctx, name, value);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  for (const char* stop : {"x_min", "x_max"}) {
    const std::string m = message(std::string("ball.") + stop, "10 cm");
    CHECK(m.find("component 'ball'") != std::string::npos);
    CHECK(m.find("parameter '" + std::string(stop) + "' is configuration") != std::string::npos);
  }
  CHECK(message("ball.restitution", 1.2).find("out of its range") != std::string::npos);
  CHECK(message("ball.mass", "0 kg").find("out of its range") != std::string::npos);
  CHECK(message("ball.mass", "2 kg") == "(no error)");
  CHECK(ctx.parameters[n.model.parameter("ball.mass").index] == 2.0);
}
