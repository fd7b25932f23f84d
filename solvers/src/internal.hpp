// What the solvers library shares inside itself: the output clock, the checks of a
// method's extra settings, and the built-in methods' constructors (for the SolverRegistry).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "jourdain/recorder.hpp"
#include "jourdain/solvers/explicit.hpp"
#include "jourdain/solvers/solver_registry.hpp"

namespace jourdain::detail {

// Output times t_start + k * interval, with t_end as the last one.
struct OutputClock {
  double t0, t_end, interval;
  long count;  // number of output times after t0
  long next = 1;
  OutputClock(const SolverSettings& s);
  double time(long k) const { return k >= count ? t_end : t0 + static_cast<double>(k) * interval; }
  bool done() const { return next > count; }
  double upcoming() const { return time(next); }
};

// Reads one setting's value as its schema declares it (a real with a unit converted to
// SI, or a whole number), refusing a value of the wrong kind or outside its range.
nlohmann::json read_solver_setting(const SolverSetting& setting, const nlohmann::json& value, const InputLocation& where);
// Checks s.extra against a method's whole schema: a key it does not declare as an extra
// setting, or a bad value, is an InputError at where/extra/KEY; a missing one gets its
// default.
void complete_extra_settings(SolverSettings& s, const std::vector<SolverSetting>& schema, const InputLocation& where);
// The bounds of the shared settings (span, output rows), whatever the method.
void check_shared_bounds(const SolverSettings& s, const InputLocation& where);
// Whether `key` names one of SolverSettings' fields (then it is not an extra setting).
bool is_settings_field(const std::string& key);
// A count computed in floating point (rows, steps) for a message: as a whole number while
// it is one exactly, else in exponent form ("1e+300"); never cast to an integer type,
// which is undefined beyond its range.
std::string count_text(double count);

// Writes `text` to `file`, checking the open, the write and the close (a full disk shows
// at the flush); returns "" or what went wrong. Every file a run writes besides
// results.csv (summary.json, linear.json, …) goes through here.
std::string write_file(const std::filesystem::path& file, const std::string& text);
// summary.json's lists shared by every analysis: the event log, and the recorded
// variables with their units.
nlohmann::json events_json(const std::vector<EventRecord>& events);
nlohmann::json variables_json(const Recorder& recorder);

std::shared_ptr<const SolverMethod> make_rk4_method();
std::shared_ptr<const SolverMethod> make_dopri5_method();
std::shared_ptr<const SolverMethod> make_bdf_method();

}  // namespace jourdain::detail
