// Helpers for the hydraulic library tests: build a circuit netlist from JSON pieces, run
// it, read columns and events.
#pragma once

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "jourdain/errors.hpp"
#include "jourdain_test.hpp"

namespace jourdain::test {

using nlohmann::json;

inline constexpr double pi = std::numbers::pi;

using Links = std::vector<std::pair<std::string, std::string>>;

// A netlist from its parts; `fluid` becomes world.fluid (omitted when null).
inline json circuit(const json& components, const Links& links, const std::vector<std::string>& record,
                    const json& solver, const json& fluid = nullptr) {
  json connections = json::array();
  for (const auto& [a, b] : links) connections.push_back(json::array({a, b}));
  json n = {{"name", "hydraulic_test"},
            {"components", components},
            {"connections", connections},
            {"record", record},
            {"solver", solver}};
  if (!fluid.is_null()) n["world"] = {{"fluid", fluid}};
  return n;
}

// The library's orifice law, restated: turbulent, with tanh(2λ/λ_crit) for the laminar
// region (hydraulic_library.hpp, orifice_flow); the default fluid unless ρ and ν are given.
inline double orifice_law(double cd, double area, double dp, double lambda_crit, double rho = 850.0,
                          double nu = 4.6e-5) {
  if (area <= 0 || dp == 0) return 0.0;
  const double jet = std::sqrt(2 * std::abs(dp) / rho);
  const double dh = std::sqrt(4 * area / pi);
  return std::copysign(cd * std::tanh(2 * dh * jet / nu / lambda_crit) * area * jet, dp);
}

// Runs and requires that the run finished.
inline RunResult run_circuit(const json& n) {
  RunResult r = run(n.dump());
  INFO(r.failure);
  REQUIRE(r.finished);
  return r;
}

inline double last(const RunResult& r, const std::string& column) { return r.column(column).back(); }

inline double column_max(const RunResult& r, const std::string& column) {
  const auto v = r.column(column);
  return *std::max_element(v.begin(), v.end());
}
inline double column_min(const RunResult& r, const std::string& column) {
  const auto v = r.column(column);
  return *std::min_element(v.begin(), v.end());
}

// Time of the first event of `component` whose description contains `part` (−1: none).
inline double event_time(const RunResult& r, const std::string& component, const std::string& part = "") {
  for (const auto& e : r.events)
    if (e.component == component && e.description.find(part) != std::string::npos) return e.time;
  return -1.0;
}

// The turbulent orifice law, q = C_d A sqrt(2 |Δp| / ρ) sign(Δp).
inline double turbulent_flow(double cd, double area, double dp, double rho) {
  return std::copysign(cd * area * std::sqrt(2.0 * std::abs(dp) / rho), dp);
}

// The message of the InputError that loading `n` raises ("" if none).
inline std::string load_error(const json& n) {
  try {
    load(n.dump());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace jourdain::test
