// A plugin that adds a solver method: "euler", explicit Euler at a fixed step,
//   x_{n+1} = x_n + h f(t_n, x_n),  h = step / substeps,
// with a setting of its own, "substeps" (Euler steps per `step`, kept in
// SolverSettings::extra), and linear interpolation between step ends as its dense output
// (first order, like the method). The explicit driver (jourdain/solvers/explicit.hpp)
// brings the output times and the events.
// Built twice (tests/plugin/CMakeLists.txt): as is, and with SOLVER_PLUGIN_SHADOW, which
// makes it register, after its method, a component type that is already built in: the
// plugin is refused, and its method must not stay behind.
#include <jourdain/components/domains.hpp>
#include <jourdain/plugin.hpp>
#include <jourdain/solvers/explicit.hpp>

namespace {

using namespace jourdain;

class EulerStepper final : public OneStepMethod {
 public:
  explicit EulerStepper(long substeps) : substeps_(substeps) {}
  bool adaptive() const override { return false; }
  int order() const override { return 1; }
  void step(RightHandSide& f, double t, const Eigen::VectorXd& x, const Eigen::VectorXd& f0, double h,
            Eigen::VectorXd& x1, Eigen::VectorXd& f1, double& error_norm) override {
    const double dt = h / static_cast<double>(substeps_);
    x0_ = x;
    x1 = x + dt * f0;
    for (long k = 1; k < substeps_; ++k) {
      f(t + static_cast<double>(k) * dt, x1, f1);
      x1 += dt * f1;
    }
    f(t + h, x1, f1);  // the driver's contract: the last evaluation is f(t + h, x1)
    x1_ = x1;
    error_norm = 0.0;
  }
  void dense(double theta, Eigen::VectorXd& out) const override { out = (1.0 - theta) * x0_ + theta * x1_; }

 private:
  long substeps_;
  Eigen::VectorXd x0_, x1_;
};

class Euler final : public ExplicitSolverMethod {
 public:
  Euler()
      : ExplicitSolverMethod("euler", "explicit Euler at a fixed step (test plugin)",
                             {standard_solver_setting("step"), standard_solver_setting("event_tolerance"),
                              {"substeps", SolverSetting::Kind::Integer, "", 1, Range::at_least(1),
                               "Euler steps per `step`"}}) {}
  std::unique_ptr<OneStepMethod> stepper(const SolverSettings& s) const override {
    return std::make_unique<EulerStepper>(s.extra.at("substeps").get<long>());
  }
};

#ifdef SOLVER_PLUGIN_SHADOW
class Constant final : public Component {
 public:
  void configure() override {
    out_ = declare_port("out", signal_domain(), PortSide::State, "1");
    set_dependencies(out_, {});
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, 1.0); }

 private:
  PortId out_;
};
#endif

}  // namespace

JOURDAIN_PLUGIN(registry) {
  jourdain::solvers(registry).add(std::make_shared<Euler>());
#ifdef SOLVER_PLUGIN_SHADOW
  registry.add<Constant>("signal.constant", "a plugin trying to replace a built-in type");
#endif
}
