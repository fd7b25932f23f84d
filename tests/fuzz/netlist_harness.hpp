// The netlist fuzz harness, shared by the libFuzzer target (fuzz_netlist.cpp) and the
// replay of its findings as a normal test (replay_findings.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace jourdain::fuzz {

// Loads `data` as netlist text, builds the model and runs a short simulation with the
// solver settings tightened so that one input is cheap (see netlist_harness.cpp).
// Returns 0 when the input was handled as Jourdain promises: it loaded and ran, or it
// was refused with an InputError, or the run ended with a SimulationError. Anything
// else (std::logic_error, nlohmann::json::exception, std::out_of_range, ...) is a bug
// in Jourdain and propagates to the caller.
int fuzz_one_netlist(const std::uint8_t* data, std::size_t size);

}  // namespace jourdain::fuzz

using jourdain::fuzz::fuzz_one_netlist;
