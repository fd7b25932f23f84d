// Sources: the ideal flow source against closed forms (a closed volume, an orifice in
// steady state, a flow given by a signal) and its checks.
#include <cmath>

#include "hydraulic_test_util.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const json bdf_tight = {{"method", "bdf"}, {"t_end", 0.1}, {"rtol", 1e-10}, {"atol", 1e-12}, {"output_interval", 0.005}};

}  // namespace

TEST_CASE("flow source into a closed volume: dp/dt = beta Q / V, whatever the pressure; volume and power follow") {
  // 10 L/min into V = 1 L of oil with β = 1.5 GPa (the default fluid, no air):
  // p = β Q t / V, 250 MPa/s; the source counts V_d = Q t and delivers P = p Q.
  const double Q = 10e-3 / 60.0, V = 1e-3, beta = 1.5e9;
  json n = circuit({{"source", {{"type", "hydraulic.flow_source"}, {"params", {{"flow", "10 L/min"}}}}},
                    {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", "1 L"}, {"ports", 1}}}}}},
                   {{"vol.p1", "source.p"}}, {"vol.pressure", "source.pressure", "source.volume", "source.power"},
                   bdf_tight);
  RunResult r = run_circuit(n);
  const auto t = r.column("time"), p = r.column("vol.pressure");
  REQUIRE(t.size() == 21);
  for (size_t k = 0; k < t.size(); ++k) {
    // A constant right-hand side: BDF follows the straight line to rounding.
    CHECK(p[k] == doctest::Approx(beta * Q * t[k] / V).epsilon(1e-10).scale(1.0));
    CHECK(r.column("source.pressure")[k] == p[k]);
    CHECK(r.column("source.volume")[k] == doctest::Approx(Q * t[k]).epsilon(1e-10).scale(1e-15));
    CHECK(r.column("source.power")[k] == doctest::Approx(p[k] * Q).epsilon(1e-14).scale(1e-15));
  }
  // 25 MPa at 0.1 s: the source does not yield to the pressure it builds.
  CHECK(last(r, "vol.pressure") == doctest::Approx(25e6).epsilon(1e-9));

  // Negative: it draws, and the pressure falls at the same rate (down to the vapour limit).
  n["components"]["source"]["params"]["flow"] = "-10 L/min";
  n["components"]["vol"]["initial"] = {{"p", "30 MPa"}};
  RunResult d = run_circuit(n);
  CHECK(last(d, "vol.pressure") == doctest::Approx(30e6 - beta * Q * 0.1 / V).epsilon(1e-9));
  CHECK(last(d, "source.volume") == doctest::Approx(-Q * 0.1).epsilon(1e-9));
}

TEST_CASE("flow source through an orifice: the steady pressure drop is rho/2 (Q / (C_d A))^2") {
  // Q = 10 L/min through d = 1.5 mm, C_d = 0.7, into the tank; a small volume between
  // them (0.1 L, time constant ≈ 6 ms) settles in 0.2 s. λ_crit = 10 keeps the orifice
  // fully turbulent (tanh(2λ/λ_crit) = 1 at λ ≈ 4400), so the closed form holds exactly.
  const double Q = 10e-3 / 60.0, d = 1.5e-3, cd = 0.7, rho = 850.0;
  const double A = pi * d * d / 4.0;
  const double dp = rho / 2.0 * std::pow(Q / (cd * A), 2);
  json n = circuit({{"source", {{"type", "hydraulic.flow_source"}, {"params", {{"flow", "10 L/min"}}}}},
                    {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", "0.1 L"}, {"ports", 2}}}}},
                    {"throttle",
                     {{"type", "hydraulic.orifice"},
                      {"params", {{"diameter", "1.5 mm"}, {"discharge_coefficient", cd}, {"critical_flow_number", 10}}}}},
                    {"tank", {{"type", "hydraulic.tank"}}}},
                   {{"vol.p1", "source.p"}, {"vol.p2", "throttle.a"}, {"tank.p", "throttle.b"}},
                   {"vol.pressure", "throttle.flow", "source.pressure"},
                   {{"method", "bdf"}, {"t_end", 0.2}, {"rtol", 1e-10}, {"atol", 1e-6}, {"output_interval", 0.01}});
  RunResult r = run_circuit(n);
  MESSAGE("steady pressure " << last(r, "vol.pressure") << " Pa, closed form " << dp << " Pa");
  CHECK(last(r, "vol.pressure") == doctest::Approx(dp).epsilon(1e-7));
  CHECK(last(r, "throttle.flow") == doctest::Approx(Q).epsilon(1e-7));
  CHECK(last(r, "source.pressure") == last(r, "vol.pressure"));
}

TEST_CASE("flow source from a signal: a ramp Q = a t builds p = beta a t^2 / (2 V)") {
  const double a = 1e-3, V = 1e-3, beta = 1.5e9;  // Q rises by 1 L/s every second
  json n = circuit({{"ramp", {{"type", "signal.ramp"}, {"params", {{"slope", a}}}}},
                    {"source", {{"type", "hydraulic.flow_source"}, {"params", {{"source", "signal"}, {"flow", 1.0}}}}},
                    {"vol", {{"type", "hydraulic.volume"}, {"params", {{"volume", V}, {"ports", 1}}}}}},
                   {{"ramp.out", "source.command"}, {"vol.p1", "source.p"}}, {"vol.pressure", "source.volume"},
                   {{"method", "dopri5"}, {"t_end", 0.05}, {"rtol", 1e-10}, {"atol", 1e-6}, {"output_interval", 0.005}});
  RunResult r = run_circuit(n);
  const auto t = r.column("time"), p = r.column("vol.pressure"), v = r.column("source.volume");
  for (size_t k = 0; k < t.size(); ++k) {
    // A quadratic: dopri5 (order 5) is exact on it, to rounding. The parameter flow is
    // not read with a signal source.
    CHECK(p[k] == doctest::Approx(beta * a * t[k] * t[k] / (2 * V)).epsilon(1e-10).scale(1.0));
    CHECK(v[k] == doctest::Approx(a * t[k] * t[k] / 2).epsilon(1e-10).scale(1e-15));
  }
}

TEST_CASE("flow source: its port takes a capacitive element, a signal source needs its command, units are checked") {
  // "source": "signal" without the command connected: refused, not run on the parameter.
  std::string e = load_error(circuit({{"source", {{"type", "hydraulic.flow_source"}, {"params", {{"source", "signal"}}}}},
                                      {"vol", {{"type", "hydraulic.volume"}, {"params", {{"ports", 1}}}}}},
                                     {{"vol.p1", "source.p"}}, {}, bdf_tight));
  CAPTURE(e);
  CHECK(e.find("component 'source'") != std::string::npos);
  CHECK(e.find("port 'command'") != std::string::npos);
  // Two response sides (a flow source onto an orifice) cannot be joined.
  e = load_error(circuit({{"source", {{"type", "hydraulic.flow_source"}}},
                          {"throttle", {{"type", "hydraulic.orifice"}, {"params", {{"diameter", "1 mm"}}}}}},
                         {{"source.p", "throttle.a"}}, {}, bdf_tight));
  CHECK(e.find("/connections/0") != std::string::npos);
  // A flow given in a pressure unit.
  e = load_error(circuit({{"source", {{"type", "hydraulic.flow_source"}, {"params", {{"flow", "10 bar"}}}}},
                          {"vol", {{"type", "hydraulic.volume"}, {"params", {{"ports", 1}}}}}},
                         {{"vol.p1", "source.p"}}, {}, bdf_tight));
  CHECK(e.find("/components/source/params/flow") != std::string::npos);
  CHECK(e.find("m^3/s") != std::string::npos);
}
