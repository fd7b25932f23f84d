// The netlist document and its canonical text (document.hpp).
#include "jourdain/document.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "json_reader.hpp"
#include "netlist_files.hpp"

namespace jourdain {

using nlohmann::ordered_json;

NetlistDocument NetlistDocument::parse(const std::string& text, const std::filesystem::path& file) {
  json_reader::SourceMap map;
  NetlistDocument doc;
  doc.file_ = file;
  doc.source_ = text;
  doc.root_ = json_reader::parse_document(text, file.string(), map);
  doc.number_texts_ = std::move(map.number_texts);
  doc.has_comments_ = map.has_comments;
  // Offsets to lines and columns in one pass over the text, in the order of the offsets.
  std::vector<std::pair<std::size_t, const std::string*>> by_offset;
  by_offset.reserve(map.offsets.size());
  for (const auto& [path, offset] : map.offsets) by_offset.emplace_back(offset, &path);
  std::sort(by_offset.begin(), by_offset.end());
  int line = 1, column = 1;
  std::size_t at = 0;
  for (const auto& [offset, path] : by_offset) {
    for (; at < offset && at < text.size(); ++at) {
      if (text[at] == '\n') ++line, column = 1;
      else if ((static_cast<unsigned char>(text[at]) & 0xC0) != 0x80) ++column;  // UTF-8: count characters
    }
    doc.positions_.emplace(*path, std::make_pair(line, column));
  }
  return doc;
}

NetlistDocument NetlistDocument::read(const std::filesystem::path& file) {
  return parse(netlist_levels::read_text(file), file);
}

std::pair<int, int> NetlistDocument::position(const std::string& json_path) const {
  std::string path = json_path;
  while (!path.empty()) {
    if (auto it = positions_.find(path); it != positions_.end()) return it->second;
    path.erase(path.rfind('/'));
  }
  return {0, 0};
}

namespace {

constexpr std::size_t kWidth = 100;  // columns a container written on one line may reach

class CanonicalWriter {
 public:
  explicit CanonicalWriter(const std::map<std::string, std::string>& number_texts) : number_texts_(number_texts) {}

  void write(const ordered_json& value, const std::string& path, std::size_t indent, std::size_t column,
             std::string& out) const {
    if (!value.is_structured() || value.empty()) {
      out += one_line(value, path);
      return;
    }
    if (!path.empty()) {  // the root is always laid out, one section a line
      const std::string line = one_line(value, path);
      if (column + line.size() <= kWidth) {
        out += line;
        return;
      }
    }
    const bool object = value.is_object();
    const std::string inner(indent + 2, ' ');
    out += object ? "{\n" : "[\n";
    std::size_t k = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++k) {
      out += inner;
      std::string child = path + "/";
      if (object) {
        const std::string key = ordered_json(it.key()).dump(-1, ' ', false) + ": ";
        out += key;
        child = pointer(path, it.key());
        write(*it, child, indent + 2, inner.size() + key.size(), out);
      } else {
        child += std::to_string(k);
        write(*it, child, indent + 2, inner.size(), out);
      }
      out += k + 1 < value.size() ? ",\n" : "\n";
    }
    out += std::string(indent, ' ') + (object ? "}" : "]");
  }

 private:
  static std::string pointer(const std::string& parent, const std::string& key) {
    std::string escaped;
    for (char c : key) escaped += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    return parent + "/" + escaped;
  }

  // {"a": 1, "b": [2, 3]}: a value on one line, with a space after each ',' and ':'.
  std::string one_line(const ordered_json& value, const std::string& path) const {
    if (value.is_number_float()) {
      // The spelling the file used, while the value is still the one it spells.
      if (auto it = number_texts_.find(path); it != number_texts_.end())
        if (std::strtod(it->second.c_str(), nullptr) == value.get<double>()) return it->second;
      return value.dump();
    }
    if (!value.is_structured()) return value.dump(-1, ' ', false);
    const bool object = value.is_object();
    std::string out = object ? "{" : "[";
    std::size_t k = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++k) {
      if (k > 0) out += ", ";
      if (object) {
        out += ordered_json(it.key()).dump(-1, ' ', false) + ": ";
        out += one_line(*it, pointer(path, it.key()));
      } else {
        out += one_line(*it, path + "/" + std::to_string(k));
      }
    }
    return out + (object ? "}" : "]");
  }

  const std::map<std::string, std::string>& number_texts_;
};

}  // namespace

std::string NetlistDocument::text() const {
  std::string out;
  CanonicalWriter(number_texts_).write(root_, "", 0, 0, out);
  return out + "\n";
}

}  // namespace jourdain
