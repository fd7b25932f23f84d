// FMI 2.0 files: the zip archive an FMU is and the modelDescription.xml inside it, read
// (the "fmi.cosimulation" component, components/fmi) and written (`jourdain export-fmu`,
// apps/fmu). Zip archives through minizip, XML through pugixml (Debian's packages).
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "jourdain/files.hpp"

namespace jourdain::fmi {

// What goes wrong with an FMU file; its users add the file's name and what they were doing.
class FmuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---- zip archives ----

// The names of an archive's entries, in archive order. Throws FmuError when the file is
// missing or no zip archive.
std::vector<std::string> zip_entries(const std::filesystem::path& archive);
// One entry's content; throws FmuError when there is none of that name or it is damaged.
std::string read_zip_entry(const std::filesystem::path& archive, const std::string& entry);
// Every entry into `folder` (which must exist). An entry whose name would leave the folder
// (an absolute path, "..") is refused. Throws FmuError.
void extract_zip(const std::filesystem::path& archive, const std::filesystem::path& folder);

// Writes a new archive; entries are deflated. It is written to a file of its own beside
// `archive` and renamed onto it when complete: a regular file there is replaced only by a
// whole archive, and anything else there (a symlink, a device, a folder) is refused.
class ZipWriter {
 public:
  explicit ZipWriter(const std::filesystem::path& archive);  // throws FmuError
  ~ZipWriter();  // an archive not closed is removed; the target is left as it was
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;
  // `fast`: deflate for speed rather than size (zlib's level 1), for large binaries.
  void add(const std::string& entry, const std::string& content, bool fast = false);
  void add_file(const std::string& entry, const std::filesystem::path& file, bool fast = false);
  void close();  // throws FmuError when the archive cannot be completed

 private:
  std::filesystem::path path_;
  std::unique_ptr<ReplacingFile> file_;  // the archive while it is written
  void* zip_ = nullptr;
};

// A new, empty folder under the system's temporary folder, removed with all it holds when
// the object goes (the unpacked FMU of a model).
class TemporaryFolder {
 public:
  explicit TemporaryFolder(const std::string& prefix);  // throws FmuError
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// "file:///tmp/x%20y/resources" for /tmp/x y/resources (RFC 3986 percent-encoding), and
// back: a "file:" URI's path ("file:///p", "file:/p", "file://localhost/p"); throws
// FmuError for another scheme or host.
std::string file_uri(const std::filesystem::path& folder);
std::filesystem::path path_of_file_uri(const std::string& uri);

// ---- modelDescription.xml (FMI 2.0 section 2.2) ----

struct UnitDefinition {
  std::string name;
  bool has_base_unit = false;
  // Exponents of the SI base units kg, m, s, A, K, mol, cd and of rad, with the value in
  // those units = factor * value + offset (2.2.2).
  std::array<int, 8> exponents{};
  double factor = 1.0;
  double offset = 0.0;
};

enum class VariableType { Real, Integer, Boolean, String, Enumeration };
const char* to_string(VariableType type);

struct ScalarVariable {
  std::string name;
  unsigned int value_reference = 0;
  std::string description;
  VariableType type = VariableType::Real;
  std::string causality = "local";         // parameter, calculatedParameter, input, output, local, independent
  std::string variability = "continuous";  // constant, fixed, tunable, discrete, continuous
  std::string initial;                     // exact, approx, calculated, or "" (none given)
  std::optional<std::string> start;        // as written
  std::string unit;                        // Real: its own unit, else its declared type's
};

struct ModelDescription {
  std::string fmi_version;
  std::string model_name;
  std::string guid;
  std::string description;
  std::string generation_tool;
  // <CoSimulation> (absent: an FMU for Model Exchange only).
  bool cosimulation = false;
  std::string model_identifier;
  bool can_handle_variable_communication_step_size = false;
  bool can_be_instantiated_only_once_per_process = false;
  bool can_get_and_set_fmu_state = false;
  bool needs_execution_tool = false;
  // <DefaultExperiment>
  std::optional<double> start_time, stop_time, tolerance, step_size;
  std::vector<UnitDefinition> units;
  std::vector<ScalarVariable> variables;  // in document order (their 1-based index is ModelStructure's)

  const UnitDefinition* unit(const std::string& name) const;  // nullptr: not defined
};

// Parses the text of a modelDescription.xml. Throws FmuError for malformed XML or a
// document that is no FMI model description (its root, a variable without name, value
// reference or type). The FMI version is read, not checked: the caller decides.
ModelDescription parse_model_description(const std::string& xml);

// The platform folder of an FMU's binaries on this machine ("linux64" on x86-64 Linux)
// and the binary's file name there.
std::string platform_folder();
std::string binary_entry(const std::string& model_identifier);  // "binaries/linux64/<id>.so"

}  // namespace jourdain::fmi
