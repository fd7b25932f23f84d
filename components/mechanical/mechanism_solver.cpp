// The mechanism's block solver: bodies, joints and drivers that form one implicit block
// of the schedule are solved together as the stabilized KKT system of DESIGN.md §3,
//
//     [ M    Φ_qᵀ ] [ q̈ ]   [ Q                              ]
//     [ Φ_q  0    ] [ λ  ] = [ γ − 2α(Φ_q q̇ + Φ_t) − β² Φ ],
//
// assembled sparsely from the constraints' point Jacobians (planar.hpp) and factorized by
// Eigen's SparseLU, whose symbolic analysis is kept for the run: the cost grows linearly
// with the number of bodies on chains and trees. It also carries out what needs the
// mechanism as a whole: assembly (Newton, minimum-norm steps) and velocity projection
// before a run, projection after accepted steps (seed 002's direct elimination:
// q ← q − Φ_q⁺Φ, q̇ ← q̇ − Φ_q⁺Φ̇), the kinematic analysis (positions by Newton,
// velocities from Φ_q q̇ = −Φ_t, accelerations and multipliers from the KKT system), the
// static analysis, and the rank analysis that names redundant constraints and finds the
// degrees of freedom.
//
// With world.constraints.formulation = "udwadia_kalaba" a dynamic analysis finds q̈ by the
// Udwadia–Kalaba equation instead (seed 002, eqs. (4)–(5)): with a = M⁻¹Q, A = Φ_q and
// b = γ − 2αΦ̇ − β²Φ,
//
//     q̈ = a + M^{-1/2} (A M^{-1/2})⁺ (b − A a),   Q_c = M^{1/2} (A M^{-1/2})⁺ (b − A a),
//
// dense, with the Moore–Penrose inverse from a complete orthogonal decomposition: it needs
// no full rank, so redundant constraints give the same motion and minimum-norm multipliers.
// The minimum-norm corrections (assembly, projection) take the metric of
// world.constraints.projection_metric: Euclidean, δ = Φ_q⁺ r (seed 002, eqs. (17)–(18)),
// or the mass, δ = M⁻¹Φ_qᵀ(Φ_q M⁻¹Φ_qᵀ)⁻¹ r, the δ of least kinetic measure δᵀMδ.
#include <algorithm>
#include <cmath>
#include <sstream>

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include "jourdain/model.hpp"
#include "planar.hpp"

namespace jourdain::mechanical {

namespace {

using Triplets = std::vector<Eigen::Triplet<double>>;
using SparseMatrix = Eigen::SparseMatrix<double>;

struct Workspace {
  SparseMatrix kkt, augmented;
  Eigen::SparseLU<SparseMatrix> kkt_lu, augmented_lu;
  bool kkt_analyzed = false, augmented_analyzed = false;
  Triplets triplets;
  std::vector<ConstraintRows> rows;  // per constraint, at the last evaluation
  std::vector<Vec3> load;            // per body: applied forces about the mass centre
  std::vector<Vec2> arms;            // per constraint port: A(θ)s' of its point (0: fixed)
  Eigen::VectorXd phi, phidot, gamma;
  bool assembled = false;
  double last_time = 0.0;
};

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

class MechanismSolver final : public BlockSolver {
 public:
  MechanismSolver(const Model& model, const ScheduledStep& step, int block, int monitor_offset)
      : block_(block), monitor_offset_(monitor_offset), settings_(constraint_settings(model.world())) {
    const auto& comps = model.components();
    std::vector<int> body_of(comps.size(), -1);
    for (int c : step.components) {
      if (const auto* b = dynamic_cast<const Body*>(comps[c].get())) {
        body_of[c] = static_cast<int>(bodies_.size());
        bodies_.push_back({c, b});
      }
    }
    int row = 0;
    for (int c : step.components) {
      const Component* comp = comps[c].get();
      if (body_of[c] >= 0) continue;
      const auto* con = dynamic_cast<const Constraint*>(comp);
      if (!con) {
        if (!comp->unknowns().empty())
          throw InputError({model.world().file, "", comp->name(), ""},
                           "has algebraic unknowns but is in one loop with a mechanism, which cannot solve them");
        others_.push_back(c);
        continue;
      }
      ConstraintRef ref{c, con, row, {}};
      bool moves_something = false;
      for (int p = 0; p < con->port_count(); ++p) {
        const auto& peers = model.peers(c, con->port(p).index);
        // A response-side port has exactly one driver (checked when the model was built).
        const auto [peer, peer_port] = peers.front();
        if (body_of[peer] >= 0) {
          ref.ports[p] = {body_of[peer], PortId{peer_port}};
          moves_something = true;
        } else if (!dynamic_cast<const Ground*>(comps[peer].get())) {
          throw InputError({model.world().file, "", comp->name(), comp->ports()[con->port(p).index].name},
                           "must connect to a point of a body or of the ground, not to '" + comps[peer]->name() + "'");
        }
      }
      if (!moves_something)
        throw InputError({model.world().file, "", comp->name(), ""}, "connects no body: its ports are all on the ground");
      for (int i = 0; i < con->equation_count(); ++i) {
        // The Udwadia–Kalaba force is ideal, Q_c in the range of Φ_qᵀ: it has no room for
        // a servo row's motion imposed through another row's (an actuator's) force.
        if (settings_.udwadia_kalaba() && !(con->is_equation(i) && con->reacts(i)))
          throw InputError({model.world().file, "/world/constraints/formulation", comp->name(), ""},
                           std::string(con->is_equation(i) ? "is a servo driver" : "is an actuated joint") +
                               ": servo constraints need world.constraints.formulation = \"kkt\" (the "
                               "Udwadia-Kalaba equation gives ideal constraint forces only)");
        eq_index_.push_back(con->is_equation(i) ? equations_++ : -1);
        if (con->is_equation(i)) eq_rows_.push_back(row + i);
        react_index_.push_back(con->reacts(i) ? reactions_++ : -1);
      }
      row += con->equation_count();
      constraints_.push_back(ref);
    }
    if (reactions_ != equations_) {
      int servo = 0, actuators = 0;
      for (int r = 0; r < row; ++r) servo += eq_index_[r] >= 0 && react_index_[r] < 0, actuators += eq_index_[r] < 0;
      throw InputError({model.world().file, "", comps[step.components.front()]->name(), ""},
                       "the mechanism has " + std::to_string(servo) + " servo driver equation(s) but " +
                           std::to_string(actuators) + " actuated joint(s): each servo constraint needs an actuator "
                           "to impose it");
    }
    if (bodies_.empty())
      throw InputError({model.world().file, "", comps[step.components.front()]->name(), ""},
                       "is part of a mechanism without bodies");
    name_ = monitor_offset_ == 0 ? "mechanism" : "mechanism" + std::to_string(block_);
  }

  // ------------------------------------------------------------ BlockSolver hooks

  void solve(const Model& model, Context& ctx) const override {
    Workspace& ws = workspace(ctx);
    const bool dynamic = ctx.analysis == Analysis::Dynamic, stat = ctx.analysis == Analysis::Static;
    publish_kinematics(model, ctx);
    // Applied loads: everything but the constraints' reactions, which are the unknowns.
    for (const auto& c : constraints_) {
      Eval e = model.view(c.comp, ctx, Eval::Phase::Outputs);
      c.constraint->publish(e, ws.rows[&c - constraints_.data()], /*zero=*/true);
    }
    for (int o : others_) {
      Eval e = model.view(o, ctx, Eval::Phase::Outputs);
      model.components()[o]->calc_outputs(e);
    }
    for (size_t b = 0; b < bodies_.size(); ++b) {
      Eval e = model.view(bodies_[b].comp, ctx, Eval::Phase::Outputs);
      ws.load[b] = bodies_[b].body->applied_load(e);
    }
    evaluate_constraints(model, ctx, ws);

    const int n = 3 * static_cast<int>(bodies_.size()), m = equations_;
    Eigen::VectorXd rhs(n + m);
    for (size_t b = 0; b < bodies_.size(); ++b) rhs.segment<3>(3 * b) = ws.load[b];
    for (int i = 0; i < m; ++i) {
      double g = stat ? 0.0 : ws.gamma[i];
      if (dynamic) g -= 2.0 * settings_.alpha * ws.phidot[i] + settings_.beta * settings_.beta * ws.phi[i];
      rhs[n + i] = g;
    }
    const Eigen::VectorXd sol = dynamic && settings_.udwadia_kalaba() ? solve_udwadia_kalaba(model, ctx, ws, rhs)
                                                                      : solve_kkt(model, ctx, ws, rhs);
    ctx.algebraic_iterations += 1;

    for (size_t b = 0; b < bodies_.size(); ++b) {
      Eval e = model.view(bodies_[b].comp, ctx, Eval::Phase::Outputs);
      const Vec3 acc = sol.segment<3>(3 * b);
      bodies_[b].body->set_acceleration(e, acc);
      // Q_c = M q̈ − Q: in both formulations what the constraints apply (−Φ_rᵀλ).
      const double mass = bodies_[b].body->mass(e);
      const Vec3 m_acc{mass * acc[0], mass * acc[1], bodies_[b].body->inertia(e) * acc[2]};
      bodies_[b].body->set_constraint_force(e, m_acc - ws.load[b]);
      bodies_[b].body->calc_outputs(e);
    }
    for (size_t k = 0; k < constraints_.size(); ++k) {
      const auto& c = constraints_[k];
      Eval e = model.view(c.comp, ctx, Eval::Phase::Outputs);
      for (int i = 0; i < c.constraint->equation_count(); ++i) {
        const int col = react_index_[c.row + i];
        e.set_unknown(c.constraint->multiplier(i), col >= 0 ? sol[n + col] : 0.0);
      }
      c.constraint->publish(e, ws.rows[k]);
    }
    ctx.monitors[monitor_offset_] = ws.phi.norm();
    ctx.monitors[monitor_offset_ + 1] = ws.phidot.norm();
  }

  void initialize(const Model& model, Context& ctx) const override {
    Workspace& ws = workspace(ctx);
    if (ws.assembled && ctx.t == ws.last_time) return;  // a later pass of Model::initialize
    const int iterations = assemble(model, ctx, ws, Eval::Phase::Initialize, settings_.assembly_tolerance,
                                    "the mechanism cannot be assembled");
    const double dv = project_velocities(model, ctx, ws, Eval::Phase::Initialize);
    check_rank(model, ctx, ws, ctx.analysis == Analysis::Kinematic);
    std::ostringstream msg;
    msg.precision(3);
    msg << "assembled in " << iterations << " Newton iteration(s) to |Φ| = " << ws.phi.norm()
        << "; velocities projected (|Δq̇| = " << dv << ")";
    ctx.events.push_back({ctx.t, name_, msg.str()});
    if (ctx.analysis == Analysis::Static) equilibrium(model, ctx, ws, Eval::Phase::Initialize);
    ws.assembled = true;
    ws.last_time = ctx.t;
  }

  bool projects() const override { return settings_.projection; }

  bool project(const Model& model, Context& ctx) const override {
    Workspace& ws = workspace(ctx);
    publish_kinematics(model, ctx);
    evaluate_constraints(model, ctx, ws);
    const double before = ws.phi.lpNorm<Eigen::Infinity>(), rate = ws.phidot.lpNorm<Eigen::Infinity>();
    if (before <= settings_.projection_tolerance && rate <= settings_.projection_tolerance) return false;
    assemble(model, ctx, ws, Eval::Phase::Project, settings_.projection_tolerance, "the projection onto the constraints failed");
    project_velocities(model, ctx, ws, Eval::Phase::Project);
    return true;
  }

  bool supports(Analysis analysis) const override { return analysis == Analysis::Kinematic || analysis == Analysis::Static; }

  void analyze(const Model& model, Context& ctx) const override {
    Workspace& ws = workspace(ctx);
    const double dt = ctx.t - ws.last_time;
    if (ctx.analysis == Analysis::Kinematic) {
      // Start Newton from the Taylor extrapolation of the last point.
      for (const auto& b : bodies_) {
        Eval e = model.view(b.comp, ctx, Eval::Phase::Project);
        b.body->set_position(e, b.body->position(e) + dt * b.body->velocity(e) + 0.5 * dt * dt * b.body->acceleration(e));
      }
      assemble(model, ctx, ws, Eval::Phase::Project, settings_.assembly_tolerance, "the kinematic analysis lost the mechanism");
      check_rank(model, ctx, ws, true);
      project_velocities(model, ctx, ws, Eval::Phase::Project);
    } else {
      equilibrium(model, ctx, ws, Eval::Phase::Project);
    }
    ws.last_time = ctx.t;
  }

  std::vector<MonitorSpec> monitors() const override {
    return {{name_ + ".constraint_norm", ""}, {name_ + ".constraint_rate_norm", ""}};
  }

  std::string describe(const Model& model, const Context& ctx_in) const override {
    Context ctx = ctx_in;
    Workspace& ws = workspace(ctx);
    publish_kinematics(model, ctx);
    evaluate_constraints(model, ctx, ws);
    const int n = 3 * static_cast<int>(bodies_.size());
    const Eigen::MatrixXd J = dense_jacobian(ws);
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(J.transpose());
    qr.setThreshold(rank_threshold(J));
    const int rank = equations_ ? static_cast<int>(qr.rank()) : 0;
    std::ostringstream out;
    out << "Mechanism: " << bodies_.size() << " bodies, " << constraints_.size() << " joints and drivers ("
        << equations_ << " equations), " << others_.size() << " force elements in the loop\n"
        << "  Grübler count: 3 × " << bodies_.size() << " − " << equations_ << " = " << n - equations_ << "\n"
        << "  Jacobian rank at the assembled pose: " << rank << " → degrees of freedom: " << n - rank;
    if (rank < equations_) out << "; redundant: " << join(dependent_equations(J)) << "";
    out << "\n  Formulation: " << (settings_.udwadia_kalaba() ? "Udwadia-Kalaba" : "KKT") << "; Baumgarte α = "
        << settings_.alpha << ", β = " << settings_.beta << "; projection after steps: "
        << (settings_.projection ? "on" : "off") << " (metric: " << settings_.projection_metric
        << "); redundant constraints: " << (settings_.udwadia_kalaba() ? "minimum norm" : settings_.redundant) << "\n";
    return out.str();
  }

 private:
  struct BodyRef {
    int comp;
    const Body* body;
  };
  struct PortRef {
    int body = -1;  // index in bodies_, or −1 for a ground point
    PortId port;    // the body's port
  };
  struct ConstraintRef {
    int comp;
    const Constraint* constraint;
    int row;  // its first equation
    PortRef ports[2];
  };

  Workspace& workspace(Context& ctx) const {
    return ctx.block_workspaces.get<Workspace>(block_, [&] {
      auto ws = std::make_unique<Workspace>();
      ws->rows.resize(constraints_.size());
      ws->load.resize(bodies_.size());
      ws->arms.resize(2 * constraints_.size());
      return ws;
    });
  }

  void publish_kinematics(const Model& model, Context& ctx) const {
    for (const auto& b : bodies_) {
      Eval e = model.view(b.comp, ctx, Eval::Phase::Outputs);
      b.body->calc_outputs(e);
    }
  }

  // Rows, Φ, Φ̇ and γ (body-coordinate form) of every constraint at the published kinematics.
  void evaluate_constraints(const Model& model, Context& ctx, Workspace& ws) const {
    ws.phi.resize(equations_);
    ws.phidot.resize(equations_);
    ws.gamma.resize(equations_);
    for (size_t k = 0; k < constraints_.size(); ++k) {
      const auto& c = constraints_[k];
      Eval e = model.view(c.comp, ctx, Eval::Phase::Outputs);
      ConstraintRows& rows = ws.rows[k];
      PointKinematics points[2];
      c.constraint->rows_at(e, rows, points);
      Eigen::Matrix<double, 6, 1> vel = Eigen::Matrix<double, 6, 1>::Zero();
      double omega2[2] = {0, 0};
      for (int p = 0; p < c.constraint->port_count(); ++p) {
        const PointKinematics& kp = points[p];
        vel.segment<3>(3 * p) << kp.v, kp.omega;
        Vec2 arm{0, 0};
        if (c.ports[p].body >= 0) {
          Eval be = model.view(bodies_[c.ports[p].body].comp, ctx, Eval::Phase::Outputs);
          const Body& body = *bodies_[c.ports[p].body].body;
          arm = rotate(body.position(be)[2], body.offset(c.ports[p].port));
          omega2[p] = kp.omega * kp.omega;
        }
        ws.arms[2 * k + p] = arm;
      }
      for (int i = 0; i < rows.count; ++i) {
        const int eq = eq_index_[c.row + i];
        if (eq < 0) continue;  // an actuator's force: no equation
        const ConstraintRow& r = rows.row[i];
        ws.phi[eq] = r.phi;
        ws.phidot[eq] = r.J.dot(vel) + r.phi_t;
        // Φ̈ = J a_P + c with a_P = a + α⊥s − ω²s: the ω²s part moves to the right side.
        double g = -r.c;
        for (int p = 0; p < c.constraint->port_count(); ++p)
          g += omega2[p] * r.J.segment<2>(3 * p).dot(ws.arms[2 * k + p]);
        ws.gamma[eq] = g;
      }
    }
  }

  // Φ_q entries: a point Jacobian J_P maps to body coordinates through
  // δr_P = δr + δθ ⊥s, δθ_P = δθ:  [J0, J1, J2 − J0 s_y + J1 s_x].
  template <class Emit>
  void for_each_jacobian_entry(const Workspace& ws, Emit&& emit) const {
    for (size_t k = 0; k < constraints_.size(); ++k) {
      const auto& c = constraints_[k];
      for (int i = 0; i < ws.rows[k].count; ++i) {
        const ConstraintRow& r = ws.rows[k].row[i];
        for (int p = 0; p < c.constraint->port_count(); ++p) {
          if (c.ports[p].body < 0) continue;
          const Vec2& s = ws.arms[2 * k + p];
          const int col = 3 * c.ports[p].body;
          const double j0 = r.J[3 * p], j1 = r.J[3 * p + 1], j2 = r.J[3 * p + 2];
          emit(c.row + i, col, j0);
          emit(c.row + i, col + 1, j1);
          emit(c.row + i, col + 2, j2 - j0 * s.y() + j1 * s.x());
        }
      }
    }
  }

  // Φ_q: the equation rows.
  Eigen::MatrixXd dense_jacobian(const Workspace& ws) const {
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(equations_, 3 * static_cast<int>(bodies_.size()));
    for_each_jacobian_entry(ws, [&](int r, int c, double v) {
      if (eq_index_[r] >= 0) J(eq_index_[r], c) += v;
    });
    return J;
  }

  // Solves [W Φ_rᵀ; Φ_q 0] z = rhs, sparse, with W = M and Φ_r the rows that react (the
  // KKT system: Φ_r and Φ_q differ by servo and actuator rows), or Φ_r = Φ_q and W = I or
  // M (minimum-norm corrections in the Euclidean or the mass metric). A singular system is
  // diagnosed by name, or solved in the least-squares sense (complete orthogonal
  // decomposition) when the netlist allows it.
  Eigen::VectorXd solve_augmented(const Model& model, Context& ctx, Workspace& ws, bool kkt, bool with_mass,
                                  const Eigen::VectorXd& rhs) const {
    const int n = 3 * static_cast<int>(bodies_.size()), m = equations_;
    ws.triplets.clear();
    for (size_t b = 0; b < bodies_.size(); ++b) {
      const Eval e = model.view(bodies_[b].comp, ctx, Eval::Phase::Outputs);
      const double mass = with_mass ? bodies_[b].body->mass(e) : 1.0;
      const double inertia = with_mass ? bodies_[b].body->inertia(e) : 1.0;
      ws.triplets.emplace_back(3 * b, 3 * b, mass);
      ws.triplets.emplace_back(3 * b + 1, 3 * b + 1, mass);
      ws.triplets.emplace_back(3 * b + 2, 3 * b + 2, inertia);
    }
    for_each_jacobian_entry(ws, [&](int r, int c, double v) {
      const int eq = eq_index_[r], column = kkt ? react_index_[r] : eq;
      if (eq >= 0) ws.triplets.emplace_back(n + eq, c, v);
      if (column >= 0) ws.triplets.emplace_back(c, n + column, v);
    });
    // Both weights W give the same pattern: one symbolic analysis per kind of system.
    SparseMatrix& A = kkt ? ws.kkt : ws.augmented;
    auto& lu = kkt ? ws.kkt_lu : ws.augmented_lu;
    bool& analyzed = kkt ? ws.kkt_analyzed : ws.augmented_analyzed;
    A.resize(n + m, n + m);
    A.setFromTriplets(ws.triplets.begin(), ws.triplets.end());
    if (settings_.redundant == "least_squares") {
      return Eigen::MatrixXd(A).completeOrthogonalDecomposition().solve(rhs);
    }
    if (!analyzed) {
      lu.analyzePattern(A);
      analyzed = true;
    }
    lu.factorize(A);
    if (lu.info() != Eigen::Success) singular(model, ctx, ws);
    Eigen::VectorXd z = lu.solve(rhs);
    if (!z.allFinite()) singular(model, ctx, ws);
    return z;
  }

  Eigen::VectorXd solve_kkt(const Model& model, Context& ctx, Workspace& ws, const Eigen::VectorXd& rhs) const {
    return solve_augmented(model, ctx, ws, true, true, rhs);
  }

  // M^{-1/2}, the diagonal of the block-diagonal M = diag(m, m, I) of each body: n values.
  Eigen::VectorXd inverse_sqrt_mass(const Model& model, Context& ctx) const {
    Eigen::VectorXd d(3 * bodies_.size());
    for (size_t b = 0; b < bodies_.size(); ++b) {
      const Eval e = model.view(bodies_[b].comp, ctx, Eval::Phase::Outputs);
      const double m = 1.0 / std::sqrt(bodies_[b].body->mass(e));
      d.segment<3>(3 * b) << m, m, 1.0 / std::sqrt(bodies_[b].body->inertia(e));
    }
    return d;
  }

  // Singular values of A M^{-1/2} below this fraction of the largest count as zero (column
  // pivots of the QR stand for them). Rounding leaves a duplicated or dependent equation
  // ~1e-16 relative; a real mechanism is this ill-conditioned only within ~1e-10 of a
  // singular pose, where the pseudo-inverse then drops the direction rather than blow up.
  static constexpr double kPseudoInverseThreshold = 1e-10;

  // The rank-revealing factorization of B, for B⁺ (its solve() is B⁺ r).
  static Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> pseudo_inverse(const Eigen::MatrixXd& B) {
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
    cod.setThreshold(kPseudoInverseThreshold);
    cod.compute(B);
    return cod;
  }

  // Udwadia–Kalaba (seed 002, eqs. (4)–(5)): rhs = [Q; b] as for the KKT system, returns
  // [q̈; λ] in the same layout. With B = A M^{-1/2} (m × n) and x = B⁺(b − A a) (n),
  //   q̈ = a + M^{-1/2} x,  Q_c = M^{1/2} x.
  // x lies in the range of Bᵀ, so Bᵀμ = x has an exact solution, and then Φ_qᵀμ =
  // M^{1/2}x = Q_c; the minimum-norm one, μ = (Bᵀ)⁺x, is the minimum-norm multiplier set
  // (the KKT least-squares answer). The KKT sign (M q̈ + Φ_qᵀλ = Q) makes λ = −μ.
  Eigen::VectorXd solve_udwadia_kalaba(const Model& model, Context& ctx, const Workspace& ws,
                                       const Eigen::VectorXd& rhs) const {
    const int n = 3 * static_cast<int>(bodies_.size()), m = equations_;
    const Eigen::VectorXd d = inverse_sqrt_mass(model, ctx);
    Eigen::VectorXd sol(n + m);
    const Eigen::VectorXd a = d.cwiseProduct(d).cwiseProduct(rhs.head(n));  // M⁻¹Q
    if (m == 0) {
      sol.head(n) = a;
      return sol;
    }
    const Eigen::MatrixXd A = dense_jacobian(ws), B = A * d.asDiagonal();
    const Eigen::VectorXd x = pseudo_inverse(B).solve(rhs.tail(m) - A * a);
    sol.head(n) = a + d.cwiseProduct(x);
    sol.tail(m) = -pseudo_inverse(B.transpose()).solve(x);
    return sol;
  }

  // The δ of least norm with Φ_q δ = r: Euclidean (δ = Φ_q⁺ r) or in the mass metric
  // (δ = M⁻¹Φ_qᵀ(Φ_q M⁻¹Φ_qᵀ)⁻¹ r, the least δᵀMδ; the augmented system's first rows
  // W δ + Φ_qᵀμ = 0 give it). In the Udwadia–Kalaba formulation δ = D (Φ_q D)⁺ r with D = I
  // or M^{-1/2}, dense, so that redundant constraints need no special setting there either.
  Eigen::VectorXd minimum_norm(const Model& model, Context& ctx, Workspace& ws, const Eigen::VectorXd& r) const {
    const int n = 3 * static_cast<int>(bodies_.size());
    if (settings_.udwadia_kalaba()) {
      const Eigen::VectorXd d = settings_.mass_metric() ? inverse_sqrt_mass(model, ctx) : Eigen::VectorXd::Ones(n);
      return d.cwiseProduct(pseudo_inverse(dense_jacobian(ws) * d.asDiagonal()).solve(r));
    }
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + equations_);
    rhs.tail(equations_) = r;
    return solve_augmented(model, ctx, ws, false, settings_.mass_metric(), rhs).head(n);
  }

  static double rank_threshold(const Eigen::MatrixXd& J) {
    return 1e-9 * std::max(1.0, J.cwiseAbs().maxCoeff()) / std::max<Eigen::Index>(1, J.cols());
  }

  // Equations that depend on the others (column-pivoted QR of Φ_qᵀ: the columns left out
  // of the pivoted basis), named.
  std::vector<std::string> dependent_equations(const Eigen::MatrixXd& J) const {
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(J.transpose());
    qr.setThreshold(rank_threshold(J));
    std::vector<std::string> names;
    for (Eigen::Index k = qr.rank(); k < J.rows(); ++k) names.push_back(equation_name(eq_rows_[qr.colsPermutation().indices()[k]]));
    return names;
  }

  std::string equation_name(int row) const {
    for (const auto& c : constraints_)
      if (row >= c.row && row < c.row + c.constraint->equation_count()) return c.constraint->equation_name(row - c.row);
    return "?";
  }
  std::vector<std::string> constraint_names(const std::vector<std::string>& equations) const {
    std::vector<std::string> out;
    for (const auto& c : constraints_) {
      for (const auto& e : equations) {
        if (e.find("'" + c.constraint->name() + "'") != std::string::npos) {
          out.push_back(c.constraint->name());
          break;
        }
      }
    }
    return out;
  }

  [[noreturn]] void singular(const Model&, Context& ctx, Workspace& ws) const {
    const Eigen::MatrixXd J = dense_jacobian(ws);
    const auto dependent = dependent_equations(J);
    throw SimulationError(ctx.t, constraint_names(dependent),
                          "the constraint Jacobian is singular (" +
                              (dependent.empty() ? std::string("ill-conditioned") : "dependent: " + join(dependent)) +
                              "): a redundant constraint or a singular configuration; set world.constraints.redundant "
                              "= \"least_squares\" for redundant constraints");
  }

  // Rank of Φ_q at the current pose: redundant constraints are an error unless allowed;
  // a kinematic analysis needs exactly as many independent equations as coordinates.
  void check_rank(const Model& model, Context& ctx, Workspace& ws, bool kinematic) const {
    (void)model;
    if (equations_ == 0) {
      if (kinematic) throw SimulationError(ctx.t, {}, "a kinematic analysis needs drivers: the mechanism has none");
      return;
    }
    const Eigen::MatrixXd J = dense_jacobian(ws);
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(J.transpose());
    qr.setThreshold(rank_threshold(J));
    const int rank = static_cast<int>(qr.rank()), n = static_cast<int>(J.cols());
    if (rank < equations_) {
      const auto dependent = dependent_equations(J);
      // The Udwadia–Kalaba equation takes them as they are (minimum-norm multipliers).
      const bool by_uk = settings_.udwadia_kalaba() && ctx.analysis == Analysis::Dynamic;
      if ((settings_.redundant == "error" && !by_uk) || kinematic) {
        throw SimulationError(ctx.t, constraint_names(dependent),
                              std::string(kinematic && ws.assembled ? "singular configuration: " : "redundant constraints: ") +
                                  join(dependent) + " depend on the others (Jacobian rank " + std::to_string(rank) +
                                  " of " + std::to_string(equations_) + " equations)" +
                                  (kinematic ? "" : "; set world.constraints.redundant = \"least_squares\" to solve them "
                                                    "in the least-squares sense"));
      }
      if (!ws.assembled)
        ctx.warnings.push_back(std::string("redundant constraints solved ") +
                               (by_uk ? "by the Udwadia-Kalaba equation (minimum-norm multipliers): "
                                             : "in the least-squares sense: ") +
                               join(dependent));
    }
    if (kinematic && rank < n)
      throw SimulationError(ctx.t, {}, "a kinematic analysis needs zero degrees of freedom once the drivers are "
                                       "counted; this mechanism has " + std::to_string(n - rank) +
                                       ": add drivers or run a dynamic analysis");
  }

  // Newton's method with minimum-norm steps onto Φ(q, t) = 0. Returns the iterations.
  int assemble(const Model& model, Context& ctx, Workspace& ws, Eval::Phase phase, double tolerance,
               const std::string& failure) const {
    int iterations = 0;
    double best = std::numeric_limits<double>::infinity();
    const int max_iterations = 50;
    for (;; ++iterations) {
      publish_kinematics(model, ctx);
      evaluate_constraints(model, ctx, ws);
      const double norm = equations_ ? ws.phi.lpNorm<Eigen::Infinity>() : 0.0;
      // Down to rounding (Newton converges quadratically), or stalled there.
      if (norm <= 1e-3 * tolerance || (norm <= tolerance && norm >= 0.5 * best)) break;
      best = std::min(best, norm);
      if (iterations == max_iterations || !std::isfinite(norm)) {
        if (norm <= tolerance) break;
        std::vector<std::pair<double, std::string>> worst;
        for (int i = 0; i < equations_; ++i) worst.push_back({std::abs(ws.phi[i]), equation_name(eq_rows_[i])});
        std::sort(worst.rbegin(), worst.rend());
        std::ostringstream msg;
        msg.precision(3);
        std::vector<std::string> names;
        msg << failure << ": after " << iterations << " Newton iterations the largest violations are";
        for (size_t k = 0; k < std::min<size_t>(3, worst.size()); ++k) {
          msg << (k ? "," : "") << " " << worst[k].second << " |Φ| = " << worst[k].first;
          names.push_back(worst[k].second);
        }
        msg << " (check the points and the initial poses)";
        throw SimulationError(ctx.t, constraint_names(names), msg.str());
      }
      const Eigen::VectorXd dq = minimum_norm(model, ctx, ws, -ws.phi);
      for (size_t b = 0; b < bodies_.size(); ++b) {
        Eval e = model.view(bodies_[b].comp, ctx, phase);
        bodies_[b].body->set_position(e, bodies_[b].body->position(e) + dq.segment<3>(3 * b));
      }
    }
    return iterations;
  }

  // q̇ ← q̇ − Φ_q⁺ Φ̇. Returns |Δq̇|.
  double project_velocities(const Model& model, Context& ctx, Workspace& ws, Eval::Phase phase) const {
    if (equations_ == 0) return 0.0;
    publish_kinematics(model, ctx);
    evaluate_constraints(model, ctx, ws);
    const Eigen::VectorXd dv = minimum_norm(model, ctx, ws, -ws.phidot);
    for (size_t b = 0; b < bodies_.size(); ++b) {
      Eval e = model.view(bodies_[b].comp, ctx, phase);
      bodies_[b].body->set_velocity(e, bodies_[b].body->velocity(e) + dv.segment<3>(3 * b));
    }
    publish_kinematics(model, ctx);
    evaluate_constraints(model, ctx, ws);
    return dv.norm();
  }

  // Static equilibrium at ctx.t: q with Φ(q, t) = 0 and M q̈(q) = 0 at rest, by
  // Gauss–Newton on the stacked residual with a finite-difference Jacobian (dense: static
  // analyses are for mechanisms of moderate size).
  void equilibrium(const Model& model, Context& ctx, Workspace& ws, Eval::Phase phase) const {
    const int n = 3 * static_cast<int>(bodies_.size());
    for (const auto& b : bodies_) {
      Eval e = model.view(b.comp, ctx, phase);
      b.body->set_velocity(e, Vec3::Zero());
    }
    auto positions = [&] {
      Eigen::VectorXd q(n);
      for (size_t b = 0; b < bodies_.size(); ++b) {
        Eval e = model.view(bodies_[b].comp, ctx, phase);
        q.segment<3>(3 * b) = bodies_[b].body->position(e);
      }
      return q;
    };
    auto set_positions = [&](const Eigen::VectorXd& q) {
      for (size_t b = 0; b < bodies_.size(); ++b) {
        Eval e = model.view(bodies_[b].comp, ctx, phase);
        bodies_[b].body->set_position(e, q.segment<3>(3 * b));
      }
    };
    auto residual = [&](const Eigen::VectorXd& q) {
      set_positions(q);
      solve(model, ctx);
      Eigen::VectorXd r(equations_ + n);
      r.head(equations_) = ws.phi;
      for (size_t b = 0; b < bodies_.size(); ++b) {
        Eval e = model.view(bodies_[b].comp, ctx, phase);
        const Vec3 a = bodies_[b].body->acceleration(e);
        const double mass = bodies_[b].body->mass(e);
        r.segment<3>(equations_ + 3 * b) << mass * a[0], mass * a[1], bodies_[b].body->inertia(e) * a[2];
      }
      return r;
    };
    Eigen::VectorXd q = positions(), r = residual(q);
    const double scale = std::max(1.0, r.norm());
    const int max_iterations = 100;
    for (int it = 0;; ++it) {
      if (r.norm() <= 1e-11 * scale) break;
      if (it == max_iterations)
        throw SimulationError(ctx.t, {name_}, "no static equilibrium found near the initial pose (unbalanced " +
                                                  std::to_string(r.norm()) + " after " + std::to_string(it) +
                                                  " Gauss-Newton iterations)");
      // Central differences: a one-sided step can miss a force that starts at the
      // current pose (a contact just touching).
      Eigen::MatrixXd J(r.size(), n);
      for (int j = 0; j < n; ++j) {
        const double h = 1e-7 * std::max(1.0, std::abs(q[j]));
        Eigen::VectorXd qp = q, qm = q;
        qp[j] += h;
        qm[j] -= h;
        J.col(j) = (residual(qp) - residual(qm)) / (2 * h);
      }
      const Eigen::VectorXd dq = J.colPivHouseholderQr().solve(-r);
      // Halve the step until the residual decreases (far from equilibrium).
      double step = 1.0;
      Eigen::VectorXd q1, r1;
      bool decreased = false;
      for (int k = 0; k < 40 && !decreased; ++k, step *= 0.5) {
        q1 = q + step * dq;
        r1 = residual(q1);
        decreased = r1.norm() < r.norm();
      }
      if (!decreased) {
        // Stalled: an equilibrium to the precision the residual allows, or none here.
        if (r.norm() <= 1e-7 * scale) break;
        throw SimulationError(ctx.t, {name_}, "no static equilibrium found near the initial pose (unbalanced " +
                                                  std::to_string(r.norm()) + ", no descent direction)");
      }
      q = q1;
      r = r1;
    }
    set_positions(q);
  }

  int block_;
  int monitor_offset_;
  ConstraintSettings settings_;
  std::string name_;
  std::vector<BodyRef> bodies_;
  std::vector<ConstraintRef> constraints_;
  std::vector<int> others_;  // force elements in the loop, evaluated before the solve
  int equations_ = 0;  // rows that are equations (Φ_q)
  int reactions_ = 0;  // rows that carry a multiplier (Φ_r)
  std::vector<int> eq_index_, react_index_;  // per row of every constraint: its index, or −1
  std::vector<int> eq_rows_;                 // per equation: its row
};

}  // namespace

const BlockSolverFactory& mechanism_solver_factory() {
  static const BlockSolverFactoryOf<MechanismSolver> factory("planar mechanism (KKT)");  // stateless
  return factory;
}

}  // namespace jourdain::mechanical
