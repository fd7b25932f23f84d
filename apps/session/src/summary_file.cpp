// summary.json (summary_file.hpp).
#include "summary_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "jourdain/errors.hpp"

namespace jourdain::session::detail {

std::function<void()> check_summary_first(std::filesystem::path dir, std::function<void()> started) {
  return [dir = std::move(dir), started = std::move(started)] {
    // summary.json is written last: a folder where it cannot be is found now, not after the run.
    const std::string summary = (dir / "summary.json").string();
    const int fd = ::open(summary.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) throw OutputError(summary, std::string("cannot create the file: ") + std::strerror(errno));
    ::close(fd);
    if (started) started();
  };
}

std::string write_summary_file(const std::filesystem::path& dir, nlohmann::json& summary, long rows) {
  try {
    write_text_file((dir / "summary.json").string(), summary.dump(2) + "\n");
    return "";
  } catch (const OutputError& e) {
    const std::string message = std::string(e.what()) + " (results.csv keeps the " + std::to_string(rows) + " rows written)";
    const nlohmann::json time = summary.contains("failure") ? summary["failure"]["time"] : nlohmann::json();
    summary["status"] = "failed";
    summary["failure"] = {{"message", message}, {"time", time}};
    return message;
  }
}

}  // namespace jourdain::session::detail
