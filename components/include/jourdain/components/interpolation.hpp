// Interpolation in the tables a component takes as parameters, shared by the libraries
// (components/interpolation.cpp):
//
//   Curve    rows [x, y], x strictly increasing. Interpolated
//              linearly:  y = y_i + (y_i+1 − y_i) (x − x_i) / (x_i+1 − x_i)
//                         on the segment x_i <= x <= x_i+1 (the default);
//              previous:  y = y_i for x_i <= x < x_i+1 (a staircase: each value held
//                         until the next breakpoint);
//              nearest:   y = y_i of the breakpoint nearest to x (the steps halfway
//                         between breakpoints, a tie going to the upper one);
//            and beyond the ends, y_0 before the first row and y_n−1 after the last
//            ("hold", the default: a battery's open-circuit voltage over its state of
//            charge, a machine's or an engine's torque limit) or, for linear
//            interpolation, the end segments' lines extended ("linear");
//   GridMap  rows [x, y, z], one per point of a rectangular grid (every x with every y,
//            in any order); bilinear in the cell x_i <= x <= x_i+1, y_j <= y <= y_j+1
//              z = (1 − u) ((1 − v) z_ij + v z_i,j+1) + u ((1 − v) z_i+1,j + v z_i+1,j+1),
//              u = (x − x_i) / (x_i+1 − x_i),  v = (y − y_j) / (y_j+1 − y_j),
//            and beyond the grid held at the edges (u or v clamped to 0 or 1, the
//            default: a map over speed and torque, a machine's efficiency, an engine's
//            fuel flow) or extended linearly from the edge cells (u, v not clamped).
// Each has a check() that says, in words for a parameter_error, why rows do not make
// one; construct from rows only once they pass it.
//
// Cells. A curve's formula changes at its *edges*: the breakpoints (linear, previous) or
// the midpoints between them (nearest). Cell k is edge_k−1 <= x < edge_k (cell 0 lies
// below the first edge, the last cell from the last edge on). A component that follows
// its input across cells with events (a staircase's jumps; a time table's breakpoints)
// keeps the cell as a discrete state and evaluates in_cell(k, x), the formula of cell k,
// which holds also beyond the cell: a solver's trial point may lie past the next edge.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace jourdain {

class Curve {
 public:
  enum class Interpolation { Linear, Previous, Nearest };
  enum class Extrapolation { Hold, Linear };  // Linear: for linear interpolation only

  Curve() = default;
  // Empty when the rows make a curve; otherwise why not, for a parameter_error.
  static std::string check(const std::vector<std::vector<double>>& rows);
  explicit Curve(const std::vector<std::vector<double>>& rows, Interpolation interpolation = Interpolation::Linear,
                 Extrapolation extrapolation = Extrapolation::Hold);
  double operator()(double x) const { return in_cell(cell(x), x); }

  size_t size() const { return x_.size(); }
  double x(size_t i) const { return x_[i]; }
  double y(size_t i) const { return y_[i]; }
  Interpolation interpolation() const { return interpolation_; }

  // Where the formula changes, increasing (file comment, "Cells").
  const std::vector<double>& edges() const { return edges_; }
  // The cell x lies in: the number of edges <= x.
  size_t cell(double x) const;
  // The formula of cell k, evaluated at x (also beyond the cell).
  double in_cell(size_t k, double x) const;

 private:
  std::vector<double> x_, y_, edges_;
  Interpolation interpolation_ = Interpolation::Linear;
  Extrapolation extrapolation_ = Extrapolation::Hold;
};

// The points halfway between neighbours of an increasing axis: where nearest-neighbour
// interpolation steps.
std::vector<double> midpoints(const std::vector<double>& axis);

class GridMap {
 public:
  enum class Extrapolation { Hold, Linear };

  GridMap() = default;
  // Empty when the rows cover a grid (no point given twice, none missing); otherwise why
  // not, for a parameter_error, naming the axes as `x_name` and `y_name` ("speed").
  static std::string check(const std::vector<std::vector<double>>& rows, const std::string& x_name,
                           const std::string& y_name);
  explicit GridMap(const std::vector<std::vector<double>>& rows, Extrapolation extrapolation = Extrapolation::Hold);
  double operator()(double x, double y) const;

  // The grid's axes, increasing, and its value at their points i, j.
  const std::vector<double>& x() const { return x_; }
  const std::vector<double>& y() const { return y_; }
  double z(size_t i, size_t j) const { return z_[i][j]; }

 private:
  // The cell holding x and the weight of its upper end (held to 0 or 1 beyond the grid
  // unless extrapolating linearly).
  std::pair<size_t, double> locate(const std::vector<double>& axis, double x) const;

  std::vector<double> x_, y_;
  std::vector<std::vector<double>> z_;
  Extrapolation extrapolation_ = Extrapolation::Hold;
};

}  // namespace jourdain
