// A shared library that does nothing but run code as it is loaded: its constructor writes
// the file named by JOURDAIN_PROBE_FILE. Loading it is what a netlist's "plugins" entry
// would make the program do; the tests check that it never happens without the user's
// consent (issue 18). It has no Jourdain entry point, so once loaded it is refused.
#include <cstdio>
#include <cstdlib>

namespace {

__attribute__((constructor)) void leave_a_trace() {
  if (const char* file = std::getenv("JOURDAIN_PROBE_FILE")) {
    if (std::FILE* out = std::fopen(file, "w")) {
      std::fputs("the library's constructor ran\n", out);
      std::fclose(out);
    }
  }
}

}  // namespace
