// The studio's requests without sockets (apps/studio/src/api.hpp): saving keeps a file
// byte for byte unless it changed, never overwrites a hand edit unseen, and no path
// leaves the workspace. The browser tests beside this one drive the same requests
// through HTTP and the page.
#include "api.hpp"

#include <filesystem>

#include "jourdain/document.hpp"
#include "jourdain/page/page.hpp"
#include "jourdain_test.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using jourdain::studio::Api;
using jourdain::studio::Request;
using jourdain::studio::Response;

namespace {

struct Studio {
  jourdain::test::TempDir dir;
  jourdain::Registry registry = jourdain::test::builtin_registry();
  jourdain::studio::Runs runs{JOURDAIN_EXE, {}};
  Api api{registry, jourdain::studio::Workspace(dir.path()), {}, runs, ""};

  Response post(const std::string& path, const json& body) { return api.handle({"POST", path, {}, body.dump()}); }
  Response get(const std::string& path, std::map<std::string, std::string> query = {}) {
    return api.handle({"GET", path, std::move(query), ""});
  }
};

// Written by hand: aligned columns, a number spelled 1e-3, keys in no canonical order.
const std::string kHandWritten = R"({
  "name": "msd",
  "components": {
    "wall":   {"type": "mechanical1d.fixed"},
    "spring": {"type": "mechanical1d.spring", "params": {"stiffness": "100 N/m"}},
    "mass":   {"type": "mechanical1d.mass",   "params": {"mass": 1e-3}}
  },
  "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"]],
  "solver": {"method": "dopri5", "t_end": 1}
}
)";

}  // namespace

TEST_CASE("saving unchanged leaves the file byte for byte; a change writes the canonical text") {
  Studio s;
  jourdain::test::write_text(s.dir.path() / "msd.json", kHandWritten);
  Response opened = s.get("/api/netlist", {{"path", "msd.json"}});
  REQUIRE(opened.status == 200);
  const json o = json::parse(opened.body);
  CHECK(o["text"] == kHandWritten);
  CHECK(o["schematic"]["levels"][""]["components"].size() == 3);

  // The page sends back its own serialisation of the same netlist: nothing is written.
  const json same = json::parse(kHandWritten);
  Response r = s.post("/api/save", {{"path", "msd.json"}, {"text", same.dump(2)}, {"base", kHandWritten}});
  REQUIRE(r.status == 200);
  CHECK(json::parse(r.body)["written"] == false);
  CHECK(jourdain::test::read_text(s.dir.path() / "msd.json") == kHandWritten);

  // A changed stiffness: the canonical text, in the file's key order, 1e-3 still 1e-3.
  nlohmann::ordered_json edited = nlohmann::ordered_json::parse(kHandWritten);  // the page keeps key order
  edited["components"]["spring"]["params"]["stiffness"] = "0.2 kN/m";
  r = s.post("/api/save", {{"path", "msd.json"}, {"text", edited.dump()}, {"base", kHandWritten}});
  REQUIRE(r.status == 200);
  CHECK(json::parse(r.body)["written"] == true);
  const std::string now = jourdain::test::read_text(s.dir.path() / "msd.json");
  CHECK(now == json::parse(r.body)["text"]);
  CHECK(now.find("\"mass\": 1e-3") != std::string::npos);
  CHECK(now.find("\"stiffness\": \"0.2 kN/m\"") != std::string::npos);
  CHECK(now.find("\"name\"") < now.find("\"components\""));
  CHECK(jourdain::NetlistDocument::parse(now, "msd.json").text() == now);  // canonical
}

TEST_CASE("a file edited by hand since it was opened is not overwritten") {
  Studio s;
  jourdain::test::write_text(s.dir.path() / "msd.json", kHandWritten);
  const std::string hand_edit = kHandWritten + " ";
  jourdain::test::write_text(s.dir.path() / "msd.json", hand_edit);
  json edited = json::parse(kHandWritten);
  edited["solver"]["t_end"] = 2;
  Response r = s.post("/api/save", {{"path", "msd.json"}, {"text", edited.dump()}, {"base", kHandWritten}});
  CHECK(r.status == 409);
  CHECK(json::parse(r.body)["error"].get<std::string>().find("changed on disk") != std::string::npos);
  CHECK(jourdain::test::read_text(s.dir.path() / "msd.json") == hand_edit);
  // A new file needs no base; an existing one saved as new is refused.
  r = s.post("/api/save", {{"path", "new.json"}, {"text", edited.dump()}, {"base", nullptr}});
  CHECK(r.status == 200);
  CHECK(fs::exists(s.dir.path() / "new.json"));
  CHECK(s.post("/api/save", {{"path", "new.json"}, {"text", edited.dump()}, {"base", nullptr}}).status == 409);
  // Not JSON, or not a .json file: refused, nothing written.
  CHECK(s.post("/api/save", {{"path", "x.json"}, {"text", "{"}, {"base", nullptr}}).status == 400);
  CHECK(s.post("/api/save", {{"path", "x.txt"}, {"text", "{}"}, {"base", nullptr}}).status == 400);
  CHECK(!fs::exists(s.dir.path() / "x.json"));
}

TEST_CASE("no path leaves the workspace") {
  Studio s;
  jourdain::test::TempDir outside;
  jourdain::test::write_text(outside.path() / "secret.json", "{}");
  fs::create_directory_symlink(outside.path(), s.dir.path() / "link");
  for (const std::string& p : std::vector<std::string>{"../secret.json", outside.path().string() + "/secret.json", "link/secret.json",
                              "a/../../secret.json"}) {
    CAPTURE(p);
    CHECK(s.get("/api/netlist", {{"path", p}}).status == 403);
    CHECK(s.get("/files/" + p).status == 403);
    CHECK(s.post("/api/save", {{"path", p}, {"text", "{}"}, {"base", nullptr}}).status == 403);
  }
  CHECK(jourdain::test::read_text(outside.path() / "secret.json") == "{}");
  // A workspace file is served as a page of no origin.
  jourdain::test::write_text(s.dir.path() / "r.html", "<p>x</p>");
  const Response f = s.get("/files/r.html");
  CHECK(f.status == 200);
  CHECK(f.sandboxed);
  CHECK(f.content_type.starts_with("text/html"));
}

TEST_CASE("the page comes without ELK, which is served apart") {
  Studio s;
  const std::string elk(jourdain::page::layout_script());
  REQUIRE(elk.size() > 100000);  // elkjs' bundled build
  const Response page = s.get("/");
  CHECK(page.status == 200);
  CHECK(page.body.find(elk.substr(0, 4096)) == std::string::npos);
  const Response script = s.get("/assets/elk.js");
  CHECK(script.status == 200);
  CHECK(script.content_type.starts_with("text/javascript"));
  CHECK(script.body == elk);
}

TEST_CASE("check answers as jourdain check --json; configure gives a configured instance's ports") {
  Studio s;
  json bad = json::parse(kHandWritten);
  bad["connections"].push_back({"mass.p", "wall.p"});  // two state sides
  const Response r = s.post("/api/check", {{"path", "msd.json"}, {"text", bad.dump(2)}});
  REQUIRE(r.status == 200);
  const json c = json::parse(r.body);
  CHECK(c["ok"] == false);
  REQUIRE(c["diagnostics"].size() >= 1);
  const json& d = c["diagnostics"][0];
  CHECK(d["path"] == "/connections/2");
  CHECK(d["message"].get<std::string>().find("both are state-side") != std::string::npos);
  // The command line says the same of the same file.
  jourdain::test::write_text(s.dir.path() / "bad.json", bad.dump(2));
  const auto cli = jourdain::test::run_command(std::string(JOURDAIN_EXE) + " check --json " +
                                               (s.dir.path() / "bad.json").string() + " 2>/dev/null");
  CHECK(json::parse(cli.output)["diagnostics"][0]["message"] == d["message"]);

  const Response v = s.post("/api/configure", {{"type", "hydraulic.volume"}, {"params", {{"ports", 3}}}});
  REQUIRE(v.status == 200);
  CHECK(json::parse(v.body)["ports"].size() == 3);
  CHECK(s.post("/api/configure", {{"type", "hydraulic.volume"}, {"params", {{"ports", 0}}}}).status == 400);
  CHECK(s.post("/api/configure", {{"type", "no.such"}}).status == 400);
  CHECK(s.post("/api/check", {{"path", "msd.json"}}).status == 400);  // no text
  CHECK(s.get("/api/nothing").status == 404);
}

TEST_CASE("a sweep is asked as jourdain sweep takes it, and refused without a parameter") {
  Studio s;
  jourdain::test::write_text(s.dir.path() / "msd.json", kHandWritten);
  const auto refused = [&](const json& body) {
    const Response r = s.post("/api/run", body);
    CAPTURE(body.dump());
    CHECK(r.status == 400);
    return json::parse(r.body)["error"].get<std::string>();
  };
  CHECK(refused({{"path", "msd.json"}, {"analysis", "sweep"}}).find("needs a parameter") != std::string::npos);
  CHECK(refused({{"path", "msd.json"}, {"analysis", "sweep"}, {"params", {"spring.stiffness"}}}).find("NAME=VALUES") != std::string::npos);
  CHECK(refused({{"path", "msd.json"}, {"analysis", "sweep"}, {"params", "spring.stiffness=1,2"}}).find("list of strings") != std::string::npos);
  CHECK(refused({{"path", "msd.json"}, {"analysis", "optimize"}}).find("\"sweep\"") != std::string::npos);

  // The command: plugins and consent before `sweep` (jourdain sweep's own order), the run's
  // other options left out, each NAME=VALUES glued to its option.
  jourdain::studio::Runs runs{"/bin/jourdain", {"--plugin", "/p/a.so", "--allow-plugins", "--max-components", "100"}};
  jourdain::studio::RunRequest request;
  request.analysis = "sweep";
  request.netlist = "/w/msd.json";
  request.output = "/w/results/msd_sweep";
  request.params = {"spring.stiffness=-100,-200"};
  request.outputs = {"mass.x:final"};
  request.zip = true;
  CHECK(runs.command(request) == std::vector<std::string>{"/bin/jourdain", "--plugin", "/p/a.so", "--allow-plugins", "sweep",
                                                          "/w/msd.json", "-o", "/w/results/msd_sweep", "--progress-lines",
                                                          "--param=spring.stiffness=-100,-200", "--output=mass.x:final", "--zip"});
  // Subsystems from other folders: not something `jourdain sweep` can be told.
  jourdain::studio::Runs with_library{"/bin/jourdain", {"--library", "/lib"}};
  CHECK_THROWS_WITH_AS(with_library.command(request), doctest::Contains("--library"), jourdain::Error);
}
