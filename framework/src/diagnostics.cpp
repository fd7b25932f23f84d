// Diagnostics of a netlist check (diagnostics.hpp).
#include "jourdain/diagnostics.hpp"

#include <algorithm>

namespace jourdain {

std::string Diagnostic::text() const { return InputError(where, message).what(); }

void Diagnostics::add(const InputError& error, Severity severity) {
  items_.push_back({severity, error.where(), error.message(), suggestion_in(error.message()), 0, 0});
}

void Diagnostics::warn(const InputLocation& where, const std::string& message) {
  items_.push_back({Severity::Warning, where, message, suggestion_in(message), 0, 0});
}

bool Diagnostics::attempt(const std::function<void()>& step) {
  if (!keep_going_) {
    step();
    return true;
  }
  try {
    step();
    return true;
  } catch (const FatalInputError&) {
    throw;
  } catch (const InputError& e) {
    add(e);
    return false;
  }
}

std::size_t Diagnostics::error_count() const {
  return static_cast<std::size_t>(
      std::count_if(items_.begin(), items_.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

InputError Diagnostics::first_error() const {
  for (const auto& d : items_)
    if (d.severity == Severity::Error) return InputError(d.where, d.message);
  return InputError({}, "no error");
}

void Diagnostics::locate_lines(const std::string& file,
                               const std::function<std::pair<int, int>(const std::string&)>& position_of) {
  for (auto& d : items_) {
    if (d.line != 0 || d.where.file != file || d.where.json_path.empty() || d.where.json_path[0] != '/') continue;
    std::tie(d.line, d.column) = position_of(d.where.json_path);
  }
}

nlohmann::json Diagnostics::to_json() const {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& d : items_) {
    nlohmann::json item = {{"severity", d.severity == Severity::Error ? "error" : "warning"},
                           {"file", d.where.file},
                           {"path", d.where.json_path},
                           {"component", d.where.component},
                           {"port", d.where.port},
                           {"message", d.message},
                           {"text", d.text()},
                           {"suggestion", d.suggestion}};
    if (d.line > 0) {
      item["line"] = d.line;
      item["column"] = d.column;
    }
    list.push_back(std::move(item));
  }
  const std::size_t errors = error_count();
  return {{"errors", errors}, {"warnings", items_.size() - errors}, {"diagnostics", std::move(list)}};
}

std::string suggestion_in(const std::string& message) {
  const std::string phrase = "did you mean";
  const auto at = message.find(phrase);
  if (at == std::string::npos) return "";
  std::size_t i = at + phrase.size();
  while (i < message.size() && (message[i] == ' ' || message[i] == ':')) ++i;
  if (i < message.size() && message[i] == '\'') {
    const auto end = message.find('\'', i + 1);
    return end == std::string::npos ? "" : message.substr(i + 1, end - i - 1);
  }
  // "did you mean: a, b (…)": the first name of the list.
  const auto end = message.find_first_of(",; ()", i);
  return message.substr(i, end == std::string::npos ? std::string::npos : end - i);
}

}  // namespace jourdain
