// The mechanism's block solver: bodies, joints and drivers that form one implicit block
// of the schedule are solved together (README.md, "The equations"). This file is
// the coordinator the framework sees (a BlockSolver, framework/include/jourdain/
// block_solver.hpp); the work is done by parts, each in a file of its own (README.md in
// this folder):
//
//   mechanism_system     the constraint assembly: bodies, constraints, their rows and
//                        names, Φ, Φ̇ = Φ_q q̇ + Φ_t, γ, the entries of Φ_q, M from the
//                        bodies' parameters;
//   formulation_*        how q̈ and λ are found, chosen by world.constraints.formulation
//                        (formulation.hpp): "augmented_lagrangian", the default, the
//                        leading matrix M + Φ_qᵀAΦ_q (positive definite at any rank of
//                        Φ_q) and the method of multipliers (Bayo & Ledesma's ALI3-P),
//                        which passes singular configurations; "kkt", the stabilized KKT
//                        system
//
//                            [ M    Φ_rᵀ ] [ q̈ ]   [ Q                              ]
//                            [ Φ_q  0    ] [ λ  ] = [ γ − 2α(Φ_q q̇ + Φ_t) − β² Φ ],
//
//                        sparse LU (seed 000); "udwadia_kalaba", q̈ = a + M^{-1/2}
//                        (A M^{-1/2})⁺ (b − A a) with a = M⁻¹Q, A = Φ_q and b the same
//                        right side (seed 002, eqs. (4)–(5)), dense. Each formulation also
//                        owns the minimum-norm corrections δ (Φ_q δ = r, Euclidean or mass
//                        metric per world.constraints.projection_metric);
//   mechanism_assembly   assembly before a run (Newton with minimum-norm steps) and the
//                        projection after accepted steps (seed 002's direct elimination:
//                        q ← q − Φ_q⁺Φ, q̇ ← q̇ − Φ_q⁺Φ̇);
//   kinematic_analysis   positions by Newton, velocities from Φ_q q̇ = −Φ_t (seed 001);
//   static_analysis      q with Φ = 0 and M q̈ = 0 at rest;
//   mechanism_rank       the rank of Φ_q: redundant equations named, degrees of freedom,
//                        structural deficiencies (bad input) told from singular poses;
//   mechanism_singularity the conditioning of Φ_q along a run: singular passes as events.
//
// A dynamic analysis uses the formulation of the settings (the KKT system for the
// accelerations of a mechanism with servo rows when the chosen one does not take them);
// the kinematic and static analyses are defined through the KKT system (inverse dynamics
// at a driven pose, the equilibrium of M q̈ = Q − Φ_rᵀλ), so they use the KKT formulation
// whichever is chosen; projection uses the chosen formulation's corrections in every
// analysis, the initial assembly regularized ones (any rank of Φ_q).
//
// What a run cannot vouch for becomes an accuracy warning (Warning::Kind::Accuracy): a
// constraint violation beyond world.constraints.tolerance (the monitor's limit), a
// projection or kinematic step that moves the mechanism further (another assembly branch
// perhaps), a singular configuration passed with a formulation that cannot follow it.
//
// This coordinator keeps only immutable data (the system, the formulations, the settings);
// each Context has its own Workspace (Context::block_workspaces), so one model runs in
// several threads at once.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>

#include "formulation.hpp"
#include "kinematic_analysis.hpp"
#include "mechanism_assembly.hpp"
#include "mechanism_rank.hpp"
#include "mechanism_singularity.hpp"
#include "mechanism_system.hpp"
#include "static_analysis.hpp"

namespace jourdain::mechanical {

namespace {

// σ (mechanism_singularity.hpp) below which a pose counts as a singular configuration:
// far below what a regular pose of a real mechanism shows (1e-3 is already close to a
// toggle), far above the rounding an exactly singular pose leaves (~1e-8), so that only
// the passes through one are logged, found between samples along their cubic.
constexpr double kSingularThreshold = 1e-6;

// The name of a mechanism's monitors: "mechanism" when the model has one; with several
// (separate machines in one netlist), "mechanism1", "mechanism2", … in the order of their
// blocks in the schedule, the order in which `jourdain check` lists them, with their
// bodies (describe()).
std::string mechanism_name(const Model& model, int block) {
  int number = 0, count = 0;
  const auto& steps = model.schedule().steps;
  for (size_t k = 0; k < steps.size(); ++k) {
    if (!steps[k].implicit) continue;
    const bool mechanism = std::any_of(steps[k].components.begin(), steps[k].components.end(), [&](int c) {
      return model.components()[c]->block_solver() == &mechanism_solver_factory();
    });
    if (!mechanism) continue;
    ++count;
    if (static_cast<int>(k) == block) number = count;
  }
  return count == 1 ? "mechanism" : "mechanism" + std::to_string(number);
}

class MechanismSolver final : public BlockSolver {
 public:
  MechanismSolver(const Model& model, const ScheduledStep& step, int block, int monitor_offset)
      : block_(block),
        monitor_offset_(monitor_offset),
        settings_(constraint_settings(model.world())),
        formulation_(make_formulation(settings_.formulation, settings_)),
        kkt_(settings_.formulation == "kkt" ? nullptr : make_formulation("kkt", settings_)),
        regularized_(formulation_->follows_singular_configurations() ? nullptr
                                                                     : make_formulation("augmented_lagrangian", settings_)),
        system_(model, step, *formulation_),
        name_(mechanism_name(model, block)),
        singular_(name_, kSingularThreshold) {}

  // ------------------------------------------------------------ BlockSolver hooks

  void solve(const Model& model, Context& ctx) const override {
    const MechanismEval me = eval(model, ctx);
    SystemState& s = me.ws.state;
    const auto& bodies = system_.bodies();
    const auto& constraints = system_.constraints();
    const bool dynamic = ctx.analysis == Analysis::Dynamic, stat = ctx.analysis == Analysis::Static;
    me.publish_kinematics();  // the accelerations found below are published at the end
    // Applied loads: everything but the constraints' reactions, which are the unknowns.
    for (size_t k = 0; k < constraints.size(); ++k) {
      Eval e = model.view(constraints[k].comp, ctx, Eval::Phase::Outputs);
      constraints[k].constraint->publish(e, s.rows[k], /*zero=*/true);
    }
    for (int o : system_.others()) {
      Eval e = model.view(o, ctx, Eval::Phase::Outputs);
      model.components()[o]->calc_outputs(e);
    }
    me.evaluate();  // Φ, Φ̇, γ and each body's rotation, from the kinematics just published
    for (size_t b = 0; b < bodies.size(); ++b) {
      Eval e = model.view(bodies[b].comp, ctx, Eval::Phase::Outputs);
      s.load[b] = bodies[b].body->applied_load(e, s.turn[b]);
    }

    // rhs = [Q; b]: b = γ − 2αΦ̇ − β²Φ (dynamic), γ (kinematic), 0 (static: at rest).
    const int n = system_.coordinates(), m = system_.equations();
    Eigen::VectorXd& rhs = s.rhs;
    rhs.resize(n + m);
    for (size_t b = 0; b < bodies.size(); ++b) rhs.segment<3>(3 * b) = s.load[b];
    for (int i = 0; i < m; ++i) {
      double g = stat ? 0.0 : s.gamma[i];
      if (dynamic) g -= 2.0 * settings_.alpha * s.phidot[i] + settings_.beta * settings_.beta * s.phi[i];
      rhs[n + i] = g;
    }
    Eigen::VectorXd& sol = s.solution;
    serving(ctx.analysis).accelerations(me, rhs, sol);
    ctx.algebraic_iterations += 1;

    for (size_t b = 0; b < bodies.size(); ++b) {
      Eval e = model.view(bodies[b].comp, ctx, Eval::Phase::Outputs);
      const Vec3 acc = sol.segment<3>(3 * b);
      bodies[b].body->set_acceleration(e, acc);
      // Q_c = M q̈ − Q: in every formulation what the constraints apply (−Φ_rᵀλ).
      const double mass = bodies[b].body->mass(e);
      const Vec3 m_acc{mass * acc[0], mass * acc[1], bodies[b].body->inertia(e) * acc[2]};
      bodies[b].body->set_constraint_force(e, m_acc - s.load[b]);
      // Positions and velocities were published at the start; the rotation and the load
      // of this evaluation are at hand.
      bodies[b].body->publish_accelerations(e, s.turn[b], s.load[b]);
    }
    for (size_t k = 0; k < constraints.size(); ++k) {
      const auto& c = constraints[k];
      Eval e = model.view(c.comp, ctx, Eval::Phase::Outputs);
      for (int i = 0; i < c.constraint->equation_count(); ++i) {
        const int col = system_.row(c.row + i).reaction;
        e.set_unknown(c.constraint->multiplier(i), col >= 0 ? sol[n + col] : 0.0);
      }
      c.constraint->publish(e, s.rows[k]);
      const int on = c.ports[c.constraint->port_count() - 1].body;  // the port whose reaction it reports
      c.constraint->report_observables(e, s.rows[k], s.points[k].k, on >= 0 ? &s.turn[on] : nullptr);
    }
    ctx.monitors[monitor_offset_] = s.phi.norm();
    ctx.monitors[monitor_offset_ + 1] = s.phidot.norm();
  }

  void initialize(const Model& model, Context& ctx) const override {
    const MechanismEval me = eval(model, ctx);
    Workspace& ws = me.ws;
    if (ws.assembled && ctx.t == ws.last_time) return;  // a later pass of Model::initialize
    const double tolerance = settings_.assembly_tolerance;
    const Formulation& corrections = regularized_ ? *regularized_ : *formulation_;  // same metric, any rank
    const int iterations =
        assemble(me, corrections, Eval::Phase::Initialize, tolerance, tolerance, "the mechanism cannot be assembled");
    const double dv = project_velocities(me, corrections, Eval::Phase::Initialize);
    const Structure structure = check_structure(me, corrections, serving(ctx.analysis).solves_redundant(),
                                                ctx.analysis == Analysis::Kinematic, tolerance);
    singular_.exclude(me, structure.redundant);
    std::ostringstream msg;
    msg.precision(3);
    msg << "assembled in " << iterations << " Newton iteration(s) to |Φ| = " << ws.state.phi.norm()
        << "; velocities projected (|Δq̇| = " << dv << ")";
    ctx.log_event(ctx.t, name_, msg.str());
    if (ctx.analysis == Analysis::Static) equilibrium(me, Eval::Phase::Initialize);
    // The first point of a kinematic or static analysis is this one (a dynamic run's is
    // observed by its solver).
    if (ctx.analysis != Analysis::Dynamic) singular_.sample(me, ctx.analysis == Analysis::Kinematic);
    ws.assembled = true;
    ws.last_time = ctx.t;
  }

  bool projects() const override { return settings_.projection; }

  bool project(const Model& model, Context& ctx) const override {
    const MechanismEval me = eval(model, ctx);
    const Eigen::VectorXd before = system_.positions(model, ctx, Eval::Phase::Outputs);
    if (!reassemble(model, ctx, settings_.projection_tolerance, settings_.tolerance,
                    "the projection onto the constraints failed"))
      return false;
    // A correction beyond the tolerance: the step left the constraints that far, and its
    // projection may have landed on another assembly branch.
    const double moved = (system_.positions(model, ctx, Eval::Phase::Outputs) - before).lpNorm<Eigen::Infinity>();
    if (moved > settings_.tolerance && !me.ws.jump_warned) {
      me.ws.jump_warned = true;
      std::ostringstream msg;
      msg.precision(3);
      msg << "t = " << ctx.t << " s: " << name_ << ": the projection after a step moved the mechanism by " << moved
          << " (m or rad), more than world.constraints.tolerance = " << settings_.tolerance
          << ": the step left the constraints that far and may have jumped to another assembly branch (a smaller step "
             "or tighter tolerances keep it closer); later ones are not listed";
      ctx.warnings.emplace_back(msg.str(), Warning::Kind::Accuracy);
    }
    return true;
  }

  void observe(const Model& model, Context& ctx) const override {
    // ctx is evaluated at this point (BlockSolver::observe): the rows of its solve are in
    // the workspace, at this pose.
    const MechanismEval me = eval(model, ctx);
    if (singular_.sample(me, /*along_path=*/true) == 0) return;
    if (settings_.projection && !ctx.steps_projected) {
      // The settings ask for projection and the integrator cannot give it (CVODE's Adams):
      // on Baumgarte's stabilization alone the bars part at a singular pose and the run
      // would go on, "finished", on a mechanism that no longer holds together.
      std::ostringstream msg;
      msg.precision(10);
      msg << name_ << ": the mechanism went through a singular configuration, which only projection after steps "
          << "follows, and this method does not project (adams: CVODE projects only with BDF): use bdf, dopri5 or "
             "rk4, which project, or set world.constraints.projection to false to go on with the stabilization "
             "alone, the motion after such a pass not vouched for";
      throw SimulationError(ctx.t, {}, msg.str());
    }
    if (robust() || me.ws.singular_warned) return;
    me.ws.singular_warned = true;
    std::ostringstream msg;
    msg.precision(10);
    msg << "t = " << ctx.t << " s: " << name_ << ": the mechanism went through a singular configuration (events) with "
        << (serving(Analysis::Dynamic).title()) << (settings_.projection ? "" : " and no projection")
        << ", which cannot tell the branch it continues on: the motion after it is not vouched for. The augmented "
           "Lagrangian formulation with projection (the defaults) follows it";
    ctx.warnings.emplace_back(msg.str(), Warning::Kind::Accuracy);
  }

  void project_change(const Model& model, Context& ctx, Eigen::Ref<Eigen::VectorXd> dx) const override {
    const MechanismEval me = eval(model, ctx);
    me.publish_kinematics();
    me.evaluate();
    const int n = system_.coordinates(), m = system_.equations();
    if (m == 0) return;
    // The body states' slots in dx: positions (k < 3) and velocities (k ≥ 3).
    Eigen::VectorXd part(n), residual(m);
    for (int kind = 0; kind < 2; ++kind) {
      for (size_t b = 0; b < system_.bodies().size(); ++b) {
        const Eval e = model.view(system_.bodies()[b].comp, ctx, Eval::Phase::Outputs);
        const std::array<int, 6> slot = system_.bodies()[b].body->state_indices(e);
        for (int k = 0; k < 3; ++k) part[3 * b + k] = dx[slot[3 * kind + k]];
      }
      // The part of the change that the projection removes: the correction of its
      // linearized constraint residual Φ_q δ (for the velocities, the term of Φ̇ in the
      // positions is left out: second order in a small change).
      residual.setZero();
      system_.for_each_jacobian_entry(me.ws.state, [&](int r, int c, double v) {
        const int eq = system_.row(r).equation;
        if (eq >= 0) residual[eq] += v * part[c];
      });
      part += formulation_->minimum_norm(me, -residual);
      for (size_t b = 0; b < system_.bodies().size(); ++b) {
        const Eval e = model.view(system_.bodies()[b].comp, ctx, Eval::Phase::Outputs);
        const std::array<int, 6> slot = system_.bodies()[b].body->state_indices(e);
        for (int k = 0; k < 3; ++k) dx[slot[3 * kind + k]] = part[3 * b + k];
      }
    }
  }

  // h = (Φ, Φ̇) over the whole state vector: ∂Φ/∂q = Φ_q, ∂Φ̇/∂q̇ = Φ_q, and ∂Φ̇/∂q =
  // ∂(Φ_q q̇ + Φ_t)/∂q, which no constraint gives in closed form: central differences in
  // each coordinate (step ε^(1/3) max(1, |q_j|), error O(h²) ≈ 1e-11 relative). It is zero
  // at rest, where the linear analysis mostly works.
  Eigen::MatrixXd invariant_jacobian(const Model& model, Context& ctx) const override {
    const MechanismEval me = eval(model, ctx);
    const int n = system_.coordinates(), m = system_.equations();
    me.publish_kinematics();
    me.evaluate();
    const Eigen::MatrixXd phi_q = system_.dense_jacobian(me.ws.state);
    const Eigen::VectorXd q0 = system_.positions(model, ctx, Eval::Phase::Project);
    Eigen::MatrixXd phidot_q(m, n);
    const double scale = std::cbrt(std::numeric_limits<double>::epsilon());
    auto phidot_at = [&](const Eigen::VectorXd& q) -> Eigen::VectorXd {
      system_.set_positions(model, ctx, Eval::Phase::Project, q);
      me.publish_kinematics();
      me.evaluate();
      return me.ws.state.phidot;
    };
    for (int j = 0; j < n; ++j) {
      const double h = scale * std::max(1.0, std::abs(q0[j]));
      Eigen::VectorXd q = q0;
      q[j] = q0[j] + h;
      const Eigen::VectorXd plus = phidot_at(q);
      q[j] = q0[j] - h;
      phidot_q.col(j) = (plus - phidot_at(q)) / (2.0 * h);
    }
    system_.set_positions(model, ctx, Eval::Phase::Project, q0);  // ctx as it was given
    me.publish_kinematics();
    me.evaluate();
    Eigen::MatrixXd h = Eigen::MatrixXd::Zero(2 * m, model.state_count());
    for (size_t b = 0; b < system_.bodies().size(); ++b) {
      const Eval e = model.view(system_.bodies()[b].comp, ctx, Eval::Phase::Outputs);
      const std::array<int, 6> slot = system_.bodies()[b].body->state_indices(e);
      for (int k = 0; k < 3; ++k) {
        const int col = 3 * static_cast<int>(b) + k;
        h.block(0, slot[k], m, 1) = phi_q.col(col);
        h.block(m, slot[k], m, 1) = phidot_q.col(col);
        h.block(m, slot[3 + k], m, 1) = phi_q.col(col);
      }
    }
    return h;
  }

  std::vector<std::pair<int, int>> coordinate_pairs(const Model& model, Context& ctx) const override {
    std::vector<std::pair<int, int>> pairs;
    for (const auto& body : system_.bodies()) {
      const Eval e = model.view(body.comp, ctx, Eval::Phase::Outputs);
      const std::array<int, 6> slot = body.body->state_indices(e);
      for (int k = 0; k < 3; ++k) pairs.emplace_back(slot[k], slot[3 + k]);
    }
    return pairs;
  }

  // What the projection does, to the assembly tolerance, whatever
  // world.constraints.projection says.
  bool restore_invariants(const Model& model, Context& ctx) const override {
    return reassemble(model, ctx, settings_.assembly_tolerance, settings_.assembly_tolerance,
                      "the mechanism cannot be brought back onto its constraints");
  }

  bool supports(Analysis analysis) const override { return analysis == Analysis::Kinematic || analysis == Analysis::Static; }

  void analyze(const Model& model, Context& ctx) const override {
    const MechanismEval me = eval(model, ctx);
    if (ctx.analysis == Analysis::Kinematic) {
      const double dt = ctx.t - me.ws.last_time;
      const KinematicStep step = kinematic_point(me, *formulation_, dt, settings_.assembly_tolerance);
      // Newton corrects the extrapolated pose by the extrapolation's error, a small part of
      // the step's motion; a correction beyond the tolerance and comparable to the motion
      // itself is a jump to another assembly branch.
      if (step.correction > settings_.tolerance && step.correction > 0.5 * step.motion && !me.ws.jump_warned) {
        me.ws.jump_warned = true;
        std::ostringstream msg;
        msg.precision(3);
        msg << "t = " << ctx.t << " s: " << name_ << ": the kinematic analysis corrected the extrapolated pose by "
            << step.correction << " (m or rad) for a motion of " << step.motion
            << " since the last point: the mechanism may have jumped to another assembly branch (a smaller "
               "output_interval follows it more closely); later ones are not listed";
        ctx.warnings.emplace_back(msg.str(), Warning::Kind::Accuracy);
      }
    } else {
      equilibrium(me, Eval::Phase::Project);
    }
    me.publish_kinematics();
    me.evaluate();
    // A kinematic analysis's points lie on one motion; a static one's are separate poses.
    singular_.sample(me, ctx.analysis == Analysis::Kinematic);
    me.ws.last_time = ctx.t;
  }

  // ‖Φ‖ over every equation, in their unit (Constraint::norm_unit: m when positions and
  // angles mix, the radians counted as metres), and ‖Φ̇‖ in that unit per second.
  std::vector<MonitorSpec> monitors() const override {
    std::vector<std::string> units;
    for (const auto& c : system_.constraints())
      for (int i = 0; i < c.constraint->equation_count(); ++i)
        if (c.constraint->is_equation(i)) units.push_back(c.constraint->equation_unit(i));
    const std::string unit = Constraint::norm_unit(units);
    return {{name_ + ".constraint_norm", unit, settings_.tolerance, "world.constraints.tolerance"},
            {name_ + ".constraint_rate_norm", unit + "/s"}};
  }

  std::string describe(const Model& model, const Context& ctx_in) const override {
    Context ctx = ctx_in;
    const MechanismEval me = eval(model, ctx);
    me.publish_kinematics();
    me.evaluate();
    const int n = system_.coordinates(), m = system_.equations();
    const size_t bodies = system_.bodies().size();
    const int rank = jacobian_rank(system_, me.ws.state);
    std::ostringstream out;
    std::string body_names;
    for (const auto& b : system_.bodies()) body_names += (body_names.empty() ? "" : ", ") + model.components()[b.comp]->name();
    out << "Mechanism '" << name_ << "' (monitors " << name_ << ".constraint_norm, " << name_
        << ".constraint_rate_norm): " << bodies << (bodies == 1 ? " body (" : " bodies (") << body_names << "), " << system_.constraints().size()
        << " joints and drivers (" << m << " equations), " << system_.others().size() << " force elements in the loop\n"
        << "  Grübler count: 3 × " << bodies << " − " << m << " = " << n - m << "\n"
        << "  Jacobian rank at the assembled pose: " << rank << " → degrees of freedom: " << n - rank;
    if (rank < m) out << "; redundant: " << system_.equation_names(dependent_equations(system_.dense_jacobian(me.ws.state)));
    const std::string path = serving(Analysis::Dynamic).solution_path(me);
    out << "\n  Formulation: " << formulation_->title()
        << (&serving(Analysis::Dynamic) != formulation_.get() ? " (the accelerations by the KKT system: servo rows)" : "")
        << (path.empty() ? "" : "; " + path)
        << "; Baumgarte α = " << settings_.alpha
        << ", β = " << settings_.beta << "; projection after steps: " << (settings_.projection ? "on" : "off")
        << " (metric: " << settings_.projection_metric << "); redundant constraints: "
        << formulation_->redundant_policy() << "; accuracy tolerance " << settings_.tolerance << " (m or rad)\n";
    return out.str();
  }

 private:
  MechanismEval eval(const Model& model, Context& ctx) const {
    Workspace& ws = ctx.block_workspaces.get<Workspace>(block_, [&] {
      auto w = std::make_unique<Workspace>();
      w->state = system_.make_state();
      return w;
    });
    return {model, system_, ctx, ws};
  }

  // Positions back onto Φ = 0 (Newton, minimum-norm steps), then velocities onto Φ̇ = 0,
  // unless both are within `tolerance` already; a residual that Newton cannot reduce (near
  // a singular configuration) is accepted up to `limit`. Returns true if ctx.x changed.
  bool reassemble(const Model& model, Context& ctx, double tolerance, double limit, const char* failure) const {
    const MechanismEval me = eval(model, ctx);
    me.publish_kinematics();
    me.evaluate();
    const double before = me.ws.state.phi.lpNorm<Eigen::Infinity>(),
                 rate = me.ws.state.phidot.lpNorm<Eigen::Infinity>();
    if (before <= tolerance && rate <= tolerance) return false;
    assemble(me, *formulation_, Eval::Phase::Project, tolerance, std::max(tolerance, limit), failure);
    project_velocities(me, *formulation_, Eval::Phase::Project);
    return true;
  }

  // Whether a dynamic run follows a mechanism through a singular configuration on its
  // branch: the augmented Lagrangian's accelerations (not the KKT system a mechanism with
  // servo rows falls back to) and its projections after the steps.
  bool robust() const {
    return &serving(Analysis::Dynamic) == formulation_.get() && formulation_->follows_singular_configurations() &&
           settings_.projection;
  }

  // The formulation that finds q̈ and λ in `analysis` (see the header): the KKT system for
  // the kinematic and static analyses, and for the dynamics of a mechanism with servo rows
  // when the chosen formulation does not take them.
  const Formulation& serving(Analysis analysis) const {
    const bool chosen = analysis == Analysis::Dynamic && (formulation_->takes_servo_rows() || !system_.has_servo_rows());
    return chosen || !kkt_ ? *formulation_ : *kkt_;
  }

  void equilibrium(const MechanismEval& me, Eval::Phase phase) const {
    find_equilibrium(me, phase, [&] { solve(me.model, me.ctx); }, name_);
  }

  int block_;
  int monitor_offset_;
  ConstraintSettings settings_;
  std::unique_ptr<const Formulation> formulation_;  // world.constraints.formulation
  std::unique_ptr<const Formulation> kkt_;          // for the kinematic and static analyses, when not formulation_
  // The initial assembly's corrections when formulation_'s need Φ_q of full rank: the
  // checks of its rank come after the assembly, and report redundant constraints as such.
  std::unique_ptr<const Formulation> regularized_;
  MechanismSystem system_;
  std::string name_;
  SingularityMonitor singular_;
};

}  // namespace

const BlockSolverFactory& mechanism_solver_factory() {
  static const BlockSolverFactoryOf<MechanismSolver> factory("planar mechanism");  // stateless
  return factory;
}

}  // namespace jourdain::mechanical
