// Fuzz replay: the findings of each fuzz target (crashes it found, fixed since) and its
// seeds go through its harness and must come back normally, as the harness defines it
// (see tests/fuzz/README.md); any exception is a regression.
//   - netlist: tests/fuzz/regressions, tests/fuzz/corpus and netlists/;
//   - FMU archives: tests/fuzz/fmu_archive/{regressions,corpus};
//   - modelDescription.xml: tests/fuzz/fmu_description/{regressions,corpus} and the test
//     FMU's tests/components/fmi/gain_counter.xml.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fmu_harness.hpp"
#include "jourdain_test.hpp"
#include "netlist_harness.hpp"

namespace fs = std::filesystem;

namespace {

// Regular files of a folder (those ending in `extension` if one is given), sorted,
// without hidden ones (.gitkeep).
std::vector<fs::path> inputs_in(const fs::path& dir, const std::string& extension = "") {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().filename().string().rfind('.', 0) == 0) continue;
    if (extension.empty() || e.path().extension() == extension) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

using Harness = int (*)(const std::uint8_t*, std::size_t);

void replay_one(Harness harness, const fs::path& file) {
  INFO("input: " << file.string());
  const std::string bytes = bytes_of(file);
  int rc = -1;
  CHECK_NOTHROW(rc = harness(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  CHECK(rc == 0);
}

void replay(Harness harness, const fs::path& dir, const std::string& extension = "") {
  for (const auto& file : inputs_in(dir, extension)) replay_one(harness, file);
}

const fs::path kFuzzDir = fs::path(JOURDAIN_SOURCE_DIR) / "tests" / "fuzz";

}  // namespace

TEST_CASE("fuzz replay: crashes found by the fuzzer stay fixed (tests/fuzz/regressions)") {
  replay(fuzz_one_netlist, kFuzzDir / "regressions");
}

TEST_CASE("fuzz replay: the seed corpus (tests/fuzz/corpus) is handled") {
  CHECK_FALSE(inputs_in(kFuzzDir / "corpus").empty());
  replay(fuzz_one_netlist, kFuzzDir / "corpus");
}

TEST_CASE("fuzz replay: the example netlists (netlists/) load and run in the harness") {
  CHECK_FALSE(inputs_in(fs::path(JOURDAIN_SOURCE_DIR) / "netlists", ".json").empty());
  replay(fuzz_one_netlist, fs::path(JOURDAIN_SOURCE_DIR) / "netlists", ".json");
}

TEST_CASE("fuzz replay: the harness itself handles the trivial inputs") {
  for (const std::string text : {"", "{", "null", "[]", "{}", "{\"components\": {}}"}) {
    INFO("input: " << text);
    CHECK(fuzz_one_netlist(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()) == 0);
  }
}

TEST_CASE("fuzz replay: FMU archives, found and seeds (tests/fuzz/fmu_archive)") {
  CHECK_FALSE(inputs_in(kFuzzDir / "fmu_archive" / "corpus").empty());
  replay(fuzz_one_fmu_archive, kFuzzDir / "fmu_archive" / "regressions");
  replay(fuzz_one_fmu_archive, kFuzzDir / "fmu_archive" / "corpus");
}

TEST_CASE("fuzz replay: model descriptions, found and seeds (tests/fuzz/fmu_description)") {
  CHECK_FALSE(inputs_in(kFuzzDir / "fmu_description" / "corpus").empty());
  replay(fuzz_one_fmu_description, kFuzzDir / "fmu_description" / "regressions");
  replay(fuzz_one_fmu_description, kFuzzDir / "fmu_description" / "corpus");
  replay_one(fuzz_one_fmu_description, fs::path(JOURDAIN_SOURCE_DIR) / "tests" / "components" / "fmi" / "gain_counter.xml");
}

TEST_CASE("fuzz replay: the FMU harnesses handle the trivial inputs") {
  for (const std::string text : {"", "PK", "<", "<fmiModelDescription/>"}) {
    INFO("input: " << text);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
    CHECK(fuzz_one_fmu_archive(bytes, text.size()) == 0);
    CHECK(fuzz_one_fmu_description(bytes, text.size()) == 0);
  }
}
