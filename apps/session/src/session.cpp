// The session (jourdain/session/session.hpp): where a run and its files meet. The report
// listens to the recorded rows, keeping a bounded digest of them in memory, and is written
// from it and the run's summary once the run ends, after summary.json. Neither the
// solvers nor the report know the other; this is the one place that wires them.
#include "jourdain/session/session.hpp"
#include "jourdain/schematic.hpp"

#include <cmath>
#include <exception>
#include <optional>

#include "jourdain/report/report.hpp"
#include "summary_file.hpp"

namespace jourdain::session {

namespace {

// Modes are animated through one cycle in this many poses; the page loops them.
constexpr int kPosesPerModeCycle = 24;

report::ReportHeading heading(const Netlist& net) {
  report::ReportHeading h{net.name, net.description, net.file.string()};
  // The schematic from the netlist as written and the model's configured instances.
  if (net.registry) h.schematic = nlohmann::json(schematic(nlohmann::ordered_json(net.document), net.file, *net.registry, &net.model));
  return h;
}

}  // namespace

Netlist load(const std::filesystem::path& file, Registry& registry, const Trust& trust,
             const std::vector<std::string>& sets, std::function<bool()> stop_requested) {
  return load_netlist(file, registry, trust.overrides(sets, std::move(stop_requested)));
}

Netlist load_text(const std::string& text, const std::filesystem::path& file, Registry& registry, const Trust& trust,
                  const std::vector<std::string>& sets) {
  return load_netlist_text(text, file, registry, trust.overrides(sets));
}

std::filesystem::path default_output_folder(const std::string& netlist_name) {
  std::string folder;
  for (char c : netlist_name)
    folder += (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'
                  ? c
                  : '_';
  if (folder.find_first_not_of('.') == std::string::npos) folder = "netlist";  // "", ".", ".."
  return std::filesystem::path("results") / folder;
}

Run run(const Netlist& net, RunOptions options, bool report) {
  if (!options.output_dir.empty())
    options.started = detail::check_summary_first(options.output_dir, std::move(options.started));
  std::optional<report::Report> page;
  if (report && !options.output_dir.empty()) {
    page.emplace(net.model, net.record, report::ReportSettings{}, net.display_units);
    options.listeners.push_back(&*page);
  }
  Run out;
  out.result = run_netlist(net, options);
  detail::write_summary(options.output_dir, out.result);
  // A defect is reported as one once its run's summary is written; the report is not.
  if (out.result.defect) std::rethrow_exception(out.result.defect);
  if (page) {
    const std::filesystem::path file = options.output_dir / "report.html";
    try {
      report::write_page(file, page->data(heading(net), out.result.summary));
      out.report = file;
    } catch (const OutputError& e) {  // a full disk: results.csv and summary.json are whole
      out.report_failure = std::string(e.what()) + " (results.csv and summary.json are complete)";
    }
  }
  return out;
}

LinearRun linearize(const Netlist& net, const LinearSettings& settings, LinearRunOptions options, bool report) {
  if (!options.output_dir.empty())
    options.started = detail::check_summary_first(options.output_dir, std::move(options.started));
  std::optional<report::Report> page;
  if (report && !options.output_dir.empty()) {
    page.emplace(net.model, net.record, report::ReportSettings{}, net.display_units);
    options.listeners.push_back(&*page);
  }
  LinearRun out;
  out.result = run_linear(net, settings, options);
  detail::write_summary(options.output_dir, out.result);
  if (page) {
    const LinearRunResult& r = out.result;
    const std::filesystem::path file = options.output_dir / "report.html";
    try {
      if (r.finished) {
        page->set_linear(to_json(r.linear));
        for (size_t m = 0; m < r.linear.modes.size(); ++m)
          for (int k = 0; k < kPosesPerModeCycle; ++k)
            page->mode_frame(static_cast<int>(m), mode_pose(net.model, r.operating_point, r.linear, static_cast<int>(m),
                                                            2.0 * M_PI * k / kPosesPerModeCycle));
      }
      report::write_page(file, page->data(heading(net), r.summary));
      out.report = file;
    } catch (const OutputError& e) {  // a full disk: the other files are whole
      out.report_failure = std::string(e.what()) + " (linear.json, the CSV files and summary.json are complete)";
    }
  }
  return out;
}

}  // namespace jourdain::session
