// See peers_simbody.hpp.
#include "peers_simbody.hpp"

#include <vector>

#include <Simbody.h>

namespace bench {

namespace {

// RK-Merson from `state` to t_end, error-controlled at `accuracy` (> 0) or at the fixed
// `step`; the state at t_end, realized through accelerations. The integrator stops at
// t_end itself (setFinalTime), so that the state there is a step's, not an interpolation.
SimTK::State integrate(const SimTK::MultibodySystem& system, const SimTK::State& start, double t_end, double accuracy,
                       double step) {
  SimTK::RungeKuttaMersonIntegrator integ(system);
  if (accuracy > 0.0) {
    integ.setAccuracy(accuracy);
  } else {
    integ.setFixedStepSize(step);
    integ.setConstraintTolerance(1e-10);
  }
  integ.setFinalTime(t_end);
  SimTK::TimeStepper stepper(system, integ);
  stepper.initialize(start);
  stepper.stepTo(t_end);
  SimTK::State end = integ.getState();
  system.realize(end, SimTK::Stage::Acceleration);
  return end;
}

// A uniform bar of `length` and `mass` along +x from the body's origin (its pin): mass
// centre at length/2, I_zz = m L²/12 + m (L/2)² = m L²/3 about the origin.
SimTK::Body::Rigid bar(double length, double mass) {
  const double about_pin = mass * length * length / 3.0;
  return SimTK::Body::Rigid(
      SimTK::MassProperties(mass, SimTK::Vec3(length / 2, 0, 0), SimTK::Inertia(1e-9, about_pin, about_pin)));
}

}  // namespace

// ---- chain ----

struct SimbodyChain::Parts {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  std::vector<SimTK::MobilizedBody::Pin> links;
};

SimbodyChain::SimbodyChain(long n, double length, double mass, double gravity) : parts_(std::make_unique<Parts>()) {
  Parts& p = *parts_;
  SimTK::Force::UniformGravity(p.forces, p.matter, SimTK::Vec3(0, -gravity, 0));
  const SimTK::Body::Rigid rod = bar(length, mass);
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
  // Every pin at 0: along +x, at rest.
  const SimTK::State end = integrate(p.system, p.system.getDefaultState(), t_end, accuracy, step);
  double theta = 0.0;
  for (const auto& link : p.links) theta += link.getAngle(end);
  return theta;
}

// ---- four-bar ----

struct SimbodyFourBar::Parts {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  SimTK::MobilizedBody::Pin crank, coupler, rocker;
  SimTK::State start;
};

SimbodyFourBar::SimbodyFourBar(double a, double b, double c, double d, double mass_per_length, double gravity,
                               double theta, double phi3, double phi4)
    : parts_(std::make_unique<Parts>()) {
  Parts& p = *parts_;
  SimTK::Force::UniformGravity(p.forces, p.matter, SimTK::Vec3(0, -gravity, 0));
  p.crank = SimTK::MobilizedBody::Pin(p.matter.Ground(), SimTK::Transform(), bar(a, mass_per_length * a),
                                      SimTK::Transform());
  p.coupler = SimTK::MobilizedBody::Pin(p.crank, SimTK::Transform(SimTK::Vec3(a, 0, 0)), bar(b, mass_per_length * b),
                                        SimTK::Transform());
  p.rocker = SimTK::MobilizedBody::Pin(p.matter.Ground(), SimTK::Transform(SimTK::Vec3(d, 0, 0)),
                                       bar(c, mass_per_length * c), SimTK::Transform());
  SimTK::Constraint::PointOnLine(p.rocker, SimTK::UnitVec3(0, 0, 1), SimTK::Vec3(c, 0, 0), p.coupler,
                                 SimTK::Vec3(b, 0, 0));
  p.system.realizeTopology();
  p.start = p.system.getDefaultState();
  p.crank.setAngle(p.start, theta);
  p.coupler.setAngle(p.start, phi3 - theta);  // relative to the crank
  p.rocker.setAngle(p.start, phi4);
}

SimbodyFourBar::~SimbodyFourBar() = default;

double SimbodyFourBar::run(double t_end, double accuracy, double step) {
  Parts& p = *parts_;
  return p.crank.getAngle(integrate(p.system, p.start, t_end, accuracy, step));
}

// ---- slider-crank ----

struct SimbodySliderCrank::Parts {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  SimTK::MobilizedBody::Pin crank, rod;
  SimTK::MobilizedBody::Slider slider;
  SimTK::State start;
};

SimbodySliderCrank::SimbodySliderCrank(double r, double l, double m_crank, double m_rod, double m_slider,
                                       double gravity, double omega, double rod_omega0)
    : parts_(std::make_unique<Parts>()) {
  Parts& p = *parts_;
  SimTK::Force::UniformGravity(p.forces, p.matter, SimTK::Vec3(0, -gravity, 0));
  p.crank = SimTK::MobilizedBody::Pin(p.matter.Ground(), SimTK::Transform(), bar(r, m_crank), SimTK::Transform());
  SimTK::Motion::Steady(p.crank, omega);
  p.rod = SimTK::MobilizedBody::Pin(p.crank, SimTK::Transform(SimTK::Vec3(r, 0, 0)), bar(l, m_rod),
                                    SimTK::Transform());
  // The slider: a point mass (its inertia does not matter, it does not turn) moving along x.
  p.slider = SimTK::MobilizedBody::Slider(
      p.matter.Ground(), SimTK::Transform(),
      SimTK::Body::Rigid(SimTK::MassProperties(m_slider, SimTK::Vec3(0), SimTK::Inertia(1e-9))), SimTK::Transform());
  SimTK::Constraint::PointOnLine(p.slider, SimTK::UnitVec3(0, 0, 1), SimTK::Vec3(0), p.rod, SimTK::Vec3(l, 0, 0));
  p.system.realizeTopology();
  p.start = p.system.getDefaultState();
  p.crank.setAngle(p.start, 0.0);
  p.rod.setAngle(p.start, 0.0);
  p.slider.setLength(p.start, r + l);
  p.crank.setRate(p.start, omega);
  p.rod.setRate(p.start, rod_omega0 - omega);  // relative to the crank
  p.slider.setRate(p.start, 0.0);
}

SimbodySliderCrank::~SimbodySliderCrank() = default;

double SimbodySliderCrank::run(double t_end, double accuracy, double step) {
  Parts& p = *parts_;
  const SimTK::State end = integrate(p.system, p.start, t_end, accuracy, step);
  SimTK::Vector motion_forces;
  p.matter.findMotionForces(end, motion_forces);
  // Simbody's motion forces τ enter its equations as M u̇ + τ = f (like its constraint
  // multipliers): the torque the motion applies is −τ.
  return -motion_forces[p.crank.getFirstUIndex(end)];
}

}  // namespace bench
