// A netlist's check, for every application (session.hpp): the loader's diagnostics, the
// solver settings', and what the model's block solvers find when it is first assembled.
#include <optional>
#include <sstream>

#include "jourdain/document.hpp"
#include "jourdain/session/session.hpp"
#include "jourdain/solvers/solver_registry.hpp"
#include "jourdain/solvers/simulate.hpp"

namespace jourdain::session {

namespace {

// What the built model is: its facts for tools and its evaluation order for people.
void describe_model(const Netlist& net, const std::filesystem::path& file, Registry& registry, Check& out,
                    const std::function<bool()>& stop_requested) {
  const Model& m = net.model;
  Diagnostics& diagnostics = out.diagnostics;
  const std::string name = file.string();
  std::vector<std::string> warnings;
  std::optional<SolverSettings> settings;
  diagnostics.attempt([&] {
    settings = solver_settings_from_json(net.solver, {name, "/solver", "", ""}, solvers(registry), &warnings);
    check_solver_bounds(*settings, {name, "/solver", "", ""}, solvers(registry));
  });
  for (const auto& w : warnings) diagnostics.warn({name, "/solver", "", ""}, w);
  if (!settings) return;
  // What the structured block solvers see at the start (a mechanism: its assembly and
  // degrees of freedom): they find bad input of their own (redundant constraints, a
  // kinematic analysis with free degrees of freedom), and a mechanism that cannot be
  // assembled fails here, as in a run.
  Context ctx = m.make_context(settings->t_start);
  ctx.analysis = net.analysis;
  if (!diagnostics.attempt([&] { m.initialize(ctx); })) return;
  if (stop_requested && stop_requested()) return;
  for (const auto& w : ctx.warnings) diagnostics.warn({name, "", w.component, ""}, w.message);
  std::vector<const Component*> comps;
  for (const auto& c : m.components()) comps.push_back(c.get());
  std::ostringstream text;
  text << "netlist " << net.name << ": OK\n"
       << "  " << comps.size() << " components, " << m.state_count() << " continuous states, "
       << m.zero_crossing_count() << " zero-crossing functions, " << m.schedule().loop_count()
       << " algebraic loop(s)\n\nEvaluation order:\n"
       << m.schedule().describe(comps);
  if (std::string blocks = m.describe_blocks(ctx); !blocks.empty()) text << "\n" << blocks;
  // Unconnected ports are legal where they remain here (signal outputs, a mass with
  // nothing attached, optional inputs), but worth a look.
  const auto open = m.unconnected_ports();
  text << "\nUnconnected ports:";
  if (open.empty()) text << " none";
  for (const auto& p : open) text << " " << p;
  text << "\nStates:";
  for (const auto& st : m.state_names()) text << " " << st;
  text << "\nRecorded: " << net.record.size() << " variables\n";
  out.model_text = text.str();
  out.model = {{"name", net.name},
               {"components", comps.size()},
               {"states", m.state_names()},
               {"algebraic_loops", m.schedule().loop_count()},
               {"unconnected_ports", open},
               {"recorded", net.record}};
}

Check check(const std::optional<NetlistDocument>& document, const std::string& text, const std::filesystem::path& file,
            Registry& registry, const Trust& trust, const std::function<bool()>& stop_requested) {
  Check out;
  const NetlistOverrides overrides = trust.overrides({}, stop_requested);
  NetlistCheck checked = document ? check_netlist_text(text, file, registry, overrides) : check_netlist(file, registry, overrides);
  out.diagnostics = std::move(checked.diagnostics);
  if (checked.netlist && !(stop_requested && stop_requested()))
    describe_model(*checked.netlist, file, registry, out, stop_requested);
  // Lines and columns in the netlist's own text (a file that is no JSON says its own).
  if (document)
    out.diagnostics.locate_lines(file.string(), [&](const std::string& path) { return document->position(path); });
  return out;
}

}  // namespace

nlohmann::json Check::to_json(const std::string& netlist) const {
  nlohmann::json out = diagnostics.to_json();
  out["netlist"] = netlist;
  out["ok"] = !diagnostics.has_errors();
  if (!diagnostics.has_errors()) out["model"] = model;
  return out;
}

Check check_text(const std::string& text, const std::filesystem::path& file, Registry& registry, const Trust& trust,
                 std::function<bool()> stop_requested) {
  std::optional<NetlistDocument> document;
  try {
    document = NetlistDocument::parse(text, file);
  } catch (const InputError&) {
  }
  if (!document) {
    // No JSON: the loader says where, as it does for a file.
    Check out;
    NetlistCheck checked = check_netlist_text(text, file, registry, trust.overrides({}, stop_requested));
    out.diagnostics = std::move(checked.diagnostics);
    return out;
  }
  return check(document, text, file, registry, trust, stop_requested);
}

Check check_file(const std::filesystem::path& file, Registry& registry, const Trust& trust,
                 std::function<bool()> stop_requested) {
  // The document first: it gives the diagnostics their lines, and its text is checked
  // (one read of the file). A file that is no JSON is left to the check to report.
  std::optional<NetlistDocument> document;
  try {
    document = NetlistDocument::read(file);
  } catch (const InputError&) {
  }
  return check(document, document ? document->source() : std::string(), file, registry, trust, stop_requested);
}

}  // namespace jourdain::session
