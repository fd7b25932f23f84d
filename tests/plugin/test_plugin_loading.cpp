// Loading plugins, and refusing the ones that cannot be used: a plugin built for
// another framework ABI version, a path that does not exist, a shared library without
// the JOURDAIN_PLUGIN entry points, a file that is no shared library at all, and a
// plugin that tries to take a name already registered. Each refusal is bad input (exit
// code 2) with a message that names the plugin file and says what is wrong.
#include <fstream>

#include "jourdain/errors.hpp"
#include "jourdain/version.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;
using namespace jourdain::test;
namespace fs = std::filesystem;

namespace {

// A ramp (from the plugin) into an integrator: y(t) = slope t² / 2.
std::string ramp_netlist(const std::string& plugins_json) {
  return R"({
  "name": "ramp",
  )" + (plugins_json.empty() ? std::string() : "\"plugins\": " + plugins_json + ",\n") +
         R"(  "components": {
    "ramp": {"type": "tiny.ramp", "params": {"slope": 2}},
    "integ": {"type": "signal.integrator"}
  },
  "connections": [["ramp.out", "integ.in"]],
  "solver": {"method": "dopri5", "t_end": 1, "rtol": 1e-10, "atol": 1e-12, "output_interval": 0.1},
  "record": ["integ.y"]
})";
}

// Last value of the second column of results.csv.
double last_value(const fs::path& csv) {
  std::ifstream in(csv);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  auto comma = last.find(',');
  REQUIRE(comma != std::string::npos);
  return std::stod(last.substr(comma + 1));
}

std::string run_with_plugin(const fs::path& netlist, const fs::path& out, const std::string& plugin) {
  return shell_quote(jourdain_exe()) + " run " + shell_quote(netlist) + " -o " + shell_quote(out) + " --plugin " + shell_quote(plugin);
}

}  // namespace

TEST_CASE("a plugin built for this framework loads and its component runs") {
  TempDir tmp;
  const fs::path netlist = tmp.path() / "ramp.json";
  write_text(netlist, ramp_netlist(""));

  auto r = run_command(run_with_plugin(netlist, tmp.path() / "out", TINY_PLUGIN));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(last_value(tmp.path() / "out" / "results.csv") == doctest::Approx(1.0).epsilon(1e-9));  // 2 * 1² / 2

  // `list` shows where the type came from; without the plugin the type is unknown.
  auto list = run_command(shell_quote(jourdain_exe()) + " list --plugin " + shell_quote(TINY_PLUGIN));
  CHECK(list.exit_code == 0);
  CHECK(list.output.find("tiny.ramp") != std::string::npos);
  CHECK(list.output.find(fs::canonical(TINY_PLUGIN).string()) != std::string::npos);
  auto without = run_command(shell_quote(jourdain_exe()) + " run " + shell_quote(netlist) + " -o " + shell_quote(tmp.path() / "out2"));
  CHECK(without.exit_code == 2);
  CHECK(without.output.find("tiny.ramp") != std::string::npos);
}

TEST_CASE("a plugin named in the netlist is found relative to the netlist, and loading it twice is harmless") {
  TempDir tmp;
  fs::create_directories(tmp.path() / "case" / "plugins");
  fs::copy_file(TINY_PLUGIN, tmp.path() / "case" / "plugins" / "tiny.so");
  const fs::path netlist = tmp.path() / "case" / "ramp.json";
  write_text(netlist, ramp_netlist(R"(["plugins/tiny.so"])"));
  // Run from another folder: the relative path must not be resolved against it. A
  // netlist's plugins load with the user's consent (--allow-plugins).
  auto r = run_command("cd / && " + shell_quote(jourdain_exe()) + " run --allow-plugins " + shell_quote(netlist) + " -o " +
                       shell_quote(tmp.path() / "out"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(last_value(tmp.path() / "out" / "results.csv") == doctest::Approx(1.0).epsilon(1e-9));

  // The same file given on the command line as well: loaded once, no duplicate types.
  auto twice = run_command(run_with_plugin(netlist, tmp.path() / "out2", (tmp.path() / "case" / "plugins" / "tiny.so").string()) +
                           " --allow-plugins");
  INFO(twice.output);
  CHECK(twice.exit_code == 0);
}

TEST_CASE("a plugin built for another ABI version is refused with both versions named") {
  TempDir tmp;
  const fs::path netlist = tmp.path() / "ramp.json";
  write_text(netlist, ramp_netlist(""));
  auto r = run_command(run_with_plugin(netlist, tmp.path() / "out", TINY_PLUGIN_ABI999));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find(TINY_PLUGIN_ABI999) != std::string::npos);
  CHECK(r.output.find("ABI version 999") != std::string::npos);
  CHECK(r.output.find("ABI version " + std::to_string(JOURDAIN_ABI_VERSION)) != std::string::npos);
  CHECK(r.output.find("rebuild the plugin") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp.path() / "out" / "results.csv"));  // nothing ran

  // The same refusal when the netlist names the plugin; the message adds where.
  fs::copy_file(TINY_PLUGIN_ABI999, tmp.path() / "old.so");
  const fs::path named = tmp.path() / "named.json";
  write_text(named, ramp_netlist(R"(["old.so"])"));
  auto n = run_command(shell_quote(jourdain_exe()) + " run --allow-plugins " + shell_quote(named) + " -o " +
                       shell_quote(tmp.path() / "out2"));
  INFO(n.output);
  CHECK(n.exit_code == 2);
  CHECK(n.output.find(named.string()) != std::string::npos);
  CHECK(n.output.find("/plugins/0") != std::string::npos);
  CHECK(n.output.find("old.so") != std::string::npos);
  CHECK(n.output.find("ABI version 999") != std::string::npos);
}

TEST_CASE("a plugin path that does not exist is bad input naming the path") {
  TempDir tmp;
  const fs::path netlist = tmp.path() / "ramp.json";
  write_text(netlist, ramp_netlist(""));
  const fs::path missing = tmp.path() / "no_such_plugin.so";
  auto r = run_command(run_with_plugin(netlist, tmp.path() / "out", missing.string()));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find(missing.string()) != std::string::npos);
  CHECK(r.output.find("does not exist") != std::string::npos);

  // Named in the netlist, relative to it.
  const fs::path named = tmp.path() / "named.json";
  write_text(named, ramp_netlist(R"(["lib/missing.so"])"));
  auto n = run_command(shell_quote(jourdain_exe()) + " run --allow-plugins " + shell_quote(named) + " -o " +
                       shell_quote(tmp.path() / "out2"));
  INFO(n.output);
  CHECK(n.exit_code == 2);
  CHECK(n.output.find((tmp.path() / "lib" / "missing.so").string()) != std::string::npos);
  CHECK(n.output.find("does not exist") != std::string::npos);
}

TEST_CASE("a shared library without the entry points is not a Jourdain plugin") {
  TempDir tmp;
  const fs::path netlist = tmp.path() / "ramp.json";
  write_text(netlist, ramp_netlist(""));
  auto r = run_command(run_with_plugin(netlist, tmp.path() / "out", NOT_A_PLUGIN));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find(NOT_A_PLUGIN) != std::string::npos);
  CHECK(r.output.find("not a Jourdain plugin") != std::string::npos);

  // A file that is no shared library at all (here: the netlist itself).
  auto j = run_command(run_with_plugin(netlist, tmp.path() / "out", netlist.string()));
  INFO(j.output);
  CHECK(j.exit_code == 2);
  CHECK(j.output.find(netlist.string()) != std::string::npos);
  CHECK(j.output.find("cannot load plugin") != std::string::npos);
}

TEST_CASE("a plugin may not replace a type that is already registered") {
  TempDir tmp;
  const fs::path netlist = tmp.path() / "ramp.json";
  write_text(netlist, ramp_netlist(""));
  auto r = run_command(run_with_plugin(netlist, tmp.path() / "out", TINY_PLUGIN_SHADOW_PATH));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find(TINY_PLUGIN_SHADOW_PATH) != std::string::npos);
  CHECK(r.output.find("failed to register") != std::string::npos);
  CHECK(r.output.find("signal.constant") != std::string::npos);
}

TEST_CASE("Registry::load_plugin: types carry the plugin's path; a refused plugin adds nothing") {
  Registry registry = builtin_registry();
  const auto before = registry.all().size();
  CHECK_THROWS_WITH_AS(registry.load_plugin(TINY_PLUGIN_ABI999), doctest::Contains("ABI version 999"), InputError);
  CHECK_THROWS_WITH_AS(registry.load_plugin(NOT_A_PLUGIN), doctest::Contains("not a Jourdain plugin"), InputError);
  CHECK(registry.all().size() == before);

  registry.load_plugin(TINY_PLUGIN);
  registry.load_plugin(TINY_PLUGIN);  // the same file again: a no-op, not "registered twice"
  REQUIRE(registry.find("tiny.ramp") != nullptr);
  CHECK(registry.find("tiny.ramp")->origin == fs::canonical(TINY_PLUGIN).string());
  CHECK(registry.find("signal.constant")->origin == "built-in");
  CHECK(registry.all().size() == before + 1);

  // The plugin's component works in a model built in this process.
  Netlist net = load_netlist_text(ramp_netlist(""), "ramp.json", registry);
  RunOptions o;
  o.keep_rows = true;
  RunResult res = run_netlist(net, o);
  REQUIRE(res.finished);
  CHECK(at_time(res, "integ.y", 0.5) == doctest::Approx(0.25).epsilon(1e-9));
}
