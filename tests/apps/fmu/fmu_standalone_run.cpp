// Runs an unpacked FMU with nothing but the C library and dlopen: no Jourdain library is
// linked into this program (CMakeLists.txt), so the FMU must carry everything it needs.
//   fmu_standalone_run FOLDER MODEL_IDENTIFIER GUID T_END H [VR=VALUE ...] -- OUTPUT_VR ...
// sets the given values (value reference = number) in initialization mode, steps from 0
// to T_END by H and prints "t y1 y2 ..." at t = 0 and after each step. Exit 1 with the
// FMU's messages when a call fails.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "fmi_test_importer.hpp"

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: %s FOLDER MODEL_IDENTIFIER GUID T_END H [VR=VALUE ...] -- OUTPUT_VR ...\n", argv[0]);
    return 2;
  }
  const double t_end = std::atof(argv[4]), h = std::atof(argv[5]);
  std::vector<std::pair<fmi2ValueReference, double>> inputs;
  std::vector<fmi2ValueReference> outputs;
  bool after = false;
  for (int i = 6; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) after = true;
    else if (after) outputs.push_back(static_cast<fmi2ValueReference>(std::atoi(argv[i])));
    else if (const char* eq = std::strchr(argv[i], '='))
      inputs.emplace_back(static_cast<fmi2ValueReference>(std::atoi(argv[i])), std::atof(eq + 1));
  }
  try {
    fmi_test::Binary binary(argv[1], argv[2]);
    fmi_test::Instance fmu(binary, "standalone", argv[3]);
    auto fail = [&](const char* call) {
      std::fprintf(stderr, "%s failed\n", call);
      for (const auto& m : fmu.messages) std::fprintf(stderr, "  [%s] %s\n", m.category.c_str(), m.text.c_str());
      return 1;
    };
    if (!fmu.valid()) return fail("fmi2Instantiate");
    if (fmu.start(0.0, inputs) > fmi2Warning) return fail("initialization");
    auto print = [&](double t) {
      std::printf("%.17g", t);
      for (fmi2ValueReference vr : outputs) std::printf(" %.17g", fmu.get(vr));
      std::printf("\n");
    };
    print(0.0);
    const long steps = std::lround(t_end / h);
    for (long k = 0; k < steps; ++k) {
      if (fmu.step(k * h, h) > fmi2Warning) return fail("fmi2DoStep");
      print((k + 1) * h);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
