// Curves and grid maps over table parameters (jourdain/components/interpolation.hpp, which
// states the formulas).
#include "jourdain/components/interpolation.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace jourdain {

namespace {

std::string format_number(double v) {
  std::ostringstream out;
  out.precision(10);
  out << v;
  return out.str();
}

}  // namespace

// ---------------------------------------------------------------- Curve

std::string Curve::check(const std::vector<std::vector<double>>& rows) {
  if (rows.size() < 2) return "needs at least two rows [x, y], got " + std::to_string(rows.size());
  for (size_t i = 1; i < rows.size(); ++i)
    if (!(rows[i][0] > rows[i - 1][0]))
      return "the first column (x) must be strictly increasing, but row " + std::to_string(i) + " has x = " +
             format_number(rows[i][0]) + " after x = " + format_number(rows[i - 1][0]) + " in row " +
             std::to_string(i - 1);
  return {};
}

Curve::Curve(const std::vector<std::vector<double>>& rows, Interpolation interpolation, Extrapolation extrapolation)
    : interpolation_(interpolation), extrapolation_(extrapolation) {
  for (const auto& r : rows) {
    x_.push_back(r[0]);
    y_.push_back(r[1]);
  }
  edges_ = interpolation == Interpolation::Nearest ? midpoints(x_) : x_;
}

size_t Curve::cell(double x) const {
  return static_cast<size_t>(std::upper_bound(edges_.begin(), edges_.end(), x) - edges_.begin());
}

double Curve::in_cell(size_t k, double x) const {
  const size_t n = x_.size();
  switch (interpolation_) {
    case Interpolation::Nearest: return y_[k];                // k breakpoints lie nearer below
    case Interpolation::Previous: return y_[k == 0 ? 0 : k - 1];  // before x_0: y_0 held
    case Interpolation::Linear: break;
  }
  if (extrapolation_ == Extrapolation::Hold) {
    if (k == 0) return y_.front();
    if (k >= n) return y_.back();
  }
  const size_t i = std::clamp<size_t>(k, 1, n - 1) - 1;  // segment [x_i, x_i+1]
  const double w = (x - x_[i]) / (x_[i + 1] - x_[i]);
  return y_[i] + w * (y_[i + 1] - y_[i]);
}

std::vector<double> midpoints(const std::vector<double>& axis) {
  std::vector<double> m;
  for (size_t i = 1; i < axis.size(); ++i) m.push_back(0.5 * (axis[i - 1] + axis[i]));
  return m;
}

// ---------------------------------------------------------------- GridMap

std::string GridMap::check(const std::vector<std::vector<double>>& rows, const std::string& x_name,
                           const std::string& y_name) {
  std::set<double> xs, ys;
  std::set<std::pair<double, double>> points;
  for (const auto& r : rows) {
    xs.insert(r[0]);
    ys.insert(r[1]);
    if (!points.emplace(r[0], r[1]).second)
      return "the point (" + format_number(r[0]) + ", " + format_number(r[1]) + ") is given twice";
  }
  if (points.size() != xs.size() * ys.size())
    return "the rows must cover a grid: every " + x_name + " with every " + y_name + " (" + std::to_string(xs.size()) +
           " " + x_name + "s × " + std::to_string(ys.size()) + " " + y_name + "s, " + std::to_string(points.size()) +
           " rows)";
  return {};
}

GridMap::GridMap(const std::vector<std::vector<double>>& rows, Extrapolation extrapolation)
    : extrapolation_(extrapolation) {
  std::set<double> xs, ys;
  std::map<std::pair<double, double>, double> points;
  for (const auto& r : rows) {
    xs.insert(r[0]);
    ys.insert(r[1]);
    points.emplace(std::make_pair(r[0], r[1]), r[2]);
  }
  x_.assign(xs.begin(), xs.end());
  y_.assign(ys.begin(), ys.end());
  z_.assign(x_.size(), std::vector<double>(y_.size()));
  for (size_t i = 0; i < x_.size(); ++i)
    for (size_t j = 0; j < y_.size(); ++j) z_[i][j] = points.at({x_[i], y_[j]});
}

double GridMap::operator()(double x, double y) const {
  const auto [i, u] = locate(x_, x);
  const auto [j, v] = locate(y_, y);
  const size_t i1 = std::min(i + 1, x_.size() - 1), j1 = std::min(j + 1, y_.size() - 1);
  return (1 - u) * ((1 - v) * z_[i][j] + v * z_[i][j1]) + u * ((1 - v) * z_[i1][j] + v * z_[i1][j1]);
}

std::pair<size_t, double> GridMap::locate(const std::vector<double>& axis, double x) const {
  if (axis.size() == 1) return {0, 0.0};
  const bool hold = extrapolation_ == Extrapolation::Hold;
  if (hold && x <= axis.front()) return {0, 0.0};
  if (hold && x >= axis.back()) return {axis.size() - 2, 1.0};
  // The cell below x, the first or the last beyond the grid (then u < 0 or u > 1).
  const size_t above = static_cast<size_t>(std::upper_bound(axis.begin(), axis.end(), x) - axis.begin());
  const size_t i = std::clamp<size_t>(above, 1, axis.size() - 1) - 1;
  return {i, (x - axis[i]) / (axis[i + 1] - axis[i])};
}

}  // namespace jourdain
