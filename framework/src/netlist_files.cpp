// Which files a netlist may read and which code it may run, and reading them
// (netlist_files.hpp). The policy is the user's (NetlistOverrides), never the netlist's.
#include "netlist_files.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>

namespace jourdain::netlist_levels {

std::string read_text(const std::filesystem::path& file) {
  // Regular files only, of a bounded size (issue 18, D14, D16): a directory is named as
  // such, and a device (/dev/zero) or a FIFO would otherwise be read forever or block.
  constexpr std::uintmax_t max_bytes = 64u << 20;
  const InputLocation where{file.string(), "", "", ""};
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (std::filesystem::is_directory(status)) throw InputError(where, "is a directory, not a netlist file");
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw InputError(where, "is not a regular file (a device, a FIFO or a socket): netlists are read from files only");
  if (std::filesystem::is_regular_file(status) && std::filesystem::file_size(file, ec) > max_bytes)
    throw InputError(where, "is larger than 64 MiB, the limit for a netlist file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(where, "cannot read the netlist file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path canonical_folder(const std::filesystem::path& folder) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(folder.empty() ? std::filesystem::path(".") : folder, ec);
  auto canonical = std::filesystem::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : canonical;
}

bool is_within(const std::filesystem::path& file, const std::vector<std::filesystem::path>& folders) {
  const std::filesystem::path resolved = canonical_folder(file);
  for (const auto& folder : folders) {
    // Component by component: /data/lib2/x is not inside /data/lib.
    auto [f, r] = std::mismatch(folder.begin(), folder.end(), resolved.begin(), resolved.end());
    if (f == folder.end() || (std::next(f) == folder.end() && f->empty())) return true;
  }
  return false;
}

// Why a file the netlist names (`what`: "the subsystem file", "the file") may not be read
// from where it lies, or "": it must lie in the folders the netlist may read from, so that a
// netlist from someone else cannot read (and echo in its error messages) other files of the
// user's. Checked before the file is opened.
std::string FilePolicy::unreadable_because(const std::filesystem::path& f, const std::string& what,
                                           const std::string& folders_are) const {
  if (read_folders.empty() || is_within(f, read_folders)) return "";
  std::string folders;
  for (const auto& d : read_folders) folders += (folders.empty() ? "" : ", ") + d.string();
  return what + " '" + f.string() + "' lies outside the folders " + folders_are + " (" + folders +
         "): the netlist's own folder and the library folders you named. If you trust this netlist, name its folder "
         "as a library (command line: --library DIR) or allow any path (--allow-any-path)";
}

void FilePolicy::require_readable(const std::filesystem::path& f, const InputLocation& where, const std::string& what,
                                  const std::string& folders_are) const {
  if (std::string why = unreadable_because(f, what, folders_are); !why.empty()) throw InputError(where, why);
}

bool FilePolicy::may_run(const std::filesystem::path& f) const { return allow_code || is_within(f, code_folders); }

// A file a netlist names in a path parameter: in the folders it may read from, and, for a
// file of code, with the user's consent. Checked before the component opens it; a file
// that needs both is refused with both said at once, so that one correction suffices.
void FilePolicy::check_path_allowed(const std::filesystem::path& p, const ParamSpec& spec) const {
  std::string why = unreadable_because(p, "the file", "a netlist may read from");
  if (spec.path_runs_code && !may_run(p))
    why += (why.empty() ? "" : "; and ") +
           std::string("the netlist asks to run the code in '") + p.string() + "' (parameter '" + spec.name +
           "' holds a binary that runs with your rights, as a plugin does), so it loads only with your consent: if "
           "you trust this netlist and the file, allow it (command line: --allow-plugins; Python: "
           "allow_plugins=True) or put the file in a folder named by JOURDAIN_PLUGIN_PATH";
  if (!why.empty()) throw InputError({}, why);
}

}  // namespace jourdain::netlist_levels
