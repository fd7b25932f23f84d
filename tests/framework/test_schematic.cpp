// The netlist as a diagram (framework/include/jourdain/schematic.hpp): each level's
// components with the ports of their configured instances, subsystem instances that
// open levels of their own, and the rules for subsystem files.
#include "jourdain/schematic.hpp"

#include <set>

#include "jourdain/document.hpp"
#include "jourdain_test.hpp"

using nlohmann::ordered_json;
using jourdain::test::TempDir;

namespace {

std::set<std::string> port_names(const ordered_json& component) {
  std::set<std::string> out;
  for (const auto& p : component["ports"]) out.insert(p["name"].get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("a component's ports are those of its configured instance, with domain and side") {
  auto registry = jourdain::test::builtin_registry();
  const ordered_json netlist = ordered_json::parse(R"({
    "components": {
      "tank": {"type": "hydraulic.volume", "params": {"volume": "1 l", "ports": 3}},
      "plain": {"type": "hydraulic.volume"},
      "body": {"type": "mechanical.body", "params": {"mass": 1, "inertia": 1, "points": {"a": [1, 0], "b": [-1, 0]}}},
      "typo": {"type": "hydraulic.volum"}
    },
    "connections": [],
    "record": ["tank.pressure"]
  })");
  const ordered_json s = jourdain::schematic(netlist, "/nowhere/n.json", registry);
  const ordered_json& top = s["levels"][""];
  CHECK(port_names(top["components"]["tank"]) == std::set<std::string>{"p1", "p2", "p3"});
  CHECK(port_names(top["components"]["plain"]) == std::set<std::string>{"p1", "p2"});  // the default: 2 ports
  CHECK(port_names(top["components"]["body"]) == std::set<std::string>{"a", "b", "cm"});
  for (const auto& p : top["components"]["tank"]["ports"]) {
    CHECK(p["domain"] == "hydraulic");
    CHECK(p["side"] == "state");  // a volume computes its pressure
  }
  CHECK(top["components"]["tank"]["library"] == "hydraulic");
  CHECK(top["components"]["typo"]["ports"].empty());
  CHECK(top["components"]["typo"]["summary"].get<std::string>().find("unknown type") != std::string::npos);
  CHECK(s["recorded"] == ordered_json::array({"tank.pressure"}));
  CHECK(s["needs_layout"] == true);  // no layout at all
  CHECK(s["netlist"] == netlist);
}

TEST_CASE("a subsystem instance opens its own level and shows its definition's ports") {
  auto registry = jourdain::test::builtin_registry();
  TempDir dir;
  // One definition inline, one in a file beside the netlist, one in a file outside.
  jourdain::test::write_text(dir.path() / "link.json", R"({
    "components": {"rod": {"type": "mechanical.body", "params": {"mass": 1, "inertia": 1, "points": {"a": [-1, 0], "b": [1, 0]}}},
                   "hinge": {"type": "mechanical.revolute"}},
    "connections": [["rod.a", "hinge.b"]],
    "ports": {"pivot": "hinge.a", "end": "rod.b"}})");
  const ordered_json netlist = ordered_json::parse(R"({
    "subsystems": {
      "gain_pair": {"components": {"g1": {"type": "signal.gain"}, "g2": {"type": "signal.gain"}},
                    "connections": [["g1.out", "g2.in"]], "ports": {"in": "g1.in", "out": "g2.out"},
                    "layout": {"components": {"g1": {"x": 10, "y": 10}, "g2": {"x": 90, "y": 10}}}},
      "link": "link.json",
      "stolen": "../secret.json"
    },
    "components": {"pair": {"type": "gain_pair"}, "arm": {"type": "link"}, "bad": {"type": "stolen"}},
    "connections": [],
    "layout": {"components": {"pair": {"x": 0, "y": 0}, "arm": {"x": 100, "y": 0}, "bad": {"x": 200, "y": 0}}}
  })");
  const ordered_json s = jourdain::schematic(netlist, dir.path() / "top.json", registry);
  const ordered_json& levels = s["levels"];
  REQUIRE(levels.contains("pair"));
  REQUIRE(levels.contains("arm"));
  const ordered_json& pair = levels[""]["components"]["pair"];
  CHECK(pair["subsystem"] == "pair");
  CHECK(pair["library"] == "subsystem");
  // An external port is the inner port it maps to, renamed: a signal input and output.
  REQUIRE(pair["ports"].size() == 2);
  CHECK(pair["ports"][0]["name"] == "in");
  CHECK(pair["ports"][0]["domain"] == "signal");
  CHECK(pair["ports"][0]["side"] == "response");
  CHECK(pair["ports"][1]["name"] == "out");
  CHECK(pair["ports"][1]["side"] == "state");
  CHECK(levels["pair"]["editable"] == true);  // inline: edited in the netlist itself
  CHECK(levels["pair"]["definition"] == "gain_pair");
  CHECK(levels["pair"]["connections"] == ordered_json::parse(R"([["g1.out", "g2.in"]])"));
  // The file's definition is read, and shown read-only.
  CHECK(levels["arm"]["editable"] == false);
  CHECK(port_names(levels[""]["components"]["arm"]) == std::set<std::string>{"pivot", "end"});
  CHECK(port_names(levels["arm"]["components"]["rod"]) == std::set<std::string>{"a", "b", "cm"});
  // A file outside the netlist's folder is not read: its level says why.
  REQUIRE(levels.contains("bad"));
  CHECK(levels["bad"]["error"].get<std::string>().find("outside") != std::string::npos);
  CHECK(levels["bad"]["components"].empty());
  // The top and the inline level are placed; the file's level is not.
  CHECK(s["needs_layout"] == true);
}

TEST_CASE("a netlist whose every level is placed needs no layout engine, and a self-naming definition stops") {
  auto registry = jourdain::test::builtin_registry();
  const ordered_json placed = ordered_json::parse(R"({
    "components": {"g": {"type": "signal.gain"}}, "connections": [],
    "layout": {"components": {"g": {"x": 1, "y": 2}}}})");
  CHECK(jourdain::schematic(placed, "/x/n.json", registry)["needs_layout"] == false);
  // A definition that instantiates itself: the diagram stops at a bounded depth.
  const ordered_json loop = ordered_json::parse(R"({
    "subsystems": {"me": {"components": {"inner": {"type": "me"}}, "connections": [], "ports": {}}},
    "components": {"top": {"type": "me"}}, "connections": []})");
  const ordered_json s = jourdain::schematic(loop, "/x/n.json", registry);
  CHECK(s["levels"].size() <= 40);
  CHECK(s["levels"].contains("top/inner"));
}
