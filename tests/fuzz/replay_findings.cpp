// Fuzz replay: every input in tests/fuzz/regressions (crashes the fuzzer found, fixed
// since), tests/fuzz/corpus (the seed corpus) and netlists/ goes through the fuzz harness
// and must come back normally: loaded and run, or refused with an InputError, or ended by
// a SimulationError. Any other exception is a regression (see tests/fuzz/README.md).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

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

void replay(const fs::path& dir, const std::string& extension = "") {
  for (const auto& file : inputs_in(dir, extension)) {
    INFO("input: " << file.string());
    const std::string bytes = bytes_of(file);
    int rc = -1;
    CHECK_NOTHROW(rc = fuzz_one_netlist(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    CHECK(rc == 0);
  }
}

const fs::path kFuzzDir = fs::path(JOURDAIN_SOURCE_DIR) / "tests" / "fuzz";

}  // namespace

TEST_CASE("fuzz replay: crashes found by the fuzzer stay fixed (tests/fuzz/regressions)") {
  replay(kFuzzDir / "regressions");
}

TEST_CASE("fuzz replay: the seed corpus (tests/fuzz/corpus) is handled") {
  CHECK_FALSE(inputs_in(kFuzzDir / "corpus").empty());
  replay(kFuzzDir / "corpus");
}

TEST_CASE("fuzz replay: the example netlists (netlists/) load and run in the harness") {
  CHECK_FALSE(inputs_in(fs::path(JOURDAIN_SOURCE_DIR) / "netlists", ".json").empty());
  replay(fs::path(JOURDAIN_SOURCE_DIR) / "netlists", ".json");
}

TEST_CASE("fuzz replay: the harness itself handles the trivial inputs") {
  for (const std::string text : {"", "{", "null", "[]", "{}", "{\"components\": {}}"}) {
    INFO("input: " << text);
    CHECK(fuzz_one_netlist(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()) == 0);
  }
}
