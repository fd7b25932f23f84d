// Small planar mechanisms written as netlist JSON, for the mechanical library's tests.
#pragma once

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"

namespace jourdain::test {

using nlohmann::json;

// A uniform rod of length L and mass m centred at (x, y) at angle theta, with points
// "p" (−L/2) and "q" (+L/2) on its axis.
inline json rod(double L, double m, double x, double y, double theta, double omega = 0.0) {
  return {{"type", "mechanical.body"},
          {"params", {{"mass", m}, {"inertia", m * L * L / 12.0}, {"points", {{"p", {-L / 2, 0.0}}, {"q", {L / 2, 0.0}}}}}},
          {"initial", {{"x", x}, {"y", y}, {"theta", theta}, {"omega", omega}}}};
}

// Connections as a JSON array of pairs (brace lists of pairs would read as an object).
inline json links(const std::vector<std::pair<std::string, std::string>>& pairs) {
  json a = json::array();
  for (const auto& [x, y] : pairs) a.push_back(json::array({x, y}));
  return a;
}

inline json mechanism(json components, json connections, double t_end, json record, json constraints = json::object(),
                      double gravity = -9.81) {
  json doc = {{"name", "test"},
              {"world", {{"gravity", {0.0, gravity}}, {"constraints", constraints}}},
              {"components", components},
              {"connections", connections},
              {"solver", {{"method", "dopri5"}, {"t_end", t_end}, {"rtol", 1e-11}, {"atol", 1e-13}, {"output_interval", 0.01}}},
              {"record", record}};
  return doc;
}

// Sum of the recorded kinetic and potential energies of `bodies` (and elastic energies of
// `springs`) in row k.
inline double energy(const RunResult& r, const std::vector<std::string>& bodies, size_t k,
                     const std::vector<std::string>& springs = {}) {
  double e = 0.0;
  for (const auto& b : bodies) e += r.column(b + ".kinetic_energy")[k] + r.column(b + ".potential_energy")[k];
  for (const auto& s : springs) e += r.column(s + ".energy")[k];
  return e;
}

}  // namespace jourdain::test
