// The driving torque of the slider-crank of bench_peers in closed form: an independent
// reference (inverse dynamics from the exact kinematics).
//
// netlists/slider_crank.json's dimensions: crank r = 0.1 m (1 kg, uniform: centre at r/2,
// I = m r²/12), rod l = 0.3 m (2 kg, uniform, I = m l²/12), slider 0.5 kg on a horizontal
// rail through the crank pivot O = (0, 0), gravity g along −y, no friction; the crank turns
// at the constant speed ω (θ = ω t).
//
// Kinematics, with s = sin θ, c = cos θ and D = sqrt(l² − r² s²) (> 0 since l > r):
//   crank tip   A = r (c, s),             Ȧ = r ω (−s, c),          Ä = −r ω² (c, s)
//   slider      x = r c + D,              ẋ = −ω (r s + r² s c / D),
//               ẍ = −ω² (r c + r² (c² − s²)/D + r⁴ s² c² / D³)
//   rod angle   sin φ = −r s / l, cos φ = D / l,
//               φ̇ = −r c ω / D,           φ̈ = r s (l² − r²) ω² / D³
//   centres     crank r/2 (c, s); rod (A + B)/2 with B = (x, 0); slider B.
// Torque: the driver is the only force that works besides gravity, so its power equals the
// rate of change of the kinetic plus potential energy,
//   τ ω = Σ_i (m_i a_i·v_i + I_i φ̇_i φ̈_i) + g Σ_i m_i v_i,y
// (the crank's φ̈ is 0, the slider does not turn), τ = that / ω: the torque the driver
// applies to the crank, positive along +θ.
#pragma once

#include <cmath>

namespace jourdain::bench {

struct SliderCrank {
  double r = 0.1, l = 0.3;                       // crank and rod lengths (m)
  double m_crank = 1.0, m_rod = 2.0, m_slider = 0.5;  // kg
  double gravity = 9.81;                         // m/s², along −y
  double omega = 100.0;                          // rad/s
  double crank_inertia() const { return m_crank * r * r / 12.0; }
  double rod_inertia() const { return m_rod * l * l / 12.0; }
};

// Positions, velocities and the rod's angle at t (for the tools' initial states), and the
// driving torque.
struct SliderCrankState {
  double theta, slider_x, slider_vx, rod_phi, rod_omega;
  double crank_cx, crank_cy, crank_vx, crank_vy;
  double rod_cx, rod_cy, rod_vx, rod_vy;
  double torque;
};

inline SliderCrankState slider_crank_state(const SliderCrank& m, double t) {
  const double w = m.omega, th = w * t, s = std::sin(th), c = std::cos(th), r = m.r, l = m.l;
  const double D = std::sqrt(l * l - r * r * s * s);
  SliderCrankState z;
  z.theta = th;
  z.slider_x = r * c + D;
  z.slider_vx = -w * (r * s + r * r * s * c / D);
  const double slider_ax = -w * w * (r * c + r * r * (c * c - s * s) / D + std::pow(r, 4) * s * s * c * c / std::pow(D, 3));
  z.rod_phi = std::atan2(-r * s, D);
  z.rod_omega = -r * c * w / D;
  const double rod_alpha = r * s * (l * l - r * r) * w * w / std::pow(D, 3);
  z.crank_cx = r / 2 * c, z.crank_cy = r / 2 * s;
  z.crank_vx = -r / 2 * w * s, z.crank_vy = r / 2 * w * c;
  const double crank_ax = -r / 2 * w * w * c, crank_ay = -r / 2 * w * w * s;
  const double tip_vx = -r * w * s, tip_vy = r * w * c, tip_ax = -r * w * w * c, tip_ay = -r * w * w * s;
  z.rod_cx = (r * c + z.slider_x) / 2, z.rod_cy = r * s / 2;
  z.rod_vx = (tip_vx + z.slider_vx) / 2, z.rod_vy = tip_vy / 2;
  const double rod_ax = (tip_ax + slider_ax) / 2, rod_ay = tip_ay / 2;
  const double power = m.m_crank * (crank_ax * z.crank_vx + crank_ay * z.crank_vy) +
                       m.m_rod * (rod_ax * z.rod_vx + rod_ay * z.rod_vy) + m.rod_inertia() * z.rod_omega * rod_alpha +
                       m.m_slider * slider_ax * z.slider_vx + m.gravity * (m.m_crank * z.crank_vy + m.m_rod * z.rod_vy);
  z.torque = power / w;
  return z;
}

}  // namespace jourdain::bench
