// The pages' scripts parse (apps/page: the toolkit's plot.js followed by report.js,
// sweep.js or study.js, as the pages inline them, so that a name both declare is caught):
// `node --check`, and, as the browser reads it (a classic script, not a CommonJS
// module, where a top-level `return` would pass), Node's vm.Script. And axis ticks are
// written once, in the toolkit: no page's script and no Python module has its own. Node.js is the Debian package `nodejs`, which
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

const std::filesystem::path kToolkit = jourdain::test::source_dir() / "apps" / "page";

}  // namespace

TEST_CASE("the pages' scripts are valid JavaScript, as a browser's classic script") {
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
  const std::string classic =
      "const fs = require('fs'), vm = require('vm'); const file = process.argv[1];"
      "new vm.Script(fs.readFileSync(file, 'utf8'), { filename: file });";
  jourdain::test::TempDir pages;
  for (const char* own : {"report.js", "sweep.js", "study.js"}) {
    CAPTURE(own);
    REQUIRE(std::filesystem::exists(kToolkit / own));
    const auto script = pages.path() / own;
    jourdain::test::write_text(script, jourdain::test::read_text(kToolkit / "plot.js") +
                                           jourdain::test::read_text(kToolkit / own));
    auto check = run_command(shell_quote(node) + " --check " + shell_quote(script));
    CHECK_MESSAGE(check.exit_code == 0, check.output);
    auto parse = run_command(shell_quote(node) + " -e " + shell_quote(classic) + " " + shell_quote(script));
    CHECK_MESSAGE(parse.exit_code == 0, parse.output);
  }

  // The checks catch a syntax error (they do not pass whatever they are given).
  jourdain::test::TempDir dir;
  const auto bad = dir.path() / "bad.js";
  jourdain::test::write_text(bad, "\"use strict\";\nfunction f( {\n");
  CHECK(run_command(shell_quote(node) + " --check " + shell_quote(bad)).exit_code != 0);
  const auto top_return = dir.path() / "return.js";
  jourdain::test::write_text(top_return, "\"use strict\";\nreturn 1;\n");
  CHECK(run_command(shell_quote(node) + " -e " + shell_quote(classic) + " " + shell_quote(top_return)).exit_code != 0);
}

TEST_CASE("axis ticks are the toolkit's alone") {
  // The one place that chooses ticks: plot.js's niceTicks. A page's script calls it; a
  // second implementation (as sweep_page.py once had) is what this catches.
  const auto root = jourdain::test::source_dir();
  int definitions = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root / "apps")) {
    const auto ext = entry.path().extension();
    if (ext != ".js" && ext != ".py") continue;
    const std::string text = jourdain::test::read_text(entry.path());
    CAPTURE(entry.path().string());
    CHECK(text.find("def nice_ticks") == std::string::npos);
    CHECK(text.find("def choose_ticks") == std::string::npos);
    if (text.find("function niceTicks(") != std::string::npos) {
      CHECK(entry.path() == kToolkit / "plot.js");
      ++definitions;
    }
  }
  CHECK(definitions == 1);
}
