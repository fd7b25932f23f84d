// The page's HTML (render_page): the page toolkit's template, style and script
// (apps/page: page.html, page.css, plot.js) with report.css and report.js, embedded
// byte for byte at build time, every placeholder of the
// template filled once, the data escaped so that nothing in it (a netlist's name or
// description) can end its <script> early or be taken for a placeholder, and the tags
// balanced, read the way a browser's tokenizer reads them (coarsely: comments and the
// doctype skipped, <script> and <style> as raw text, void elements closing themselves).
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "jourdain/page/page.hpp"
#include "jourdain/report/report.hpp"
#include "jourdain_test.hpp"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

struct Parsed {
  std::vector<std::string> problems;  // empty: well formed (for this check)
  std::vector<std::string> elements;  // start tags in order
  std::vector<std::pair<std::string, std::string>> raw;  // (script/style start tag, its text)
  std::string title;
};

Parsed parse_html(const std::string& html) {
  static const std::vector<std::string> kVoid = {"area", "base", "br", "col", "embed", "hr", "img",
                                                 "input", "link", "meta", "source", "track", "wbr"};
  Parsed p;
  std::vector<std::string> open;
  const std::string low = lower(html);
  size_t i = 0;
  while (i < html.size()) {
    const size_t lt = html.find('<', i);
    if (lt == std::string::npos) break;
    if (!open.empty() && open.back() == "title") p.title += html.substr(i, lt - i);
    if (html.compare(lt, 4, "<!--") == 0) {  // a comment
      const size_t end = html.find("-->", lt + 4);
      if (end == std::string::npos) {
        p.problems.push_back("unterminated comment");
        break;
      }
      i = end + 3;
      continue;
    }
    if (html.compare(lt, 2, "<!") == 0) {  // the doctype
      i = html.find('>', lt) + 1;
      continue;
    }
    const bool closing = html.compare(lt, 2, "</") == 0;
    size_t k = lt + (closing ? 2 : 1);
    const size_t name_begin = k;
    while (k < html.size() && (std::isalnum(static_cast<unsigned char>(html[k])) || html[k] == '-')) ++k;
    const std::string name = lower(html.substr(name_begin, k - name_begin));
    if (name.empty()) {
      p.problems.push_back("'<' in text at byte " + std::to_string(lt));
      i = lt + 1;
      continue;
    }
    // The end of the tag, past quoted attribute values.
    char quote = 0;
    for (; k < html.size(); ++k) {
      if (quote) {
        if (html[k] == quote) quote = 0;
      } else if (html[k] == '"' || html[k] == '\'') {
        quote = html[k];
      } else if (html[k] == '>') {
        break;
      }
    }
    if (k >= html.size()) {
      p.problems.push_back("unterminated tag <" + name);
      break;
    }
    const std::string tag = html.substr(lt, k + 1 - lt);
    i = k + 1;
    if (closing) {
      if (open.empty() || open.back() != name)
        p.problems.push_back("</" + name + "> closes " + (open.empty() ? std::string("nothing") : "<" + open.back() + ">"));
      else open.pop_back();
      continue;
    }
    p.elements.push_back(name);
    if (std::find(kVoid.begin(), kVoid.end(), name) != kVoid.end() || tag.ends_with("/>")) continue;
    if (name == "script" || name == "style") {  // raw text up to the first end tag
      const size_t end = low.find("</" + name, i);
      if (end == std::string::npos) {
        p.problems.push_back("unterminated <" + name + ">");
        break;
      }
      p.raw.emplace_back(tag, html.substr(i, end - i));
      i = end;
    }
    open.push_back(name);
  }
  for (const auto& name : open) p.problems.push_back("<" + name + "> not closed");
  return p;
}

std::string page_file(const std::string& name) {
  return jourdain::test::read_text(jourdain::test::source_dir() / "apps" / "page" / name);
}
// The schematic's and the studio's styles (apps/studio/web) and bundled scripts (build).
std::string web_file(const std::string& name) {
  return jourdain::test::read_text(jourdain::test::source_dir() / "apps" / "studio" / "web" / name);
}
std::string bundle(const std::string& name) {
  return jourdain::test::read_text(std::filesystem::path(JOURDAIN_WEB_BUNDLES) / name);
}

// A small run's data under a heading made to break a careless page.
const jourdain::report::ReportHeading kHeading{
    "<b>&\"quoted\"</b> {{title}}",
    "</script><script>alert(1)</script> <!-- {{script}} {{data}} --> </style> ü·–",
    "dir/{{style}}.json"};

json small_run_data() {
  auto net = jourdain::test::load(R"({
    "name": "msd",
    "components": {
      "wall": {"type": "mechanical1d.fixed"},
      "spring": {"type": "mechanical1d.spring", "params": {"stiffness": 100}},
      "mass": {"type": "mechanical1d.mass", "params": {"mass": 1}, "initial": {"x": 0.1}}
    },
    "connections": [["wall.p", "spring.a"], ["mass.p", "spring.b"]],
    "solver": {"method": "dopri5", "t_end": 1, "output_interval": 0.01},
    "record": ["mass.x", "spring.force"]
  })");
  jourdain::report::Report report(net.model, net.record);
  jourdain::RunOptions options;
  options.listeners.push_back(&report);
  const auto r = jourdain::run_netlist(net, options);
  REQUIRE(r.finished);
  return report.data(kHeading, r.summary);
}

}  // namespace

TEST_CASE("the toolkit's source files are fit to be inlined") {
  const std::string html = page_file("page.html");
  // Each placeholder once in the template, and nowhere else.
  for (const char* p : {"{{title}}", "{{style}}", "{{data}}", "{{script}}"}) {
    CAPTURE(p);
    const size_t at = html.find(p);
    REQUIRE(at != std::string::npos);
    CHECK(html.find(p, at + 1) == std::string::npos);
  }
  for (const char* name : {"page.css", "report.css", "sweep.css", "study.css"}) {
    CAPTURE(name);
    const std::string css = page_file(name);
    CHECK(css.find("{{") == std::string::npos);
    CHECK(lower(css).find("</style") == std::string::npos);  // inlined, it must not end its element early
  }
  for (const char* name : {"plot.js", "report.js", "sweep.js", "study.js"}) {
    CAPTURE(name);
    const std::string js = page_file(name);
    CHECK(js.find("{{") == std::string::npos);
    CHECK(lower(js).find("</script") == std::string::npos);
    CHECK(js.find("<!--") == std::string::npos);
  }
  for (const char* name : {"schematic.css", "studio.css"}) {
    CAPTURE(name);
    CHECK(lower(web_file(name)).find("</style") == std::string::npos);
  }
  for (const char* name : {"schematic.js", "studio.js", "elk.js"}) {
    CAPTURE(name);
    const std::string js = bundle(name);
    CHECK(js.size() > 1000);
    CHECK(lower(js).find("</script") == std::string::npos);
    CHECK(js.find("<!--") == std::string::npos);
  }
}

TEST_CASE("a report carries ELK only when its schematic has a component without a position") {
  const std::string elk = bundle("elk.js");
  const json placed = {{"name", "x"}, {"schematic", {{"needs_layout", false}}}};
  const json unplaced = {{"name", "x"}, {"schematic", {{"needs_layout", true}}}};
  const std::string with = jourdain::report::render_page(unplaced), without = jourdain::report::render_page(placed);
  CHECK(with.find(elk) != std::string::npos);
  CHECK(without.find(elk) == std::string::npos);
  // ELK comes before the renderer that uses it, which comes before the report's script.
  CHECK(with.find(elk) < with.find(bundle("schematic.js")));
  CHECK(with.find(bundle("schematic.js")) < with.find(page_file("report.js")));
  // The studio's page never carries it: the server hands it out apart, byte for byte the
  // bundle, for a level that needs it.
  CHECK(jourdain::page::render(jourdain::page::Kind::Studio, {{"name", "s"}}).find(elk) == std::string::npos);
  CHECK(jourdain::page::layout_script() == elk);
}

TEST_CASE("a rendered page: placeholders filled, tags balanced, the files embedded byte for byte, the data intact") {
  const json data = small_run_data();
  const std::string page = jourdain::report::render_page(data);
  const Parsed p = parse_html(page);
  std::string problems;
  for (const auto& s : p.problems) problems += s + "\n";
  CHECK_MESSAGE(p.problems.empty(), problems);

  // The skeleton the script builds into.
  for (const char* e : {"html", "head", "meta", "title", "style", "body", "header", "main", "footer", "script"})
    CHECK_MESSAGE(std::count(p.elements.begin(), p.elements.end(), e) >= 1, e);
  for (const char* e : {"html", "head", "title", "style", "body"})
    CHECK_MESSAGE(std::count(p.elements.begin(), p.elements.end(), e) == 1, e);
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);

  // Title: the name escaped, its placeholder-like text left as it is.
  CHECK(p.title == "&lt;b&gt;&amp;&quot;quoted&quot;&lt;/b&gt; {{title}} · Jourdain report");

  // The raw-text elements: the style, the data, the script, in that order.
  REQUIRE(p.raw.size() == 3);
  CHECK(p.raw[0].first == "<style>");
  CHECK(p.raw[0].second == "\n" + page_file("page.css") + web_file("schematic.css") + page_file("report.css") + "\n");
  CHECK(p.raw[1].first == "<script id=\"report-data\" type=\"application/json\">");
  CHECK(p.raw[1].second.find('<') == std::string::npos);  // escaped as \u003c
  CHECK(json::parse(p.raw[1].second) == data);
  CHECK(p.raw[2].first == "<script>");
  CHECK(p.raw[2].second == "\n" + page_file("plot.js") + bundle("schematic.js") + page_file("report.js") + "\n");

  // Outside the data, no placeholder is left.
  std::string outside = page;
  outside.erase(page.find(p.raw[1].second), p.raw[1].second.size());
  for (const char* ph : {"{{style}}", "{{data}}", "{{script}}"}) CHECK_MESSAGE(outside.find(ph) == std::string::npos, ph);
  CHECK(outside.find("{{title}}") == outside.find("{{title}} · Jourdain report"));  // the name's own text only
}

TEST_CASE("write_page writes the rendered page and reports a file it cannot write") {
  jourdain::test::TempDir dir;
  const json data = {{"name", "x"}};
  jourdain::report::write_page(dir.path() / "report.html", data);
  CHECK(jourdain::test::read_text(dir.path() / "report.html") == jourdain::report::render_page(data));
  CHECK_THROWS_AS(jourdain::report::write_page(dir.path() / "missing" / "report.html", data), jourdain::Error);
  // No name: the title says "run".
  CHECK(jourdain::report::render_page(json::object()).find("<title>run · Jourdain report</title>") != std::string::npos);
}
