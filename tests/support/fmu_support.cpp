#include "fmu_support.hpp"

#include <stdexcept>

namespace jourdain::test {

std::filesystem::path fmu_runtime() { return JOURDAIN_FMU_RUNTIME; }

fmu::ExportResult export_netlist(const std::filesystem::path& netlist, const std::filesystem::path& fmu,
                                 fmu::ExportOptions options) {
  Registry registry = builtin_registry();
  options.output = fmu;
  options.runtime = fmu_runtime();
  return fmu::export_fmu(netlist, registry, options);
}

UnpackedFmu::UnpackedFmu(const std::filesystem::path& fmu) {
  fmi::extract_zip(fmu, dir.path());
  md = fmi::parse_model_description(read_text(dir.path() / "modelDescription.xml"));
}

unsigned int UnpackedFmu::vr(const std::string& variable) const {
  for (const auto& v : md.variables)
    if (v.name == variable) return v.value_reference;
  throw std::out_of_range("the FMU has no variable '" + variable + "'");
}

}  // namespace jourdain::test
