// Closed forms the validation tests compare with.
#pragma once

#include <cmath>

namespace jourdain::test {

// Complete elliptic integral of the first kind K(m), m = k², by the arithmetic-geometric
// mean (Abramowitz & Stegun 17.6): the period of a pendulum released at θ0 is
// 4 √(L/g) K(sin²(θ0/2)).
inline double elliptic_k(double m) {
  double a = 1.0, b = std::sqrt(1.0 - m);
  for (int i = 0; i < 30; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return M_PI / (2.0 * a);
}

}  // namespace jourdain::test
