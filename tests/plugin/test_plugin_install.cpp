// Installing Jourdain and writing a plugin against the installed package.
//
// Installs this build tree into a temporary prefix (`cmake --install`), configures and
// builds tests/plugin/example_plugin out of tree against it (find_package(Jourdain)
// through CMAKE_PREFIX_PATH), then runs the INSTALLED `jourdain` with the plugin on
// the example netlist: an undamped mass on a hardening cubic spring,
//   m x'' = -(k1 x + k3 x³),   x(0) = A, x'(0) = 0.
// Physics checked on the results:
//   - energy m v²/2 + k1 x²/2 + k3 x⁴/4 stays at its initial value;
//   - the amplitude stays A on both sides (the spring is symmetric);
//   - the period matches T = 4 ∫_0^{π/2} dθ / sqrt((k1 + k3 A² (1 + sin²θ)/2) / m),
//     the exact period integral (after x = A sin θ), computed here by quadrature;
//   - the spring's force and energy observables follow their formulas.
// The netlist form (the plugin named in "plugins", relative to the netlist) must give
// the same results.
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>

#include <nlohmann/json.hpp>

#include "jourdain/version.hpp"
#include "jourdain_test.hpp"

using namespace jourdain::test;
namespace fs = std::filesystem;

namespace {

// results.csv as columns by variable name ("mass.x"), units stripped from the header.
std::map<std::string, std::vector<double>> read_csv(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::vector<std::string> names;
  std::map<std::string, std::vector<double>> cols;
  if (!std::getline(in, line)) return cols;
  std::stringstream header(line);
  for (std::string cell; std::getline(header, cell, ',');) names.push_back(cell.substr(0, cell.find(" [")));
  while (std::getline(in, line)) {
    std::stringstream row(line);
    size_t k = 0;
    for (std::string cell; std::getline(row, cell, ','); ++k) cols[names.at(k)].push_back(std::stod(cell));
  }
  return cols;
}

// The example netlist's parameters (example_plugin/cubic_oscillator.json).
constexpr double kMass = 1.0, kK1 = 100.0, kK3 = 1e6, kAmplitude = 0.1;

// Exact period of m x'' = -(k1 x + k3 x³) from amplitude A, by composite Simpson on the
// smooth integrand obtained with x = A sin θ.
double exact_period(int intervals) {
  auto f = [](double th) {
    const double s = std::sin(th);
    return 1.0 / std::sqrt((kK1 + 0.5 * kK3 * kAmplitude * kAmplitude * (1.0 + s * s)) / kMass);
  };
  const double a = 0.0, b = std::numbers::pi / 2, h = (b - a) / intervals;
  double sum = f(a) + f(b);
  for (int i = 1; i < intervals; ++i) sum += (i % 2 ? 4.0 : 2.0) * f(a + i * h);
  return 4.0 * sum * h / 3.0;
}

// Everything the test cases share: done once, on first use.
struct Installed {
  TempDir tmp;
  fs::path prefix, build, plugin, jourdain, netlist, results;
  std::string failure;  // empty when every step worked
  std::string log;
};

const Installed& installed() {
  static Installed s = [] {
    Installed i;
    i.prefix = i.tmp.path() / "prefix";
    i.build = i.tmp.path() / "build";
    i.jourdain = i.prefix / JOURDAIN_INSTALL_BINDIR / "jourdain";
    i.plugin = i.build / "example_plugin.so";
    i.netlist = source_dir() / "tests" / "plugin" / "example_plugin" / "cubic_oscillator.json";
    i.results = i.tmp.path() / "out";
    const std::string cmake = shell_quote(JOURDAIN_CMAKE_COMMAND);
    const std::string config = JOURDAIN_BUILD_CONFIG;
    struct Step {
      std::string what, command;
    };
    const std::vector<Step> steps = {
        {"install", cmake + " --install " + shell_quote(JOURDAIN_BUILD_DIR) + " --prefix " + shell_quote(i.prefix) +
                        (config.empty() ? "" : " --config " + config)},
        // Only the installed prefix may provide Jourdain: no package registry.
        {"configure the plugin",
         cmake + " -S " + shell_quote(source_dir() / "tests" / "plugin" / "example_plugin") + " -B " + shell_quote(i.build) +
             " -G " + shell_quote(JOURDAIN_CMAKE_GENERATOR) + " -DCMAKE_CXX_COMPILER=" + shell_quote(JOURDAIN_CXX_COMPILER) +
             " -DCMAKE_BUILD_TYPE=" + (config.empty() ? std::string("Release") : config) +
             " -DCMAKE_PREFIX_PATH=" + shell_quote(i.prefix) + " -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"},
        {"build the plugin", cmake + " --build " + shell_quote(i.build)},
        {"run the installed jourdain with --plugin",
         "cd " + shell_quote(i.tmp.path()) + " && " + shell_quote(i.jourdain) + " run " + shell_quote(i.netlist) + " -o " +
             shell_quote(i.results) + " --plugin " + shell_quote(i.plugin)},
    };
    for (const auto& step : steps) {
      auto r = run_command(step.command);
      i.log += "$ " + step.command + "\n" + r.output + "\n";
      if (r.exit_code != 0) {
        i.failure = step.what + " failed (exit code " + std::to_string(r.exit_code) + "):\n" + i.log;
        break;
      }
    }
    return i;
  }();
  return s;
}

}  // namespace

TEST_CASE("cmake --install installs the headers, libraries, executable and CMake package") {
  const Installed& i = installed();
  INFO(i.log);
  REQUIRE_MESSAGE(i.failure.empty(), i.failure);
  const fs::path inc = i.prefix / JOURDAIN_INSTALL_INCLUDEDIR / "jourdain";
  const fs::path lib = i.prefix / JOURDAIN_INSTALL_LIBDIR;
  for (const char* h : {"plugin.hpp", "registry.hpp", "component.hpp", "components/domains.hpp", "version.hpp", "netlist.hpp",
                        "components/builtin.hpp", "solvers/run.hpp", "solvers/simulate.hpp"}) {
    INFO(h);
    CHECK(fs::is_regular_file(inc / h));
  }
  // version.hpp is the configured one, not the template.
  CHECK(read_text(inc / "version.hpp").find("\"" JOURDAIN_VERSION "\"") != std::string::npos);
  for (const char* l : {"libjourdain_framework.so", "libjourdain_components.so", "libjourdain_solvers.so"}) {
    INFO(l);
    CHECK(fs::exists(lib / l));
  }
  CHECK(fs::is_regular_file(i.jourdain));
  for (const char* f : {"JourdainConfig.cmake", "JourdainConfigVersion.cmake", "JourdainTargets.cmake"}) {
    INFO(f);
    CHECK(fs::is_regular_file(lib / "cmake" / "Jourdain" / f));
  }
  const std::string targets = read_text(lib / "cmake" / "Jourdain" / "JourdainTargets.cmake");
  for (const char* t : {"Jourdain::framework", "Jourdain::components", "Jourdain::solvers"}) {
    INFO(t);
    CHECK(targets.find(std::string("add_library(") + t) != std::string::npos);
  }
  // The plugin project found the installed package, not the build tree.
  const std::string cache = read_text(i.build / "CMakeCache.txt");
  CHECK(cache.find("Jourdain_DIR:PATH=" + (lib / "cmake" / "Jourdain").string()) != std::string::npos);
  // The installed executable runs on its own (finds its libraries by its RPATH).
  auto v = run_command(shell_quote(i.jourdain) + " --version");
  CHECK(v.exit_code == 0);
  CHECK(v.output.find(JOURDAIN_VERSION) != std::string::npos);
}

TEST_CASE("the out-of-tree plugin's cubic spring conserves energy and oscillates with the exact period") {
  const Installed& i = installed();
  INFO(i.log);
  REQUIRE_MESSAGE(i.failure.empty(), i.failure);
  auto c = read_csv(i.results / "results.csv");
  const auto& t = c["time"];
  const auto& x = c["mass.x"];
  const auto& v = c["mass.v"];
  REQUIRE(t.size() > 1000);
  REQUIRE(x.size() == t.size());
  REQUIRE(v.size() == t.size());
  REQUIRE(c["spring.force"].size() == t.size());
  REQUIRE(c["spring.energy"].size() == t.size());
  REQUIRE(c["wall.reaction"].size() == t.size());

  // Energy: initial k1 A²/2 + k3 A⁴/4 = 0.5 + 25 J, conserved by the (undamped) model.
  auto energy = [](double xx, double vv) {
    return 0.5 * kMass * vv * vv + 0.5 * kK1 * xx * xx + 0.25 * kK3 * xx * xx * xx * xx;
  };
  const double e0 = energy(kAmplitude, 0.0);
  CHECK(energy(x[0], v[0]) == doctest::Approx(e0).epsilon(1e-15));
  double worst = 0.0, x_max = -1.0, x_min = 1.0;
  for (size_t k = 0; k < t.size(); ++k) {
    worst = std::max(worst, std::abs(energy(x[k], v[k]) - e0) / e0);
    x_max = std::max(x_max, x[k]);
    x_min = std::min(x_min, x[k]);
    // The plugin's observables against their formulas (the spring runs from the wall at 0).
    const double f = kK1 * x[k] + kK3 * x[k] * x[k] * x[k];
    const double stored = 0.5 * kK1 * x[k] * x[k] + 0.25 * kK3 * std::pow(x[k], 4);
    CHECK(c["spring.force"][k] == doctest::Approx(f).epsilon(1e-12).scale(1e-9));
    CHECK(c["spring.energy"][k] == doctest::Approx(stored).epsilon(1e-12).scale(1e-9));
    CHECK(c["spring.elongation"][k] == doctest::Approx(x[k]).epsilon(1e-15).scale(1e-15));
    // The wall takes the spring's tension (it pulls the wall toward the mass).
    CHECK(c["wall.reaction"][k] == doctest::Approx(c["spring.force"][k]).epsilon(1e-12).scale(1e-9));
  }
  MESSAGE("largest relative energy error: " << worst);
  CHECK(worst < 1e-7);
  // Recorded every millisecond, the extremes are within (v_max dt)²-ish of ±A.
  CHECK(x_max == doctest::Approx(kAmplitude).epsilon(1e-3));
  CHECK(x_min == doctest::Approx(-kAmplitude).epsilon(1e-3));

  // Period from the downward zero crossings of x (linear interpolation there is very
  // accurate: x'' = 0 where x = 0).
  std::vector<double> crossings;
  for (size_t k = 1; k < t.size(); ++k)
    if (x[k - 1] > 0.0 && x[k] <= 0.0) crossings.push_back(t[k - 1] + (t[k] - t[k - 1]) * x[k - 1] / (x[k - 1] - x[k]));
  REQUIRE(crossings.size() >= 10);
  const double t_exact = exact_period(2000);
  CHECK(std::abs(t_exact - exact_period(1000)) < 1e-12 * t_exact);  // the quadrature has converged
  // Far from the linear period 2π sqrt(m / k1): the cubic term is really there.
  CHECK(t_exact < 0.2 * 2.0 * std::numbers::pi * std::sqrt(kMass / kK1));
  const double t_mean = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  MESSAGE("period: simulated " << t_mean << " s, exact " << t_exact << " s");
  CHECK(t_mean == doctest::Approx(t_exact).epsilon(1e-6).scale(0));  // relative
  for (size_t k = 1; k < crossings.size(); ++k)
    CHECK(crossings[k] - crossings[k - 1] == doctest::Approx(t_exact).epsilon(1e-5).scale(0));
  // First downward crossing a quarter period after the release from rest.
  CHECK(crossings.front() == doctest::Approx(0.25 * t_exact).epsilon(1e-5).scale(0));
}

TEST_CASE("a plugin named in the netlist's \"plugins\" list, relative to the netlist, gives the same run") {
  const Installed& i = installed();
  INFO(i.log);
  REQUIRE_MESSAGE(i.failure.empty(), i.failure);
  TempDir tmp;
  // The example netlist, moved into its own folder, naming the plugin by a relative path.
  fs::create_directories(tmp.path() / "case");
  nlohmann::json doc = nlohmann::json::parse(read_text(i.netlist));
  doc["plugins"] = {fs::relative(i.plugin, tmp.path() / "case").string()};
  CHECK(doc["plugins"][0].get<std::string>().rfind("..", 0) == 0);  // really relative
  const fs::path netlist = tmp.path() / "case" / "cubic_oscillator.json";
  {
    std::ofstream out(netlist);
    out << doc.dump(2);
  }
  // Run from / so that the path cannot be resolved against the working folder.
  auto r = run_command("cd / && " + shell_quote(i.jourdain) + " run --allow-plugins " + shell_quote(netlist) + " -o " +
                       shell_quote(tmp.path() / "out"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // Same plugin, same model, same solver: the very same numbers.
  CHECK(read_text(tmp.path() / "out" / "results.csv") == read_text(i.results / "results.csv"));

  // Without the plugin the netlist is bad input that names the unknown type.
  auto without = run_command(shell_quote(i.jourdain) + " run " + shell_quote(i.netlist) + " -o " + shell_quote(tmp.path() / "out2"));
  INFO(without.output);
  CHECK(without.exit_code == 2);
  CHECK(without.output.find("example.cubic_spring") != std::string::npos);
}

TEST_CASE("the installed jourdain describes the plugin's component") {
  const Installed& i = installed();
  INFO(i.log);
  REQUIRE_MESSAGE(i.failure.empty(), i.failure);
  auto d = run_command(shell_quote(i.jourdain) + " describe example.cubic_spring --json --plugin " + shell_quote(i.plugin));
  INFO(d.output);
  REQUIRE(d.exit_code == 0);
  for (const char* word : {"k1", "k3", "free_length", "N/m^3", "energy"}) {
    INFO(word);
    CHECK(d.output.find(word) != std::string::npos);
  }
  auto l = run_command(shell_quote(i.jourdain) + " list --plugin " + shell_quote(i.plugin));
  CHECK(l.exit_code == 0);
  CHECK(l.output.find("example.cubic_spring") != std::string::npos);
  CHECK(l.output.find(fs::canonical(i.plugin).string()) != std::string::npos);
}
