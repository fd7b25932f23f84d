// _jourdain: the compiled half of the `jourdain` Python package (apps/python/jourdain
// is the other half, and the only one users see). It hands Python the library the
// command line uses, with the same messages: a component library (built-in types and
// plugins), netlists loaded into immutable models, and runs of a loaded model, each with
// its own Context, so that one model serves any number of runs in threads at once.
//
// JSON crosses the boundary as text (json.dumps / json.loads on the Python side): the
// netlist, the summary and the descriptors are JSON documents already, and this keeps
// one conversion path. Numbers that matter in bulk (the recorded rows, A, B, C, D) cross
// as numpy arrays.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jourdain/components/builtin.hpp"
#include "jourdain/descriptor.hpp"
#include "jourdain/document.hpp"
#include "jourdain/netlist.hpp"
#include "jourdain/page/page.hpp"
#include "jourdain/schema.hpp"
#include "jourdain/session/session.hpp"
#include "jourdain/solvers/linear.hpp"
#include "jourdain/solvers/run.hpp"
#include "jourdain/solvers/solver_registry.hpp"
#include "jourdain/units.hpp"
#include "jourdain/version.hpp"

namespace py = pybind11;
using nlohmann::json;

namespace {

using namespace jourdain;

// Name/value pairs whose values are JSON text (a number, or a string with a unit).
using NamedValues = std::vector<std::pair<std::string, std::string>>;

std::vector<std::pair<std::string, json>> parse_values(const NamedValues& values) {
  std::vector<std::pair<std::string, json>> out;
  for (const auto& [name, text] : values) out.emplace_back(name, json::parse(text));
  return out;
}

// The component types and solver methods a model is built from: the built-in ones and
// the plugins loaded into it. Shared by the models loaded from it, which keep it (and so
// the plugins' code) alive.
struct Library {
  std::shared_ptr<Registry> registry = std::make_shared<Registry>();
  Library() { register_builtin_components(*registry); }
};

// A loaded netlist: immutable once built; every run makes its own Context.
struct LoadedNetlist {
  std::shared_ptr<Registry> registry;
  std::shared_ptr<const Netlist> netlist;
};

// What the user allows a netlist (session/trust.hpp): the Python layer's keyword
// arguments, and the folders the environment names, as on the command line.
session::Trust trust_from(const py::dict& arguments) {
  session::Trust trust;
  trust.max_components = arguments["max_components"].cast<std::size_t>();
  trust.allow_plugins = arguments["allow_plugins"].cast<bool>();
  trust.allow_any_path = arguments["allow_any_path"].cast<bool>();
  for (const auto& f : arguments["library_folders"].cast<std::vector<std::string>>()) trust.library_folders.emplace_back(f);
  trust.add_environment_folders();
  return trust;
}

LoadedNetlist load_file(const Library& library, const std::string& file, const std::vector<std::string>& sets,
                        const py::dict& trust) {
  return {library.registry, std::make_shared<const Netlist>(session::load(file, *library.registry, trust_from(trust), sets))};
}

LoadedNetlist load_text(const Library& library, const std::string& text, const std::string& file,
                        const std::vector<std::string>& sets, const py::dict& trust) {
  return {library.registry,
          std::make_shared<const Netlist>(session::load_text(text, file, *library.registry, trust_from(trust), sets))};
}

// What the Python layer needs to describe a loaded model (Model.parameters, .states, ...).
std::string model_info(const LoadedNetlist& loaded) {
  const Netlist& net = *loaded.netlist;
  const Model& m = net.model;
  json parameters = json::array(), recordable = json::array(), components = json::array();
  for (const auto& p : m.parameters())
    parameters.push_back({{"name", p.name}, {"unit", p.unit}, {"default", p.default_value}, {"range", p.range.to_string(p.unit)}});
  for (const auto& v : m.recordable()) recordable.push_back({{"name", v.name}, {"unit", v.unit}});
  for (const auto& c : m.components()) components.push_back({{"name", c->name()}, {"type", c->type_name()}});
  return json{{"name", net.name},
              {"description", net.description},
              {"file", net.file.string()},
              {"analysis", net.linear_analysis ? "linear" : to_string(net.analysis)},
              {"document", net.document},
              {"solver", net.solver},
              {"record", net.record},
              {"states", m.state_names()},
              {"parameters", parameters},
              {"recordable", recordable},
              {"components", components}}
      .dump();
}

// Rows kept by the run, as one (rows × columns) array.
py::array_t<double> rows_array(const std::vector<std::vector<double>>& rows, size_t columns) {
  py::array_t<double> out({rows.size(), columns});
  auto view = out.mutable_unchecked<2>();
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < columns; ++j) view(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(j)) = rows[i][j];
  return out;
}

// One run of a loaded model: its own Context with these parameter values, initial
// states and solver settings. The GIL is released while it integrates. Bad input raises
// InputError; a failed run returns finished = False with everything up to the failure.
py::dict run(const LoadedNetlist& loaded, const NamedValues& parameters, const NamedValues& initial,
             const std::string& solver, std::optional<double> t_end, const std::string& output_dir, bool report,
             bool strict, bool energy) {
  const Netlist& net = *loaded.netlist;
  RunOptions options;
  options.parameters = parse_values(parameters);
  options.initial = parse_values(initial);
  options.solver = json::parse(solver);
  options.t_end = t_end;
  options.keep_rows = true;
  options.strict = strict;
  options.energy = energy;
  options.output_dir = output_dir;
  options.solvers = &solvers(*loaded.registry);
  // Ctrl-C reaches a run: Python's signal handlers run only when the interpreter does, and
  // a run holds no GIL. Every 50 ms the run takes the GIL and lets Python handle a pending
  // signal (PyErr_CheckSignals; it does nothing outside the main thread): SIGINT's handler
  // raises KeyboardInterrupt, the run stops cleanly with its rows, and the Python layer
  // raises it on, carrying the result. A signal that comes as the run ends is caught the
  // same way, so that a finished result is not lost to it.
  py::object interruption;
  auto check_signals = [&interruption] {
    if (PyErr_CheckSignals() != 0) interruption = py::reinterpret_borrow<py::object>(py::error_already_set().value());
    return static_cast<bool>(interruption);
  };
  auto last_check = std::chrono::steady_clock::now();
  options.stop_requested = [&] {
    if (interruption) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_check < std::chrono::milliseconds(50)) return false;
    last_check = now;
    py::gil_scoped_acquire gil;
    return check_signals();
  };
  session::Run run;
  {
    py::gil_scoped_release release;
    run = session::run(net, options, report);
  }
  RunResult& r = run.result;
  if (!run.report_failure.empty()) {  // a full disk: the run fails, as on the command line
    if (r.finished) r.failure = run.report_failure;
    r.finished = false;
  }
  if (!interruption) check_signals();
  py::dict out;
  out["finished"] = r.finished;
  out["failure"] = r.failure;
  out["failure_time"] = r.failure_time;
  out["interruption"] = interruption ? interruption : py::none();  // or the exception a signal raised
  out["columns"] = r.columns;
  out["rows"] = rows_array(r.rows, r.columns.size());
  out["warnings"] = r.warnings;
  out["accuracy_warnings"] = r.accuracy_warnings;
  out["wall_time_s"] = r.wall_time_s;
  out["summary"] = r.summary.dump();
  return out;
}

// The linear model at an operating point (solvers/linear.hpp), as `jourdain linearize`.
py::dict linearize_model(const LoadedNetlist& loaded, const std::string& at, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs, std::optional<double> from_hz,
                         std::optional<double> to_hz, const NamedValues& parameters, const std::string& output_dir) {
  const Netlist& net = *loaded.netlist;
  const std::string file = net.file.string();
  LinearSettings settings = linear_settings_from_json(net.linear, {file, "/linear", "", ""});
  if (!at.empty()) parse_operating_point(at, settings, {file, "at", "", ""});
  if (!inputs.empty()) settings.inputs = inputs;
  if (!outputs.empty()) settings.outputs = outputs;
  if (from_hz) settings.frequency_from = *from_hz;
  if (to_hz) settings.frequency_to = *to_hz;
  LinearRunOptions options;
  options.output_dir = output_dir;
  options.parameters = parse_values(parameters);
  options.solvers = &solvers(*loaded.registry);
  LinearRunResult r;
  {
    py::gil_scoped_release release;
    r = session::linearize(net, settings, options, /*report=*/false).result;
  }
  const LinearModel& lm = r.linear;
  py::dict out;
  out["finished"] = r.finished;
  out["failure"] = r.failure;
  out["warnings"] = r.warnings;
  out["summary"] = r.summary.dump();
  if (r.finished) {
    out["A"] = lm.A;
    out["B"] = lm.B;
    out["C"] = lm.C;
    out["D"] = lm.D;
    out["x"] = lm.x;
    out["basis"] = lm.basis;
    out["eigenvalues"] = lm.eigenvalues;
    out["frequencies_hz"] = lm.frequencies_hz;
    out["response"] = lm.response;
    out["linear"] = to_json(lm).dump();
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_jourdain, m) {
  m.doc() = "Jourdain's compiled core; use the `jourdain` package, not this module.";
  m.attr("version") = JOURDAIN_VERSION;

  // Errors carry the command line's messages (file, JSON path, component, port). The
  // last registered translator is tried first: the general Error goes first.
  static py::exception<Error> error(m, "Error", PyExc_RuntimeError);
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<SimulationError>(m, "SimulationError", error.ptr());
  py::register_exception<OutputError>(m, "OutputError", PyExc_OSError);

  py::class_<Library>(m, "Library")
      .def(py::init<>())
      .def("load_plugin", [](Library& l, const std::string& path) { l.registry->load_plugin(path); })
      .def("types",
           [](const Library& l) {
             json out = json::array();
             for (const auto* t : l.registry->all())
               out.push_back({{"name", t->name}, {"summary", t->summary}, {"origin", t->origin}});
             return out.dump();
           })
      .def("describe",
           [](const Library& l, const std::string& type, const std::string& params) {
             const ComponentType* t = l.registry->find(type);
             if (!t) {
               std::string hint;
               for (const auto& s : l.registry->suggestions(type)) hint += (hint.empty() ? "; did you mean: " : ", ") + s;
               throw InputError({"", "", "", ""}, "unknown component type '" + type + "'" + hint);
             }
             return describe_type(*t, l.registry.get(), json::parse(params)).dump();
           },
           py::arg("type"), py::arg("params") = "{}")
      .def("solvers", [](const Library& l) { return describe_solvers(solvers(*l.registry)).dump(); })
      .def("schema", [](const Library& l) {
        return netlist_schema(*l.registry, solver_settings_schema(solvers(*l.registry)), linear_settings_schema()).dump();
      });

  py::class_<LoadedNetlist>(m, "LoadedNetlist")
      .def("info", &model_info)
      .def("run", &run, py::arg("parameters"), py::arg("initial"), py::arg("solver"), py::arg("t_end"),
           py::arg("output_dir"), py::arg("report"), py::arg("strict"),
           py::arg("energy") = false)
      .def("linearize", &linearize_model, py::arg("at"), py::arg("inputs"), py::arg("outputs"), py::arg("from_hz"),
           py::arg("to_hz"), py::arg("parameters"), py::arg("output_dir"));

  // A page of the page toolkit (apps/page), as report.html is written: the Python layer
  // gives the data (sweep_page.py), the toolkit the template, style and script.
  m.def("render_page", [](const std::string& kind, const std::string& data) {
    return page::render(page::kind_named(kind), json::parse(data));
  }, py::arg("kind"), py::arg("data"));
  // A quantity in SI ("250 bar" for "Pa": 2.5e7), its dimension checked against the unit;
  // and an SI value in a unit. The design studies take limits and bounds with units.
  m.def("to_si", [](const std::string& text, const std::string& si_unit) { return parse_quantity(text, si_unit); },
        py::arg("text"), py::arg("si_unit"));
  m.def("from_si", [](double value, const std::string& unit) { return from_si(value, unit); }, py::arg("value"),
        py::arg("unit"));
  // Every problem of a netlist (NetlistCheck), as `jourdain check --json` lists them.
  m.def(
      "check_text",
      [](const Library& library, const std::string& text, const std::string& file, const py::dict& trust) {
        NetlistCheck checked = check_netlist_text(text, file, *library.registry, trust_from(trust).overrides());
        if (!text.empty()) {
          try {
            const NetlistDocument document = NetlistDocument::parse(text, file);
            checked.diagnostics.locate_lines(file, [&](const std::string& path) { return document.position(path); });
          } catch (const InputError&) {
          }
        }
        return checked.diagnostics.to_json().dump();
      },
      py::arg("library"), py::arg("text"), py::arg("file"), py::arg("trust"));
  // A netlist's canonical text (NetlistDocument::text), and whether the text had comments.
  m.def(
      "canonical_text",
      [](const std::string& text, const std::string& file) {
        const NetlistDocument document = NetlistDocument::parse(text, file);
        return std::make_pair(document.text(), document.has_comments());
      },
      py::arg("text"), py::arg("file"));
  m.def("load_file", &load_file, py::arg("library"), py::arg("file"), py::arg("sets"), py::arg("trust"));
  m.def("load_text", &load_text, py::arg("library"), py::arg("text"), py::arg("file"), py::arg("sets"),
        py::arg("trust"));
}
