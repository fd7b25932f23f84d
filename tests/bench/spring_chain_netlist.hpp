// A chain of N masses in a line, each tied to the one before (the first to a wall) by a
// spring and a damper, as a netlist (JSON text), for bench_bdf and for tests that want
// a model with a banded Jacobian of any size (2N states, per mass x and v).
//
// Names (zero-padded, so that they sort in chain order): masses "m000001" ..., springs
// "s000001" ..., dampers "d000001" ...; spring i joins mass i−1 (or "wall") to mass i.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

namespace jourdain::bench {

struct SpringChainOptions {
  double mass = 1.0;          // kg
  double stiffness = 1e6;     // N/m
  double damping = 10.0;      // N·s/m
  std::function<double(long i)> initial_x;  // m, of mass i (1 ... N); empty: at rest
  std::string solver = R"({"method": "bdf"})";  // the netlist's "solver" object
  bool record_all = false;    // every mass's x; else the first and the last
};

inline std::string spring_chain_mass_name(long i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "m%06ld", i);
  return buf;
}

inline std::string make_spring_chain_netlist(long n, const SpringChainOptions& o = {}) {
  std::string s = R"({"name": "spring_chain", "components": {"wall": {"type": "mechanical1d.fixed"})";
  char buf[400];
  for (long i = 1; i <= n; ++i) {
    std::snprintf(buf, sizeof buf,
                  R"(, "m%06ld": {"type": "mechanical1d.mass", "params": {"mass": %.17g}, "initial": {"x": %.17g}})"
                  R"(, "s%06ld": {"type": "mechanical1d.spring", "params": {"stiffness": %.17g}})"
                  R"(, "d%06ld": {"type": "mechanical1d.damper", "params": {"damping": %.17g}})",
                  i, o.mass, o.initial_x ? o.initial_x(i) : 0.0, i, o.stiffness, i, o.damping);
    s += buf;
  }
  s += R"(}, "connections": [)";
  for (long i = 1; i <= n; ++i) {
    const std::string left = i == 1 ? std::string("wall") : spring_chain_mass_name(i - 1);
    std::snprintf(buf, sizeof buf,
                  R"(%s["%s.p", "s%06ld.a"], ["s%06ld.b", "m%06ld.p"], ["%s.p", "d%06ld.a"], ["d%06ld.b", "m%06ld.p"])",
                  i == 1 ? "" : ", ", left.c_str(), i, i, i, left.c_str(), i, i, i);
    s += buf;
  }
  s += R"(], "record": [)";
  for (long i = 1; i <= n; ++i)
    if (o.record_all || i == 1 || i == n) s += (i > 1 ? ", \"" : "\"") + spring_chain_mass_name(i) + ".x\"";
  return s + R"(], "solver": )" + o.solver + "}";
}

}  // namespace jourdain::bench
