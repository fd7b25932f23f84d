// Which files a netlist may read and which code it may run, and reading them. A netlist
// written by someone else (a colleague, a forum) must not read the user's other files
// (and echo them in its error messages) nor run code without consent: the folders and
// the consent are the user's choice (NetlistOverrides), kept here as a FilePolicy for
// every level of one load. Internal to the framework library.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "jourdain/parameter.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::netlist_levels {

struct FilePolicy {
  // Canonical folders that subsystem files and path parameters may point into; none: any file.
  std::vector<std::filesystem::path> read_folders;
  // Files of code a component runs (PathContent::Code), and plugins: allowed, or only in these folders.
  bool allow_code = false;
  std::vector<std::filesystem::path> code_folders;  // canonical

  // Why `f` may not be read (`what` names it in the message: "the subsystem file"), or "".
  std::string unreadable_because(const std::filesystem::path& f, const std::string& what,
                                 const std::string& folders_are) const;
  // Throws InputError at `where` unless `f` may be read.
  void require_readable(const std::filesystem::path& f, const InputLocation& where, const std::string& what,
                        const std::string& folders_are) const;
  // Whether the code in `f` (a plugin, an FMU's binary) may run.
  bool may_run(const std::filesystem::path& f) const;
  // Throws InputError (unlocated) unless the file a path parameter names may be read and,
  // for a file of code, run; both refusals are said at once, so one correction suffices.
  void check_path_allowed(const std::filesystem::path& p, const ParamSpec& spec) const;
};

// A netlist or subsystem file's text (regular files of a bounded size only).
std::string read_text(const std::filesystem::path& file);

// The folder as an absolute path with symbolic links resolved ("" is the working folder).
std::filesystem::path canonical_folder(const std::filesystem::path& folder);
// Whether `file`, with its symbolic links resolved, lies inside one of `folders`
// (canonical_folder's), at any depth.
bool is_within(const std::filesystem::path& file, const std::vector<std::filesystem::path>& folders);

}  // namespace jourdain::netlist_levels
