// What the files of the linear analysis share inside the solvers library (linear.hpp is
// its public face): the coordinates on the constraint manifold and the evaluations the
// central differences make (linear_manifold.cpp), used by the search for an operating
// point and by the linearization alike, and the JSON forms of numbers that linear.json
// and the run's summary both write (linear_writers.cpp).
#pragma once

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "jourdain/model.hpp"
#include "jourdain/solvers/linear.hpp"

namespace jourdain::detail {

// The central differences' step scale: h = ε^(1/3) max(1, |v|) (linear.hpp).
inline const double kStepScale = std::cbrt(std::numeric_limits<double>::epsilon());

// The independent states and the basis T at ctx: δx = T δz, ∂h/∂x T = 0. Coordinate
// partitioning (Wehage & Haug 1982): a column-pivoted QR of the position-level rows of
// H = ∂h/∂x puts the best-conditioned coordinates first; those coordinates and their rates
// are dependent, the rest independent, and x_D = −H_D⁺ H_I x_I (H_D has full column rank;
// redundant rows are consistent). Without (coordinate, rate) pairs, the QR runs on H.
struct Partition {
  std::vector<int> independent, dependent;
  Eigen::MatrixXd basis;
  double conditioning = 1.0;  // smallest over largest pivot of the QR kept (1: no invariants)
};
Partition partition(const Model& model, Context& ctx);

// Evaluations at the operating point with some states or parameters moved, on a copy
// of its Context (warm starts of algebraic loops and factorizations stay in the copy).
class Prober {
 public:
  Prober(const Model& model, const Context& ctx, std::vector<const RecordableVariable*> outputs)
      : model_(model), work_(ctx), x0_(ctx.x), p0_(ctx.parameters), outputs_(std::move(outputs)) {}

  // (ẋ, y) at x0 + dx with parameter `param` moved by dp (param < 0: none).
  void at(const Eigen::VectorXd& dx, int param, double dp, Eigen::VectorXd& xdot, Eigen::VectorXd& y) {
    work_.x = x0_ + dx;
    work_.parameters = p0_;
    if (param >= 0) work_.parameters[param] += dp;
    model_.evaluate(work_);
    xdot = work_.xdot;
    y.resize(static_cast<Eigen::Index>(outputs_.size()));
    for (size_t k = 0; k < outputs_.size(); ++k) y[static_cast<Eigen::Index>(k)] = model_.value(work_, *outputs_[k]);
  }

 private:
  const Model& model_;
  Context work_;
  Eigen::VectorXd x0_, p0_;
  std::vector<const RecordableVariable*> outputs_;
};

// ∂(ẋ_I, y)/∂z at ctx by central differences along the columns of T (linear.hpp).
void tangent_jacobians(const Model& model, const Context& ctx, const Partition& p,
                       const std::vector<const RecordableVariable*>& outputs, Eigen::MatrixXd& A, Eigen::MatrixXd& C);

// A block solver's invariants bring the state back after a step; an evaluation follows.
void settle(const Model& model, Context& ctx);

// max |ẋ_j| / max(1, |x_j|) over the independent states j: how far from rest.
double scaled_residual(const Context& ctx, const std::vector<int>& independent);

// A singular configuration (a row of parallelograms lying flat, a slider-crank's rod
// folded onto its crank) is where the invariants' Jacobian loses rank: the partition there
// counts independent states the mechanism does not have (the other assembly branch's
// motion), and a linear model on them is of another mechanism: its extra modes (A02 at a
// flat pose once gave λ = ±77 s⁻¹, "unstable") are artefacts. Rank is lower at a singular pose than at every
// pose around it on the manifold, where redundant constraints (a duplicated joint) keep
// theirs: so the partition is taken again at two poses a step 1e-3 (m, rad) away along
// a generic tangent direction, brought back onto the invariants. More dependent states
// there: refused, as Simscape and Modelica tools refuse a state selection at a singular
// Jacobian, since no linear model of this mechanism exists at that pose. Full rank but
// nearly singular (the pivots of the coordinate partition spread over more than 1e6): a
// warning, as the dependent coordinates then follow the independent ones through a
// matrix that amplifies the differentiation's errors by as much.
void check_regular(const Model& model, const Context& ctx, const Partition& p, LinearModel& lm);

// [re, im]: how linear.json and summary.json write a complex number.
nlohmann::json complex_json(const std::complex<double>& z);
// A number, or null for an infinite or undefined one (a time constant on the axis).
nlohmann::json finite_or_null(double v);

}  // namespace jourdain::detail
