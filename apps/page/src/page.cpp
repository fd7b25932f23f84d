// The page toolkit (jourdain/page/page.hpp): page.html's placeholders filled with the
// title, the style, the data and the script of a page's kind.
#include "jourdain/page/page.hpp"

#include <array>
#include <string_view>

#include "files.hpp"
#include "jourdain/errors.hpp"

namespace jourdain::page {

namespace {

std::string html_escape(std::string_view s) {
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

// The data as JSON that may sit inside <script>: "<" can only occur in JSON strings,
// where the escape \u003c reads back the same, and then no "</script>" or "<!--" can end
// or change the element early.
std::string script_safe_json(const nlohmann::json& data) {
  const std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string safe;
  safe.reserve(text.size());
  for (char c : text) {
    if (c == '<') safe += "\\u003c";
    else safe += c;
  }
  return safe;
}

// What makes a page of one kind: its title's words, what it is called when unnamed, and
// its own style and script, which come after the toolkit's.
// The schematic (apps/studio/web: schematic.css, schematic.js) draws the netlist in the
// report and in the studio; ELK (elk.js, 1.6 MB) lays out what the netlist does not place,
// so a report carries it only when some level has a component without a position.
struct KindFiles {
  std::string_view title_suffix, unnamed;
  std::string css, js;
};

bool needs_layout(const nlohmann::json& data) {
  const auto it = data.find("schematic");
  return it != data.end() && it->is_object() && it->value("needs_layout", false);
}

KindFiles files_of(Kind kind, const nlohmann::json& data) {
  const auto cat = [](std::initializer_list<std::string_view> parts) {
    std::string out;
    for (auto p : parts) out += p;
    return out;
  };
  switch (kind) {
    case Kind::Report:
      return {" · Jourdain report", "run", cat({files::schematic_css(), files::report_css()}),
              cat({needs_layout(data) ? files::elk_js() : std::string_view(), files::schematic_js(), files::report_js()})};
    case Kind::Sweep: return {" · Jourdain parameter study", "parameter study", std::string(files::sweep_css()), std::string(files::sweep_js())};
    case Kind::Study: return {" · Jourdain design study", "design study", std::string(files::study_css()), std::string(files::study_js())};
    case Kind::Studio:  // ELK comes apart, when a level needs it (layout_script)
      return {" · Jourdain Studio", "studio", cat({files::schematic_css(), files::studio_css()}),
              cat({files::schematic_js(), files::studio_js()})};
  }
  throw Error("page: unknown kind");
}

}  // namespace

std::string_view layout_script() { return files::elk_js(); }

std::string render(Kind kind, const nlohmann::json& data) {
  const KindFiles own = files_of(kind, data);
  const std::string name = data.contains("name") && data["name"].is_string() && !data["name"].empty()
                               ? data["name"].get<std::string>()
                               : std::string(own.unnamed);
  struct Fill {
    std::string_view placeholder;
    std::string text;
    bool used = false;
  };
  std::array<Fill, 4> fills{{{"{{title}}", html_escape(name + std::string(own.title_suffix))},
                             {"{{style}}", std::string(files::toolkit_css()) + own.css},
                             {"{{data}}", script_safe_json(data)},
                             {"{{script}}", std::string(files::toolkit_js()) + own.js}}};
  // One pass over the template: what is filled in is never searched again, so a
  // placeholder's text inside the data (a netlist's description, say) stays as it is.
  const std::string_view tmpl = files::html();
  std::string out;
  size_t at = 0;
  while (at < tmpl.size()) {
    const size_t open = tmpl.find("{{", at);
    out.append(tmpl.substr(at, open == std::string_view::npos ? std::string_view::npos : open - at));
    if (open == std::string_view::npos) break;
    Fill* fill = nullptr;
    for (auto& f : fills)
      if (tmpl.substr(open, f.placeholder.size()) == f.placeholder) fill = &f;
    if (!fill || fill->used)
      throw Error("page.html: unknown or repeated placeholder at byte " + std::to_string(open));
    out += fill->text;
    fill->used = true;
    at = open + fill->placeholder.size();
  }
  for (const auto& f : fills)
    if (!f.used) throw Error("page.html: no " + std::string(f.placeholder) + " placeholder");
  return out;
}

Kind kind_named(const std::string& name) {
  if (name == "report") return Kind::Report;
  if (name == "sweep") return Kind::Sweep;
  if (name == "study") return Kind::Study;
  if (name == "studio") return Kind::Studio;
  throw InputError({"", "", "", ""}, "no page of kind '" + name + "' (report, sweep, study, studio)");
}

}  // namespace jourdain::page
