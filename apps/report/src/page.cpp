// The page (report.hpp): report.html's placeholders filled with the title, the style,
// the data and the script.
#include <array>
#include <fstream>
#include <string_view>

#include "jourdain/report/report.hpp"
#include "page.hpp"

namespace jourdain::report {

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

}  // namespace

std::string render_page(const nlohmann::json& data) {
  const std::string name = data.contains("name") && data["name"].is_string() && !data["name"].empty()
                               ? data["name"].get<std::string>()
                               : std::string("run");
  struct Fill {
    std::string_view placeholder;
    std::string text;
    bool used = false;
  };
  std::array<Fill, 4> fills{{{"{{title}}", html_escape(name + " · Jourdain report")},
                             {"{{style}}", std::string(page::css())},
                             {"{{data}}", script_safe_json(data)},
                             {"{{script}}", std::string(page::script())}}};
  // One pass over the template: what is filled in is never searched again, so a
  // placeholder's text inside the data (a netlist's description, say) stays as it is.
  const std::string_view tmpl = page::html();
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
      throw Error("report.html: unknown or repeated placeholder at byte " + std::to_string(open));
    out += fill->text;
    fill->used = true;
    at = open + fill->placeholder.size();
  }
  for (const auto& f : fills)
    if (!f.used) throw Error("report.html: no " + std::string(f.placeholder) + " placeholder");
  return out;
}

void write_page(const std::filesystem::path& file, const nlohmann::json& data) {
  write_text_file(file.string(), render_page(data));  // OutputError naming the file
}

}  // namespace jourdain::report
