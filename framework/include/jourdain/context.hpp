// Everything that changes during a run lives here, never in the model or its
// components (STYLE.md 1): time, continuous and discrete states, port values,
// algebraic unknowns, observables and zero-crossing values. One built Model can serve
// many Contexts (sweeps, finite-difference Jacobians) at once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace jourdain {

struct EventRecord {
  double time = 0.0;
  std::string component;
  std::string description;
};

struct Context {
  double t = 0.0;
  Eigen::VectorXd x;           // continuous states
  Eigen::VectorXd xdot;        // their derivatives
  Eigen::VectorXd y;           // port output variables
  Eigen::VectorXd discrete;    // discrete states (modes, latched values)
  Eigen::VectorXd unknowns;    // algebraic unknowns declared by components
  Eigen::VectorXd residuals;   // their residuals
  Eigen::VectorXd observables; // computed variables offered for recording
  Eigen::VectorXd zero_crossings;
  std::vector<EventRecord> events;    // everything the components reported, in order
  std::vector<std::string> warnings;  // same, for warnings
  long algebraic_iterations = 0;      // Newton iterations spent in implicit blocks
  Eigen::VectorXd monitors;           // values offered by block solvers (block_solver.hpp)
  // What the run is doing: "dynamic" (time integration), "kinematic", "static".
  std::string analysis = "dynamic";
  // Per implicit block: scratch data its BlockSolver keeps between evaluations (a
  // factorization's symbolic analysis), created on first use. Shared between copies.
  std::vector<std::shared_ptr<void>> block_workspaces;
};

}  // namespace jourdain
