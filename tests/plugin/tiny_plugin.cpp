// A minimal plugin for the plugin-loading tests: one signal source, tiny.ramp, y = slope t.
// Built three times (tests/plugin/CMakeLists.txt): as is; with JOURDAIN_ABI_VERSION=999
// (a plugin built for another framework version); and with TINY_PLUGIN_SHADOW, which
// makes it also register a built-in type name (a plugin may not shadow a type).
#include <jourdain/components/domains.hpp>
#include <jourdain/plugin.hpp>

namespace {

using namespace jourdain;

class Ramp final : public Component {
 public:
  Ramp() { slope_ = declare_real("slope", "1/s", 1.0, "dy/dt"); }
  void configure() override {
    out_ = declare_port("out", signal_domain(), PortSide::State, "slope * t");
    set_dependencies(out_, {});
  }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.param(slope_) * e.time()); }

 private:
  RealParam slope_;
  PortId out_;
};

}  // namespace

JOURDAIN_PLUGIN(registry) {
  registry.add<Ramp>("tiny.ramp", "y = slope t (test plugin)");
#ifdef TINY_PLUGIN_SHADOW
  registry.add<Ramp>("signal.constant", "a plugin trying to replace a built-in type");
#endif
}
