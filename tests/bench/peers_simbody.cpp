// See peers_simbody.hpp.
#include "peers_simbody.hpp"

#include <vector>

#include <Simbody.h>

namespace bench {

struct SimbodyChain::Parts {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  std::vector<SimTK::MobilizedBody::Pin> links;
};

SimbodyChain::SimbodyChain(long n, double length, double mass, double gravity) : parts_(std::make_unique<Parts>()) {
  Parts& p = *parts_;
  SimTK::Force::UniformGravity(p.forces, p.matter, SimTK::Vec3(0, -gravity, 0));
  // Mass properties about the body's origin, the pin: I_zz = m L²/12 + m (L/2)² = m L²/3.
  const double about_pin = mass * length * length / 3.0;
  SimTK::Body::Rigid rod(
      SimTK::MassProperties(mass, SimTK::Vec3(length / 2, 0, 0), SimTK::Inertia(1e-9, about_pin, about_pin)));
  SimTK::MobilizedBody parent = p.matter.Ground();
  for (long i = 0; i < n; ++i) {
    p.links.emplace_back(parent, SimTK::Transform(SimTK::Vec3(i == 0 ? 0.0 : length, 0, 0)), rod, SimTK::Transform());
    parent = p.links.back();
  }
  p.system.realizeTopology();
}

SimbodyChain::~SimbodyChain() = default;

double SimbodyChain::run(double t_end, double accuracy, double step) {
  Parts& p = *parts_;
  SimTK::State state = p.system.getDefaultState();  // every pin at 0: along +x, at rest
  SimTK::RungeKuttaMersonIntegrator integ(p.system);
  if (accuracy > 0.0) integ.setAccuracy(accuracy);
  else integ.setFixedStepSize(step);
  SimTK::TimeStepper stepper(p.system, integ);
  stepper.initialize(state);
  stepper.stepTo(t_end);
  const SimTK::State& end = integ.getState();
  double theta = 0.0;
  for (const auto& link : p.links) theta += link.getAngle(end);
  return theta;
}

}  // namespace bench
