// Machine-readable description of a component type (STYLE.md 10): its parameters with
// kinds, units, defaults and ranges; its ports with domain, causality and variables;
// its states, discrete states, observables and zero crossings. `jourdain describe`
// prints it; `jourdain describe --json` emits it for tools and editors.
#pragma once

#include <nlohmann/json.hpp>

#include "jourdain/registry.hpp"

namespace jourdain {

// Describes a type by instantiating it with its default parameters. Ports that exist
// only for some parameter values (a sum's inputs) are shown for the defaults.
nlohmann::json describe_type(const ComponentType& type);
std::string describe_type_text(const ComponentType& type);

}  // namespace jourdain
