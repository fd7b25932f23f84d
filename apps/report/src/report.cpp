// The report's data (report.hpp): rows taken in as the run records them, thinned into
// bounded buckets and frames, a linear analysis and its modes' frames as they are handed
// over, then one JSON object that the page's script (apps/page/report.js, over the page toolkit)
// builds everything from.
#include "jourdain/report/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "jourdain/page/page.hpp"
#include "jourdain/units.hpp"

namespace jourdain::report {

namespace {

using nlohmann::json;

// Fewer digits than results.csv: a page, not a data file (time keeps more).
double rounded(double v, int digits) {
  if (!std::isfinite(v) || v == 0.0) return v;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return std::strtod(buf, nullptr);
}
double rounded_time(double t) { return rounded(t, 10); }
double rounded_value(double v) { return rounded(v, 7); }
double rounded_pose(double v) { return rounded(v, 9); }

constexpr size_t kCurvesPerPlot = 6;

// The variables that place a framed sketch (x, y, theta), or none: for a drawing fixed in
// the world, or one whose frame does not name three recordable variables.
std::vector<const RecordableVariable*> frame_of(const Model& model, const json& sketch) {
  if (!sketch.is_object() || !sketch.contains("frame")) return {};
  const json& f = sketch["frame"];
  std::vector<const RecordableVariable*> out;
  for (const char* key : {"x", "y", "theta"}) {
    if (!f.is_object() || !f.contains(key) || !f[key].is_string()) return {};
    try {
      out.push_back(&model.recordable(f[key].get<std::string>()));
    } catch (const InputError&) {
      return {};
    }
  }
  return out;
}

// A sketch's links (Component::sketch) with each end resolved to the recordable
// variables that place it: the outputs named by the link's "position" of the port that
// the end's port is connected to ("boom.rod_eye.x", "boom.rod_eye.y"). Links whose
// ends cannot be placed (a port left unconnected, a misnamed one) are left out.
json resolve_links(const Model& model, int component, const json& links) {
  json out = json::array();
  if (!links.is_array()) return out;
  const Component& c = *model.components()[component];
  const auto end = [&](const json& port_name, const json& position) -> json {
    if (!port_name.is_string() || !position.is_array() || position.size() != 2) return nullptr;
    const PortId port = c.find_port(port_name.get<std::string>());
    if (!port.valid()) return nullptr;
    for (const auto& [peer, peer_port] : model.peers(component, port.index)) {
      const std::string at = model.components()[peer]->name() + "." + model.components()[peer]->ports()[peer_port].name + ".";
      json placed = json::object();
      for (size_t k = 0; k < 2; ++k) {
        if (!position[k].is_string()) return nullptr;
        const std::string name = at + position[k].get<std::string>();
        try {
          placed[k == 0 ? "x" : "y"] = model.recordable(name).name;
        } catch (const InputError&) {
          placed = nullptr;
          break;
        }
      }
      if (!placed.is_null()) return placed;
    }
    return nullptr;
  };
  for (const json& link : links) {
    if (!link.is_object()) continue;
    const json position = link.value("position", json::array({"x", "y"}));
    json from = end(link.value("from", json()), position), to = end(link.value("to", json()), position);
    if (from.is_null() || to.is_null()) continue;
    json drawn = link;
    drawn.erase("position");
    drawn["from"] = std::move(from);
    drawn["to"] = std::move(to);
    if (!drawn.contains("kind") || !drawn["kind"].is_string()) drawn["kind"] = "line";
    out.push_back(std::move(drawn));
  }
  return out;
}

// A unit the page can show an axis in: SI = scale * shown + offset (units.hpp).
// A variable's own unit that the parser does not know (a plugin's) is shown as it is.
json unit_choice(const std::string& unit) {
  Unit u;
  try {
    u = parse_unit(unit);
  } catch (const UnitError&) {
    u = Unit{};
  }
  return {{"name", unit}, {"scale", u.scale}, {"offset", u.offset}};
}

// The plotted variables grouped into plots: variables share a plot (one axis) when they
// are the same quantity shown in the same unit. The quantity is what the component
// declared the variable to be when its unit does not say (a relief valve's opening is an
// overpressure, an orifice's drop a pressure difference: not pressures, though in Pa),
// else the quantity of its SI unit (units.hpp: "Pa" is a pressure), else the unit
// itself. Monitors apart; at most kCurvesPerPlot curves a plot. Each plot lists indices
// into `variables`, its quantity ("axis"), the unit it is shown in ("display") and the
// units the page offers for it ("units", each with its scale and offset).
json plot_groups(const json& variables, const std::vector<bool>& monitor) {
  std::vector<std::string> keys;
  std::map<std::string, std::vector<int>> members;
  for (size_t k = 0; k < variables.size(); ++k) {
    const json& v = variables[k];
    const std::string key = monitor[k] ? "monitor:" + v["unit"].get<std::string>()
                                       : "axis:" + v["axis"].get<std::string>() + "|" + v["unit"].get<std::string>() +
                                             "|" + v["display"].get<std::string>();
    if (!members.count(key)) keys.push_back(key);
    members[key].push_back(static_cast<int>(k));
  }
  json plots = json::array();
  for (const auto& key : keys) {
    const auto& m = members[key];
    const json& first = variables[m[0]];
    const bool is_monitor = key.rfind("monitor:", 0) == 0;
    // The units offered: the quantity's everyday ones, the SI unit, the one shown.
    const std::string si = first["unit"], display = is_monitor ? si : first["display"].get<std::string>();
    std::vector<std::string> offered;
    if (!is_monitor)
      if (const Quantity* q = quantity_of_unit(si)) offered = q->everyday_units;
    for (const std::string& u : {si, display})
      if (std::find(offered.begin(), offered.end(), u) == offered.end()) offered.push_back(u);
    json units = json::array();
    for (const auto& u : offered) units.push_back(unit_choice(u));
    // Seven curves make plots of four and three, not six and one.
    const size_t count = (m.size() + kCurvesPerPlot - 1) / kCurvesPerPlot;
    for (size_t c = 0; c < count; ++c) {
      json p = {{"unit", si}, {"axis", first["axis"]}, {"display", display}, {"units", units},
                {"monitor", is_monitor}, {"variables", json::array()}, {"part", c + 1}, {"parts", count}};
      for (size_t k = c * m.size() / count; k < (c + 1) * m.size() / count; ++k) p["variables"].push_back(m[k]);
      plots.push_back(p);
    }
  }
  return plots;
}

}  // namespace

std::vector<std::string> sketch_variables(const Model& model) {
  std::vector<std::string> out;
  const auto add = [&](const std::string& name) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  };
  for (size_t i = 0; i < model.components().size(); ++i) {
    const json s = model.components()[i]->sketch();
    for (const auto* v : frame_of(model, s)) add(v->name);
    if (s.is_object() && s.contains("links"))
      for (const json& link : resolve_links(model, static_cast<int>(i), s["links"]))
        for (const char* end : {"from", "to"})
          for (const char* xy : {"x", "y"}) add(link[end][xy].get<std::string>());
  }
  return out;
}

Report::Report(const Model& model, const std::vector<std::string>& plotted, ReportSettings settings,
               std::map<std::string, std::string> display_units)
    : model_(model), settings_(settings), display_units_(std::move(display_units)) {
  // Merging pairs of buckets must shrink their count: the runs of ordinary buckets
  // between pinned ones (at most pinned_rows + 1) must be fewer than plot_points / 2.
  if (settings_.plot_points < 8 || settings_.animation_frames < 2 || settings_.pinned_rows < 0 ||
      settings_.pinned_rows + 2 >= settings_.plot_points / 2)
    throw InputError({}, "report settings: need plot_points >= 8, animation_frames >= 2 and "
                         "0 <= pinned_rows < plot_points / 2 - 2");
  for (const auto& name : plotted) {
    const RecordableVariable* v = &model.recordable(name);
    if (std::find(plotted_.begin(), plotted_.end(), v) != plotted_.end()) continue;
    plotted_.push_back(v);
    monitor_.push_back(v->source == RecordableVariable::Source::Monitor);
  }

  // The sketches, and the variables that move the framed ones: read from every row's
  // context, whatever results.csv records.
  bool moving = false;
  sketches_ = json::array();
  const auto add_pose = [&](const RecordableVariable* v) {
    if (std::find(pose_.begin(), pose_.end(), v) == pose_.end()) pose_.push_back(v);
  };
  for (size_t i = 0; i < model.components().size(); ++i) {
    const auto& c = model.components()[i];
    json s = c->sketch();
    if (!s.is_object()) continue;
    const auto frame = frame_of(model, s);
    if (s.contains("frame")) {
      if (frame.empty()) continue;  // a frame the page could not place
      for (const auto* v : frame) add_pose(v);
      moving = true;
    }
    if (s.contains("links")) {
      s["links"] = resolve_links(model, static_cast<int>(i), s["links"]);
      for (const json& link : s["links"])
        for (const char* end : {"from", "to"})
          for (const char* xy : {"x", "y"}) add_pose(&model.recordable(link[end][xy].get<std::string>()));
      if (s["links"].empty()) s.erase("links");
      else moving = true;
      if (s.size() == 0) continue;  // nothing left to draw
    }
    s["component"] = c->name();
    s["type"] = c->type_name();
    sketches_.push_back(std::move(s));
  }
  if (!moving) {  // nothing moves: no animation (a still drawing tells nothing a plot does not)
    pose_.clear();
    sketches_ = nullptr;
  }
}

void Report::row_recorded(const Context& ctx, const std::vector<double>& /*row*/) {
  // An event adds a row just before and one just after the discrete change, at the same
  // time: a row at the previous row's time marks both as an event's. Hence one row of
  // delay: the pending row is committed when the next one shows what it was.
  bool event = false;
  if (pending_.index >= 0) {
    if (ctx.t == pending_.t) pending_.event = event = true;
    commit(pending_);
  }
  pending_.index = rows_++;
  pending_.t = ctx.t;
  pending_.event = event;
  pending_.plotted.resize(plotted_.size());
  for (size_t k = 0; k < plotted_.size(); ++k) pending_.plotted[k] = model_.value(ctx, *plotted_[k]);
  pending_.pose.resize(pose_.size());
  for (size_t k = 0; k < pose_.size(); ++k) pending_.pose[k] = model_.value(ctx, *pose_[k]);
}

void Report::commit(const Row& row) {
  // The first row and the events' rows are kept exactly while the budget lasts.
  const bool pinned = (row.index == 0 || row.event) && pinned_ < settings_.pinned_rows;
  if (pinned) ++pinned_;
  add_to_buckets(row, pinned);
  if (!pose_.empty()) add_frame(row, pinned);
}

void Report::add_to_buckets(const Row& row, bool pinned) {
  if (!pinned && !buckets_.empty() && !buckets_.back().pinned && buckets_.back().rows < bucket_rows_) {
    Bucket& b = buckets_.back();
    b.t_last = row.t;
    ++b.rows;
    for (size_t k = 0; k < plotted_.size(); ++k) {
      const double v = row.plotted[k];
      Extremes& e = b.values[k];
      if (v < e.lo || std::isnan(e.lo)) e.lo = v, e.at_lo = row.index;
      if (v > e.hi || std::isnan(e.hi)) e.hi = v, e.at_hi = row.index;
    }
    return;
  }
  Bucket b{row.t, row.t, 1, pinned, {}};
  b.values.reserve(plotted_.size());
  for (double v : row.plotted) b.values.push_back({v, v, row.index, row.index});
  buckets_.push_back(std::move(b));
  if (pinned) return;
  ++ordinary_buckets_;
  merge_buckets();
}

void Report::merge_buckets() {
  // Points the ordinary buckets give: one while each holds one row, then two each.
  const auto points = [&] { return ordinary_buckets_ * (bucket_rows_ > 1 ? 2 : 1); };
  while (points() > settings_.plot_points) {
    // Neighbouring ordinary buckets merge pairwise (never across a pinned one), and each
    // bucket takes twice as many rows from now on.
    std::vector<Bucket> merged;
    merged.reserve(buckets_.size());
    long ordinary = 0;
    for (size_t i = 0; i < buckets_.size(); ++i) {
      Bucket& a = buckets_[i];
      if (!a.pinned) ++ordinary;
      if (a.pinned || i + 1 == buckets_.size() || buckets_[i + 1].pinned) {
        merged.push_back(std::move(a));
        continue;
      }
      const Bucket& b = buckets_[++i];
      a.t_last = b.t_last;
      a.rows += b.rows;
      for (size_t k = 0; k < a.values.size(); ++k) {
        Extremes& e = a.values[k];
        const Extremes& f = b.values[k];
        if (f.lo < e.lo || std::isnan(e.lo)) e.lo = f.lo, e.at_lo = f.at_lo;
        if (f.hi > e.hi || std::isnan(e.hi)) e.hi = f.hi, e.at_hi = f.at_hi;
      }
      merged.push_back(std::move(a));
    }
    buckets_ = std::move(merged);
    bucket_rows_ *= 2;
    if (ordinary == ordinary_buckets_) break;  // nothing to merge (cannot happen with valid settings)
    ordinary_buckets_ = ordinary;
  }
}

void Report::add_frame(const Row& row, bool pinned) {
  if (!pinned && row.index % frame_stride_ != 0) return;
  frames_.push_back({row.index, pinned, row.t, row.pose});
  if (pinned) return;
  ++ordinary_frames_;
  while (ordinary_frames_ > settings_.animation_frames) {
    // Every other ordinary frame goes: those left are the rows at multiples of the stride.
    frame_stride_ *= 2;
    std::erase_if(frames_, [&](const Frame& f) { return !f.pinned && f.index % frame_stride_ != 0; });
    ordinary_frames_ = std::count_if(frames_.begin(), frames_.end(), [](const Frame& f) { return !f.pinned; });
  }
}

void Report::set_linear(nlohmann::json linear) {
  if (!linear.is_object()) throw InputError({}, "report: the linear analysis must be a JSON object (linear.json's)");
  if (linear.contains("modes") && !linear["modes"].is_array())
    throw InputError({}, "report: the linear analysis' \"modes\" must be an array");
  linear_ = std::move(linear);
}

void Report::mode_frame(int mode, const Context& ctx) {
  // ctx holds x = x_op + a·Re(v·e^{jφ}) at one phase φ of the mode (v its shape, a an
  // amplitude the caller chose): the poses are read from it as from a row's context.
  const bool known = linear_.is_object() && linear_.contains("modes");
  if (mode < 0 || (known && static_cast<size_t>(mode) >= linear_["modes"].size()))
    throw InputError({}, "report: mode " + std::to_string(mode) + " is not one of the linear analysis' " +
                             (known ? std::to_string(linear_["modes"].size()) + " modes" : "modes"));
  if (pose_.empty()) return;  // nothing moves: no animation to show the mode in
  if (mode_frames_.size() <= static_cast<size_t>(mode)) mode_frames_.resize(static_cast<size_t>(mode) + 1);
  auto& frames = mode_frames_[static_cast<size_t>(mode)];
  if (static_cast<long>(frames.size()) >= settings_.animation_frames) return;  // bounded, as the rows' frames
  std::vector<double> pose(pose_.size());
  for (size_t k = 0; k < pose_.size(); ++k) pose[k] = model_.value(ctx, *pose_[k]);
  frames.push_back(std::move(pose));
}

nlohmann::json Report::data(const ReportHeading& heading, const nlohmann::json& summary) const {
  // Each variable with its quantity (the key of "display" units, from its SI unit), what
  // it is (its axis: the declared quantity, else that one) and the unit it is shown in
  // (its own display unit, else its quantity's, else SI).
  json variables = json::array();
  for (const auto* v : plotted_) {
    const Quantity* q = quantity_of_unit(v->unit);
    const std::string quantity = q ? q->name : "";
    std::string display = v->unit;
    if (auto it = display_units_.find(v->name); it != display_units_.end()) display = it->second;
    else if (auto iq = display_units_.find(quantity); !quantity.empty() && iq != display_units_.end())
      display = iq->second;
    variables.push_back({{"name", v->name},
                         {"unit", v->unit},
                         {"quantity", quantity},
                         {"axis", v->quantity.empty() ? quantity : v->quantity},
                         {"display", display}});
  }

  // Plots: a point per pinned or one-row bucket, two per other bucket at its first and
  // last time (the extremes in the order they came; for a monitor, the largest twice),
  // then the last row as it is.
  json time = json::array();
  std::vector<json> values(plotted_.size(), json::array());
  bool thinned = false;
  for (const Bucket& b : buckets_) {
    time.push_back(rounded_time(b.t_first));
    if (b.rows > 1) time.push_back(rounded_time(b.t_last));
    thinned = thinned || b.rows > 1;
    for (size_t k = 0; k < plotted_.size(); ++k) {
      const Extremes& e = b.values[k];
      const double first = monitor_[k] ? e.hi : e.at_lo <= e.at_hi ? e.lo : e.hi;
      const double second = monitor_[k] ? e.hi : e.at_lo <= e.at_hi ? e.hi : e.lo;
      values[k].push_back(rounded_value(first));
      if (b.rows > 1) values[k].push_back(rounded_value(second));
    }
  }
  if (pending_.index >= 0) {
    time.push_back(rounded_time(pending_.t));
    for (size_t k = 0; k < plotted_.size(); ++k) values[k].push_back(rounded_value(pending_.plotted[k]));
  }
  json series = {{"time", std::move(time)}, {"values", json::array()}};
  for (auto& v : values) series["values"].push_back(std::move(v));

  // Animation: the kept frames, then the last row.
  json animation = nullptr;
  if (!pose_.empty() && pending_.index >= 0) {
    json anim_time = json::array();
    std::vector<json> poses(pose_.size(), json::array());
    const auto add = [&](double t, const std::vector<double>& pose) {
      anim_time.push_back(rounded_time(t));
      for (size_t k = 0; k < pose_.size(); ++k) poses[k].push_back(rounded_pose(pose[k]));
    };
    for (const Frame& f : frames_) add(f.t, f.pose);
    add(pending_.t, pending_.pose);
    animation = {{"time", std::move(anim_time)}, {"values", json::object()}, {"sketches", sketches_}};
    for (size_t k = 0; k < pose_.size(); ++k) animation["values"][pose_[k]->name] = std::move(poses[k]);
  }

  // The modes' animations: the same sketches, placed by each mode's frames (one cycle, in
  // phase order; the page loops it).
  json mode_animation = nullptr;
  json modes = json::array();
  for (size_t m = 0; m < mode_frames_.size(); ++m) {
    const auto& frames = mode_frames_[m];
    if (frames.empty()) continue;
    json values = json::object();
    for (size_t k = 0; k < pose_.size(); ++k) {
      json column = json::array();
      for (const auto& f : frames) column.push_back(rounded_pose(f[k]));
      values[pose_[k]->name] = std::move(column);
    }
    modes.push_back({{"mode", m}, {"frames", frames.size()}, {"values", std::move(values)}});
  }
  if (!modes.empty()) mode_animation = {{"sketches", sketches_}, {"modes", std::move(modes)}};

  json shown = summary;
  const size_t event_count = shown.contains("events") && shown["events"].is_array() ? shown["events"].size() : 0;
  if (event_count > settings_.table_events) {
    json kept = json::array();
    for (size_t k = 0; k < settings_.table_events; ++k) kept.push_back(shown["events"][k]);
    shown["events"] = std::move(kept);
  }
  return {{"name", heading.name},
          {"description", heading.description},
          {"netlist", heading.netlist},
          {"schematic", heading.schematic},
          {"summary", std::move(shown)},
          {"event_count", event_count},
          {"rows", rows_},
          {"thinned", thinned},
          {"variables", variables},
          {"plots", plot_groups(variables, monitor_)},
          {"series", std::move(series)},
          {"animation", std::move(animation)},
          {"linear", linear_},
          {"mode_animation", std::move(mode_animation)}};
}

}  // namespace jourdain::report

namespace jourdain::report {

std::string render_page(const nlohmann::json& data) { return page::render(page::Kind::Report, data); }

void write_page(const std::filesystem::path& file, const nlohmann::json& data) {
  write_text_file(file.string(), render_page(data));  // OutputError naming the file
}

}  // namespace jourdain::report
