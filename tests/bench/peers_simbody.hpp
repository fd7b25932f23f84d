// The N-link chain of bench_peers built with Simbody (C++ API). Simbody's headers do not
// compile as C++20 (its index types' comparison operators become ambiguous with C++20's
// reversed candidates), so they stay in peers_simbody.cpp, compiled as C++17, behind
// this plain interface.
#pragma once

#include <memory>

namespace bench {

class SimbodyChain {
 public:
  // N rods (length, mass, uniform: inertia m L²/12 about the centre) on pins about z,
  // the first at the origin, along +x at rest; gravity along −y.
  SimbodyChain(long n, double length, double mass, double gravity);
  ~SimbodyChain();
  // Integrates from rest to t_end with RK-Merson: error-controlled at `accuracy` (> 0),
  // or at the fixed step `step`. Returns the last link's angle from +x (the sum of the
  // pins' angles).
  double run(double t_end, double accuracy, double step);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

}  // namespace bench
