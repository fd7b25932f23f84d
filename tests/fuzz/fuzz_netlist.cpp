// libFuzzer target: netlist text -> load -> build -> short run (netlist_harness.hpp).
// Built only with -DJOURDAIN_BUILD_FUZZERS=ON (clang); see tests/fuzz/README.md.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <typeinfo>

#include "netlist_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    return fuzz_one_netlist(data, size);
  } catch (const std::exception& e) {
    // Neither InputError nor SimulationError: a bug. Name it, then crash for libFuzzer.
    std::fprintf(stderr, "\n==fuzz_netlist== unexpected exception %s: %s\n", typeid(e).name(), e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "\n==fuzz_netlist== unexpected exception of a non-std type\n");
    std::abort();
  }
}
