// The angle of a uniform rod pendulum (length L, pinned at one end, released at rest
// horizontal; θ from the horizontal, counter-clockwise, gravity g downwards) from its
// equation in the one angle: θ'' = −(3g / 2L) cos θ (pivot inertia m L²/3, gravity's
// torque m g (L/2) cos θ), integrated by classical RK4 at the step h (error ~ h⁴). An
// independent reference for the pendulum in absolute coordinates, for bench_peers and
// for tests.
#pragma once

#include <cmath>

namespace jourdain::bench {

inline double rod_pendulum_angle(double t_end, double h, double gravity = 9.81, double length = 1.0) {
  double theta = 0.0, omega = 0.0;
  auto accel = [&](double th) { return -1.5 * gravity / length * std::cos(th); };
  const long steps = std::lround(t_end / h);
  for (long s = 0; s < steps; ++s) {
    const double k1t = omega, k1w = accel(theta);
    const double k2t = omega + 0.5 * h * k1w, k2w = accel(theta + 0.5 * h * k1t);
    const double k3t = omega + 0.5 * h * k2w, k3w = accel(theta + 0.5 * h * k2t);
    const double k4t = omega + h * k3w, k4w = accel(theta + h * k3t);
    theta += h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t);
    omega += h / 6.0 * (k1w + 2 * k2w + 2 * k3w + k4w);
  }
  return theta;
}

}  // namespace jourdain::bench
