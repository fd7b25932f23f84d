// The constraint assembly of a mechanism block (mechanism_system.hpp; README.md).
#include "mechanism_system.hpp"

#include <cmath>

#include "formulation.hpp"

namespace jourdain::mechanical {

MechanismSystem::MechanismSystem(const Model& model, const ScheduledStep& step, const Formulation& formulation) {
  const auto& comps = model.components();
  const std::string& file = model.world().file;
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
        throw InputError({file, "", comp->name(), ""},
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
        throw InputError({file, "", comp->name(), comp->ports()[con->port(p).index].name},
                         "must connect to a point of a body or of the ground, not to '" + comps[peer]->name() + "'");
      }
    }
    if (!moves_something)
      throw InputError({file, "", comp->name(), ""}, "connects no body: its ports are all on the ground");
    formulation.admit(*con, model.world());
    const int k = static_cast<int>(constraints_.size());
    for (int i = 0; i < con->equation_count(); ++i) {
      RowInfo info;
      info.component = c;
      info.constraint = k;
      info.local = i;
      info.component_name = con->name();
      info.equation_name = con->equation_name(i);
      if (con->is_equation(i)) {
        info.equation = static_cast<int>(eq_rows_.size());
        eq_rows_.push_back(row + i);
      }
      if (con->reacts(i)) info.reaction = reactions_++;
      servo_rows_ = servo_rows_ || !con->is_equation(i) || !con->reacts(i);
      rows_.push_back(std::move(info));
    }
    row += con->equation_count();
    constraints_.push_back(ref);
  }
  if (reactions_ != equations()) {
    int servo = 0, actuators = 0;
    for (const auto& r : rows_) servo += r.equation >= 0 && r.reaction < 0, actuators += r.equation < 0;
    throw InputError({file, "", comps[step.components.front()]->name(), ""},
                     "the mechanism has " + std::to_string(servo) + " servo driver equation(s) but " +
                         std::to_string(actuators) + " actuated joint(s): each servo constraint needs an actuator "
                         "to impose it");
  }
  if (bodies_.empty())
    throw InputError({file, "", comps[step.components.front()]->name(), ""}, "is part of a mechanism without bodies");
}

std::vector<std::string> MechanismSystem::component_names(const std::vector<int>& eqs) const {
  std::vector<char> named(constraints_.size(), 0);
  for (int eq : eqs) named[equation(eq).constraint] = 1;
  std::vector<std::string> out;
  for (size_t k = 0; k < constraints_.size(); ++k)
    if (named[k]) out.push_back(constraints_[k].constraint->name());
  return out;
}

std::string MechanismSystem::equation_names(const std::vector<int>& eqs) const {
  std::string s;
  for (int eq : eqs) s += (s.empty() ? "" : ", ") + equation(eq).equation_name;
  return s;
}

SystemState MechanismSystem::make_state() const {
  SystemState s;
  s.rows.resize(constraints_.size());
  s.points.resize(constraints_.size());
  s.load.resize(bodies_.size());
  s.arms.resize(2 * constraints_.size());
  return s;
}

void MechanismSystem::publish_kinematics(const Model& model, Context& ctx, SystemState& s) const {
  s.turn.resize(bodies_.size());
  for (size_t b = 0; b < bodies_.size(); ++b) {
    Eval e = model.view(bodies_[b].comp, ctx, Eval::Phase::Outputs);
    const double theta = bodies_[b].body->position(e)[2];
    s.turn[b] = {std::cos(theta), std::sin(theta)};
    bodies_[b].body->publish_positions_velocities(e, s.turn[b]);
  }
}

void MechanismSystem::evaluate(const Model& model, Context& ctx, SystemState& s) const {
  const int m = equations();
  s.phi.resize(m);
  s.phidot.resize(m);
  s.gamma.resize(m);
  for (size_t k = 0; k < constraints_.size(); ++k) {
    const auto& c = constraints_[k];
    Eval e = model.view(c.comp, ctx, Eval::Phase::Outputs);
    ConstraintRows& rows = s.rows[k];
    PointKinematics (&points)[2] = s.points[k].k;  // kept for the constraint's reports
    c.constraint->rows_at(e, rows, points);
    Eigen::Matrix<double, 6, 1> vel = Eigen::Matrix<double, 6, 1>::Zero();
    double omega2[2] = {0, 0};
    for (int p = 0; p < c.constraint->port_count(); ++p) {
      const PointKinematics& kp = points[p];
      vel.segment<3>(3 * p) << kp.v, kp.omega;
      Vec2 arm{0, 0};
      if (c.ports[p].body >= 0) {
        arm = rotate(s.turn[c.ports[p].body], bodies_[c.ports[p].body].body->offset(c.ports[p].port));
        omega2[p] = kp.omega * kp.omega;
      }
      s.arms[2 * k + p] = arm;
    }
    for (int i = 0; i < rows.count; ++i) {
      const int eq = rows_[c.row + i].equation;
      if (eq < 0) continue;  // an actuator's force: no equation
      const ConstraintRow& r = rows.row[i];
      // Φ̇ = J v_P + Φ_t (seed 001's ν = −Φ_t).
      s.phi[eq] = r.phi;
      s.phidot[eq] = r.J.dot(vel) + r.phi_t;
      // Φ̈ = J a_P + c with a_P = a + α⊥s − ω²s: the ω²s part moves to the right side.
      double g = -r.c;
      for (int p = 0; p < c.constraint->port_count(); ++p) g += omega2[p] * r.J.segment<2>(3 * p).dot(s.arms[2 * k + p]);
      s.gamma[eq] = g;
    }
  }
}

Eigen::MatrixXd MechanismSystem::dense_jacobian(const SystemState& s) const {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(equations(), coordinates());
  for_each_jacobian_entry(s, [&](int r, int c, double v) {
    const int eq = rows_[r].equation;
    if (eq >= 0) J(eq, c) += v;
  });
  return J;
}

Vec3 MechanismSystem::mass(const Model& model, Context& ctx, int b) const {
  const Eval e = model.view(bodies_[b].comp, ctx, Eval::Phase::Outputs);
  const double m = bodies_[b].body->mass(e);
  return {m, m, bodies_[b].body->inertia(e)};
}

Eigen::VectorXd MechanismSystem::inverse_sqrt_mass(const Model& model, Context& ctx) const {
  Eigen::VectorXd d(coordinates());
  for (int b = 0; b < static_cast<int>(bodies_.size()); ++b) {
    const Vec3 w = mass(model, ctx, b);
    const double m = 1.0 / std::sqrt(w[0]);
    d.segment<3>(3 * b) << m, m, 1.0 / std::sqrt(w[2]);
  }
  return d;
}

Eigen::VectorXd MechanismSystem::positions(const Model& model, Context& ctx, Eval::Phase phase) const {
  Eigen::VectorXd q(coordinates());
  for (size_t b = 0; b < bodies_.size(); ++b) {
    Eval e = model.view(bodies_[b].comp, ctx, phase);
    q.segment<3>(3 * b) = bodies_[b].body->position(e);
  }
  return q;
}

void MechanismSystem::set_positions(const Model& model, Context& ctx, Eval::Phase phase,
                                    const Eigen::VectorXd& q) const {
  for (size_t b = 0; b < bodies_.size(); ++b) {
    Eval e = model.view(bodies_[b].comp, ctx, phase);
    bodies_[b].body->set_position(e, q.segment<3>(3 * b));
  }
}

void MechanismSystem::add_to_positions(const Model& model, Context& ctx, Eval::Phase phase,
                                       const Eigen::VectorXd& dq) const {
  for (size_t b = 0; b < bodies_.size(); ++b) {
    Eval e = model.view(bodies_[b].comp, ctx, phase);
    bodies_[b].body->set_position(e, bodies_[b].body->position(e) + dq.segment<3>(3 * b));
  }
}

void MechanismSystem::add_to_velocities(const Model& model, Context& ctx, Eval::Phase phase,
                                        const Eigen::VectorXd& dv) const {
  for (size_t b = 0; b < bodies_.size(); ++b) {
    Eval e = model.view(bodies_[b].comp, ctx, phase);
    bodies_[b].body->set_velocity(e, bodies_[b].body->velocity(e) + dv.segment<3>(3 * b));
  }
}

}  // namespace jourdain::mechanical
