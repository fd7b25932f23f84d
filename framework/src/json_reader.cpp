// Reading netlist JSON with bounded nesting and no duplicate keys (json_reader.hpp).
#include "json_reader.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>
#include <vector>

#include "jourdain/errors.hpp"
#include "jourdain/netlist.hpp"

namespace jourdain::json_reader {

namespace {

using nlohmann::json;

// Line and column (from 1) of the character at `offset` in `text`.
std::string line_and_column(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const auto begin = text.begin(), at = begin + static_cast<std::ptrdiff_t>(offset);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(begin, at, '\n'));
  const auto line_start = std::find(std::make_reverse_iterator(at), text.rend(), '\n').base();
  return "line " + std::to_string(line) + ", column " + std::to_string(at - line_start + 1);
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

// Builds the document from the parser's events, refusing what json_reader.hpp says.
class DocumentBuilder final : public nlohmann::json_sax<json> {
 public:
  DocumentBuilder(const std::string& text, const std::string& file, const std::size_t& taken)
      : text_(text), file_(file), taken_(taken) {}

  json take() { return std::move(root_); }

  bool null() override { return add(nullptr); }
  bool boolean(bool value) override { return add(value); }
  bool number_integer(number_integer_t value) override { return add(value); }
  bool number_unsigned(number_unsigned_t value) override { return add(value); }
  bool number_float(number_float_t value, const string_t&) override { return add(value); }
  bool string(string_t& value) override { return add(std::move(value)); }
  bool binary(binary_t& value) override { return add(std::move(value)); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
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
    object.key = std::move(name);
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
    json* node;
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

  // Puts `value` where the parser is: the root, the next element of an array, or the
  // value of the key just read. Pointers to open containers stay valid: a container
  // grows only once its open child is closed.
  json* place(json&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    json& parent = *open_.back().node;
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    json& slot = parent[open_.back().key];
    slot = std::move(value);
    return &slot;
  }
  bool add(json&& value) {
    place(std::move(value));
    return true;
  }
  bool open(json&& container) {
    if (open_.size() >= static_cast<std::size_t>(kMaxJsonDepth))
      throw InputError({file_, "", "", ""}, "objects and arrays nested more than " + std::to_string(kMaxJsonDepth) +
                                                " levels deep at " + line_and_column(text_, taken_ > 0 ? taken_ - 1 : 0) +
                                                ": the limit for netlist files (no netlist needs that many)");
    open_.push_back({place(std::move(container)), "", {}});
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  const std::string& text_;
  const std::string& file_;
  const std::size_t& taken_;
  json root_;
  std::vector<Container> open_;
};

json build(const std::string& text, const std::string& file, bool comments) {
  std::size_t taken = 0;
  DocumentBuilder builder(text, file, taken);
  CountingIterator first(text.data(), &taken), last(text.data() + text.size(), &taken);
  json::sax_parse(first, last, &builder, nlohmann::json::input_format_t::json, /*strict=*/true, comments);
  return builder.take();
}

}  // namespace

json parse(const std::string& text, const std::string& file) { return build(text, file, /*comments=*/true); }

std::optional<json> try_parse_value(const std::string& text) {
  try {
    return build(text, "", /*comments=*/false);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

}  // namespace jourdain::json_reader
