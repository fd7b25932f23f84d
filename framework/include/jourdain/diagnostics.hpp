// Diagnostics: every problem a check of a netlist finds, rather than the first.
//
// Loading for a run stops at the first error (it throws InputError, as it always has).
// Checking for a person or a tool (`jourdain check`, an editor) goes on past errors where
// what follows does not depend on the faulty part: a component whose type is unknown is
// left out, and the connections, records and layout entries that name it are not
// reported again. Each diagnostic keeps the error's text unchanged, located by file,
// JSON path, component and port, and by line and column where the document knows them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "jourdain/errors.hpp"

namespace jourdain {

enum class Severity { Error, Warning };

// An error after which a check cannot go on: the file is no JSON, or the netlist stands
// for more components than the user allows. Diagnostics::attempt lets it through.
class FatalInputError : public InputError {
 public:
  using InputError::InputError;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  InputLocation where;
  std::string message;     // the text of the InputError a load would throw
  std::string suggestion;  // the name a "did you mean" proposes, or ""
  int line = 0, column = 0;  // in where.file, from 1; 0 when unknown

  // "file: /json/path: component 'x': message", as InputError::what() says it.
  std::string text() const;
};

class Diagnostics {
 public:
  // keep_going: record each error and let the loader go on (a check); otherwise the
  // first error is thrown as it is met (a load for a run).
  explicit Diagnostics(bool keep_going) : keep_going_(keep_going) {}

  bool keep_going() const { return keep_going_; }
  void add(const InputError& error, Severity severity = Severity::Error);
  void warn(const InputLocation& where, const std::string& message);

  // Runs `step`. An InputError it throws is recorded (and false returned) when going on,
  // rethrown otherwise. FatalInputError, Stopped and every other exception pass through.
  bool attempt(const std::function<void()>& step);

  const std::vector<Diagnostic>& all() const { return items_; }
  std::vector<Diagnostic>& all() { return items_; }
  std::size_t error_count() const;
  bool has_errors() const { return error_count() > 0; }
  // The first error as the InputError a load would have thrown. Requires has_errors().
  InputError first_error() const;

  // Sets line and column of the diagnostics located in `file`, from `position_of`
  // (a JSON path → {line, column}, {0, 0} when unknown).
  void locate_lines(const std::string& file,
                    const std::function<std::pair<int, int>(const std::string& json_path)>& position_of);

  // {"errors": N, "warnings": M, "diagnostics": [{severity, file, line, column, path,
  // component, port, message, suggestion}, ...]}: what `jourdain check --json` prints.
  nlohmann::json to_json() const;

 private:
  bool keep_going_;
  std::vector<Diagnostic> items_;
};

// The name a message's "did you mean" proposes (the first, when it lists several), or "".
// Every message of the project that proposes a name says "did you mean 'NAME'" or "did
// you mean: NAME, NAME".
std::string suggestion_in(const std::string& message);

}  // namespace jourdain
