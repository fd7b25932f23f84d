// jourdain: check, run and describe netlists.
//   jourdain run NETLIST [-o DIR] [--set comp.param=value ...] [--t-end T] [--no-report] [--strict] [--energy]
//   jourdain linearize NETLIST [--at equilibrium|initial|T] [--input P ...] [--output V ...] [-o DIR]
//   jourdain check NETLIST
//   jourdain list
//   jourdain describe TYPE|FILE.fmu [--json]
//   jourdain describe --all --markdown      (the component reference, components/README.md)
//   jourdain schema [-o FILE]               (the netlist's JSON Schema, for editors)
//   jourdain solvers [METHOD] [--json]
//   jourdain sweep NETLIST --param ... -o DIR  (python3 -m jourdain sweep: parameter studies)
//   jourdain fit NETLIST --data CSV --param NAME=LO:HI ... -o DIR       (python3 -m jourdain fit)
//   jourdain optimize NETLIST --param ... --objective SPEC ... -o DIR  (python3 -m jourdain optimize)
//   jourdain studio [NETLIST|FOLDER] [--port N] [--host ADDR] [--no-browser]  (the schematic editor, in a browser)
//   jourdain export-fmu NETLIST -o model.fmu [--inputs ...] [--outputs ...] [--parameters ...]
// Exit codes: 0 success; 1 the simulation failed (results so far are kept); 2 bad input
// (including an output folder where results cannot be written);
// 3 an internal error (a defect in Jourdain or a plugin, to be reported; results so far
// are kept when it happens during a run).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "jourdain/components/builtin.hpp"
#include "jourdain/descriptor.hpp"
#include "jourdain/document.hpp"
#include "jourdain/files.hpp"
#include "jourdain/fmu/export.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/schema.hpp"
#include "jourdain/session/session.hpp"
#include "jourdain/suggest.hpp"
#include "jourdain/solvers/linear.hpp"
#include "jourdain/solvers/run.hpp"
#include "jourdain/solvers/solver_registry.hpp"
#include "jourdain/studio/studio.hpp"
#include "jourdain/version.hpp"

namespace {

using namespace jourdain;

constexpr int kOk = 0, kSimulationFailed = 1, kBadInput = 2, kInternalError = 3;

// The signal that asked a run to stop (SIGINT, SIGTERM, SIGHUP), 0 while none has. A
// signal handler can only set a flag: this is the one piece of global state the program
// has, read by the run between steps (RunOptions::stop_requested).
volatile std::sig_atomic_t stop_signal = 0;

extern "C" void request_stop(int signal) { stop_signal = signal; }

bool stop_was_requested() { return stop_signal != 0; }

// The first Ctrl-C (or TERM, HUP) stops the run cleanly: the row being written is
// finished, summary.json (status "interrupted") and the report are written, and the exit
// code is 128 + the signal's number, as a shell reports a process the signal killed. The
// handlers reset themselves, so a second signal ends the program at once. A signal the
// program was started with ignored stays ignored (nohup's SIGHUP, a background job's
// SIGINT).
void stop_cleanly_on_signals() {
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    if (sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    sigaction(signal, &action, nullptr);
  }
  // A file size limit (ulimit -f) shows as a write error naming the file, like a full
  // disk, instead of killing the process with nothing said.
  std::signal(SIGXFSZ, SIG_IGN);
}

// Text from a netlist, an FMU or the command line echoed to a terminal: control
// characters (an escape sequence in a component's description or a key) are shown as
// \xNN, never sent. A message's own further lines are indented (an algebraic loop's
// ports); a line break followed by anything else came from the input ("mechanical1d.ma
// \nss") and is shown as \x0A, so that one message stays one line to whoever reads the
// log. Whole pages (`describe`) keep their line breaks.
enum class LineBreaks { Indented, Kept };
std::string printable(const std::string& text, LineBreaks breaks = LineBreaks::Indented) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    // C1 controls in UTF-8 (U+0080..U+009F) are the bytes C2 80..C2 9F.
    const bool c1 = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    const bool line_break_kept =
        c == '\n' && (breaks == LineBreaks::Kept || (i + 1 < text.size() && text[i + 1] == ' '));
    if ((c < 0x20 && !line_break_kept && c != '\t') || c == 0x7F || c1) {
      const unsigned char shown = c1 ? static_cast<unsigned char>(text[++i]) : c;
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", shown);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// A signal that came while a command loaded or checked its netlist ends the command
// there, before anything is run or written: 128 + its number, as for a run it stops.
std::optional<int> stopped_while(const char* phase) {
  if (stop_signal == 0) return std::nullopt;
  const int signal = static_cast<int>(stop_signal);
  spdlog::error("stopped by signal {} ({}) while {}: nothing run, nothing written", signal, strsignal(signal), phase);
  return 128 + signal;
}

// A run's progress on stderr, at most ten times a second: a bar on a terminal, or with
// --progress-lines one line "progress T T_END" each time, for a program that drives the
// run (the studio reads them from its child's pipe).
class ProgressBar {
 public:
  enum class Mode { Off, Bar, Lines };
  ProgressBar(double t0, double t_end, Mode mode) : t0_(t0), t_end_(t_end), mode_(mode) {}
  void update(double t) {
    if (mode_ == Mode::Off) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100) && t < t_end_) return;
    last_ = now;
    if (mode_ == Mode::Lines) {
      std::fprintf(stderr, "progress %.9g %.9g\n", t, t_end_);
      std::fflush(stderr);
      return;
    }
    const double f = std::clamp((t - t0_) / (t_end_ - t0_), 0.0, 1.0);
    const int width = 40, filled = static_cast<int>(f * width);
    std::fprintf(stderr, "\r[%.*s%*s] %5.1f%%  t = %.6g s", filled, "========================================",
                 width - filled, "", 100.0 * f, t);
    std::fflush(stderr);
    drawn_ = true;
  }
  void finish() {
    if (drawn_) std::fprintf(stderr, "\n");
  }

 private:
  double t0_, t_end_;
  Mode mode_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// What `jourdain linearize` and a netlist's "analysis": "linear" ask for: the netlist's
// "linear" settings, with the command line's options over them.
struct LinearRequest {
  std::string at;  // empty: the netlist's
  std::vector<std::string> inputs, outputs;
  std::optional<double> from_hz, to_hz;
};

// The linear analysis of a loaded netlist (`run` hands over a netlist whose analysis is
// linear without loading it again).
int run_linear_analysis(Registry& registry, const Netlist& net, const std::string& out_dir,
                        const LinearRequest& request, bool report, bool quiet);

int cmd_run(Registry& registry, const std::string& file, const std::string& out_dir,
            const std::vector<std::string>& sets, const session::Trust& trust, std::optional<double> t_end,
            bool report, bool quiet, bool strict, bool energy, bool progress_lines) {
  Netlist net = session::load(file, registry, trust, sets, stop_was_requested);
  if (auto stopped = stopped_while("loading the netlist")) return *stopped;
  if (net.linear_analysis) return run_linear_analysis(registry, net, out_dir, {}, report, quiet);
  std::filesystem::path dir = out_dir.empty() ? session::default_output_folder(net.name) : std::filesystem::path(out_dir);
  // Read here for the progress bar and the log line; run_netlist reads them again and
  // reports their warnings.
  SolverSettings settings = solver_settings_from_json(net.solver, {file, "/solver", "", ""}, solvers(registry));
  const auto mode = progress_lines                         ? ProgressBar::Mode::Lines
                    : !quiet && isatty(STDERR_FILENO) ? ProgressBar::Mode::Bar
                                                      : ProgressBar::Mode::Off;
  ProgressBar bar(settings.t_start, t_end.value_or(settings.t_end), mode);
  RunOptions options;
  options.output_dir = dir;
  options.t_end = t_end;
  options.strict = strict;
  options.energy = energy;
  options.progress = [&](double t) { bar.update(t); };
  options.stop_requested = stop_was_requested;
  // A kinematic or static run integrates nothing: it names its analysis, not a method.
  const bool integrates = net.analysis == Analysis::Dynamic;
  options.started = [&] {
    spdlog::info("running {} ({} components, {} states, {})", net.name, net.model.components().size(),
                 net.model.state_count(),
                 integrates ? "method " + settings.method : std::string(to_string(net.analysis)) + " analysis");
  };
  options.solvers = &solvers(registry);
  const session::Run run = session::run(net, options, report);
  const RunResult& r = run.result;
  bar.finish();
  for (const auto& w : r.warnings) {
    const bool accuracy = std::find(r.accuracy_warnings.begin(), r.accuracy_warnings.end(), w) != r.accuracy_warnings.end();
    spdlog::warn("{}{}", accuracy ? "not vouched for: " : "", printable(w));
  }
  const std::string report_line = run.report.empty() ? "" : "report: " + run.report.string() + "\n";
  const std::string& report_failure = run.report_failure;
  const auto& st = r.stats;
  if (integrates)
    spdlog::info("{} steps ({} rejected), {} right-hand-side evaluations, {} Jacobians, {} events, {:.3f} s wall",
                 st.steps, st.rejected_steps, st.rhs_evaluations, st.jacobian_evaluations, st.events, r.wall_time_s);
  else
    spdlog::info("{} analysis at {} output times, {} events, {:.3f} s wall", to_string(net.analysis), st.steps + 1,
                 st.events, r.wall_time_s);
  if (r.summary.contains("energy")) {
    const auto& e = r.summary["energy"]["total"];
    spdlog::info("energy: supplied {:.6g} J, lost {:.6g} J, stored change {:.6g} J; balance residual {:.3g} of {:.6g} J moved",
                 e["supplied"].get<double>(), e["lost"].get<double>(), e["stored_change"].get<double>(),
                 e["relative_balance_residual"].get<double>(), e["moved"].get<double>());
  }
  // -q: errors only (on stderr); stdout says nothing, the files are where -o put them.
  if (r.interrupted) {
    spdlog::error("run {} by signal {} ({})", printable(r.failure), static_cast<int>(stop_signal),
                  strsignal(static_cast<int>(stop_signal)));
    if (!quiet)
      std::cout << "results up to the interruption: " << (dir / "results.csv").string() << "\n"
                << "summary: " << (dir / "summary.json").string() << "\n"
                << report_line;
    return 128 + static_cast<int>(stop_signal);
  }
  if (!r.finished) {
    spdlog::error("simulation failed {}", printable(r.failure));
    if (!report_failure.empty()) spdlog::error("{}", printable(report_failure));
    if (!quiet)
      std::cout << "results up to the failure: " << (dir / "results.csv").string() << "\n"
                << "summary: " << (dir / "summary.json").string() << "\n"
                << report_line;
    return kSimulationFailed;
  }
  if (!report_failure.empty()) {
    spdlog::error("{}", printable(report_failure));
    return kSimulationFailed;
  }
  if (r.termination)
    spdlog::info("ended at t = {} s by {}: {}", r.termination->time, printable(r.termination->component),
                 printable(r.termination->reason));
  if (!quiet)
    std::cout << "results: " << (dir / "results.csv").string() << " (" << r.row_count << " rows, "
              << r.columns.size() - 1 << " variables)\n"
              << "summary: " << (dir / "summary.json").string() << "\n"
              << report_line;
  return kOk;
}

int cmd_linear(Registry& registry, const std::string& file, const std::string& out_dir,
               const std::vector<std::string>& sets, const session::Trust& trust, const LinearRequest& request,
               bool report, bool quiet) {
  const Netlist net = session::load(file, registry, trust, sets, stop_was_requested);
  if (auto stopped = stopped_while("loading the netlist")) return *stopped;
  return run_linear_analysis(registry, net, out_dir, request, report, quiet);
}

int run_linear_analysis(Registry& registry, const Netlist& net, const std::string& out_dir,
                        const LinearRequest& request, bool report, bool quiet) {
  const std::string file = net.file.string();
  LinearSettings settings = linear_settings_from_json(net.linear, {file, "/linear", "", ""});
  if (!request.at.empty()) parse_operating_point(request.at, settings, {file, "--at", "", ""});
  if (!request.inputs.empty()) settings.inputs = request.inputs;
  if (!request.outputs.empty()) settings.outputs = request.outputs;
  set_frequency_range(settings, request.from_hz, request.to_hz, {file, "--from", "", ""}, {file, "--to", "", ""});
  std::filesystem::path dir = out_dir.empty() ? session::default_output_folder(net.name) : std::filesystem::path(out_dir);
  LinearRunOptions options;
  options.output_dir = dir;
  options.solvers = &solvers(registry);
  options.stop_requested = stop_was_requested;
  options.started = [&] {
    spdlog::info("linear analysis of {} ({} components, {} states)", net.name, net.model.components().size(),
                 net.model.state_count());
  };
  const session::LinearRun run = session::linearize(net, settings, options, report);
  const LinearRunResult& r = run.result;
  for (const auto& w : r.warnings) spdlog::warn("{}", printable(w));
  const std::string report_line = run.report.empty() ? "" : "report: " + run.report.string() + "\n";
  const std::string& report_failure = run.report_failure;
  if (r.interrupted) {
    const int signal = static_cast<int>(stop_signal);
    spdlog::error("linear analysis {} by signal {} ({})", printable(r.failure), signal, strsignal(signal));
    if (!quiet) std::cout << "summary: " << (dir / "summary.json").string() << "\n" << report_line;
    return 128 + signal;
  }
  if (!r.finished) {
    spdlog::error("linear analysis failed {}", printable(r.failure));
    if (!report_failure.empty()) spdlog::error("{}", printable(report_failure));
    if (!quiet) std::cout << "summary: " << (dir / "summary.json").string() << "\n" << report_line;
    return kSimulationFailed;
  }
  if (!report_failure.empty()) {
    spdlog::error("{}", printable(report_failure));
    return kSimulationFailed;
  }
  if (!quiet) {
    const auto& lm = r.linear;
    std::cout << "linear model at " << r.summary["linear"]["operating_point"]["how"].get<std::string>() << ": "
              << lm.independent.size() << " independent states";
    if (!lm.dependent.empty()) std::cout << " (" << lm.dependent.size() << " eliminated by constraints)";
    std::cout << ", " << lm.inputs.size() << " inputs, " << lm.outputs.size() << " outputs; " << lm.stability << "\n";
    for (size_t k = 0; k < lm.modes.size() && k < 12; ++k) {
      const auto& m = lm.modes[k];
      std::printf("  mode %2zu  λ = %-28s f_n = %-12.6g Hz  ζ = %-10.4g  %s\n", k + 1,
                  (std::to_string(m.eigenvalue.real()) + (m.oscillatory ? " ± " + std::to_string(m.eigenvalue.imag()) + "i" : ""))
                      .c_str(),
                  m.natural_frequency / (2.0 * M_PI), m.damping_ratio,
                  lm.state_names[lm.independent[m.participation.front().first]].c_str());
    }
    if (lm.modes.size() > 12) std::cout << "  … " << lm.modes.size() - 12 << " more in modes.csv\n";
    std::cout << "linear model: " << (dir / "linear.json").string() << " (A.csv, B.csv, C.csv, D.csv, modes.csv"
              << (lm.response.empty() ? "" : ", bode.csv") << ")\n"
              << "summary: " << (dir / "summary.json").string() << "\n"
              << report_line;
  }
  return kOk;
}

// Every problem of the netlist, rather than the first (session::check): printed one a
// line (or, with --json, as a list for tools); when there is none, the model as built.
int cmd_check(Registry& registry, const std::string& file, const session::Trust& trust, bool as_json) {
  session::Check checked = session::check_file(file, registry, trust, stop_was_requested);
  if (auto stopped = stopped_while(checked.model_text.empty() ? "loading the netlist" : "checking the netlist"))
    return *stopped;
  Diagnostics& diagnostics = checked.diagnostics;
  const std::string& model_text = checked.model_text;
  const bool ok = !diagnostics.has_errors();
  if (as_json) {
    nlohmann::json out = checked.to_json(file);
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return ok ? kOk : kBadInput;
  }
  for (const auto& d : diagnostics.all()) {
    if (d.severity == Severity::Error) spdlog::error("{}", printable(d.text()));
  }
  if (!ok) {
    if (diagnostics.error_count() > 1) spdlog::error("{} errors in {}", diagnostics.error_count(), printable(file));
    return kBadInput;
  }
  std::cout << model_text;
  for (const auto& d : diagnostics.all())
    if (d.severity == Severity::Warning) spdlog::warn("{}", printable(d.text()));
  return kOk;
}

struct FormatRequest {
  std::string output;  // "": replace the netlist; "-": standard output
  bool check_only = false;
  bool drop_comments = false;
};

// The netlist's canonical text (NetlistDocument::text): written over the file (whole or
// not at all), elsewhere, or only compared. Needs no model: a half-drawn netlist formats.
int cmd_format(const std::string& file, const FormatRequest& request) {
  const NetlistDocument document = NetlistDocument::read(file);
  const std::string& text = document.source();
  const std::string canonical = document.text();
  if (request.check_only) {
    if (canonical == text) return kOk;
    std::cout << file << ": not in canonical text (`jourdain format " << file << "` writes it)\n";
    return kSimulationFailed;
  }
  // Comments cannot be kept: losing them takes the user's word.
  if (document.has_comments() && !request.drop_comments)
    throw InputError({file, "", "", ""}, "the file has comments, which the canonical text cannot keep: remove them, or "
                                         "give --drop-comments to format it without them");
  if (request.output == "-") {
    std::cout << canonical;
    return kOk;
  }
  const std::filesystem::path target = std::filesystem::path(request.output.empty() ? file : request.output);
  if (request.output.empty() && canonical == text) {
    spdlog::info("{}: already in canonical text", printable(file));
    return kOk;
  }
  ReplacingFile out(target);
  write_text_file(out.partial().string(), canonical);
  out.commit();
  spdlog::info("{}: written in canonical text", printable(target.string()));
  return kOk;
}

int cmd_list(const Registry& registry) {
  for (const auto* t : registry.all()) {
    std::printf("%-34s %s%s\n", t->name.c_str(), t->summary.c_str(),
                t->origin == "built-in" ? "" : ("  [" + t->origin + "]").c_str());
  }
  return kOk;
}

// The solver methods and their settings (all of them, or one).
int cmd_solvers(Registry& registry, const std::string& method, bool json) {
  const SolverRegistry& all = solvers(registry);
  if (method.empty()) {
    std::cout << (json ? describe_solvers(all).dump(2) + "\n" : describe_solvers_text(all));
    return kOk;
  }
  const SolverMethod& m = all.get(method, {"", "", "", ""});
  std::cout << (json ? describe_solver(all, m).dump(2) + "\n" : describe_solver_text(all, m));
  return kOk;
}

int cmd_describe(const Registry& registry, const std::string& type, bool all, bool json, bool markdown,
                 const std::string& params_text) {
  if (all == !type.empty()) throw InputError({"", "", "", ""}, "describe takes a component type or --all");
  nlohmann::json params = nlohmann::json::object();
  if (!params_text.empty()) {
    if (all) throw InputError({"", "--params", "", ""}, "--params configures one type: give the type, not --all");
    params = nlohmann::json::parse(params_text, nullptr, /*allow_exceptions=*/false);
    if (!params.is_object())
      throw InputError({"", "--params", "", ""}, "expected a JSON object of parameter values, e.g. '{\"ports\": 3}'");
  }
  if (markdown && !all) throw InputError({"", "", "", ""}, "--markdown writes the whole reference: give --all");
  if (all && markdown) {
    std::cout << reference_markdown(registry, "jourdain describe --all --markdown > components/README.md");
    return kOk;
  }
  // A file that stands for a component (an FMU): that component, configured from it.
  if (const FileType* kind = registry.file_type(type); kind && !all) {
    const ComponentType* t = registry.find(kind->type);
    if (!t) throw InputError({type, "", "", ""}, "no component type '" + kind->type + "' is registered for this file");
    nlohmann::json values = params;
    values[kind->parameter] = std::filesystem::absolute(type).lexically_normal().string();
    // The FMU's texts (names, descriptions, units) are the file's: shown escaped. JSON
    // escapes control characters itself; bytes that are no UTF-8 become U+FFFD.
    if (json) std::cout << describe_type(*t, &registry, values).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else std::cout << printable(type + ": a " + t->name + " component with " + kind->parameter + " = \"" + type + "\"\n\n" +
                                    describe_type_text(*t, &registry, values),
                                LineBreaks::Kept);
    return kOk;
  }
  std::vector<const ComponentType*> types;
  if (all) types = registry.all();
  else if (const ComponentType* t = registry.find(type)) types.push_back(t);
  else {
    std::string hint;
    for (const auto& s : registry.suggestions(type)) hint += (hint.empty() ? "; did you mean: " : ", ") + s;
    throw InputError({"", "", "", ""}, "unknown component type '" + type + "'" + hint);
  }
  nlohmann::json descriptors = nlohmann::json::array();
  for (const ComponentType* t : types) {
    if (json) descriptors.push_back(describe_type(*t, &registry, params));
    else std::cout << (t == types.front() ? "" : "\n") << describe_type_text(*t, &registry, params);
  }
  if (json) std::cout << (all ? descriptors : descriptors[0]).dump(2) << "\n";
  return kOk;
}

// The FMU binary packed by export-fmu: beside this program in the build tree, in
// ../lib/jourdain once installed.
std::filesystem::path fmu_runtime() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
  for (const auto& candidate : {self / "jourdain_fmu.so", self / ".." / "lib" / "jourdain" / "jourdain_fmu.so"})
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate.lexically_normal();
  return self / "jourdain_fmu.so";  // export_fmu says it is missing
}

int cmd_export_fmu(Registry& registry, const std::string& file, const session::Trust& trust,
                   fmu::ExportOptions options, bool quiet) {
  options.runtime = fmu_runtime();
  options.load = trust.overrides({}, stop_was_requested);
  options.stop_requested = stop_was_requested;
  const fmu::ExportResult r = fmu::export_fmu(file, registry, options);
  if (r.stopped) {
    const int signal = static_cast<int>(stop_signal);
    spdlog::error("export stopped by signal {} ({}): {} not written (what was there is untouched)", signal,
                  strsignal(signal), options.output.string());
    return 128 + signal;
  }
  if (!quiet)
    std::cout << "FMU: " << options.output.string() << " (FMI 2.0 Co-Simulation, model identifier " << r.model_identifier
              << ": " << r.inputs << " inputs, " << r.outputs << " outputs, " << r.parameters << " parameters; "
              << (r.can_get_and_set_state ? "" : "no ") << "fmi2GetFMUstate/fmi2SetFMUstate; " << r.packed.size()
              << " files packed)\n";
  return kOk;
}

// The netlist's JSON Schema, for this registry (built-in types and the plugins loaded).
int cmd_schema(Registry& registry, const std::string& out_file) {
  const std::string text =
      netlist_schema(registry, solver_settings_schema(solvers(registry)), linear_settings_schema()).dump(2) + "\n";
  if (out_file.empty() || out_file == "-") {
    std::cout << text;
    return kOk;
  }
  write_text_file(out_file, text);
  return kOk;
}

// When the word in the command's place names no command ("jourdain frobnicate"): the
// message saying so, with the commands; else empty. That word is the first argument that
// is neither an option nor the value of --plugin.
std::string unknown_command(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> names;
  std::string list;
  for (const CLI::App* sub : app.get_subcommands({}))
    names.push_back(sub->get_name()), list += (list.empty() ? "" : ", ") + sub->get_name();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--plugin") ++i;
    if (arg.empty() || arg[0] == '-') continue;
    if (std::find(names.begin(), names.end(), arg) != names.end()) return "";
    const std::string close = closest_name(arg, names);
    return "unknown command '" + arg + "'" + (close.empty() ? "" : "; did you mean '" + close + "'?") +
           "\ncommands: " + list + " (jourdain --help; jourdain COMMAND --help)";
  }
  return "";
}

// The commands the Python package carries out (apps/python/jourdain/__main__.py): the
// studies, which run on dask.distributed.
bool is_python_command(const std::string& command) {
  return command == "sweep" || command == "fit" || command == "optimize";
}

// When the command is one of the Python package's (after any of -v, -q, --plugin P): the
// arguments of `python3 -m jourdain COMMAND` (program name first; -q, --allow-plugins and
// the plugins passed on); else none.
std::vector<char*> python_command_arguments(int argc, char** argv) {
  std::vector<char*> global;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-v" || a == "--verbose") continue;
    if (a == "-q" || a == "--quiet" || a == "--allow-plugins") global.push_back(argv[i]);
    else if (a == "--plugin" && i + 1 < argc) global.push_back(argv[i]), global.push_back(argv[++i]);
    else break;
  }
  if (i == argc || !is_python_command(argv[i])) return {};
  std::vector<char*> args{argv[0]};
  args.insert(args.end(), argv + i, argv + argc);
  args.insert(args.end(), global.begin(), global.end());
  return args;
}

// `jourdain sweep ...` is `python3 -m jourdain sweep ...` (apps/python/jourdain/__main__.py),
// and so are fit and optimize: studies run on dask.distributed, from the Python package
// built beside this program. Replaces this process; returns only when that cannot be done.
int hand_over_to_python(int argc, char** argv) {
#ifdef JOURDAIN_PYTHON_EXECUTABLE
  std::string path = JOURDAIN_PYTHON_PATH;
  if (const char* existing = std::getenv("PYTHONPATH"); existing && *existing) path += std::string(":") + existing;
  setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<char*> args{const_cast<char*>(JOURDAIN_PYTHON_EXECUTABLE), const_cast<char*>("-m"),
                          const_cast<char*>("jourdain")};
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(JOURDAIN_PYTHON_EXECUTABLE, args.data());
  std::cerr << "error: jourdain " << argv[1] << ": cannot start " JOURDAIN_PYTHON_EXECUTABLE ": " << std::strerror(errno)
            << "\n";
#else
  (void)argc;
  std::cerr << "error: jourdain " << argv[1] << " needs the Python package, which this build does not have (install Debian's "
               "python3-pybind11 and pybind11-dev and build again; README.md, \"Python\")\n";
#endif
  return kBadInput;
}

struct StudioRequest {
  std::string path;  // a netlist or a folder; empty: the working folder
  std::string workspace;
  std::string host = "127.0.0.1";
  unsigned short port = 8765;
  bool no_browser = false;
};

// `jourdain studio`: serves the schematic editor until Ctrl-C. The workspace is the
// folder given, or for a netlist the working folder when the netlist lies in it (results
// then go to ./results, as for `jourdain run`), else the netlist's folder.
int cmd_studio(Registry& registry, const StudioRequest& request, const session::Trust& trust,
               const std::vector<std::string>& plugins) {
  namespace fs = std::filesystem;
  studio::StudioOptions options;
  const fs::path given = request.path.empty() ? fs::current_path() : fs::absolute(request.path);
  std::error_code ec;
  if (!fs::exists(given, ec)) throw InputError({request.path, "", "", ""}, "no such netlist or folder");
  if (fs::is_directory(given, ec)) {
    options.workspace = given;
  } else {
    options.initial = given;
    const fs::path cwd = fs::current_path();
    const fs::path rel = fs::weakly_canonical(given).lexically_relative(fs::canonical(cwd));
    options.workspace = !rel.empty() && *rel.begin() != ".." ? cwd : given.parent_path();
  }
  if (!request.workspace.empty()) options.workspace = request.workspace;
  options.host = request.host;
  options.port = request.port;
  options.trust = trust;
  options.program = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("studio: cannot find this program's own file to run netlists with: " + ec.message());
  // A run from the page loads what this command loads: the same plugins and trust.
  for (const auto& p : plugins) options.run_arguments.insert(options.run_arguments.end(), {"--plugin", fs::absolute(p).string()});
  if (trust.allow_plugins) options.run_arguments.push_back("--allow-plugins");
  if (trust.allow_any_path) options.run_arguments.push_back("--allow-any-path");
  for (const auto& l : trust.library_folders) options.run_arguments.insert(options.run_arguments.end(), {"--library", fs::absolute(l).string()});
  options.run_arguments.insert(options.run_arguments.end(), {"--max-components", std::to_string(trust.max_components)});
  options.stop_requested = stop_was_requested;
  options.listening = [&](const std::string& url) {
    std::cout << "Jourdain Studio: " << url << "\n"
              << "  workspace: " << fs::canonical(options.workspace).string() << "\n";
    if (request.host != "127.0.0.1" && request.host != "::1" && request.host != "localhost")
      std::cout << "  listening on " << request.host
                << ": anyone who can reach this address and has the token can read and write the workspace's files "
                   "and run its netlists\n";
    std::cout << "  Ctrl-C stops it (runs still going are stopped; what they wrote is kept)" << std::endl;
    // A browser where there is a desktop to show one.
    if (!request.no_browser && (std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY"))) {
      if (fork() == 0) {
        setsid();
        execlp("xdg-open", "xdg-open", url.c_str(), static_cast<char*>(nullptr));
        _exit(127);
      }
    }
  };
  studio::serve(registry, options);
  std::cout << "Jourdain Studio stopped" << std::endl;
  return stop_signal != 0 ? 128 + static_cast<int>(stop_signal) : kOk;
}

}  // namespace

int main(int argc, char** argv) {
  if (std::vector<char*> args = python_command_arguments(argc, argv); !args.empty())
    return hand_over_to_python(static_cast<int>(args.size()), args.data());
  CLI::App app{"Jourdain " JOURDAIN_VERSION " - component-library simulation of multi-domain engineering systems"};
  app.require_subcommand(1);
  app.fallthrough();  // -v, -q and --plugin also after the subcommand
  app.set_version_flag("--version", JOURDAIN_VERSION);
  bool verbose = false, quiet = false;
  std::vector<std::string> plugins;
  app.add_flag("-v,--verbose", verbose, "more log output");
  app.add_flag("-q,--quiet", quiet, "errors only, no progress bar");
  // Repeatable options take one value each time (allow_extra_args(false)): "--set a=1
  // net.json" must not take the netlist for a second value.
  app.add_option("--plugin", plugins, "load a plugin: components, solver methods (shared library path); repeatable")
      ->allow_extra_args(false);
  session::Trust trust;
  app.add_flag("--allow-plugins", trust.allow_plugins,
               "load the plugins and FMUs a netlist names (they run code: only for netlists you trust)");
  app.add_option("--library", trust.library_folders,
                 "a folder subsystem files may also be read from (besides the netlist's own); repeatable")
      ->allow_extra_args(false);
  app.add_flag("--allow-any-path", trust.allow_any_path, "read subsystem files from anywhere the netlist names");
  app.add_option("--max-components", trust.max_components,
                 "most components and subsystem instances a netlist may stand for (default 100000)");

  std::string netlist, out_dir, type, method;
  std::vector<std::string> sets;
  std::optional<double> t_end;
  bool as_json = false, no_report = false, strict = false, energy = false;
  // An empty -o (a script's unset variable) would write into the default folder, or the
  // working one: refused, as any other bad argument.
  const CLI::Validator named(
      [](std::string& value) {
        return value.empty() ? std::string("an empty name: give a path, or leave the option out") : std::string();
      },
      "PATH");
  auto* run = app.add_subcommand("run", "simulate a netlist; writes results.csv, summary.json and report.html");
  run->add_option("netlist", netlist, "netlist file (JSON)")->required();
  run->add_option("-o,--output", out_dir, "output folder (default: results/<netlist name>)")->check(named);
  run->add_option("--set", sets, "override a parameter: component.parameter=value (value may carry a unit)")
      ->allow_extra_args(false);
  run->add_option("--t-end", t_end, "end time [s], overriding the netlist's solver.t_end");
  run->add_flag("--no-report", no_report, "do not write report.html (plots, animation; one self-contained page)");
  bool progress_lines = false;
  run->add_flag("--progress-lines", progress_lines, "the progress as lines 'progress T T_END' on stderr (for programs driving a run)");
  run->add_flag("--strict", strict,
                "fail (exit 1, results kept) when the run ends with an accuracy warning: results not vouched for");
  run->add_flag("--energy", energy,
                "keep an energy account: summary.json's \"energy\" and the report say where the energy went");
  LinearRequest linear_request;
  double from_hz = 0.0, to_hz = 0.0;
  auto* linearize = app.add_subcommand(
      "linearize", "linear model at an operating point: eigenvalues, modes, frequency response (linear.json, report.html)");
  linearize->add_option("netlist", netlist, "netlist file (JSON)")->required();
  linearize->add_option("--at", linear_request.at, "operating point: equilibrium (default), initial, or a time (2.5, \"250 ms\")");
  linearize->add_option("--input", linear_request.inputs, "a numeric parameter perturbed as an input (component.parameter); repeatable")
      ->allow_extra_args(false);
  linearize->add_option("--output", linear_request.outputs, "a recordable variable as an output (component.variable); repeatable")
      ->allow_extra_args(false);
  auto* from_option = linearize->add_option("--from", from_hz, "lowest frequency of the response [Hz]");
  auto* to_option = linearize->add_option("--to", to_hz, "highest frequency of the response [Hz]");
  linearize->add_option("-o,--output-dir", out_dir, "output folder (default: results/<netlist name>)")->check(named);
  linearize->add_option("--set", sets, "override a parameter: component.parameter=value (value may carry a unit)")
      ->allow_extra_args(false);
  linearize->add_flag("--no-report", no_report, "do not write report.html");
  auto* check = app.add_subcommand("check", "validate a netlist: every problem it has; when none, the evaluation order and loops");
  check->add_option("netlist", netlist, "netlist file (JSON)")->required();
  bool check_json = false;
  check->add_flag("--json", check_json, "the problems as JSON, for tools: severity, file, line, path, component, port, message");
  FormatRequest format_request;
  auto* format = app.add_subcommand("format", "write a netlist back in its canonical text (key order kept, 2-space indentation)");
  format->add_option("netlist", netlist, "netlist file (JSON)")->required();
  format->add_option("-o,--output", format_request.output, "write here instead of replacing the netlist (- : standard output)");
  format->add_flag("--check", format_request.check_only, "write nothing; exit 1 if the file is not in canonical text");
  format->add_flag("--drop-comments", format_request.drop_comments, "the canonical text has no comments: drop the file's");
  app.add_subcommand("list", "list the component types available");
  auto* describe = app.add_subcommand("describe", "ports, parameters and states of a component type (or of an FMU file)");
  bool all = false, markdown = false;
  describe->add_option("type", type, "component type, e.g. mechanical1d.mass, or a file that stands for one (model.fmu)");
  describe->add_flag("--all", all, "every type");
  describe->add_flag("--json", as_json, "machine-readable descriptor");
  std::string describe_params;
  describe->add_option("--params", describe_params,
                       "parameter values to configure it with, as in a netlist: '{\"ports\": 3}' (ports and variables follow them)");
  describe->add_flag("--markdown", markdown, "with --all: the component reference (components/README.md)")->excludes("--json");
  std::string schema_file;
  auto* schema = app.add_subcommand("schema", "write the netlist's JSON Schema (for editors: \"$schema\" in a netlist)");
  schema->add_option("-o,--output", schema_file, "file to write (default: standard output)")->check(named);
  auto* solver_list = app.add_subcommand("solvers", "the solver methods (built-in and from plugins) and their settings");
  solver_list->add_option("method", method, "one method, e.g. rk4");
  solver_list->add_flag("--json", as_json, "machine-readable schema");
  fmu::ExportOptions export_options;
  std::string fmu_file;
  auto* export_fmu = app.add_subcommand("export-fmu", "write the netlist as an FMI 2.0 Co-Simulation FMU (for Simulink, "
                                                      "OpenModelica, Dymola, Amesim, Python co-simulation)");
  export_fmu->add_option("netlist", netlist, "netlist file (JSON)")->required();
  export_fmu->add_option("-o,--output", fmu_file, "the .fmu file to write")->required()->check(named);
  export_fmu->add_option("--inputs", export_options.inputs,
                         "inputs: signal.input components, or numeric parameters comp.param (default: every signal.input)")
      ->delimiter(',');
  export_fmu->add_option("--outputs", export_options.outputs,
                         "outputs: signal.output components, or recordable variables comp.var (default: every signal.output; without one, the netlist's record list)")
      ->delimiter(',');
  export_fmu->add_option("--parameters", export_options.parameters,
                         "tunable parameters: numeric parameters comp.param, or \"all\" (default: none)")
      ->delimiter(',');
  export_fmu->add_option("--model-identifier", export_options.model_identifier,
                         "the binary's name, a C identifier (default: from the netlist's name)");
  StudioRequest studio_request;
  auto* studio = app.add_subcommand("studio", "draw, edit and run netlists as schematics in a browser (a local server)");
  studio->add_option("path", studio_request.path, "a netlist to open, or the workspace folder (default: the working folder)");
  studio->add_option("--workspace", studio_request.workspace, "the folder the page may read and write (default: see above)");
  studio->add_option("--host", studio_request.host,
                     "address to listen on (default 127.0.0.1: this machine only; another exposes the workspace)");
  studio->add_option("--port", studio_request.port, "port to listen on (default 8765; 0: any free port)");
  studio->add_flag("--no-browser", studio_request.no_browser, "do not open a browser; only print the address");
  // Handed over to Python before parsing (python_command_arguments); listed here for --help.
  app.add_subcommand("sweep", "parameter study on dask.distributed (python3 -m jourdain sweep; jourdain sweep --help)")
      ->allow_extras();
  app.add_subcommand("fit", "estimate parameters from a measurement (python3 -m jourdain fit; jourdain fit --help)")
      ->allow_extras();
  app.add_subcommand("optimize",
                     "optimise parameters for objectives within constraints (python3 -m jourdain optimize; "
                     "jourdain optimize --help)")
      ->allow_extras();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (const std::string unknown = unknown_command(app, argc, argv); !unknown.empty()) {
      std::cerr << "error: " << unknown << "\n";
      return kBadInput;
    }
    int code = app.exit(e);
    return code == 0 ? kOk : kBadInput;
  }

  auto logger = spdlog::stderr_color_mt("jourdain");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%^%l%$: %v");
  spdlog::set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::info);

  stop_cleanly_on_signals();
  trust.add_environment_folders();
  Registry registry;
  const int status = [&]() -> int {
    try {
      register_builtin_components(registry);
      for (const auto& p : plugins) registry.load_plugin(p);
      if (run->parsed())
        return cmd_run(registry, netlist, out_dir, sets, trust, t_end, !no_report, quiet, strict, energy, progress_lines);
      if (linearize->parsed()) {
        if (from_option->count()) linear_request.from_hz = from_hz;
        if (to_option->count()) linear_request.to_hz = to_hz;
        return cmd_linear(registry, netlist, out_dir, sets, trust, linear_request, !no_report, quiet);
      }
      if (check->parsed()) return cmd_check(registry, netlist, trust, check_json);
      if (studio->parsed()) return cmd_studio(registry, studio_request, trust, plugins);
      if (export_fmu->parsed()) {
        export_options.output = fmu_file;
        return cmd_export_fmu(registry, netlist, trust, export_options, quiet);
      }
      if (describe->parsed()) return cmd_describe(registry, type, all, as_json, markdown, describe_params);
      if (format->parsed()) return cmd_format(netlist, format_request);
      if (schema->parsed()) return cmd_schema(registry, schema_file);
      if (solver_list->parsed()) return cmd_solvers(registry, method, as_json);
      return cmd_list(registry);
    } catch (const InputError& e) {
      spdlog::error("{}", printable(e.what()));
      return kBadInput;
    } catch (const Stopped& e) {
      const int signal = static_cast<int>(stop_signal);
      spdlog::error("{} by signal {} ({}): nothing run, nothing written", printable(e.what()), signal, strsignal(signal));
      return 128 + signal;
    } catch (const SimulationError& e) {
      spdlog::error("simulation failed {}", printable(e.what()));
      return kSimulationFailed;
    } catch (const Error& e) {
      // Jourdain's other errors that get here are about the files it reads or writes before
      // a run (an output folder where results.csv cannot be created): the input is at fault.
      spdlog::error("{}", printable(e.what()));
      return kBadInput;
    } catch (const std::exception& e) {
      // Not a property of the input or the model: a defect in Jourdain or in a plugin.
      spdlog::error("internal error: {}", printable(e.what()));
      spdlog::error("this is a defect in Jourdain (or in a plugin), not in your netlist: please report it with the "
                    "netlist and this message");
      return kInternalError;
    } catch (...) {
      spdlog::error("internal error: an exception of unknown type");
      spdlog::error("this is a defect in Jourdain (or in a plugin), not in your netlist: please report it with the "
                    "netlist and this message");
      return kInternalError;
    }
  }();
  // A signal that came outside a run's integration (while loading, checking, exporting,
  // linearizing) did not stop the work, but the command must not end as if none came:
  // 128 + its number, as for a run it stops.
  if (stop_signal != 0 && status != 128 + static_cast<int>(stop_signal)) {
    spdlog::error("stopped by signal {} ({}){}", static_cast<int>(stop_signal), strsignal(static_cast<int>(stop_signal)),
                  status == kOk ? " after the command had done its work: what it wrote is whole" : "");
    return 128 + static_cast<int>(stop_signal);
  }
  // What a command printed may still sit in the buffer: a full disk or a closed pipe
  // behind stdout shows only now, and must not pass for success.
  std::cout.flush();
  if (!std::cout) {
    spdlog::error("cannot write to standard output: {}", std::strerror(errno));
    return status == kOk ? kSimulationFailed : status;
  }
  return status;
}
