// results.csv writer (recorder.hpp).
#include "jourdain/recorder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace jourdain {

Recorder::Recorder(const Model& model, const std::vector<std::string>& variables) : model_(model) {
  for (const auto& name : variables) variables_.push_back(&model.recordable(name));
  for (const RecordableVariable* v : variables_) {
    switch (v->source) {
      case RecordableVariable::Source::Observable: needed_ = PointEvaluation::Full; break;
      case RecordableVariable::Source::Output:
      case RecordableVariable::Source::Monitor: needed_ = std::max(needed_, PointEvaluation::Stage); break;
      case RecordableVariable::Source::State:
      case RecordableVariable::Source::Discrete: break;
    }
  }
}

Recorder::~Recorder() {
  if (fd_ >= 0) ::close(fd_);
  if (folder_lock_ >= 0) ::close(folder_lock_);  // releases the folder
}

namespace {

// Takes the folder of a run's files (Recorder::open): flock on ".jourdain.lock", which
// holds a line saying who took it. flock locks an open file, not a process, so that two
// threads of one program (Python runs) exclude each other too; the kernel releases it
// when the file is closed, whatever ends the run. Returns the open lock file.
int take_folder(const std::filesystem::path& folder, const std::string& csv_file) {
  const std::filesystem::path lock_file = folder / ".jourdain.lock";
  const int fd = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  // A folder that cannot take this file cannot take results.csv either: named as such.
  if (fd < 0) throw OutputError(csv_file, std::string("cannot create the file: ") + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    char holder[256] = {};
    const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
    ::close(fd);
    std::string who = n > 0 ? std::string(holder, static_cast<size_t>(n)) : "";
    who.erase(std::remove_if(who.begin(), who.end(), [](char c) { return c == '\n' || c == '\r'; }), who.end());
    if (error != EWOULDBLOCK)
      throw OutputError(lock_file.string(), std::string("cannot lock the output folder: ") + std::strerror(error));
    throw OutputError(csv_file, "the output folder is in use by another run" + (who.empty() ? "" : " (" + who + ")") +
                                    ": two runs writing one folder would mix their rows; give this run another "
                                    "folder, or wait for that one to end");
  }
  char text[128];
  const std::time_t now = std::time(nullptr);
  char when[32] = "";
  if (const std::tm* t = std::localtime(&now)) std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", t);
  const int length = std::snprintf(text, sizeof text, "process %ld, since %s\n", static_cast<long>(::getpid()), when);
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, text, static_cast<size_t>(std::max(length, 0)), 0) < 0) {
    // The lock holds without its note; a refused run then names no holder.
  }
  return fd;
}

}  // namespace

void Recorder::open(const std::filesystem::path& csv_file) {
  path_ = csv_file;
  if (folder_lock_ < 0) {
    const std::filesystem::path folder = csv_file.has_parent_path() ? csv_file.parent_path() : ".";
    folder_lock_ = take_folder(folder, csv_file.string());
  }
  fd_ = ::open(csv_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) throw OutputError(csv_file.string(), std::string("cannot create the file: ") + std::strerror(errno));
  std::string header = "time [s]";
  for (const auto* v : variables_) header += "," + v->name + " [" + (v->unit.empty() ? "1" : v->unit) + "]";
  append(header + "\n");
}

void Recorder::append(const std::string& text) {
  // One write() for the whole text: no buffering in between, and nothing half-written
  // left behind by a signal. Should the disk fill up part-way, the part is cut off again.
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      if (::ftruncate(fd_, written_) == 0) ::lseek(fd_, written_, SEEK_SET);
      throw OutputError(path_.string(), std::string("cannot write the file: ") + std::strerror(error) + " (it keeps the " +
                                            std::to_string(rows_) + " whole rows written before)");
    }
    done += static_cast<size_t>(n);
  }
  written_ += static_cast<long long>(text.size());
}

void Recorder::record(const Context& ctx) {
  // Every value of a recorded instant is finite, those no derivative reads included
  // (Model::derivatives leaves them to here). A point recorded without an evaluation
  // (only states recorded) has only its states to check: the recorded ones, below.
  if (needed_ != PointEvaluation::States) model_.check_finite(ctx);
  next_.assign(1, ctx.t);
  for (const auto* v : variables_) {
    const double value = model_.value(ctx, *v);
    if (!std::isfinite(value))
      throw NonFiniteError(ctx.t, {v->name.substr(0, v->name.find('.'))}, "recorded variable '" + v->name + "' is not finite (NaN or infinity)");
    next_.push_back(value);
  }
  if (fd_ >= 0) write_row();
  // Once written: a row that could not be written is neither counted nor the last one.
  last_.swap(next_);
  ++rows_;
  // After the file: a listener's failure cannot cost results.csv its row.
  for (auto* l : listeners_) l->row_recorded(ctx, last_);
}

void Recorder::write_row() {
  // Shortest text that reads back to the same double: exact and deterministic.
  line_.clear();
  char buf[32];
  for (size_t k = 0; k < next_.size(); ++k) {
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, next_[k]);
    if (k) line_ += ',';
    line_.append(buf, end);
  }
  line_ += '\n';
  append(line_);
}

}  // namespace jourdain
