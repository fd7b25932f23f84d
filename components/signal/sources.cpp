// Signal sources: outputs that depend on time only.
#include "signal_library.hpp"

namespace jourdain::signal_library {

// y = value
class Constant final : public Component {
 public:
  Constant() { declare_real("value", "", 0.0, "output value"); }
  void configure() override {
    value_ = real("value");
    out_ = declare_port("out", signal_domain(), PortSide::State, "constant value");
    set_dependencies(out_, {});
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, value_); }

 private:
  double value_ = 0.0;
  PortId out_;
};

// y = before for t < step_time, after from then on. The switch is an event, so the
// solver stops exactly on it instead of smearing the jump over a step.
class Step final : public Component {
 public:
  Step() {
    declare_real("step_time", "s", 1.0, "time of the step");
    declare_real("before", "", 0.0, "output before the step");
    declare_real("after", "", 1.0, "output from the step on");
  }
  void configure() override {
    step_time_ = real("step_time");
    before_ = real("before");
    after_ = real("after");
    out_ = declare_port("out", signal_domain(), PortSide::State, "step signal");
    set_dependencies(out_, {});
    stepped_ = declare_discrete("stepped", 0.0, "1 once the step has happened");
    crossing_ = declare_zero_crossing("step", CrossingDirection::Rising, "t - step_time");
  }
  void initialize(Eval& e) const override { e.set_discrete(stepped_, e.time() >= step_time_ ? 1.0 : 0.0); }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.discrete(stepped_) > 0.5 ? after_ : before_); }
  void calc_zero_crossings(Eval& e) const override { e.set_zero_crossing(crossing_, e.time() - step_time_); }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    e.set_discrete(stepped_, 1.0);
    e.log_event("step to " + std::to_string(after_));
  }

 private:
  double step_time_ = 0.0, before_ = 0.0, after_ = 0.0;
  PortId out_;
  DiscreteId stepped_;
  ZeroCrossingId crossing_;
};

void register_sources(Registry& r) {
  r.add<Constant>("signal.constant", "constant value");
  r.add<Step>("signal.step", "step from one value to another at a given time (an event)");
}

}  // namespace jourdain::signal_library
