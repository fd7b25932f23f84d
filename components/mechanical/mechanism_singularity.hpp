// Singular configurations along a run (README.md in this folder, "Singular
// configurations"): poses where Φ_q loses rank, so that the constraints no longer fix the
// motion they fix elsewhere (a row of parallelograms lying flat, a slider-crank whose rod
// folds onto its crank, a driven linkage at a dead centre).
//
// The measure is σ, the smallest singular value of B = D Φ_q M^{-1/2}, D scaling each
// equation to unit norm in the M⁻¹ metric: 1 for mutually orthogonal equations, 0 at a
// singular configuration, and independent of units and masses. It is found from the Gram
// matrix B Bᵀ (unit diagonal, as sparse as Φ_q Φ_qᵀ) by a sparse LDLᵀ factorization and a
// few inverse iterations (Golub & Van Loan, Matrix Computations, §8.2.2), warm-started
// from the last sample's vector: a few back-substitutions per sample, no SVD. Its vector
// names the equations involved.
//
// Sampled at the points of the trajectory the solvers hand over (after accepted steps, at
// recorded points; each point of a kinematic or static analysis), σ would miss a pass
// through a singular pose, which a moving mechanism crosses in an instant. So whenever the
// samples show a dip (a sample below both neighbours), σ is minimized along the cubic
// through the neighbours' positions and velocities (golden-section search), and a pass
// below the threshold is logged as two events, entering and leaving, at the times where
// the cubic crosses it. A mechanism that stays singular logs its entry, and its exit when
// it leaves.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "mechanism_system.hpp"

namespace jourdain::mechanical {

struct Conditioning {
  double sigma = 1.0;          // the smallest singular value of D Φ_q M^{-1/2}
  std::vector<int> equations;  // the equations with a large part in its singular vector
};

class SingularityMonitor {
 public:
  // σ below `threshold` counts as singular. Events go to the run's log under `mechanism`.
  SingularityMonitor(std::string mechanism, double threshold) : mechanism_(std::move(mechanism)), threshold_(threshold) {}

  double threshold() const { return threshold_; }

  // σ at the evaluated state me.ws.state, leaving out the equations `excluded()` lists.
  Conditioning conditioning(const MechanismEval& me) const;

  // Equations left out of the measure for the rest of the run: those that depend on the
  // others at every pose (redundant constraints solved in the least-squares sense).
  void exclude(const MechanismEval& me, const std::vector<int>& equations) const;

  // A point of the trajectory at me.ctx.t, me evaluated there. `along_path`: the samples
  // lie on one motion (positions and velocities consistent), so a dip between them is
  // searched along the cubic through them; otherwise (a static analysis) only the samples
  // count. Logs the events; returns the number of singular configurations entered since
  // the last sample.
  int sample(const MechanismEval& me, bool along_path) const;

  // Whether the last sample was in a singular configuration.
  bool inside(const MechanismEval& me) const;

 private:
  std::string mechanism_;
  double threshold_;
};

}  // namespace jourdain::mechanical
