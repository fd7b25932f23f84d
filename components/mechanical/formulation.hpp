// How a mechanism finds q̈ and λ: the interface every formulation implements, and the
// table that picks one by the name in world.constraints.formulation (README.md in this
// folder says how to add one). The formulations today:
//   "augmented_lagrangian"  the default: the leading matrix M + Φ_qᵀAΦ_q (positive
//                    definite at any rank of Φ_q) and the method of multipliers, with
//                    mass-orthogonal corrections (Bayo & Ledesma's ALI3-P;
//                    formulation_augmented_lagrangian.cpp), for singular configurations;
//   "kkt"            the stabilized KKT system of README.md (seed 000), sparse LU
//                    (formulation_kkt.cpp);
//   "udwadia_kalaba" the Udwadia–Kalaba equation of seed 002, eqs. (4)–(5), dense
//                    (formulation_udwadia_kalaba.cpp).
// A formulation also owns the minimum-norm corrections (Φ_q δ = r with the least δ in the
// metric of world.constraints.projection_metric) that assembly and projection use, since
// they are solved with the same linear algebra.
//
// A formulation object is immutable (it keeps only the settings it was made with); what it
// keeps between evaluations of a run goes in its FormulationScratch, found in the block's
// Workspace (mechanism_system.hpp) with Workspace::scratch<T>(this).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "mechanism_system.hpp"

namespace jourdain::mechanical {

class Formulation {
 public:
  virtual ~Formulation() = default;

  // For `jourdain check`: "KKT", "Udwadia-Kalaba".
  virtual std::string title() const = 0;

  // Called for each constraint while the system is built: throws InputError naming it
  // when this formulation cannot take it (servo rows, actuators...).
  virtual void admit(const Constraint& /*constraint*/, const World& /*world*/) const {}
  // Whether accelerations() takes servo rows and actuators (Φ_r ≠ Φ_q). When it does not
  // and admit() lets them in, the coordinator finds the accelerations of a mechanism that
  // has them with the KKT formulation (its corrections stay this formulation's).
  virtual bool takes_servo_rows() const { return true; }
  // Whether its accelerations and corrections stay bounded where Φ_q loses rank, so that
  // with projection after the steps a run follows a mechanism through a singular
  // configuration on its branch (a run that passes one otherwise ends with an accuracy
  // warning).
  virtual bool follows_singular_configurations() const { return false; }
  // For `jourdain check`: how it solves this mechanism's accelerations, when that depends
  // on the mechanism (me evaluated at its pose); empty otherwise.
  virtual std::string solution_path(const MechanismEval& /*me*/) const { return ""; }

  // With rhs = [Q; b] (n + m: the applied loads, then b = γ − 2αΦ̇ − β²Φ per equation, or
  // what the analysis puts there) at the evaluated state me.ws.state, sets sol = [q̈; λ]
  // (n + m, λ laid out by RowInfo::reaction) with the KKT sign: M q̈ + Φ_rᵀλ = Q,
  // Φ_q q̈ = b (sol is the caller's, kept between evaluations: no allocation once sized).
  // Throws SimulationError naming the constraints when it cannot.
  virtual void accelerations(const MechanismEval& me, const Eigen::VectorXd& rhs, Eigen::VectorXd& sol) const = 0;

  // The δ (n) of least norm with Φ_q δ = r (m), in the metric of the settings: Euclidean
  // or the mass (least δᵀMδ). Assembly steps and projections (mechanism_assembly.cpp).
  virtual Eigen::VectorXd minimum_norm(const MechanismEval& me, const Eigen::VectorXd& r) const = 0;

  // Redundant constraints (rank-deficient Φ_q at every pose) in the analyses this
  // formulation serves: whether it solves them under the settings it was made with
  // (world.constraints.redundant = "least_squares"; otherwise they are bad input), and how,
  // in the words of `jourdain check`.
  virtual bool solves_redundant() const = 0;
  virtual std::string redundant_policy() const = 0;
};

// The formulation named by settings.formulation, made with the settings. Throws
// std::invalid_argument for a name not in the table (the world setting is checked with
// its JSON path when the netlist is loaded).
std::unique_ptr<const Formulation> make_formulation(const std::string& name, const ConstraintSettings& settings);
// The names in the table, in order.
std::vector<std::string> formulation_names();

}  // namespace jourdain::mechanical
