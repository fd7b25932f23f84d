// The page toolkit: every HTML page Jourdain writes is one template (page.html) filled
// with the toolkit's style and script (page.css, plot.js: DOM and SVG helpers, number
// formats, axis ticks, plot surfaces, tables), the page's own (report.css and report.js,
// sweep.css and sweep.js, study.css and study.js) and its data as JSON. The files are
// sources of their own (apps/page/), embedded byte for byte at build time; the page's
// script builds everything from the data, so a page opens offline and fetches nothing.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace jourdain::page {

enum class Kind {
  Report,  // report.html: a run or a linear analysis (apps/report)
  Sweep,   // sweep.html: a parameter study (apps/python, jourdain.sweep_page)
  Study,   // study.html: a design study, a fit or an optimisation (apps/python, jourdain.study_page)
  Studio,  // the studio's page, served by `jourdain studio` (apps/studio)
};

// The page of `kind` showing `data` (what the page's script reads); `data["name"]` makes
// the title. Throws Error if the template is broken.
std::string render(Kind kind, const nlohmann::json& data);

// ELK's script (elkjs' bundled build, which defines the global ELK; 1.6 MB), for a page
// that loads it on demand instead of carrying it: the studio serves it apart.
std::string_view layout_script();

// The kind a page's name stands for ("report", "sweep", "study", "studio"); throws InputError for another.
Kind kind_named(const std::string& name);

}  // namespace jourdain::page
