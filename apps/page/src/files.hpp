// The toolkit's source files (apps/page), embedded byte for byte at build time by
// cmake/embed_files.cmake into the generated files.cpp: nothing is read at run time.
#pragma once

#include <string_view>

namespace jourdain::page::files {

std::string_view html();          // page.html: the template, with {{title}}, {{style}}, {{data}}, {{script}}
std::string_view toolkit_css();   // page.css
std::string_view toolkit_js();    // plot.js
std::string_view report_css();    // report.css
std::string_view report_js();     // report.js
std::string_view sweep_css();     // sweep.css
std::string_view sweep_js();      // sweep.js
std::string_view study_css();     // study.css
std::string_view study_js();      // study.js
// The schematic and the studio (apps/studio/web): styles as written, scripts as bundled
// from TypeScript by esbuild at build time (apps/studio/web/build.mjs).
std::string_view schematic_css();  // schematic.css
std::string_view studio_css();     // studio.css
std::string_view schematic_js();   // the renderer: the global JourdainSchematic
std::string_view studio_js();      // the editor
std::string_view elk_js();         // elkjs' bundled build: the global ELK

}  // namespace jourdain::page::files
