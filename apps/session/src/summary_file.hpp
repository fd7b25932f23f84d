// summary.json, the last file of a run (session.hpp): the session checks before the run
// that the file can be created in the output folder, and writes it once the run has
// ended, whatever became of it, from the summary the solvers made.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace jourdain::session::detail {

// `started` (RunOptions::started, LinearRunOptions::started), preceded by the check that
// summary.json can be created in `dir`: the run calls it once results.csv is open there,
// so that a folder where summary.json cannot be written is refused (OutputError naming
// it) after results.csv's own refusals and before anything runs.
std::function<void()> check_summary_first(std::filesystem::path dir, std::function<void()> started);

// Writes `summary` as dir/summary.json. When it cannot be written (a full disk) the
// summary becomes a failed run's, and the message returned names the file and the rows
// results.csv keeps; "" when it was written.
std::string write_summary_file(const std::filesystem::path& dir, nlohmann::json& summary, long rows);

// A run's or a linear analysis's summary written into `dir` (nothing when it is empty);
// a run whose summary cannot be written has failed.
template <class Result>
void write_summary(const std::filesystem::path& dir, Result& result) {
  if (dir.empty()) return;
  if (std::string failed = write_summary_file(dir, result.summary, result.row_count); !failed.empty()) {
    result.finished = false;
    result.failure = failed;
  }
}

}  // namespace jourdain::session::detail
