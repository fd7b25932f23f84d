// Units: parsing, conversion, and the errors a user sees for a wrong unit.
#include <cmath>
#include <numbers>

#include "jourdain/units.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;

TEST_CASE("engineering units convert to SI") {
  CHECK(parse_quantity("250 bar", "Pa") == doctest::Approx(250e5));
  CHECK(parse_quantity("100 L/min", "m^3/s") == doctest::Approx(100e-3 / 60));
  CHECK(parse_quantity("450 mm", "m") == doctest::Approx(0.45));
  CHECK(parse_quantity("3150 kN", "N") == doctest::Approx(3.15e6));
  // Electrical units (the electrical library declares V/A, A*s/V, V*s/A, A*s).
  CHECK(parse_quantity("4.7 kOhm", "V/A") == doctest::Approx(4700.0));
  CHECK(parse_quantity("100 uF", "A*s/V") == doctest::Approx(100e-6));
  CHECK(parse_quantity("2 mH", "V*s/A") == doctest::Approx(2e-3));
  CHECK(parse_quantity("2.5 Ah", "A*s") == doctest::Approx(9000.0));
  CHECK(parse_quantity("3 C", "A*s") == doctest::Approx(3.0));
  CHECK(parse_quantity("20 mS", "A/V") == doctest::Approx(0.02));
  CHECK(parse_quantity("1.2 kWh", "J") == doctest::Approx(4.32e6));
  CHECK(parse_quantity("90 deg", "rad") == doctest::Approx(std::numbers::pi / 2));
  CHECK(parse_quantity("1470 rpm", "rad/s") == doctest::Approx(1470 * 2 * std::numbers::pi / 60));
  CHECK(parse_quantity("63 cm^3/rev", "m^3/rad") == doctest::Approx(63e-6 / (2 * std::numbers::pi)));
  CHECK(parse_quantity("1.4 GPa", "Pa") == doctest::Approx(1.4e9));
  CHECK(parse_quantity("2 N*s/m", "N*s/m") == doctest::Approx(2.0));
  CHECK(parse_quantity("2 N.s/m", "kg/s") == doctest::Approx(2.0));
  CHECK(parse_quantity("46 cSt", "m^2/s") == doctest::Approx(46e-6));
  CHECK(parse_quantity("20 degC", "K") == doctest::Approx(293.15));
  CHECK(parse_quantity("3.5", "Pa") == doctest::Approx(3.5));  // a bare number is SI
  CHECK(parse_quantity("1 m3/s", "m^3/s") == doctest::Approx(1.0));
  CHECK(parse_quantity("5 1/s", "Hz") == doctest::Approx(5.0));
  CHECK(parse_quantity("1 min", "s") == doctest::Approx(60.0));  // minutes, not milli-inches
  CHECK(std::isinf(parse_quantity("-inf m", "m")));
}

TEST_CASE("unknown and mismatched units are errors that say why") {
  CHECK_THROWS_WITH_AS(parse_quantity("3 furlongs", "m"), doctest::Contains("unknown unit 'furlongs'"), UnitError);
  CHECK_THROWS_WITH_AS(parse_quantity("3 bar", "m"), doctest::Contains("does not fit"), UnitError);
  CHECK_THROWS_AS(parse_quantity("abc", "m"), UnitError);
  CHECK_THROWS_AS(parse_quantity("nan m", "m"), UnitError);
  CHECK_THROWS_AS(parse_unit("m^"), UnitError);
}

// Issue 38, point 15: the suggestion ignored case ("RPM": "did you mean 'Pa'?").
TEST_CASE("a unit in the wrong case is suggested in the right one") {
  CHECK_THROWS_WITH_AS(parse_quantity("1500 RPM", "rad/s"), doctest::Contains("unknown unit 'RPM'; did you mean 'rpm'?"),
                       UnitError);
  CHECK_THROWS_WITH_AS(parse_quantity("20 KPA", "Pa"), doctest::Contains("did you mean 'kPa'?"), UnitError);
  CHECK_THROWS_WITH_AS(parse_quantity("2 BAR", "Pa"), doctest::Contains("did you mean 'bar'?"), UnitError);
  // Typos are still found as before.
  CHECK_THROWS_WITH_AS(parse_quantity("2 barr", "Pa"), doctest::Contains("did you mean 'bar'?"), UnitError);
}

TEST_CASE("from_si converts back") {
  CHECK(from_si(2.5e7, "bar") == doctest::Approx(250.0));
  CHECK(from_si(293.15, "degC") == doctest::Approx(20.0));
  CHECK(from_si(0.005, "kg/h") == doctest::Approx(18.0));  // a fuel rate, shown as mass_flow
  CHECK(quantity_of_unit("kg/s")->name == "mass_flow");
  CHECK(parse_unit("kN*m").dimension.to_string() == "m^2*kg/s^2");
}
