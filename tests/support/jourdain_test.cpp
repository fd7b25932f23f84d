#include "jourdain_test.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <fstream>
#include <sstream>
#include <cstdio>
#include <random>
#include <stdexcept>

#include "jourdain/solvers/simulate.hpp"

namespace jourdain::test {

std::filesystem::path source_dir() { return JOURDAIN_SOURCE_DIR; }
std::filesystem::path netlist_path(const std::string& name) { return source_dir() / "netlists" / (name + ".json"); }
std::string jourdain_exe() { return JOURDAIN_EXE; }

Registry builtin_registry() {
  Registry r;
  register_builtin_components(r);
  return r;
}

Netlist load(const std::string& json_text, const NetlistOverrides& overrides) {
  Registry r = builtin_registry();
  return load_netlist_text(json_text, "test.json", r, overrides);
}

RunResult run(const std::string& json_text, const NetlistOverrides& overrides) {
  Netlist n = load(json_text, overrides);
  RunOptions o;
  o.keep_rows = true;
  return run_netlist(n, o);
}

Context state_at(const Netlist& net, double t) {
  struct Quiet final : Observer {
    void output(const Context&) override {}
  };
  Context ctx = net.model.make_context(0.0);
  net.model.initialize(ctx);
  SolverSettings s = solver_settings_from_json(net.solver, {});
  s.t_end = t;
  s.output_interval = t;
  SolverStats stats;
  Quiet quiet;
  simulate(net.model, ctx, s, quiet, stats);
  net.model.evaluate(ctx);
  return ctx;
}

RunResult run_file(const std::filesystem::path& file, const NetlistOverrides& overrides,
                   const std::filesystem::path& output_dir) {
  Registry r = builtin_registry();
  Netlist n = load_netlist(file, r, overrides);
  RunOptions o;
  o.keep_rows = true;
  o.output_dir = output_dir;
  return session::run(n, o, /*report=*/false).result;
}

double at_time(const RunResult& r, const std::string& column, double t) {
  auto time = r.column("time");
  auto y = r.column(column);
  if (time.empty()) throw std::runtime_error("no rows");
  if (t <= time.front()) return y.front();
  for (size_t k = 1; k < time.size(); ++k) {
    if (time[k] >= t) {
      double dt = time[k] - time[k - 1];
      double w = dt > 0 ? (t - time[k - 1]) / dt : 1.0;
      return y[k - 1] + w * (y[k] - y[k - 1]);
    }
  }
  return y.back();
}

CommandResult run_command(const std::string& command_line) {
  std::string cmd = command_line + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command_line);
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  int status = pclose(pipe);
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return {code, out};
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

std::string shell_quote(const std::filesystem::path& p) {
  std::string out = "'";
  for (char c : p.string()) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

TempDir::TempDir() {
  std::random_device rd;
  path_ = std::filesystem::temp_directory_path() / ("jourdain-test-" + std::to_string(getpid()) + "-" + std::to_string(rd()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace jourdain::test
