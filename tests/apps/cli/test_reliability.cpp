// Reliability of the command line: the same run twice gives the same bytes; every way a
// run can fail stops it with exit code 1, a message naming the time and the components,
// every row up to the failure kept and the failure in summary.json; absurd requests are
// refused up front; plugins come only from the paths a user names; runaway events, files
// that cannot be written and signals end a run cleanly (issue 18).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <sstream>

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

// ---------------------------------------------------------------- issue 18: runaway events

namespace {

// A 1 kg ball dropped from 1 m on a stop with restitution 0.8 that is never allowed to
// come to rest: infinitely many bounces before t* = sqrt(2h/g) (1 + 2e/(1 − e)) = 4.0637 s.
std::string zeno_ball(const std::string& method) {
  return R"({"world": {"gravity": [0, -9.81]},
    "components": {"ball": {"type": "mechanical1d.mass",
                            "params": {"inclination": "90 deg", "x_min": 0, "restitution": 0.8, "rest_velocity": 0},
                            "initial": {"x": 1}}},
    "solver": {"method": ")" + method + R"(", "t_end": 10, "output_interval": 0.01, "rtol": 1e-10, "atol": 1e-12,
               "step": 1e-4}})";
}

}  // namespace

TEST_CASE("events that accumulate stop the run at once, naming the component (D5, D6)") {
  TempDir dir;
  const double t_zeno = std::sqrt(2.0 / 9.81) * (1.0 + 2.0 * 0.8 / (1.0 - 0.8));
  for (const std::string method : {"dopri5", "rk4", "bdf"}) {
    CAPTURE(method);
    Run r = run_text(dir, "zeno_" + method, zeno_ball(method));
    CAPTURE(r.command.output);
    // Before: dopri5 and rk4 wrote 2·10^7 rows (1.2 GB) until the row guard; bdf missed a
    // landing, finished with exit 0 and the ball 172 m below its stop.
    CHECK(r.command.exit_code == 1);
    CHECK(r.command.output.find("('ball'): events accumulate") != std::string::npos);
    REQUIRE(r.summary.is_object());
    CHECK(r.summary["status"] == "failed");
    // Where the bounces accumulate (each flight is integrated to the method's accuracy;
    // their errors add up over the 60-odd bounces resolved).
    CHECK(r.summary["failure"]["time"].get<double>() == doctest::Approx(t_zeno).epsilon(1e-5));
    CHECK(r.csv.size() < 200'000);
    // The ball never went through its stop.
    std::istringstream rows(r.csv);
    std::string line;
    std::getline(rows, line);
    double lowest = 1.0;
    while (std::getline(rows, line)) {
      const auto comma = line.find(',');
      lowest = std::min(lowest, std::stod(line.substr(comma + 1, line.find(',', comma + 1) - comma - 1)));
    }
    CHECK(lowest > -1e-9);
  }
}

TEST_CASE("the event log keeps its first entries and counts the others (D5)") {
  TempDir dir;
  // Restitution 1 from 1 mm: a bounce every 2 sqrt(2h/g) = 28.6 ms, each logged; 400 s
  // give some 14000 of them, more than the log keeps.
  Run r = run_text(dir, "many_bounces", R"({"world": {"gravity": [0, -9.81]},
    "components": {"ball": {"type": "mechanical1d.mass",
                            "params": {"inclination": "90 deg", "x_min": 0, "restitution": 1}, "initial": {"x": 0.001}}},
    "record": ["ball.x"], "solver": {"method": "dopri5", "t_end": 400, "output_interval": 10}})");
  CAPTURE(r.command.output);
  CHECK(r.command.exit_code == 0);
  REQUIRE(r.summary.is_object());
  const long logged = static_cast<long>(r.summary["events"].size());
  const long unlogged = r.summary["events_not_logged"].get<long>();
  CHECK(logged == static_cast<long>(jourdain::Context::kMaxLoggedEvents));
  const double period = 2.0 * std::sqrt(2.0 * 0.001 / 9.81);
  CHECK(static_cast<double>(logged + unlogged) == doctest::Approx(400.0 / period).epsilon(0.01));
}

// ---------------------------------------------------------------- issue 18: output files

TEST_CASE("a file that cannot be written mid-run ends it with exit 1, naming the file and what is kept (D7)") {
  TempDir dir;
  const std::string net = shell_quote(jourdain::test::netlist_path("bouncing_mass"));
  // prlimit --fsize: the file size limit (bytes); the command line ignores SIGXFSZ, so a
  // file that reaches it fails to write (EFBIG) like one on a full disk.
  auto limited = [&](int bytes, const std::string& out, const std::string& extra) {
    return jourdain::test::run_command("prlimit --fsize=" + std::to_string(bytes) + " " +
                                       shell_quote(jourdain::test::jourdain_exe()) + " run -q " + net + " -o " +
                                       shell_quote(dir.path() / out) + extra);
  };
  SUBCASE("results.csv") {
    // results.csv grows to 40 KB; summary.json is 7 KB.
    CommandResult r = limited(20'000, "csv", " --no-report");
    CAPTURE(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find((dir.path() / "csv" / "results.csv").string() + ": cannot write the file: File too large") !=
          std::string::npos);
    CHECK(r.output.find("whole rows written before") != std::string::npos);
    auto summary = nlohmann::json::parse(read_text(dir.path() / "csv" / "summary.json"));
    CHECK(summary["status"] == "failed");
    CHECK(summary["failure"]["message"].get<std::string>().find("results.csv") != std::string::npos);
    // Whole rows only, as many as summary.json says.
    const std::string csv = read_text(dir.path() / "csv" / "results.csv");
    CHECK(csv.back() == '\n');
    CHECK(static_cast<long>(row_times(csv).size()) == summary["rows"].get<long>());
    CHECK(summary["rows"].get<long>() > 100);
  }
  SUBCASE("report.html") {
    // results.csv and summary.json fit in 60 KB; the report (about 100 KB) does not.
    CommandResult r = limited(60'000, "page", "");
    CAPTURE(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("report.html: cannot write the file") != std::string::npos);
    CHECK(r.output.find("results.csv and summary.json are complete") != std::string::npos);
    CHECK(nlohmann::json::parse(read_text(dir.path() / "page" / "summary.json"))["status"] == "finished");
  }
  SUBCASE("summary.json on a full disk") {
    std::filesystem::create_directories(dir.path() / "full");
    std::filesystem::create_symlink("/dev/full", dir.path() / "full" / "summary.json");
    CommandResult r = cli("run -q " + net + " -o " + shell_quote(dir.path() / "full") + " --no-report");
    CAPTURE(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("summary.json: cannot write the file: No space left on device") != std::string::npos);
    CHECK(r.output.find("results.csv keeps the") != std::string::npos);
  }
}

TEST_CASE("an output folder that exists but cannot be written is bad input, before the run (D13)") {
  TempDir dir;
  const auto locked = dir.path() / "locked";
  std::filesystem::create_directories(locked);
  std::filesystem::permissions(locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec |
                                           std::filesystem::perms::group_read | std::filesystem::perms::group_exec |
                                           std::filesystem::perms::others_read | std::filesystem::perms::others_exec);
  const std::string net = jourdain::test::netlist_path("bouncing_mass").string();
  std::string prefix;
  if (::geteuid() == 0) {
    // Permissions do not stop root: run as nobody, when nobody can reach the program.
    prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    if (jourdain::test::run_command(prefix + shell_quote(jourdain::test::jourdain_exe()) + " --version").exit_code != 0) {
      MESSAGE("skipped: this build cannot be run as user nobody (a folder on its path is private)");
      return;
    }
  }
  CommandResult r = jourdain::test::run_command(prefix + shell_quote(jourdain::test::jourdain_exe()) + " run -q " +
                                                shell_quote(net) + " -o " + shell_quote(locked));
  CAPTURE(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find((locked / "results.csv").string() + ": cannot create the file: Permission denied") !=
        std::string::npos);
  CommandResult created = jourdain::test::run_command(prefix + shell_quote(jourdain::test::jourdain_exe()) +
                                                      " run -q " + shell_quote(net) + " -o " + shell_quote(locked / "sub"));
  CHECK(created.exit_code == 2);
  CHECK(created.output.find("cannot create the output folder") != std::string::npos);
}

// ---------------------------------------------------------------- issue 18: interruption

namespace {

// Starts `jourdain ARGS...` as a child process writing its output to `log`; returns its pid.
pid_t start_cli(const std::vector<std::string>& args, const std::filesystem::path& log) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv;
    const std::string exe = jourdain::test::jourdain_exe();
    argv.push_back(const_cast<char*>(exe.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

// The exit code as a shell gives it: 128 + the signal for a process a signal killed.
int wait_exit_code(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Waits until `file` holds more than `bytes` bytes (the run is under way).
void wait_for_size(const std::filesystem::path& file, std::uintmax_t bytes) {
  for (int i = 0; i < 2000; ++i) {
    std::error_code ec;
    if (std::filesystem::file_size(file, ec) > bytes && !ec) return;
    ::usleep(5000);
  }
  FAIL("the run did not get under way");
}

// A run of some seconds at least: a lightly damped oscillator recorded every millisecond.
constexpr const char* kLongRun = R"({
  "components": {"wall": {"type": "mechanical1d.fixed"},
                 "spring": {"type": "mechanical1d.spring", "params": {"stiffness": 100}},
                 "mass": {"type": "mechanical1d.mass", "params": {"mass": 1}, "initial": {"x": 0.1}}},
  "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"]],
  "solver": {"method": "dopri5", "t_end": 2000, "output_interval": 0.001, "rtol": 1e-10, "atol": 1e-12}})";

}  // namespace

TEST_CASE("SIGINT, SIGTERM and SIGHUP stop a run cleanly: summary, report, whole rows, exit 128 + n") {
  TempDir dir;
  const auto net = dir.path() / "long.json";
  write_text(net, kLongRun);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    CAPTURE(signal);
    const auto out = dir.path() / ("out" + std::to_string(signal));
    const pid_t pid = start_cli({"run", net.string(), "-o", out.string()}, dir.path() / "log.txt");
    wait_for_size(out / "results.csv", 20'000);
    ::kill(pid, signal);
    const int code = wait_exit_code(pid);
    CAPTURE(read_text(dir.path() / "log.txt"));
    CHECK(code == 128 + signal);
    auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
    CHECK(summary["status"] == "interrupted");
    CHECK(summary["failure"]["message"].get<std::string>().find("interrupted") != std::string::npos);
    CHECK(std::filesystem::file_size(out / "report.html") > 10'000);
    const std::string csv = read_text(out / "results.csv");
    CHECK(csv.back() == '\n');
    CHECK(static_cast<long>(row_times(csv).size()) == summary["rows"].get<long>());
  }
}

TEST_CASE("a SIGKILL leaves whole rows, at most followed by part of one without its newline") {
  TempDir dir;
  // 400 masses on springs, every variable recorded: rows of about 60 KB, fifteen pages
  // each (the masses' and springs' energies are recorded too), after a header as long.
  nlohmann::json doc = {{"components", {{"wall", {{"type", "mechanical1d.fixed"}}}}},
                        {"connections", nlohmann::json::array()},
                        {"solver", {{"method", "rk4"}, {"t_end", 1000}, {"output_interval", 0.001}, {"step", 0.001}}}};
  for (int i = 0; i < 400; ++i) {
    const std::string k = std::to_string(i);
    doc["components"]["s" + k] = {{"type", "mechanical1d.spring"}};
    doc["components"]["m" + k] = {{"type", "mechanical1d.mass"}, {"initial", {{"x", 0.01 * i}}}};
    doc["connections"].push_back({"wall.p", "s" + k + ".a"});
    doc["connections"].push_back({"m" + k + ".p", "s" + k + ".b"});
  }
  const auto net = dir.path() / "wide.json";
  write_text(net, doc.dump());
  for (int attempt = 0; attempt < 5; ++attempt) {
    CAPTURE(attempt);
    const auto out = dir.path() / ("out" + std::to_string(attempt));
    const pid_t pid = start_cli({"run", "-q", "--no-report", net.string(), "-o", out.string()}, dir.path() / "log.txt");
    wait_for_size(out / "results.csv", 500'000 + 150'000 * static_cast<std::uintmax_t>(attempt));
    ::kill(pid, SIGKILL);
    CHECK(wait_exit_code(pid) == 128 + SIGKILL);
    // Each row goes to the file in one write(). Linux may still end a write that spans
    // several pages at a page boundary when the process is killed (a pending SIGKILL is
    // checked between pages): a last line without its newline is then part of a row,
    // and readers drop it. Every line that ends with a newline is a whole row.
    std::string csv = read_text(out / "results.csv");
    REQUIRE(!csv.empty());
    if (csv.back() != '\n') csv.erase(csv.rfind('\n') + 1);
    std::istringstream rows(csv);
    std::string line;
    std::getline(rows, line);
    const auto columns = std::count(line.begin(), line.end(), ',');
    int whole = 0;
    while (std::getline(rows, line)) {
      REQUIRE(std::count(line.begin(), line.end(), ',') == columns);
      ++whole;
    }
    CHECK(whole > 3);
  }
}

// Issue 40, point 12: a signal during `linearize`'s way to its operating point was taken
// only after the whole search (exit 0 after the full work, later 128 + n after it).
TEST_CASE("a signal stops linearize on the way to its operating point: summary, exit 128 + n") {
  TempDir dir;
  const auto net = dir.path() / "long.json";
  write_text(net, kLongRun);
  const auto out = dir.path() / "out";
  const auto log = dir.path() / "log.txt";
  const pid_t pid = start_cli({"linearize", net.string(), "--at", "2000", "-o", out.string(), "--no-report"}, log);
  // "linear analysis of ..." is said once the output folder is taken, as the search starts.
  bool started = false;
  for (int i = 0; i < 2000 && !started; ++i) {
    started = std::filesystem::exists(log) && read_text(log).find("linear analysis of") != std::string::npos;
    if (!started) ::usleep(5000);
  }
  REQUIRE(started);
  ::usleep(100'000);
  const auto sent = std::chrono::steady_clock::now();
  ::kill(pid, SIGINT);
  const int code = wait_exit_code(pid);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  CAPTURE(read_text(log));
  CHECK(code == 128 + SIGINT);
  // The integration to t = 2000 s takes several seconds; the stop is taken at its next step.
  MESSAGE("exit " << waited << " s after the signal");
  const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
  CHECK(summary["status"] == "interrupted");
  CHECK(summary["failure"]["message"].get<std::string>().find("interrupted on the way to the operating point") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out / "linear.json"));
}
