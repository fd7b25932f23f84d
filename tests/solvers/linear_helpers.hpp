// Helpers of the linear-analysis tests (test_linear.cpp, test_linear_validation.cpp).
#pragma once

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"
#include "jourdain/solvers/linear.hpp"

namespace jourdain::test {

// Full precision in netlist text (std::to_string keeps six decimals).
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The linear analysis of netlist text with the "linear" settings given as JSON text;
// requires that it finished.
inline LinearRunResult linear(const std::string& netlist_text, const std::string& linear_json) {
  Netlist net = load(netlist_text);
  const LinearSettings s = linear_settings_from_json(nlohmann::json::parse(linear_json), {"", "/linear", "", ""});
  LinearRunResult r = run_linear(net, s, {});
  INFO(r.failure);
  REQUIRE(r.finished);
  return r;
}

}  // namespace jourdain::test
