// The netlist as a diagram: what a schematic needs to draw each level of a netlist (the
// top and every subsystem instance), written once for report.html and for the studio
// (apps/studio/README.md gives the object's shape). Positions are the netlist's own
// `layout` sections; what this adds is what the document does not say: the ports of each
// component as configured (a volume with "ports": 3 has p1..p3), with their domain and
// causal side, the type's summary and library, and which instances open a level.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "jourdain/registry.hpp"

namespace jourdain {

class Model;

// The schematic object of `netlist` (the JSON of `file`). Ports come from the model's
// configured instances when `model` is given and has them, otherwise from an instance
// configured with the component's configuration parameters, otherwise from the type as
// described alone; an unknown type has none. Subsystem files are read from the netlist's
// folder and below only (the loader's default rule); one that cannot be read gives a
// level with an "error" and no components. Never throws for a faulty netlist: an editor
// asks for the schematic of netlists that do not load.
nlohmann::ordered_json schematic(const nlohmann::ordered_json& netlist, const std::filesystem::path& file,
                                 const Registry& registry, const Model* model = nullptr);

}  // namespace jourdain
