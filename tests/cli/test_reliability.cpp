// Reliability of the command line: the same run twice gives the same bytes; every way a
// run can fail stops it with exit code 1, a message naming the time and the components,
// every row up to the failure kept and the failure in summary.json; absurd requests are
// refused up front; plugins come only from the paths a user names.
#include <cstdlib>

#include "jourdain_test.hpp"

using jourdain::test::CommandResult;
using jourdain::test::read_text;
using jourdain::test::shell_quote;
using jourdain::test::TempDir;
using jourdain::test::write_text;

namespace {

CommandResult cli(const std::string& args) {
  return jourdain::test::run_command(shell_quote(jourdain::test::jourdain_exe()) + " " + args);
}

// Runs a netlist text; returns the command's result, the summary and results.csv.
struct Run {
  CommandResult command;
  nlohmann::json summary;
  std::string csv;
};

Run run_text(const TempDir& dir, const std::string& name, const std::string& text) {
  auto file = dir.path() / (name + ".json");
  write_text(file, text);
  auto out = dir.path() / name;
  Run r{cli("run -q " + shell_quote(file) + " -o " + shell_quote(out)), {}, {}};
  if (std::filesystem::exists(out / "summary.json")) r.summary = nlohmann::json::parse(read_text(out / "summary.json"));
  if (std::filesystem::exists(out / "results.csv")) r.csv = read_text(out / "results.csv");
  return r;
}

// Times of the rows of a results.csv (first column).
std::vector<double> row_times(const std::string& csv) {
  std::vector<double> t;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) t.push_back(std::stod(line.substr(0, line.find(','))));
  return t;
}

}  // namespace

TEST_CASE("the same netlist run twice gives byte-identical results.csv") {
  TempDir dir;
  for (const char* name : {"bouncing_mass", "feedback_amplifier", "mass_spring_damper"}) {
    CAPTURE(name);
    auto net = shell_quote(jourdain::test::netlist_path(name));
    for (const char* method : {"dopri5", "bdf", "rk4"}) {
      CAPTURE(method);
      // --set cannot reach the solver section, so each method gets its own copy.
      nlohmann::json doc = nlohmann::json::parse(read_text(jourdain::test::netlist_path(name)), nullptr, true, true);
      doc["solver"]["method"] = method;
      auto file = dir.path() / (std::string(name) + "_" + method + ".json");
      write_text(file, doc.dump());
      auto a = dir.path() / "a", b = dir.path() / "b";
      REQUIRE(cli("run -q " + shell_quote(file) + " -o " + shell_quote(a)).exit_code == 0);
      REQUIRE(cli("run -q " + shell_quote(file) + " -o " + shell_quote(b)).exit_code == 0);
      const std::string csv_a = read_text(a / "results.csv"), csv_b = read_text(b / "results.csv");
      CHECK(csv_a.size() > 100);
      CHECK(csv_a == csv_b);
      // The summaries differ only in wall time.
      auto sa = nlohmann::json::parse(read_text(a / "summary.json")), sb = nlohmann::json::parse(read_text(b / "summary.json"));
      sa.erase("wall_time_s");
      sb.erase("wall_time_s");
      CHECK(sa == sb);
    }
    (void)net;
  }
}

TEST_CASE("every kind of run failure: exit 1, named, rows kept, recorded in summary.json") {
  TempDir dir;
  struct Case {
    const char* name;
    std::string netlist;
    std::vector<std::string> message_parts;  // what the message must say
    double t_min, t_max;                      // where the failure must be placed
  };
  // f(t) = 1/(1 - t), integrated: x = -ln(1 - t) blows up at t = 1.
  auto singular = [](const char* method) {
    return std::string(R"({
      "components": {
        "one":  {"type": "signal.constant", "params": {"value": 1}},
        "gap":  {"type": "signal.ramp", "params": {"offset": 1, "slope": -1, "start_time": 0}},
        "rate": {"type": "signal.product", "params": {"operations": "*/"}},
        "x":    {"type": "signal.integrator"}
      },
      "connections": [["one.out", "rate.in1"], ["gap.out", "rate.in2"], ["rate.out", "x.in"]],
      "record": ["x.y"],
      "solver": {"method": ")") + method + R"(", "t_end": 2, "output_interval": 0.01, "rtol": 1e-8, "atol": 1e-10}
    })";
  };
  std::vector<Case> cases = {
      // y' = 1000 y, y(0) = 1: y = e^(1000 t) overflows at ln(DBL_MAX)/1000 = 0.7098 s
      // (a little earlier inside the Runge–Kutta stages, whose sums are ~10 times f).
      {"overflow_to_infinity",
       R"({"components": {"big": {"type": "signal.integrator", "params": {"k": 1000}, "initial": {"y": 1}}},
           "connections": [["big.out", "big.in"]], "record": ["big.y"],
           "solver": {"method": "dopri5", "t_end": 1, "output_interval": 0.01}})",
       {"'big'", "not finite"}, 0.69, 0.7099},
      {"singularity_dopri5", singular("dopri5"), {"step size underflow", "state 'x.y'"}, 0.99, 1.0 + 1e-9},
      {"singularity_bdf", singular("bdf"), {"CVODE stopped", "error test failed"}, 0.99, 1.0 + 1e-9},
      {"singularity_rk4", singular("rk4"), {"division by zero", "'rate'"}, 0.99, 1.0 + 1e-9},
      // y = 1 + s y: solvable while s = 0, singular once a step sets s = 1 at t = 0.3.
      {"algebraic_loop_without_solution",
       R"({"components": {"u": {"type": "signal.constant", "params": {"value": 1}},
                          "s": {"type": "signal.step", "params": {"step_time": 0.3, "before": 0, "after": 1}},
                          "add": {"type": "signal.sum", "params": {"signs": "++"}},
                          "fb": {"type": "signal.product", "params": {"operations": "**"}}},
           "connections": [["u.out", "add.in1"], ["s.out", "fb.in1"], ["add.out", "fb.in2"], ["fb.out", "add.in2"]],
           "record": ["add.out"], "solver": {"method": "rk4", "t_end": 1, "output_interval": 0.1}})",
       {"algebraic loop", "'add'", "'fb'"}, 0.3 - 1e-9, 0.3 + 1e-9},
      {"step_budget_exhausted",
       R"({"components": {"wall": {"type": "mechanical1d.fixed"},
                          "spring": {"type": "mechanical1d.spring", "params": {"stiffness": 1e8}},
                          "mass": {"type": "mechanical1d.mass", "params": {"mass": 1e-3}, "initial": {"x": 0.1}}},
           "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"]], "record": ["mass.x"],
           "solver": {"method": "dopri5", "t_end": 1, "output_interval": 0.001, "max_steps": 5000}})",
       {"max_steps"}, 1e-3, 0.99},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Run r = run_text(dir, c.name, c.netlist);
    CAPTURE(r.command.output);
    CHECK(r.command.exit_code == 1);
    for (const auto& part : c.message_parts) CHECK(r.command.output.find(part) != std::string::npos);
    REQUIRE(r.summary.is_object());
    CHECK(r.summary["status"] == "failed");
    const double t_fail = r.summary["failure"]["time"].get<double>();
    CHECK(t_fail >= c.t_min);
    CHECK(t_fail <= c.t_max);
    CHECK(r.summary["failure"]["message"].get<std::string>().find("at t = ") == 0);
    // Every output time before the failure has its row, and nothing after it.
    auto t = row_times(r.csv);
    REQUIRE(!t.empty());
    CHECK(t.front() == 0.0);
    CHECK(t.back() <= t_fail);
    const double interval = r.summary["solver"]["output_interval"].get<double>();
    CHECK(t.back() > t_fail - interval - 1e-9);
    CHECK(static_cast<long>(t.size()) == r.summary["rows"].get<long>());
  }
}

TEST_CASE("absurd output requests are refused before anything runs") {
  TempDir dir;
  Run rows = run_text(dir, "rows", R"({"components": {"m": {"type": "mechanical1d.mass"}},
                                        "solver": {"t_end": 1e6, "output_interval": 1e-6}})");
  CHECK(rows.command.exit_code == 2);
  CHECK(rows.command.output.find("/solver/output_interval") != std::string::npos);
  CHECK(rows.command.output.find("max_output_rows") != std::string::npos);
  CHECK(rows.csv.empty());
  Run steps = run_text(dir, "steps", R"({"components": {"m": {"type": "mechanical1d.mass"}},
                                         "solver": {"method": "rk4", "t_end": 1e9, "output_interval": 1e4, "step": 1e-6}})");
  CHECK(steps.command.exit_code == 2);
  CHECK(steps.command.output.find("/solver/step") != std::string::npos);
  // An end time pushed up from the command line is checked the same way.
  auto file = dir.path() / "ok.json";
  write_text(file, R"({"components": {"m": {"type": "mechanical1d.mass"}}, "solver": {"output_interval": 0.001}})");
  CommandResult far = cli("run -q " + shell_quote(file) + " -o " + shell_quote(dir.path() / "far") + " --t-end 1e12");
  CHECK(far.exit_code == 2);
  CHECK(far.output.find("max_output_rows") != std::string::npos);
}

TEST_CASE("plugins are loaded only from the paths a user names") {
  TempDir here, elsewhere;
  // A file named like a plugin in the working folder and on LD_LIBRARY_PATH: if anything
  // searched there, loading would be attempted and fail differently ("cannot load").
  write_text(here.path() / "libparts.so", "not a library");
  write_text(elsewhere.path() / "net.json",
             R"({"plugins": ["libparts.so"], "components": {"m": {"type": "mechanical1d.mass"}}})");
  const std::string env = "cd " + shell_quote(here.path()) + " && LD_LIBRARY_PATH=" + shell_quote(here.path()) + " ";
  CommandResult netlist_form = jourdain::test::run_command(env + shell_quote(jourdain::test::jourdain_exe()) +
                                                           " check --allow-plugins " + shell_quote(elsewhere.path() / "net.json"));
  CHECK(netlist_form.exit_code == 2);
  // Resolved against the netlist's folder, not the working folder.
  CHECK(netlist_form.output.find((elsewhere.path() / "libparts.so").string()) != std::string::npos);
  CHECK(netlist_form.output.find("does not exist") != std::string::npos);
  // On the command line a relative path is the user's own (relative to where they are),
  // and a bare name is not looked up on LD_LIBRARY_PATH.
  CommandResult bare = jourdain::test::run_command("cd / && LD_LIBRARY_PATH=" + shell_quote(here.path()) + " " +
                                                   shell_quote(jourdain::test::jourdain_exe()) + " --plugin libparts.so list");
  CHECK(bare.exit_code == 2);
  CHECK(bare.output.find("does not exist") != std::string::npos);
}
