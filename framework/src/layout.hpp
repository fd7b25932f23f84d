// The `layout` section of a netlist level: where an editor draws each component, how the
// wires run, its notes and its canvas (netlists/README.md, "Layout"). The solver reads
// none of it; a check reports what is malformed or names nothing, as warnings, since the
// model is whole without it. Keys the format does not name are an editor's own: kept by
// `jourdain format`, never reported. Internal to the framework library.
#pragma once

#include <nlohmann/json.hpp>

#include "jourdain/diagnostics.hpp"

namespace jourdain {

// Checks `layout`, written at `where` (its file and JSON path), against the level's
// "components" and "connections".
void check_layout(const nlohmann::json& layout, const InputLocation& where, const nlohmann::json& components,
                  const nlohmann::json& connections, Diagnostics& diagnostics);

}  // namespace jourdain
