#include "jourdain/errors.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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

OutputError::OutputError(std::string file, const std::string& reason)
    : Error(file + ": " + reason), file_(std::move(file)), reason_(reason) {}

void write_text_file(const std::string& file, const std::string& text) {
  auto fail = [&](const char* what) { throw OutputError(file, std::string(what) + ": " + std::strerror(errno)); };
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail("cannot create the file");
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      ::close(fd);
      errno = error;
      fail("cannot write the file");
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) fail("cannot write the file");
}

}  // namespace jourdain
