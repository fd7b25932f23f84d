// The workspace folder (workspace.hpp).
#include "workspace.hpp"

#include <algorithm>

namespace jourdain::studio {

namespace {

bool inside(const std::filesystem::path& file, const std::filesystem::path& folder) {
  // Component by component: /data/ws2/x is not inside /data/ws.
  auto [f, r] = std::mismatch(folder.begin(), folder.end(), file.begin(), file.end());
  return f == folder.end();
}

}  // namespace

Workspace::Workspace(const std::filesystem::path& root) : root_(std::filesystem::canonical(root)) {}

std::filesystem::path Workspace::resolve(const std::string& relative) const {
  if (relative.empty()) throw Forbidden("no path given");
  if (relative.find('\0') != std::string::npos || relative.find('\\') != std::string::npos)
    throw Forbidden("'" + relative + "': not a workspace path");
  const std::filesystem::path given(relative);
  if (given.is_absolute() || given.has_root_name())
    throw Forbidden("'" + relative + "' is absolute: paths are relative to the workspace " + root_.string());
  // weakly_canonical follows the symbolic links of the part that exists: a link that
  // points out of the workspace is caught as ".." is.
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::weakly_canonical(root_ / given, ec);
  if (ec || !inside(file, root_))
    throw Forbidden("'" + relative + "' lies outside the workspace " + root_.string());
  return file;
}

std::string Workspace::relative(const std::filesystem::path& file) const {
  return file.lexically_relative(root_).generic_string();
}

std::vector<std::string> Workspace::netlists(std::size_t limit) const {
  std::vector<std::string> out;
  std::error_code ec;
  auto it = std::filesystem::recursive_directory_iterator(root_, std::filesystem::directory_options::skip_permission_denied, ec);
  for (; !ec && it != std::filesystem::recursive_directory_iterator() && out.size() < limit; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (it.depth() >= 4 || name.starts_with(".") || name.starts_with("build") || name == "results" || name == "node_modules")
        it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() == ".json" && it->is_regular_file(ec) && !name.starts_with("."))
      out.push_back(relative(it->path()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace jourdain::studio
