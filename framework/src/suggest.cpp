// "Did you mean" (suggest.hpp).
#include "jourdain/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace jourdain {

namespace {

// Levenshtein distance, one row of the table at a time, in thirds of an edit: an
// insertion, a deletion or a substitution costs 3, a letter in the other case 1, so that
// "RPM" finds "rpm" before "Pa" and "KPA" finds "kPa".
constexpr size_t kEdit = 3, kCaseOnly = 1;

size_t edit_distance(const std::string& a, const std::string& b) {
  auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j * kEdit;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i * kEdit;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const char x = a[i - 1], y = b[j - 1];
      const size_t change = x == y ? 0 : lower(x) == lower(y) ? kCaseOnly : kEdit;
      row[j] = std::min({row[j] + kEdit, row[j - 1] + kEdit, diagonal + change});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  // At most a third of the name's letters wrong (two edits for short names); letters in
  // the other case count a third of an edit each.
  size_t best_distance = (std::max<size_t>(2, name.size() / 3) + 1) * kEdit;
  for (const auto& c : candidates)
    if (const size_t d = edit_distance(name, c); d < best_distance) best_distance = d, best = c;
  return best;
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  const std::string best = closest_name(name, candidates);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

std::string comma_list(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace jourdain
