// Reading netlist JSON with bounded nesting and no duplicate keys (json_reader.hpp).
#include "json_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <iterator>
#include <map>
#include <vector>

#include "jourdain/errors.hpp"
#include "jourdain/netlist.hpp"

namespace jourdain::json_reader {

namespace {

using nlohmann::json;

std::string line_and_column(const std::string& text, std::size_t offset) {
  const auto [line, column] = position_of(text, offset);
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// An input iterator over the text that counts the characters the parser has taken, so
// that the builder knows where a key was read (nlohmann's SAX interface gives positions
// to errors only).
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* at, std::size_t* taken) : at_(at), taken_(taken) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    ++at_;
    ++*taken_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const CountingIterator& other) const { return at_ == other.at_; }
  bool operator!=(const CountingIterator& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  std::size_t* taken_;
};

// Builds the document from the parser's events, refusing what json_reader.hpp says; with
// a SourceMap, notes where each value was read and how each fractional number was spelt.
template <class Json>
class DocumentBuilder final : public nlohmann::json_sax<Json> {
 public:
  using typename nlohmann::json_sax<Json>::number_integer_t;
  using typename nlohmann::json_sax<Json>::number_unsigned_t;
  using typename nlohmann::json_sax<Json>::number_float_t;
  using typename nlohmann::json_sax<Json>::string_t;
  using typename nlohmann::json_sax<Json>::binary_t;

  DocumentBuilder(const std::string& text, const std::string& file, const std::size_t& taken, SourceMap* map)
      : text_(text), file_(file), taken_(taken), map_(map) {}

  Json take() { return std::move(root_); }

  bool null() override { return add(nullptr); }
  bool boolean(bool value) override { return add(value); }
  bool number_integer(number_integer_t value) override { return add(value); }
  bool number_unsigned(number_unsigned_t value) override { return add(value); }
  bool number_float(number_float_t value, const string_t& spelt) override {
    if (map_) map_->number_texts[path_of_next()] = spelt;
    return add(value);
  }
  bool string(string_t& value) override { return add(std::move(value)); }
  bool binary(binary_t& value) override { return add(std::move(value)); }
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& name) override {
    Container& object = open_.back();
    // The parser has just read the key's closing quote.
    if (auto [first, fresh] = object.key_offsets.emplace(name, taken_); !fresh)
      throw InputError({file_, json_check::pointer(path(), name), "", ""},
                       "the key '" + name + "' is given twice in this object, at " + line_and_column(text_, first->second) +
                           " and at " + line_and_column(text_, taken_) +
                           "; name each key once (only one of the two values could be used)");
    // The parser stands past the closing quote: the key starts at its opening one (a key
    // written with escapes starts a little earlier still: the line is right).
    const std::size_t key_start = taken_ >= name.size() + 2 ? taken_ - name.size() - 2 : 0;
    object.key = std::move(name);
    if (map_) map_->offsets[path_of_next()] = key_start;
    last_end_ = taken_;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& error) override {
    // nlohmann's text starts "[json.exception.parse_error.101] parse error at line 1, column 5: ..."
    // (or "...out_of_range.406] number overflow ..."): keep what follows its own position.
    std::string what = error.what();
    if (auto colon = what.find(": ", what.find("parse error")); what.find("parse error") != std::string::npos &&
                                                                colon != std::string::npos)
      what = what.substr(colon + 2);
    else if (auto bracket = what.find("] "); bracket != std::string::npos)
      what = what.substr(bracket + 2);
    throw InputError({file_, "", "", ""}, "malformed JSON at " + line_and_column(text_, position > 0 ? position - 1 : 0) +
                                              ": " + what);
  }

 private:
  struct Container {
    Json* node;
    std::string key;                                 // an object's key being read
    std::map<std::string, std::size_t> key_offsets;  // an object's keys so far, where each was read
  };

  // The JSON path of the innermost open container.
  std::string path() const {
    std::string out;
    for (std::size_t i = 1; i < open_.size(); ++i) {
      const Container& parent = open_[i - 1];
      out = json_check::pointer(out, parent.node->is_array() ? std::to_string(parent.node->size() - 1) : parent.key);
    }
    return out;
  }
  // The JSON path the next value read will have.
  std::string path_of_next() const {
    if (open_.empty()) return "";
    const Container& parent = open_.back();
    return json_check::pointer(path(), parent.node->is_array() ? std::to_string(parent.node->size()) : parent.key);
  }

  // Puts `value` where the parser is: the root, the next element of an array, or the
  // value of the key just read. Pointers to open containers stay valid: a container
  // grows only once its open child is closed.
  Json* place(Json&& value) {
    // An array's element is located where it starts (past the separator that follows the
    // previous event); an object's member at its key.
    if (map_ && !open_.empty() && open_.back().node->is_array()) {
      std::size_t start = last_end_;
      while (start < text_.size() && (std::isspace(static_cast<unsigned char>(text_[start])) || text_[start] == ','))
        ++start;
      map_->offsets[path_of_next()] = start;
    }
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& parent = *open_.back().node;
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    Json& slot = parent[open_.back().key];
    slot = std::move(value);
    return &slot;
  }
  bool add(Json&& value) {
    place(std::move(value));
    last_end_ = taken_;
    return true;
  }
  bool open(Json&& container) {
    if (open_.size() >= static_cast<std::size_t>(kMaxJsonDepth))
      throw InputError({file_, "", "", ""}, "objects and arrays nested more than " + std::to_string(kMaxJsonDepth) +
                                                " levels deep at " + line_and_column(text_, taken_ > 0 ? taken_ - 1 : 0) +
                                                ": the limit for netlist files (no netlist needs that many)");
    open_.push_back({place(std::move(container)), "", {}});
    last_end_ = taken_;
    return true;
  }
  bool close() {
    open_.pop_back();
    last_end_ = taken_;
    return true;
  }

  const std::string& text_;
  const std::string& file_;
  const std::size_t& taken_;
  SourceMap* map_;
  std::size_t last_end_ = 0;  // where the parser stood after the previous event
  Json root_;
  std::vector<Container> open_;
};

template <class Json>
Json build(const std::string& text, const std::string& file, bool comments, SourceMap* map = nullptr) {
  std::size_t taken = 0;
  DocumentBuilder<Json> builder(text, file, taken, map);
  CountingIterator first(text.data(), &taken), last(text.data() + text.size(), &taken);
  Json::sax_parse(first, last, &builder, nlohmann::json::input_format_t::json, /*strict=*/true, comments);
  return builder.take();
}

}  // namespace

std::pair<int, int> position_of(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const auto begin = text.begin(), at = begin + static_cast<std::ptrdiff_t>(offset);
  const auto line = 1 + std::count(begin, at, '\n');
  const auto line_start = std::find(std::make_reverse_iterator(at), text.rend(), '\n').base();
  return {static_cast<int>(line), static_cast<int>(at - line_start + 1)};
}

nlohmann::ordered_json parse_document(const std::string& text, const std::string& file, SourceMap& map) {
  auto document = build<nlohmann::ordered_json>(text, file, /*comments=*/true, &map);
  // Written with comments: parsing it again without them fails (and costs a second pass
  // only for such files, which are rare).
  try {
    SourceMap unused;
    build<nlohmann::ordered_json>(text, file, /*comments=*/false, &unused);
  } catch (const InputError&) {
    map.has_comments = true;
  }
  return document;
}

json parse(const std::string& text, const std::string& file) { return build<json>(text, file, /*comments=*/true); }

std::optional<json> try_parse_value(const std::string& text) {
  try {
    return build<json>(text, "", /*comments=*/false);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

}  // namespace jourdain::json_reader
