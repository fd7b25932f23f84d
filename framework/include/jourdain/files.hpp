// Files that are replaced whole or not at all.
//
// What a command writes (an FMU, a schema, summary.json, report.html) goes first to a
// file of its own beside the target, created for this write alone, and is renamed onto
// the target when it is complete (rename() within one folder is atomic). A write that
// fails part-way (a full disk, a file-size limit, a signal) leaves the target as it was
// and removes only the partial file it made: never anything it did not create.
#pragma once

#include <filesystem>

namespace jourdain {

class ReplacingFile {
 public:
  // Creates the partial file beside `target` (".NAME.XXXXXXXX.part"). Throws OutputError
  // naming the target when the folder cannot take it.
  explicit ReplacingFile(std::filesystem::path target);
  ~ReplacingFile();  // not committed: the partial file is removed, the target untouched
  ReplacingFile(const ReplacingFile&) = delete;
  ReplacingFile& operator=(const ReplacingFile&) = delete;

  const std::filesystem::path& target() const { return target_; }
  // Where to write, by name (a library that opens files itself, such as minizip's).
  const std::filesystem::path& partial() const { return partial_; }
  // Renames the partial file onto the target. Throws OutputError.
  void commit();

 private:
  std::filesystem::path target_, partial_;
};

}  // namespace jourdain
