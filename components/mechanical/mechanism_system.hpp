// The constraint assembly shared by every part of the mechanism solver (README.md in this
// folder): which bodies and constraints form the block, the rows of Φ with their names,
// and, evaluated at one Context, Φ, Φ̇ = Φ_q q̇ + Φ_t, γ (Φ̈ = Φ_q q̈ − γ) and the entries
// of Φ_q in body coordinates (README.md, "The equations"; seed 000's augmented
// system and seed 001's ν, γ). The mass matrix M = diag(m, m, I) per body is read from the
// bodies' parameters through an Eval on the Context at each use, never kept here.
//
// MechanismSystem is built once with the model and never changes (what it owns is the
// structure); SystemState holds what a Context's (t, q, q̇) makes of it, inside the
// block's Workspace, which lives in Context::block_workspaces.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "jourdain/model.hpp"
#include "planar.hpp"

namespace jourdain::mechanical {

class Formulation;

// One row of the constraints (an equation, an actuator's force or both; planar.hpp
// Constraint::is_equation/reacts), named once when the system is built: messages and
// rank diagnostics take the names from here.
struct RowInfo {
  int component = -1;          // index in Model::components()
  int constraint = -1;         // index in MechanismSystem::constraints()
  int local = 0;               // its equation number within the constraint
  std::string component_name;  // "hinge"
  std::string equation_name;   // "revolute 'hinge' (equation 2)" (Constraint::equation_name)
  int equation = -1;           // its index among the equations (rows of Φ_q), or −1
  int reaction = -1;           // its index among the multipliers (rows of Φ_r), or −1
};

struct BodyRef {
  int comp;  // index in Model::components()
  const Body* body;
};
struct PortRef {
  int body = -1;  // index in MechanismSystem::bodies(), or −1 for a ground point
  PortId port;    // the body's port
};
struct ConstraintRef {
  int comp;  // index in Model::components()
  const Constraint* constraint;
  int row;  // its first row
  PortRef ports[2];
};

// What one evaluation makes of the system at (t, q, q̇): n = 3 × bodies, m = equations.
// The kinematics of a constraint's ports (the second unused with one port).
struct PortKinematics {
  PointKinematics k[2];
};

struct SystemState {
  std::vector<ConstraintRows> rows;  // per constraint, in point coordinates
  std::vector<PortKinematics> points;  // per constraint, as its rows were evaluated (no accelerations)
  std::vector<Vec3> load;            // per body: applied forces about the mass centre (n/3)
  std::vector<Vec2> arms;            // per constraint port: A(θ)s' of its point (0: ground)
  std::vector<Vec2> turn;            // per body: (cos θ, sin θ), by publish_kinematics
  Eigen::VectorXd phi, phidot, gamma;  // m each: Φ, Φ̇, γ
  Eigen::VectorXd rhs, solution;       // n + m each: the mechanism solver's [Q; b] and [q̈; λ]
};

// Scratch a part of the solver keeps between evaluations of one run (a formulation's
// factorization, the singularity monitor's last samples): a type of its own, found in
// the Workspace by its owner.
struct FormulationScratch {
  virtual ~FormulationScratch() = default;
};

// The block's per-run data, in Context::block_workspaces (one per Context: copies of a
// Context start with none, so runs in several threads never share one).
struct Workspace {
  SystemState state;
  bool assembled = false;  // initialize() has assembled the mechanism
  double last_time = 0.0;  // time of the last assembly or analysis point
  // The accuracy warnings already given in this run (each is given once).
  bool jump_warned = false;      // a projection or kinematic step that may have changed branch
  bool singular_warned = false;  // a singular configuration passed with a formulation that cannot follow it

  // The scratch of `owner` (a Formulation, the singularity monitor), of type T, made on
  // first use. A block has a handful of owners: a linear search is the cheapest lookup.
  template <class T>
  T& scratch(const void* owner) {
    for (auto& [o, s] : scratch_)
      if (o == owner) return static_cast<T&>(*s);
    scratch_.emplace_back(owner, std::make_unique<T>());
    return static_cast<T&>(*scratch_.back().second);
  }

 private:
  std::vector<std::pair<const void*, std::unique_ptr<FormulationScratch>>> scratch_;
};

class MechanismSystem {
 public:
  // Finds the bodies, constraints and other members of the block and numbers the rows;
  // throws InputError naming the component for what a mechanism cannot be made of, and
  // lets `formulation` refuse the constraints it cannot take (Formulation::admit).
  MechanismSystem(const Model& model, const ScheduledStep& step, const Formulation& formulation);

  const std::vector<BodyRef>& bodies() const { return bodies_; }
  const std::vector<ConstraintRef>& constraints() const { return constraints_; }
  const std::vector<int>& others() const { return others_; }  // force elements in the loop
  int coordinates() const { return 3 * static_cast<int>(bodies_.size()); }  // n
  int equations() const { return static_cast<int>(eq_rows_.size()); }       // m: rows of Φ_q
  int reactions() const { return reactions_; }                              // rows of Φ_r
  // Whether some row is a servo equation or an actuator's force (Φ_r ≠ Φ_q).
  bool has_servo_rows() const { return servo_rows_; }

  const RowInfo& row(int r) const { return rows_[r]; }
  const RowInfo& equation(int eq) const { return rows_[eq_rows_[eq]]; }
  // The components that own the equations `eqs`, each once, in the order of constraints().
  std::vector<std::string> component_names(const std::vector<int>& eqs) const;
  // The equation names of `eqs`, joined by ", ".
  std::string equation_names(const std::vector<int>& eqs) const;

  // ---- evaluation at a Context

  SystemState make_state() const;
  // Every body's points' positions and velocities on its ports, and its (cos θ, sin θ)
  // into s.turn, computed once here for the rest of the evaluation. The points'
  // accelerations are the solve's to publish, once it has found them (Body::
  // publish_accelerations): nothing before reads them (joints' rows and force elements
  // depend on positions and velocities).
  void publish_kinematics(const Model& model, Context& ctx, SystemState& s) const;
  // Rows, Φ, Φ̇ and γ of every constraint at the kinematics publish_kinematics published
  // (every evaluation follows one).
  void evaluate(const Model& model, Context& ctx, SystemState& s) const;

  // Φ_q in body coordinates, entry by entry: emit(row, column, value) with the row of the
  // table (RowInfo; not the equation index) and column 3 × body + (0: x, 1: y, 2: θ). A
  // point Jacobian J_P maps through δr_P = δr + δθ ⊥s, δθ_P = δθ to [J0, J1, J2 − J0 s_y +
  // J1 s_x]. The order of the entries is fixed (sparse assembly sums duplicates in it).
  template <class Emit>
  void for_each_jacobian_entry(const SystemState& s, Emit&& emit) const {
    for (size_t k = 0; k < constraints_.size(); ++k) {
      const auto& c = constraints_[k];
      for (int i = 0; i < s.rows[k].count; ++i) {
        const ConstraintRow& r = s.rows[k].row[i];
        for (int p = 0; p < c.constraint->port_count(); ++p) {
          if (c.ports[p].body < 0) continue;
          const Vec2& arm = s.arms[2 * k + p];
          const int col = 3 * c.ports[p].body;
          const double j0 = r.J[3 * p], j1 = r.J[3 * p + 1], j2 = r.J[3 * p + 2];
          emit(c.row + i, col, j0);
          emit(c.row + i, col + 1, j1);
          emit(c.row + i, col + 2, j2 - j0 * arm.y() + j1 * arm.x());
        }
      }
    }
  }
  // Φ_q, dense (m × n): the equation rows.
  Eigen::MatrixXd dense_jacobian(const SystemState& s) const;
  // Body b's block of M = diag(m, m, I), from the Context's parameters.
  Vec3 mass(const Model& model, Context& ctx, int b) const;
  // The diagonal of M^{-1/2} (n): 1/√m, 1/√m, 1/√I per body.
  Eigen::VectorXd inverse_sqrt_mass(const Model& model, Context& ctx) const;

  // q and q̇ of all bodies (n), read and written through Evals in `phase`.
  Eigen::VectorXd positions(const Model& model, Context& ctx, Eval::Phase phase) const;
  void set_positions(const Model& model, Context& ctx, Eval::Phase phase, const Eigen::VectorXd& q) const;
  void add_to_positions(const Model& model, Context& ctx, Eval::Phase phase, const Eigen::VectorXd& dq) const;
  void add_to_velocities(const Model& model, Context& ctx, Eval::Phase phase, const Eigen::VectorXd& dv) const;

 private:
  std::vector<BodyRef> bodies_;
  std::vector<ConstraintRef> constraints_;
  std::vector<int> others_;
  std::vector<RowInfo> rows_;  // every row of every constraint, in order
  std::vector<int> eq_rows_;   // per equation: its row
  int reactions_ = 0;
  bool servo_rows_ = false;
};

// One mechanism block at one Context: what the solver's parts work on.
struct MechanismEval {
  const Model& model;
  const MechanismSystem& system;
  Context& ctx;
  Workspace& ws;

  void publish_kinematics() const { system.publish_kinematics(model, ctx, ws.state); }
  void evaluate() const { system.evaluate(model, ctx, ws.state); }
};

}  // namespace jourdain::mechanical
