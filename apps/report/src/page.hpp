// The page's source files (apps/report/page), embedded byte for byte at build time
// by cmake/embed_files.cmake into the generated page_data.cpp: nothing is read at run time.
#pragma once

#include <string_view>

namespace jourdain::report::page {

std::string_view html();    // report.html: the template, with {{title}}, {{style}}, {{data}}, {{script}}
std::string_view css();     // report.css
std::string_view script();  // report.js

}  // namespace jourdain::report::page
