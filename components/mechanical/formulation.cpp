// The table of formulations by name (formulation.hpp). A new formulation is a file that
// defines its maker and one entry here (README.md in this folder).
#include "formulation.hpp"

#include <stdexcept>

namespace jourdain::mechanical {

// Makers, each defined in the formulation's own file.
std::unique_ptr<const Formulation> make_augmented_lagrangian_formulation(const ConstraintSettings& settings);
std::unique_ptr<const Formulation> make_kkt_formulation(const ConstraintSettings& settings);
std::unique_ptr<const Formulation> make_udwadia_kalaba_formulation(const ConstraintSettings& settings);

namespace {

struct FormulationEntry {
  const char* name;  // world.constraints.formulation
  std::unique_ptr<const Formulation> (*make)(const ConstraintSettings&);
};

constexpr FormulationEntry kFormulations[] = {
    {"augmented_lagrangian", make_augmented_lagrangian_formulation},
    {"kkt", make_kkt_formulation},
    {"udwadia_kalaba", make_udwadia_kalaba_formulation},
};

}  // namespace

std::unique_ptr<const Formulation> make_formulation(const std::string& name, const ConstraintSettings& settings) {
  for (const auto& f : kFormulations)
    if (name == f.name) return f.make(settings);
  throw std::invalid_argument("unknown constraint formulation '" + name + "'");
}

std::vector<std::string> formulation_names() {
  std::vector<std::string> names;
  for (const auto& f : kFormulations) names.emplace_back(f.name);
  return names;
}

}  // namespace jourdain::mechanical
