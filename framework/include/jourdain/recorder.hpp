// Recorder: writes results.csv as the run goes, one row per output time and per event,
// flushed after each row so that a failure or a crash keeps everything up to it.
// Header: time [s],component.variable [unit],...
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "jourdain/model.hpp"

namespace jourdain {

class Recorder {
 public:
  // Throws InputError for a variable name the model does not have.
  Recorder(const Model& model, const std::vector<std::string>& variables);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  void open(const std::filesystem::path& csv_file);  // throws Error if it cannot write
  // Records a context that was just evaluated.
  void record(const Context& ctx);
  long rows() const { return rows_; }
  const std::vector<const RecordableVariable*>& variables() const { return variables_; }
  // The most recent row's values (time first), kept for summaries.
  const std::vector<double>& last_row() const { return last_; }

 private:
  const Model& model_;
  std::vector<const RecordableVariable*> variables_;
  std::FILE* file_ = nullptr;
  std::vector<double> last_;
  std::string line_;
  long rows_ = 0;
};

}  // namespace jourdain
