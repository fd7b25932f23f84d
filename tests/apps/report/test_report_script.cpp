// The page's script (apps/report/page/report.js) parses: `node --check`, and, as
// the browser reads it (a classic script, not a CommonJS module, where a top-level
// `return` would pass), Node's vm.Script. Node.js is the Debian package `nodejs`, which
// .ci/install-deps installs. Without it the test fails, unless JOURDAIN_ALLOW_NO_NODE=1:
// then it is skipped (exit code 77, which ctest reports as "Skipped"). That the script
// runs is test_report_browser.cpp.
#include <cstdlib>
#include <iostream>

#include "jourdain_test.hpp"

using jourdain::test::run_command;
using jourdain::test::shell_quote;

namespace {

std::string find_node() {
  for (const char* name : {"node", "nodejs"}) {
    auto r = run_command(std::string("command -v ") + name);
    std::string path = r.output;
    while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
    if (r.exit_code == 0 && !path.empty()) return path;
  }
  return "";
}

const std::filesystem::path kScript = jourdain::test::source_dir() / "apps" / "report" / "page" / "report.js";

}  // namespace

TEST_CASE("report.js is valid JavaScript, as a browser's classic script") {
  const std::string node = find_node();
  if (node.empty()) {
    const char* allow = std::getenv("JOURDAIN_ALLOW_NO_NODE");
    if (allow && std::string(allow) == "1") {
      std::cout << "SKIPPED: no node on PATH (JOURDAIN_ALLOW_NO_NODE=1); install the Debian package `nodejs` "
                   "to run this test\n";
      std::exit(77);
    }
    FAIL("no node on PATH: install the Debian package `nodejs` (.ci/install-deps does), "
         "or set JOURDAIN_ALLOW_NO_NODE=1 to skip this test");
  }
  REQUIRE(std::filesystem::exists(kScript));
  auto check = run_command(shell_quote(node) + " --check " + shell_quote(kScript));
  CHECK_MESSAGE(check.exit_code == 0, check.output);
  const std::string classic =
      "const fs = require('fs'), vm = require('vm'); const file = process.argv[1];"
      "new vm.Script(fs.readFileSync(file, 'utf8'), { filename: file });";
  auto script = run_command(shell_quote(node) + " -e " + shell_quote(classic) + " " + shell_quote(kScript));
  CHECK_MESSAGE(script.exit_code == 0, script.output);

  // The checks catch a syntax error (they do not pass whatever they are given).
  jourdain::test::TempDir dir;
  const auto bad = dir.path() / "bad.js";
  jourdain::test::write_text(bad, "\"use strict\";\nfunction f( {\n");
  CHECK(run_command(shell_quote(node) + " --check " + shell_quote(bad)).exit_code != 0);
  const auto top_return = dir.path() / "return.js";
  jourdain::test::write_text(top_return, "\"use strict\";\nreturn 1;\n");
  CHECK(run_command(shell_quote(node) + " -e " + shell_quote(classic) + " " + shell_quote(top_return)).exit_code != 0);
}
