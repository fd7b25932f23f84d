// The evaluation plan (evaluation_plan.hpp): the steps Model::evaluate runs, in an order
// that respects every read-after-write, with an algebraic loop as one block step.
#include <algorithm>
#include <map>
#include <set>

#include "jourdain/evaluation_plan.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;
using Kind = EvaluationStep::Kind;
using V = PlanVariable::Vector;

namespace {

// Every step of one evaluation in the order it runs: the outputs, then the derivatives.
struct PlacedStep {
  const EvaluationStage* stage;
  const EvaluationStep* step;
};
std::vector<PlacedStep> in_order(const EvaluationPlan& plan) {
  std::vector<PlacedStep> all;
  for (const auto& s : plan.outputs.steps) all.push_back({&plan.outputs, &s});
  for (const auto& s : plan.derivatives.steps) all.push_back({&plan.derivatives, &s});
  return all;
}

// Which step writes each output and derivative (each has one writer), checked on the way.
std::map<PlanVariable, size_t> writers(const Model& model, const std::vector<PlacedStep>& steps) {
  std::map<PlanVariable, size_t> writer;
  for (size_t i = 0; i < steps.size(); ++i)
    for (const PlanVariable& w : model.plan().writes(*steps[i].step)) {
      if (w.vector != V::Output && w.vector != V::Derivative) continue;  // observables: written, never read
      INFO("written twice: " << model.variable_name(w));
      CHECK(writer.emplace(w, i).second);
    }
  return writer;
}

// Every value a step reads that some step writes is written by an earlier step.
void check_read_after_write(const Model& model) {
  const auto steps = in_order(model.plan());
  const auto writer = writers(model, steps);
  for (size_t i = 0; i < steps.size(); ++i)
    for (const PlanVariable& r : model.plan().reads(*steps[i].step)) {
      const auto it = writer.find(r);
      if (it == writer.end()) continue;
      INFO("step " << i << " reads " << model.variable_name(r) << ", written by step " << it->second);
      CHECK(it->second < i);
    }
}

// Every connected input is read, by a step that runs its component, after the step that
// writes the output it is connected to.
void check_inputs_read(const Model& model) {
  const auto steps = in_order(model.plan());
  const auto writer = writers(model, steps);
  int connections = 0;
  for (int c = 0; c < static_cast<int>(model.components().size()); ++c) {
    const Component& comp = *model.components()[c];
    for (int p = 0; p < static_cast<int>(comp.ports().size()); ++p)
      for (const auto& [pc, pp] : model.peers(c, p)) {
        const Component& peer = *model.components()[pc];
        const std::string port = peer.name() + "." + peer.ports()[pp].name;
        for (const RecordableVariable& v : model.recordable()) {
          if (v.source != RecordableVariable::Source::Output) continue;
          if (v.name != port && v.name.rfind(port + ".", 0) != 0) continue;
          ++connections;
          const PlanVariable slot{V::Output, v.index};
          REQUIRE(writer.count(slot) == 1);
          bool read = false;
          for (size_t i = writer.at(slot) + 1; i < steps.size() && !read; ++i) {
            const auto reads = model.plan().reads(*steps[i].step);
            const auto members = EvaluationPlan::components(*steps[i].stage, *steps[i].step);
            read = std::find(reads.begin(), reads.end(), slot) != reads.end() &&
                   std::find(members.begin(), members.end(), c) != members.end();
          }
          INFO(comp.name() << "." << comp.ports()[p].name << " reads " << v.name);
          CHECK(read);
        }
      }
  }
  CHECK(connections > 0);
}

Netlist load_file(const std::string& name) {
  Registry r = jourdain::test::builtin_registry();
  return load_netlist(jourdain::test::netlist_path(name), r);
}

const char* kSignalLoop = R"({
  "components": {
    "u":   {"type": "signal.constant", "params": {"value": 2.0}},
    "err": {"type": "signal.sum", "params": {"signs": "+-"}},
    "amp": {"type": "signal.gain", "params": {"k": 50}},
    "fb":  {"type": "signal.gain", "params": {"k": 0.3}},
    "lag": {"type": "signal.integrator"}
  },
  "connections": [["u.out", "err.in1"], ["err.out", "amp.in"], ["amp.out", "fb.in"], ["fb.out", "err.in2"],
                  ["amp.out", "lag.in"]]
})";

}  // namespace

TEST_CASE("the plan of the mass-spring-damper respects every read-after-write") {
  const Netlist n = load_file("mass_spring_damper");
  const Model& model = n.model;
  check_read_after_write(model);
  check_inputs_read(model);
  const EvaluationPlan& plan = model.plan();
  // The mass's position and velocity are copies of its states, made first.
  REQUIRE_FALSE(plan.outputs.steps.empty());
  CHECK(plan.outputs.steps.front().kind == Kind::CopyStateOutputs);
  CHECK(plan.state_copies.size() == 2);
  // Every component's derivatives are in the derivative stage, once.
  std::multiset<int> derived;
  for (const auto& s : plan.derivatives.steps) {
    CHECK(s.phase == Eval::Phase::Derivatives);
    for (int c : EvaluationPlan::components(plan.derivatives, s)) derived.insert(c);
  }
  CHECK(derived.size() == model.components().size());
  CHECK(std::set<int>(derived.begin(), derived.end()).size() == derived.size());
  // The mass's derivatives are written by the derivative stage.
  const auto writes = [&] {
    std::set<std::string> names;
    for (const auto& s : plan.derivatives.steps)
      for (const PlanVariable& w : plan.writes(s)) names.insert(model.variable_name(w));
    return names;
  }();
  CHECK(writes.count("der(mass.x)") == 1);
  CHECK(writes.count("der(mass.v)") == 1);
}

TEST_CASE("an algebraic loop is one block step, solved by the general Newton solver") {
  const Netlist n = jourdain::test::load(kSignalLoop);
  const Model& model = n.model;
  check_read_after_write(model);
  check_inputs_read(model);
  std::vector<const EvaluationStep*> blocks;
  for (const auto& s : model.plan().outputs.steps)
    if (s.kind == Kind::Block) blocks.push_back(&s);
  REQUIRE(blocks.size() == 1);
  const EvaluationStep& block = *blocks.front();
  std::set<std::string> members;
  for (int c : EvaluationPlan::components(model.plan().outputs, block)) members.insert(model.components()[c]->name());
  CHECK(members == std::set<std::string>{"err", "amp", "fb"});
  REQUIRE(block.solver != nullptr);
  CHECK(block.solver == model.block_solver(block.block));
  // The Newton solver watches no trajectory: recorded points need no evaluation for it.
  CHECK_FALSE(model.block_solvers_observe());
  // The block reads the constant from outside and writes every output of its members.
  std::set<std::string> reads, writes;
  for (const PlanVariable& r : model.plan().reads(block)) reads.insert(model.variable_name(r));
  for (const PlanVariable& w : model.plan().writes(block)) writes.insert(model.variable_name(w));
  CHECK(reads.count("u.out") == 1);
  CHECK(reads.count("amp.out") == 0);  // solved inside the block
  CHECK(reads.count("amp.k") == 1);
  CHECK(writes == std::set<std::string>{"err.out", "amp.out", "fb.out"});
}

TEST_CASE("the plan is what the evaluation runs: its loop solved as before") {
  const Netlist n = jourdain::test::load(kSignalLoop);
  Context ctx = n.model.make_context(0.0);
  n.model.initialize(ctx);
  const double A = 50.0, b = 0.3, u = 2.0;
  CHECK(n.model.value(ctx, n.model.recordable("amp.out")) == doctest::Approx(A * u / (1.0 + A * b)).epsilon(1e-12));
  CHECK(ctx.algebraic_iterations > 0);
  CHECK(n.model.variable_name({V::Time, 0}) == "time");
  CHECK(n.model.variable_name({V::State, 0}) == "lag.y");
  CHECK(n.model.variable_name({V::Derivative, 0}) == "der(lag.y)");
}

TEST_CASE("a run of one type never holds a component that reads another of the run") {
  // Three gains in series and two beside the first, all of one type: the series must not
  // share a run (each reads the one before), while gains of one level may.
  const Netlist n = jourdain::test::load(R"({
    "components": {
      "u":  {"type": "signal.constant", "params": {"value": 1.0}},
      "g1": {"type": "signal.gain", "params": {"k": 2}},
      "g2": {"type": "signal.gain", "params": {"k": 3}},
      "g3": {"type": "signal.gain", "params": {"k": 5}},
      "p1": {"type": "signal.gain", "params": {"k": 7}},
      "p2": {"type": "signal.gain", "params": {"k": 11}}
    },
    "connections": [["u.out", "g1.in"], ["g1.out", "g2.in"], ["g2.out", "g3.in"], ["u.out", "p1.in"],
                    ["u.out", "p2.in"]]
  })");
  const Model& model = n.model;
  const EvaluationPlan& plan = model.plan();
  check_read_after_write(model);
  std::map<std::string, size_t> step_of;
  for (size_t i = 0; i < plan.outputs.steps.size(); ++i) {
    const EvaluationStep& s = plan.outputs.steps[i];
    for (int c : EvaluationPlan::components(plan.outputs, s)) step_of[model.components()[c]->name()] = i;
    // Nothing a step writes is read by that step.
    const auto reads = plan.reads(s), writes = plan.writes(s);
    for (const PlanVariable& w : writes) {
      INFO("step " << i << " reads what it writes: " << model.variable_name(w));
      CHECK(std::find(reads.begin(), reads.end(), w) == reads.end());
    }
  }
  CHECK(step_of.at("g1") != step_of.at("g2"));
  CHECK(step_of.at("g2") != step_of.at("g3"));
  // And the evaluation gives the chain's product.
  Context ctx = model.make_context(0.0);
  model.initialize(ctx);
  CHECK(model.value(ctx, model.recordable("g3.out")) == doctest::Approx(30.0));
}
