// Errors that reach the user, mapped to the command line's exit codes:
//   InputError      (exit 2) – the netlist or the command line is wrong; names the place.
//   SimulationError (exit 1) – the model is well-formed but the run cannot go on;
//                              names the time and the components involved.
//   OutputError     (exit 2 before a run, 1 during it) – a file cannot be written.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace jourdain {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where in the user's input something is wrong. Every field is optional; what() joins
// the ones that are known, e.g.
//   "netlists/x.json: /components/pump/params/displacement: component 'pump': ..."
struct InputLocation {
  std::string file;       // netlist path
  std::string json_path;  // JSON pointer, e.g. /components/pump/params/displacement
  std::string component;  // component instance name
  std::string port;       // port name
};

class InputError : public Error {
 public:
  InputError(InputLocation where, const std::string& message);
  const InputLocation& where() const { return where_; }
  const std::string& message() const { return message_; }
  // The same error, with a location filled in where it was still unknown.
  InputError located(const InputLocation& outer) const;

 private:
  static std::string compose(const InputLocation& where, const std::string& message);
  InputLocation where_;
  std::string message_;
};

class SimulationError : public Error {
 public:
  SimulationError(double time, std::vector<std::string> components, const std::string& message);
  double time() const { return time_; }
  const std::vector<std::string>& components() const { return components_; }
  const std::string& message() const { return message_; }

 private:
  double time_;
  std::vector<std::string> components_;
  std::string message_;
};

// A file Jourdain writes (results.csv, summary.json, report.html, ...) cannot be
// written: a full disk, a file size limit, a folder without write permission. Before a
// run starts the output folder is at fault (bad input, exit 2); once it runs, the run
// ends as failed (exit 1) and what was written stays. what() names the file.
class OutputError : public Error {
 public:
  OutputError(std::string file, const std::string& reason);
  const std::string& file() const { return file_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_;
  std::string reason_;
};

// Writes `text` to `file` whole, checking the open, every write and the close (a full
// disk may show only at the close); throws OutputError naming the file.
void write_text_file(const std::string& file, const std::string& text);

// Work its caller asked to stop: a signal while a netlist was loading
// (NetlistOverrides::stop_requested), or a component's own long work ended on the run's
// stop request (Eval::stop_requested; the run then ends as interrupted). Not a fault of
// the input.
class Stopped : public Error {
 public:
  using Error::Error;
};

// A NaN or infinity in a state, output or derivative. Explicit solvers may answer it
// by retrying a smaller step; when they cannot, it ends the run like any SimulationError.
class NonFiniteError : public SimulationError {
 public:
  using SimulationError::SimulationError;
};

}  // namespace jourdain
