// FMU fuzz harnesses (fmu_harness.hpp).
//
// No binary is ever loaded: the archive harness calls the archive functions the component
// calls (read_zip_entry, zip_entries, extract_zip) and stops where FmuBinary would dlopen;
// the description harness goes through the component itself, but with an FMU it writes
// itself holding modelDescription.xml alone: whatever the component does with the FMU,
// there is no binary in it to load (binaries/linux64/<id>.so is never that entry).
//
// Each input's files live in one folder of the process (removed at exit), overwritten by
// the next input. An archive is unpacked with the component's own bounds (512 MiB an
// entry, 1 GiB in all): inputs of at most -max_len bytes (run_fuzzer.sh) inflate to
// about a thousand times that at the most, so that bound is not met by the fuzzer; it is
// there so that a real FMU is refused, not to save the fuzzer's time.
#include "fmu_harness.hpp"

#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "jourdain/components/builtin.hpp"
#include "jourdain/components/fmi.hpp"
#include "jourdain/descriptor.hpp"
#include "jourdain/errors.hpp"
#include "jourdain/registry.hpp"

namespace jourdain::fuzz {

namespace {

namespace fs = std::filesystem;

// The folder of this process's inputs.
const fs::path& work_folder() {
  static const fmi::TemporaryFolder folder("jourdain-fuzz-fmu-");
  return folder.path();
}

void write_file(const fs::path& file, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out.flush()) throw std::runtime_error("the harness cannot write " + file.string());
}

bool inside(const fs::path& path, const fs::path& folder) {
  const fs::path relative = path.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

// What unpacking may leave in `root`: the archive, the folder it was unpacked into with
// the folders above it, and below it only regular files and folders (an entry that the
// archive calls a symbolic link is written as a file holding its target). Returns the
// regular files below `unpacked`, relative to it.
std::set<std::string> unpacked_files(const fs::path& root, const fs::path& archive, const fs::path& unpacked) {
  std::set<std::string> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& path = it->path();
    if (path == archive || path == unpacked || inside(unpacked, path)) continue;
    if (!inside(path, unpacked)) throw std::logic_error("an entry was written outside its folder: " + path.string());
    if (it->is_symlink()) throw std::logic_error("an entry was unpacked as a symbolic link: " + path.string());
    if (it->is_regular_file()) files.insert(path.lexically_relative(unpacked).generic_string());
    else if (!it->is_directory()) throw std::logic_error("an entry was unpacked as no file or folder: " + path.string());
  }
  return files;
}

}  // namespace

int fuzz_one_fmu_archive(const std::uint8_t* data, std::size_t size) {
  // Unpacked two levels below the folder that is checked: an entry escaping by ".." is seen.
  const fs::path root = work_folder() / "archive";
  const fs::path archive = root / "input.fmu", unpacked = root / "sandbox" / "unpacked";
  fs::remove_all(root);
  fs::create_directories(unpacked);
  write_file(archive, data, size);

  // At load: the description, read and parsed (CoSimulation::declare_dependent_parameters).
  try {
    fmi::parse_model_description(fmi::read_zip_entry(archive, "modelDescription.xml"));
  } catch (const fmi::FmuError&) {
  }
  // Then what FmuBinary does before it loads the binary: the entries listed, the archive
  // unpacked. Both, whatever the first found, for what the second reads.
  std::vector<std::string> entries;
  try {
    entries = fmi::zip_entries(archive);
  } catch (const fmi::FmuError&) {
  }
  bool unpacked_all = false;
  try {
    fmi::extract_zip(archive, unpacked);
    unpacked_all = true;
  } catch (const fmi::FmuError&) {
  }

  const std::set<std::string> files = unpacked_files(root, archive, unpacked);
  if (!unpacked_all) return 0;  // what was unpacked before the refusal stays inside; no more is promised
  // Each file entry where its name says, and nothing else: what is loaded is what was listed.
  std::set<std::string> expected;
  for (const std::string& name : entries)
    if (name.empty() || name.back() != '/') expected.insert(fs::path(name).lexically_normal().generic_string());
  if (files != expected) {
    std::string listed, found;
    for (const auto& e : expected) listed += " '" + e + "'";
    for (const auto& f : files) found += " '" + f + "'";
    throw std::logic_error("the archive was unpacked into other files than it lists: listed" + listed + ", found" + found);
  }
  return 0;
}

int fuzz_one_fmu_description(const std::uint8_t* data, std::size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  try {
    fmi::parse_model_description(xml);
  } catch (const fmi::FmuError&) {
    return 0;  // refused: the component refuses it with the same words
  }
  const fs::path fmu = work_folder() / "description.fmu";
  fmi::ZipWriter zip(fmu);
  zip.add("modelDescription.xml", xml);
  zip.close();

  Registry registry;  // per input: nothing carries over from one input to the next
  register_builtin_components(registry);
  try {
    describe_type_text(*registry.find("fmi.cosimulation"), &registry, {{"fmu", fmu.string()}});
  } catch (const InputError&) {
    // Refused as bad input: expected (also for the missing binary, where the component looks for it).
  }
  return 0;
}

}  // namespace jourdain::fuzz
