// Recorder: writes results.csv as the run goes, one row per output time and per event.
// Each row goes to the file in one write, so that a failure, an interrupt or a crash
// (even SIGKILL) keeps every row up to it and never a torn last row; a write that fails
// (a full disk) is undone to the last whole row and reported as an OutputError.
// Header: time [s],component.variable [unit],...
// Listeners (RowListener) are told of each row as it is recorded: an in-memory consumer,
// such as the report (apps/report), needs no second reading of results.csv.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "jourdain/model.hpp"

namespace jourdain {

// Told of every row a Recorder records, right after it is written. `ctx` is the
// evaluated context of the row: a listener may read any recordable variable from it
// (Model::value), not only the recorded ones; `row` holds the recorded values, time
// first, in Recorder::variables() order. Both are valid during the call only.
class RowListener {
 public:
  virtual ~RowListener() = default;
  virtual void row_recorded(const Context& ctx, const std::vector<double>& row) = 0;
};

class Recorder {
 public:
  // Throws InputError for a variable name the model does not have.
  Recorder(const Model& model, const std::vector<std::string>& variables);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Opens csv_file for writing, first taking its folder for this run: an advisory lock
  // (flock) on the file ".jourdain.lock" there, which holds who took it, kept until the
  // Recorder goes. Two runs writing one folder would interleave their rows; the second
  // one is refused (OutputError naming the holder) before anything of the first is
  // touched. Throws OutputError if it cannot write.
  void open(const std::filesystem::path& csv_file);
  // Calls `listener` after each row from now on; it must outlive the recording.
  void add_listener(RowListener& listener) {
    listeners_.push_back(&listener);
    needed_ = PointEvaluation::Full;  // it may read any variable
  }
  // Records a context evaluated as far as evaluation_needed() says.
  void record(const Context& ctx);
  long rows() const { return rows_; }
  const std::vector<const RecordableVariable*>& variables() const { return variables_; }
  // How far a recorded point must be evaluated: the whole evaluation when an observable
  // is recorded or a listener may read any variable (RowListener); a stage
  // (Model::derivatives) when an output or a monitor is recorded; nothing when only
  // states and discrete states are (time included): a solver may then record the states
  // it interpolated without evaluating the model there.
  PointEvaluation evaluation_needed() const { return needed_; }
  // The most recent row's values (time first), kept for summaries.
  const std::vector<double>& last_row() const { return last_; }

 private:
  void write_row();  // next_ as one line of results.csv
  void append(const std::string& text);

  const Model& model_;
  std::vector<const RecordableVariable*> variables_;
  std::filesystem::path path_;
  int fd_ = -1;
  int folder_lock_ = -1;  // the open ".jourdain.lock" whose flock holds the folder
  long long written_ = 0;  // bytes of whole rows in the file
  std::vector<double> last_, next_;
  std::vector<RowListener*> listeners_;
  PointEvaluation needed_ = PointEvaluation::States;
  std::string line_;
  long rows_ = 0;
};

}  // namespace jourdain
