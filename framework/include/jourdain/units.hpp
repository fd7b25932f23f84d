// Physical units for parameters and recorded variables.
//
// Netlists are SI by default; a value may also be a string with a unit ("250 bar",
// "100 L/min", "450 mm", "3150 kN", "90 deg"). A unit expression is a product of
// factors, each a known symbol with an optional SI prefix and integer exponent, joined
// by '*', '.', ' ' or '/': "N/m", "kg*m^2", "cm^3/rev", "L/min". Every unit maps onto
// the seven SI base dimensions (plus angle, kept apart so that rad/s and Hz differ only
// by their scale, as engineers expect: both have dimension 1/s).
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

namespace jourdain {

struct Dimension {
  // exponents of m, kg, s, A, K, mol, cd
  std::array<int, 7> exponent{};
  bool operator==(const Dimension&) const = default;
  std::string to_string() const;
};

struct Unit {
  double scale = 1.0;   // SI value = scale * value + offset
  double offset = 0.0;  // non-zero only for temperatures in degC / degF
  Dimension dimension;
};

// Parses a unit expression; throws UnitError for an unknown symbol or a syntax error.
Unit parse_unit(std::string_view expression);

// Converts "value unit" text to SI, checking that its dimension matches `expected_unit`
// (itself a unit expression, usually the SI unit of the parameter). A bare number is SI.
double parse_quantity(std::string_view text, std::string_view expected_unit);

// Converts an SI value into `unit` (for messages and reports).
double from_si(double si_value, std::string_view unit);

class UnitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace jourdain
