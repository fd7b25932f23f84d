// ZeroCrossingEvaluation (framework/include/jourdain/zero_crossing_evaluation.hpp): the
// zero-crossing functions evaluated through the part of the plan they read equal, to the
// bit, those of a whole evaluation of the outputs (Model::zero_crossing_values), on
// example netlists mid-run; also when the Context was last evaluated at another point, so
// that every output the restriction leaves out holds a value of that other point.
#include "jourdain/zero_crossing_evaluation.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;

namespace {

// At the state `t` into the netlist's run and at points moved from it (each state by a
// relative 1e-7 times a different factor: a step's worth, which keeps a mechanism near
// its constraints), evaluated in turn in one Context as a root finding does.
void check_example(const std::string& name, double t) {
  CAPTURE(name);
  CAPTURE(t);
  Netlist net = jourdain::test::load(jourdain::test::read_text(jourdain::test::netlist_path(name)));
  const Context start = jourdain::test::state_at(net, t);
  const ZeroCrossingEvaluation crossings(net.model);
  REQUIRE(net.model.zero_crossing_count() > 0);
  Context partial = start, whole = start;
  const int n = net.model.state_count();
  for (int k = 0; k < 4; ++k) {
    Eigen::VectorXd x = start.x;
    for (int j = 0; j < n; ++j) x[j] += 1e-7 * (1 + (3 * j + k) % 7) * std::max(std::abs(x[j]), 1e-3);
    crossings.evaluate(partial, start.t + 1e-4 * k, x);
    net.model.zero_crossing_values(whole, start.t + 1e-4 * k, x);
    for (int i = 0; i < net.model.zero_crossing_count(); ++i) {
      CAPTURE(net.model.components()[net.model.zero_crossings()[i].component]->name());
      CHECK(partial.zero_crossings[i] == whole.zero_crossings[i]);
    }
    CHECK(partial.x == x);
  }
  CHECK(crossings.calls_per_evaluation() <= crossings.whole_plan_calls());
  MESSAGE(name << ": " << crossings.calls_per_evaluation() << " of " << crossings.whole_plan_calls() << " calls");
}

}  // namespace

TEST_CASE("ZeroCrossingEvaluation: the functions of a whole evaluation, on hydraulic, electric and mechanical examples") {
  // A sequencer reading pressure sensors whose outputs a component computes at two steps
  // of the plan (the flow port first, the reading later).
  SUBCASE("press, pressing") { check_example("press_3150kN", 6.1); }
  SUBCASE("press, holding") { check_example("press_3150kN", 12.0); }
  SUBCASE("load-sensing excavator: relief valves, check valves, sequencer") { check_example("excavator_ls", 2.6); }
  SUBCASE("bouncing mass: a contact") { check_example("bouncing_mass", 0.3); }
}

TEST_CASE("ZeroCrossingEvaluation: leaves out what no function reads") {
  // The electric excavator's zero crossings (the battery's limits, the sequencer) read the
  // DC bus, the machines and the pumps' torques: not the mechanism's block, the largest call.
  check_example("electric_excavator", 3.0);
  Netlist net = jourdain::test::load(jourdain::test::read_text(jourdain::test::netlist_path("electric_excavator")));
  const ZeroCrossingEvaluation crossings(net.model);
  CHECK(crossings.calls_per_evaluation() < crossings.whole_plan_calls());
  // The block that holds the boom: the boom's outputs (only the block's solve writes
  // them), set to a value no solve gives, stay so.
  const EvaluationPlan& plan = net.model.plan();
  std::vector<int> mechanism_outputs;
  for (const EvaluationStep& step : plan.outputs.steps) {
    if (step.kind != EvaluationStep::Kind::Block) continue;
    bool boom = false;
    for (int c : EvaluationPlan::components(plan.outputs, step)) boom = boom || net.model.components()[c]->name() == "boom";
    if (!boom) continue;
    for (const PlanVariable& w : plan.writes(step))
      if (w.vector == PlanVariable::Vector::Output && net.model.variable_name(w).starts_with("boom."))
        mechanism_outputs.push_back(w.index);
  }
  REQUIRE(!mechanism_outputs.empty());
  Context ctx = jourdain::test::state_at(net, 3.0);
  const Eigen::VectorXd x = ctx.x;
  Context whole = ctx;
  net.model.zero_crossing_values(whole, ctx.t, x);
  for (int y : mechanism_outputs) ctx.y[y] = 12345.0;
  crossings.evaluate(ctx, ctx.t, x);
  for (int y : mechanism_outputs) CHECK(ctx.y[y] == 12345.0);
  CHECK(ctx.zero_crossings == whole.zero_crossings);
}
