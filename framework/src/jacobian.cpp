// ComponentJacobian (jacobian.hpp): the whole model's difference quotients, each column
// evaluating only its state's cone.
#include "jourdain/jacobian.hpp"

#include <algorithm>

#include "jourdain/model.hpp"
#include "component_slots.hpp"
#include "observables_off.hpp"

namespace jourdain {

namespace {

void sort_unique(std::vector<int>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

ComponentJacobian::ComponentJacobian(const Model& model)
    : model_(model), n_(model.state_count()), ny_(model.output_count()), nu_(model.unknown_count()) {
  const EvaluationPlan& plan = model.plan();
  copies_.resize(static_cast<size_t>(n_));
  std::vector<char> is_copy(static_cast<size_t>(ny_), 0);
  for (const EvaluationPlan::StateCopy& c : plan.state_copies) {
    copies_[c.x].push_back(c.y);
    is_copy[c.y] = 1;
  }
  for (size_t k = 0; k < plan.outputs.steps.size(); ++k) {
    const EvaluationStep& step = plan.outputs.steps[k];
    switch (step.kind) {
      case EvaluationStep::Kind::CopyStateOutputs: break;  // a moved state sets its copies itself (copies_)
      case EvaluationStep::Kind::Components:
        for (int c : EvaluationPlan::components(plan.outputs, step)) add_component_unit(Unit::Kind::Outputs, c, is_copy);
        break;
      case EvaluationStep::Kind::Block: {
        // What the block solver reads from outside the block, and every output and
        // unknown it writes; a value it both reads and writes (an unknown's guess) is its own.
        Unit u;
        u.kind = Unit::Kind::Block;
        u.step = static_cast<int>(k);
        for (const PlanVariable& w : plan.writes(step)) {
          if (w.vector == PlanVariable::Vector::Output) u.writes.push_back(w.index);
          if (w.vector == PlanVariable::Vector::Unknown) u.writes.push_back(ny_ + w.index);
        }
        sort_unique(u.writes);
        for (const PlanVariable& r : plan.reads(step)) {
          if (r.vector == PlanVariable::Vector::State) u.state_reads.push_back(r.index);
          int slot = r.vector == PlanVariable::Vector::Output ? r.index
                     : r.vector == PlanVariable::Vector::Unknown ? ny_ + r.index
                                                                  : -1;
          if (slot >= 0 && !std::binary_search(u.writes.begin(), u.writes.end(), slot)) u.slot_reads.push_back(slot);
        }
        sort_unique(u.state_reads);
        sort_unique(u.slot_reads);
        units_.push_back(std::move(u));
        break;
      }
    }
  }
  // The derivatives of every component with states (any order: they read outputs only).
  for (int c = 0; c < static_cast<int>(model.components().size()); ++c)
    if (!model.components()[c]->states().empty()) add_component_unit(Unit::Kind::Derivatives, c, is_copy);
  columns_.resize(static_cast<size_t>(n_));
  moved_.assign(static_cast<size_t>(ny_ + nu_ + n_), 0);
  find_cones();
}

// A component's hook as a unit: it reads its states and the outputs summed into its
// inputs (its derivatives also its own outputs and unknowns) and writes its outputs (but
// those that are states, which the copies set) or its derivatives.
void ComponentJacobian::add_component_unit(Unit::Kind kind, int c, const std::vector<char>& is_copy) {
  const Component& comp = *model_.components()[c];
  const ComponentLayout& L = model_.layout(c);
  Unit u;
  u.kind = kind;
  u.component = c;
  for (int k = 0; k < static_cast<int>(comp.states().size()); ++k) u.state_reads.push_back(L.state_offset + k);
  const ComponentSlots slots = component_slots(model_, c);
  u.slot_reads = slots.inputs();
  const std::vector<int> own_outputs = slots.outputs();
  if (kind == Unit::Kind::Outputs) {
    for (int y : own_outputs)
      if (!is_copy[y]) u.writes.push_back(y);
  } else {
    u.slot_reads.insert(u.slot_reads.end(), own_outputs.begin(), own_outputs.end());
    for (int k = 0; k < static_cast<int>(comp.unknowns().size()); ++k) u.slot_reads.push_back(ny_ + L.unknown_offset + k);
    for (int k = 0; k < static_cast<int>(comp.states().size()); ++k) u.writes.push_back(ny_ + nu_ + L.state_offset + k);
  }
  sort_unique(u.slot_reads);
  if (kind == Unit::Kind::Outputs && u.writes.empty()) return;  // all its outputs are states
  units_.push_back(std::move(u));
}

double& ComponentJacobian::value(Context& ctx, int slot) const {
  if (slot < ny_) return ctx.y[slot];
  if (slot < ny_ + nu_) return ctx.unknowns[slot - ny_];
  return ctx.xdot[slot - ny_ - nu_];
}

// Each state's cone: the units that read it or its copies, then those that read what
// they write, and so on; in plan order, the order they are called in.
void ComponentJacobian::find_cones() {
  std::vector<std::vector<int>> state_readers(static_cast<size_t>(n_)), slot_readers(static_cast<size_t>(ny_ + nu_ + n_));
  for (int u = 0; u < static_cast<int>(units_.size()); ++u) {
    for (int j : units_[u].state_reads) state_readers[j].push_back(u);
    for (int r : units_[u].slot_reads) slot_readers[r].push_back(u);
  }
  cones_.assign(static_cast<size_t>(n_), {});
  std::vector<int> mark(units_.size(), -1);
  for (int j = 0; j < n_; ++j) {
    std::vector<int>& cone = cones_[j];
    auto reach = [&](int u) {
      if (mark[u] == j) return;
      mark[u] = j;
      cone.push_back(u);
    };
    for (int u : state_readers[j]) reach(u);
    for (int y : copies_[j])
      for (int u : slot_readers[y]) reach(u);
    for (size_t k = 0; k < cone.size(); ++k)
      for (int w : units_[cone[k]].writes)
        for (int u : slot_readers[w]) reach(u);
    std::sort(cone.begin(), cone.end());
  }
}

void ComponentJacobian::call(const Unit& u, Context& ctx) const {
  switch (u.kind) {
    case Unit::Kind::Outputs: {
      Eval e = model_.view(u.component, ctx, Eval::Phase::Outputs);
      model_.components()[u.component]->calc_outputs(e);
      break;
    }
    case Unit::Kind::Derivatives: {
      Eval e = model_.view(u.component, ctx, Eval::Phase::Derivatives);
      model_.components()[u.component]->calc_derivatives(e);
      break;
    }
    case Unit::Kind::Block: model_.plan().outputs.steps[u.step].solver->solve(model_, ctx); break;
  }
}

void ComponentJacobian::assemble(Context& ctx, const Eigen::VectorXd& increments) {
  const ObservablesOff no_observables(ctx);  // the hooks are called again for f alone
  const Eigen::VectorXd f0 = ctx.xdot;
  for (int j = 0; j < n_; ++j) {
    const std::vector<int>& cone = cones_[j];
    saved_.clear();
    for (int u : cone)
      for (int w : units_[u].writes) saved_.push_back(value(ctx, w));
    const double xj = ctx.x[j], inc = increments[j];
    ctx.x[j] = xj + inc;
    for (int y : copies_[j]) ctx.y[y] = ctx.x[j];
    auto put_back = [&] {
      ctx.x[j] = xj;
      for (int y : copies_[j]) ctx.y[y] = xj;
      size_t k = 0;
      for (int u : cone)
        for (int w : units_[u].writes) value(ctx, w) = saved_[k++];
    };
    // A unit none of whose reads moved writes what it wrote (its hook is a function of
    // its reads): it is skipped, and what reads only its values is not reached.
    for (int y : copies_[j]) moved_[y] = 1;
    size_t at = 0;
    try {
      for (int u : cone) {
        const Unit& unit = units_[u];
        bool reads_moved = std::binary_search(unit.state_reads.begin(), unit.state_reads.end(), j);
        for (size_t r = 0; !reads_moved && r < unit.slot_reads.size(); ++r) reads_moved = moved_[unit.slot_reads[r]] != 0;
        if (reads_moved) {
          call(unit, ctx);
          ++calls_;
          for (size_t k = 0; k < unit.writes.size(); ++k)
            if (value(ctx, unit.writes[k]) != saved_[at + k]) moved_[unit.writes[k]] = 1;
        }
        at += unit.writes.size();
      }
    } catch (...) {
      clear_moved(j);
      put_back();
      throw;
    }
    clear_moved(j);
    // As CVODE's dense quotient forms it: (1/δ) (f(x + δ e_j) − f(x)).
    const double inc_inv = 1.0 / inc;
    auto& column = columns_[j];
    column.clear();
    for (int u : cone) {
      if (units_[u].kind != Unit::Kind::Derivatives) continue;
      for (int w : units_[u].writes) {
        const int i = w - ny_ - nu_;
        const double v = inc_inv * (ctx.xdot[i] - f0[i]);
        if (v != 0.0) column.emplace_back(i, v);
      }
    }
    std::sort(column.begin(), column.end());
    put_back();
  }
}

void ComponentJacobian::clear_moved(int j) {
  for (int y : copies_[j]) moved_[y] = 0;
  for (int u : cones_[j])
    for (int w : units_[u].writes) moved_[w] = 0;
}

Eigen::MatrixXd ComponentJacobian::dense() const {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n_, n_);
  for (int j = 0; j < n_; ++j)
    for (const auto& [i, v] : column(j)) J(i, j) = v;
  return J;
}

}  // namespace jourdain
