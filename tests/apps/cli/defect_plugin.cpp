// A plugin with a defect, for the command line's "internal error" exit code: a signal
// source that throws std::logic_error (no Jourdain error: a bug, not a property of the
// model) once the time reaches fail_time.
#include <stdexcept>

#include <jourdain/components/domains.hpp>
#include <jourdain/plugin.hpp>

namespace {

using namespace jourdain;

class Fault final : public Component {
 public:
  Fault() { fail_time_ = declare_real("fail_time", "s", 0.5, "time from which calc_outputs throws"); }
  void configure() override {
    out_ = declare_port("out", signal_domain(), PortSide::State, "t, until the defect");
    set_dependencies(out_, {});
  }
  void calc_outputs(Eval& e) const override {
    if (e.time() >= e.param(fail_time_)) throw std::logic_error("defect.fault: an invariant of the plugin broke");
    e.set_out(out_, signal::value, e.time());
  }

 private:
  RealParam fail_time_;
  PortId out_;
};

}  // namespace

JOURDAIN_PLUGIN(registry) { registry.add<Fault>("defect.fault", "throws std::logic_error from fail_time on (test plugin)"); }
