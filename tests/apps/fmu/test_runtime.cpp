// The FMI functions of an exported FMU (apps/fmu/src/runtime.cpp): the state machine,
// bad values, saving and restoring a state, resetting, logging, and a run that fails.
#include <cmath>

#include "fmi_test_importer.hpp"
#include "fmu_support.hpp"

using namespace jourdain;
using namespace jourdain::test;

namespace {

// The mass-spring-damper as an FMU (oscillator_fmu), unpacked and loaded.
struct OscillatorFmu {
  std::unique_ptr<UnpackedFmu> fmu;
  std::unique_ptr<fmi_test::Binary> binary;
  unsigned x = 0, stiffness = 0, mass = 0;
  OscillatorFmu() {
    fmu = std::make_unique<UnpackedFmu>(oscillator_fmu());
    binary = std::make_unique<fmi_test::Binary>(fmu->folder(), fmu->md.model_identifier);
    x = fmu->vr("mass.x");
    stiffness = fmu->vr("spring.stiffness");
    mass = fmu->vr("mass.mass");
  }
  std::unique_ptr<fmi_test::Instance> instance(const char* name = "msd", bool logging = false) const {
    return std::make_unique<fmi_test::Instance>(*binary, name, fmu->md.guid, logging);
  }
};

// Unpacked and loaded once for the whole program: the test cases make their own instances.
const OscillatorFmu& oscillator() {
  static const OscillatorFmu f;
  return f;
}

bool logged(const fmi_test::Instance& inst, fmi2Status status, const std::string& part) {
  for (const auto& m : inst.messages)
    if (m.status == status && m.text.find(part) != std::string::npos) return true;
  return false;
}

std::vector<double> trajectory(fmi_test::Instance& inst, unsigned vr, double t0, int steps, double h) {
  std::vector<double> out;
  for (int k = 0; k < steps; ++k) {
    REQUIRE(inst.step(t0 + k * h, h) == fmi2OK);
    out.push_back(inst.get(vr));
  }
  return out;
}

}  // namespace

TEST_CASE("calls out of the standard's order are refused with a message") {
  const OscillatorFmu& f = oscillator();
  auto inst = f.instance();
  REQUIRE(inst->valid());
  CHECK(inst->step(0.0, 0.01) == fmi2Error);
  CHECK(logged(*inst, fmi2Error, "fmi2DoStep: not allowed in state 'instantiated'"));
  double v = 0.0;
  CHECK(f.binary->get_real(inst->handle(), &f.x, 1, &v) == fmi2Error);  // outputs are not known yet
  REQUIRE(inst->start(0.0) == fmi2OK);
  CHECK(f.binary->setup_experiment(inst->handle(), fmi2False, 0.0, 0.0, fmi2False, 0.0) == fmi2Error);
  CHECK(logged(*inst, fmi2Error, "fmi2SetupExperiment: not allowed in state 'step complete'"));
  SUBCASE("a communication point that is not the FMU's time") {
    CHECK(inst->step(0.5, 0.01) == fmi2Error);
    CHECK(logged(*inst, fmi2Error, "is not the FMU's time"));
    CHECK(inst->step(0.0, 0.01) == fmi2OK);  // the instance goes on
  }
  SUBCASE("a step that is not positive") {
    CHECK(inst->step(0.0, 0.0) == fmi2Error);
    CHECK(logged(*inst, fmi2Error, "must be positive"));
  }
  SUBCASE("after fmi2Terminate") {
    CHECK(f.binary->terminate(inst->handle()) == fmi2OK);
    CHECK(inst->step(0.0, 0.01) == fmi2Error);
    CHECK(logged(*inst, fmi2Error, "not allowed in state 'terminated'"));
    CHECK(f.binary->reset(inst->handle()) == fmi2OK);  // back to the start
    CHECK(inst->start(0.0) == fmi2OK);
    CHECK(inst->step(0.0, 0.01) == fmi2OK);
  }
}

TEST_CASE("bad values and names are refused, and nothing is set") {
  const OscillatorFmu& f = oscillator();
  auto inst = f.instance();
  REQUIRE(inst->start(0.0) == fmi2OK);
  SUBCASE("outside the parameter's range") {
    const fmi2ValueReference vrs[] = {f.stiffness, f.mass};
    const double values[] = {200.0, -1.0};  // a mass is positive
    CHECK(f.binary->set_real(inst->handle(), vrs, 2, values) == fmi2Error);
    CHECK(logged(*inst, fmi2Error, "parameter 'mass'"));
    CHECK(inst->get(f.stiffness) == 100.0);  // the valid one was not set either
  }
  SUBCASE("an output") {
    CHECK(inst->set(f.x, 1.0) == fmi2Error);
    CHECK(logged(*inst, fmi2Error, "'mass.x' is an output"));
  }
  SUBCASE("a value reference the FMU does not have") {
    CHECK(inst->set(99, 1.0) == fmi2Error);
    CHECK(logged(*inst, fmi2Error, "no variable has value reference 99"));
  }
  SUBCASE("a type the FMU has no variables of") {
    const fmi2ValueReference vr = 0;
    fmi2Integer i = 0;
    CHECK(f.binary->get_integer(inst->handle(), &vr, 1, &i) == fmi2Error);
    CHECK(f.binary->get_integer(inst->handle(), &vr, 0, &i) == fmi2OK);
  }
}

TEST_CASE("an FMU description of another FMU (its GUID) is refused at instantiation") {
  const OscillatorFmu& f = oscillator();
  fmi_test::Instance inst(*f.binary, "wrong", "{00000000-0000-0000-0000-000000000000}");
  CHECK_FALSE(inst.valid());
  CHECK(logged(inst, fmi2Error, "is not this FMU's"));
}

TEST_CASE("a saved state brings the run back to where it was, bit for bit") {
  const OscillatorFmu& f = oscillator();
  auto inst = f.instance();
  REQUIRE(inst->start(0.0) == fmi2OK);
  const double h = 0.01;
  trajectory(*inst, f.x, 0.0, 50, h);
  fmi2FMUstate saved = nullptr;
  REQUIRE(f.binary->get_fmu_state(inst->handle(), &saved) == fmi2OK);
  const std::vector<double> first = trajectory(*inst, f.x, 0.5, 50, h);
  // Tunable parameters are part of the state too: a change after the save is undone.
  REQUIRE(inst->set(f.stiffness, 400.0) == fmi2OK);
  REQUIRE(f.binary->set_fmu_state(inst->handle(), saved) == fmi2OK);
  CHECK(inst->get(f.stiffness) == 100.0);
  CHECK(trajectory(*inst, f.x, 0.5, 50, h) == first);
  CHECK(f.binary->free_fmu_state(inst->handle(), &saved) == fmi2OK);
  CHECK(saved == nullptr);
  size_t size = 0;
  CHECK(f.binary->serialized_size(inst->handle(), saved, &size) == fmi2Error);  // canSerializeFMUstate is false
}

TEST_CASE("fmi2Reset starts the instance again: the same run, bit for bit") {
  const OscillatorFmu& f = oscillator();
  auto inst = f.instance();
  REQUIRE(inst->start(0.0) == fmi2OK);
  const std::vector<double> first = trajectory(*inst, f.x, 0.0, 40, 0.01);
  REQUIRE(f.binary->reset(inst->handle()) == fmi2OK);
  REQUIRE(inst->start(0.0) == fmi2OK);
  CHECK(trajectory(*inst, f.x, 0.0, 40, 0.01) == first);
}

TEST_CASE("a tunable parameter changed between steps acts from the next step on") {
  const OscillatorFmu& f = oscillator();
  auto a = f.instance("a"), b = f.instance("b");
  REQUIRE(a->start(0.0) == fmi2OK);
  REQUIRE(b->start(0.0) == fmi2OK);
  const double h = 0.01;
  CHECK(trajectory(*a, f.x, 0.0, 30, h) == trajectory(*b, f.x, 0.0, 30, h));
  REQUIRE(b->set(f.stiffness, 400.0) == fmi2OK);
  const double x_a = trajectory(*a, f.x, 0.3, 1, h).back(), x_b = trajectory(*b, f.x, 0.3, 1, h).back();
  // Over one step from the same state, the stiffer spring pulls harder toward 0: the
  // extra displacement is about ½ Δk x h² / m.
  CHECK(x_b != x_a);
  CHECK(std::abs(x_b - x_a) < 300.0 * 0.1 * h * h);
}

TEST_CASE("events and warnings reach the importer's logger when it asks for them") {
  fmu::ExportOptions options;
  options.outputs = {"load.x"};
  UnpackedFmu fmu(exported_once("servo", netlist_path("position_servo"), options));
  fmi_test::Binary binary(fmu.folder(), fmu.md.model_identifier);
  auto run_to_two_seconds = [&](fmi_test::Instance& inst) {
    REQUIRE(inst.start(0.0) == fmi2OK);
    for (int k = 0; k < 20; ++k) REQUIRE(inst.step(k * 0.1, 0.1) == fmi2OK);
  };
  SUBCASE("logging on, the events' category") {
    fmi_test::Instance inst(binary, "servo", fmu.md.guid, /*logging=*/true);
    const fmi2String categories[] = {"logEvents"};
    REQUIRE(binary.set_debug_logging(inst.handle(), fmi2True, 1, categories) == fmi2OK);
    run_to_two_seconds(inst);
    CHECK(logged(inst, fmi2OK, "setpoint: step to 0.7"));  // the set-point's step at t = 1 s
    CHECK(inst.messages.front().category == "logEvents");
  }
  SUBCASE("logging off") {
    fmi_test::Instance inst(binary, "servo", fmu.md.guid);
    run_to_two_seconds(inst);
    CHECK(inst.messages.empty());
  }
  SUBCASE("an unknown category is refused") {
    fmi_test::Instance inst(binary, "servo", fmu.md.guid, true);
    const fmi2String categories[] = {"logEverything"};
    CHECK(binary.set_debug_logging(inst.handle(), fmi2True, 1, categories) == fmi2Error);
    CHECK(logged(inst, fmi2Error, "unknown log category 'logEverything'"));
  }
}

TEST_CASE("a run that cannot go on inside fmi2DoStep is an fmi2Error with the model's message") {
  // dx/dt = x², x(0) = 1: x = 1/(1 − t) has no value beyond t = 1 s.
  UnpackedFmu fmu(exported_once("blow_up", source_dir() / "tests" / "components" / "fmi" / "blow_up.json"));
  fmi_test::Binary binary(fmu.folder(), fmu.md.model_identifier);
  fmi_test::Instance inst(binary, "blow_up", fmu.md.guid);
  REQUIRE(inst.start(0.0) == fmi2OK);
  const auto out = fmu.vr("out");
  const double h = 0.1;
  int k = 0;
  fmi2Status status = fmi2OK;
  for (; k < 20 && (status = inst.step(k * h, h)) == fmi2OK; ++k)
    if ((k + 1) * h < 0.95) CHECK(inst.get(out) == doctest::Approx(1.0 / (1.0 - (k + 1) * h)).epsilon(1e-6));
  CHECK(status == fmi2Error);
  // The step into the pole ([0.9 s, 1 s]) or the one after it: where the integrator gives up.
  CHECK((k == 9 || k == 10));
  CHECK(logged(inst, fmi2Error, "fmi2DoStep: at t = "));
  CHECK(logged(inst, fmi2Error, "output 'square.out' is not finite"));  // the model's own message
  CHECK(inst.step(k * h, h) == fmi2Error);  // the instance is in error now
  CHECK(logged(inst, fmi2Error, "not allowed in state 'error'"));
  double last = 0.0;
  CHECK(binary.get_real_status(inst.handle(), fmi2LastSuccessfulTime, &last) == fmi2OK);
  CHECK(last >= k * h);  // within the step that failed
  CHECK(last <= (k + 1) * h);
}
