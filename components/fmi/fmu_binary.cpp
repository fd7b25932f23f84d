// Unpacking an FMU and loading its binary (fmu_binary.hpp).
#include "fmu_binary.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace jourdain::fmi {

FmuBinary::FmuBinary(const std::filesystem::path& fmu, const ModelDescription& md, bool load_here)
    : folder_("jourdain-fmu-") {
  const std::string entry = binary_entry(md.model_identifier);
  const auto entries = zip_entries(fmu);
  if (std::find(entries.begin(), entries.end(), entry) == entries.end()) {
    std::string platforms;
    for (const auto& e : entries)
      if (e.rfind("binaries/", 0) == 0 && e.size() > 9 && e.find('/', 9) != std::string::npos) {
        const std::string p = e.substr(9, e.find('/', 9) - 9);
        if (platforms.find(p) == std::string::npos) platforms += (platforms.empty() ? "" : ", ") + p;
      }
    throw FmuError("no binary for this platform (" + platform_folder() + "): the archive holds no '" + entry + "'" +
                   (platforms.empty() ? std::string(" and no binaries at all (a source-only FMU is not supported)")
                                      : "; it has binaries for: " + platforms));
  }
  extract_zip(fmu, folder_.path());
  std::filesystem::create_directories(folder_.path() / "resources");
  resource_uri_ = file_uri(folder_.path() / "resources");

  // RTLD_LOCAL: the FMU's symbols stay its own, whatever another FMU (or this program)
  // defines under the same names.
  library_ = folder_.path() / entry;
  if (!load_here) return;
  handle_ = {dlopen(library_.c_str(), RTLD_NOW | RTLD_LOCAL), dlclose};
  if (!handle_) throw FmuError(std::string("its binary cannot be loaded: ") + dlerror());
  functions_ = find_functions(handle_.get(), md.can_get_and_set_fmu_state);
}

}  // namespace jourdain::fmi
