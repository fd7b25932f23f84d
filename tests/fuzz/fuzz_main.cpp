// libFuzzer target: one harness (netlist_harness.hpp, fmu_harness.hpp), chosen when the
// target is compiled (JOURDAIN_FUZZ_ONE, JOURDAIN_FUZZ_TARGET: tests/fuzz/CMakeLists.txt).
// Built only with -DJOURDAIN_BUILD_FUZZERS=ON (clang); see tests/fuzz/README.md.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <typeinfo>

#include "fmu_harness.hpp"
#include "netlist_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    return JOURDAIN_FUZZ_ONE(data, size);
  } catch (const std::exception& e) {
    // Not an error the harness expects: a bug. Name it, then crash for libFuzzer.
    std::fprintf(stderr, "\n==%s== unexpected exception %s: %s\n", JOURDAIN_FUZZ_TARGET, typeid(e).name(), e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "\n==%s== unexpected exception of a non-std type\n", JOURDAIN_FUZZ_TARGET);
    std::abort();
  }
}
