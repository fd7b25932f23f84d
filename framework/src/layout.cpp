// Checking a level's layout section (layout.hpp).
#include "layout.hpp"

#include <string>
#include <vector>

#include "jourdain/netlist.hpp"
#include "jourdain/suggest.hpp"

namespace jourdain {

using nlohmann::json;

namespace {

class LayoutCheck {
 public:
  LayoutCheck(const InputLocation& where, Diagnostics& diagnostics) : where_(where), diagnostics_(diagnostics) {}

  InputLocation at(const std::string& relative) const {
    InputLocation w = where_;
    w.json_path += relative;
    return w;
  }
  void warn(const std::string& relative, const std::string& message) const { diagnostics_.warn(at(relative), message); }

  // A coordinate: any finite number (canvas units, y downwards as on a screen).
  bool coordinate(const json& entry, const std::string& key, const std::string& path, bool required) const {
    if (!entry.contains(key)) {
      if (required) warn(path, "a layout entry needs \"" + key + "\" (a number); the entry is ignored");
      return !required;
    }
    if (!entry[key].is_number()) {
      warn(path + "/" + key, "expected a number");
      return false;
    }
    return true;
  }

  void canvas(const json& c) const {
    if (!c.is_object()) return warn("/canvas", "expected an object: {\"width\": 800, \"height\": 600, \"grid\": 10}");
    for (const char* key : {"width", "height", "grid"})
      if (c.contains(key) && !(c[key].is_number() && c[key].get<double>() > 0))
        warn(std::string("/canvas/") + key, "expected a positive number");
  }

  void components(const json& entries, const json& level_components) const {
    if (!entries.is_object()) return warn("/components", "expected an object: component name → {\"x\", \"y\", ...}");
    std::vector<std::string> names;
    for (const auto& [name, spec] : level_components.items()) names.push_back(name);
    for (const auto& [name, entry] : entries.items()) {
      const std::string path = json_check::pointer("/components", name);
      if (!level_components.contains(name)) {
        const std::string near = closest_name(name, names);
        warn(path, "the layout places '" + name + "', but this level has no component of that name" +
                       (near.empty() ? "" : "; did you mean '" + near + "'?") + " (the entry is ignored)");
        continue;
      }
      if (!entry.is_object()) {
        warn(path, "expected an object: {\"x\": 100, \"y\": 40, \"rotation\": 90, \"flip\": \"none\"}");
        continue;
      }
      coordinate(entry, "x", path, true);
      coordinate(entry, "y", path, true);
      if (entry.contains("rotation")) {
        const json& r = entry["rotation"];
        const bool quarter = r.is_number_integer() && r.get<long long>() % 90 == 0 && r.get<long long>() >= 0 &&
                             r.get<long long>() < 360;
        if (!quarter) warn(path + "/rotation", "expected 0, 90, 180 or 270 (degrees, clockwise)");
      }
      if (entry.contains("flip")) {
        const json& f = entry["flip"];
        if (!(f == "none" || f == "horizontal" || f == "vertical"))
          warn(path + "/flip", "expected \"none\", \"horizontal\" or \"vertical\"");
      }
    }
  }

  void wires(const json& list, const json& connections) const {
    if (!list.is_array()) return warn("/wires", "expected an array of {\"from\": \"a.p\", \"to\": \"b.q\", \"points\": [[x, y], ...]}");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = "/wires/" + std::to_string(i);
      const json& w = list[i];
      if (!w.is_object() || !w.contains("from") || !w.contains("to") || !w["from"].is_string() || !w["to"].is_string()) {
        warn(path, "expected {\"from\": \"comp.port\", \"to\": \"comp.port\", \"points\": [[x, y], ...]}");
        continue;
      }
      const json& a = w["from"];
      const json& b = w["to"];
      bool joined = false;
      for (const auto& c : connections)
        if (c.is_array() && c.size() == 2 && ((c[0] == a && c[1] == b) || (c[0] == b && c[1] == a))) joined = true;
      if (!joined)
        warn(path, "the layout draws a wire from '" + a.get<std::string>() + "' to '" + b.get<std::string>() +
                       "', but no connection of this level joins them (the wire is ignored)");
      if (w.contains("points")) {
        const json& points = w["points"];
        bool pairs = points.is_array();
        for (const auto& p : points) pairs = pairs && p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number();
        if (!pairs) warn(path + "/points", "expected an array of [x, y] pairs");
      }
    }
  }

  void notes(const json& list) const {
    if (!list.is_array()) return warn("/notes", "expected an array of {\"x\": 10, \"y\": 10, \"text\": \"...\"}");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = "/notes/" + std::to_string(i);
      const json& n = list[i];
      if (!n.is_object()) {
        warn(path, "expected {\"x\": 10, \"y\": 10, \"text\": \"...\"}");
        continue;
      }
      coordinate(n, "x", path, true);
      coordinate(n, "y", path, true);
      if (!n.contains("text") || !n["text"].is_string()) warn(path, "a note needs a \"text\" string");
    }
  }

 private:
  InputLocation where_;
  Diagnostics& diagnostics_;
};

}  // namespace

void check_layout(const json& layout, const InputLocation& where, const json& components, const json& connections,
                  Diagnostics& diagnostics) {
  const LayoutCheck check(where, diagnostics);
  if (!layout.is_object()) return check.warn("", "expected an object with \"components\", \"wires\", \"notes\" and \"canvas\"");
  if (layout.contains("canvas")) check.canvas(layout["canvas"]);
  if (layout.contains("components")) check.components(layout["components"], components);
  if (layout.contains("wires")) check.wires(layout["wires"], connections);
  if (layout.contains("notes")) check.notes(layout["notes"]);
}

}  // namespace jourdain
