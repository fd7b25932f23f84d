// Numeric parameters of the hydraulic library live in the Context (parameter.hpp): a run
// of a loaded model given a value through Model::set_parameter (here through
// RunOptions::parameters, which hands it to the run's Context) must be, bit for bit, the
// run of the netlist written with that value. Configuration is refused by name, and a
// per-run value that breaks a relation between parameters is refused when the run starts.
#include <fstream>

#include "hydraulic_test_util.hpp"
#include "parameter_runs.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

json example(const std::string& name) {
  std::ifstream in(netlist_path(name));
  return json::parse(in);
}

using Values = std::vector<std::pair<std::string, json>>;

// Runs the loaded netlist with `values` given to its Context, keeping every row.
RunResult run_given(const Netlist& netlist, const Values& values, std::optional<double> t_end = std::nullopt) {
  RunOptions o;
  o.keep_rows = true;
  o.t_end = t_end;
  o.parameters = values;
  RunResult r = run_netlist(netlist, o);
  INFO(r.failure);
  REQUIRE(r.finished);
  return r;
}

// The netlist `n` with `values` written into its components' params.
json written(json n, const Values& values) {
  for (const auto& [name, value] : values) {
    const auto dot = name.find('.');
    n["components"][name.substr(0, dot)]["params"][name.substr(dot + 1)] = value;
  }
  return n;
}

}  // namespace

TEST_CASE(
    "a relief valve's cracking pressure set per run to 180 bar runs as the netlist written with 180 bar, bit for bit") {
  // The position servo: its 1 L supply volume is held by a relief valve set at 20 MPa.
  const json servo = example("position_servo");
  const Netlist loaded = load(servo.dump());
  const Values values = {{"relief.cracking_pressure", "180 bar"}};
  const RunResult given = run_given(loaded, values);
  const RunResult as_written = run_given(load(written(servo, values).dump()), {});
  REQUIRE(given.columns == as_written.columns);
  CHECK(given.rows.size() > 1000);
  CHECK(given.rows == as_written.rows);
  CHECK(given.stats.steps == as_written.stats.steps);
  CHECK(given.events.size() == as_written.events.size());

  // The value reached the run: before the set-point step (t = 1 s) the load rests and the
  // relief valve passes what the pump gives, so the supply sits at p_c + q/G (G = 8e-9
  // m³/(s·Pa); steady to the solver's tolerance).
  const RunResult unchanged = run_given(loaded, {});
  CHECK(unchanged.rows != given.rows);
  const double G = 8e-9;
  for (const auto& run_pc : {std::pair{&given, 18e6}, std::pair{&unchanged, 20e6}}) {
    const RunResult& r = *run_pc.first;
    const double pc = run_pc.second;
    CAPTURE(pc);
    CHECK(at_time(r, "supply.pressure", 0.9) == doctest::Approx(pc + at_time(r, "relief.flow", 0.9) / G).epsilon(1e-6));
  }
}

TEST_CASE("numeric parameters of every kind of component in the press, set per run, give the written netlist's run") {
  // One value per component kind of the 3150 kN press circuit, several of which enter
  // through a derived quantity computed where it is used (the pump's leakage from its
  // volumetric efficiency, areas from diameters, the valves' spool geometry, the
  // cylinder's annulus from bore and rod). The first 8 s: descent, pressing and the
  // start of the decompression.
  const json press = example("press_3150kN");
  const Values values = {{"pump.volumetric_efficiency", 0.9},
                         {"pump.power", "20 kW"},
                         {"p_line.volume", "2.5 L"},
                         {"relief.cracking_pressure", "25.5 MPa"},
                         {"main.overlap", "0.25 mm"},
                         {"main.centre_opening", "1.2 mm"},
                         {"main.diameter", "10 mm"},
                         {"main.natural_frequency", "150 rad/s"},
                         {"return_filter.area", "2e-4 m^2"},
                         {"prefill.diameter", "55 mm"},
                         {"prefill.decompression_area", "2e-5 m^2"},
                         {"prefill.pilot_ratio", 0.08},
                         {"pilot_supply.pressure", "3.2 MPa"},
                         {"pilot_valve.time_constant", "15 ms"},
                         {"support.setting", "3 MPa"},
                         {"support.check_area", "4e-4 m^2"},
                         {"makeup.cracking_pressure", "0.04 MPa"},
                         {"bypass.max_opening", "2.5 mm"},
                         {"cylinder.bore_diameter", "410 mm"},
                         {"cylinder.coulomb_friction", "6 kN"},
                         {"cylinder.dead_volume_a", "6 L"},
                         {"top_tank.pressure", "0.03 MPa"},
                         {"cap_pressure.time_constant", "2e-4 s"}};
  const double t_end = 8.0;
  const Netlist loaded = load(press.dump());
  const RunResult given = run_given(loaded, values, t_end);
  const RunResult as_written = run_given(load(written(press, values).dump()), {}, t_end);
  REQUIRE(given.columns == as_written.columns);
  CHECK(given.rows.size() > 500);
  CHECK(given.rows == as_written.rows);
  CHECK(given.stats.steps == as_written.stats.steps);
  CHECK(given.events.size() == as_written.events.size());
  CHECK(run_given(loaded, {}, t_end).rows != given.rows);
}

TEST_CASE("a pump, a hose, an accumulator and a motor with parameters set per run give the written netlist's run") {
  // A fixed pump charges an accumulator through a compliant hose of 4 segments; a motor
  // on the accumulator turns an inertia against viscous friction. The hose's node
  // volumes and link lengths, the pump's and motor's leakage and the gas volume are
  // computed from the parameters where they are used.
  const json n = circuit(
      {{"tank", {{"type", "hydraulic.tank"}}},
       {"pump",
        {{"type", "hydraulic.pump"},
         {"params", {{"displacement", "10 cm^3/rev"}, {"speed", "1500 rpm"}, {"volumetric_efficiency", 0.95}}}}},
       {"hose",
        {{"type", "hydraulic.pipe"},
         {"params", {{"length", "3 m"}, {"diameter", "12 mm"}, {"segments", 4}, {"wall_bulk_modulus", "0.5 GPa"}}}}},
       {"accumulator",
        {{"type", "hydraulic.accumulator"}, {"params", {{"gas_volume", "1 L"}, {"precharge", "5 MPa"}}}}},
       {"motor",
        {{"type", "hydraulic.motor"},
         {"params", {{"displacement", "8 cm^3/rev"}, {"viscous_friction", 0.01}, {"volumetric_efficiency", 0.9}}}}},
       {"shaft", {{"type", "rotational.inertia"}, {"params", {{"inertia", 0.05}}}}}},
      {{"tank.p", "pump.inlet"},
       {"hose.a", "pump.outlet"},
       {"accumulator.p", "hose.b"},
       {"accumulator.p", "motor.a"},
       {"tank.p", "motor.b"},
       {"shaft.a", "motor.shaft"}},
      {"accumulator.pressure", "accumulator.gas_volume", "hose.flow_a", "hose.flow_b", "shaft.w", "motor.flow"},
      {{"method", "bdf"}, {"t_end", 1.0}, {"rtol", 1e-8}, {"atol", 1e-8}, {"output_interval", 0.005}});
  const Values values = {{"pump.speed", "1200 rpm"},          {"pump.rated_pressure", "20 MPa"},
                         {"hose.length", "2.5 m"},            {"hose.diameter", "10 mm"},
                         {"hose.wall_bulk_modulus", "0.8 GPa"}, {"accumulator.gas_volume", "1.5 L"},
                         {"accumulator.precharge", "4 MPa"},  {"accumulator.polytropic_index", 1.3},
                         {"motor.displacement", "6 cm^3/rev"}, {"motor.rated_speed", "1000 rpm"},
                         {"tank.pressure", "0.1 MPa"}};
  const Netlist loaded = load(n.dump());
  const RunResult given = run_given(loaded, values);
  const RunResult as_written = run_given(load(written(n, values).dump()), {});
  CHECK(given.rows.size() > 100);
  CHECK(given.rows == as_written.rows);
  CHECK(given.stats.steps == as_written.stats.steps);
  CHECK(run_given(loaded, {}).rows != given.rows);
}

TEST_CASE(
    "configuration is refused by set_parameter with its name; a per-run value that breaks a relation, at the start") {
  const Netlist press = load(example("press_3150kN").dump());
  const Model& model = press.model;
  Context ctx = model.make_context(0.0);
  // A volume's port count decides its ports; the counterbalance valve's pilot ratio
  // decides whether it has a pilot port; a valve's centre type, its paths.
  for (const auto& name_value : Values{{"p_line.ports", 2}, {"support.pilot_ratio", 0.5}, {"main.centre", "open"}}) {
    const std::string& name = name_value.first;
    CAPTURE(name);
    const std::string message = input_error([&] { model.set_parameter(ctx, name, name_value.second); });
    const std::string param = name.substr(name.find('.') + 1);
    CHECK(message.find("parameter '" + param + "'") != std::string::npos);
    CHECK(message.find("configuration") != std::string::npos);
  }
  // A numeric one is accepted, with its unit; its range is checked.
  model.set_parameter(ctx, "support.setting", "31 bar");
  CHECK(ctx.parameters[model.parameter("support.setting").index] == 3.1e6);
  CHECK(input_error([&] { model.set_parameter(ctx, "support.setting", "-1 bar"); }).find("out of its range") !=
        std::string::npos);

  // The cylinder is sized by its bore and rod diameters: an area given as well, or a
  // rod as thick as the bore, is refused when the run starts, naming the parameter.
  auto run_error = [&](const Values& values) {
    return input_error([&] {
      RunOptions o;
      o.t_end = 0.1;
      o.parameters = values;
      run_netlist(press, o);
    });
  };
  const std::string both = run_error({{"cylinder.area_a", "0.1 m^2"}});
  CHECK(both.find("parameter 'area_a'") != std::string::npos);
  CHECK(both.find("not both") != std::string::npos);
  CHECK(run_error({{"cylinder.rod_diameter", "400 mm"}}).find("parameter 'rod_diameter'") != std::string::npos);
  // A relief valve's hysteresis needs a moving poppet (its dynamics are configuration).
  CHECK(run_error({{"relief.hysteresis", "1 MPa"}}).find("parameter 'hysteresis'") != std::string::npos);
  // The same checks hold on the netlist's values, when it loads.
  CHECK(load_error(written(example("press_3150kN"), {{"cylinder.area_a", "0.1 m^2"}})).find("not both") !=
        std::string::npos);
}
