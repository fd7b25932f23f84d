// Analysis names (context.hpp).
#include "jourdain/context.hpp"

namespace jourdain {

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
