// fmi.cosimulation (components/fmi): FMUs as components. The round trip (a netlist exported
// as an FMU, then used as a component, against the netlist itself), an FMU made as another
// tool would make one (gain_counter: units other than SI, Integer, Boolean and String
// variables, warnings and errors on request), `jourdain describe` of an FMU, the errors at
// load and during a run, the temporary folders, and the FMU's instance per Context.
#include <cmath>
#include <optional>
#include <thread>

#include "fmu_support.hpp"
#include "jourdain/solvers/simulate.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

// The FMUs these netlists name lie in temporary folders, and hold code: the tests give the
// consent a user gives to a netlist they trust (--allow-any-path, --allow-plugins).
NetlistOverrides trusted() {
  NetlistOverrides o;
  o.allow_plugins = true;
  o.allow_any_path = true;
  return o;
}
Netlist load_fmu(const std::string& text) { return load(text, trusted()); }
RunResult run_fmu(const std::string& text) { return run(text, trusted()); }

const std::filesystem::path kHere = source_dir() / "tests" / "components" / "fmi";

// gain_counter.cpp's binary and gain_counter.xml, zipped as an FMU.
std::filesystem::path gain_counter_fmu(const std::filesystem::path& folder,
                                       const std::string& description = read_text(kHere / "gain_counter.xml"),
                                       bool with_binary = true) {
  const auto file = folder / "gain_counter.fmu";
  fmi::ZipWriter zip(file);
  zip.add("modelDescription.xml", description);
  if (with_binary) zip.add_file("binaries/linux64/gain_counter.so", GAIN_COUNTER_SO);
  zip.close();
  return file;
}

// gain_counter as an FMU at `file`, with more entries after its own (name, content).
std::filesystem::path gain_counter_with(const std::filesystem::path& file,
                                        const std::vector<std::pair<std::string, std::string>>& extra) {
  fmi::ZipWriter zip(file);
  zip.add("modelDescription.xml", read_text(kHere / "gain_counter.xml"));
  zip.add_file("binaries/linux64/gain_counter.so", GAIN_COUNTER_SO);
  for (const auto& entry : extra) zip.add(entry.first, entry.second);
  zip.close();
  return file;
}

std::string quoted(const std::filesystem::path& p) { return nlohmann::json(p.string()).dump(); }

// A netlist of one FMU component "f" (its parameters `params`), run by the command line.
CommandResult run_cli(const std::filesystem::path& netlist, const std::filesystem::path& out) {
  return run_command(shell_quote(jourdain_exe()) + " run " + shell_quote(netlist) + " -o " + shell_quote(out) +
                     " --no-report --allow-plugins --allow-any-path");
}

// mass_spring_damper.json's free response (m = 1 kg, c = 2 N·s/m, x0 = 0.1 m at rest) with
// a spring of stiffness k: x = x0 e^(−σt) (cos ωd t + σ/ωd sin ωd t), σ = c/2m, ωd = √(k/m − σ²).
double free_response(double t, double k) {
  const double sigma = 1.0, wd = std::sqrt(k - sigma * sigma);
  return 0.1 * std::exp(-sigma * t) * (std::cos(wd * t) + sigma / wd * std::sin(wd * t));
}

double max_abs_velocity(const RunResult& r, const std::string& column) {
  double m = 0.0;
  for (double v : r.column(column)) m = std::max(m, std::abs(v));
  return m;
}

}  // namespace

TEST_CASE("round trip: the mass-spring-damper's FMU as a component reproduces the netlist") {
  const auto fmu = oscillator_fmu();
  const double h = 0.002;
  auto netlist = [&](const std::string& extra) {
    return R"({"components": {"msd": {"type": "fmi.cosimulation", "params": {"fmu": )" + quoted(fmu) +
           R"(, "communication_step": )" + std::to_string(h) + extra + R"(}}},
      "connections": [], "solver": {"method": "dopri5", "t_end": 2.5, "output_interval": 0.005},
      "record": ["msd.mass_x", "msd.mass_v", "msd.fmi_steps"]})";
  };
  SUBCASE("as exported") {
    const RunResult r = run_fmu(netlist(""));
    REQUIRE(r.finished);
    CHECK(r.column("msd.fmi_steps").back() == 1250);
    // The component holds the FMU's output over each step of h: x(t_k) from the event at
    // t_k (just after t_k) until the next. At the communication points it is the closed
    // form to the integration's accuracy (dopri5, rtol 1e-8 on |x| ≤ 0.1 m: 1e-7 m);
    // between them the hold lags by at most h max|v| ≤ h x0 ω0 = 1 mm (energy:
    // ½ m v² ≤ ½ k x0²).
    const auto time = r.column("time"), x = r.column("msd.mass_x");
    const double v_max = 0.1 * std::sqrt(100.0 / 1.0);
    double worst_at_points = 0.0, worst = 0.0;
    for (size_t k = 0; k < time.size(); ++k) {
      if (k + 1 < time.size() && time[k + 1] == time[k]) continue;  // the row before an event
      // The communication point whose outputs the row holds: the event's, for the row after
      // an event; else the last point before the row. An output time on a point (to the
      // event's placing, 1e-10 s) may come before or after the point's event: left out.
      const double n = time[k] / h, nearest = std::round(n);
      const bool after_event = k > 0 && time[k - 1] == time[k], on_point = std::abs(n - nearest) < 1e-6;
      if (on_point && !after_event) continue;
      const double t_k = (on_point ? nearest : std::floor(n)) * h;
      worst_at_points = std::max(worst_at_points, std::abs(x[k] - free_response(t_k, 100.0)));
      worst = std::max(worst, std::abs(x[k] - free_response(time[k], 100.0)));
    }
    MESSAGE("largest |Δx|: " << worst_at_points << " m against x(t_k), " << worst << " m against x(t)");
    CHECK(worst_at_points < 1e-7);
    CHECK(worst <= h * v_max);
    // The hold is seen: the output rows half a step after a point (every 5 ms) lag by
    // h/2, at speeds up to v_max.
    CHECK(worst > 0.25 * h * v_max);
  }
  SUBCASE("with a stiffer spring given in the netlist (an FMU parameter, with its unit)") {
    const RunResult r = run_fmu(netlist(R"(, "spring_stiffness": "0.4 kN/m")"));
    REQUIRE(r.finished);
    // x(t_k) of the free response with k = 400 N/m, held from t_k on.
    double worst = 0.0;
    for (double t = 0.0; t < 2.5; t += 0.25)
      worst = std::max(worst, std::abs(value_after_events(r, "msd.mass_x", t + 0.5 * h) - free_response(t, 400.0)));
    CHECK(worst < 1e-7);
  }
}

TEST_CASE("round trip in a loop: the servo's controller around its plant's FMU") {
  // servo_plant.json is netlists/position_servo.json without its controller; here the
  // controller runs in the netlist and the plant in the FMU, exchanging the position and the
  // spool command every h. Each exchange holds a value for at most h: the measured position
  // (output) and the command made from it (input). Over a hold the load moves at most
  // h max|v|, so the loop sees the load at most 2h late, and its trajectory stays within
  // 2h max|v| of the netlist's. Sample and hold is first order: the error halves with h.
  TempDir tmp;
  export_netlist(kHere / "servo_plant.json", tmp.path() / "plant.fmu");
  // The netlist's own run, recorded every 0.5 ms so that reading it between rows adds
  // nothing to compare (its rows every 2 ms would add up to 1e-4 m where |a| is largest).
  Registry registry = builtin_registry();
  const Netlist servo = load_netlist(netlist_path("position_servo"), registry);
  RunOptions fine;
  fine.keep_rows = true;
  fine.solver = {{"output_interval", 0.0005}};
  const RunResult ref = run_netlist(servo, fine);
  const double v_max = max_abs_velocity(ref, "load.v");
  auto largest_error = [&](double h) {
    const std::string netlist = R"({"components": {
        "setpoint": {"type": "signal.step", "params": {"step_time": 1, "before": 0.2, "after": 0.7}},
        "error": {"type": "signal.sum", "params": {"signs": "+-"}},
        "pi": {"type": "signal.pid", "params": {"kp": 0.0264, "ki": 0.000672, "u_min": -0.01, "u_max": 0.01}},
        "plant": {"type": "fmi.cosimulation", "params": {"fmu": )" + quoted(tmp.path() / "plant.fmu") +
                                R"(, "communication_step": )" + std::to_string(h) + R"(}}},
      "connections": [["setpoint.out", "error.in1"], ["plant.load_position", "error.in2"],
                      ["error.out", "pi.error"], ["pi.command", "plant.command"]],
      "solver": {"method": "dopri5", "t_end": 2, "rtol": 1e-8, "atol": 1e-10, "output_interval": 0.002},
      "record": ["plant.load_position"]})";
    const RunResult r = run_fmu(netlist);
    REQUIRE(r.finished);
    const auto time = r.column("time"), x = r.column("plant.load_position");
    double worst = 0.0;
    for (size_t k = 0; k < time.size(); ++k) worst = std::max(worst, std::abs(x[k] - value_after_events(ref, "load.x", time[k])));
    CHECK(std::abs(x.back() - 0.7) < 0.01);  // at the set-point at 2 s, as the netlist
    return worst;
  };
  const double e4 = largest_error(0.004), e2 = largest_error(0.002);
  MESSAGE("largest |Δx|: " << e4 << " m at h = 4 ms, " << e2 << " m at h = 2 ms (max |v| = " << v_max << " m/s)");
  CHECK(e4 <= 2 * 0.004 * v_max);
  CHECK(e2 <= 2 * 0.002 * v_max);
  CHECK(e2 / e4 == doctest::Approx(0.5).epsilon(0.1));
}

TEST_CASE("an FMU made as another tool makes one: units, Integer, Boolean and String variables") {
  TempDir tmp;
  const auto fmu = gain_counter_fmu(tmp.path());
  auto netlist = [&](const std::string& params, const std::string& enable) {
    return R"({"components": {
        "u": {"type": "signal.constant", "params": {"value": 0.003}},
        "enable": )" + enable + R"(,
        "f": {"type": "fmi.cosimulation", "params": {"fmu": )" + quoted(fmu) + params + R"(}}},
      "connections": [["u.out", "f.u"], ["enable.out", "f.enable"]],
      "solver": {"method": "rk4", "t_end": 1, "output_interval": 0.05},
      "record": ["f.y", "f.steps"]})";
  };
  const std::string always = R"({"type": "signal.constant", "params": {"value": 1}})";
  SUBCASE("SI in the netlist, the FMU's units at its boundary") {
    // u = 3 mm reaches the FMU as 3; y = gain u = 2 bar/mm × 3 mm = 6 bar leaves it as 6e5 Pa.
    const RunResult r = run_fmu(netlist("", always));
    REQUIRE(r.finished);
    CHECK(r.column("f.y").back() == doctest::Approx(6e5));
    CHECK(r.column("f.steps").back() == 10);  // the default step: DefaultExperiment's 0.1 s
    // A gain in SI (bar/mm = 1e8 Pa/m) reaches the FMU in its unit.
    const RunResult g = run_fmu(netlist(R"(, "gain": "5e8 Pa/m")", always));
    CHECK(g.column("f.y").back() == doctest::Approx(5.0 * 3.0 * 1e5));
  }
  SUBCASE("a Boolean input is 'signal > 0.5'; its output holds while it is false") {
    const RunResult r = run_fmu(netlist(R"(, "communication_step": 0.1)",
                                    R"({"type": "signal.step", "params": {"step_time": 0.55, "before": 0, "after": 1}})"));
    REQUIRE(r.finished);
    CHECK(value_after_events(r, "f.y", 0.5) == 0.0);  // computed while enable was false: the start value
    CHECK(r.column("f.y").back() == doctest::Approx(6e5));  // from the step at 0.6 s on
  }
  SUBCASE("an FMU's warning joins the run's warnings") {
    const RunResult r = run_fmu(netlist(R"(, "warn_at_step": 2)", always));
    REQUIRE(r.finished);
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0].find("warning at step 2 as asked") != std::string::npos);
    CHECK(r.warnings[0].find(fmu.string()) != std::string::npos);
  }
  SUBCASE("a String parameter, and Integer ones as configuration") {
    Netlist n = load_fmu(netlist(R"(, "label": "pump 1", "fail_at_step": 99)", always));
    const Component* f = n.model.find_component("f");
    REQUIRE(f);
    CHECK(f->parameter_value("label") == "pump 1");
    CHECK(f->parameter_value("fail_at_step") == 99);
    CHECK_THROWS_WITH_AS(n.model.parameter("f.fail_at_step"), doctest::Contains("is configuration"), InputError);
    CHECK(n.model.parameter("f.gain").unit == "kg/m^2/s^2");  // bar/mm in SI
    // String outputs have no signal to travel on: no port.
    CHECK_FALSE(f->find_port("note").valid());
  }
}

TEST_CASE("`jourdain describe` on an FMU file lists its ports and parameters") {
  TempDir tmp;
  const auto fmu = gain_counter_fmu(tmp.path());
  const CommandResult text = run_command(shell_quote(jourdain_exe()) + " describe " + shell_quote(fmu));
  REQUIRE_MESSAGE(text.exit_code == 0, text.output);
  for (const char* part : {"a fmi.cosimulation component", "u  [signal, response side, optional]  Real input 'u' [m]",
                           "y  [signal, state side]", "value [Pa]", "steps  [signal, state side]",
                           "gain (real, kg/m^2/s^2) = 200000000", "fail_at_step (integer) = -1", "label (text) = \"unnamed\"",
                           "communication_step (real, s) = 0.1"})
    CHECK_MESSAGE(text.output.find(part) != std::string::npos, part);
  const CommandResult json = run_command(shell_quote(jourdain_exe()) + " describe --json " + shell_quote(fmu));
  REQUIRE(json.exit_code == 0);
  const auto d = nlohmann::json::parse(json.output);
  CHECK(d["type"] == "fmi.cosimulation");
  CHECK(d["ports"].size() == 5);  // u, y, steps, enable, instances
}

// Issue 40, point 8: `jourdain describe model.fmu` loaded the FMU's binary (its library
// constructors ran) and printed the FMU's texts with their control characters.
TEST_CASE("`jourdain describe` on an FMU reads its XML only and escapes its texts") {
  TempDir tmp;
  std::string description = read_text(kHere / "gain_counter.xml");
  const std::string plain = R"(description="the input")";
  REQUIRE(description.find(plain) != std::string::npos);
  description.replace(description.find(plain), plain.size(), "description=\"the \x1b[31minput\x1b[0m\"");
  const auto fmu = gain_counter_fmu(tmp.path(), description);
  const auto trace = tmp.path() / "loaded";
  const std::string env = "GAIN_COUNTER_LOAD_TRACE=" + shell_quote(trace) + " ";
  const CommandResult text = run_command(env + shell_quote(jourdain_exe()) + " describe " + shell_quote(fmu));
  REQUIRE_MESSAGE(text.exit_code == 0, text.output);
  CHECK_MESSAGE(text.output.find("the \\x1B[31minput\\x1B[0m") != std::string::npos, text.output);
  CHECK(text.output.find('\x1b') == std::string::npos);
  const CommandResult json = run_command(env + shell_quote(jourdain_exe()) + " describe --json " + shell_quote(fmu));
  REQUIRE_MESSAGE(json.exit_code == 0, json.output);
  CHECK(json.output.find('\x1b') == std::string::npos);
  CHECK(nlohmann::json::parse(json.output)["ports"].size() == 5);
  CHECK_FALSE(std::filesystem::exists(trace));
  // The same FMU in a netlist is loaded (what `check` and `run` vouch for): the trace shows
  // the test would see a load.
  write_text(tmp.path() / "net.json", R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                                          quoted(fmu) + R"(}}}, "connections": []})");
  const CommandResult check = run_command(env + shell_quote(jourdain_exe()) + " check " + shell_quote(tmp.path() / "net.json") +
                                          " --allow-plugins --allow-any-path");
  CHECK_MESSAGE(check.exit_code == 0, check.output);
  CHECK(std::filesystem::exists(trace));
}

TEST_CASE("FMUs that cannot be used are refused at load, naming the FMU (exit 2)") {
  TempDir tmp;
  const std::string description = read_text(kHere / "gain_counter.xml");
  auto refused = [&](const std::filesystem::path& fmu, const std::string& why) {
    write_text(tmp.path() / "net.json", R"({"components": {"plant": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                                            quoted(fmu) + R"(}}}, "connections": []})");
    const CommandResult r = run_cli(tmp.path() / "net.json", tmp.path() / "out");
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.output.find(fmu.string()) != std::string::npos, r.output);
    CHECK_MESSAGE(r.output.find("component 'plant'") != std::string::npos, r.output);
    CHECK_MESSAGE(r.output.find(why) != std::string::npos, r.output);
  };
  // gain_counter's description with `from` replaced by `to`.
  auto changed = [&](const std::string& from, const std::string& to) {
    std::string d = description;
    REQUIRE(d.find(from) != std::string::npos);
    return d.replace(d.find(from), from.size(), to);
  };
  SUBCASE("a file that is no zip archive") {
    write_text(tmp.path() / "broken.fmu", "this is not a zip archive");
    refused(tmp.path() / "broken.fmu", "not a zip archive");
  }
  SUBCASE("a file that does not exist") { refused(tmp.path() / "absent.fmu", "no such file"); }
  SUBCASE("no binary for this platform") {
    refused(gain_counter_fmu(tmp.path(), description, false), "no binary for this platform (linux64)");
  }
  SUBCASE("binaries for other platforms only") {
    const auto file = tmp.path() / "windows.fmu";
    fmi::ZipWriter zip(file);
    zip.add("modelDescription.xml", description);
    zip.add("binaries/win64/gain_counter.dll", "MZ");
    zip.close();
    refused(file, "it has binaries for: win64");
  }
  SUBCASE("FMI 1.0") {
    std::string old = description;
    old.replace(old.find("fmiVersion=\"2.0\""), 16, "fmiVersion=\"1.0\"");
    refused(gain_counter_fmu(tmp.path(), old), "FMI version '1.0': only FMI 2.0 FMUs are supported");
  }
  SUBCASE("Model Exchange only") {
    std::string me = description;
    me.replace(me.find("<CoSimulation"), 13, "<ModelExchange");
    refused(gain_counter_fmu(tmp.path(), me), "an FMU for Model Exchange only");
  }
  SUBCASE("no modelDescription.xml") {
    const auto file = tmp.path() / "empty.fmu";
    fmi::ZipWriter zip(file);
    zip.add("readme.txt", "nothing");
    zip.close();
    refused(file, "the archive holds no 'modelDescription.xml'");
  }
  // Issue 40, point 7: a zip bomb was read whole into memory ("internal error:
  // std::bad_alloc" after 20 s). The entries are counted, and what they inflate to.
  SUBCASE("an archive of too many entries (a zip bomb)") {
    const auto file = tmp.path() / "many.fmu";
    fmi::ZipWriter zip(file);
    zip.add("modelDescription.xml", description);
    zip.add_file("binaries/linux64/gain_counter.so", GAIN_COUNTER_SO);
    for (int k = 0; k < 10'000; ++k) zip.add("resources/" + std::to_string(k), "", /*fast=*/true);
    zip.close();
    refused(file, "the archive holds more than 10000 entries, the limit (a zip bomb, or no FMU)");
  }
  // Issue 40, point 16: descriptions read leniently.
  SUBCASE("a negative valueReference, a start value that is no number, an input alias, a binary twice") {
    refused(gain_counter_fmu(tmp.path(), changed(R"(name="u" valueReference="0")", R"(name="u" valueReference="-1")")),
            "variable 'u' has the valueReference '-1', not an unsigned 32-bit integer");
    refused(gain_counter_fmu(tmp.path(), changed(R"(<Real unit="bar/mm" start="2"/>)", R"(<Real unit="bar/mm" start="2abc"/>)")),
            "variable 'gain' has the start value '2abc', which is no Real");
    refused(gain_counter_fmu(tmp.path(), changed(R"(name="y" valueReference="1")", R"(name="y" valueReference="0")")),
            "variables 'u' (input) and 'y' (output) share the Real valueReference 0: an input has no alias");
    refused(gain_counter_with(tmp.path() / "twice.fmu", {{"binaries/linux64/gain_counter.so", "not the binary"}}),
            "the archive holds two entries named 'binaries/linux64/gain_counter.so'");
  }
  // Issue 40, the FMU fuzzers (tests/fuzz): an Integer start beyond fmi2Integer, an
  // exponent whose negation overflowed, an entry below a file entry (a std::filesystem
  // error, not an FmuError).
  SUBCASE("a 33-bit Integer start, a BaseUnit exponent of -2^31, an entry below a file") {
    refused(gain_counter_fmu(tmp.path(), changed(R"(<Integer start="-1"/>)", R"(<Integer start="4294967296"/>)")),
            "variable 'fail_at_step' has the start value '4294967296', which is no Integer");
    refused(gain_counter_fmu(tmp.path(), changed(R"(<BaseUnit m="1" factor="0.001"/>)", R"(<BaseUnit m="-2147483648"/>)")),
            "unit 'mm' has the exponent m=\"-2147483648\", not an integer from -100 to 100");
    refused(gain_counter_with(tmp.path() / "below.fmu", {{"resources", "a file"}, {"resources/table.txt", "0 1"}}),
            "entry 'resources/table.txt' cannot be unpacked: Not a directory");
  }
  // Found beside the FMU fuzzers: an Integer parameter given beyond fmi2Integer's 32 bits
  // in the netlist reached the FMU cut short.
  SUBCASE("an Integer parameter beyond 32 bits") {
    write_text(tmp.path() / "net.json", R"({"components": {"plant": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                                            quoted(gain_counter_fmu(tmp.path())) +
                                            R"(, "fail_at_step": 4294967297}}}, "connections": []})");
    const CommandResult r = run_cli(tmp.path() / "net.json", tmp.path() / "out");
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.output.find("/components/plant/params/fail_at_step") != std::string::npos, r.output);
    CHECK_MESSAGE(r.output.find("out of its range") != std::string::npos, r.output);
  }
  SUBCASE("a model description that is no XML") {
    refused(gain_counter_fmu(tmp.path(), "<fmiModelDescription"), "not well-formed XML");
  }
}

TEST_CASE("an fmi2Error during a run ends it (exit 1), naming the FMU and the call, results kept") {
  TempDir tmp;
  SUBCASE("an FMU that fails a step") {
    const auto fmu = gain_counter_fmu(tmp.path());
    write_text(tmp.path() / "net.json", R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                                            quoted(fmu) + R"(, "fail_at_step": 4}}}, "connections": [],
        "solver": {"method": "rk4", "t_end": 1, "output_interval": 0.05}, "record": ["f.steps"]})");
    const CommandResult r = run_cli(tmp.path() / "net.json", tmp.path() / "out");
    CHECK(r.exit_code == 1);
    CHECK_MESSAGE(r.output.find("FMU " + fmu.string() + ": fmi2DoStep(t = 0.3 s, h = 0.1 s) returned fmi2Error: "
                                "[logStatusError] failing at step 4") != std::string::npos,
                  r.output);
    const auto summary = nlohmann::json::parse(read_text(tmp.path() / "out" / "summary.json"));
    CHECK(summary["status"] == "failed");
    CHECK(summary["failure"]["time"].get<double>() == doctest::Approx(0.4).epsilon(1e-6));
    CHECK(summary["final_values"]["f.steps"] == 3);  // the rows up to the failure are there
  }
  SUBCASE("an exported FMU whose own run fails inside (dx/dt = x², x(0) = 1, beyond t = 1 s)") {
    write_text(tmp.path() / "net.json", R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                                            quoted(exported_once("blow_up", kHere / "blow_up.json")) + R"(, "communication_step": 0.01}}},
        "connections": [], "solver": {"method": "dopri5", "t_end": 2, "output_interval": 0.01}, "record": ["f.out"]})");
    const CommandResult r = run_cli(tmp.path() / "net.json", tmp.path() / "out");
    CHECK(r.exit_code == 1);
    CHECK_MESSAGE(r.output.find("returned fmi2Error") != std::string::npos, r.output);
    CHECK_MESSAGE(r.output.find("blow_up.fmu") != std::string::npos, r.output);
    const auto summary = nlohmann::json::parse(read_text(tmp.path() / "out" / "summary.json"));
    // The FMU's integrator reaches the pole at t = 1 s with a huge but finite x (its error
    // there), and fails in the step that starts there or in the one before: the run ends
    // at the communication point 1 s or 1.01 s, having held x(0.99 s) = 100 or more.
    const double failed_at = summary["failure"]["time"].get<double>();
    CHECK(failed_at >= 1.0 - 1e-9);
    CHECK(failed_at <= 1.01 + 1e-9);
    CHECK(summary["final_values"]["f.out"].get<double>() >= 100.0 * (1 - 1e-6));
  }
}

// Issue 40, point 9: an FMU's warnings were kept without bound (10^6 warnings: 565 MB of
// memory, a 93 MB summary.json).
TEST_CASE("an FMU that warns at every step: its first 100 warnings listed, then a note") {
  TempDir tmp;
  const RunResult r = run_fmu(R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                              quoted(gain_counter_fmu(tmp.path())) + R"(, "warn_at_step": 0, "communication_step": 0.001}}},
      "connections": [], "solver": {"method": "rk4", "t_end": 1, "output_interval": 0.01}, "record": ["f.steps"]})");
  REQUIRE(r.finished);
  CHECK(r.column("f.steps").back() == 1000);
  long listed = 0, notes = 0;
  for (const auto& w : r.warnings) {
    listed += w.find("as asked") != std::string::npos;
    notes += w.find("its first 100 warnings are listed; later ones are not") != std::string::npos;
  }
  CHECK(listed == 100);
  CHECK(notes == 1);
}

// Issue 38, point 7: an FMU that ends the simulation (fmi2DoStep returns fmi2Discard, then
// fmi2GetBooleanStatus(fmi2Terminated) is true, as the Reference FMUs' Stair does) ended the
// run with exit 1 and without its last communication point.
// Issue 38, point 9: an FMU without a DefaultExperiment stepSize (the Reference FMUs'
// Feedthrough, Resource) could not be described ("communication_step missing").
TEST_CASE("`jourdain describe` shows an FMU's ports whatever its defaults") {
  TempDir tmp;
  std::string description = read_text(kHere / "gain_counter.xml");
  const auto experiment = description.find("<DefaultExperiment");
  REQUIRE(experiment != std::string::npos);
  description.erase(experiment, description.find("/>", experiment) + 2 - experiment);
  const auto fmu = gain_counter_fmu(tmp.path(), description);
  const CommandResult text = run_command(shell_quote(jourdain_exe()) + " describe " + shell_quote(fmu));
  REQUIRE_MESSAGE(text.exit_code == 0, text.output);
  CHECK(text.output.find("y  [signal, state side]") != std::string::npos);
  const CommandResult json = run_command(shell_quote(jourdain_exe()) + " describe --json " + shell_quote(fmu));
  REQUIRE_MESSAGE(json.exit_code == 0, json.output);
  const auto d = nlohmann::json::parse(json.output);
  CHECK(d["ports"].size() == 5);
  const std::string note = d["note"];
  CHECK_MESSAGE(note.find("communication_step = ") != std::string::npos, note);
  CHECK_MESSAGE(note.find("a netlist must give it") != std::string::npos, note);
  for (const auto& p : d["parameters"])
    if (p["name"] == "communication_step") CHECK(p["required"] == true);
}

TEST_CASE("an FMU that asks to terminate ends the run as finished, its last point recorded") {
  TempDir tmp;
  const auto fmu = gain_counter_fmu(tmp.path());
  for (std::string method : {"rk4", "dopri5", "bdf"}) {
    CAPTURE(method);
    write_text(tmp.path() / "net.json", R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                                            quoted(fmu) + R"(, "stop_at_step": 4}}}, "connections": [],
        "solver": {"method": ")" + method + R"(", "t_end": 1, "output_interval": 0.05}, "record": ["f.steps"]})");
    const CommandResult r = run_cli(tmp.path() / "net.json", tmp.path() / ("out_" + method));
    CHECK_MESSAGE(r.exit_code == 0, r.output);
    const auto summary = nlohmann::json::parse(read_text(tmp.path() / ("out_" + method) / "summary.json"));
    CHECK(summary["status"] == "finished");
    CHECK(summary["termination"]["component"] == "f");
    CHECK(summary["termination"]["time"].get<double>() == doctest::Approx(0.4).epsilon(1e-9));
    const std::string reason = summary["termination"]["reason"];
    CHECK_MESSAGE(reason.find("fmi2DoStep(t = 0.3 s, h = 0.1 s) returned fmi2Discard, fmi2Terminated; its last "
                              "successful time 0.4 s") != std::string::npos,
                  reason);
    CHECK_MESSAGE(reason.find("the simulation ends at step 4 as asked") != std::string::npos, reason);
    // The step that ended it is in the results: its output, at its time, in the last row.
    CHECK(summary["final_values"]["f.steps"] == 4);
    CHECK(summary["statistics"]["last_time"].get<double>() == doctest::Approx(0.4).epsilon(1e-9));
    const std::string csv = read_text(tmp.path() / ("out_" + method) / "results.csv");
    const auto last_line = csv.substr(csv.rfind('\n', csv.size() - 2) + 1);
    CHECK(std::stod(last_line) == doctest::Approx(0.4).epsilon(1e-9));
    CHECK(last_line.substr(last_line.find(',') + 1) == "4\n");
  }
}

// Issue 38, point 14: the rows of a communication point sat at t_k + δ
// (1.1000000000433152): the point was bracketed by the zero crossing's bisection. It is a
// time event now, and every method ends a step on it.
TEST_CASE("the rows of a communication point sit at t_k to the bit, with every method") {
  TempDir tmp;
  const auto fmu = gain_counter_fmu(tmp.path());
  for (std::string method : {"rk4", "dopri5", "bdf", "adams"}) {
    CAPTURE(method);
    const RunResult r = run_fmu(R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" + quoted(fmu) +
                                R"(, "communication_step": 0.1}}}, "connections": [],
        "solver": {"method": ")" + method + R"(", "t_end": 2, "output_interval": 0.03}, "record": ["f.steps"]})");
    REQUIRE(r.finished);
    const auto t = r.column("time"), steps = r.column("f.steps");
    int changes = 0;
    for (size_t i = 1; i < t.size(); ++i) {
      if (steps[i] == steps[i - 1]) continue;
      ++changes;
      // t_k as the component counts it, t_0 + k h (FMI's communication points).
      CHECK(t[i] == 0.0 + steps[i] * 0.1);
      CHECK(t[i - 1] == t[i]);  // the row before the step, at the same instant
    }
    CHECK(changes == 20);
  }
}

TEST_CASE("the FMU's unpacked copy is removed with the model") {
  TempDir tmp, temporary;
  const auto fmu = gain_counter_fmu(tmp.path());
  // The system's temporary folder is this test's for a while (restored whatever happens).
  struct TemporaryFolderIs {
    explicit TemporaryFolderIs(const std::filesystem::path& p) {
      if (const char* v = std::getenv("TMPDIR")) saved = v;
      setenv("TMPDIR", p.c_str(), 1);
    }
    ~TemporaryFolderIs() {
      if (saved) setenv("TMPDIR", saved->c_str(), 1);
      else unsetenv("TMPDIR");
    }
    std::optional<std::string> saved;
  } scope(temporary.path());
  auto entries = [&] { return std::distance(std::filesystem::directory_iterator(temporary.path()), {}); };
  {
    Netlist n = load_fmu(R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" + quoted(fmu) +
                     R"(}}}, "connections": [], "solver": {"method": "rk4", "t_end": 0.5}})");
    CHECK(entries() == 1);  // one unpacked copy per model
    RunOptions o;
    CHECK(run_netlist(n, o).finished);
  }
  CHECK(entries() == 0);
}

TEST_CASE("each Context has its own instance of the FMU; a copy continues the run exactly") {
  TempDir tmp;
  const Netlist n = load_fmu(R"({"components": {"msd": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                         quoted(oscillator_fmu()) + R"(, "communication_step": 0.01}}}, "connections": []})");
  const Model& m = n.model;
  struct Last final : Observer {
    void output(const Context&) override {}
  } none;
  auto advance = [&](Context& ctx, double to) {
    SolverSettings s;
    s.method = "rk4";
    s.t_start = ctx.t;
    s.t_end = to;
    s.output_interval = 0.01;
    SolverStats stats;
    simulate(m, ctx, s, none, stats);
  };
  const auto& held = m.recordable("msd.mass_x");
  SUBCASE("a copy made mid-run (fmi2GetFMUstate, fmi2SetFMUstate) and the original go on alike") {
    Context ctx = m.make_context(0.0);
    m.initialize(ctx);
    advance(ctx, 0.5);
    Context copy = ctx;
    CHECK(copy.component_workspaces.uncopied() == 0);
    advance(ctx, 1.0);
    advance(copy, 1.0);
    CHECK(m.value(copy, held) == m.value(ctx, held));
    CHECK(m.value(ctx, held) != 0.1);
  }
  SUBCASE("two contexts in two threads, each with its instance") {
    std::vector<double> results(2);
    auto run_one = [&](int k) {
      Context ctx = m.make_context(0.0);
      m.initialize(ctx);
      advance(ctx, 1.0);
      results[k] = m.value(ctx, held);
    };
    std::thread a(run_one, 0), b(run_one, 1);
    a.join();
    b.join();
    Context alone = m.make_context(0.0);
    m.initialize(alone);
    advance(alone, 1.0);
    CHECK(results[0] == m.value(alone, held));
    CHECK(results[1] == m.value(alone, held));
  }
  SUBCASE("an FMU that allows one instance per process: each run loads a copy of its own") {
    // gain_counter counts the instances alive in its loaded binary (output "instances").
    std::string description = read_text(kHere / "gain_counter.xml");
    auto instances_seen = [&](const std::string& xml, const std::string& isolation) {
      TempDir own;
      const Netlist g = load_fmu(R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                             quoted(gain_counter_fmu(own.path(), xml)) + R"(, "isolation": ")" + isolation +
                             R"("}}}, "connections": []})");
      const auto& instances = g.model.recordable("f.instances");
      Context a = g.model.make_context(0.0), b = g.model.make_context(0.0);
      g.model.initialize(a);
      g.model.initialize(b);
      g.model.initialize(a);  // again, now that b's instance is alive too
      return std::make_pair(g.model.value(a, instances), g.model.value(b, instances));
    };
    CHECK(instances_seen(description, "none") == std::make_pair(2.0, 2.0));  // one binary, two instances
    CHECK(instances_seen(description, "process") == std::make_pair(1.0, 1.0));  // a process for each
    description.replace(description.find("canGetAndSetFMUstate"), 0, "canBeInstantiatedOnlyOncePerProcess=\"true\" ");
    CHECK(instances_seen(description, "none") == std::make_pair(1.0, 1.0));  // two binaries
    CHECK(instances_seen(description, "process") == std::make_pair(1.0, 1.0));
  }
  SUBCASE("an FMU that cannot save its state: the copy says so when it needs the instance") {
    const auto counter = gain_counter_fmu(tmp.path());
    const Netlist g = load_fmu(R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" + quoted(counter) +
                           R"(}}}, "connections": []})");
    Context ctx = g.model.make_context(0.0);
    g.model.initialize(ctx);
    Context copy = ctx;
    CHECK(copy.component_workspaces.uncopied() == 1);
    SolverSettings s;
    s.method = "rk4";
    s.t_end = 0.5;
    SolverStats stats;
    CHECK_THROWS_WITH_AS(simulate(g.model, copy, s, none, stats), doctest::Contains("canGetAndSetFMUstate is false"),
                         SimulationError);
  }
}

// Issue 40, point 6: an FMU that crashed inside fmi2DoStep took Jourdain with it (summary.json
// empty, /tmp/jourdain-fmu-* left behind); one that called exit(0) made jourdain exit 0 with
// the rows cut; one that hung could be stopped only by killing jourdain. With isolation
// "process" (the default) each is a failed run: exit 1, its rows and summary kept, the FMU's
// fate named, the temporary folders gone.
TEST_CASE("an FMU that crashes, exits or hangs in fmi2DoStep fails the run, which keeps its rows") {
  TempDir tmp;
  const auto fmu = gain_counter_fmu(tmp.path());
  struct Case {
    std::string parameter, said;
  };
  for (const Case& c : {Case{R"("crash_at_step": 4)", "killed by signal 11, Segmentation fault"},
                        Case{R"("exit_at_step": 4)", "with exit status 0, as when the FMU calls exit()"},
                        Case{R"("hang_at_step": 4, "call_timeout": "300 ms")", "fmi2DoStep did not return within 0.3 s"}}) {
    CAPTURE(c.parameter);
    const auto scratch = tmp.path() / "tmp";  // the run's temporary folders go here
    std::filesystem::create_directories(scratch);
    write_text(tmp.path() / "net.json", R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                                            quoted(fmu) + ", " + c.parameter + R"(}}}, "connections": [],
        "solver": {"method": "rk4", "t_end": 1, "output_interval": 0.05}, "record": ["f.steps"]})");
    const auto out = tmp.path() / "out";
    std::filesystem::remove_all(out);
    // Under AddressSanitizer (CI's sanitize stage) its own SEGV handler and leak check would
    // turn the FMU's crash and exit into an abort: the FMU's process is left to die as it
    // would without it.
    const CommandResult r = run_command("TMPDIR=" + shell_quote(scratch) +
                                        " ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:handle_segv=0:detect_leaks=0\" " +
                                        shell_quote(jourdain_exe()) + " run " +
                                        shell_quote(tmp.path() / "net.json") + " -o " + shell_quote(out) +
                                        " --no-report --allow-plugins --allow-any-path");
    CAPTURE(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("fmi2DoStep(t = 0.3 s, h = 0.1 s) returned fmi2Fatal") != std::string::npos);
    CHECK(r.output.find(c.said) != std::string::npos);
    const auto summary = nlohmann::json::parse(read_text(out / "summary.json"));
    CHECK(summary["status"] == "failed");
    CHECK(summary["failure"]["message"].get<std::string>().find(c.said) != std::string::npos);
    CHECK(summary["failure"]["time"].get<double>() == doctest::Approx(0.4).epsilon(1e-12));
    // The rows up to the failure: t = 0, 0.05, ..., 0.35 and the failure's instant.
    CHECK(summary["rows"].get<int>() >= 8);
    CHECK(std::filesystem::is_empty(scratch));
  }
}

TEST_CASE("a Ctrl-C ends a run whose FMU hangs, at once") {
  TempDir tmp;
  const auto fmu = gain_counter_fmu(tmp.path());
  write_text(tmp.path() / "net.json", R"({"components": {"f": {"type": "fmi.cosimulation", "params": {"fmu": )" +
                                          quoted(fmu) + R"(, "hang_at_step": 2, "call_timeout": 0}}},
      "connections": [], "solver": {"method": "rk4", "t_end": 1}, "record": ["f.steps"]})");
  // No time limit on the call: only the signal can end it (a regression hangs this test
  // until ctest's own timeout).
  // --foreground: the signal to jourdain only (timeout sends it to its process group too,
  // and a second SIGINT ends jourdain at once, as it should).
  const CommandResult r = run_command("timeout --foreground --preserve-status -s INT 2 " + shell_quote(jourdain_exe()) + " run " +
                                      shell_quote(tmp.path() / "net.json") + " -o " + shell_quote(tmp.path() / "out") +
                                      " --no-report --allow-plugins --allow-any-path");
  CAPTURE(r.output);
  CHECK(r.exit_code == 130);
  CHECK(r.output.find("stopped during fmi2DoStep, as the run was asked to stop") != std::string::npos);
  const auto summary = nlohmann::json::parse(read_text(tmp.path() / "out" / "summary.json"));
  // Interrupted, as a run stopped between two steps is: the stop came from the user.
  CHECK(summary["status"] == "interrupted");
  CHECK(summary["failure"]["message"].get<std::string>().find("ended on the run's stop request") != std::string::npos);
  CHECK(summary["rows"].get<int>() >= 2);
}
