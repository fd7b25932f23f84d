// report.html (report.hpp). The C++ side gathers the data (summary, thinned rows, plot
// groups, sketches) into one JSON object; the page (kPageHead, kPageScript below,
// hand-written HTML, CSS and plain JavaScript drawing SVG) builds everything from it.
#include "jourdain/solvers/report.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

namespace jourdain {

namespace {

using nlohmann::json;

constexpr long kPlotBuckets = 1000;      // above 2 rows a bucket, plots keep min and max
constexpr long kAnimationFrames = 2000;  // frames kept for the animation
constexpr size_t kCurvesPerPlot = 6;
constexpr size_t kMaxEvents = 500;  // rows of the events table (the count says how many)

// Fewer digits than results.csv: a page, not a data file (time keeps more).
double rounded(double v, int digits) {
  if (!std::isfinite(v) || v == 0.0) return v;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return std::strtod(buf, nullptr);
}
double rounded_time(double t) { return rounded(t, 10); }
double rounded_value(double v) { return rounded(v, 7); }

// Reads results.csv as the Recorder wrote it (a header, then `columns` numbers a row)
// and calls row(index, values) for each complete row. A partial last line (a crash
// while writing) ends the reading.
template <class F>
void for_each_row(const std::filesystem::path& csv, size_t columns, F&& row) {
  std::ifstream in(csv, std::ios::binary);
  if (!in) throw Error("cannot read " + csv.string());
  std::string line;
  std::getline(in, line);  // header
  std::vector<double> values(columns);
  for (long index = 0; std::getline(in, line); ++index) {
    const char* p = line.data();
    const char* end = p + line.size();
    size_t k = 0;
    for (; k < columns; ++k) {
      auto [next, ec] = std::from_chars(p, end, values[k]);
      if (ec != std::errc()) break;
      p = next;
      if (k + 1 < columns) {
        if (p == end || *p != ',') break;
        ++p;
      }
    }
    if (k < columns) return;
    row(index, values);
  }
}

bool is_monitor(const Model& model, const std::string& name) {
  try {
    return model.recordable(name).source == RecordableVariable::Source::Monitor;
  } catch (const InputError&) {
    return false;
  }
}

bool is_recordable(const Model& model, const std::string& name) {
  try {
    model.recordable(name);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// The plotted variables (the netlist's own, not those added for the sketches) grouped
// by unit, monitors apart, at most kCurvesPerPlot a plot. Each plot lists indices into
// `variables`.
json plot_groups(const Model& model, const json& variables) {
  std::vector<std::string> keys;
  std::map<std::string, std::vector<int>> members;
  for (size_t k = 0; k < variables.size(); ++k) {
    const std::string name = variables[k]["name"], unit = variables[k]["unit"];
    const std::string key = (is_monitor(model, name) ? "monitor:" : "unit:") + unit;
    if (!members.count(key)) keys.push_back(key);
    members[key].push_back(static_cast<int>(k));
  }
  json plots = json::array();
  for (const auto& key : keys) {
    const auto& m = members[key];
    const bool monitor = key.rfind("monitor:", 0) == 0;
    // Seven curves make plots of four and three, not six and one.
    const size_t count = (m.size() + kCurvesPerPlot - 1) / kCurvesPerPlot;
    for (size_t c = 0; c < count; ++c) {
      json p = {{"unit", variables[m[0]]["unit"]}, {"monitor", monitor}, {"variables", json::array()},
                {"part", c + 1}, {"parts", count}};
      for (size_t k = c * m.size() / count; k < (c + 1) * m.size() / count; ++k) p["variables"].push_back(m[k]);
      plots.push_back(p);
    }
  }
  return plots;
}

// A sketch's frame variables, or none for a world-fixed drawing.
std::vector<std::string> frame_variables(const json& sketch) {
  if (!sketch.is_object() || !sketch.contains("frame")) return {};
  const json& f = sketch["frame"];
  std::vector<std::string> out;
  for (const char* key : {"x", "y", "theta"})
    if (f.is_object() && f.contains(key) && f[key].is_string()) out.push_back(f[key]);
  return out;
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// The page (HTML head and style, then the script), at the end of this file.
extern const char* const kPageHead;
extern const char* const kPageScript;

}  // namespace

std::vector<std::string> sketch_variables(const Model& model) {
  std::vector<std::string> out;
  for (const auto& c : model.components()) {
    const std::vector<std::string> vars = frame_variables(c->sketch());
    if (vars.size() != 3) continue;
    for (const auto& v : vars)
      if (is_recordable(model, v) && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

void write_report(const Netlist& netlist, const RunResult& result, const std::filesystem::path& results_csv,
                  const std::filesystem::path& report_file) {
  const Model& model = netlist.model;
  const auto column_of = [&](const std::string& name) -> int {
    for (size_t k = 1; k < result.columns.size(); ++k)
      if (result.columns[k] == name) return static_cast<int>(k);
    return -1;
  };
  const json& units = result.summary.contains("variables") ? result.summary["variables"] : json::array();
  const auto unit_of = [&](int column) -> std::string {
    const size_t k = static_cast<size_t>(column - 1);
    return k < units.size() ? units[k].value("unit", "") : "";
  };

  // Plotted: the netlist's recorded variables, each once.
  json variables = json::array();
  std::vector<int> plot_columns;
  std::vector<bool> monitor;
  for (const auto& name : netlist.record) {
    const int c = column_of(name);
    if (c < 0 || std::find(plot_columns.begin(), plot_columns.end(), c) != plot_columns.end()) continue;
    plot_columns.push_back(c);
    monitor.push_back(is_monitor(model, name));
    variables.push_back({{"name", name}, {"unit", unit_of(c)}});
  }

  // Sketches whose frame variables the run recorded; the animation's columns.
  json sketches = json::array();
  std::vector<int> pose_columns;
  bool moving = false;
  for (const auto& c : model.components()) {
    json s = c->sketch();
    if (!s.is_object()) continue;
    const std::vector<std::string> vars = frame_variables(s);
    if (s.contains("frame")) {
      if (vars.size() != 3) continue;
      std::vector<int> cols;
      for (const auto& v : vars) cols.push_back(column_of(v));
      if (std::find(cols.begin(), cols.end(), -1) != cols.end()) continue;  // not recorded
      for (int col : cols)
        if (std::find(pose_columns.begin(), pose_columns.end(), col) == pose_columns.end()) pose_columns.push_back(col);
      moving = true;
    }
    s["component"] = c->name();
    s["type"] = c->type_name();
    sketches.push_back(std::move(s));
  }
  if (!moving) pose_columns.clear();

  // One pass over results.csv: plot rows (thinned by buckets when long) and frames.
  const long n = std::max<long>(result.row_count, 1);
  const bool thin = n > 2 * kPlotBuckets;
  json plot_time = json::array(), anim_time = json::array();
  std::vector<json> plot_values(plot_columns.size(), json::array()), anim_values(pose_columns.size(), json::array());
  struct Extremes {
    double lo, hi;
    long at_lo, at_hi;
  };
  std::vector<Extremes> ext(plot_columns.size());
  long bucket = -1, in_bucket = 0, last_frame = -1;
  double t_first = 0, t_last = 0;
  std::vector<double> last_row;
  long last_index = -1;
  const auto flush_bucket = [&] {
    if (in_bucket == 0) return;
    // Two points a bucket, at its first and last time: the extremes in the order they
    // came; for a monitor (a norm: its size is what matters), the largest twice.
    plot_time.push_back(rounded_time(t_first));
    if (in_bucket > 1) plot_time.push_back(rounded_time(t_last));
    for (size_t k = 0; k < ext.size(); ++k) {
      if (monitor[k]) ext[k].lo = ext[k].hi;
      const bool lo_first = ext[k].at_lo <= ext[k].at_hi;
      plot_values[k].push_back(rounded_value(lo_first ? ext[k].lo : ext[k].hi));
      if (in_bucket > 1) plot_values[k].push_back(rounded_value(lo_first ? ext[k].hi : ext[k].lo));
    }
  };
  const auto keep_frame = [&](long index, const std::vector<double>& row) {
    anim_time.push_back(rounded_time(row[0]));
    for (size_t k = 0; k < pose_columns.size(); ++k) anim_values[k].push_back(rounded(row[pose_columns[k]], 9));
    last_frame = index;
  };
  for_each_row(results_csv, result.columns.size(), [&](long index, const std::vector<double>& row) {
    if (!thin) {
      plot_time.push_back(rounded_time(row[0]));
      for (size_t k = 0; k < plot_columns.size(); ++k) plot_values[k].push_back(rounded_value(row[plot_columns[k]]));
    } else {
      const long b = index * kPlotBuckets / n;
      if (b != bucket) {
        flush_bucket();
        bucket = b;
        in_bucket = 0;
        t_first = row[0];
      }
      t_last = row[0];
      for (size_t k = 0; k < plot_columns.size(); ++k) {
        const double v = row[plot_columns[k]];
        Extremes& e = ext[k];
        if (in_bucket == 0) e = {v, v, index, index};
        if (v < e.lo) e.lo = v, e.at_lo = index;
        if (v > e.hi) e.hi = v, e.at_hi = index;
      }
      ++in_bucket;
    }
    if (!pose_columns.empty() && (n <= kAnimationFrames || index == 0 ||
                                  index * kAnimationFrames / n != (index - 1) * kAnimationFrames / n))
      keep_frame(index, row);
    last_row = row;
    last_index = index;
  });
  flush_bucket();
  if (!pose_columns.empty() && last_index >= 0 && last_frame != last_index) keep_frame(last_index, last_row);

  json series = {{"time", plot_time}, {"values", json::array()}};
  for (auto& v : plot_values) series["values"].push_back(std::move(v));
  json animation = nullptr;
  if (!pose_columns.empty()) {
    animation = {{"time", anim_time}, {"values", json::object()}, {"sketches", sketches}};
    for (size_t k = 0; k < pose_columns.size(); ++k)
      animation["values"][result.columns[pose_columns[k]]] = std::move(anim_values[k]);
  }

  json summary = result.summary;
  const size_t event_count = summary.contains("events") ? summary["events"].size() : 0;
  if (event_count > kMaxEvents) {
    json kept = json::array();
    for (size_t k = 0; k < kMaxEvents; ++k) kept.push_back(summary["events"][k]);
    summary["events"] = kept;
  }
  json data = {{"name", netlist.name},
               {"description", netlist.description},
               {"netlist", netlist.file.string()},
               {"summary", summary},
               {"event_count", event_count},
               {"rows", result.row_count},
               {"thinned", thin},
               {"variables", variables},
               {"plots", plot_groups(model, variables)},
               {"series", series},
               {"animation", animation}};

  // Inside <script>, "<" must not open a tag: it can only occur in JSON strings, where
  // the escape \u003c reads back the same.
  std::string text = data.dump(-1, ' ', false, json::error_handler_t::replace), safe;
  safe.reserve(text.size());
  for (char c : text) {
    if (c == '<') safe += "\\u003c";
    else safe += c;
  }

  std::ofstream out(report_file, std::ios::binary);
  if (!out) throw Error("cannot write " + report_file.string());
  const std::string name = netlist.name.empty() ? std::string("run") : netlist.name;
  const std::string title = html_escape(name + " · Jourdain report");
  std::string head = kPageHead;
  head.replace(head.find("@TITLE@"), 7, title);
  out << head << "<script id=\"report-data\" type=\"application/json\">" << safe << "</script>\n<script>" << kPageScript
      << "</script>\n</body>\n</html>\n";
  if (!out) throw Error("cannot write " + report_file.string());
}

namespace {

// ---------------------------------------------------------------- the page
// Style and script are hand-written; the script reads the JSON in #report-data and
// builds the header, the animation, the plots and the tables (plain DOM and SVG).
const char* const kPageHead = R"page(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
:root { --fg:#1d2733; --muted:#5f6b7a; --line:#dde3ea; --bg:#f3f5f8; --card:#fff;
        --accent:#2563eb; --ok:#1a7f37; --bad:#c62828; }
* { box-sizing:border-box; }
body { margin:0; background:var(--bg); color:var(--fg);
       font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif; }
header { background:var(--card); border-bottom:1px solid var(--line); padding:18px 32px 16px; }
main { padding:18px 32px 32px; max-width:1600px; margin:0 auto; }
footer { color:var(--muted); font-size:12px; padding:0 32px 24px; max-width:1600px; margin:0 auto; }
h1 { font-size:22px; margin:0; display:inline-block; vertical-align:middle; letter-spacing:-.01em; }
h2 { font-size:15px; margin:0 0 10px; }
h3 { font-size:13px; margin:0 0 6px; color:var(--muted); font-weight:600; }
.badge { display:inline-block; vertical-align:middle; margin-left:10px; padding:2px 10px; border-radius:999px;
         font-size:12px; font-weight:600; text-transform:uppercase; letter-spacing:.05em; color:#fff; }
.badge.finished { background:var(--ok); }
.badge.failed { background:var(--bad); }
.desc { color:var(--muted); max-width:120ch; margin:6px 0 0; }
.figures { display:flex; flex-wrap:wrap; gap:8px; margin-top:14px; }
.fig { background:var(--bg); border:1px solid var(--line); border-radius:6px; padding:5px 12px 6px; }
.fig .k { font-size:11px; color:var(--muted); text-transform:uppercase; letter-spacing:.04em; white-space:nowrap; }
.fig .v { font-size:16px; font-weight:600; font-variant-numeric:tabular-nums; white-space:nowrap; }
.card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:14px 16px; margin-bottom:18px; }
.alert { border-radius:8px; padding:10px 14px; margin-bottom:14px; border:1px solid; white-space:pre-wrap; }
.alert.failure { background:#fdecea; border-color:#f3b4ae; color:#7f1d1d; }
.alert.warning { background:#fff8e1; border-color:#f1d48a; color:#6b4e00; }
.script-error { background:var(--bad); color:#fff; padding:8px 14px; margin:0; white-space:pre-wrap; }
.muted { color:var(--muted); }
svg text { font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif; }

/* plots */
.plots { display:grid; grid-template-columns:repeat(auto-fill,minmax(520px,1fr)); gap:14px; }
.plot { position:relative; border:1px solid var(--line); border-radius:6px; padding:8px 10px 4px; }
.plot svg { width:100%; height:auto; display:block; }
.legend { display:flex; flex-wrap:wrap; gap:2px 14px; font-size:12px; margin:0 0 2px; }
.legend span { cursor:pointer; user-select:none; white-space:nowrap; }
.legend span.off { opacity:.35; text-decoration:line-through; }
.legend i { display:inline-block; width:14px; height:3px; border-radius:2px; vertical-align:middle; margin-right:5px; }
.tip { position:absolute; pointer-events:none; background:rgba(255,255,255,.96); border:1px solid var(--line);
       border-radius:5px; padding:4px 8px; font-size:12px; box-shadow:0 2px 6px rgba(0,0,0,.08); display:none;
       font-variant-numeric:tabular-nums; white-space:nowrap; z-index:2; }
.tip i { display:inline-block; width:8px; height:8px; border-radius:50%; margin-right:5px; }
.axis text { font-size:11px; fill:#4b5563; }
.axis .label { font-size:12px; fill:var(--fg); }
.grid line { stroke:#edf0f4; }
.frame { fill:none; stroke:#c5ccd6; }
.curve { fill:none; stroke-width:1.6; stroke-linejoin:round; }
.cursor { stroke:#9ca3af; }
.now { stroke:#111827; stroke-dasharray:4 3; }
.event { stroke:#d97706; stroke-width:2; }
.failure-line { stroke:var(--bad); stroke-width:1.5; stroke-dasharray:6 3; }
.failure-text { fill:var(--bad); font-size:11px; }

/* animation */
.anim { display:flex; flex-direction:column; gap:8px; }
#scene { width:100%; height:auto; display:block; background:#fbfcfd; border:1px solid var(--line); border-radius:6px; }
#scene .outline { fill-opacity:.22; stroke-width:2; stroke-linejoin:round; }
#scene .bar { fill:none; stroke-width:6; stroke-opacity:.85; stroke-linecap:round; stroke-linejoin:round; }
#scene .disc { fill-opacity:.9; stroke:#fff; stroke-width:1; }
#scene .pin { fill:#fff; stroke:#1f2937; stroke-width:1.6; }
#scene .trail { fill:none; stroke-opacity:.45; stroke-width:1; stroke-dasharray:3 3; }
#scene .anchor path { fill:#e5e7eb; stroke:#374151; stroke-width:1.4; stroke-linejoin:round; }
#scene .anchor line, #scene .scalebar line { stroke:#374151; stroke-width:1.6; }
#scene .scalebar text { font-size:11px; fill:#374151; }
#scene .name { font-size:12px; font-weight:600; }
.controls { display:flex; align-items:center; gap:12px; flex-wrap:wrap; }
.controls button { font:inherit; font-weight:600; padding:5px 14px; border-radius:6px; border:1px solid var(--accent);
                   background:var(--accent); color:#fff; cursor:pointer; min-width:84px; }
.controls input[type=range] { flex:1; min-width:200px; accent-color:var(--accent); }
.controls select { font:inherit; padding:3px 6px; border-radius:5px; border:1px solid var(--line); }
.controls .time { font-variant-numeric:tabular-nums; min-width:150px; font-weight:600; }
.controls label { color:var(--muted); font-size:13px; }

/* tables */
.details { display:grid; grid-template-columns:repeat(auto-fill,minmax(340px,1fr)); gap:14px; }
.details .card { margin:0; }
.scroll { max-height:320px; overflow:auto; }
table { border-collapse:collapse; width:100%; font-size:13px; font-variant-numeric:tabular-nums; }
th, td { padding:3px 8px; border-bottom:1px solid var(--line); text-align:left; vertical-align:top; }
th { color:var(--muted); font-weight:600; font-size:12px; white-space:nowrap; position:sticky; top:0;
     background:var(--card); }
td.num { text-align:right; white-space:nowrap; }
</style>
</head>
<body>
<header id="head"></header>
<main id="main"></main>
<footer id="foot"></footer>
)page";

const char* const kPageScript = R"page(
"use strict";
// Errors go into the page (data-report-error, and a red bar), where a headless browser's
// DOM dump shows them; data-report-ready="1" says that everything was built.
function reportError(text) {
  document.body.setAttribute("data-report-error", text);
  const bar = document.createElement("pre");
  bar.className = "script-error";
  bar.textContent = "Report script error: " + text;
  document.body.insertBefore(bar, document.body.firstChild);
}
window.onerror = function (message, source, line) { reportError(message + " (line " + line + ")"); };

const SVG_NS = "http://www.w3.org/2000/svg";  // a name, not an address: nothing is fetched
const CURVE_COLORS = ["#2563eb", "#dc2626", "#16a34a", "#ea580c", "#7c3aed", "#0891b2"];
const BODY_COLORS = ["#3b82f6", "#f97316", "#10b981", "#a855f7", "#ef4444", "#14b8a6", "#eab308", "#ec4899"];
const QUANTITY = {
  "m": "Position", "m/s": "Velocity", "m/s^2": "Acceleration", "rad": "Angle", "rad/s": "Angular velocity",
  "rad/s^2": "Angular acceleration", "N": "Force", "N*m": "Torque", "J": "Energy", "W": "Power",
  "Pa": "Pressure", "m^3/s": "Flow rate", "m^3": "Volume", "kg": "Mass", "s": "Time", "K": "Temperature",
  "V": "Voltage", "A": "Current", "N/m": "Stiffness", "": "Dimensionless"
};

// ---------------------------------------------------------------- helpers
// An HTML element with attributes (and text), appended to parent.
function el(tag, attrs, parent, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
// The same for SVG.
function sv(tag, attrs, parent, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
// A number for people: `digits` significant digits (4), exponent form when far from 1.
function fmt(v, digits) {
  if (v === null || v === undefined || !isFinite(v)) return "–";
  digits = digits || 4;
  const a = Math.abs(v);
  if (a === 0) return "0";
  if (a >= 1e-3 && a < 1e6) return String(Number(v.toPrecision(digits)));
  return v.toExponential(digits - 1).replace(/\.?0+e/, "e");
}
function fmtInt(v) { return v === undefined || v === null ? "–" : Number(v).toLocaleString("en-US"); }
function fmtSeconds(s) {
  if (s === undefined || s === null) return "–";
  if (s < 1e-3) return fmt(s * 1e6, 3) + " µs";
  if (s < 1) return fmt(s * 1e3, 3) + " ms";
  return fmt(s, 4) + " s";
}
function unitLabel(u) { return u === "" ? "1" : u.replace(/\^2/g, "²").replace(/\^3/g, "³").replace(/\*/g, "·"); }
// Index of the last time <= t (0 before the first).
function search(times, t) {
  let lo = 0, hi = times.length - 1;
  if (t <= times[0]) return 0;
  if (t >= times[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid; else hi = mid;
  }
  return lo;
}
// About n round tick values from lo to hi, and how to write them.
function niceTicks(lo, hi, n) {
  if (!(hi > lo)) { const d = Math.abs(lo) * 0.1 || 1; lo -= d; hi += d; }
  const raw = (hi - lo) / n, mag = Math.pow(10, Math.floor(Math.log10(raw))), r = raw / mag;
  const step = (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
  const list = [];
  for (let k = Math.ceil(lo / step - 1e-9); k <= Math.floor(hi / step + 1e-9); ++k) list.push(k * step);
  const big = Math.max(Math.abs(lo), Math.abs(hi));
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  if (big >= 1e5 || big < 1e-3 || decimals > 5) {
    const digits = Math.max(0, Math.floor(Math.log10(big)) - Math.floor(Math.log10(step)));
    return { list: list, label: v => (v === 0 ? "0" : v.toExponential(digits).replace(/\.?0+e/, "e")) };
  }
  return { list: list, label: v => v.toFixed(decimals) };
}

const D = JSON.parse(document.getElementById("report-data").textContent);
const S = D.summary;
const T0 = S.solver.t_start, T1 = S.solver.t_end;
const timeMarkers = [];  // per plot: a function(t) that moves its marker to the animation's time

// ---------------------------------------------------------------- header
function buildHeader() {
  const head = document.getElementById("head");
  const title = el("div", {}, head);
  el("h1", {}, title, D.name || "run");
  el("span", { class: "badge " + S.status }, title, S.status);
  if (D.description) el("p", { class: "desc" }, head, D.description);
  const figures = el("div", { class: "figures" }, head);
  const figure = (key, value, tip) => {
    const f = el("div", { class: "fig" }, figures);
    if (tip) f.title = tip;
    el("div", { class: "k" }, f, key);
    el("div", { class: "v" }, f, value);
  };
  const st = S.statistics;
  figure("Analysis", S.analysis || "dynamic");
  figure("Method", S.solver.method);
  figure("Time span", fmt(T0) + " – " + fmt(T1) + " s");
  if (S.failure) figure("Stopped at", fmt(S.failure.time, 6) + " s");
  figure("Steps", fmtInt(st.steps));
  figure("Rejected", fmtInt(st.rejected_steps));
  figure("RHS evaluations", fmtInt(st.rhs_evaluations));
  figure("Jacobians", fmtInt(st.jacobian_evaluations));
  figure("Events", fmtInt(st.events));
  figure("Wall time", fmtSeconds(S.wall_time_s));
  figure("Rows", fmtInt(D.rows), D.thinned ? "plots show the smallest and largest value of each bucket of rows" : "");
  for (const name in S.monitors || {}) figure("max " + name.split(".").pop(), fmt(S.monitors[name].max_abs, 3), name);

  const main = document.getElementById("main");
  if (S.failure) {
    // (The message says when: "at t = … s: …", as on the command line.)
    el("div", { class: "alert failure" }, main,
       "Simulation failed " + S.failure.message + "\nThe results below run up to the failure.");
  }
  if (S.warnings && S.warnings.length)
    el("div", { class: "alert warning" }, main, "Warnings:\n" + S.warnings.map(w => "• " + w).join("\n"));
  document.getElementById("foot").textContent =
    "Jourdain " + S.jourdain_version + " · netlist " + D.netlist + " · " + fmtInt(D.rows) + " rows in results.csv" +
    (D.thinned ? " (plots thinned: smallest and largest value of each bucket of rows)" : "");
}

// ---------------------------------------------------------------- plots
// Monitors (norms at round-off level jump by decades from row to row): the largest value
// in each of `bins` time bins, as steps. Replaces the curves' values; returns the times.
function envelope(time, curves, t0, t1, bins) {
  const top = curves.map(() => new Array(bins).fill(null)), used = new Array(bins).fill(false);
  for (let i = 0; i < time.length; ++i) {
    const b = Math.min(bins - 1, Math.max(0, Math.floor((time[i] - t0) / (t1 - t0 || 1) * bins)));
    used[b] = true;
    curves.forEach((c, k) => {
      const v = c.values[i];
      if (v !== null && isFinite(v) && (top[k][b] === null || v > top[k][b])) top[k][b] = v;
    });
  }
  const times = [], values = curves.map(() => []);
  for (let b = 0; b < bins; ++b) {
    if (!used[b]) continue;
    times.push(t0 + b / bins * (t1 - t0), t0 + (b + 1) / bins * (t1 - t0));
    curves.forEach((c, k) => values[k].push(top[k][b], top[k][b]));
  }
  curves.forEach((c, k) => { c.values = values[k]; });
  return times;
}

// One plot: the curves of `spec.variables` against time, a legend that hides and shows
// them, a hover readout, the events along the top edge and the animation's time.
function buildPlot(parent, spec) {
  const W = 640, H = 300, L = 66, R = 24, TOP = 10, B = 40;  // view box and margins
  const card = el("div", { class: "plot" }, parent);
  const unit = spec.unit;
  const quantity = spec.monitor ? "Monitors" : (QUANTITY[unit] !== undefined ? QUANTITY[unit] : "Variables");
  const curves = spec.variables.map((v, k) => ({
    name: D.variables[v].name, values: D.series.values[v], color: CURVE_COLORS[k % CURVE_COLORS.length], on: true }));
  let time = D.series.time;
  const t0 = T0, t1 = Math.max(T1, time.length ? time[time.length - 1] : T1);
  const binned = spec.monitor && time.length > 400;
  if (binned) time = envelope(time, curves, t0, t1, 200);
  el("h3", {}, card, quantity +
     (spec.monitor ? (binned ? " (log scale, upper envelope)" : " (log scale)") : " [" + unitLabel(unit) + "]") +
     (spec.parts > 1 ? " · " + spec.part + " of " + spec.parts : ""));
  const legend = el("div", { class: "legend" }, card);
  const svg = sv("svg", { viewBox: "0 0 " + W + " " + H }, card);
  const tip = el("div", { class: "tip" }, card);
  const grid = sv("g", { class: "grid" }, svg), axis = sv("g", { class: "axis" }, svg);
  sv("rect", { class: "frame", x: L, y: TOP, width: W - L - R, height: H - TOP - B }, svg);
  const clip = "clip" + Math.random().toString(36).slice(2);
  sv("rect", { x: L, y: TOP, width: W - L - R, height: H - TOP - B }, sv("clipPath", { id: clip }, sv("defs", {}, svg)));
  const area = sv("g", { "clip-path": "url(#" + clip + ")" }, svg);
  const cursor = sv("line", { class: "cursor", y1: TOP, y2: H - B, visibility: "hidden" }, svg);
  const now = sv("line", { class: "now", y1: TOP, y2: H - B, visibility: "hidden" }, svg);
  const dots = sv("g", {}, svg);
  const px = t => L + (t - t0) / (t1 - t0 || 1) * (W - L - R);
  let py = null;

  function draw() {
    grid.textContent = ""; axis.textContent = ""; area.textContent = "";
    let lo = Infinity, hi = -Infinity, smallest = Infinity;  // smallest positive value
    for (const c of curves) {
      if (!c.on) continue;
      for (const v of c.values) {
        if (v === null || !isFinite(v)) continue;
        lo = Math.min(lo, v); hi = Math.max(hi, v);
        if (v > 0) smallest = Math.min(smallest, v);
      }
    }
    if (lo === Infinity) { lo = 0; hi = 1; }
    let ticks;
    if (spec.monitor && isFinite(smallest)) {
      // Decades from the smallest positive value, at most 8 below the largest.
      const b = Math.max(Math.ceil(Math.log10(Math.max(hi, smallest))), Math.floor(Math.log10(smallest)) + 1);
      const a = Math.max(Math.floor(Math.log10(smallest)), b - 8), every = Math.ceil((b - a) / 6);
      py = v => H - B - (Math.log10(Math.max(v, Math.pow(10, a))) - a) / (b - a) * (H - TOP - B);
      ticks = { list: [], label: v => "1e" + Math.round(Math.log10(v)) };
      for (let e = a; e <= b; e += every) ticks.list.push(Math.pow(10, e));
    } else {
      const pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.1 || 1, y0 = lo - pad, y1 = hi + pad;
      py = v => H - B - (v - y0) / (y1 - y0) * (H - TOP - B);
      ticks = niceTicks(y0, y1, 6);
    }
    for (const v of ticks.list) {
      const y = py(v);
      if (y < TOP - 0.5 || y > H - B + 0.5) continue;
      sv("line", { x1: L, x2: W - R, y1: y, y2: y }, grid);
      sv("text", { x: L - 6, y: y + 4, "text-anchor": "end" }, axis, ticks.label(v));
    }
    const xticks = niceTicks(t0, t1, 8);
    for (const t of xticks.list) {
      sv("line", { x1: px(t), x2: px(t), y1: TOP, y2: H - B }, grid);
      sv("text", { x: px(t), y: H - B + 15, "text-anchor": "middle" }, axis, xticks.label(t));
    }
    sv("text", { class: "label", x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle" }, axis, "time [s]");
    sv("text", { class: "label", transform: "translate(13," + (TOP + (H - TOP - B) / 2) + ") rotate(-90)",
                 "text-anchor": "middle" }, axis,
       spec.monitor ? "magnitude" : quantity.toLowerCase() + " [" + unitLabel(unit) + "]");
    for (const e of S.events.length <= 200 ? S.events : []) {
      const tick = sv("line", { class: "event", x1: px(e.time), x2: px(e.time), y1: TOP, y2: TOP + 7 }, area);
      sv("title", {}, tick, "t = " + fmt(e.time, 6) + " s: " + e.component + ": " + e.description);
    }
    if (S.failure) {
      const x = px(S.failure.time);
      sv("line", { class: "failure-line", x1: x, x2: x, y1: TOP, y2: H - B }, area);
      const right = x < (L + W - R) / 2;  // the label on the side with room
      sv("text", { class: "failure-text", x: right ? x + 4 : x - 4, y: TOP + 12, "text-anchor": right ? "start" : "end" },
         area, "failure");
    }
    for (const c of curves) {
      if (!c.on) continue;
      let d = "", pen = "M";
      for (let i = 0; i < time.length; ++i) {
        const v = c.values[i];
        if (v === null || !isFinite(v)) { pen = "M"; continue; }
        d += pen + px(time[i]).toFixed(1) + " " + py(v).toFixed(1);
        pen = "L";
      }
      sv("path", { d: d, class: "curve", stroke: c.color }, area);
    }
  }
  for (const c of curves) {
    const item = el("span", { title: "click to hide or show" }, legend);
    el("i", { style: "background:" + c.color }, item);
    item.appendChild(document.createTextNode(c.name));
    item.onclick = () => { c.on = !c.on; item.classList.toggle("off", !c.on); draw(); };
  }
  draw();

  // Hover: the values at the nearest recorded time.
  function hide() { cursor.setAttribute("visibility", "hidden"); dots.textContent = ""; tip.style.display = "none"; }
  svg.addEventListener("mouseleave", hide);
  svg.addEventListener("mousemove", ev => {
    const box = svg.getBoundingClientRect(), x = (ev.clientX - box.left) * W / box.width;
    if (x < L || x > W - R || !time.length) return hide();
    const t = t0 + (x - L) / (W - L - R) * (t1 - t0);
    let i = search(time, t);
    if (i + 1 < time.length && Math.abs(time[i + 1] - t) < Math.abs(t - time[i])) ++i;
    const cx = px(time[i]);
    cursor.setAttribute("x1", cx); cursor.setAttribute("x2", cx); cursor.setAttribute("visibility", "visible");
    dots.textContent = ""; tip.textContent = "";
    el("div", { style: "font-weight:600" }, tip, "t = " + fmt(time[i], 6) + " s");
    for (const c of curves) {
      if (!c.on) continue;
      const v = c.values[i];
      if (v !== null && isFinite(v)) sv("circle", { cx: cx, cy: py(v), r: 3, fill: c.color }, dots);
      const row = el("div", {}, tip);
      el("i", { style: "background:" + c.color }, row);
      row.appendChild(document.createTextNode(c.name + " = " + fmt(v, 6) + (unit ? " " + unitLabel(unit) : "")));
    }
    tip.style.display = "block";
    const frame = card.getBoundingClientRect(), left = ev.clientX - frame.left;
    tip.style.left = (left > card.clientWidth / 2 ? left - tip.offsetWidth - 14 : left + 14) + "px";
    tip.style.top = (ev.clientY - frame.top + 12) + "px";
  });
  timeMarkers.push(t => {
    now.setAttribute("x1", px(t)); now.setAttribute("x2", px(t));
    now.setAttribute("visibility", t > t0 ? "visible" : "hidden");
  });
}

function buildPlots() {
  if (!D.plots.length) return;
  const card = el("section", { class: "card", id: "plots" }, document.getElementById("main"));
  el("h2", {}, card, "Recorded variables");
  const grid = el("div", { class: "plots" }, card);
  for (const p of D.plots) buildPlot(grid, p);
}

// ---------------------------------------------------------------- animation
// The sketches (Component::sketch) in one SVG scene: shapes in their frames, placed at
// every frame by the recorded poses, interpolated between rows while playing.
function buildAnimation() {
  const A = D.animation;
  if (!A || !A.time.length) return;
  const card = el("section", { class: "card", id: "animation" }, document.getElementById("main"));
  el("h2", {}, card, "Animation");
  const wrap = el("div", { class: "anim" }, card);
  const times = A.time, n = times.length, span = times[n - 1] - times[0];

  // Pose (x, y, theta) of a framed sketch at row i, blended with row i + 1 by w.
  function pose(s, i, w) {
    const j = Math.min(i + 1, n - 1), at = name => A.values[name][i] * (1 - w) + A.values[name][j] * w;
    return [at(s.frame.x), at(s.frame.y), at(s.frame.theta)];
  }
  function place(p, q) {
    const c = Math.cos(q[2]), s = Math.sin(q[2]);
    return [q[0] + c * p[0] - s * p[1], q[1] + s * p[0] + c * p[1]];
  }
  function extremePoints(s) {
    const list = [].concat(s.polygon || [], s.polyline || [], Object.values(s.points || {}),
                           Object.values(s.anchors || {}), s.frame ? [[0, 0]] : []);
    for (const c of s.circles || []) list.push([c.center[0] - c.r, c.center[1] - c.r], [c.center[0] + c.r, c.center[1] + c.r]);
    return list;
  }

  // The view: every drawing over the whole motion, equal scales on both axes, in the
  // card's pixels (so that pins, lines and text keep their size), y up.
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  const grow = p => { x0 = Math.min(x0, p[0]); x1 = Math.max(x1, p[0]); y0 = Math.min(y0, p[1]); y1 = Math.max(y1, p[1]); };
  for (const s of A.sketches) {
    const list = extremePoints(s);
    if (!s.frame) list.forEach(grow);
    else for (let i = 0; i < n; ++i) { const q = pose(s, i, 0); list.forEach(p => grow(place(p, q))); }
  }
  if (!isFinite(x0)) { x0 = y0 = -1; x1 = y1 = 1; }
  let bw = x1 - x0, bh = y1 - y0;
  if (bw <= 0 && bh <= 0) { bw = bh = 1; x0 -= 0.5; y0 -= 0.5; }
  const W = Math.round(Math.max(600, wrap.clientWidth || 960)), pad = 36, foot = 20;  // foot: the scale bar
  const H = Math.round(Math.min(480, Math.max(280, (W - 2 * pad) * (bh / (bw || bh)) + 2 * pad + foot)));
  const scale = Math.min(bw > 0 ? (W - 2 * pad) / bw : Infinity, bh > 0 ? (H - 2 * pad - foot) / bh : Infinity);
  const cx = W / 2 - scale * (x0 + x1) / 2, cy = (H - foot) / 2 + scale * (y0 + y1) / 2;
  const toPx = p => [cx + scale * p[0], cy - scale * p[1]];
  const pointList = list => list.map(p => toPx(p).map(v => v.toFixed(1)).join(",")).join(" ");

  const svg = sv("svg", { id: "scene", viewBox: "0 0 " + W + " " + H }, wrap);
  const defs = sv("defs", {}, svg);
  const hatch = sv("pattern", { id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse",
                                patternTransform: "rotate(45)" }, defs);
  sv("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#6b7280", "stroke-width": 1.4 }, hatch);
  // A scale bar of a round length, lower left.
  const raw = 120 / scale, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const length = (raw / mag < 2 ? 1 : raw / mag < 5 ? 2 : 5) * mag;
  const bar = sv("g", { class: "scalebar" }, svg);
  sv("line", { x1: 16, x2: 16 + length * scale, y1: H - 14, y2: H - 14 }, bar);
  sv("text", { x: 16, y: H - 20 }, bar, fmt(length) + " m");

  const layer = {};
  for (const name of ["fixed", "trails", "bodies", "pins", "names"]) layer[name] = sv("g", {}, svg);
  const updaters = [];
  let bodies = 0;
  for (const s of A.sketches) {
    const moving = !!s.frame;
    const color = moving ? BODY_COLORS[bodies++ % BODY_COLORS.length] : "#6b7280";
    const into = moving ? layer.bodies : layer.fixed;
    const parts = [];  // each: an element, its points in the sketch's frame, and how to set them
    if (s.polygon) parts.push({ e: sv("polygon", { class: "outline", fill: color, stroke: color }, into), at: s.polygon });
    if (s.polyline) parts.push({ e: sv("polyline", { class: "bar", stroke: color }, into), at: s.polyline });
    let nameOffset = 9;
    for (const c of s.circles || []) {
      const r = Math.max(4, c.r * scale);
      parts.push({ e: sv("circle", { class: "disc", r: r, fill: color }, into), at: [c.center], center: true });
      nameOffset = Math.max(nameOffset, r + 4);
    }
    for (const name in s.points || {}) {
      const pin = sv("circle", { class: "pin", r: 4.5 }, layer.pins);
      sv("title", {}, pin, s.component + "." + name);
      parts.push({ e: pin, at: [s.points[name]], center: true });
    }
    for (const name in s.anchors || {}) {  // a ground symbol under a pin
      const p = toPx(s.anchors[name]).map(v => v.toFixed(1));
      const g = sv("g", { class: "anchor", transform: "translate(" + p[0] + "," + p[1] + ")" }, layer.fixed);
      sv("rect", { x: -13, y: 12, width: 26, height: 7, fill: "url(#hatch)" }, g);
      sv("line", { x1: -13, x2: 13, y1: 12, y2: 12 }, g);
      sv("path", { d: "M0 0 L-8 12 L8 12 Z" }, g);
      sv("title", {}, sv("circle", { class: "pin", r: 4.5, cx: p[0], cy: p[1] }, layer.pins), s.component + "." + name);
    }
    const label = s.label ? sv("text", { class: "name", fill: moving ? color : "#374151" }, layer.names, s.label) : null;
    const set = q => {  // q: the frame's pose, or null for a world-fixed sketch
      for (const part of parts) {
        const world = q ? part.at.map(p => place(p, q)) : part.at;
        if (!part.center) { part.e.setAttribute("points", pointList(world)); continue; }
        const c = toPx(world[0]);
        part.e.setAttribute("cx", c[0].toFixed(1));
        part.e.setAttribute("cy", c[1].toFixed(1));
      }
      if (label) {
        const o = toPx(q ? q : [0, 0]);
        label.setAttribute("x", (o[0] + nameOffset).toFixed(1));
        label.setAttribute("y", (o[1] - nameOffset).toFixed(1));
      }
    };
    if (!moving) { set(null); continue; }
    const trail = [];  // the frame origin's path over the whole run
    for (let i = 0; i < n; ++i) trail.push(pose(s, i, 0));
    sv("polyline", { class: "trail", stroke: color, points: pointList(trail) }, layer.trails);
    updaters.push((i, w) => set(pose(s, i, w)));
  }

  // Controls: play/pause, time slider, readout, speed (slower ones for short runs), trails.
  const controls = el("div", { class: "controls" }, wrap);
  const play = el("button", { type: "button", id: "play" }, controls, "▶ Play");
  const slider = el("input", { type: "range", min: 0, max: 1000, step: 1, value: 0, id: "time-slider" }, controls);
  const readout = el("span", { class: "time" }, controls);
  el("label", { for: "speed" }, controls, "speed");
  const speed = el("select", { id: "speed" }, controls);
  const factors = [0.001, 0.01, 0.1, 0.25, 1, 4].filter(f => f >= 0.25 || span / f <= 120);
  const initial = span > 0 && span < 2 ? (factors.filter(f => span / f >= 3).pop() || factors[0]) : 1;
  for (const f of factors) el("option", f === initial ? { value: f, selected: "" } : { value: f }, speed, f + "×");
  const trailsLabel = el("label", {}, controls);
  const trails = el("input", { type: "checkbox", checked: "" }, trailsLabel);
  trailsLabel.appendChild(document.createTextNode(" paths"));
  trails.onchange = () => layer.trails.setAttribute("visibility", trails.checked ? "visible" : "hidden");

  const decimals = Math.max(3, Math.ceil(-Math.log10(span || 1)) + 3);
  let t = times[0], playing = false, last = null;
  function show(time) {
    t = Math.min(Math.max(time, times[0]), times[n - 1]);
    const i = search(times, t), j = Math.min(i + 1, n - 1), dt = times[j] - times[i];
    const w = dt > 0 ? (t - times[i]) / dt : 0;
    for (const u of updaters) u(i, w);
    slider.value = span > 0 ? Math.round((t - times[0]) / span * 1000) : 0;
    readout.textContent = "t = " + t.toFixed(decimals) + " s / " + fmt(times[n - 1]) + " s";
    for (const m of timeMarkers) m(t);
  }
  function frame(clock) {
    if (!playing) return;
    if (last !== null) t += (clock - last) / 1000 * Number(speed.value);
    last = clock;
    if (t >= times[n - 1]) { show(times[n - 1]); stop(); return; }
    show(t);
    requestAnimationFrame(frame);
  }
  function start() {
    if (t >= times[n - 1]) t = times[0];
    playing = true; last = null; play.textContent = "❚❚ Pause";
    requestAnimationFrame(frame);
  }
  function stop() { playing = false; play.textContent = "▶ Play"; }
  play.onclick = () => (playing ? stop() : start());
  slider.oninput = () => { stop(); show(times[0] + slider.value / 1000 * span); };
  document.addEventListener("keydown", ev => {
    if (ev.code === "Space" && ev.target === document.body) { ev.preventDefault(); playing ? stop() : start(); }
  });
  show(times[0]);
  return () => {  // after the plots exist: report.html#t=1.5 shows 1.5 s, #autoplay plays
    const at = /^#t=([-+0-9.eE]+)$/.exec(location.hash);
    if (at) show(Number(at[1]));
    if (location.hash === "#autoplay") start();
  };
}

// ---------------------------------------------------------------- tables
function table(parent, head, rows, numeric) {
  const t = el("table", {}, parent), tr = el("tr", {}, el("thead", {}, t)), body = el("tbody", {}, t);
  head.forEach(h => el("th", {}, tr, h));
  for (const r of rows) {
    const row = el("tr", {}, body);
    r.forEach((c, k) => el("td", numeric[k] ? { class: "num" } : {}, row, c));
  }
}
const number = v => (typeof v !== "number" ? String(v) : Number.isInteger(v) ? fmtInt(v) : fmt(v, 6));

function buildDetails() {
  const grid = el("div", { class: "details" }, document.getElementById("main"));
  const card = title => { const c = el("section", { class: "card" }, grid); el("h2", {}, c, title); return c; };
  table(card("Solver settings"), ["setting", "value"], Object.keys(S.solver).map(k => [k, number(S.solver[k])]),
        [false, true]);
  const stats = Object.keys(S.statistics).map(k => [k, number(S.statistics[k])]);
  stats.push(["wall_time", fmtSeconds(S.wall_time_s)], ["rows", fmtInt(D.rows)]);
  if (S.schedule) stats.push(["schedule_steps", fmtInt(S.schedule.steps)], ["algebraic_loops", fmtInt(S.schedule.algebraic_loops)]);
  table(card("Statistics"), ["statistic", "value"], stats, [false, true]);
  if (S.monitors) {
    const rows = Object.keys(S.monitors).map(k => [k, fmt(S.monitors[k].max_abs, 4) + " " + S.monitors[k].unit]);
    table(card("Monitors"), ["monitor", "max |value|"], rows, [false, true]);
  }
  const events = card("Events (" + fmtInt(D.event_count) + ")");
  if (!S.events.length) el("p", { class: "muted" }, events, "No events.");
  else {
    const rows = S.events.map(e => [fmt(e.time, 8), e.component, e.description]);
    table(el("div", { class: "scroll" }, events), ["time [s]", "component", "event"], rows, [true, false, false]);
    if (D.event_count > S.events.length)
      el("p", { class: "muted" }, events, "… and " + fmtInt(D.event_count - S.events.length) + " more in summary.json");
  }
  const units = {};
  for (const v of S.variables || []) units[v.name] = v.unit;
  const rows = Object.keys(S.final_values).map(k => [k, fmt(S.final_values[k], 7), k in units ? unitLabel(units[k]) : ""]);
  const values = card(S.status === "finished" ? "Final values" : "Last recorded values");
  table(el("div", { class: "scroll" }, values), ["variable", "value", "unit"], rows, [false, true, false]);
}

try {
  buildHeader();
  const afterPlots = buildAnimation();
  buildPlots();
  buildDetails();
  if (afterPlots) afterPlots();
  document.body.setAttribute("data-report-ready", "1");
} catch (e) {
  reportError(String((e && e.stack) || e));
}
)page";

}  // namespace

}  // namespace jourdain
