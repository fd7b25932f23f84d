// Parameter expressions of a netlist level: "$name" references and arithmetic on them
// (netlist_expression.hpp).
#include "netlist_expression.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <numbers>

namespace jourdain::netlist_levels {

using nlohmann::json;

bool is_name(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string list_of(const std::map<std::string, json>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += (s.empty() ? "" : ", ") + k;
  return s.empty() ? "(none)" : s;
}

namespace {

// Arithmetic over numbers and parameters: + − * / ^, parentheses, unary signs, sqrt(),
// sin(), cos() and pi. Enough to derive one parameter from others ("$L/$N"); anything
// more belongs in a composite component.
class Arithmetic {
 public:
  Arithmetic(const std::string& text, const std::map<std::string, json>& parameters, const InputLocation& where)
      : s_(text), parameters_(parameters), where_(where) {}
  double evaluate() {
    const double v = sum();
    skip();
    if (i_ != s_.size()) fail("unexpected '" + s_.substr(i_) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    // A long expression is shown by its start: the message must stay readable.
    const std::string shown = s_.size() <= 120 ? s_ : s_.substr(0, 100) + "… (" + std::to_string(s_.size()) + " characters)";
    throw InputError(where_, "cannot evaluate '" + shown + "': " + why);
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  double sum() {
    double v = product();
    for (;;) {
      if (eat('+')) v += product();
      else if (eat('-')) v -= product();
      else return v;
    }
  }
  double product() {
    double v = power();
    for (;;) {
      if (eat('*')) v *= power();
      else if (eat('/')) v /= power();
      else return v;
    }
  }
  double power() {
    const double base = unary();
    return eat('^') ? std::pow(base, power()) : base;  // right-associative
  }
  // Every level of nesting (parentheses, a function's argument, signs, powers) passes
  // through here: the depth is bounded so that no expression can exhaust the stack.
  double unary() {
    if (++depth_ > kMaxNesting) fail("nested more than " + std::to_string(kMaxNesting) + " levels deep");
    const double v = eat('-') ? -unary() : eat('+') ? unary() : primary();
    --depth_;
    return v;
  }
  std::string word() {
    const size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    return s_.substr(b, i_ - b);
  }
  double primary() {
    skip();
    if (eat('(')) {
      const double v = sum();
      if (!eat(')')) fail("missing ')'");
      return v;
    }
    if (eat('$')) {
      const std::string name = word();
      auto it = parameters_.find(name);
      if (it == parameters_.end()) fail("no parameter '" + name + "'; the parameters here are: " + list_of(parameters_));
      if (!it->second.is_number()) fail("parameter '" + name + "' is not a number");
      return it->second.get<double>();
    }
    if (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) {
      const std::string f = word();
      if (f == "pi") return std::numbers::pi;
      if (f != "sqrt" && f != "sin" && f != "cos") fail("unknown function '" + f + "' (sqrt, sin, cos, pi)");
      if (!eat('(')) fail("'" + f + "' needs an argument in parentheses");
      const double a = sum();
      if (!eat(')')) fail("missing ')'");
      return f == "sqrt" ? std::sqrt(a) : f == "sin" ? std::sin(a) : std::cos(a);
    }
    const char* begin = s_.c_str() + i_;
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    if (end == begin) fail(i_ < s_.size() ? "unexpected '" + s_.substr(i_) + "'" : "an operand is missing");
    i_ += static_cast<size_t>(end - begin);
    return v;
  }

  static constexpr int kMaxNesting = 64;
  const std::string& s_;
  const std::map<std::string, json>& parameters_;
  const InputLocation& where_;
  size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

json substitute(const json& value, const std::map<std::string, json>& parameters, const InputLocation& where) {
  if (value.is_array() || value.is_object()) {
    json out = value;
    for (auto& item : out) item = substitute(item, parameters, where);
    return out;
  }
  if (!value.is_string()) return value;
  const std::string& s = value.get_ref<const std::string&>();
  if (s.find('$') == std::string::npos) return value;
  // "$name" alone passes the value as it is (a number, a text, a table); anything else is arithmetic.
  if (s.size() > 1 && s[0] == '$' && is_name(s.substr(1))) {
    auto it = parameters.find(s.substr(1));
    if (it == parameters.end())
      throw InputError(where, "no parameter '" + s.substr(1) + "'; the parameters here are: " + list_of(parameters));
    return it->second;
  }
  return Arithmetic(s, parameters, where).evaluate();
}

}  // namespace jourdain::netlist_levels
