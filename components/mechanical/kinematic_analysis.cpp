// Kinematic analysis (kinematic_analysis.hpp; seed 001).
#include "kinematic_analysis.hpp"

#include <cmath>
#include <sstream>

#include <Eigen/Dense>

#include "mechanism_assembly.hpp"

namespace jourdain::mechanical {

namespace {

// The pose, velocities and accelerations of the bodies at a point of the analysis.
struct Point {
  Eigen::VectorXd q, v, a;
};

Point read_point(const MechanismEval& me) {
  const auto& bodies = me.system.bodies();
  Point p{Eigen::VectorXd(3 * bodies.size()), Eigen::VectorXd(3 * bodies.size()), Eigen::VectorXd(3 * bodies.size())};
  for (size_t b = 0; b < bodies.size(); ++b) {
    const Eval e = me.model.view(bodies[b].comp, me.ctx, Eval::Phase::Outputs);
    p.q.segment<3>(3 * b) = bodies[b].body->position(e);
    p.v.segment<3>(3 * b) = bodies[b].body->velocity(e);
    p.a.segment<3>(3 * b) = bodies[b].body->acceleration(e);
  }
  return p;
}

// From `from` (the last point), `dt` later: the extrapolated pose, then Newton. Returns
// false (ctx at the last Newton iterate) when Newton does not converge.
bool solve_from(const MechanismEval& me, const Formulation& formulation, const Point& from, double dt, double tolerance,
                KinematicStep& step) {
  const Eigen::VectorXd predicted = from.q + dt * from.v + 0.5 * dt * dt * from.a;
  me.system.set_positions(me.model, me.ctx, Eval::Phase::Project, predicted);
  try {
    assemble(me, formulation, Eval::Phase::Project, tolerance, tolerance, "");
  } catch (const SimulationError&) {
    return false;
  }
  step.correction = (me.system.positions(me.model, me.ctx, Eval::Phase::Outputs) - predicted).lpNorm<Eigen::Infinity>();
  step.motion = (predicted - from.q).lpNorm<Eigen::Infinity>();
  return true;
}

// Newton found no pose at t1 = me.ctx.t from the point `good` at t0: bisection in time
// finds where the mechanism stops following (to 1e-9 of the interval), and the Jacobian
// there whether a driver is what asks for the impossible. Always throws.
[[noreturn]] void cannot_follow(const MechanismEval& me, const Formulation& formulation, const Point& good, double t0,
                                double tolerance) {
  const MechanismSystem& system = me.system;
  const double t1 = me.ctx.t;
  double lo = t0, hi = t1;
  Point last = good;
  KinematicStep step;
  for (int k = 0; k < 30; ++k) {
    const double mid = 0.5 * (lo + hi);
    me.ctx.t = mid;
    if (solve_from(me, formulation, good, mid - t0, tolerance, step)) lo = mid;
    else hi = mid;
  }
  // The last pose reached (at lo), its Jacobian and the left singular vector of its
  // smallest singular value: the equations with a large part in it are the ones that
  // cannot all be satisfied beyond.
  me.ctx.t = lo;
  if (lo > t0) solve_from(me, formulation, good, lo - t0, tolerance, step);
  else system.set_positions(me.model, me.ctx, Eval::Phase::Project, good.q);
  me.publish_kinematics();
  me.evaluate();
  const Eigen::MatrixXd J = system.dense_jacobian(me.ws.state);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(J, Eigen::ComputeFullU);
  const Eigen::VectorXd u = svd.matrixU().col(svd.singularValues().size() - 1);
  const double largest = u.cwiseAbs().maxCoeff();
  std::vector<int> involved;
  std::string driver, value;
  for (int i = 0; i < static_cast<int>(u.size()); ++i) {
    if (std::abs(u[i]) < 0.3 * largest) continue;
    involved.push_back(i);
    const RowInfo& row = system.equation(i);
    const Constraint& con = *system.constraints()[row.constraint].constraint;
    const Eval e = me.model.view(row.component, me.ctx, Eval::Phase::Outputs);
    if (const auto c = con.prescribed_value(e); c && driver.empty()) {
      driver = row.component_name;
      std::ostringstream v;
      v.precision(6);
      v << *c << " " << con.equation_unit(row.local);
      value = v.str();
    }
  }
  const double relative = svd.singularValues().size() ? svd.singularValues().tail(1)[0] / svd.singularValues()[0] : 0.0;
  std::ostringstream msg;
  msg.precision(6);
  if (!driver.empty()) {
    std::vector<int> others;
    for (int i : involved)
      if (system.equation(i).component_name != driver) others.push_back(i);
    msg << "the mechanism reaches a limit position: driver '" << driver << "' cannot be followed beyond t = " << lo
        << " s, where it prescribes " << value << " (the limit of its motion); there its equation and "
        << (others.empty() ? std::string("the others") : system.equation_names(others))
        << " lose rank together (σ_min/σ_max = " << relative << ": a dead centre), and beyond it no pose satisfies "
           "them. Change the driver's law or drive another member";
  } else {
    msg << "the kinematic analysis lost the mechanism between t = " << t0 << " s and t = " << t1
        << " s: Newton finds no pose from the last one (the equations " << system.equation_names(involved)
        << " are the nearest to losing rank, σ_min/σ_max = " << relative
        << "); a smaller output_interval follows a fast motion more closely";
  }
  throw SimulationError(lo, system.component_names(involved), msg.str());
}

}  // namespace

KinematicStep kinematic_point(const MechanismEval& me, const Formulation& formulation, double dt, double tolerance) {
  const Point last = read_point(me);
  KinematicStep step;
  if (!solve_from(me, formulation, last, dt, tolerance, step)) cannot_follow(me, formulation, last, me.ctx.t - dt, tolerance);
  project_velocities(me, formulation, Eval::Phase::Project);
  return step;
}

}  // namespace jourdain::mechanical
