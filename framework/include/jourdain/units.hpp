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
#include <vector>

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

// A physical quantity as reports show it: its name ("pressure"), the SI unit string
// that components declare its variables in ("Pa"), and units in everyday use for it
// (the report's unit selector; SI first). A quantity is identified by the SI unit
// string alone, exactly as written: the framework knows units, not domains.
struct Quantity {
  std::string name;
  std::string si_unit;
  std::vector<std::string> everyday_units;
};
// Every quantity of the table, in a fixed order.
const std::vector<Quantity>& quantities();
// The quantity whose SI unit string is `si_unit` ("Pa" -> pressure), nullptr for none.
const Quantity* quantity_of_unit(std::string_view si_unit);
// The quantity named `name` ("volume_flow"), nullptr for none.
const Quantity* find_quantity(std::string_view name);

class UnitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace jourdain
