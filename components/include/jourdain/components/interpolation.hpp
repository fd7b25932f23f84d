// Interpolation in the tables a component takes as parameters, shared by the libraries
// (components/interpolation.cpp):
//
//   Curve    rows [x, y], x strictly increasing; on the segment x_i <= x <= x_i+1
//              y = y_i + (y_i+1 − y_i) (x − x_i) / (x_i+1 − x_i),
//            y_0 before the first row, y_n−1 after the last (a battery's open-circuit
//            voltage over its state of charge, a machine's or an engine's torque limit);
//   GridMap  rows [x, y, z], one per point of a rectangular grid (every x with every y,
//            in any order); bilinear in the cell x_i <= x <= x_i+1, y_j <= y <= y_j+1
//              z = (1 − u) ((1 − v) z_ij + v z_i,j+1) + u ((1 − v) z_i+1,j + v z_i+1,j+1),
//              u = (x − x_i) / (x_i+1 − x_i),  v = (y − y_j) / (y_j+1 − y_j),
//            and held at the edges beyond the grid (u or v clamped to 0 or 1): a map over
//            speed and torque (a machine's efficiency, an engine's fuel flow).
// Each has a check() that says, in words for a parameter_error, why rows do not make
// one; construct from rows only once they pass it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace jourdain {

class Curve {
 public:
  Curve() = default;
  // Empty when the rows make a curve; otherwise why not, for a parameter_error.
  static std::string check(const std::vector<std::vector<double>>& rows);
  explicit Curve(const std::vector<std::vector<double>>& rows);
  double operator()(double x) const;

 private:
  std::vector<double> x_, y_;
};

class GridMap {
 public:
  GridMap() = default;
  // Empty when the rows cover a grid (no point given twice, none missing); otherwise why
  // not, for a parameter_error, naming the axes as `x_name` and `y_name` ("speed").
  static std::string check(const std::vector<std::vector<double>>& rows, const std::string& x_name,
                           const std::string& y_name);
  explicit GridMap(const std::vector<std::vector<double>>& rows);
  double operator()(double x, double y) const;

  // The grid's axes, increasing, and its value at their points i, j.
  const std::vector<double>& x() const { return x_; }
  const std::vector<double>& y() const { return y_; }
  double z(size_t i, size_t j) const { return z_[i][j]; }

 private:
  // The cell holding x and the weight of its upper end (0 or 1 beyond the grid).
  static std::pair<size_t, double> locate(const std::vector<double>& axis, double x);

  std::vector<double> x_, y_;
  std::vector<std::vector<double>> z_;
};

}  // namespace jourdain
