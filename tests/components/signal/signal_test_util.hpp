// Helpers for the signal library tests: compare a recorded column with a closed form,
// and check that a netlist is refused with an error naming the component and parameter.
#pragma once

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "jourdain/errors.hpp"
#include "jourdain_test.hpp"

namespace jourdain::test {

// Largest |column(t) - exact(t)| over the recorded rows, leaving out rows within
// `skip_width` of any time in `skip` (the two rows recorded at an event, where the
// closed form is discontinuous).
inline double max_error(const RunResult& r, const std::string& column, const std::function<double(double)>& exact,
                        const std::vector<double>& skip = {}, double skip_width = 1e-9) {
  const auto time = r.column("time");
  const auto y = r.column(column);
  double worst = 0.0;
  for (size_t k = 0; k < time.size(); ++k) {
    bool near_event = false;
    for (double ts : skip) near_event = near_event || std::abs(time[k] - ts) <= skip_width;
    if (!near_event) worst = std::max(worst, std::abs(y[k] - exact(time[k])));
  }
  return worst;
}

// The times of the logged events of `component`, in order.
inline std::vector<double> event_times(const RunResult& r, const std::string& component) {
  std::vector<double> t;
  for (const auto& e : r.events)
    if (e.component == component) t.push_back(e.time);
  return t;
}

// Whether `t` is one of `instants` (to `width`).
inline bool near_any(double t, const std::vector<double>& instants, double width = 1e-9) {
  for (double ti : instants)
    if (std::abs(t - ti) <= width) return true;
  return false;
}

inline double max_of(const RunResult& r, const std::string& column) {
  double m = -INFINITY;
  for (double v : r.column(column)) m = std::max(m, v);
  return m;
}

// The message of the InputError that loading `netlist` raises ("" if none is raised).
inline std::string input_error_of(const std::string& netlist) {
  try {
    load(netlist);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A minimal netlist around `components` and `connections` (JSON text), dopri5 with tight
// tolerances unless `solver` says otherwise.
inline std::string netlist(const std::string& components, const std::string& connections,
                           const std::string& record,
                           const std::string& solver =
                               R"({"method": "dopri5", "t_end": 2, "rtol": 1e-8, "atol": 1e-10, "output_interval": 0.01})") {
  return R"({"name": "signal_test", "components": {)" + components + R"(}, "connections": [)" + connections +
         R"(], "solver": )" + solver + R"(, "record": [)" + record + "]}";
}

}  // namespace jourdain::test
