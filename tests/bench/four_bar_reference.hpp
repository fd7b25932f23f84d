// The four-bar of bench_peers in its one degree of freedom, the crank angle θ: an
// independent reference for the three tools' absolute- or joint-coordinate runs.
//
// The linkage: crank a = 1 m pinned to the ground at O2 = (0, 0), coupler b = 4 m, rocker
// c = 2 m pinned at O4 = (d, 0), d = 4 m; uniform bars of 1 kg/m (m_i = L_i, inertia
// m_i L_i²/12 about the centre); gravity g = 9.81 m/s² along −y; no friction. s + l =
// 1 + 4 < p + q = 4 + 2: a Grashof crank-rocker, whose crank turns all the way round and
// whose coupler and rocker are never in line (the transmission angle never reaches 0 or
// π), so that the position analysis below has no singular pose for any θ.
//
// Position (closed form). The crank tip A = a (cos θ, sin θ); B lies at b from A and at c
// from O4. With e = O4 − A, f = |e|, the foot of B on the line A–O4 is p = (b² − c² + f²)
// / 2f from A, the height h = sqrt(b² − p²), and
//     B = A + p e/f + h e⊥/f,          e⊥ = (−e_y, e_x) (e turned by +90°).
// The sign of h picks the assembly branch: +h is the *open* branch, B above the line from A
// to O4 (at θ = 90°: B = (3.874, 1.996), the rocker nearly upright), the one all three
// tools start on. Then (cos φ3, sin φ3) = (B − A)/b, (cos φ4, sin φ4) = (B − O4)/c.
//
// Velocity and acceleration coefficients. The loop a e^{iθ} + b e^{iφ3} − c e^{iφ4} − d
// = 0 differentiated in θ gives, with k3 = dφ3/dθ, k4 = dφ4/dθ and n(φ) = (−sin φ, cos φ),
//     b k3 n(φ3) − c k4 n(φ4) = −a n(θ),
// a 2×2 system with determinant b c sin(φ3 − φ4) (zero only with coupler and rocker in
// line); differentiated once more, for k3' = d²φ3/dθ², k4' = d²φ4/dθ²,
//     b k3' n(φ3) − c k4' n(φ4) = a u(θ) + b k3² u(φ3) − c k4² u(φ4),   u(φ) = (cos φ, sin φ).
// Each body's mass centre G_i moves with velocity coefficient g_i = dG_i/dθ and its
// derivative g_i' (G1 = (a/2) u(θ); G2 = a u(θ) + (b/2) u(φ3); G3 = O4 + (c/2) u(φ4)), and
// turns with κ_i = 1, k3, k4 (derivatives 0, k3', k4').
//
// Equation of motion (Lagrange, T = ½ M(θ) θ̇², V = Σ m_i g y_Gi):
//     M(θ) θ̈ + ½ M'(θ) θ̇² = Q(θ),
//     M = Σ (m_i |g_i|² + I_i κ_i²),   ½ M' = Σ (m_i g_i·g_i' + I_i κ_i κ_i'),   Q = −g Σ m_i g_i,y.
// Energy E = ½ M θ̇² + V is conserved; its drift over the run checks the integration.
//
// Integration: the 3-stage Gauss–Legendre method (order 6, implicit, its stage equations
// iterated to rounding), at a fixed step h; the run at 2h beside it shows its own error,
// which falls as h⁶.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

namespace jourdain::bench {

struct FourBar {
  double a = 1.0, b = 4.0, c = 2.0, d = 4.0;  // crank, coupler, rocker, ground (m)
  double mass_per_length = 1.0;               // kg/m
  double gravity = 9.81;                      // m/s², along −y
  double theta0 = M_PI / 2;                   // crank angle at rest at t = 0

  double mass(double length) const { return mass_per_length * length; }
  double inertia(double length) const { return mass(length) * length * length / 12.0; }
};

// The pose at crank angle θ on the open branch: coupler and rocker angles and the three
// mass centres.
struct FourBarPose {
  double theta, phi3, phi4;
  std::array<double, 2> crank_centre, coupler_centre, rocker_centre, A, B;
};

inline FourBarPose four_bar_pose(const FourBar& m, double theta) {
  FourBarPose p;
  p.theta = theta;
  p.A = {m.a * std::cos(theta), m.a * std::sin(theta)};
  const double ex = m.d - p.A[0], ey = -p.A[1], f = std::hypot(ex, ey);
  const double foot = (m.b * m.b - m.c * m.c + f * f) / (2 * f), h = std::sqrt(m.b * m.b - foot * foot);
  p.B = {p.A[0] + (foot * ex - h * ey) / f, p.A[1] + (foot * ey + h * ex) / f};
  p.phi3 = std::atan2(p.B[1] - p.A[1], p.B[0] - p.A[0]);
  p.phi4 = std::atan2(p.B[1], p.B[0] - m.d);
  p.crank_centre = {p.A[0] / 2, p.A[1] / 2};
  p.coupler_centre = {(p.A[0] + p.B[0]) / 2, (p.A[1] + p.B[1]) / 2};
  p.rocker_centre = {(m.d + p.B[0]) / 2, p.B[1] / 2};
  return p;
}

// M, ½M', Q and V at θ (see the top), and sin(φ3 − φ4), the transmission's distance from
// a singular pose.
struct FourBarTerms {
  double mass, half_mass_rate, force, potential, transmission_sine;
};

inline FourBarTerms four_bar_terms(const FourBar& m, double theta) {
  const double st = std::sin(theta), ct = std::cos(theta);
  const double ax = m.a * ct, ay = m.a * st;
  const double ex = m.d - ax, ey = -ay, f = std::hypot(ex, ey);
  const double foot = (m.b * m.b - m.c * m.c + f * f) / (2 * f), h = std::sqrt(m.b * m.b - foot * foot);
  const double bx = ax + (foot * ex - h * ey) / f, by = ay + (foot * ey + h * ex) / f;
  const double c3 = (bx - ax) / m.b, s3 = (by - ay) / m.b, c4 = (bx - m.d) / m.c, s4 = by / m.c;
  // b k3 n3 − c k4 n4 = r: columns (−b s3, b c3) and (c s4, −c c4).
  const double det = m.b * m.c * (s3 * c4 - c3 * s4);
  auto solve = [&](double rx, double ry, double& k3, double& k4) {
    k3 = (rx * (-m.c * c4) - (m.c * s4) * ry) / det;
    k4 = ((-m.b * s3) * ry - (m.b * c3) * rx) / det;
  };
  double k3, k4, k3p, k4p;
  solve(m.a * st, -m.a * ct, k3, k4);  // −a n(θ) = (a sin θ, −a cos θ)
  solve(ax + m.b * k3 * k3 * c3 - m.c * k4 * k4 * c4, ay + m.b * k3 * k3 * s3 - m.c * k4 * k4 * s4, k3p, k4p);
  // Mass-centre velocity coefficients g and their derivatives gp.
  const double g1x = -ay / 2, g1y = ax / 2, g1px = -ax / 2, g1py = -ay / 2;
  const double g2x = -ay - m.b / 2 * k3 * s3, g2y = ax + m.b / 2 * k3 * c3;
  const double g2px = -ax + m.b / 2 * (-k3p * s3 - k3 * k3 * c3), g2py = -ay + m.b / 2 * (k3p * c3 - k3 * k3 * s3);
  const double g3x = -m.c / 2 * k4 * s4, g3y = m.c / 2 * k4 * c4;
  const double g3px = m.c / 2 * (-k4p * s4 - k4 * k4 * c4), g3py = m.c / 2 * (k4p * c4 - k4 * k4 * s4);
  const double m1 = m.mass(m.a), m2 = m.mass(m.b), m3 = m.mass(m.c);
  const double i1 = m.inertia(m.a), i2 = m.inertia(m.b), i3 = m.inertia(m.c);
  FourBarTerms t;
  t.mass = m1 * (g1x * g1x + g1y * g1y) + i1 + m2 * (g2x * g2x + g2y * g2y) + i2 * k3 * k3 +
           m3 * (g3x * g3x + g3y * g3y) + i3 * k4 * k4;
  t.half_mass_rate = m1 * (g1x * g1px + g1y * g1py) + m2 * (g2x * g2px + g2y * g2py) + i2 * k3 * k3p +
                     m3 * (g3x * g3px + g3y * g3py) + i3 * k4 * k4p;
  t.force = -m.gravity * (m1 * g1y + m2 * g2y + m3 * g3y);
  t.potential = m.gravity * (m1 * ay / 2 + m2 * (ay + by) / 2 + m3 * by / 2);
  t.transmission_sine = s3 * c4 - c3 * s4;
  return t;
}

struct FourBarReference {
  double theta = 0.0, omega = 0.0;  // at t_end
  double energy_drift = 0.0;        // largest |E(t) − E(0)| over the steps (J)
  double energy = 0.0;              // E(0) (J)
  double min_transmission_sine = 1.0;  // smallest |sin(φ3 − φ4)| over the steps
};

// θ and θ̇ at t_end from rest at m.theta0, by 3-stage Gauss–Legendre at the step h.
inline FourBarReference four_bar_reference(const FourBar& m, double t_end, double h) {
  const double r15 = std::sqrt(15.0);
  const double A[3][3] = {{5.0 / 36, 2.0 / 9 - r15 / 15, 5.0 / 36 - r15 / 30},
                          {5.0 / 36 + r15 / 24, 2.0 / 9, 5.0 / 36 - r15 / 24},
                          {5.0 / 36 + r15 / 30, 2.0 / 9 + r15 / 15, 5.0 / 36}};
  const double B[3] = {5.0 / 18, 4.0 / 9, 5.0 / 18};
  auto accel = [&](double th, double w) {
    const FourBarTerms t = four_bar_terms(m, th);
    return (t.force - t.half_mass_rate * w * w) / t.mass;
  };
  FourBarReference r;
  double th = m.theta0, w = 0.0;
  auto energy = [&](double th_, double w_) {
    const FourBarTerms t = four_bar_terms(m, th_);
    r.min_transmission_sine = std::min(r.min_transmission_sine, std::abs(t.transmission_sine));
    return 0.5 * t.mass * w_ * w_ + t.potential;
  };
  r.energy = energy(th, w);
  const long steps = std::lround(t_end / h);
  // Stage slopes: kt[i] = θ̇ at stage i, kw[i] = θ̈ at stage i; start from the step's start.
  double kt[3], kw[3];
  for (int i = 0; i < 3; ++i) kt[i] = w, kw[i] = accel(th, w);
  for (long s = 0; s < steps; ++s) {
    // Fixed-point iteration of the stage equations (a contraction of factor ~h|∂f/∂y|)
    // until the change stops shrinking: converged to rounding.
    double last_change = INFINITY;
    for (int it = 0; it < 50; ++it) {
      double change = 0.0, nt[3], nw[3];
      for (int i = 0; i < 3; ++i) {
        double st = th, sw = w;
        for (int j = 0; j < 3; ++j) st += h * A[i][j] * kt[j], sw += h * A[i][j] * kw[j];
        nt[i] = sw;
        nw[i] = accel(st, sw);
        change = std::max({change, std::abs(nt[i] - kt[i]), std::abs(nw[i] - kw[i]) * h});
      }
      for (int i = 0; i < 3; ++i) kt[i] = nt[i], kw[i] = nw[i];
      if (change == 0.0 || (it > 0 && change >= last_change)) break;
      last_change = change;
    }
    for (int i = 0; i < 3; ++i) th += h * B[i] * kt[i], w += h * B[i] * kw[i];
    r.energy_drift = std::max(r.energy_drift, std::abs(energy(th, w) - r.energy));
  }
  r.theta = th;
  r.omega = w;
  return r;
}

}  // namespace jourdain::bench
