// Piecewise-linear interpolation through (x_i, y_i), shared by signal.table and
// signal.time_table.
//
// Inside [x_0, x_n-1], on the segment x_i <= x <= x_i+1:
//     y = y_i + (y_i+1 - y_i) (x - x_i) / (x_i+1 - x_i)
// Outside it, "hold" keeps the end value (y_0 or y_n-1) and "linear" extends the end
// segment's straight line.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "signal_library.hpp"

namespace jourdain::signal_library {

class PiecewiseLinear {
 public:
  enum class Extrapolation { Hold, Linear };

  PiecewiseLinear() = default;
  PiecewiseLinear(std::vector<double> x, std::vector<double> y, Extrapolation e)
      : x_(std::move(x)), y_(std::move(y)), extrapolation_(e) {}

  // Empty when the rows make a valid table; otherwise why not, for a parameter_error.
  // Rows are {x, y}; at least two, with x strictly increasing.
  static std::string check(const std::vector<std::vector<double>>& rows) {
    if (rows.size() < 2) return "needs at least two rows [x, y], got " + std::to_string(rows.size());
    for (size_t i = 1; i < rows.size(); ++i) {
      if (!(rows[i][0] > rows[i - 1][0]))
        return "the first column (x) must be strictly increasing, but row " + std::to_string(i) + " has x = " +
               format_number(rows[i][0]) + " after x = " + format_number(rows[i - 1][0]) + " in row " + std::to_string(i - 1);
    }
    return {};
  }

  static PiecewiseLinear from_rows(const std::vector<std::vector<double>>& rows, Extrapolation e) {
    std::vector<double> x, y;
    for (const auto& r : rows) {
      x.push_back(r[0]);
      y.push_back(r[1]);
    }
    return PiecewiseLinear(std::move(x), std::move(y), e);
  }

  static Extrapolation extrapolation_from(const std::string& name) {
    return name == "linear" ? Extrapolation::Linear : Extrapolation::Hold;
  }

  size_t size() const { return x_.size(); }
  double x(size_t i) const { return x_[i]; }

  // Number of breakpoints x_i <= x: 0 before the table, size() after its last row.
  size_t passed(double x) const {
    return static_cast<size_t>(std::upper_bound(x_.begin(), x_.end(), x) - x_.begin());
  }

  // The formula that holds after `k` breakpoints have been passed, evaluated at x (also
  // beyond that interval: a solver's trial point may lie past the next breakpoint).
  double on_segment(size_t k, double x) const {
    const size_t n = x_.size();
    if (extrapolation_ == Extrapolation::Hold) {
      if (k == 0) return y_.front();
      if (k >= n) return y_.back();
    }
    const size_t i = std::clamp<size_t>(k, 1, n - 1) - 1;  // segment [x_i, x_i+1]
    const double w = (x - x_[i]) / (x_[i + 1] - x_[i]);
    return y_[i] + w * (y_[i + 1] - y_[i]);
  }

  double operator()(double x) const { return on_segment(passed(x), x); }

 private:
  std::vector<double> x_, y_;
  Extrapolation extrapolation_ = Extrapolation::Hold;
};

// Base of the components that interpolate in a table of rows [x, y]: both parameters
// ("table", "extrapolation") declared once, checked and loaded into curve_.
class CurveComponent : public Component {
 protected:
  // `x_unit`: unit of the first column ("" for a signal, "s" for time).
  explicit CurveComponent(const std::string& x_unit) {
    declare_table("table", {x_unit, ""}, std::string("rows [") + (x_unit == "s" ? "t" : "x") + ", y], strictly increasing");
    declare_text("extrapolation", "hold", "outside the table: hold the end value or extend the end segment",
                 {"hold", "linear"});
  }
  // Call from configure(): checks the rows (a parameter_error otherwise) and loads them.
  void load_curve() {
    const auto rows = table("table");
    if (std::string why = PiecewiseLinear::check(rows); !why.empty()) parameter_error("table", why);
    curve_ = PiecewiseLinear::from_rows(rows, PiecewiseLinear::extrapolation_from(text("extrapolation")));
  }

  PiecewiseLinear curve_;
};

}  // namespace jourdain::signal_library
