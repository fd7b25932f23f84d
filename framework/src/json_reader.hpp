// Reading netlist JSON from text someone else may have written: a JSON document built by
// nlohmann's SAX parser with limits that a hostile or broken file cannot get around.
//
// - Nesting is bounded (kMaxJsonDepth): nlohmann's DOM copy and comparison recurse once
//   per level, so 10^5 nested objects (600 KB of text) would overflow the stack later, in
//   code that never expects it. No netlist needs more than a dozen levels.
// - A key given twice in one object is an error naming the key, the object's JSON path
//   and both lines: the parser's default (the last one wins) let a second "solver" object
//   switch a run's method without a word.
// - Errors carry line and column, not a byte offset.
// Internal to the framework library.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace jourdain::json_reader {

// Objects and arrays nested deeper than this are refused.
inline constexpr int kMaxJsonDepth = 100;

// Parses `text` (comments allowed) into a document; throws InputError located in `file`.
nlohmann::json parse(const std::string& text, const std::string& file);

// Where a document's values were read, for its diagnostics and its canonical text.
struct SourceMap {
  std::map<std::string, std::size_t> offsets;       // JSON path → offset of its key, or of an array element
  std::map<std::string, std::string> number_texts;  // JSON path → a fractional number as written ("1e-3")
  bool has_comments = false;
};

// The same, keeping the order of keys and filling `map` (jourdain::NetlistDocument).
nlohmann::ordered_json parse_document(const std::string& text, const std::string& file, SourceMap& map);

// Line and column (from 1) of the character at `offset` in `text`.
std::pair<int, int> position_of(const std::string& text, std::size_t offset);

// The same for a short value given on the command line (--set comp.param=VALUE): the
// document, or nothing when `text` is not JSON (then it is taken as a string: "250 bar").
std::optional<nlohmann::json> try_parse_value(const std::string& text);

}  // namespace jourdain::json_reader
