// Parameter expressions of a netlist level: a value "$name" passes the parameter as it is
// (a number, a text, a table); any other string with a '$' is arithmetic over numbers and
// parameters (+ − * / ^, parentheses, unary signs, sqrt, sin, cos, pi), enough to derive
// one parameter from others ("-$length/2", "2*$EI/$l"). Internal to the framework library.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "jourdain/errors.hpp"

namespace jourdain::netlist_levels {

// Evaluates the "$name" references and arithmetic in `value` (arrays and objects element
// by element); other values are returned as they are. Throws InputError at `where`.
nlohmann::json substitute(const nlohmann::json& value, const std::map<std::string, nlohmann::json>& parameters,
                          const InputLocation& where);

// A parameter, port or type name: letters, digits and '_', not starting with a digit.
bool is_name(const std::string& s);

// "a, b, c" of the keys of `m`, or "(none)".
std::string list_of(const std::map<std::string, nlohmann::json>& m);

}  // namespace jourdain::netlist_levels
