// modelDescription.xml of exported FMUs against FMI 2.0's rules: validated by xmllint
// against a schema written from the standard (fmi2_model_description.xsd: structure,
// enumerations, unique names and value references, units defined), and checked here for
// what a schema cannot say (causality, variability and initial together; the model
// structure's indices).
#include <pugixml.hpp>

#include <map>
#include <set>

#include "fmu_support.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

const std::filesystem::path kSchema = source_dir() / "tests" / "apps" / "fmu" / "fmi2_model_description.xsd";

CommandResult validate(const std::filesystem::path& xml) {
  return run_command("xmllint --noout --schema " + shell_quote(kSchema) + " " + shell_quote(xml));
}

// What breaks the rules of FMI 2.0 section 2.2.7 (the table of causality and variability,
// and which initial each allows) and 2.2.8 (the model structure), one line each.
std::vector<std::string> problems(const std::string& xml) {
  std::vector<std::string> out;
  pugi::xml_document doc;
  if (!doc.load_string(xml.c_str())) return {"not XML"};
  const pugi::xml_node root = doc.child("fmiModelDescription");
  // Allowed variabilities per causality (the standard's table: the combinations marked
  // as not allowed are left out).
  const std::map<std::string, std::set<std::string>> allowed = {
      {"parameter", {"fixed", "tunable"}},
      {"calculatedParameter", {"fixed", "tunable"}},
      {"input", {"discrete", "continuous"}},
      {"output", {"constant", "discrete", "continuous"}},
      {"local", {"constant", "fixed", "tunable", "discrete", "continuous"}},
      {"independent", {"continuous"}}};
  std::vector<std::string> causalities;
  std::map<std::string, std::set<unsigned>> references;  // per type
  std::set<std::string> units;
  for (const pugi::xml_node u : root.child("UnitDefinitions").children("Unit")) units.insert(u.attribute("name").value());
  for (const pugi::xml_node v : root.child("ModelVariables").children("ScalarVariable")) {
    const std::string name = v.attribute("name").value();
    const std::string causality = v.attribute("causality") ? v.attribute("causality").value() : "local";
    const std::string variability = v.attribute("variability") ? v.attribute("variability").value() : "continuous";
    const std::string initial = v.attribute("initial").value();
    causalities.push_back(causality);
    const pugi::xml_node type = v.first_child();
    const bool has_start = type.attribute("start");
    if (!allowed.count(causality) || !allowed.at(causality).count(variability))
      out.push_back(name + ": causality " + causality + " with variability " + variability);
    if (variability == "continuous" && std::string(type.name()) != "Real")
      out.push_back(name + ": only a Real is continuous");
    if (!references[type.name()].insert(v.attribute("valueReference").as_uint()).second)
      out.push_back(name + ": value reference taken");
    if (const char* unit = type.attribute("unit").value(); *unit && !units.count(unit))
      out.push_back(name + ": unit '" + unit + "' not defined");
    // initial: parameters exact; inputs and the independent variable none; calculated
    // values carry no start, exact and approx ones do; inputs need one.
    if (causality == "parameter" && !initial.empty() && initial != "exact") out.push_back(name + ": a parameter is exact");
    if ((causality == "input" || causality == "independent") && !initial.empty())
      out.push_back(name + ": an " + causality + " has no initial");
    if (causality == "input" && !has_start) out.push_back(name + ": an input needs a start value");
    if (causality == "parameter" && !has_start) out.push_back(name + ": a parameter needs a start value");
    if (initial == "calculated" && has_start) out.push_back(name + ": a calculated value has no start");
    if ((initial == "exact" || initial == "approx") && !has_start) out.push_back(name + ": " + initial + " needs a start");
  }
  // The outputs, listed by their index from 1, every one of them and nothing else; each
  // calculated output among the initial unknowns.
  std::set<size_t> listed;
  for (const pugi::xml_node u : root.child("ModelStructure").child("Outputs").children("Unknown")) {
    const size_t index = u.attribute("index").as_uint();
    if (index < 1 || index > causalities.size() || causalities[index - 1] != "output")
      out.push_back("ModelStructure/Outputs: index " + std::to_string(index) + " is no output");
    listed.insert(index);
  }
  std::set<size_t> initial_unknowns;
  for (const pugi::xml_node u : root.child("ModelStructure").child("InitialUnknowns").children("Unknown"))
    initial_unknowns.insert(u.attribute("index").as_uint());
  for (size_t k = 0; k < causalities.size(); ++k) {
    if (causalities[k] != "output") continue;
    if (!listed.count(k + 1)) out.push_back("output " + std::to_string(k + 1) + " missing from ModelStructure/Outputs");
    if (!initial_unknowns.count(k + 1)) out.push_back("output " + std::to_string(k + 1) + " missing from InitialUnknowns");
  }
  return out;
}

std::string exported_description(const std::filesystem::path& netlist, fmu::ExportOptions options,
                                 const TempDir& tmp) {
  const auto fmu = tmp.path() / (netlist.stem().string() + ".fmu");
  // These tests read the XML only: a stand-in for the binary spares zipping it (tens of MB
  // in the sanitizer builds).
  options.runtime = tmp.path() / "binary.so";
  write_text(options.runtime, "a stand-in for the FMU's binary");
  export_netlist(netlist, fmu, options);
  return fmi::read_zip_entry(fmu, "modelDescription.xml");
}

}  // namespace

TEST_CASE("exported model descriptions keep FMI 2.0's rules") {
  TempDir tmp;
  fmu::ExportOptions servo, oscillator, driven;
  servo.outputs = {"load.x", "load.v", "supply.pressure", "pump.flow", "pi.command"};
  servo.parameters = {"all"};  // every numeric parameter: units of many kinds
  oscillator.outputs = {"mass.x", "spring.force"};
  oscillator.inputs = {"damper.damping"};  // a numeric parameter as an input
  oscillator.parameters = {"spring.stiffness"};
  const std::vector<std::pair<std::filesystem::path, fmu::ExportOptions>> cases = {
      {netlist_path("position_servo"), servo},
      {netlist_path("mass_spring_damper"), oscillator},
      {source_dir() / "tests" / "apps" / "fmu" / "driven_oscillator.json", driven}};
  for (const auto& exported : cases) {
    const std::filesystem::path& netlist = exported.first;
    CAPTURE(netlist);
    const std::string xml = exported_description(netlist, exported.second, tmp);
    write_text(tmp.path() / "modelDescription.xml", xml);
    const CommandResult r = validate(tmp.path() / "modelDescription.xml");
    CHECK_MESSAGE(r.exit_code == 0, r.output);
    const auto found = problems(xml);
    for (const auto& p : found) MESSAGE(p);
    CHECK(found.empty());
  }
  // Units are defined by their SI base units: the servo's pressure, flow, and a unit of rad.
  const std::string xml = fmi::read_zip_entry(tmp.path() / "position_servo.fmu", "modelDescription.xml");
  const auto md = fmi::parse_model_description(xml);
  const fmi::UnitDefinition* pa = md.unit("Pa");
  REQUIRE(pa);
  CHECK(pa->exponents == std::array<int, 8>{1, -1, -2, 0, 0, 0, 0, 0});  // kg m^-1 s^-2
  const fmi::UnitDefinition* flow = md.unit("m^3/s");
  REQUIRE(flow);
  CHECK(flow->exponents == std::array<int, 8>{0, 3, -1, 0, 0, 0, 0, 0});
  bool angular = false;
  for (const auto& u : md.units)
    if (u.name.find("rad") != std::string::npos) angular = u.exponents[7] != 0;
  CHECK(angular);  // the pump's speed in rad/s
}

TEST_CASE("the schema and the checks catch what breaks the rules") {
  TempDir tmp;
  fmu::ExportOptions options;
  options.outputs = {"mass.x"};
  options.parameters = {"spring.stiffness"};
  const std::string good = exported_description(netlist_path("mass_spring_damper"), options, tmp);
  auto broken = [&](const std::string& from, const std::string& to) {
    std::string xml = good;
    const auto at = xml.find(from);
    REQUIRE(at != std::string::npos);
    return xml.replace(at, from.size(), to);
  };
  auto schema_refuses = [&](const std::string& xml, const std::string& what) {
    write_text(tmp.path() / "bad.xml", xml);
    const CommandResult r = validate(tmp.path() / "bad.xml");
    CHECK(r.exit_code != 0);
    CHECK_MESSAGE(r.output.find(what) != std::string::npos, r.output);
  };
  write_text(tmp.path() / "good.xml", good);
  REQUIRE(validate(tmp.path() / "good.xml").exit_code == 0);
  schema_refuses(broken("valueReference=\"1\"", "valueReference=\"0\""), "valueReference");
  schema_refuses(broken("unit=\"N/m\"", "unit=\"N/mm\""), "unitUsed");
  schema_refuses(broken("fmiVersion=\"2.0\"", "fmiVersion=\"1.0\""), "fmiVersion");
  schema_refuses(broken("causality=\"parameter\"", "causality=\"setting\""), "causality");
  CHECK_FALSE(problems(broken("variability=\"tunable\"", "variability=\"continuous\"")).empty());
  CHECK_FALSE(problems(broken("initial=\"exact\"", "initial=\"calculated\"")).empty());
  CHECK_FALSE(problems(broken("<Unknown index=\"2\"", "<Unknown index=\"1\"")).empty());
}
