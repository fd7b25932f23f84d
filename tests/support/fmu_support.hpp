// Helpers for the FMI tests: exporting a netlist as an FMU, unpacking one.
#pragma once

#include <filesystem>
#include <string>

#include "jourdain/components/fmi.hpp"
#include "jourdain/fmu/export.hpp"
#include "jourdain_test.hpp"

namespace jourdain::test {

// The FMU binary built with the tests' tree (apps/fmu: jourdain_fmu.so).
std::filesystem::path fmu_runtime();

// Exports `netlist` to `fmu` with the built-in components (options.output is filled in,
// and options.runtime when empty: the FMU binary built with the tests). Throws as
// export_fmu does.
fmu::ExportResult export_netlist(const std::filesystem::path& netlist, const std::filesystem::path& fmu,
                                 fmu::ExportOptions options = {});

// The same export made once per test program (FMUs are kept in a folder of its own until
// the program ends): test cases and their subcases that need the same FMU share it.
// `key` names the export (one netlist and options per key).
std::filesystem::path exported_once(const std::string& key, const std::filesystem::path& netlist,
                                    const fmu::ExportOptions& options = {});

// netlists/mass_spring_damper.json as an FMU (exported_once): outputs mass.x and mass.v,
// parameters spring.stiffness and mass.mass.
std::filesystem::path oscillator_fmu();

// A recorded column's value at t: linear between rows, and after the event when rows
// before and after an event share the time t (an FMU's outputs at a communication point
// are the model's after what happened there).
double value_after_events(const RunResult& r, const std::string& column, double t);

// An FMU unpacked into a temporary folder of its own, with its model description.
struct UnpackedFmu {
  explicit UnpackedFmu(const std::filesystem::path& fmu);
  TempDir dir;
  fmi::ModelDescription md;
  const std::filesystem::path& folder() const { return dir.path(); }
  unsigned int vr(const std::string& variable) const;  // throws std::out_of_range
};

}  // namespace jourdain::test
