// The netlist document and the check: every problem at once (diagnostics.hpp), the
// layout section, and the canonical text that `jourdain format` writes (document.hpp).
#include <algorithm>
#include <set>

#include "jourdain/document.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

NetlistCheck check(const std::string& text, const std::filesystem::path& file = "net.json") {
  Registry r = jourdain::test::builtin_registry();
  return check_netlist_text(text, file, r);
}

std::vector<std::string> error_paths(const Diagnostics& d) {
  std::vector<std::string> out;
  for (const auto& x : d.all())
    if (x.severity == Severity::Error) out.push_back(x.where.json_path);
  return out;
}

const Diagnostic* warning_at(const Diagnostics& d, const std::string& path) {
  for (const auto& x : d.all())
    if (x.severity == Severity::Warning && x.where.json_path == path) return &x;
  return nullptr;
}

// Five independent mistakes, one of each kind a user makes while drawing a netlist.
const char* kFiveMistakes = R"({
  "name": "five",
  "components": {
    "wall": {"type": "mechanical1d.fixed"},
    "spring": {"type": "mechanical1d.sprng", "params": {"stiffness": "100 N/m"}},
    "mass": {"type": "mechanical1d.mass", "params": {"mass": "2 kgg"}},
    "gear": {"type": "mechanical.gear_pair"},
    "damper": {"type": "mechanical1d.damper"},
    "load": {"type": "mechanical1d.mass", "params": {"mass": 1}}
  },
  "connections": [
    ["wall.p", "spring.a"], ["spring.b", "mass.p"], ["load.p", "damper.b"], ["wall.p", "damper.a"],
    ["load.q", "wall.p"]
  ],
  "record": ["load.x", "load.velocity", "spring.force"]
})";

}  // namespace

TEST_CASE("a check reports five independent mistakes at once, each at its JSON path") {
  const NetlistCheck c = check(kFiveMistakes);
  CHECK_FALSE(c.netlist.has_value());
  const auto paths = error_paths(c.diagnostics);
  INFO(c.diagnostics.to_json().dump(2));
  // Unknown type, bad unit, missing parameter, dangling connection, bad record entry: the
  // connections and the record entry naming the left-out spring are not reported again.
  const std::vector<std::string> expected = {"/components/gear/params", "/components/mass/params/mass",
                                             "/components/spring/type", "/connections/4", "/record/1"};
  CHECK(paths == expected);
  const auto& all = c.diagnostics.all();
  auto message_at = [&](const std::string& path) {
    for (const auto& d : all)
      if (d.where.json_path == path) return d;
    return Diagnostic{};
  };
  CHECK(message_at("/components/spring/type").suggestion == "mechanical1d.spring");
  CHECK(message_at("/components/mass/params/mass").suggestion == "kg");
  CHECK(message_at("/components/gear/params").message.find("ratio") != std::string::npos);
  CHECK(message_at("/connections/4").where.port == "q");
  CHECK(message_at("/record/1").where.component == "load");

  // The texts are those a load throws: a run still stops at the first, unchanged.
  Registry r = jourdain::test::builtin_registry();
  try {
    load_netlist_text(kFiveMistakes, "net.json", r);
    FAIL("the load did not fail");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == c.diagnostics.first_error().what());
  }

  // The JSON a tool reads.
  const json j = c.diagnostics.to_json();
  CHECK(j["errors"] == 5);
  CHECK(j["diagnostics"][0]["severity"] == "error");
  CHECK(j["diagnostics"][0]["path"] == "/components/gear/params");
}

TEST_CASE("a check of a sound netlist has no diagnostics and gives the netlist") {
  const NetlistCheck c = check(R"({"components": {"m": {"type": "mechanical1d.mass"}}, "record": ["m.x"]})");
  CHECK(c.diagnostics.all().empty());
  REQUIRE(c.netlist.has_value());
  CHECK(c.netlist->record == std::vector<std::string>{"m.x"});
}

TEST_CASE("a check goes on past faults inside subsystems, saying the instance once") {
  const NetlistCheck c = check(R"({
    "subsystems": {"cell": {"parameters": {"k": {"default": 1}},
                            "components": {"m": {"type": "mechanical1d.mas"}, "s": {"type": "mechanical1d.spring"}},
                            "connections": [["m.p", "s.a"]], "ports": {"end": "s.b"}}},
    "components": {"a": {"type": "cell"}, "b": {"type": "cell"}, "w": {"type": "mechanical1d.fixed"}},
    "connections": [["w.p", "a.end"], ["a.end", "b.end"], ["w.p", "x.p"]]
  })");
  INFO(c.diagnostics.to_json().dump(2));
  // Each instance's fault once, with its instance; the connections to the instances left
  // out are not judged; the connection to nothing is.
  REQUIRE(c.diagnostics.error_count() == 3);
  const auto& d = c.diagnostics.all();
  CHECK(d[0].where.component == "a/m");
  CHECK(d[0].message.find("(in subsystem 'a' of type 'cell')") != std::string::npos);
  CHECK(d[1].where.component == "b/m");
  CHECK(d[1].message.find("(in subsystem 'b' of type 'cell')") != std::string::npos);
  CHECK(d[2].where.json_path == "/connections/2");
}

TEST_CASE("a layout section is checked, with warnings, and ignored by the model") {
  const std::string text = R"({
    "components": {"m": {"type": "mechanical1d.mass"}, "w": {"type": "mechanical1d.fixed"},
                   "s": {"type": "mechanical1d.spring"}},
    "connections": [["w.p", "s.a"], ["s.b", "m.p"]],
    "layout": {
      "canvas": {"width": 800, "height": 600, "grid": 10},
      "components": {"m": {"x": 300, "y": 100, "rotation": 90, "flip": "horizontal", "editor_colour": "#c00"},
                     "w": {"x": 100, "y": 100}, "s": {"x": 200, "y": 100}, "mas": {"x": 1, "y": 2},
                     "bad": "here"},
      "wires": [{"from": "s.b", "to": "m.p", "points": [[250, 100]]}, {"from": "w.p", "to": "m.p"}],
      "notes": [{"x": 10, "y": 10, "text": "a spring"}, {"x": "left", "y": 0}]
    }
  })";
  const NetlistCheck c = check(text);
  INFO(c.diagnostics.to_json().dump(2));
  CHECK(c.diagnostics.error_count() == 0);
  REQUIRE(c.netlist.has_value());
  const Diagnostic* stray = warning_at(c.diagnostics, "/layout/components/mas");
  REQUIRE(stray != nullptr);
  CHECK(stray->suggestion == "m");
  CHECK(warning_at(c.diagnostics, "/layout/components/bad") != nullptr);
  CHECK(warning_at(c.diagnostics, "/layout/wires/1") != nullptr);  // no connection joins w.p and m.p
  CHECK(warning_at(c.diagnostics, "/layout/wires/0") == nullptr);
  CHECK(warning_at(c.diagnostics, "/layout/notes/1/x") != nullptr);
  CHECK(warning_at(c.diagnostics, "/layout/notes/1") != nullptr);  // no text
  CHECK(c.diagnostics.all().size() == 5);
  // The key an editor keeps for itself is no warning; a run loads the netlist as if the
  // layout were not there.
  Netlist with = jourdain::test::load(text);
  CHECK(with.model.components().size() == 3);
}

TEST_CASE("the document knows where each value was written") {
  const std::string text = "{\n  \"name\": \"x\",\n  \"components\": {\n    \"m\": {\"type\": \"mechanical1d.mass\"}\n  },\n"
                           "  \"record\": [\"m.x\", \"m.v\"]\n}\n";
  const NetlistDocument d = NetlistDocument::parse(text, "x.json");
  CHECK(d.position("/name") == std::pair{2, 3});
  CHECK(d.position("/components/m") == std::pair{4, 5});
  CHECK(d.position("/components/m/type").first == 4);
  CHECK(d.position("/record/1") == std::pair{6, 21});
  CHECK(d.position("/components/m/params/mass") == d.position("/components/m"));  // nearest written
  CHECK(d.position("") == std::pair{0, 0});
}

TEST_CASE("the canonical text keeps key order and number spellings, and is idempotent") {
  const std::string text = R"({"name": "n", "components": {"z": {"type": "mechanical1d.mass", "params": {"mass": 2.50e-3}},
    "a": {"type": "mechanical1d.fixed"}}, "solver": {"t_end": 1e1, "rtol": 0.000001, "atol": 1E-9}})";
  const NetlistDocument d = NetlistDocument::parse(text, "n.json");
  const std::string canonical = d.text();
  CHECK(canonical == "{\n"
                     "  \"name\": \"n\",\n"
                     "  \"components\": {\n"
                     "    \"z\": {\"type\": \"mechanical1d.mass\", \"params\": {\"mass\": 2.50e-3}},\n"
                     "    \"a\": {\"type\": \"mechanical1d.fixed\"}\n"
                     "  },\n"
                     "  \"solver\": {\"t_end\": 1e1, \"rtol\": 0.000001, \"atol\": 1E-9}\n"
                     "}\n");
  CHECK(NetlistDocument::parse(canonical, "n.json").text() == canonical);
  // An edited number is written as its value.
  NetlistDocument edited = d;
  edited.root()["solver"]["rtol"] = 1e-8;
  CHECK(edited.text().find("\"rtol\": 1e-08") != std::string::npos);
  CHECK_FALSE(d.has_comments());
  CHECK(NetlistDocument::parse("{ // a comment\n \"a\": 1}", "c.json").has_comments());
}

namespace {

// A layout for a netlist: its components on a grid, a wire for each connection, a note.
ordered_json layout_for(const ordered_json& level) {
  ordered_json layout = {{"canvas", {{"width", 1600}, {"height", 900}, {"grid", 10}}}};
  int k = 0;
  for (const auto& [name, spec] : level["components"].items()) {
    layout["components"][name] = {{"x", 40 + 120 * (k % 10)}, {"y", 40 + 100 * (k / 10)}, {"rotation", 90 * (k % 4)}};
    ++k;
  }
  layout["wires"] = ordered_json::array();
  if (level.contains("connections"))
    for (const auto& c : level["connections"])
      layout["wires"].push_back({{"from", c[0]}, {"to", c[1]}, {"points", {{10.5, 20}, {10.5, 60}}}});
  layout["notes"] = {{{"x", 20}, {"y", 860}, {"text", "drawn by the test"}}};
  return layout;
}

// What makes two models the same for a user: components, parameters, start values,
// evaluation order and the variables one can record.
std::string model_fingerprint(const Model& m) {
  std::ostringstream out;
  out.precision(17);
  std::vector<const Component*> comps;
  for (const auto& c : m.components()) {
    comps.push_back(c.get());
    out << c->name() << ":" << c->type_name() << "\n";
  }
  for (const auto& p : m.parameters()) out << p.name << "=" << p.default_value << "\n";
  const Context ctx = m.make_context(0.0);
  for (Eigen::Index i = 0; i < ctx.x.size(); ++i) out << ctx.x[i] << " ";
  out << "\n" << m.schedule().describe(comps);
  for (const auto& v : m.recordable()) out << v.name << " ";
  return out.str();
}

}  // namespace

TEST_CASE("every example netlist, given a layout, survives load, save and load, and saves idempotently") {
  Registry registry = jourdain::test::builtin_registry();
  for (const auto& entry : std::filesystem::directory_iterator(jourdain::test::source_dir() / "netlists")) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().filename().string());
    NetlistDocument doc = NetlistDocument::read(entry.path());
    doc.root()["layout"] = layout_for(doc.root());
    const std::string saved = doc.text();
    const NetlistDocument reread = NetlistDocument::parse(saved, entry.path());
    CHECK(reread.root() == doc.root());
    CHECK(reread.text() == saved);  // idempotent
    // The same model as the file without a layout, and a check without warnings.
    const Netlist original = load_netlist(entry.path(), registry);
    const NetlistCheck checked = check_netlist_text(saved, entry.path(), registry);
    INFO(checked.diagnostics.to_json().dump(2));
    CHECK(checked.diagnostics.all().empty());
    REQUIRE(checked.netlist.has_value());
    CHECK(model_fingerprint(checked.netlist->model) == model_fingerprint(original.model));
    // And the canonical text of the file itself, as `jourdain format` writes it.
    const std::string formatted = NetlistDocument::read(entry.path()).text();
    CHECK(NetlistDocument::parse(formatted, entry.path()).text() == formatted);
    const Netlist from_formatted = load_netlist_text(formatted, entry.path(), registry);
    CHECK(model_fingerprint(from_formatted.model) == model_fingerprint(original.model));
  }
}

TEST_CASE("the check and format commands") {
  jourdain::test::TempDir dir;
  const auto five = dir.path() / "five.json";
  jourdain::test::write_text(five, kFiveMistakes);
  const std::string exe = jourdain::test::jourdain_exe();
  auto text = jourdain::test::run_command(exe + " check " + jourdain::test::shell_quote(five));
  CHECK(text.exit_code == 2);
  CHECK(text.output.find("5 errors in") != std::string::npos);
  auto as_json = jourdain::test::run_command(exe + " check --json " + jourdain::test::shell_quote(five) + " 2>/dev/null");
  CHECK(as_json.exit_code == 2);
  const json j = json::parse(as_json.output);
  CHECK(j["ok"] == false);
  CHECK(j["errors"] == 5);
  CHECK(j["diagnostics"][1]["line"] == 6);  // the mass's unit, on the file's sixth line

  // format: in place, then already canonical; --check says which.
  const auto messy = dir.path() / "messy.json";
  jourdain::test::write_text(messy, R"({"components":{"m":{"type":"mechanical1d.mass"}},"record":["m.x"]})");
  CHECK(jourdain::test::run_command(exe + " format --check " + jourdain::test::shell_quote(messy)).exit_code == 1);
  CHECK(jourdain::test::run_command(exe + " format " + jourdain::test::shell_quote(messy)).exit_code == 0);
  CHECK(jourdain::test::read_text(messy) ==
        "{\n  \"components\": {\"m\": {\"type\": \"mechanical1d.mass\"}},\n  \"record\": [\"m.x\"]\n}\n");
  CHECK(jourdain::test::run_command(exe + " format --check " + jourdain::test::shell_quote(messy)).exit_code == 0);
  // Comments are not dropped without the user's word, and the file stays as it was.
  const auto commented = dir.path() / "commented.json";
  const std::string with_comment = "{\n  // the mass\n  \"components\": {\"m\": {\"type\": \"mechanical1d.mass\"}}\n}\n";
  jourdain::test::write_text(commented, with_comment);
  CHECK(jourdain::test::run_command(exe + " format " + jourdain::test::shell_quote(commented)).exit_code == 2);
  CHECK(jourdain::test::read_text(commented) == with_comment);
}

TEST_CASE("describe configures a type from given parameters, without a model") {
  const std::string exe = jourdain::test::jourdain_exe();
  const auto r = jourdain::test::run_command(exe + " describe hydraulic.volume --json --params '{\"ports\": 3}'");
  REQUIRE(r.exit_code == 0);
  const json d = json::parse(r.output);
  std::set<std::string> ports;
  for (const auto& p : d["ports"]) ports.insert(p["name"].get<std::string>());
  CHECK(ports == std::set<std::string>{"p1", "p2", "p3"});
}
