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

GridMap::GridMap(const std::vector<std::vector<double>>& rows) {
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

std::pair<size_t, double> GridMap::locate(const std::vector<double>& axis, double x) {
  if (axis.size() == 1 || x <= axis.front()) return {0, 0.0};
  if (x >= axis.back()) return {axis.size() - 2, 1.0};
  const size_t i = static_cast<size_t>(std::upper_bound(axis.begin(), axis.end(), x) - axis.begin()) - 1;
  return {i, (x - axis[i]) / (axis[i + 1] - axis[i])};
}

}  // namespace jourdain
