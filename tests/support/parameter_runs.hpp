// Helpers of the tests that give numeric parameters to a run's Context (issue 12) and
// compare with a netlist written with the same values.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain_test.hpp"

namespace jourdain::test {

using ParameterValues = std::vector<std::pair<std::string, nlohmann::json>>;

// Runs a loaded netlist with `values` given to the run's Context (RunOptions::parameters,
// which hands each to Model::set_parameter), keeping every row; writes no files.
inline RunResult run_with(const Netlist& netlist, const ParameterValues& values) {
  RunOptions o;
  o.keep_rows = true;
  o.parameters = values;
  return run_netlist(netlist, o);
}

// The message of the InputError that `f` throws ("(no error)" if none).
template <class F>
std::string input_error(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace jourdain::test
