// Piecewise-linear curve of the electrical library (electrical_library.hpp, Curve): on
// the segment x_i <= x <= x_i+1,
//     y = y_i + (y_i+1 − y_i) (x − x_i) / (x_i+1 − x_i),
// and y_0 before the first row, y_n−1 after the last.
#include <algorithm>
#include <sstream>

#include "electrical_library.hpp"

namespace jourdain::electrical_library {

namespace {

std::string format_number(double v) {
  std::ostringstream out;
  out.precision(10);
  out << v;
  return out.str();
}

}  // namespace

std::string Curve::check(const std::vector<std::vector<double>>& rows) {
  if (rows.size() < 2) return "needs at least two rows [x, y], got " + std::to_string(rows.size());
  for (size_t i = 1; i < rows.size(); ++i)
    if (!(rows[i][0] > rows[i - 1][0]))
      return "the first column must be strictly increasing, but row " + std::to_string(i) + " has " +
             format_number(rows[i][0]) + " after " + format_number(rows[i - 1][0]);
  return {};
}

Curve::Curve(const std::vector<std::vector<double>>& rows) {
  for (const auto& r : rows) {
    x_.push_back(r[0]);
    y_.push_back(r[1]);
  }
}

double Curve::operator()(double x) const {
  if (x <= x_.front()) return y_.front();
  if (x >= x_.back()) return y_.back();
  const size_t i = static_cast<size_t>(std::upper_bound(x_.begin(), x_.end(), x) - x_.begin()) - 1;
  const double w = (x - x_[i]) / (x_[i + 1] - x_[i]);
  return y_[i] + w * (y_[i + 1] - y_[i]);
}

double Curve::slope(double x) const {
  if (x <= x_.front() || x >= x_.back()) return 0.0;
  const size_t i = static_cast<size_t>(std::upper_bound(x_.begin(), x_.end(), x) - x_.begin()) - 1;
  return (y_[i + 1] - y_[i]) / (x_[i + 1] - x_[i]);
}

}  // namespace jourdain::electrical_library
