// ZeroCrossingEvaluation (zero_crossing_evaluation.hpp): the plan's outputs stage
// restricted to what the zero-crossing functions read.
#include "jourdain/zero_crossing_evaluation.hpp"

#include <algorithm>

#include "component_slots.hpp"
#include "jourdain/model.hpp"
#include "observables_off.hpp"

namespace jourdain {

namespace {

// One call of the outputs stage: a component's calc_outputs for the ports of one
// schedule step, or a block's solve, with the values the step declares it reads and
// writes, as slots (outputs [0, ny), unknowns [ny, ny + nu)).
struct Call {
  int step = -1;  // into the plan's outputs stage
  std::vector<int> reads, writes;
};

}  // namespace

// Which calls the functions need, backwards along the declared reads. A value's
// defining call is the first that declares writing it: a component may run more than
// once in a stage (its outputs that need only its states at one step, the rest later;
// or again inside an implicit block), and what runs later writes the value again from
// the same reads, so to the same value (the outputs are functions of what they declare
// to depend on: the contract the schedule rests on). What a call writes besides what it
// declares (a hook sets every output of its component) is either written again later
// or a value no one reads from it.
ZeroCrossingEvaluation::ZeroCrossingEvaluation(const Model& model) : model_(model) {
  const EvaluationPlan& plan = model.plan();
  const EvaluationStage& outputs = plan.outputs;
  const Schedule& schedule = model.schedule();
  const int ny = model.output_count(), nu = model.unknown_count();
  std::vector<char> copied(static_cast<size_t>(ny), 0);
  for (const EvaluationPlan::StateCopy& o : plan.state_copies) copied[o.y] = 1;

  // The calls in plan order: each Components step's instances are its schedule steps,
  // one each; a Block step is one.
  std::vector<Call> calls;
  std::vector<int> first_call(outputs.steps.size(), 0);
  std::vector<int> instance_call(outputs.instances.size(), -1);  // a Components instance's call
  for (int k = 0; k < static_cast<int>(outputs.steps.size()); ++k) {
    const EvaluationStep& step = outputs.steps[k];
    first_call[k] = static_cast<int>(calls.size());
    if (step.kind == EvaluationStep::Kind::Block) {
      Call call{k, {}, {}};
      for (const PlanVariable& r : plan.reads(step)) {
        if (r.vector == PlanVariable::Vector::Output) call.reads.push_back(r.index);
        if (r.vector == PlanVariable::Vector::Unknown) call.reads.push_back(ny + r.index);
      }
      for (const PlanVariable& w : plan.writes(step)) {
        if (w.vector == PlanVariable::Vector::Output) call.writes.push_back(w.index);
        if (w.vector == PlanVariable::Vector::Unknown) call.writes.push_back(ny + w.index);
      }
      calls.push_back(std::move(call));
    } else if (step.kind == EvaluationStep::Kind::Components) {
      for (int i = step.first; i < step.last; ++i) {
        instance_call[i] = static_cast<int>(calls.size());
        calls.push_back({k, {}, {}});
      }
    }
  }
  // The schedule's explicit steps are the Components instances, in order; a block's
  // members take as many instances.
  int i = 0;
  for (const ScheduledStep& sched : schedule.steps) {
    if (sched.implicit) {
      i += static_cast<int>(sched.components.size());
      continue;
    }
    Call& call = calls[instance_call[i++]];
    const int c = sched.components[0];
    const ComponentSlots slots = component_slots(model, c);
    for (int p : sched.output_ports) {
      for_each_port_read_by(*model.components()[c], p, [&](int q) {
        call.reads.insert(call.reads.end(), slots.port_inputs[q].begin(), slots.port_inputs[q].end());
      });
      if (p >= 0)
        for (int y : slots.port_outputs[p])
          if (!copied[y]) call.writes.push_back(y);
    }
  }
  whole_calls_ = static_cast<int>(calls.size());
  std::vector<int> defining(static_cast<size_t>(ny + nu), -1);
  for (int c = 0; c < static_cast<int>(calls.size()); ++c)
    for (int w : calls[c].writes)
      if (defining[w] < 0) defining[w] = c;

  // Backwards from what the functions read: each owner's inputs, outputs and unknowns.
  std::vector<char> wanted(calls.size(), 0);
  std::vector<int> pending;
  auto need = [&](int slot) {
    const int c = defining[slot];
    if (c < 0 || wanted[c]) return;
    wanted[c] = 1;
    pending.push_back(c);
  };
  std::vector<char> owner(model.components().size(), 0);
  for (const ZeroCrossingInfo& z : model.zero_crossings()) owner[z.component] = 1;
  for (int c = 0; c < static_cast<int>(owner.size()); ++c) {
    if (!owner[c]) continue;
    const ComponentSlots s = component_slots(model, c);
    for (int y : s.inputs()) need(y);
    for (int y : s.outputs()) need(y);
    const int unknowns = static_cast<int>(model.components()[c]->unknowns().size());
    for (int k = 0; k < unknowns; ++k) need(ny + model.layout(c).unknown_offset + k);
  }
  while (!pending.empty()) {
    const int c = pending.back();
    pending.pop_back();
    for (int r : calls[c].reads) need(r);
  }

  // The stage: the plan's steps in order, each Components run cut to its wanted
  // instances (consecutive ones stay one run of the type), the wanted blocks whole.
  auto place = [&](int first, int last) {
    const int at = static_cast<int>(stage_.instances.size());
    for (int i = first; i < last; ++i) {
      stage_.instances.push_back(outputs.instances[i]);
      stage_.instance_component.push_back(outputs.instance_component[i]);
    }
    return at;
  };
  for (int k = 0; k < static_cast<int>(outputs.steps.size()); ++k) {
    const EvaluationStep& step = outputs.steps[k];
    const int c = first_call[k];
    if (step.kind == EvaluationStep::Kind::CopyStateOutputs) {
      stage_.steps.push_back(step);
      continue;
    }
    if (step.kind == EvaluationStep::Kind::Block) {
      if (wanted[c]) {
        EvaluationStep block = step;
        block.first = place(step.first, step.last);
        block.last = block.first + (step.last - step.first);
        stage_.steps.push_back(block);
        ++calls_;
      }
      continue;
    }
    for (int i = step.first; i < step.last;) {
      if (!wanted[c + (i - step.first)]) {
        ++i;
        continue;
      }
      int end = i;
      while (end < step.last && wanted[c + (end - step.first)]) ++end;
      EvaluationStep run = step;
      run.first = place(i, end);
      run.last = run.first + (end - i);
      stage_.steps.push_back(run);
      calls_ += end - i;
      i = end;
    }
  }
}

void ZeroCrossingEvaluation::evaluate(Context& ctx, double t, const Eigen::VectorXd& x) const {
  ctx.t = t;
  ctx.x = x;
  if (ctx.derived_outdated) [[unlikely]]
    model_.update_derived(ctx);
  {
    const ObservablesOff outputs_only(ctx);
    const World& world = model_.world();
    for (const EvaluationStep& step : stage_.steps) {
      switch (step.kind) {
        case EvaluationStep::Kind::CopyStateOutputs:
          for (const EvaluationPlan::StateCopy& o : model_.plan().state_copies) ctx.y[o.y] = ctx.x[o.x];
          break;
        case EvaluationStep::Kind::Components: {
          const PlacedComponent* first = stage_.instances.data() + step.first;
          if (step.type) {
            step.type->outputs(first, stage_.instances.data() + step.last, ctx, world);
          } else {
            Eval e(*first->component, first->layout, ctx, world, Eval::Phase::Outputs);
            first->component->calc_outputs(e);
          }
          break;
        }
        case EvaluationStep::Kind::Block: step.solver->solve(model_, ctx); break;
      }
    }
  }
  model_.update_zero_crossings(ctx);
  if (!ctx.x.allFinite() || !ctx.zero_crossings.allFinite()) [[unlikely]] {
    // Whole, so that check_finite names the first non-finite output, as the model's
    // own zero_crossing_values would.
    model_.zero_crossing_values(ctx, t, x);
  }
}

}  // namespace jourdain
