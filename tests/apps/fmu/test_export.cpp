// Netlists exported as FMI 2.0 Co-Simulation FMUs (apps/fmu), run by a test importer
// that follows the standard's calling sequence (fmi_test_importer.hpp): the FMU's outputs
// against `jourdain run` of the same netlist, several instances at once, inputs sampled and
// held by the importer, and the FMU run from a clean folder by a program that carries
// nothing of Jourdain.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <thread>

#include "fmi_test_importer.hpp"
#include "fmu_support.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

// Runs `inst` (started) from 0 to t_end by steps of h; calls `at(t)` at t = 0 and after each step.
template <class At>
void step_through(fmi_test::Instance& inst, double t_end, double h, At&& at) {
  at(0.0);
  const long steps = std::lround(t_end / h);
  for (long k = 0; k < steps; ++k) {
    REQUIRE(inst.step(k * h, h) == fmi2OK);
    at((k + 1) * h);
  }
}

// The damped oscillator's free response from x0 at rest (mass_spring_damper.json's closed form):
// x(t) = x0 e^(−σt) (cos ωd t + σ/ωd sin ωd t), σ = c/(2m), ωd = √(k/m − σ²).
double free_response(double t, double x0, double k, double c, double m) {
  const double sigma = c / (2 * m), wd = std::sqrt(k / m - sigma * sigma);
  return x0 * std::exp(-sigma * t) * (std::cos(wd * t) + sigma / wd * std::sin(wd * t));
}

// The netlist run with tolerances 1e4 times tighter than its own (rtol 1e-10): the
// reference both its own run and its FMU are measured against.
RunResult run_tight(const std::filesystem::path& netlist) {
  Registry registry = builtin_registry();
  const Netlist n = load_netlist(netlist, registry);
  RunOptions o;
  o.keep_rows = true;
  o.solver = {{"rtol", 1e-10}, {"atol", 1e-13}};
  return run_netlist(n, o);
}

// position_servo.json as an FMU: outputs load.x and pi.command, parameters pi.kp and load.mass.
std::filesystem::path servo_fmu() {
  fmu::ExportOptions options;
  options.outputs = {"load.x", "pi.command"};
  options.parameters = {"pi.kp", "load.mass"};
  return exported_once("servo", netlist_path("position_servo"), options);
}

std::filesystem::path fmu_tests_dir() { return source_dir() / "tests" / "apps" / "fmu"; }

}  // namespace

TEST_CASE("the position servo's FMU follows its netlist within one local error per communication step") {
  UnpackedFmu fmu(servo_fmu());
  CHECK(fmu.md.can_get_and_set_fmu_state);
  fmi_test::Binary binary(fmu.folder(), fmu.md.model_identifier);
  CHECK(std::string(binary.get_version()) == "2.0");
  CHECK(std::string(binary.get_types_platform()) == "default");
  const RunResult ref = run_file(netlist_path("position_servo"));
  const RunResult precise = run_tight(netlist_path("position_servo"));
  const auto x = fmu.vr("load.x"), command = fmu.vr("pi.command");
  // No value crosses the FMU's boundary while it runs, so holding none costs nothing: the
  // FMU and the netlist's run differ by their integration only. The FMU restarts CVODE at
  // each of its T/h steps (order 1 again, a fresh step size); each restart may add one
  // local error within the tolerance, rtol |x| + atol, and the stable servo does not let
  // them grow: against a run 1e4 times more accurate (rtol 1e-10), the FMU's error is at
  // most (T/h)(rtol max|x| + atol). It is proportional to the number of restarts: doubling
  // h halves it.
  auto error_of_fmu = [&](double h, double& worst_command) {
    fmi_test::Instance inst(binary, "servo", fmu.md.guid);
    REQUIRE(inst.valid());
    REQUIRE(inst.start(0.0) == fmi2OK);
    double error = 0.0;
    step_through(inst, 3.0, h, [&](double t) {
      error = std::max(error, std::abs(inst.get(x) - value_after_events(precise, "load.x", t)));
      worst_command = std::max(worst_command, std::abs(inst.get(command) - value_after_events(ref, "pi.command", t)));
    });
    CHECK(std::abs(inst.get(x) - 0.7) < 0.01);  // the load reached the set-point
    return error;
  };
  double worst_command = 0.0, ignored = 0.0;
  const double e2 = error_of_fmu(0.002, worst_command), e4 = error_of_fmu(0.004, ignored);
  double error_run = 0.0;
  for (double t = 0.0; t <= 3.0; t += 0.002)
    error_run = std::max(error_run, std::abs(value_after_events(ref, "load.x", t) - value_after_events(precise, "load.x", t)));
  MESSAGE("largest error of x: " << e2 << " m in the FMU at h = 2 ms, " << e4 << " m at h = 4 ms, " << error_run
                                   << " m in the netlist's run; |Δcommand| = " << worst_command << " m");
  const double per_restart = 1e-6 * 0.7 + 1e-9;  // rtol max|x| + atol
  CHECK(e2 <= 1500 * per_restart);
  CHECK(e4 / e2 == doctest::Approx(0.5).epsilon(0.4));
  // The command is kp times the position error (plus a slow integral, and the same
  // limits), so it differs by about kp |Δx| (kp = 0.0264).
  CHECK(worst_command <= 0.0264 * 2 * e2);
}

TEST_CASE("the mass-spring-damper's FMU follows the closed form, its parameters set by the importer") {
  UnpackedFmu fmu(oscillator_fmu());
  fmi_test::Binary binary(fmu.folder(), fmu.md.model_identifier);
  const RunResult ref = run_file(netlist_path("mass_spring_damper"));
  const auto x = fmu.vr("mass.x"), stiffness = fmu.vr("spring.stiffness");

  // dopri5 holds the local error to rtol = 1e-8 of |x| ≤ 0.1 m plus atol = 1e-10 per step;
  // the error does not grow in a damped oscillator, so over the run it stays near
  // 1e-9 m: 1e-7 m leaves room for the restarts at 500 communication points.
  SUBCASE("as the netlist is") {
    fmi_test::Instance inst(binary, "msd", fmu.md.guid);
    REQUIRE(inst.start(0.0) == fmi2OK);
    double worst_ref = 0.0, worst_closed = 0.0;
    step_through(inst, 5.0, 0.01, [&](double t) {
      worst_ref = std::max(worst_ref, std::abs(inst.get(x) - value_after_events(ref, "mass.x", t)));
      worst_closed = std::max(worst_closed, std::abs(inst.get(x) - free_response(t, 0.1, 100, 2, 1)));
    });
    MESSAGE("largest |Δx| against the run: " << worst_ref << " m, against the closed form: " << worst_closed << " m");
    CHECK(worst_ref < 1e-7);
    CHECK(worst_closed < 1e-7);
  }
  SUBCASE("with a stiffer spring, given in initialization mode") {
    fmi_test::Instance inst(binary, "stiff", fmu.md.guid);
    REQUIRE(inst.start(0.0, {{stiffness, 400.0}}) == fmi2OK);
    CHECK(inst.get(stiffness) == 400.0);
    double worst = 0.0;
    step_through(inst, 5.0, 0.01, [&](double t) {
      worst = std::max(worst, std::abs(inst.get(x) - free_response(t, 0.1, 400, 2, 1)));
    });
    CHECK(worst < 1e-7);
  }
}

TEST_CASE("instances of one FMU run side by side with their own parameters and share nothing") {
  UnpackedFmu fmu(oscillator_fmu());
  fmi_test::Binary binary(fmu.folder(), fmu.md.model_identifier);
  const auto x = fmu.vr("mass.x"), stiffness = fmu.vr("spring.stiffness");
  const double h = 0.01;
  const long steps = 300;

  // One instance alone: the trajectory every other instance with k = 100 N/m must repeat
  // bit for bit, whatever runs beside it.
  auto alone = [&](double k) {
    fmi_test::Instance inst(binary, "alone", fmu.md.guid);
    REQUIRE(inst.start(0.0, {{stiffness, k}}) == fmi2OK);
    std::vector<double> xs{inst.get(x)};
    for (long n = 0; n < steps; ++n) {
      REQUIRE(inst.step(n * h, h) == fmi2OK);
      xs.push_back(inst.get(x));
    }
    return xs;
  };
  const std::vector<double> soft = alone(100.0), stiff = alone(400.0);
  CHECK(soft != stiff);

  SUBCASE("interleaved in one thread") {
    fmi_test::Instance a(binary, "a", fmu.md.guid), b(binary, "b", fmu.md.guid);
    REQUIRE(a.start(0.0, {{stiffness, 100.0}}) == fmi2OK);
    REQUIRE(b.start(0.0, {{stiffness, 400.0}}) == fmi2OK);
    std::vector<double> xa{a.get(x)}, xb{b.get(x)};
    for (long n = 0; n < steps; ++n) {
      REQUIRE(a.step(n * h, h) == fmi2OK);
      REQUIRE(b.step(n * h, h) == fmi2OK);
      xa.push_back(a.get(x));
      xb.push_back(b.get(x));
    }
    CHECK(xa == soft);
    CHECK(xb == stiff);
    CHECK(std::abs(xb.back() - free_response(steps * h, 0.1, 400, 2, 1)) < 1e-7);
  }
  SUBCASE("in two threads at once") {
    std::vector<double> xa, xb;
    auto run = [&](const char* name, double k, std::vector<double>& out) {
      fmi_test::Instance inst(binary, name, fmu.md.guid);
      if (inst.start(0.0, {{stiffness, k}}) != fmi2OK) return;
      out.push_back(inst.get(x));
      for (long n = 0; n < steps; ++n) {
        if (inst.step(n * h, h) != fmi2OK) return;
        out.push_back(inst.get(x));
      }
    };
    std::thread ta(run, "a", 100.0, std::ref(xa)), tb(run, "b", 400.0, std::ref(xb));
    ta.join();
    tb.join();
    CHECK(xa == soft);
    CHECK(xb == stiff);
  }
}

TEST_CASE("an input the importer samples and holds: the error is bounded by the communication step") {
  // driven_oscillator.json: m = 1 kg, k = 100 N/m, c = 2 N·s/m, pushed by the input force u.
  // The importer gives u(t) = A sin Ωt at each communication point t_k and the FMU holds it
  // over the step; the reference run feeds the same sine continuously (signal.sine). Their
  // difference is the oscillator's response to the hold's error δu(t) = u(t_k) − u(t),
  // |δu| ≤ A Ω h, so |Δx| ≤ ‖g‖₁ A Ω h with g the impulse response
  // e^(−σt) sin(ωd t)/(m ωd), whose L1 norm is at most 1/(m ωd σ) (σ = c/2m = 1 /s,
  // ωd = √99 rad/s): 0.1005 m/N. A = 1 N, Ω = 5 rad/s.
  const double A = 1.0, Omega = 5.0, bound_per_h = A * Omega / (1.0 * std::sqrt(99.0) * 1.0);
  TempDir tmp;
  const auto netlist = fmu_tests_dir() / "driven_oscillator.json";
  const auto result = export_netlist(netlist, tmp.path() / "driven.fmu");  // its signal.input and signal.output
  CHECK(result.inputs == 1);
  CHECK(result.outputs == 1);
  UnpackedFmu fmu(tmp.path() / "driven.fmu");
  fmi_test::Binary binary(fmu.folder(), fmu.md.model_identifier);
  const auto force = fmu.vr("force"), position = fmu.vr("position");

  nlohmann::json sine = nlohmann::json::parse(read_text(netlist));
  sine["components"]["force"] = {{"type", "signal.sine"},
                                 {"params", {{"amplitude", A}, {"frequency", Omega / (2 * M_PI)}}}};
  const RunResult ref = run(sine.dump());

  auto largest_error = [&](double h) {
    fmi_test::Instance inst(binary, "driven", fmu.md.guid);
    REQUIRE(inst.start(0.0, {{force, 0.0}}) == fmi2OK);
    double worst = 0.0;
    const long steps = std::lround(5.0 / h);
    for (long k = 0; k < steps; ++k) {
      REQUIRE(inst.set(force, A * std::sin(Omega * k * h)) == fmi2OK);
      REQUIRE(inst.step(k * h, h) == fmi2OK);
      const double t = (k + 1) * h;
      worst = std::max(worst, std::abs(inst.get(position) - value_after_events(ref, "mass.x", t)));
    }
    return worst;
  };
  const double e10 = largest_error(0.01), e5 = largest_error(0.005);
  MESSAGE("largest |Δx|: " << e10 << " m at h = 10 ms (bound " << bound_per_h * 0.01 << " m), " << e5
                           << " m at h = 5 ms");
  CHECK(e10 <= bound_per_h * 0.01);
  CHECK(e5 <= bound_per_h * 0.005);
  // Sample and hold is a first-order method: halving h halves the error.
  CHECK(e5 / e10 == doctest::Approx(0.5).epsilon(0.1));
}

TEST_CASE("a netlist holding an FMU is exported with it, at its relative place, and runs it inside") {
  TempDir tmp;
  std::filesystem::create_directories(tmp.path() / "parts");
  std::filesystem::copy_file(oscillator_fmu(), tmp.path() / "parts" / "msd.fmu");
  write_text(tmp.path() / "outer.json", R"({"components": {
      "msd": {"type": "fmi.cosimulation", "params": {"fmu": "parts/msd.fmu", "communication_step": 0.01}},
      "x": {"type": "signal.output", "params": {"unit": "m"}}},
    "connections": [["msd.mass_x", "x.in"]], "solver": {"method": "rk4", "t_end": 1, "output_interval": 0.01}})");
  // The FMU inside runs code: exporting (which loads the netlist) asks for the same consent
  // as running it.
  CHECK_THROWS_AS(export_netlist(tmp.path() / "outer.json", tmp.path() / "outer.fmu"), InputError);
  fmu::ExportOptions consent;
  consent.load.allow_plugins = true;
  const auto result = export_netlist(tmp.path() / "outer.json", tmp.path() / "outer.fmu", consent);
  REQUIRE(result.packed.size() == 2);
  CHECK(result.can_get_and_set_state);  // the FMU inside can save its state
  const auto entries = fmi::zip_entries(tmp.path() / "outer.fmu");
  for (const char* entry : {"resources/model/outer.json", "resources/model/parts/msd.fmu"})
    CHECK_MESSAGE(std::find(entries.begin(), entries.end(), entry) != entries.end(), entry);

  UnpackedFmu fmu(tmp.path() / "outer.fmu");
  fmi_test::Binary binary(fmu.folder(), fmu.md.model_identifier);
  fmi_test::Instance inst(binary, "outer", fmu.md.guid);
  REQUIRE(inst.start(0.0) == fmi2OK);
  // Each outer step ends on a communication point of the FMU inside, whose event is handled
  // there: the output is the inner FMU's x(t), the closed form to dopri5's accuracy.
  double worst = 0.0;
  step_through(inst, 1.0, 0.01, [&](double t) {
    worst = std::max(worst, std::abs(inst.get(fmu.vr("x")) - free_response(t, 0.1, 100, 2, 1)));
  });
  CHECK(worst < 1e-7);
}

TEST_CASE("the FMU runs from a clean folder with nothing of Jourdain: glibc is all its binary needs") {
  TempDir clean;
  // Only the .fmu travels: unpacked in an empty folder, as an importing tool does.
  std::filesystem::copy_file(servo_fmu(), clean.path() / "servo.fmu");
  fmi::extract_zip(clean.path() / "servo.fmu", clean.path() / "unpacked");
  const auto md = fmi::parse_model_description(read_text(clean.path() / "unpacked" / "modelDescription.xml"));
  const auto binary = clean.path() / "unpacked" / fmi::binary_entry(md.model_identifier);

  // Its dynamic dependencies: the C library's (and, in a sanitizer build, the sanitizer's
  // runtime, which the importing program brings). Nothing of Jourdain, SUNDIALS, zlib,
  // minizip, pugixml or the C++ runtime.
  const CommandResult ldd = run_command("ldd " + shell_quote(binary));
  REQUIRE(ldd.exit_code == 0);
  MESSAGE(ldd.output);
  CHECK(ldd.output.find("not found") == std::string::npos);
  std::istringstream lines(ldd.output);
  for (std::string line; std::getline(lines, line);) {
    const std::string library = line.substr(line.find_first_not_of(" \t"));
    const bool glibc = library.rfind("linux-vdso.so", 0) == 0 || library.rfind("libc.so", 0) == 0 ||
                       library.rfind("libm.so", 0) == 0 || library.rfind("/lib64/ld-linux", 0) == 0 ||
                       library.rfind("libdl.so", 0) == 0 || library.rfind("libpthread.so", 0) == 0 ||
                       library.rfind("librt.so", 0) == 0;
#ifdef JOURDAIN_FMU_SANITIZED
    const bool allowed = glibc || library.find("san") != std::string::npos || library.rfind("libgcc_s", 0) == 0 ||
                         library.rfind("libstdc++", 0) == 0;
#else
    const bool allowed = glibc;
#endif
    CHECK_MESSAGE(allowed, "the FMU's binary needs " << library);
  }
  // The importer is a program of its own that links no Jourdain library either, run with
  // an empty environment (no LD_LIBRARY_PATH) from the clean folder.
  CHECK(run_command("ldd " + shell_quote(FMU_STANDALONE_RUN)).output.find("jourdain") == std::string::npos);
  const auto vr = std::to_string(
      [&] {
        for (const auto& v : md.variables)
          if (v.name == "load.x") return v.value_reference;
        return 999u;
      }());
  const CommandResult run_fmu =
      run_command("cd " + shell_quote(clean.path()) + " && env -i " + shell_quote(FMU_STANDALONE_RUN) +
                  " unpacked " + md.model_identifier + " '" + md.guid + "' 3 0.01 -- " + vr);
  REQUIRE_MESSAGE(run_fmu.exit_code == 0, run_fmu.output);
  const RunResult ref = run_file(netlist_path("position_servo")), precise = run_tight(netlist_path("position_servo"));
  std::istringstream rows(run_fmu.output);
  int count = 0;
  double error_fmu = 0.0, error_run = 0.0;
  for (double t, x; rows >> t >> x; ++count) {
    error_fmu = std::max(error_fmu, std::abs(x - value_after_events(precise, "load.x", t)));
    error_run = std::max(error_run, std::abs(value_after_events(ref, "load.x", t) - value_after_events(precise, "load.x", t)));
  }
  CHECK(count == 301);
  // As in the first test: at most one local error per restart, (T/h)(rtol max|x| + atol).
  CHECK(error_fmu <= 300 * (1e-6 * 0.7 + 1e-9));
  MESSAGE("largest error of x: " << error_fmu << " m in the FMU, " << error_run << " m in the netlist's run");
}

// Issue 40, points 1 and 2: `export-fmu self.json -o self.json` turned the netlist into a
// zip holding a half-written copy of itself (exit 0); a failed export removed whatever
// was at -o (the previous FMU, a symlink, as root even /dev/full).
TEST_CASE("export-fmu never destroys what is at -o: its own inputs, a previous FMU, a link or a device") {
  TempDir tmp;
  auto cli = [&](const std::filesystem::path& netlist, const std::filesystem::path& out, const std::string& before = "") {
    return run_command(before + shell_quote(jourdain_exe()) + " export-fmu " + shell_quote(netlist) + " -o " +
                       shell_quote(out) + " --outputs m.x");
  };
  std::filesystem::create_directories(tmp.path() / "parts");
  write_text(tmp.path() / "parts" / "weight.json", R"({"components": {"m": {"type": "mechanical1d.mass"}}})");
  const std::string netlist_text = R"({"subsystems": {"weight": "parts/weight.json"},
    "components": {"m": {"type": "mechanical1d.mass"}, "w": {"type": "weight"}},
    "solver": {"method": "rk4", "t_end": 1}})";
  const auto netlist = tmp.path() / "self.json";
  write_text(netlist, netlist_text);
  const std::string subsystem_text = read_text(tmp.path() / "parts" / "weight.json");
  SUBCASE("the netlist itself, or a file it packs") {
    const CommandResult self = cli(netlist, netlist);
    CHECK(self.exit_code == 2);
    CHECK_MESSAGE(self.output.find("the output is the netlist itself") != std::string::npos, self.output);
    CHECK(read_text(netlist) == netlist_text);
    const CommandResult part = cli(netlist, tmp.path() / "parts" / ".." / "parts" / "weight.json");
    CHECK(part.exit_code == 2);
    CHECK_MESSAGE(part.output.find("a file the FMU packs") != std::string::npos, part.output);
    CHECK(read_text(tmp.path() / "parts" / "weight.json") == subsystem_text);
  }
  SUBCASE("a failed export leaves the previous FMU whole, and no file of its own") {
    const auto fmu = tmp.path() / "model.fmu";
    REQUIRE(cli(netlist, fmu).exit_code == 0);
    const std::string previous = read_text(fmu);
    // A file-size limit far below the FMU's size (a full disk, as the process sees it).
    const CommandResult failed = cli(netlist, fmu, "ulimit -f 64; ");
    CHECK(failed.exit_code == 2);
    CHECK(read_text(fmu) == previous);
    for (const auto& entry : std::filesystem::directory_iterator(tmp.path()))
      CHECK_MESSAGE(entry.path().extension() != ".part", entry.path());
  }
  SUBCASE("a symlink, a folder or a device at -o is refused and left as it was") {
    write_text(tmp.path() / "precious.txt", "kept\n");
    std::filesystem::create_symlink(tmp.path() / "precious.txt", tmp.path() / "link.fmu");
    const CommandResult link = cli(netlist, tmp.path() / "link.fmu");
    CHECK(link.exit_code == 2);
    CHECK_MESSAGE(link.output.find("it is a symbolic link") != std::string::npos, link.output);
    CHECK(std::filesystem::is_symlink(tmp.path() / "link.fmu"));
    CHECK(read_text(tmp.path() / "precious.txt") == "kept\n");
    // A link to the netlist is the netlist: said so.
    std::filesystem::create_symlink(netlist, tmp.path() / "self.fmu");
    const CommandResult self_link = cli(netlist, tmp.path() / "self.fmu");
    CHECK(self_link.exit_code == 2);
    CHECK_MESSAGE(self_link.output.find("the output is the netlist itself") != std::string::npos, self_link.output);
    CHECK(read_text(netlist) == netlist_text);
    std::filesystem::create_directories(tmp.path() / "folder.fmu");
    CHECK(cli(netlist, tmp.path() / "folder.fmu").exit_code == 2);
    CHECK(std::filesystem::is_directory(tmp.path() / "folder.fmu"));
    const CommandResult device = cli(netlist, "/dev/null");
    CHECK(device.exit_code == 2);
    CHECK_MESSAGE(device.output.find("it is no regular file") != std::string::npos, device.output);
    CHECK(std::filesystem::is_character_file("/dev/null"));
  }
}

// Issue 40, point 15: control characters in a netlist's name or description made
// malformed XML, a 300-character name a binary file name too long to unpack, and
// fmi2DoStep at a NaN time returned fmi2OK without advancing.
TEST_CASE("an exported FMU holds well-formed XML and a short binary name whatever the netlist's texts") {
  TempDir tmp;
  const std::string long_name(300, 'n');
  write_text(tmp.path() / "odd.json", R"({"name": "bad\u0001name\u001b[31m )" + long_name + R"(",
    "description": "line one\nline two\u0007 \u007f end",
    "components": {"m": {"type": "mechanical1d.mass"}}, "record": ["m.x"],
    "solver": {"method": "rk4", "t_end": 1}})");
  const auto fmu = tmp.path() / "odd.fmu";
  const CommandResult r = run_command(shell_quote(jourdain_exe()) + " export-fmu " + shell_quote(tmp.path() / "odd.json") +
                                      " -o " + shell_quote(fmu));
  REQUIRE_MESSAGE(r.exit_code == 0, r.output);
  const std::string xml = fmi::read_zip_entry(fmu, "modelDescription.xml");
  const bool clean = std::all_of(xml.begin(), xml.end(), [](unsigned char c) {
    return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') && c != 0x7f;
  });
  CHECK(clean);
  const auto md = fmi::parse_model_description(xml);
  CHECK(md.model_identifier.size() == 64);
  CHECK(md.model_identifier.rfind("bad_name__31m_nnn", 0) == 0);
  const auto entries = fmi::zip_entries(fmu);
  CHECK(std::find(entries.begin(), entries.end(), "binaries/linux64/" + md.model_identifier + ".so") != entries.end());
  // xmllint, an XML parser of its own, reads it.
  write_text(tmp.path() / "md.xml", xml);
  CHECK(run_command("xmllint --noout " + shell_quote(tmp.path() / "md.xml")).exit_code == 0);
  // A long identifier asked for is refused, naming the option.
  const CommandResult refused = run_command(shell_quote(jourdain_exe()) + " export-fmu " +
                                            shell_quote(tmp.path() / "odd.json") + " -o " + shell_quote(fmu) +
                                            " --model-identifier " + std::string(65, 'x'));
  CHECK(refused.exit_code == 2);
  CHECK_MESSAGE(refused.output.find("--model-identifier: longer than 64 characters") != std::string::npos, refused.output);

  UnpackedFmu unpacked(fmu);
  fmi_test::Binary binary(unpacked.folder(), unpacked.md.model_identifier);
  for (const auto& step : {std::pair{std::nan(""), 0.1}, {0.0, std::numeric_limits<double>::infinity()}}) {
    fmi_test::Instance inst(binary, "odd", unpacked.md.guid);
    REQUIRE(inst.start(0.0) == fmi2OK);
    CHECK(inst.step(step.first, step.second) == fmi2Error);
  }
}

TEST_CASE("jourdain export-fmu: what it writes, and what it refuses (exit 2, naming the option)") {
  TempDir tmp;
  auto cli = [&](const std::string& netlist, const std::string& options) {
    return run_command(shell_quote(jourdain_exe()) + " export-fmu " + shell_quote(netlist) + " -o " +
                       shell_quote(tmp.path() / "out.fmu") + " " + options);
  };
  const std::string servo = netlist_path("position_servo").string();
  const CommandResult ok = cli(servo, "--outputs load.x,pi.command --parameters pi.kp");
  REQUIRE_MESSAGE(ok.exit_code == 0, ok.output);
  CHECK(ok.output.find("2 outputs, 1 parameters") != std::string::npos);
  CHECK(std::filesystem::is_regular_file(tmp.path() / "out.fmu"));
  const auto md = fmi::parse_model_description(fmi::read_zip_entry(tmp.path() / "out.fmu", "modelDescription.xml"));
  CHECK(md.model_identifier == "position_servo");
  // The parameter's own words, and its name.
  CHECK(md.variables[0].description.rfind("proportional gain", 0) == 0);
  CHECK(md.variables[0].description.find("(pi.kp)") != std::string::npos);

  auto refused = [&](const CommandResult& r, const std::string& what) {
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.output.find(what) != std::string::npos, r.output);
  };
  refused(cli(servo, "--outputs load.y"), "--outputs load.y");
  refused(cli(servo, "--outputs load.y"), "did you mean 'load.x'");
  // Without --outputs the netlist's record list is the FMU's outputs (issue 38, point 10:
  // a netlist that records variables was refused unless --outputs named them).
  const CommandResult recorded = cli(servo, "");
  REQUIRE_MESSAGE(recorded.exit_code == 0, recorded.output);
  const auto by_record =
      fmi::parse_model_description(fmi::read_zip_entry(tmp.path() / "out.fmu", "modelDescription.xml"));
  const auto record = nlohmann::json::parse(read_text(netlist_path("position_servo"))).at("record");
  std::vector<std::string> named;
  for (const auto& v : by_record.variables)
    if (v.causality == "output") named.push_back(v.name);
  CHECK(named == record.get<std::vector<std::string>>());
  write_text(tmp.path() / "silent.json", R"({"components": {"m": {"type": "mechanical1d.mass"}}, "record": []})");
  refused(cli((tmp.path() / "silent.json").string(), ""), "the FMU would have no outputs");
  refused(cli(servo, "--outputs load.x --parameters pi.kq"), "--parameters pi.kq");
  refused(cli(servo, "--outputs load.x --inputs setpoint"), "neither a signal.input component nor a numeric parameter");
  refused(cli(servo, "--outputs load.x --inputs pi.kp --parameters pi.kp"), "'pi.kp' is an input already");
  refused(cli(servo, "--outputs load.x,load.x"), "two variables named 'load.x'");
  refused(cli(servo, "--outputs load.x --model-identifier 9lives"), "is not a C identifier");
  refused(cli(netlist_path("servo_oil_column").string(), "--outputs load.x"), "only a dynamic netlist");
  write_text(tmp.path() / "plugged.json", R"({"plugins": [)" + nlohmann::json(TINY_PLUGIN).dump() +
                                             R"(], "components": {"m": {"type": "mechanical1d.mass"}}})");
  refused(cli((tmp.path() / "plugged.json").string(), "--outputs m.x --allow-plugins"), "a netlist with plugins cannot be exported yet");
}
