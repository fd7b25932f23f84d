// The workspace: the one folder whose files the studio reads and writes. A path from the
// page is relative to it; one that would leave it (an absolute path, "..", a symbolic
// link out) is refused before any file is touched.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace jourdain::studio {

// A path the page may not use (HTTP 403).
class Forbidden : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Workspace {
 public:
  explicit Workspace(const std::filesystem::path& root);

  const std::filesystem::path& root() const { return root_; }
  // The file `relative` names inside the workspace (it need not exist). Throws Forbidden.
  std::filesystem::path resolve(const std::string& relative) const;
  // `file` (inside) as the page names it: relative, '/'-separated.
  std::string relative(const std::filesystem::path& file) const;
  // The JSON files of the workspace that may be netlists (sorted; build, results,
  // node_modules and hidden folders left out; at most `limit`).
  std::vector<std::string> netlists(std::size_t limit = 2000) const;

 private:
  std::filesystem::path root_;
};

}  // namespace jourdain::studio
