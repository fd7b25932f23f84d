// The FMU fuzz harnesses, shared by the libFuzzer targets (fuzz_main.cpp) and the replay
// of their findings as a normal test (replay_findings.cpp). Neither ever loads a binary:
// an FMU's binary runs its own code, which no fuzzed input may choose.
#pragma once

#include <cstddef>
#include <cstdint>

namespace jourdain::fuzz {

// `data` as an FMU file: its modelDescription.xml read and parsed as the component reads
// it at load, then its entries listed and unpacked into a fresh folder as the component
// unpacks them before loading the binary (fmu_harness.cpp). Returns 0 when the input was
// handled as Jourdain promises: read, or refused with an FmuError, with nothing written
// outside the folder and every entry unpacked under its own name. Anything else is
// thrown to the caller (a std::logic_error for a broken promise).
int fuzz_one_fmu_archive(const std::uint8_t* data, std::size_t size);

// `data` as the text of a modelDescription.xml: parsed, then, in an FMU of its own (that
// file alone, so no binary to load), described as `jourdain describe model.fmu` does,
// which declares the component's parameters from it. Returns 0 when it was parsed or
// refused with an FmuError, and described or refused with an InputError; anything else
// propagates.
int fuzz_one_fmu_description(const std::uint8_t* data, std::size_t size);

}  // namespace jourdain::fuzz

using jourdain::fuzz::fuzz_one_fmu_archive;
using jourdain::fuzz::fuzz_one_fmu_description;
