// Unit parsing and conversion (units.hpp).
#include "jourdain/units.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "jourdain/suggest.hpp"

namespace jourdain {
namespace {

using D = Dimension;
constexpr D dim(int m, int kg, int s, int A = 0, int K = 0, int mol = 0, int cd = 0) {
  return D{{m, kg, s, A, K, mol, cd}};
}

struct Symbol {
  double scale;
  D dimension;
  double offset = 0.0;
};

const std::map<std::string, Symbol>& symbols() {
  static const std::map<std::string, Symbol> table = [] {
    const double pi = std::numbers::pi;
    std::map<std::string, Symbol> t;
    // SI base and derived units
    t["m"] = {1, dim(1, 0, 0)};
    t["g"] = {1e-3, dim(0, 1, 0)};
    t["s"] = {1, dim(0, 0, 1)};
    t["A"] = {1, dim(0, 0, 0, 1)};
    t["K"] = {1, dim(0, 0, 0, 0, 1)};
    t["mol"] = {1, dim(0, 0, 0, 0, 0, 1)};
    t["cd"] = {1, dim(0, 0, 0, 0, 0, 0, 1)};
    t["N"] = {1, dim(1, 1, -2)};
    t["Pa"] = {1, dim(-1, 1, -2)};
    t["J"] = {1, dim(2, 1, -2)};
    t["W"] = {1, dim(2, 1, -3)};
    t["V"] = {1, dim(2, 1, -3, -1)};
    t["Hz"] = {1, dim(0, 0, -1)};
    t["C"] = {1, dim(0, 0, 1, 1)};         // coulomb, A·s
    t["Ohm"] = {1, dim(2, 1, -3, -2)};     // ohm, V/A
    t["S"] = {1, dim(-2, -1, 3, 2)};       // siemens, A/V
    t["F"] = {1, dim(-2, -1, 4, 2)};       // farad, A·s/V
    t["H"] = {1, dim(2, 1, -2, -2)};       // henry, V·s/A
    // electrical energy and charge in everyday use
    t["Wh"] = {3600, dim(2, 1, -2)};
    t["Ah"] = {3600, dim(0, 0, 1, 1)};
    // angles are dimensionless; the radian is the unit
    t["rad"] = {1, dim(0, 0, 0)};
    t["deg"] = {pi / 180.0, dim(0, 0, 0)};
    t["rev"] = {2 * pi, dim(0, 0, 0)};
    t["rpm"] = {2 * pi / 60.0, dim(0, 0, -1)};
    t["%"] = {1e-2, dim(0, 0, 0)};
    // time
    t["min"] = {60, dim(0, 0, 1)};
    t["h"] = {3600, dim(0, 0, 1)};
    // hydraulics and mechanics in everyday use
    t["bar"] = {1e5, dim(-1, 1, -2)};
    t["atm"] = {101325, dim(-1, 1, -2)};
    t["psi"] = {6894.757293168361, dim(-1, 1, -2)};
    t["L"] = {1e-3, dim(3, 0, 0)};
    t["l"] = {1e-3, dim(3, 0, 0)};
    t["cSt"] = {1e-6, dim(2, 0, -1)};
    t["cP"] = {1e-3, dim(-1, 1, -1)};
    t["in"] = {0.0254, dim(1, 0, 0)};
    t["ft"] = {0.3048, dim(1, 0, 0)};
    t["lbf"] = {4.4482216152605, dim(1, 1, -2)};
    t["lb"] = {0.45359237, dim(0, 1, 0)};
    t["degC"] = {1, dim(0, 0, 0, 0, 1), 273.15};
    return t;
  }();
  return table;
}

const std::map<std::string, double>& prefixes() {
  static const std::map<std::string, double> table = {
      {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}, {"h", 1e2}, {"da", 1e1}, {"d", 1e-1},
      {"c", 1e-2}, {"m", 1e-3}, {"u", 1e-6}, {"\xC2\xB5", 1e-6}, {"n", 1e-9}, {"p", 1e-12}};
  return table;
}

// A symbol with an optional prefix: whole symbols win ("min" is minutes, not milli-inch).
Symbol lookup(const std::string& word) {
  if (auto it = symbols().find(word); it != symbols().end()) return it->second;
  for (const auto& [prefix, factor] : prefixes()) {
    if (word.size() > prefix.size() && word.compare(0, prefix.size(), prefix) == 0) {
      auto it = symbols().find(word.substr(prefix.size()));
      if (it != symbols().end() && it->second.offset == 0.0) return {factor * it->second.scale, it->second.dimension};
    }
  }
  // A typo ("barr", "kpa") gets the nearest known spelling: plain symbols first, so that
  // they win a tie against a prefixed one.
  std::vector<std::string> known;
  for (const auto& [name, symbol] : symbols()) known.push_back(name);
  for (const auto& [prefix, factor] : prefixes())
    for (const auto& [name, symbol] : symbols())
      if (symbol.offset == 0.0) known.push_back(prefix + name);
  const std::string close = closest_name(word, known);
  throw UnitError("unknown unit '" + word + "'" + (close.empty() ? "" : "; did you mean '" + close + "'?"));
}

// Largest exponent of a factor or of a base dimension in a unit ("m^3", "kg*m^2/s^3").
constexpr long kMaxExponent = 100;

bool is_symbol_char(unsigned char c) { return std::isalpha(c) || c == '%' || c >= 0x80; }

}  // namespace

std::string Dimension::to_string() const {
  static const char* names[] = {"m", "kg", "s", "A", "K", "mol", "cd"};
  std::string num, den;
  for (int i = 0; i < 7; ++i) {
    int e = exponent[i];
    if (e == 0) continue;
    std::string& side = e > 0 ? num : den;
    if (!side.empty()) side += "*";
    side += names[i];
    if (std::abs(e) != 1) side += "^" + std::to_string(std::abs(e));
  }
  if (num.empty() && den.empty()) return "1";
  if (num.empty()) num = "1";
  return den.empty() ? num : num + "/" + den;
}

Unit parse_unit(std::string_view expression) {
  Unit unit;
  std::string text(expression);
  size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && text[i] == ' ') ++i;
  };
  skip_space();
  if (i == text.size()) return unit;  // empty: dimensionless
  int factors = 0;
  bool divide = false;
  while (true) {
    skip_space();
    std::string word;
    if (i < text.size() && text[i] == '1' && factors == 0) {
      ++i;  // "1/s"
    } else {
      while (i < text.size() && is_symbol_char(static_cast<unsigned char>(text[i]))) word += text[i++];
      if (word.empty()) throw UnitError("cannot read unit '" + text + "' at position " + std::to_string(i + 1));
    }
    int power = 1;
    if (i < text.size() && (text[i] == '^' || std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '-')) {
      if (text[i] == '^') ++i;
      char* end = nullptr;
      long p = std::strtol(text.c_str() + i, &end, 10);
      if (end == text.c_str() + i) throw UnitError("cannot read the exponent in unit '" + text + "'");
      i = static_cast<size_t>(end - text.c_str());
      // Keeps the dimension arithmetic below far from int overflow.
      if (p < -kMaxExponent || p > kMaxExponent)
        throw UnitError("exponent " + std::to_string(p) + " out of range in unit '" + text + "'");
      power = static_cast<int>(p);
    }
    if (!word.empty()) {
      Symbol s = lookup(word);
      if (s.offset != 0.0) {
        // an offset unit (degC) only makes sense alone
        if (factors > 0 || power != 1 || i < text.size())
          throw UnitError("unit '" + word + "' cannot be combined with others in '" + text + "'");
        unit.offset = s.offset;
      }
      int sign = divide ? -1 : 1;
      unit.scale *= std::pow(s.scale, sign * power);
      for (int k = 0; k < 7; ++k) {
        const long e = unit.dimension.exponent[k] + static_cast<long>(sign) * power * s.dimension.exponent[k];
        if (e < -kMaxExponent || e > kMaxExponent)
          throw UnitError("exponent out of range in unit '" + text + "'");
        unit.dimension.exponent[k] = static_cast<int>(e);
      }
    }
    ++factors;
    skip_space();
    if (i == text.size()) break;
    char op = text[i];
    if (op == '*' || op == '.') {
      divide = false;
      ++i;
    } else if (op == '/') {
      divide = true;
      ++i;
    } else if (is_symbol_char(static_cast<unsigned char>(op))) {
      divide = false;  // "N m"
    } else {
      throw UnitError("cannot read unit '" + text + "' at position " + std::to_string(i + 1));
    }
  }
  return unit;
}

double parse_quantity(std::string_view text_view, std::string_view expected_unit) {
  std::string text(text_view);
  const char* begin = text.c_str();
  while (*begin == ' ') ++begin;
  char* end = nullptr;
  double value = std::strtod(begin, &end);
  if (end == begin) throw UnitError("'" + text + "' is not a number with a unit");
  if (std::isnan(value)) throw UnitError("'" + text + "' is not a number");  // inf is allowed: "no end stop"
  std::string unit_text(end);
  Unit expected = parse_unit(expected_unit);
  size_t first = unit_text.find_first_not_of(' ');
  if (first == std::string::npos) return value;  // a bare number is SI
  Unit given = parse_unit(unit_text.substr(first));
  if (!(given.dimension == expected.dimension)) {
    throw UnitError("unit '" + unit_text.substr(first) + "' (" + given.dimension.to_string() +
                    ") does not fit the expected unit '" + std::string(expected_unit) + "' (" +
                    expected.dimension.to_string() + ")");
  }
  double si = given.scale * value + given.offset;
  return (si - expected.offset) / expected.scale;
}

double from_si(double si_value, std::string_view unit) {
  Unit u = parse_unit(unit);
  return (si_value - u.offset) / u.scale;
}

const std::vector<Quantity>& quantities() {
  // The SI unit strings are those the component libraries declare variables in; the
  // everyday units are what engineers read plots in (each parses with parse_unit).
  static const std::vector<Quantity> table = {
      {"length", "m", {"m", "mm", "cm", "km", "in"}},
      {"velocity", "m/s", {"m/s", "mm/s", "km/h"}},
      {"acceleration", "m/s^2", {"m/s^2", "mm/s^2"}},
      {"angle", "rad", {"rad", "deg", "rev"}},
      {"angular_velocity", "rad/s", {"rad/s", "deg/s", "rpm"}},
      {"angular_acceleration", "rad/s^2", {"rad/s^2", "deg/s^2"}},
      {"force", "N", {"N", "kN", "MN", "lbf"}},
      {"torque", "N*m", {"N*m", "kN*m"}},
      {"energy", "J", {"J", "kJ", "MJ", "Wh", "kWh"}},
      {"power", "W", {"W", "kW", "MW"}},
      {"pressure", "Pa", {"Pa", "kPa", "bar", "MPa", "psi"}},
      {"pressure_rate", "Pa/s", {"Pa/s", "bar/s", "MPa/s"}},
      {"volume_flow", "m^3/s", {"m^3/s", "L/min", "L/s", "cm^3/s"}},
      {"volume", "m^3", {"m^3", "L", "cm^3"}},
      {"area", "m^2", {"m^2", "mm^2", "cm^2"}},
      {"mass", "kg", {"kg", "g"}},
      {"mass_flow", "kg/s", {"kg/s", "g/s", "kg/h"}},
      {"time", "s", {"s", "ms", "min"}},
      {"temperature", "K", {"K", "degC"}},
      {"voltage", "V", {"V", "mV"}},
      {"current", "A", {"A", "mA"}},
      {"stiffness", "N/m", {"N/m", "kN/m", "N/mm"}},
      {"damping", "N*s/m", {"N*s/m", "kN*s/m"}},
      {"frequency", "Hz", {"Hz", "kHz"}},
  };
  return table;
}

const Quantity* quantity_of_unit(std::string_view si_unit) {
  for (const auto& q : quantities())
    if (q.si_unit == si_unit) return &q;
  return nullptr;
}

const Quantity* find_quantity(std::string_view name) {
  for (const auto& q : quantities())
    if (q.name == name) return &q;
  return nullptr;
}

}  // namespace jourdain
