// The report's data (report.hpp): rows taken in as the run records them, thinned into
// bounded buckets and frames, then one JSON object that the page's script
// (framework/report/page/report.js) builds everything from.
#include "jourdain/report/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

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

// The plotted variables grouped by unit, monitors apart, at most kCurvesPerPlot a plot.
// Each plot lists indices into `variables`.
json plot_groups(const json& variables, const std::vector<bool>& monitor) {
  std::vector<std::string> keys;
  std::map<std::string, std::vector<int>> members;
  for (size_t k = 0; k < variables.size(); ++k) {
    const std::string key = (monitor[k] ? "monitor:" : "unit:") + variables[k]["unit"].get<std::string>();
    if (!members.count(key)) keys.push_back(key);
    members[key].push_back(static_cast<int>(k));
  }
  json plots = json::array();
  for (const auto& key : keys) {
    const auto& m = members[key];
    const bool is_monitor = key.rfind("monitor:", 0) == 0;
    // Seven curves make plots of four and three, not six and one.
    const size_t count = (m.size() + kCurvesPerPlot - 1) / kCurvesPerPlot;
    for (size_t c = 0; c < count; ++c) {
      json p = {{"unit", variables[m[0]]["unit"]}, {"monitor", is_monitor}, {"variables", json::array()},
                {"part", c + 1}, {"parts", count}};
      for (size_t k = c * m.size() / count; k < (c + 1) * m.size() / count; ++k) p["variables"].push_back(m[k]);
      plots.push_back(p);
    }
  }
  return plots;
}

}  // namespace

std::vector<std::string> sketch_variables(const Model& model) {
  std::vector<std::string> out;
  for (const auto& c : model.components())
    for (const auto* v : frame_of(model, c->sketch()))
      if (std::find(out.begin(), out.end(), v->name) == out.end()) out.push_back(v->name);
  return out;
}

Report::Report(const Model& model, const std::vector<std::string>& plotted, ReportSettings settings)
    : model_(model), settings_(settings) {
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
  for (const auto& c : model.components()) {
    json s = c->sketch();
    if (!s.is_object()) continue;
    const auto frame = frame_of(model, s);
    if (s.contains("frame")) {
      if (frame.empty()) continue;  // a frame the page could not place
      for (const auto* v : frame)
        if (std::find(pose_.begin(), pose_.end(), v) == pose_.end()) pose_.push_back(v);
      moving = true;
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

nlohmann::json Report::data(const ReportHeading& heading, const nlohmann::json& summary) const {
  json variables = json::array();
  for (const auto* v : plotted_) variables.push_back({{"name", v->name}, {"unit", v->unit}});

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
          {"summary", std::move(shown)},
          {"event_count", event_count},
          {"rows", rows_},
          {"thinned", thinned},
          {"variables", variables},
          {"plots", plot_groups(variables, monitor_)},
          {"series", std::move(series)},
          {"animation", std::move(animation)}};
}

}  // namespace jourdain::report
