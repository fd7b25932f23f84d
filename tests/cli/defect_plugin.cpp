// A plugin with a defect, for the command line's "internal error" exit code: a signal
// source that throws std::logic_error (no Jourdain error: a bug, not a property of the
// model) once the time reaches fail_time.
#include <stdexcept>

#include <jourdain/domains.hpp>
#include <jourdain/plugin.hpp>

namespace {

using namespace jourdain;

class Fault final : public Component {
 public:
  Fault() { declare_real("fail_time", "s", 0.5, "time from which calc_outputs throws"); }
  void configure() override {
    fail_time_ = real("fail_time");
    out_ = declare_port("out", signal_domain(), PortSide::State, "t, until the defect");
    set_dependencies(out_, {});
  }
  void calc_outputs(Eval& e) const override {
    if (e.time() >= fail_time_) throw std::logic_error("defect.fault: an invariant of the plugin broke");
    e.set_out(out_, signal::value, e.time());
  }

 private:
  double fail_time_ = 0.5;
  PortId out_;
};

}  // namespace

JOURDAIN_PLUGIN(registry) { registry.add<Fault>("defect.fault", "throws std::logic_error from fail_time on (test plugin)"); }
