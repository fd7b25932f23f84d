// Machine-readable description of a component type (jourdain describe, jourdain schema): its parameters with
// kinds, units, defaults and ranges; its ports with domain, causality and variables;
// its states, discrete states, observables and zero crossings. `jourdain describe`
// prints it; `jourdain describe --json` emits it for tools and editors.
#pragma once

#include <nlohmann/json.hpp>

#include "jourdain/registry.hpp"

namespace jourdain {

// An instance of a type built for what is shown without a netlist (describe, the
// component reference, the netlist schema): each parameter takes its example value
// (Component::set_example) if it has one, a required parameter without one a value
// inside its range, the others their defaults. `note` says which values were used, or
// why the instance could not be configured (it then holds what it declared before the
// failure: its parameters, perhaps no ports).
struct Probe {
  std::unique_ptr<Component> component;
  bool configured = false;
  std::string note;
};
// With `values` (an object of parameter values), the instance takes those and the
// defaults instead, and an error in them is thrown (InputError) rather than noted: the
// description of one configured instance (`jourdain describe model.fmu`).
Probe probe_instance(const ComponentType& type, const nlohmann::json& values = nullptr);

// The ports of a configured instance, as describe_type shows them (name, domain, side,
// variables, optional, description).
nlohmann::json describe_ports(const Component& component);

// Describes a type from its probe instance. Ports that exist only for some parameter
// values (a sum's inputs) are shown for the values the probe used. With the registry, a
// composite type's ports (those of the parts it expands into) are shown too.
nlohmann::json describe_type(const ComponentType& type, const Registry* registry = nullptr,
                             const nlohmann::json& values = nullptr);
std::string describe_type_text(const ComponentType& type, const Registry* registry = nullptr,
                               const nlohmann::json& values = nullptr);

// The component reference in Markdown: one section per type, with its ports (domain,
// side, variables with units), parameters (units, defaults, ranges), states and
// recordable variables. `how_made` is the command that writes it, said at the top of the
// file (it is generated: components/README.md).
std::string reference_markdown(const Registry& registry, const std::string& how_made);

}  // namespace jourdain
