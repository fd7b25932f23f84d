// The table parameters of signal.table and signal.time_table: rows [x, y] interpolated by
// the shared Curve (jourdain/components/interpolation.hpp, which states the formulas),
// linearly, as a staircase ("previous") or to the nearest breakpoint, and beyond the
// ends held or extended.
#pragma once

#include <string>
#include <vector>

#include "jourdain/components/interpolation.hpp"
#include "block.hpp"

namespace jourdain::signal_library {

// Base of the components that interpolate in a table of rows [x, y]: the parameters
// ("table", "interpolation", "extrapolation") declared once, checked and loaded into
// curve_.
class CurveComponent : public SignalBlock {
 protected:
  // `x_unit`: unit of the first column ("" for a signal, "s" for time). `extrapolations`:
  // the choices beyond the table, the first the default; "hold" and "linear" are the
  // Curve's, any other is the component's own (kept in extrapolation_).
  CurveComponent(const std::string& x_unit, std::vector<std::string> extrapolations) {
    const std::string x = x_unit == "s" ? "t" : "x";
    declare_table("table", {x_unit, ""}, "rows [" + x + ", y], strictly increasing");
    declare_text("interpolation", "linear",
                 "between rows: linear, previous (y_i held until the next row: a staircase) or nearest (y of the "
                 "nearest row); the steps of the last two are events",
                 {"linear", "previous", "nearest"});
    std::string description = "outside the table: hold the end value, extend the end segment (linear interpolation)";
    for (const auto& e : extrapolations) {
      if (e == "error") description += ", end the run with an error as the input leaves the table";
      if (e == "warn") description += ", hold the end value with a warning each time the input leaves the table";
    }
    declare_text("extrapolation", extrapolations.front(), description, extrapolations);
  }
  // Call from configure(): checks the parameters (a parameter_error otherwise) and loads
  // the curve.
  void load_curve() {
    const auto rows = table("table");
    if (std::string why = Curve::check(rows); !why.empty()) parameter_error("table", why);
    const std::string interpolation = text("interpolation");
    extrapolation_ = text("extrapolation");
    const auto i = interpolation == "previous"  ? Curve::Interpolation::Previous
                   : interpolation == "nearest" ? Curve::Interpolation::Nearest
                                                : Curve::Interpolation::Linear;
    if (extrapolation_ == "linear" && i != Curve::Interpolation::Linear)
      parameter_error("extrapolation", "'linear' extends the end segments of linear interpolation; with '" +
                                           interpolation + "' interpolation the end values are held");
    curve_ = Curve(rows, i, extrapolation_ == "linear" ? Curve::Extrapolation::Linear : Curve::Extrapolation::Hold);
  }
  bool steps() const { return curve_.interpolation() != Curve::Interpolation::Linear; }

  Curve curve_;
  std::string extrapolation_;
};

}  // namespace jourdain::signal_library
