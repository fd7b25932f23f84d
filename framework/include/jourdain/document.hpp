// The netlist as a document: the first of loading's three stages (document → flat
// netlist → model, framework/README.md).
//
// A document is the file's JSON as written: its keys in their order, every value with
// the line and column it was read at, every fractional number with its spelling ("1e-3"
// stays 1e-3), and the sections the solver does not read (`layout`, `description`, the
// unknown keys inside layout entries an editor may keep there). Tools edit it and save it
// back in one canonical text (`jourdain format`): the file's key order, two spaces of
// indentation, a container on one line when it fits in 100 columns. Saving is
// idempotent, and load → save → load gives the same model.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace jourdain {

class NetlistDocument {
 public:
  // Parses `text` (the contents of `file`); throws InputError when it is no JSON, or
  // nests too deep, or gives a key twice (json_reader's rules, the loader's).
  static NetlistDocument parse(const std::string& text, const std::filesystem::path& file);
  // Reads and parses `file` (a regular file of at most 64 MiB, as a netlist).
  static NetlistDocument read(const std::filesystem::path& file);

  const std::filesystem::path& file() const { return file_; }
  const nlohmann::ordered_json& root() const { return root_; }
  nlohmann::ordered_json& root() { return root_; }
  // Whether the text had comments (the canonical text cannot keep them).
  bool has_comments() const { return has_comments_; }

  // {line, column} (from 1) where the value at `json_path` was written; for a path the
  // text does not have, the nearest enclosing value's; {0, 0} for the root or nothing.
  std::pair<int, int> position(const std::string& json_path) const;

  // The canonical text (ends with a line break).
  std::string text() const;
  // The text it was parsed from.
  const std::string& source() const { return source_; }

 private:
  std::filesystem::path file_;
  std::string source_;
  nlohmann::ordered_json root_;
  std::map<std::string, std::pair<int, int>> positions_;  // JSON path → {line, column}
  std::map<std::string, std::string> number_texts_;       // JSON path → a number as written
  bool has_comments_ = false;
};

}  // namespace jourdain
