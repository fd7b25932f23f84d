// The models of bench_peers built with Simbody (C++ API). Simbody's headers do not compile
// as C++20 (its index types' comparison operators become ambiguous with C++20's reversed
// candidates), so they stay in peers_simbody.cpp, compiled as C++17, behind this plain
// interface.
//
// Every run integrates with RK-Merson from the model's initial state to t_end, driven by a
// TimeStepper: error-controlled at `accuracy` (> 0; the constraint tolerance then the
// same), or at the fixed step `step` (the constraints, where there are any, then projected
// whenever their error exceeds 1e-10).
#pragma once

#include <memory>

namespace bench {

class SimbodyChain {
 public:
  // N rods (length, mass, uniform: inertia m L²/12 about the centre) on pins about z,
  // the first at the origin, along +x at rest; gravity along −y.
  SimbodyChain(long n, double length, double mass, double gravity);
  ~SimbodyChain();
  // Returns the last link's angle from +x (the sum of the pins' angles) at t_end.
  double run(double t_end, double accuracy, double step);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

// A four-bar: crank (length a) pinned to the ground at the origin, coupler (b) pinned to
// the crank's tip, rocker (c) pinned to the ground at (d, 0); uniform bars of
// mass_per_length (inertia m L²/12 about the centre); the loop closed by a PointOnLine
// constraint (the coupler's far end on the line along z through the rocker's tip: the
// planar pin's two equations). Started at rest with the crank, coupler and rocker at the
// absolute angles theta, phi3, phi4 (an assembled pose); gravity along −y.
class SimbodyFourBar {
 public:
  SimbodyFourBar(double a, double b, double c, double d, double mass_per_length, double gravity, double theta,
                 double phi3, double phi4);
  ~SimbodyFourBar();
  // Returns the crank's angle at t_end.
  double run(double t_end, double accuracy, double step);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

// A slider-crank: crank (length r, mass m_crank, uniform) on a pin at the origin whose
// speed is prescribed by a Motion::Steady at omega; rod (l, m_rod, uniform) pinned to the
// crank's tip; slider (m_slider) on a Slider mobilizer along x from the origin; the rod's
// far end held on the slider by a PointOnLine constraint (the line along z through the
// slider). Starts at θ = 0 (crank, rod along +x, slider at r + l) with the rod's angular
// velocity rod_omega0 (absolute); gravity along −y.
class SimbodySliderCrank {
 public:
  SimbodySliderCrank(double r, double l, double m_crank, double m_rod, double m_slider, double gravity, double omega,
                     double rod_omega0);
  ~SimbodySliderCrank();
  // Returns the torque the prescribed motion applies to the crank at t_end, positive along
  // +θ: −τ, τ its motion force from SimbodyMatterSubsystem::findMotionForces (Simbody's
  // equations read M u̇ + τ = f).
  double run(double t_end, double accuracy, double step);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace bench
