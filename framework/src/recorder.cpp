// results.csv writer (recorder.hpp).
#include "jourdain/recorder.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>

namespace jourdain {

Recorder::Recorder(const Model& model, const std::vector<std::string>& variables) : model_(model) {
  for (const auto& name : variables) variables_.push_back(&model.recordable(name));
}

Recorder::~Recorder() {
  if (file_) std::fclose(file_);
}

void Recorder::open(const std::filesystem::path& csv_file) {
  file_ = std::fopen(csv_file.c_str(), "w");
  if (!file_) throw Error("cannot write " + csv_file.string() + ": " + std::strerror(errno));
  std::string header = "time [s]";
  for (const auto* v : variables_) header += "," + v->name + " [" + (v->unit.empty() ? "1" : v->unit) + "]";
  header += "\n";
  std::fputs(header.c_str(), file_);
  std::fflush(file_);
}

void Recorder::record(const Context& ctx) {
  last_.assign(1, ctx.t);
  for (const auto* v : variables_) last_.push_back(model_.value(ctx, *v));
  ++rows_;
  if (file_) write_row();
  // After the file: a listener's failure cannot cost results.csv its row.
  for (auto* l : listeners_) l->row_recorded(ctx, last_);
}

void Recorder::write_row() {
  // Shortest text that reads back to the same double: exact and deterministic.
  line_.clear();
  char buf[32];
  for (size_t k = 0; k < last_.size(); ++k) {
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, last_[k]);
    if (k) line_ += ',';
    line_.append(buf, end);
  }
  line_ += '\n';
  std::fputs(line_.c_str(), file_);
  std::fflush(file_);
}

}  // namespace jourdain
