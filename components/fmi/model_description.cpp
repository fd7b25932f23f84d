// Reading modelDescription.xml (FMI 2.0 section 2.2) with pugixml
// (jourdain/components/fmi.hpp).
#include <pugixml.hpp>

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <system_error>

#include "jourdain/components/fmi.hpp"

namespace jourdain::fmi {

namespace {

std::optional<double> number(const pugi::xml_node& node, const char* attribute) {
  const pugi::xml_attribute a = node.attribute(attribute);
  if (!a) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(a.value(), &end);
  if (end == a.value() || *end != '\0')
    throw FmuError(std::string("attribute ") + attribute + "=\"" + a.value() + "\" of <" + node.name() +
                   "> is not a number");
  return v;
}

bool flag(const pugi::xml_node& node, const char* attribute) { return node.attribute(attribute).as_bool(false); }

}  // namespace

const char* to_string(VariableType type) {
  switch (type) {
    case VariableType::Real: return "Real";
    case VariableType::Integer: return "Integer";
    case VariableType::Boolean: return "Boolean";
    case VariableType::String: return "String";
    case VariableType::Enumeration: return "Enumeration";
  }
  return "?";
}

const UnitDefinition* ModelDescription::unit(const std::string& name) const {
  for (const auto& u : units)
    if (u.name == name) return &u;
  return nullptr;
}

namespace {

// An integer from `low` to `high` written in decimal digits, with a '-' only where `low`
// is negative, and nothing else: "-1" and "2x" are no valueReference, not read as
// 4294967295 or 2. Empty when the text is no such integer.
std::optional<long long> whole_number(const std::string& text, long long low, long long high) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || (low >= 0 && text[0] == '-') || error != std::errc() || end != text.data() + text.size() ||
      value < low || value > high)
    return std::nullopt;
  return value;
}

// A valueReference: an unsigned 32-bit number.
unsigned int unsigned_attribute(const pugi::xml_attribute& a, const std::string& whose) {
  const auto value = whole_number(a.value(), 0, std::numeric_limits<unsigned int>::max());
  if (!value) throw FmuError(whose + " has the valueReference '" + a.value() + "', not an unsigned 32-bit integer");
  return static_cast<unsigned int>(*value);
}

// An exponent of a <BaseUnit>: at most 100 either way, the bound of Jourdain's units
// (framework/src/units.cpp); "-2147483648" would overflow where the unit is negated.
int exponent_attribute(const pugi::xml_node& base, const char* attribute, const std::string& unit) {
  const pugi::xml_attribute a = base.attribute(attribute);
  if (!a) return 0;
  const auto value = whole_number(a.value(), -100, 100);
  if (!value)
    throw FmuError("unit '" + unit + "' has the exponent " + attribute + "=\"" + a.value() +
                   "\", not an integer from -100 to 100");
  return static_cast<int>(*value);
}

// A start value must be one of its type, whole: "2abc" is no Real (strtod would read 2).
void check_start(const ScalarVariable& var) {
  const std::string& text = *var.start;
  const char* begin = text.c_str();
  char* end = nullptr;
  bool good = true;
  switch (var.type) {
    case VariableType::Real: std::strtod(begin, &end); good = end != begin && *end == '\0'; break;
    case VariableType::Integer:  // an fmi2Integer: 32 bits ("99999999999" would be cut short)
    case VariableType::Enumeration:
      good = whole_number(text, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()).has_value();
      break;
    case VariableType::Boolean: good = text == "true" || text == "false" || text == "1" || text == "0"; break;
    case VariableType::String: break;
  }
  if (!good)
    throw FmuError("variable '" + var.name + "' has the start value '" + text + "', which is no " + to_string(var.type));
}

}  // namespace

ModelDescription parse_model_description(const std::string& xml) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
  if (!parsed)
    throw FmuError(std::string("modelDescription.xml is not well-formed XML (") + parsed.description() +
                   " at byte " + std::to_string(parsed.offset) + ")");
  const pugi::xml_node root = doc.child("fmiModelDescription");
  if (!root) throw FmuError("modelDescription.xml has no <fmiModelDescription> root");

  ModelDescription md;
  md.fmi_version = root.attribute("fmiVersion").value();
  md.model_name = root.attribute("modelName").value();
  md.guid = root.attribute("guid").value();
  md.description = root.attribute("description").value();
  md.generation_tool = root.attribute("generationTool").value();
  if (const pugi::xml_node cs = root.child("CoSimulation")) {
    md.cosimulation = true;
    md.model_identifier = cs.attribute("modelIdentifier").value();
    md.can_handle_variable_communication_step_size = flag(cs, "canHandleVariableCommunicationStepSize");
    md.can_be_instantiated_only_once_per_process = flag(cs, "canBeInstantiatedOnlyOncePerProcess");
    md.can_get_and_set_fmu_state = flag(cs, "canGetAndSetFMUstate");
    md.needs_execution_tool = flag(cs, "needsExecutionTool");
  }
  if (const pugi::xml_node e = root.child("DefaultExperiment")) {
    md.start_time = number(e, "startTime");
    md.stop_time = number(e, "stopTime");
    md.tolerance = number(e, "tolerance");
    md.step_size = number(e, "stepSize");
  }
  for (const pugi::xml_node u : root.child("UnitDefinitions").children("Unit")) {
    UnitDefinition def;
    def.name = u.attribute("name").value();
    if (const pugi::xml_node base = u.child("BaseUnit")) {
      def.has_base_unit = true;
      static const char* names[] = {"kg", "m", "s", "A", "K", "mol", "cd", "rad"};
      for (int k = 0; k < 8; ++k) def.exponents[k] = exponent_attribute(base, names[k], def.name);
      def.factor = number(base, "factor").value_or(1.0);
      def.offset = number(base, "offset").value_or(0.0);
    }
    md.units.push_back(std::move(def));
  }
  // Units of the declared types (2.2.3), for variables that name a type and no unit.
  std::map<std::string, std::string> type_units;
  for (const pugi::xml_node t : root.child("TypeDefinitions").children("SimpleType"))
    if (const pugi::xml_node real = t.child("Real")) type_units[t.attribute("name").value()] = real.attribute("unit").value();

  for (const pugi::xml_node v : root.child("ModelVariables").children("ScalarVariable")) {
    ScalarVariable var;
    var.name = v.attribute("name").value();
    if (var.name.empty()) throw FmuError("a <ScalarVariable> has no name");
    if (!v.attribute("valueReference")) throw FmuError("variable '" + var.name + "' has no valueReference");
    var.value_reference = unsigned_attribute(v.attribute("valueReference"), "variable '" + var.name + "'");
    var.description = v.attribute("description").value();
    if (const char* c = v.attribute("causality").value(); *c) var.causality = c;
    if (const char* c = v.attribute("variability").value(); *c) var.variability = c;
    var.initial = v.attribute("initial").value();
    pugi::xml_node typed;
    static const std::pair<const char*, VariableType> kinds[] = {{"Real", VariableType::Real},
                                                                 {"Integer", VariableType::Integer},
                                                                 {"Boolean", VariableType::Boolean},
                                                                 {"String", VariableType::String},
                                                                 {"Enumeration", VariableType::Enumeration}};
    for (const auto& [element, type] : kinds)
      if (const pugi::xml_node n = v.child(element)) {
        typed = n;
        var.type = type;
      }
    if (!typed) throw FmuError("variable '" + var.name + "' has no type element (Real, Integer, Boolean, String, Enumeration)");
    if (const pugi::xml_attribute s = typed.attribute("start")) {
      var.start = s.value();
      check_start(var);
    }
    if (var.type == VariableType::Real) {
      var.unit = typed.attribute("unit").value();
      if (const std::string declared = typed.attribute("declaredType").value(); var.unit.empty() && !declared.empty())
        if (auto it = type_units.find(declared); it != type_units.end()) var.unit = it->second;
    }
    md.variables.push_back(std::move(var));
  }
  // Variables of one type that share a value reference are aliases of one value (FMI 2.0
  // section 2.2.7); an input is never an alias: what the importer sets would change an
  // output, or a parameter, behind its back.
  std::map<std::pair<VariableType, unsigned int>, const ScalarVariable*> by_reference;
  for (const ScalarVariable& var : md.variables) {
    const auto [it, fresh] = by_reference.try_emplace({var.type, var.value_reference}, &var);
    if (fresh) continue;
    const ScalarVariable& other = *it->second;
    if (var.causality == "input" || other.causality == "input")
      throw FmuError("variables '" + other.name + "' (" + other.causality + ") and '" + var.name + "' (" +
                     var.causality + ") share the " + to_string(var.type) + " valueReference " +
                     std::to_string(var.value_reference) + ": an input has no alias (FMI 2.0, section 2.2.7)");
  }
  return md;
}

}  // namespace jourdain::fmi
