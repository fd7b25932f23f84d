// JSON Schema (draft 2020-12) of the netlist format, generated from a Registry: what
// `jourdain schema` writes, for editors (VS Code validates and completes a netlist that
// names it in "$schema") and for checking netlists with any JSON Schema validator.
//
// The schema knows what the registry's descriptors say and nothing else: every
// component type (its parameters with kinds, units, ranges, choices, defaults and
// examples; its states for "initial"; its ports and recordable variables, in
// descriptions, since which "component.port" strings exist depends on the netlist), the
// world settings, subsystem definitions, plugins and records. The solver settings
// belong to the solvers library, which hands their schema in (solvers/
// solver_registry.hpp: solver_settings_schema). What a schema cannot say (a unit's
// dimension, a value in another unit than SI against its range, a connection's two ends
// fitting) the loader still checks.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "jourdain/parameter.hpp"
#include "jourdain/registry.hpp"

namespace jourdain {

// The schema of a netlist; `solver` is the schema of its "solver" object, `linear` that
// of its "linear" object (empty: any object).
nlohmann::json netlist_schema(const Registry& registry, const nlohmann::json& solver,
                              const nlohmann::json& linear = nlohmann::json::object());

// The schema of one quantity: a number (in SI) within `range`, or a string with a unit
// ("250 bar"; its shape only: its dimension and range are the loader's to check).
nlohmann::json quantity_schema(const Range& range);

// A range and unit in words for descriptions ("in (0, inf) m"); empty for any value.
std::string range_words(const Range& range, const std::string& unit);

}  // namespace jourdain
