// The derived stage of the hydraulic library (hydraulic_library.hpp, HydraulicComponent):
// an opening's area π d²/4, a cylinder's areas, a proportional valve's full area and the
// fluid's properties are computed once per set of parameter values of a Context and read
// at every evaluation. Setting a parameter of a run, by the run API, a run's options or
// --set, gives the values of the new parameter; a changed fluid setting, its properties.
#include <fstream>

#include "hydraulic_test_util.hpp"
#include "parameter_runs.hpp"
#include "jourdain/model.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

// Supply at 100 bar through an orifice of diameter d into a tank, with the fluid given.
json orifice_circuit(const json& fluid = nullptr) {
  return circuit({{"supply", {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", "100 bar"}}}}},
                  {"orifice", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", "2 mm"}}}}},
                  {"line", {{"type", "hydraulic.volume"}, {"params", {{"volume", "0.1 L"}}}}},
                  {"drain", {{"type", "hydraulic.orifice"}, {"params", {{"area", "1e-6 m^2"}}}}},
                  {"tank", {{"type", "hydraulic.tank"}}}},
                 {{"supply.p", "orifice.a"}, {"line.p1", "orifice.b"}, {"line.p1", "drain.a"}, {"tank.p", "drain.b"}},
                 {"orifice.flow", "line.pressure"},
                 {{"method", "bdf"}, {"t_end", 0.05}, {"output_interval", 0.001}}, fluid);
}

double parameter_of(const Model& m, const Context& ctx, const std::string& name) {
  return ctx.parameters[m.parameter(name).index];
}

// A finished run of `n` with `values` given to its Context.
RunResult run_given(const Netlist& n, const ParameterValues& values) {
  RunResult r = run_with(n, values);
  INFO(r.failure);
  REQUIRE(r.finished);
  return r;
}

}  // namespace

TEST_CASE("an orifice's area follows its diameter when a run's diameter is set") {
  const Netlist n = load(orifice_circuit().dump());
  const Model& m = n.model;
  Context ctx = m.make_context(0.0);
  const double d = parameter_of(m, ctx, "orifice.diameter");
  CHECK(d == doctest::Approx(2e-3));
  CHECK(m.derived_value(ctx, "orifice.opening_area") == pi * d * d / 4.0);
  // An area given directly is the derived area.
  CHECK(m.derived_value(ctx, "drain.opening_area") == parameter_of(m, ctx, "drain.area"));

  m.set_parameter(ctx, "orifice.diameter", "3 mm");
  const double d3 = parameter_of(m, ctx, "orifice.diameter");
  CHECK(d3 == doctest::Approx(3e-3));
  CHECK(m.derived_value(ctx, "orifice.opening_area") == pi * d3 * d3 / 4.0);
  // Back to an area: the diameter 0 hands the opening to it.
  m.set_parameter(ctx, "orifice.diameter", 0.0);
  m.set_parameter(ctx, "orifice.area", "5 mm^2");
  CHECK(m.derived_value(ctx, "orifice.opening_area") == doctest::Approx(5e-6).epsilon(1e-15));
}

TEST_CASE("a run given a diameter runs as the netlist written with it, bit for bit; --set gives the same area") {
  const json written_with_3mm = [] {
    json n = orifice_circuit();
    n["components"]["orifice"]["params"]["diameter"] = "3 mm";
    return n;
  }();
  const Netlist n = load(orifice_circuit().dump());
  const RunResult given = run_given(n, {{"orifice.diameter", "3 mm"}});
  const RunResult as_written = run_given(load(written_with_3mm.dump()), {});
  CHECK(given.rows.size() > 10);
  CHECK(given.rows == as_written.rows);
  CHECK(given.rows != run_given(n, {}).rows);  // the area reached the evaluation

  NetlistOverrides set;
  set.parameters = {"orifice.diameter=3 mm"};
  const Netlist with_set = load(orifice_circuit().dump(), set);
  Context from_set = with_set.model.make_context(0.0);
  Context from_run = n.model.make_context(0.0);
  n.model.set_parameter(from_run, "orifice.diameter", "3 mm");
  CHECK(with_set.model.derived_value(from_set, "orifice.opening_area") ==
        n.model.derived_value(from_run, "orifice.opening_area"));
}

TEST_CASE("the fluid's properties are derived values of every hydraulic component, from world.fluid") {
  const Netlist plain = load(orifice_circuit().dump());
  Context a = plain.model.make_context(0.0);
  CHECK(plain.model.derived_value(a, "orifice.fluid_density") == 850.0);
  CHECK(plain.model.derived_value(a, "line.fluid_bulk_modulus") == 1.5e9);

  const Netlist heavy = load(orifice_circuit({{"density", "900 kg/m^3"}, {"kinematic_viscosity", "32 cSt"}}).dump());
  Context b = heavy.model.make_context(0.0);
  for (const std::string c : {"orifice", "line", "drain"}) {
    CAPTURE(c);
    CHECK(heavy.model.derived_value(b, c + ".fluid_density") == 900.0);
    CHECK(heavy.model.derived_value(b, c + ".fluid_kinematic_viscosity") == doctest::Approx(32e-6).epsilon(1e-15));
    CHECK(heavy.model.derived_value(b, c + ".fluid_bulk_modulus") == 1.5e9);
  }
  // And the flow follows the density: q ∝ 1/sqrt(ρ) through the same orifice.
  const RunResult light_run = run_given(plain, {}), heavy_run = run_given(heavy, {});
  CHECK(light_run.column("orifice.flow")[1] > heavy_run.column("orifice.flow")[1]);
}

TEST_CASE("a cylinder's areas and a proportional valve's full area follow their parameters") {
  std::ifstream in(netlist_path("press_3150kN"));
  const Netlist press = load(json::parse(in).dump());
  const Model& m = press.model;
  Context ctx = m.make_context(0.0);
  auto circle = [](double d) { return pi * d * d / 4.0; };
  CHECK(m.derived_value(ctx, "cylinder.piston_area") == circle(0.4));
  CHECK(m.derived_value(ctx, "cylinder.annulus_area") == circle(0.4) - circle(0.36));
  m.set_parameter(ctx, "cylinder.rod_diameter", "300 mm");
  CHECK(m.derived_value(ctx, "cylinder.annulus_area") == circle(0.4) - circle(0.3));
  CHECK(m.derived_value(ctx, "main.opening_area") == circle(parameter_of(m, ctx, "main.diameter")));

  const Netlist valve = load(circuit({{"p", {{"type", "hydraulic.pressure_source"}}},
                                      {"valve",
                                       {{"type", "hydraulic.proportional_valve"},
                                        {"params", {{"rated_flow", "40 L/min"}, {"rated_pressure_drop", "5 bar"}}}}},
                                      {"command", {{"type", "signal.constant"}, {"params", {{"value", 0.5}}}}},
                                      {"a", {{"type", "hydraulic.volume"}, {"params", {{"volume", "1 L"}}}}},
                                      {"b", {{"type", "hydraulic.volume"}, {"params", {{"volume", "1 L"}}}}},
                                      {"t", {{"type", "hydraulic.tank"}}}},
                                     {{"p.p", "valve.p"},
                                      {"t.p", "valve.t"},
                                      {"a.p1", "valve.a"},
                                      {"b.p1", "valve.b"},
                                      {"command.out", "valve.command"}},
                                     {"a.pressure"}, {{"t_end", 0.01}})
                                 .dump());
  Context v = valve.model.make_context(0.0);
  auto rated_area = [&](double rho) {
    const double q = parameter_of(valve.model, v, "valve.rated_flow"), dp = parameter_of(valve.model, v, "valve.rated_pressure_drop");
    return q / (parameter_of(valve.model, v, "valve.discharge_coefficient") * std::sqrt(2.0 * dp / rho));
  };
  const double rated = valve.model.derived_value(v, "valve.opening_area");
  CHECK(rated == rated_area(850.0));
  valve.model.set_parameter(v, "valve.rated_flow", "80 L/min");
  CHECK(valve.model.derived_value(v, "valve.opening_area") == rated_area(850.0));
  CHECK(valve.model.derived_value(v, "valve.opening_area") == doctest::Approx(2.0 * rated));
}
