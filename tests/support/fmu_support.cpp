#include "fmu_support.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace jourdain::test {

std::filesystem::path fmu_runtime() { return JOURDAIN_FMU_RUNTIME; }

fmu::ExportResult export_netlist(const std::filesystem::path& netlist, const std::filesystem::path& fmu,
                                 fmu::ExportOptions options) {
  Registry registry = builtin_registry();
  options.output = fmu;
  if (options.runtime.empty()) options.runtime = fmu_runtime();
  return fmu::export_fmu(netlist, registry, options);
}

std::filesystem::path exported_once(const std::string& key, const std::filesystem::path& netlist,
                                    const fmu::ExportOptions& options) {
  static TempDir folder;
  static std::map<std::string, std::filesystem::path> made;
  if (auto it = made.find(key); it != made.end()) return it->second;
  const auto fmu = folder.path() / (key + ".fmu");
  export_netlist(netlist, fmu, options);
  return made[key] = fmu;
}

std::filesystem::path oscillator_fmu() {
  fmu::ExportOptions options;
  options.outputs = {"mass.x", "mass.v"};
  options.parameters = {"spring.stiffness", "mass.mass"};
  return exported_once("msd", netlist_path("mass_spring_damper"), options);
}

double value_after_events(const RunResult& r, const std::string& column, double t) {
  const auto time = r.column("time"), y = r.column(column);
  // The last row at or before t (rounding of t aside), then the next one.
  const double slack = 1e-12 * std::max(1.0, std::abs(t));
  size_t k = std::upper_bound(time.begin(), time.end(), t + slack) - time.begin();
  if (k == 0) return y.front();
  --k;
  if (std::abs(time[k] - t) <= slack || k + 1 == time.size()) return y[k];
  const double w = (t - time[k]) / (time[k + 1] - time[k]);
  return y[k] + w * (y[k + 1] - y[k]);
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
