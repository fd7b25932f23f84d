// Linear analysis: the model linearized at an operating point,
//
//     δẋ = A δx + B δu,     δy = C δx + D δu,
//
// in the model's independent coordinates, with its eigenvalues, modes (natural frequency,
// damping, time constant, participation factors, mode shapes) and the frequency response
// of every input → output pair.
//
//  - The operating point: the initial state, the state a run reaches at a time t (the
//    netlist's solver integrates there), or an equilibrium ẋ = 0 found by Newton's method
//    from the initial state. Discrete states and zero-crossing functions are held at
//    their values there (events cannot happen in a linear model); the summary says so.
//  - Independent coordinates: where block solvers keep states on invariants h(t, x) = 0
//    (a mechanism's Φ = 0, Φ̇ = 0), the analysis works in the tangent space of that
//    manifold, δx = T δz with ∂h/∂x T = 0 (coordinate partitioning: δz are the states
//    left independent by a column-pivoted QR of ∂h/∂x, T expresses the dependent ones in
//    them). A has one row and column per independent state, so a four-bar has one mode
//    pair and nothing of Baumgarte's stabilization (which acts across the manifold, not
//    along it) enters its eigenvalues.
//  - Derivatives: central differences along each column of T, step
//    h_j = ε^(1/3) max(1, |z_j|) (truncation O(h²), round-off O(ε/h): about 1e-10 relative
//    for entries of the size of the state's own scale). Along the manifold the second-order
//    drift off the constraints is the same at ±h and cancels in the difference, so the
//    stabilization terms do not leak into A either.
//  - Inputs are numeric parameters ("valve_command.value", "load.force"): B and D are
//    the derivatives with respect to them, by the same central differences. Outputs are
//    any recordable variables ("load.x", "chamber.p").
//
// The solvers library sees only the assembled Model (block_solver.hpp's hooks).
#pragma once

#include <complex>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "jourdain/netlist.hpp"
#include "jourdain/recorder.hpp"
#include "jourdain/solvers/simulate.hpp"

namespace jourdain {

struct LinearSettings {
  enum class At { Equilibrium, Initial, Time };
  At at = At::Equilibrium;
  double time = 0.0;                // At::Time: when (s)
  std::vector<std::string> inputs;  // numeric parameters perturbed as inputs
  std::vector<std::string> outputs; // recordable variables
  double frequency_from = 0.0;      // Hz; 0: a decade below the slowest mode
  double frequency_to = 0.0;        // Hz; 0: a decade above the fastest mode
  int frequency_points = 200;       // log-spaced
};

// The netlist's "linear" object: {"at": "equilibrium" | "initial" | 2.5 | "2.5 s",
// "inputs": [...], "outputs": [...], "frequency": {"from": "0.1 Hz", "to": "1 kHz",
// "points": 200}}. Throws InputError naming the path.
LinearSettings linear_settings_from_json(const nlohmann::json& section, const InputLocation& where);
// Sets the frequency response's range to the ends given (nullopt: the one already there,
// 0 in it meaning automatic). A given end must be positive and finite, and "to" above
// "from" when both are set (a log-spaced range); otherwise InputError naming `from_where`
// or `to_where` (a JSON path, a command-line option).
void set_frequency_range(LinearSettings& settings, std::optional<double> from_hz, std::optional<double> to_hz,
                         const InputLocation& from_where, const InputLocation& to_where);
// Its JSON Schema (for `jourdain schema`).
nlohmann::json linear_settings_schema();
// "equilibrium", "initial", or a time ("2.5", "2.5 s", "250 ms"); throws InputError.
void parse_operating_point(const std::string& text, LinearSettings& settings, const InputLocation& where);

struct LinearMode {
  std::complex<double> eigenvalue;  // the one with Im ≥ 0 of a pair
  double natural_frequency = 0.0;   // |λ|, rad/s
  double damping_ratio = 0.0;       // −Re λ / |λ| (NaN when λ = 0)
  double time_constant = 0.0;       // −1 / Re λ, s (inf when Re λ = 0)
  bool oscillatory = false;         // a conjugate pair
  bool stable = false;              // Re λ < 0 (beyond the differentiation's accuracy)
  bool unstable = false;            // Re λ > 0 (likewise); neither: on the imaginary axis
  int column = 0;                   // its eigenvector's column in LinearModel::right
  std::vector<std::pair<int, double>> participation;  // (independent state, factor), largest first, Σ = 1
  Eigen::VectorXcd shape;           // over every state of the model, its largest participant = 1
};

struct LinearModel {
  // The operating point
  std::string at;              // "equilibrium", "initial", "time"
  double time = 0.0;
  double residual = 0.0;       // max |ẋ_j| / max(1, |x_j|) over the independent states
  Eigen::VectorXd x;           // every state there
  std::vector<std::string> frozen;  // what is held there: discrete states that can change, events
  std::vector<std::string> warnings;  // what the linear model cannot vouch for (near a singular pose)

  std::vector<std::string> state_names;      // every state of the model (Context::x order)
  std::vector<int> independent;              // the states of A, indices into x (ascending)
  std::vector<int> dependent;                // eliminated by invariants
  Eigen::MatrixXd basis;                     // T: δx = T δz (states × independent)
  std::vector<std::string> inputs, input_units, outputs, output_units;
  Eigen::MatrixXd A, B, C, D;

  Eigen::VectorXcd eigenvalues;  // every one, sorted by |λ| then Im
  Eigen::MatrixXcd right;        // right eigenvectors (columns), in the order of eigenvalues
  std::vector<LinearMode> modes; // one per real eigenvalue or conjugate pair, by |λ|
  std::string stability;         // "asymptotically stable", "marginally stable", "unstable"

  Eigen::VectorXd frequencies_hz;        // of the frequency response
  std::vector<Eigen::VectorXcd> response;  // per (output, input) pair, output-major: G(i 2π f)
};

// Brings ctx (initialized) to the operating point `settings` asks for: unchanged for
// At::Initial, integrated to settings.time with `solver` for At::Time, Newton's method on
// ẋ = 0 along the invariants for At::Equilibrium, and where Newton's method fails from the
// initial state, pseudo-transient continuation toward rest (linear_operating_point.cpp
// says which motion) finished by Newton's method. Throws SimulationError when no operating point is reached
// (no equilibrium: a message that says so), InputError for a bad time. `stop_requested`
// (when given) is asked at every step of the way; true ends the search with a
// SimulationError that says it was interrupted.
void reach_operating_point(const Model& model, Context& ctx, const LinearSettings& settings,
                           const SolverSettings& solver, const SolverRegistry& solvers, std::string* how = nullptr,
                           const std::function<bool()>& stop_requested = {});

// The linear model at ctx (evaluated at the operating point). Throws InputError for an
// unknown input or output, SimulationError when an evaluation fails or the operating point
// is a singular configuration of a mechanism (its constraints' Jacobian loses rank there:
// no linear model of it exists at that pose).
LinearModel linearize(const Model& model, const Context& ctx, const LinearSettings& settings);

// linear.json's object (report.html's "Linear analysis" section reads the same).
nlohmann::json to_json(const LinearModel& lm);
// linear.json, A.csv, B.csv, C.csv, D.csv, modes.csv and bode.csv (when there are
// pairs) in `dir`. Throws Error naming the file that cannot be written.
void write_linear_files(const LinearModel& lm, const std::filesystem::path& dir);

// The model at the operating point displaced along mode `mode`'s shape at `phase`
// (radians of its cycle), evaluated: for drawing the mode. The amplitude: the coordinate
// that moves most moves by 0.1 m or rad (mechanisms), else the largest participant by a
// tenth of its scale (max(1, |x|) in its SI unit).
Context mode_pose(const Model& model, const Context& operating_point, const LinearModel& lm, int mode, double phase);

struct LinearRunOptions {
  std::filesystem::path output_dir;  // results.csv, linear.json and the CSV files; empty: none
  std::vector<RowListener*> listeners;  // told of the operating point's row
  std::vector<std::pair<std::string, nlohmann::json>> parameters;  // as RunOptions::parameters
  const SolverRegistry* solvers = nullptr;  // null: the built-in methods
  // As RunOptions::stop_requested: asked on the way to the operating point; true ends the
  // analysis as "interrupted", its summary says so.
  std::function<bool()> stop_requested;
  // As RunOptions::started.
  std::function<void()> started;
};

struct LinearRunResult {
  bool finished = false;
  bool interrupted = false;  // stop_requested ended it
  std::string failure;
  LinearModel linear;
  Context operating_point;  // evaluated there (for mode_pose)
  nlohmann::json summary;   // summary.json's object
  long row_count = 0;       // results.csv's rows: the operating point's, or none
  std::vector<std::string> warnings;
};

// The linear analysis of a netlist: operating point, linearization, files (results.csv
// with the operating point's row, linear.json and the CSV files) and the summary's object
// (session::linearize writes summary.json from it, last). Like run_netlist: bad input
// throws InputError; a failure to reach the operating point or to evaluate, or a file
// that cannot be written, is returned (finished == false) with the summary saying so.
LinearRunResult run_linear(const Netlist& netlist, const LinearSettings& settings, const LinearRunOptions& options);

}  // namespace jourdain
