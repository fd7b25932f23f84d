#include "jourdain/errors.hpp"

#include <sstream>

namespace jourdain {

std::string InputError::compose(const InputLocation& where, const std::string& message) {
  std::string text;
  auto add = [&](const std::string& part) {
    if (part.empty()) return;
    if (!text.empty()) text += ": ";
    text += part;
  };
  add(where.file);
  add(where.json_path);
  if (!where.component.empty()) add("component '" + where.component + "'");
  if (!where.port.empty()) add("port '" + where.port + "'");
  add(message);
  return text;
}

InputError::InputError(InputLocation where, const std::string& message)
    : Error(compose(where, message)), where_(std::move(where)), message_(message) {}

InputError InputError::located(const InputLocation& outer) const {
  InputLocation w = where_;
  if (w.file.empty()) w.file = outer.file;
  if (w.json_path.empty()) w.json_path = outer.json_path;
  if (w.component.empty()) w.component = outer.component;
  if (w.port.empty()) w.port = outer.port;
  return InputError(w, message_);
}

static std::string compose_simulation(double time, const std::vector<std::string>& components,
                                      const std::string& message) {
  std::ostringstream out;
  out.precision(10);
  out << "at t = " << time << " s";
  if (!components.empty()) {
    out << " (";
    for (size_t i = 0; i < components.size(); ++i) out << (i ? ", " : "") << "'" << components[i] << "'";
    out << ")";
  }
  out << ": " << message;
  return out.str();
}

SimulationError::SimulationError(double time, std::vector<std::string> components, const std::string& message)
    : Error(compose_simulation(time, components, message)),
      time_(time),
      components_(std::move(components)),
      message_(message) {}

}  // namespace jourdain
