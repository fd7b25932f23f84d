// An FMU unpacked and its binary loaded: the functions of the FMI 2.0 Co-Simulation
// interface, looked up by name (jourdain/components/fmi2.hpp). Internal to components/fmi.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "fmu_functions.hpp"
#include "jourdain/components/fmi.hpp"

namespace jourdain::fmi {

// The unpacked archive (a temporary folder, removed with this object) and its binary for
// this platform, opened with dlopen in this process (closed with this object) unless it is
// to run in a process of its own (fmu_process.hpp), which loads it there. Immutable once
// made: the instances of every run share it.
class FmuBinary {
 public:
  // Unpacks `fmu` (whose modelDescription.xml says `md`) and, when `load_here`, loads its
  // binary. Throws FmuError naming what is missing (the binary for this platform, a
  // function) or cannot be loaded.
  FmuBinary(const std::filesystem::path& fmu, const ModelDescription& md, bool load_here = true);
  FmuBinary(const FmuBinary&) = delete;
  FmuBinary& operator=(const FmuBinary&) = delete;

  const Functions& functions() const { return functions_; }  // loaded here only
  // The unpacked binary for this platform.
  const std::filesystem::path& library() const { return library_; }
  // The resources folder as the URI fmi2Instantiate takes.
  const std::string& resource_uri() const { return resource_uri_; }

 private:
  TemporaryFolder folder_;                                // removed after the library is closed
  std::unique_ptr<void, int (*)(void*)> handle_{nullptr, nullptr};  // dlopen's, closed by dlclose
  Functions functions_;
  std::filesystem::path library_;
  std::string resource_uri_;
};

}  // namespace jourdain::fmi
