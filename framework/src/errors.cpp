#include "jourdain/errors.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>

#include "jourdain/files.hpp"

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
  // A regular file (or none yet) is replaced whole or not at all (files.hpp); a device or
  // a pipe (/dev/stdout) is written in place.
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  std::optional<ReplacingFile> replacing;
  if (ec || !std::filesystem::exists(status) || std::filesystem::is_regular_file(status)) {
    // Through a symbolic link, the file it names is replaced, not the link.
    std::filesystem::path target = file;
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(file, ec)))
      if (auto resolved = std::filesystem::weakly_canonical(file, ec); !ec) target = resolved;
    replacing.emplace(target);
  }
  const std::string written = replacing ? replacing->partial().string() : file;
  auto fail = [&](const char* what) { throw OutputError(file, std::string(what) + ": " + std::strerror(errno)); };
  const int fd = ::open(written.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
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
  if (replacing) replacing->commit();
}

}  // namespace jourdain
