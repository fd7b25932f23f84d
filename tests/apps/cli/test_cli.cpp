// The `jourdain` command line: normal use, the bad-input suite (exit code 2 and a
// message naming the place), a simulation failure (exit code 1, results kept), an
// internal error (exit code 3, results kept) and a summary.json that cannot be written.
#include <chrono>
#include <fstream>
#include <sstream>

#include "jourdain_test.hpp"

using jourdain::test::CommandResult;
using jourdain::test::TempDir;

namespace {

std::string exe() { return jourdain::test::jourdain_exe(); }

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
  auto path = dir.path() / name;
  jourdain::test::write_text(path, text);
  return path.string();
}

std::string slurp(const std::filesystem::path& p) { return jourdain::test::read_text(p); }

CommandResult cli(const std::string& args) { return jourdain::test::run_command(exe() + " " + args); }

// Runs a netlist text that must be refused; returns the message.
std::string refused(const std::string& netlist_text, const std::string& extra = "") {
  TempDir dir;
  auto file = write(dir, "bad.json", netlist_text);
  CommandResult r = cli("run -q " + file + " -o " + (dir.path() / "out").string() + " " + extra);
  CAPTURE(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("bad.json") != std::string::npos);
  return r.output;
}

const std::string kOscillator = R"({
  "name": "osc",
  "components": {
    "wall": {"type": "mechanical1d.fixed"},
    "spring": {"type": "mechanical1d.spring", "params": {"stiffness": "100 N/m"}},
    "mass": {"type": "mechanical1d.mass", "initial": {"x": 0.1}}
  },
  "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"]],
  "solver": {"method": "dopri5", "t_end": 1, "output_interval": 0.1},
  "record": ["mass.x", "spring.force"]
})";

}  // namespace

TEST_CASE("list, describe and check") {
  CommandResult list = cli("list");
  CHECK(list.exit_code == 0);
  CHECK(list.output.find("mechanical1d.mass") != std::string::npos);
  CHECK(list.output.find("signal.gain") != std::string::npos);

  CommandResult d = cli("describe mechanical1d.mass");
  CHECK(d.exit_code == 0);
  CHECK(d.output.find("mass (real, kg) = 1") != std::string::npos);
  CHECK(d.output.find("[mechanical1d, state side]") != std::string::npos);
  CommandResult dj = cli("describe mechanical1d.spring --json");
  CHECK(dj.exit_code == 0);
  auto j = nlohmann::json::parse(dj.output);
  CHECK(j["parameters"][0]["name"] == "stiffness");
  CHECK(j["parameters"][0]["unit"] == "N/m");
  CHECK(j["ports"][0]["side"] == "response");
  CHECK(cli("describe nosuch.type").exit_code == 2);

  TempDir dir;
  CommandResult c = cli("check " + write(dir, "osc.json", kOscillator));
  CHECK(c.exit_code == 0);
  CHECK(c.output.find("Evaluation order") != std::string::npos);
  CHECK(c.output.find("0 algebraic loop") != std::string::npos);
}

TEST_CASE("run writes results.csv and summary.json; --set and --t-end apply") {
  TempDir dir;
  auto file = write(dir, "osc.json", kOscillator);
  auto out = dir.path() / "out";
  CommandResult r = cli("run -q " + file + " -o " + out.string() + " --set mass.mass=4 --t-end 0.5");
  CAPTURE(r.output);
  REQUIRE(r.exit_code == 0);
  std::string csv = slurp(out / "results.csv");
  CHECK(csv.rfind("time [s],mass.x [m],spring.force [N]\n", 0) == 0);
  auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  CHECK(summary["status"] == "finished");
  CHECK(summary["solver"]["t_end"] == 0.5);
  CHECK(summary["rows"] == 6);
  // mass 4 kg: ω = 5 rad/s, x(0.5) = 0.1 cos(2.5); dopri5 at its default rtol 1e-6.
  CHECK(summary["final_values"]["mass.x"].get<double>() == doctest::Approx(0.1 * std::cos(2.5)).epsilon(1e-4).scale(0));
}

// Runs the command line keeping one stream: "stdout" or "stderr" (the other is dropped).
CommandResult cli_stream(const std::string& args, const std::string& stream) {
  const std::string keep = stream == "stdout" ? " 2>/dev/null" : " 2>&1 >/dev/null";
  return jourdain::test::run_command("( " + exe() + " " + args + keep + " )");
}

TEST_CASE("-q is quiet: nothing on stdout, errors still on stderr") {
  TempDir dir;
  auto file = write(dir, "osc.json", kOscillator);
  auto out = dir.path() / "out";
  // Without -q: where the results, the summary and the report went.
  CommandResult loud = cli_stream("run " + file + " -o " + out.string(), "stdout");
  CAPTURE(loud.output);
  CHECK(loud.exit_code == 0);
  for (const char* line : {"results: ", "summary: ", "report: "}) CHECK(loud.output.find(line) != std::string::npos);
  // With -q: the same files, and not a word on either stream.
  std::filesystem::remove_all(out);
  CommandResult quiet = cli("run -q " + file + " -o " + out.string());
  CAPTURE(quiet.output);
  CHECK(quiet.exit_code == 0);
  CHECK(quiet.output.empty());
  CHECK(std::filesystem::exists(out / "results.csv"));
  CHECK(std::filesystem::exists(out / "summary.json"));
  CHECK(std::filesystem::exists(out / "report.html"));
  // A run that fails under -q: stdout stays empty, the failure is on stderr (exit 1).
  std::string text = kOscillator;
  text.replace(text.find(R"("t_end": 1,)"), 11, R"("t_end": 1, "max_steps": 3,)");
  auto failing = write(dir, "fails.json", text);
  CommandResult out_only = cli_stream("run -q " + failing + " -o " + out.string(), "stdout");
  CHECK(out_only.exit_code == 1);
  CHECK(out_only.output.empty());
  CommandResult err_only = cli_stream("run -q " + failing + " -o " + out.string(), "stderr");
  CAPTURE(err_only.output);
  CHECK(err_only.exit_code == 1);
  CHECK(err_only.output.find("simulation failed") != std::string::npos);
  CHECK(err_only.output.find("max_steps") != std::string::npos);
}

TEST_CASE("bad input: exit code 2 and a message that names the place") {
  SUBCASE("malformed JSON") {
    std::string m = refused("{\"components\": {\"m\": {\"type\": \"mechanical1d.mass\"}\n");
    CHECK(m.find("malformed JSON at line") != std::string::npos);
  }
  SUBCASE("unknown component type") {
    std::string m = refused(R"({"components": {"m": {"type": "mechanical1d.masss"}}})");
    CHECK(m.find("/components/m/type") != std::string::npos);
    CHECK(m.find("unknown component type 'mechanical1d.masss'") != std::string::npos);
  }
  SUBCASE("unknown port") {
    std::string m = refused(R"({"components": {"m": {"type": "mechanical1d.mass"}, "s": {"type": "mechanical1d.spring"},
                                               "w": {"type": "mechanical1d.fixed"}},
                                "connections": [["m.p", "s.a"], ["w.p", "s.c"]]})");
    CHECK(m.find("/connections/1") != std::string::npos);
    CHECK(m.find("component 's'") != std::string::npos);
    CHECK(m.find("port 'c'") != std::string::npos);
  }
  SUBCASE("two outputs driving one input") {
    std::string m = refused(R"({"components": {"a": {"type": "signal.constant"}, "b": {"type": "signal.step"},
                                               "i": {"type": "signal.integrator"}},
                                "connections": [["a.out", "i.in"], ["b.out", "i.in"]]})");
    CHECK(m.find("component 'i'") != std::string::npos);
    CHECK(m.find("port 'in'") != std::string::npos);
    CHECK(m.find("'a.out'") != std::string::npos);
    CHECK(m.find("'b.out'") != std::string::npos);
  }
  SUBCASE("an input left unconnected") {
    std::string m = refused(R"({"components": {"m": {"type": "mechanical1d.mass"}, "s": {"type": "mechanical1d.spring"}},
                                "connections": [["m.p", "s.a"]]})");
    CHECK(m.find("component 's'") != std::string::npos);
    CHECK(m.find("port 'b'") != std::string::npos);
    CHECK(m.find("not connected") != std::string::npos);
  }
  SUBCASE("a missing parameter") {
    std::string m = refused(R"({"components": {"u": {"type": "signal.constant"}, "curve": {"type": "signal.table"}},
                                "connections": [["u.out", "curve.in"]]})");
    CHECK(m.find("/components/curve/params") != std::string::npos);
    CHECK(m.find("component 'curve'") != std::string::npos);
    CHECK(m.find("parameter 'table': missing") != std::string::npos);
  }
  SUBCASE("an out-of-range parameter") {
    std::string m = refused(R"({"components": {"m": {"type": "mechanical1d.mass", "params": {"restitution": 1.5}}}})");
    CHECK(m.find("/components/m/params/restitution") != std::string::npos);
    CHECK(m.find("out of its range [0, 1]") != std::string::npos);
  }
  SUBCASE("a wrongly united parameter") {
    std::string m = refused(R"({"components": {"s": {"type": "mechanical1d.spring", "params": {"stiffness": "5 bar"}},
                                               "m": {"type": "mechanical1d.mass"}, "n": {"type": "mechanical1d.mass"}},
                                "connections": [["m.p", "s.a"], ["n.p", "s.b"]]})");
    CHECK(m.find("/components/s/params/stiffness") != std::string::npos);
    CHECK(m.find("does not fit the expected unit 'N/m'") != std::string::npos);
  }
  SUBCASE("a connection between incompatible port types") {
    std::string m = refused(R"({"components": {"c": {"type": "signal.constant"}, "m": {"type": "mechanical1d.mass"}},
                                "connections": [["c.out", "m.p"]]})");
    CHECK(m.find("/connections/0") != std::string::npos);
    CHECK(m.find("port types differ") != std::string::npos);
  }
  SUBCASE("a plugin that does not exist, named in the netlist") {
    std::string m = refused(R"({"plugins": ["no/such/plugin.so"], "components": {"m": {"type": "mechanical1d.mass"}}})");
    CHECK(m.find("/plugins/0") != std::string::npos);
    CHECK(m.find("no/such/plugin.so") != std::string::npos);
  }
  SUBCASE("an unknown solver key") {
    std::string m = refused(R"({"components": {"m": {"type": "mechanical1d.mass"}}, "solver": {"rtoll": 1e-6}})");
    CHECK(m.find("/solver/rtoll") != std::string::npos);
    CHECK(m.find("for method dopri5; its keys: method, t_start") != std::string::npos);
    CHECK(m.find("did you mean 'rtol'?") != std::string::npos);
  }
  SUBCASE("a misspelt unit given with --set names the option") {
    std::string m = refused(R"({"components": {"relief": {"type": "hydraulic.relief_valve",
                                                          "params": {"cracking_pressure": "200 bar"}}}})",
                            "--set relief.cracking_pressure='25 barr'");
    CHECK(m.find("--set relief.cracking_pressure: component 'relief': parameter 'cracking_pressure'") != std::string::npos);
    CHECK(m.find("/components/relief") == std::string::npos);
  }
  SUBCASE("a variable recorded twice") {
    std::string m = refused(R"({"components": {"m": {"type": "mechanical1d.mass"}}, "record": ["m.x", "m.v", "m.x"]})");
    CHECK(m.find("/record/2: 'm.x' is recorded twice: already at /record/0") != std::string::npos);
  }
  SUBCASE("an unknown solver method") {
    std::string m = refused(R"({"components": {"m": {"type": "mechanical1d.mass"}}, "solver": {"method": "bfd"}})");
    CHECK(m.find("/solver/method: unknown method 'bfd'; registered methods: adams, bdf, dopri5, rk4; did you mean 'bdf'?") !=
          std::string::npos);
  }
}

TEST_CASE("jourdain solvers: the methods and their settings; a key of another method is a warning") {
  CommandResult all = cli("solvers");
  CAPTURE(all.output);
  CHECK(all.exit_code == 0);
  for (const char* text : {"bdf - SUNDIALS CVODE", "dopri5 - Dormand-Prince", "rk4 - classical",
                           "step (real, s) = 0.0  range [0, inf) s", "Every method also reads:", "max_output_rows (integer)"})
    CHECK(all.output.find(text) != std::string::npos);
  CommandResult one = cli("solvers bdf --json");
  REQUIRE(one.exit_code == 0);
  auto d = nlohmann::json::parse(one.output);
  CHECK(d["name"] == "bdf");
  CHECK(d["settings"].size() == 12);  // 5 shared + rtol, atol, max_step, initial_step, the Jacobian's three settings
  CommandResult unknown = cli("solvers rk5");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.output.find("unknown method 'rk5'; registered methods: adams, bdf, dopri5, rk4; did you mean 'rk4'?") !=
        std::string::npos);

  // rtol is dopri5's and bdf's: with rk4 it is ignored, and both check and run say so.
  TempDir dir;
  std::string text = kOscillator;
  text.replace(text.find(R"("method": "dopri5")"), 18, R"("method": "rk4", "rtol": 1e-8)");
  auto file = write(dir, "osc_rk4.json", text);
  CommandResult c = cli("check " + file);
  CAPTURE(c.output);
  CHECK(c.exit_code == 0);
  CHECK(c.output.find("/solver/rtol: not read by method rk4 (a setting of adams, bdf, dopri5); ignored") != std::string::npos);
  CommandResult r = cli("run " + file + " -o " + (dir.path() / "out").string() + " --no-report");
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("not read by method rk4") != std::string::npos);
  auto summary = nlohmann::json::parse(slurp(dir.path() / "out" / "summary.json"));
  CHECK(summary["warnings"][0] == "/solver/rtol: not read by method rk4 (a setting of adams, bdf, dopri5); ignored");
}

TEST_CASE("bad input on the command line itself") {
  CommandResult missing = cli("run /no/such/netlist.json");
  CHECK(missing.exit_code == 2);
  CHECK(missing.output.find("/no/such/netlist.json") != std::string::npos);
  CommandResult plugin = cli("--plugin /no/such/plugin.so list");
  CHECK(plugin.exit_code == 2);
  CHECK(plugin.output.find("/no/such/plugin.so") != std::string::npos);
  CHECK(cli("frobnicate").exit_code == 2);
}

TEST_CASE("a simulation failure exits 1 and keeps everything computed so far") {
  // A stiff oscillator on an explicit method with a step budget that runs out mid-way.
  TempDir dir;
  auto file = write(dir, "stiff.json", R"({
    "components": {
      "wall": {"type": "mechanical1d.fixed"},
      "spring": {"type": "mechanical1d.spring", "params": {"stiffness": 1e4}},
      "damper": {"type": "mechanical1d.damper", "params": {"damping": 1e3}},
      "mass": {"type": "mechanical1d.mass", "params": {"mass": 1e-3}, "initial": {"x": 0.1}}
    },
    "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"], ["wall.p", "damper.a"], ["mass.p", "damper.b"]],
    "solver": {"method": "dopri5", "t_end": 1, "output_interval": 0.001, "max_steps": 20000},
    "record": ["mass.x"]
  })");
  auto out = dir.path() / "out";
  CommandResult r = cli("run -q " + file + " -o " + out.string());
  CAPTURE(r.output);
  CHECK(r.exit_code == 1);
  CHECK(r.output.find("max_steps") != std::string::npos);
  auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  CHECK(summary["status"] == "failed");
  const double t_fail = summary["failure"]["time"].get<double>();
  CHECK(t_fail > 0.01);
  CHECK(t_fail < 1.0);
  // Every output time before the failure is in results.csv: rows at 0, 1 ms, 2 ms, ...
  std::istringstream csv(slurp(out / "results.csv"));
  std::string line;
  long rows = -1;
  double last_t = -1;
  while (std::getline(csv, line)) {
    if (++rows == 0) continue;
    last_t = std::stod(line.substr(0, line.find(',')));
  }
  CHECK(rows == summary["rows"].get<long>());
  CHECK(last_t <= t_fail);
  CHECK(last_t > t_fail - 0.001 - 1e-12);
}

namespace {

// A rod (1 m, 2 kg) pinned at the origin, with extra components and connections: the
// over-constrained variants below.
std::string pinned_rod(const std::string& extra_components, const std::string& extra_connections,
                       const std::string& analysis = "dynamic") {
  return R"({
    "analysis": ")" + analysis + R"(",
    "components": {
      "ground": {"type": "mechanical.ground", "params": {"points": {"O": [0, 0]}}},
      "rod": {"type": "mechanical.body", "params": {"mass": 2, "inertia": 0.1667, "points": {"p": [-0.5, 0], "q": [0.5, 0]}},
              "initial": {"x": 0.5}},
      "hinge": {"type": "mechanical.revolute"})" + extra_components + R"(
    },
    "connections": [["ground.O", "hinge.a"], ["rod.p", "hinge.b"])" + extra_connections + R"(],
    "solver": {"t_end": 0.1}
  })";
}

}  // namespace

TEST_CASE("over-constrained input is bad input for check and run: exit 2 with the file, the JSON path and the "
          "components, unless least squares is asked for") {
  struct Case {
    std::string what;
    std::string netlist;
    std::vector<std::string> named;  // in the message: the JSON path and components
  };
  const std::vector<Case> cases = {
      {"a duplicated joint",
       pinned_rod(R"(, "hinge2": {"type": "mechanical.revolute"})", R"(, ["ground.O", "hinge2.a"], ["rod.p", "hinge2.b"])"),
       {"/components/hinge2", "component 'hinge2'", "redundant constraints", "revolute 'hinge2'"}},
      {"two drivers on one degree of freedom",
       pinned_rod(R"(, "turn": {"type": "mechanical.driver_angle"},
                     "push": {"type": "mechanical.driver_x", "params": {"value": 1}})",
                  R"(, ["rod.cm", "turn.a"], ["rod.q", "push.a"])", "kinematic"),
       {"/components/", "two drivers on one degree of freedom", "driver_"}},
      {"a kinematic analysis with a degree of freedom left", pinned_rod("", "", "kinematic"),
       {"/analysis", "zero degrees of freedom", "this mechanism has 1"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    TempDir dir;
    const std::string file = write(dir, "over.json", c.netlist);
    for (const std::string command : {"check " + file, "run -q " + file + " -o " + (dir.path() / "out").string()}) {
      CommandResult r = cli(command);
      CAPTURE(command);
      CAPTURE(r.output);
      CHECK(r.exit_code == 2);
      CHECK(r.output.find("over.json") != std::string::npos);
      for (const auto& n : c.named) CHECK(r.output.find(n) != std::string::npos);
      CHECK(r.output.find(": OK") == std::string::npos);  // check says nothing is fine first
    }
  }
  // Asked to, the duplicated joint is solved in the least-squares sense, with a notice.
  TempDir dir;
  std::string text = cases[0].netlist;
  text.insert(text.find("\"components\""), R"("world": {"constraints": {"redundant": "least_squares"}}, )");
  const std::string file = write(dir, "asked.json", text);
  CommandResult ok = cli("check " + file);
  CAPTURE(ok.output);
  CHECK(ok.exit_code == 0);
  CHECK(ok.output.find("redundant constraints solved in the least-squares sense") != std::string::npos);
  CHECK(cli("run -q " + file + " -o " + (dir.path() / "out").string()).exit_code == 0);
}

TEST_CASE("--strict: a run that ends with an accuracy warning exits 1, its results kept; without it, 0 with the "
          "warning") {
  // rk4 at a step so long that each projection moves the rod by millimetres, more than
  // world.constraints.tolerance: the results are not vouched for.
  TempDir dir;
  std::string text = pinned_rod("", "");
  text.replace(text.find(R"("solver": {"t_end": 0.1})"), std::string(R"("solver": {"t_end": 0.1})").size(),
               R"("solver": {"method": "rk4", "t_end": 1, "step": 0.1, "output_interval": 0.1})");
  const std::string file = write(dir, "coarse.json", text);
  const auto out = dir.path() / "out";
  CommandResult plain = cli("run " + file + " -o " + out.string());
  CAPTURE(plain.output);
  CHECK(plain.exit_code == 0);
  CHECK(plain.output.find("not vouched for: ") != std::string::npos);
  CHECK(nlohmann::json::parse(slurp(out / "summary.json"))["accuracy_warnings"].size() == 1);
  const std::string report = slurp(out / "report.html");
  CHECK(report.find("accuracy_warnings") != std::string::npos);

  CommandResult strict = cli("run -q --strict " + file + " -o " + out.string());
  CAPTURE(strict.output);
  CHECK(strict.exit_code == 1);
  CHECK(strict.output.find("strict run: the results are not vouched for") != std::string::npos);
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  CHECK(summary["status"] == "failed");
  CHECK(summary["strict"] == true);
  CHECK(summary["rows"].get<long>() == 11);  // every row written
}

TEST_CASE("an internal error (a defect, here a plugin's std::logic_error) exits 3, says so, and keeps the results") {
  TempDir dir;
  auto file = write(dir, "defect.json", R"({
    "components": {"fault": {"type": "defect.fault", "params": {"fail_time": 0.45}}, "integ": {"type": "signal.integrator"}},
    "connections": [["fault.out", "integ.in"]],
    "solver": {"method": "rk4", "t_end": 1, "step": 0.01, "output_interval": 0.1},
    "record": ["integ.y"]
  })");
  auto out = dir.path() / "out";
  CommandResult r = cli("run -q " + file + " -o " + out.string() + " --plugin " + DEFECT_PLUGIN);
  CAPTURE(r.output);
  CHECK(r.exit_code == 3);
  CHECK(r.output.find("internal error: defect.fault: an invariant of the plugin broke") != std::string::npos);
  CHECK(r.output.find("please report") != std::string::npos);
  // The rows before the defect (t = 0 ... 0.4; it strikes in the step that reaches 0.45)
  // and a summary that records it.
  auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  CHECK(summary["status"] == "failed");
  CHECK(summary["failure"]["message"].get<std::string>().find("internal error") != std::string::npos);
  CHECK(summary["rows"] == 5);
  std::istringstream csv(slurp(out / "results.csv"));
  std::string line;
  int lines = 0;
  while (std::getline(csv, line)) ++lines;
  CHECK(lines == 1 + 5);
  // The exit codes stay apart: the same netlist without the defect's time runs (0).
  CommandResult fine = cli("run -q " + file + " -o " + out.string() + " --plugin " + DEFECT_PLUGIN +
                           " --set fault.fail_time=2 --no-report");
  CHECK(fine.exit_code == 0);
}

TEST_CASE("an output folder where summary.json cannot be written is bad input found before the run") {
  TempDir dir;
  auto file = write(dir, "osc.json", kOscillator);
  auto out = dir.path() / "out";
  // A folder where summary.json should go: the file cannot be created.
  std::filesystem::create_directories(out / "summary.json");
  CommandResult r = cli("run -q " + file + " -o " + out.string() + " --no-report");
  CAPTURE(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find((out / "summary.json").string() + ": cannot create the file") != std::string::npos);
  // Nothing ran: results.csv holds its header only.
  std::istringstream csv(slurp(out / "results.csv"));
  std::string line;
  int lines = 0;
  while (std::getline(csv, line)) ++lines;
  CHECK(lines == 1);

  // The same through the session library: an OutputError naming the file, before the run.
  jourdain::Netlist net = jourdain::test::load(kOscillator);
  jourdain::RunOptions options;
  options.output_dir = out;
  try {
    jourdain::session::run(net, options, /*report=*/false);
    FAIL("summary.json was not refused");
  } catch (const jourdain::OutputError& e) {
    CHECK(e.file() == (out / "summary.json").string());
    CHECK(e.reason().find("cannot create the file") != std::string::npos);
  }
}

TEST_CASE("jourdain linearize: files, the operating point on the command line, bad input and no equilibrium") {
  TempDir dir;
  const std::string net = jourdain::test::netlist_path("mass_spring_damper").string();
  const auto out = dir.path() / "lin";
  CommandResult r = cli("linearize " + net + " --output mass.x -o " + out.string());
  CAPTURE(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("asymptotically stable") != std::string::npos);
  for (const char* file : {"linear.json", "A.csv", "B.csv", "C.csv", "D.csv", "modes.csv", "results.csv", "summary.json",
                           "report.html"})
    CHECK(std::filesystem::exists(out / file));
  const auto linear = nlohmann::json::parse(slurp(out / "linear.json"));
  CHECK(linear["states"].size() == 2);
  CHECK(linear["modes"].size() == 1);
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  CHECK(summary["analysis"] == "linear");
  CHECK(summary["status"] == "finished");
  CHECK(summary["linear"]["operating_point"]["at"] == "equilibrium");

  // A time as the operating point, on the command line; a bad one is bad input.
  r = cli("linearize -q " + net + " --at 0.5 -o " + (dir.path() / "t").string());
  CHECK(r.exit_code == 0);
  CHECK(nlohmann::json::parse(slurp(dir.path() / "t" / "summary.json"))["linear"]["operating_point"]["time"] == 0.5);
  r = cli("linearize -q " + net + " --at soon -o " + (dir.path() / "bad").string());
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("--at") != std::string::npos);
  r = cli("linearize -q " + net + " --input mass.mas -o " + (dir.path() / "bad").string());
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("mass.mass") != std::string::npos);  // the close name

  // A constant force on a free mass has no equilibrium: exit 1, summary.json says why.
  const std::string free_mass = write(dir, "free.json", R"({"components": {"mass": {"type": "mechanical1d.mass"},
      "push": {"type": "signal.constant", "params": {"value": 1}}, "actuator": {"type": "mechanical1d.force_source"}},
      "connections": [["push.out", "actuator.f"], ["actuator.p", "mass.p"]], "analysis": "linear"})");
  r = cli("run -q " + free_mass + " -o " + (dir.path() / "free").string());
  CHECK(r.exit_code == 1);
  const auto failed = nlohmann::json::parse(slurp(dir.path() / "free" / "summary.json"));
  CHECK(failed["status"] == "failed");
  CHECK(failed["failure"]["message"].get<std::string>().find("no equilibrium") != std::string::npos);
}

TEST_CASE("jourdain linearize: a frequency range that is not one is bad input naming the option (issue 38)") {
  // These once went through: --to inf wrote rows of inf and NaN, --from 0 and a range
  // upside down were silently replaced by the automatic one.
  TempDir dir;
  const std::string net = jourdain::test::netlist_path("mass_spring_damper").string();
  const std::string io = " --input mass.mass --output mass.x -o " + (dir.path() / "bad").string();
  for (const auto& option_and_name : std::vector<std::pair<std::string, std::string>>{
           {"--to inf", "--to"}, {"--from 100 --to 1", "--to"}, {"--from 0", "--from"}, {"--from -3", "--from"},
           {"--to 0", "--to"}, {"--from nan", "--from"}}) {
    // Named copies, not structured bindings: CAPTURE's lambda cannot take those in C++20.
    const std::string& options = option_and_name.first;
    const std::string& named = option_and_name.second;
    CAPTURE(options);
    const CommandResult r = cli("linearize -q " + net + " " + options + io);
    CAPTURE(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find(named) != std::string::npos);
  }
  // A range the right way round is taken as given, to the bit.
  const CommandResult r = cli("linearize -q " + net + " --from 0.5 --to 20" + io);
  REQUIRE(r.exit_code == 0);
  const auto bode = nlohmann::json::parse(slurp(dir.path() / "bad" / "linear.json"))["bode"]["frequency_hz"];
  CHECK(bode.front().get<double>() == 0.5);
  CHECK(bode.back().get<double>() == doctest::Approx(20.0).epsilon(1e-14));
}

// Issue 40, point 17: `jourdain schema > /dev/full` exited 0 (the buffer failed at exit,
// unchecked), and a `schema -o FILE` that failed part-way left a cut file in place of the
// old one.
TEST_CASE("what the command line writes is whole or not written: stdout checked, files replaced at once") {
  for (std::string command : {"schema", "list", "describe mechanical1d.mass", "solvers"}) {
    CAPTURE(command);
    // In a subshell: its stdout to /dev/full, its stderr (the message) to the test.
    const CommandResult full = jourdain::test::run_command("(" + exe() + " " + command + " > /dev/full)");
    CHECK(full.exit_code == 1);
    CHECK_MESSAGE(full.output.find("cannot write to standard output") != std::string::npos, full.output);
  }
  TempDir dir;
  const auto schema = dir.path() / "netlist.schema.json";
  jourdain::test::write_text(schema, "{\"old\": true}\n");
  // A file-size limit of one block: the schema (tens of kilobytes) cannot be written whole.
  const CommandResult cut = jourdain::test::run_command("ulimit -f 1; " + exe() + " schema -o " + schema.string());
  CHECK(cut.exit_code != 0);
  CHECK(slurp(schema) == "{\"old\": true}\n");
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    CHECK_MESSAGE(entry.path().filename() == "netlist.schema.json", entry.path());  // no partial file left
  CHECK(cli("schema -o " + schema.string()).exit_code == 0);
  CHECK(slurp(schema).size() > 1000);
}

// Issue 40, point 12: a signal outside a run's integration (loading, check, export-fmu,
// linearize) was swallowed: the command went on and exited 0.
TEST_CASE("a signal while a command loads its netlist ends it with 128 + the signal's number") {
  TempDir dir;
  // 10^5 masses through five levels of subsystems: seconds of loading.
  std::string text = R"({"subsystems": {"l0": {"components": {"m": {"type": "mechanical1d.mass"}}})";
  for (int level = 1; level <= 5; ++level) {
    text += R"(, "l)" + std::to_string(level) + R"(": {"components": {)";
    for (int k = 0; k < 10; ++k)
      text += (k ? ", " : "") + std::string("\"p") + std::to_string(k) + R"(": {"type": "l)" + std::to_string(level - 1) + "\"}";
    text += "}}";
  }
  text += R"(}, "components": {"all": {"type": "l5"}}})";
  const std::string net = write(dir, "big.json", text);
  const auto start = std::chrono::steady_clock::now();
  // The signal at 2 s: the program has long set its handlers (a signal before that ends
  // it by the default action, with nothing said), and the load takes about 10 s.
  const CommandResult r =
      jourdain::test::run_command("timeout --foreground --preserve-status -s INT 2 " + exe() +
                                  " check --max-components 1000000 " + net);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CAPTURE(r.output);
  if (seconds < 2.0) {
    MESSAGE("the netlist loaded in " << seconds << " s, before the signal: nothing to check");
    return;
  }
  CHECK(r.exit_code == 130);
  CHECK(r.output.find("by signal 2") != std::string::npos);
  // Issue 40, point 12: stopped while loading, not after (the load checks between components).
  CHECK(r.output.find("stopped while loading the netlist, at component 'all/") != std::string::npos);
  CHECK(r.output.find("nothing run, nothing written") != std::string::npos);
}
