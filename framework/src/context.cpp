// Analysis names and component workspaces (context.hpp).
#include "jourdain/context.hpp"

namespace jourdain {

// Out of line: the key function places the vtable in the framework library.
ComponentWorkspace::~ComponentWorkspace() = default;

void ComponentWorkspaces::copy_from(const ComponentWorkspaces& other) {
  std::vector<std::unique_ptr<ComponentWorkspace>> slots(other.slots_.size());
  size_t uncopied = 0;
  for (size_t k = 0; k < slots.size(); ++k) {
    if (!other.slots_[k]) continue;
    slots[k] = other.slots_[k]->clone();
    if (!slots[k]) ++uncopied;
  }
  slots_ = std::move(slots);
  uncopied_ = uncopied;
}

const char* to_string(Analysis a) {
  switch (a) {
    case Analysis::Dynamic: return "dynamic";
    case Analysis::Kinematic: return "kinematic";
    case Analysis::Static: return "static";
  }
  return "?";
}

std::optional<Analysis> parse_analysis(const std::string& name) {
  for (Analysis a : {Analysis::Dynamic, Analysis::Kinematic, Analysis::Static})
    if (name == to_string(a)) return a;
  return std::nullopt;
}

}  // namespace jourdain
