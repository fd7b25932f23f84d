// An N-link planar pendulum chain as a netlist (JSON text), for bench_chain and for
// tests that want a mechanism of any size.
//
// Links 1 m long, 1 kg, uniform rods (inertia m L²/12 about the centre), joined end to
// end by revolute joints, the first one pinned to the ground at the origin, released
// from rest horizontal along +x (link i has its centre at x = i − 1/2), gravity −9.81.
//
// Names (zero-padded, so that they sort in chain order, which is the order in which the
// loader lays the components out): bodies "link000001" ... with points "pin" (x' = −L/2)
// and "tip" (x' = +L/2), joints "joint000001" ... (joint i: a = tip of link i−1, or
// ground.pivot for i = 1; b = pin of link i), and "ground".
// The mechanism's monitors are "mechanism.constraint_norm" and
// "mechanism.constraint_rate_norm".
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace jourdain::bench {

struct ChainOptions {
  double length = 1.0;  // m, per link
  double mass = 1.0;    // kg, per link
  double gravity = -9.81;
  double alpha = 10.0, beta = 10.0;  // Baumgarte gains (world.constraints)
  bool projection = false;
  std::string formulation;  // world.constraints.formulation; empty: the default
  std::string method = "dopri5";
  double t_end = 10.0;
  double rtol = 1e-6, atol = 1e-8;
  double output_interval = 0.1;
  // Variables to record; empty: the last link's x, y, theta and the constraint norm.
  std::vector<std::string> record;
};

inline std::string chain_link_name(long i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "link%06ld", i);
  return buf;
}
inline std::string chain_joint_name(long i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "joint%06ld", i);
  return buf;
}

inline std::string make_chain_netlist(long n, const ChainOptions& o = {}) {
  const double L = o.length, m = o.mass, inertia = m * L * L / 12.0;
  std::string s;
  s.reserve(static_cast<size_t>(n) * 320 + 1000);
  char buf[512];
  const std::string formulation = o.formulation.empty() ? "" : R"(, "formulation": ")" + o.formulation + "\"";
  std::snprintf(buf, sizeof buf,
                R"({"name": "pendulum_chain_%ld", "world": {"gravity": [0, %.17g], )"
                R"("constraints": {"alpha": %.17g, "beta": %.17g, "projection": %s%s}}, )"
                R"("components": {"ground": {"type": "mechanical.ground", "params": {"points": {"pivot": [0, 0]}}})",
                n, o.gravity, o.alpha, o.beta, o.projection ? "true" : "false", formulation.c_str());
  s += buf;
  for (long i = 1; i <= n; ++i) {
    std::snprintf(buf, sizeof buf,
                  R"(, "%s": {"type": "mechanical.body", "params": {"mass": %.17g, "inertia": %.17g, )"
                  R"("points": {"pin": [%.17g, 0], "tip": [%.17g, 0]}}, )"
                  R"("initial": {"x": %.17g, "y": 0, "theta": 0, "vx": 0, "vy": 0, "omega": 0}})",
                  chain_link_name(i).c_str(), m, inertia, -0.5 * L, 0.5 * L, (static_cast<double>(i) - 0.5) * L);
    s += buf;
    std::snprintf(buf, sizeof buf, R"(, "%s": {"type": "mechanical.revolute"})", chain_joint_name(i).c_str());
    s += buf;
  }
  s += R"(}, "connections": [)";
  for (long i = 1; i <= n; ++i) {
    const std::string a = i == 1 ? std::string("ground.pivot") : chain_link_name(i - 1) + ".tip";
    std::snprintf(buf, sizeof buf, R"(%s["%s", "%s.a"], ["%s.pin", "%s.b"])", i == 1 ? "" : ", ", a.c_str(),
                  chain_joint_name(i).c_str(), chain_link_name(i).c_str(), chain_joint_name(i).c_str());
    s += buf;
  }
  std::snprintf(buf, sizeof buf,
                R"(], "solver": {"method": "%s", "t_end": %.17g, "rtol": %.17g, "atol": %.17g, "output_interval": %.17g}, )",
                o.method.c_str(), o.t_end, o.rtol, o.atol, o.output_interval);
  s += buf;
  std::vector<std::string> record = o.record;
  if (record.empty()) {
    const std::string last = chain_link_name(n);
    record = {last + ".x", last + ".y", last + ".theta", "mechanism.constraint_norm"};
  }
  s += R"("record": [)";
  for (size_t k = 0; k < record.size(); ++k) s += (k ? ", \"" : "\"") + record[k] + "\"";
  s += "]}";
  return s;
}

}  // namespace jourdain::bench
