// Pipes (laminar Hagen–Poiseuille and turbulent Blasius flow, the oil column's inertia),
// sensors (pressure extremes and |dp/dt| through the transducer's filter, gated windows,
// in-line flow and power), and the world.fluid section's checks.
#include <cmath>

#include "hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const double rho = 850.0, nu = 4.6e-5, mu = rho * nu;
json source(double p) { return {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", p}}}}; }

}  // namespace

TEST_CASE("pipe: laminar flow follows Hagen-Poiseuille, turbulent flow Blasius, with and without inertance") {
  // 10 m of 10 mm pipe between two pressure sources (both ends response side), 4 segments.
  const double L = 10, d = 0.01, A = pi * d * d / 4;
  for (bool inertance : {false, true}) {
    for (double dp : {1e5, 5e6}) {
      CAPTURE(inertance);
      CAPTURE(dp);
      json n = circuit(
          {{"up", source(dp)},
           {"down", source(0.0)},
           {"pipe",
            {{"type", "hydraulic.pipe"},
             {"params",
              {{"length", L},
               {"diameter", d},
               {"segments", 4},
               {"ends", "response_response"},
               {"inertance", inertance}}}}}},
          {{"up.p", "pipe.a"}, {"down.p", "pipe.b"}}, {"pipe.flow_a", "pipe.flow_b", "up.volume", "down.volume"},
          {{"method", "bdf"}, {"t_end", 2.0}, {"rtol", 1e-10}, {"atol", 1e-14}, {"output_interval", 0.01}});
      RunResult r = run_circuit(n);
      const double q = last(r, "pipe.flow_b"), v = q / A, re = v * d / nu;
      // The whole pipe's friction drop at that flow: laminar 32 μ L v / d², or Blasius.
      const double laminar = 32 * mu * L * v / (d * d);
      const double blasius = 0.3164 * std::pow(re, -0.25) * (L / d) * rho * v * v / 2;
      MESSAGE("Re = " << re << ", q = " << q << " m³/s");
      CHECK(std::max(laminar, blasius) == doctest::Approx(dp).epsilon(1e-7));
      CHECK((dp == 1e5 ? re < 1190 : re > 1190));                         // the two regimes
      CHECK(last(r, "pipe.flow_a") == doctest::Approx(q).epsilon(1e-7));  // steady: what enters leaves
      // The nodes hold a little compressed oil: over the run the sources' accounts differ by it.
      CHECK(last(r, "up.volume") + last(r, "down.volume") ==
            doctest::Approx(A * L * (dp / 2) / 1.5e9).epsilon(0.2));  // mean node pressure about dp/2
    }
  }
}

TEST_CASE("pipe with inertance: a pressure step accelerates the oil column at A dp / (rho L)") {
  // Both ends response side, one segment: links of L/2 on each side of one node. At t = 0+
  // the node is at 0, so the first link alone sees the step: dq/dt = A Δp / (ρ L/2); the
  // flow starts linear in t (friction is quadratic in q and negligible at first).
  const double L = 20, d = 0.02, A = pi * d * d / 4, dp = 1e5;
  json n = circuit(
      {{"up", source(dp)},
       {"down", source(0.0)},
       {"pipe",
        {{"type", "hydraulic.pipe"}, {"params", {{"length", L}, {"diameter", d}, {"ends", "response_response"}}}}}},
      {{"up.p", "pipe.a"}, {"down.p", "pipe.b"}}, {"pipe.flow_a"},
      {{"method", "bdf"}, {"t_end", 1e-5}, {"rtol", 1e-10}, {"atol", 1e-16}, {"output_interval", 1e-6}});
  RunResult r = run_circuit(n);
  // At 1 µs the node has hardly moved (its pressure wave takes L/(2a) ≈ 7.5 ms to matter).
  CHECK(at_time(r, "pipe.flow_a", 1e-6) == doctest::Approx(A * dp / (rho * L / 2) * 1e-6).epsilon(1e-3));
}

TEST_CASE("pressure sensor extremes: the transducer's peaks of a sine, and its largest |dp/dt|") {
  // p = 5 MPa + 1 MPa sin(2π 5 t). Through T dp_r/dt = p − p_r the reading's amplitude is
  // A/sqrt(1 + (ωT)²); its rate r (one more lag) has amplitude ω A / (1 + (ωT)²).
  const double A = 1e6, offset = 5e6, f = 5, w = 2 * pi * f, T = 1e-3;
  json n = circuit(
      {{"wave", {{"type", "signal.sine"}, {"params", {{"amplitude", A}, {"frequency", f}, {"offset", offset}}}}},
       {"src", {{"type", "hydraulic.pressure_source"}, {"params", {{"source", "signal"}}}}},
       {"sensor",
        {{"type", "hydraulic.pressure_sensor"},
         {"params",
          {{"extremes", true}, {"time_constant", T}, {"pressure_resolution", 10}, {"rate_resolution", 100}}}}}},
      {{"wave.out", "src.command"}, {"src.p", "sensor.p"}},
      {"sensor.out", "sensor.reading", "sensor.rate", "sensor.max", "sensor.min", "sensor.max_rate"},
      {{"method", "bdf"}, {"t_end", 1.0}, {"rtol", 1e-10}, {"atol", 1e-8}, {"output_interval", 0.001}});
  RunResult r = run_circuit(n);
  const double gain1 = 1 / std::sqrt(1 + w * w * T * T), gain2 = 1 / (1 + w * w * T * T);
  MESSAGE("max " << last(r, "sensor.max") << ", min " << last(r, "sensor.min") << ", max |dp/dt| "
                 << last(r, "sensor.max_rate") << " (sine: " << w * A << ")");
  // The extremes are latched at events located by the solver (rtol 1e-10): exact to 1e-8.
  CHECK(last(r, "sensor.max") == doctest::Approx(offset + A * gain1).epsilon(1e-8));
  CHECK(last(r, "sensor.min") == doctest::Approx(offset - A * gain1).epsilon(1e-8));
  CHECK(last(r, "sensor.max_rate") == doctest::Approx(w * A * gain2).epsilon(1e-7));
  // Events only at new records: a handful over 5 periods, not one per extremum.
  CHECK(r.stats.events < 20);
  // The observables are the running extremes at every row.
  const auto mx = r.column("sensor.max"), reading = r.column("sensor.reading");
  for (size_t k = 1; k < mx.size(); ++k) {
    CHECK(mx[k] >= mx[k - 1]);
    CHECK(mx[k] >= reading[k]);
  }
}

TEST_CASE("pressure sensor extremes in a gated window only") {
  // The same sine, tracked only while `enable` > 0.5: from 0.3100005 s (a time table rising
  // from 0 to 1 between 0.31 s and 0.310001 s) to the end, 0.36 s. The window catches the
  // fall from a crest (0.25 s plus the lag) to a trough (0.35 s plus the lag) and a little
  // of the rise after it.
  const double A = 1e6, offset = 5e6, f = 5, w = 2 * pi * f, T = 1e-3, t_open = 0.3100005;
  json n = circuit(
      {{"wave", {{"type", "signal.sine"}, {"params", {{"amplitude", A}, {"frequency", f}, {"offset", offset}}}}},
       {"src", {{"type", "hydraulic.pressure_source"}, {"params", {{"source", "signal"}}}}},
       {"gate", {{"type", "signal.time_table"}, {"params", {{"table", {{0, 0}, {0.31, 0}, {0.310001, 1}}}}}}},
       {"sensor",
        {{"type", "hydraulic.pressure_sensor"},
         {"params", {{"extremes", true}, {"time_constant", T}, {"gated", true}, {"pressure_resolution", 10}}}}}},
      {{"wave.out", "src.command"}, {"src.p", "sensor.p"}, {"gate.out", "sensor.enable"}},
      {"sensor.reading", "sensor.max", "sensor.min", "sensor.tracking"},
      {{"method", "bdf"}, {"t_end", 0.36}, {"rtol", 1e-10}, {"atol", 1e-8}, {"output_interval", 0.001}});
  RunResult r = run_circuit(n);
  // The reading in steady state: offset + A g1 sin(ω t − φ), φ = atan(ω T) (the start's
  // transient died long before, as e^(−310)).
  const double g1 = 1 / std::sqrt(1 + w * w * T * T), phi = std::atan(w * T);
  auto reading = [&](double t) { return offset + A * g1 * std::sin(w * t - phi); };
  double hi = -1e300, lo = 1e300;
  for (double t = t_open; t <= 0.36; t += 1e-7) hi = std::max(hi, reading(t)), lo = std::min(lo, reading(t));
  MESSAGE("window max " << last(r, "sensor.max") << " (closed form " << hi << "), min " << last(r, "sensor.min") << " ("
                        << lo << ")");
  CHECK(r.column("sensor.tracking").front() == 0.0);
  CHECK(last(r, "sensor.tracking") == 1.0);
  // The window opens at the located crossing of 0.5 (exact to ~1e-12 s: the reading moves
  // by 3e7 Pa/s · 1e-12 s there); the trough is an event located to rtol.
  CHECK(last(r, "sensor.max") == doctest::Approx(hi).epsilon(1e-8));
  CHECK(last(r, "sensor.min") == doctest::Approx(lo).epsilon(1e-8));
  CHECK(last(r, "sensor.max") < offset + 0.99 * A * g1);  // not the crest: that was before the window
}

TEST_CASE("in-line flow and power sensors pass the flow and the pressure through, and count the volume") {
  // A pump delivers Q = 2e-4 m³/s through a flow sensor and a power sensor into a volume
  // whose pressure rises at β Q / V.
  const double Q = 2e-4, V = 0.02, beta = 1.5e9;
  json n = circuit({{"tank", {{"type", "hydraulic.tank"}}},
                    {"pump", {{"type", "hydraulic.pump"}, {"params", {{"displacement", 2e-6}, {"speed", 100}}}}},
                    {"flow", {{"type", "hydraulic.flow_sensor"}}},
                    {"power", {{"type", "hydraulic.power_sensor"}}},
                    {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", V}, {"ports", 1}}}}}},
                   {{"tank.p", "pump.inlet"}, {"power.b", "pump.outlet"}, {"flow.b", "power.a"}, {"vol.p1", "flow.a"}},
                   {"flow.out", "flow.volume", "power.out", "vol.pressure", "pump.power"},
                   {{"method", "bdf"}, {"t_end", 1.0}, {"rtol", 1e-10}, {"atol", 1e-14}, {"output_interval", 0.01}});
  RunResult r = run_circuit(n);
  CHECK(last(r, "flow.out") == doctest::Approx(Q).epsilon(1e-12));
  CHECK(last(r, "flow.volume") == doctest::Approx(Q * 1.0).epsilon(1e-10));
  CHECK(last(r, "vol.pressure") == doctest::Approx(beta * Q / V).epsilon(1e-9));
  CHECK(last(r, "power.out") == doctest::Approx(Q * beta * Q / V).epsilon(1e-9));
  CHECK(last(r, "power.out") ==
        doctest::Approx(last(r, "pump.power")).epsilon(1e-12));  // the pump sees the volume's pressure
}

TEST_CASE("world.fluid: every property with units, and errors that name /world/fluid/<key>") {
  json base = circuit({{"tank", {{"type", "hydraulic.tank"}}},
                       {"vol", {{"type", "hydraulic.volume"}, {"params", {{"ports", 1}}}, {"initial", {{"p", 1e6}}}}},
                       {"orifice", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", 0.001}}}}}},
                      {{"vol.p1", "orifice.a"}, {"tank.p", "orifice.b"}}, {"vol.bulk_modulus", "orifice.flow", "orifice.pressure_drop"},
                      {{"method", "bdf"}, {"t_end", 0.001}, {"output_interval", 0.001}},
                      {{"density", "890 kg/m^3"},
                       {"bulk_modulus", "1.4 GPa"},
                       {"kinematic_viscosity", "46 cSt"},
                       {"vapour_pressure", "0.02 bar"},
                       {"atmospheric_pressure", "1 atm"},
                       {"air_fraction", 0.0},
                       {"air_polytropic_index", 1.4}});
  RunResult r = run_circuit(base);
  CHECK(last(r, "vol.bulk_modulus") == doctest::Approx(1.4e9));
  // The orifice sees the netlist's density and viscosity: its flow is the orifice law
  // with ρ = 890 kg/m³, ν = 46 cSt (C_d 0.7 and λ_crit 1000 by default).
  {
    const double dp = last(r, "orifice.pressure_drop"), rho = 890.0, nu = 46e-6, d = 0.001;
    const double A = M_PI * d * d / 4, jet = std::sqrt(2 * dp / rho), lambda = d * jet / nu;
    CHECK(last(r, "orifice.flow") == doctest::Approx(0.7 * std::tanh(2 * lambda / 1000.0) * A * jet).epsilon(1e-12));
  }
  auto error_of = [&](const std::string& key, const json& value) {
    json n = base;
    n["world"]["fluid"][key] = value;
    try {
      run(n.dump());
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string unknown = error_of("viscosity", 1e-5);
  CHECK(unknown.find("/world/fluid/viscosity") != std::string::npos);
  CHECK(unknown.find("kinematic_viscosity") != std::string::npos);  // lists the properties
  CHECK(error_of("bulk_modulus", "1.4 kg").find("/world/fluid/bulk_modulus") != std::string::npos);
  CHECK(error_of("density", -1).find("/world/fluid/density") != std::string::npos);
  CHECK(error_of("air_fraction", 2).find("out of its range") != std::string::npos);
  CHECK(error_of("vapour_pressure", "2 bar").find("below atmospheric_pressure") != std::string::npos);
  // An unregistered world section is refused by the loader; "fluid" is registered.
  json other = base;
  other["world"]["fluids"] = json::object();
  CHECK(load_error(other).find("fluids") != std::string::npos);
}

TEST_CASE("world.fluid at a temperature: Walther's viscosity, thermal expansion, bulk modulus slope") {
  // ISO VG 46: 46 cSt at 40 °C, 6.8 cSt at 100 °C. Walther (ASTM D341) through both points:
  //   W = log10 log10(ν + 0.7),  B = (W_40 − W_100) / (log10 T_100 − log10 T_40),
  //   A = W_40 + B log10 T_40,    ν(T) = 10^10^(A − B log10 T) − 0.7   (cSt, K).
  const double T40 = 313.15, T100 = 373.15, T60 = 333.15;
  auto W = [](double nu) { return std::log10(std::log10(nu + 0.7)); };
  const double B = (W(46.0) - W(6.8)) / (std::log10(T100) - std::log10(T40)), A = W(46.0) + B * std::log10(T40);
  const double nu60 = (std::pow(10.0, std::pow(10.0, A - B * std::log10(T60))) - 0.7) * 1e-6;
  // The oil at 60 °C; density given at 15 °C with α_V = 7e-4 1/K; β given at 15 °C,
  // falling 5 MPa/K.
  const double rho15 = 870.0, alpha = 7e-4, beta15 = 1.6e9, slope = -5e6;
  auto points = [](const std::string& t1, const std::string& nu1, const std::string& t2, const std::string& nu2) {
    return json::array({json::array({t1, nu1}), json::array({t2, nu2})});
  };
  const json fluid = {{"temperature", "60 degC"},
                      {"reference_temperature", "15 degC"},
                      {"density", rho15},
                      {"thermal_expansion", alpha},
                      {"bulk_modulus", beta15},
                      {"bulk_modulus_slope", slope},
                      {"viscosity_at", points("40 degC", "46 cSt", "100 degC", "6.8 cSt")}};
  // A 0.2 mm orifice from a 1 bar source, a flow number λ of about 10 against λ_crit = 1000:
  // deep in the laminar part of the orifice law, where q is proportional to 1/(ρ ν).
  json n = circuit({{"source", {{"type", "hydraulic.pressure_source"}, {"params", {{"pressure", 1e5}}}}},
                    {"tank", {{"type", "hydraulic.tank"}}},
                    {"vol", {{"type", "hydraulic.volume"}, {"params", {{"ports", 1}}}}},
                    {"orifice", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", 2e-4}}}}}},
                   {{"source.p", "orifice.a"}, {"tank.p", "orifice.b"}},
                   {"orifice.flow", "vol.bulk_modulus"}, {{"method", "bdf"}, {"t_end", 0.001}, {"output_interval", 0.001}},
                   fluid);
  n["components"].erase("vol");
  n["record"] = {"orifice.flow"};
  RunResult r = run_circuit(n);
  const double rho60 = rho15 / (1.0 + alpha * 45.0), d = 2e-4, dp = 1e5;
  const double area = M_PI * d * d / 4, jet = std::sqrt(2 * dp / rho60), lambda = d * jet / nu60;
  CHECK(last(r, "orifice.flow") == doctest::Approx(0.7 * std::tanh(2 * lambda / 1000.0) * area * jet).epsilon(1e-12));
  // The bulk modulus at 60 °C: a volume fed by a constant flow rises at β(T) Q / V.
  json v = circuit({{"pump", {{"type", "hydraulic.flow_source"}, {"params", {{"flow", 1e-4}}}}},
                    {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", 1e-3}, {"ports", 1}}}}}},
                   {{"vol.p1", "pump.p"}}, {"vol.bulk_modulus"},
                   {{"method", "bdf"}, {"t_end", 1e-3}, {"output_interval", 1e-3}}, fluid);
  CHECK(last(run_circuit(v), "vol.bulk_modulus") == doctest::Approx(beta15 + slope * 45.0).epsilon(1e-12));
  // Given at the oil's temperature (no reference_temperature): the values as written.
  json same = n;
  same["world"]["fluid"] = {{"temperature", "60 degC"}, {"kinematic_viscosity", "20 cSt"}, {"density", 870}};
  const double jet870 = std::sqrt(2 * dp / 870.0), lambda20 = d * jet870 / 20e-6;
  CHECK(last(run_circuit(same), "orifice.flow") ==
        doctest::Approx(0.7 * std::tanh(2 * lambda20 / 1000.0) * area * jet870).epsilon(1e-12));
  // Errors name the key.
  auto error_of = [&](const json& f) {
    json m = n;
    m["world"]["fluid"] = f;
    return load_error(m);
  };
  CHECK(error_of({{"viscosity_at", json::array({json::array({"40 degC", "46 cSt"})})}})
            .find("/world/fluid/viscosity_at") != std::string::npos);
  CHECK(error_of({{"viscosity_at", points("40 degC", "46 cSt", "40 degC", "30 cSt")}}).find("different temperatures") !=
        std::string::npos);
  CHECK(error_of({{"viscosity_at", points("40 degC", "6 cSt", "100 degC", "46 cSt")}}).find("fall") != std::string::npos);
  CHECK(error_of({{"kinematic_viscosity", "46 cSt"}, {"viscosity_at", points("40 degC", "46 cSt", "100 degC", "6.8 cSt")}})
            .find("not both") != std::string::npos);
  CHECK(error_of({{"temperature", "200 degC"}, {"reference_temperature", "15 degC"}, {"bulk_modulus_slope", -1e7}})
            .find("not positive") != std::string::npos);
}
