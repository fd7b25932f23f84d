// ComponentJacobian (jacobian.hpp): the chain rule along the evaluation plan.
#include "jourdain/jacobian.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "jourdain/errors.hpp"
#include "jourdain/model.hpp"

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
  for (const EvaluationPlan::StateCopy& c : plan.state_copies) copies_.emplace_back(c.y, c.x);
  for (size_t k = 0; k < plan.outputs.steps.size(); ++k) {
    const EvaluationStep& step = plan.outputs.steps[k];
    switch (step.kind) {
      case EvaluationStep::Kind::CopyStateOutputs: break;  // rows set at the start (copies_)
      case EvaluationStep::Kind::Components:
        for (int c : EvaluationPlan::components(plan.outputs, step)) add_component_unit(Unit::Kind::Outputs, c);
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
    if (!model.components()[c]->states().empty()) add_component_unit(Unit::Kind::Derivatives, c);
  rows_.resize(static_cast<size_t>(ny_ + nu_ + n_));
}

// A component's hook as a unit: it reads its states and the outputs summed into its
// inputs (its derivatives also its own outputs and unknowns) and writes its outputs (but
// those that are states, which the copies set) or its derivatives.
void ComponentJacobian::add_component_unit(Unit::Kind kind, int c) {
  const Component& comp = *model_.components()[c];
  const ComponentLayout& L = model_.layout(c);
  Unit u;
  u.kind = kind;
  u.component = c;
  for (int k = 0; k < static_cast<int>(comp.states().size()); ++k) u.state_reads.push_back(L.state_offset + k);
  std::vector<int> own_outputs;
  const auto& ports = comp.ports();
  for (size_t p = 0; p < ports.size(); ++p) {
    // Each source is the first of the driving port's outputs; the port reads as many.
    const int inputs = ports[p].domain->input_count(ports[p].side);
    for (int k = L.input_begin[p]; k < L.input_begin[p + 1]; ++k)
      for (int v = 0; v < inputs; ++v) u.slot_reads.push_back(L.input_sources[k] + v);
    if (L.port_output_offset[p] < 0) continue;
    const int count = ports[p].domain->output_count(ports[p].side);
    for (int k = 0; k < count; ++k) own_outputs.push_back(L.port_output_offset[p] + k);
  }
  if (kind == Unit::Kind::Outputs) {
    for (int y : own_outputs) {
      const bool copy = std::any_of(copies_.begin(), copies_.end(), [&](const auto& s) { return s.first == y; });
      if (!copy) u.writes.push_back(y);
    }
  } else {
    u.slot_reads.insert(u.slot_reads.end(), own_outputs.begin(), own_outputs.end());
    for (int k = 0; k < static_cast<int>(comp.unknowns().size()); ++k) u.slot_reads.push_back(ny_ + L.unknown_offset + k);
    for (int k = 0; k < static_cast<int>(comp.states().size()); ++k) u.writes.push_back(derivative_slot(L.state_offset + k));
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

// The rows of u's writes: each read moved in turn (see the file comment), the quotients
// times the read's row summed, then every written value put back as it was.
void ComponentJacobian::differentiate(const Unit& u, Context& ctx, const Eigen::VectorXd& increments) {
  const size_t nw = u.writes.size();
  base_.resize(nw);
  if (terms_.size() < nw) terms_.resize(nw);
  for (size_t w = 0; w < nw; ++w) {
    base_[w] = value(ctx, u.writes[w]);
    terms_[w].clear();
  }
  // The unknowns a block solver starts its iteration from: each moved point starts from
  // the same guess (they are among its writes, restored below with the rest).
  const double root_eps = std::sqrt(DBL_EPSILON);
  auto quotients = [&](double& read, double h, auto&& add_terms) {
    const double saved = read;
    read = saved + h;
    h = read - saved;  // the step as it is represented
    call(u, ctx);
    ++calls_;
    for (size_t w = 0; w < nw; ++w) {
      double& v = value(ctx, u.writes[w]);
      const double d = (v - base_[w]) / h;
      v = base_[w];
      if (d == 0.0) continue;
      if (!std::isfinite(d)) {
        const int c = u.component >= 0 ? u.component : -1;
        throw NonFiniteError(ctx.t, c >= 0 ? std::vector<std::string>{model_.components()[c]->name()} : std::vector<std::string>{},
                             "a difference quotient of the Jacobian is not finite");
      }
      add_terms(terms_[w], d);
    }
    read = saved;
  };
  for (int j : u.state_reads)
    quotients(ctx.x[j], increments[j], [&](Row& t, double d) { t.emplace_back(j, d); });
  for (int r : u.slot_reads) {
    const Row& seed = rows_[r];
    if (seed.empty()) continue;
    double moved = 0.0;
    for (const auto& [j, v] : seed) moved += std::abs(v) * increments[j];
    double& read = value(ctx, r);
    const double h = std::max(moved, root_eps * std::abs(read));
    if (!(h > 0.0)) continue;
    quotients(read, h, [&](Row& t, double d) {
      for (const auto& [j, v] : seed) t.emplace_back(j, d * v);
    });
  }
  // Each write's row: its terms by column, summed (zeros dropped).
  for (size_t w = 0; w < nw; ++w) {
    Row& t = terms_[w];
    std::sort(t.begin(), t.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    Row& out = rows_[u.writes[w]];
    out.clear();
    for (size_t k = 0; k < t.size();) {
      const int j = t[k].first;
      double sum = 0.0;
      for (; k < t.size() && t[k].first == j; ++k) sum += t[k].second;
      if (sum != 0.0) out.emplace_back(j, sum);
    }
  }
}

void ComponentJacobian::assemble(Context& ctx, const Eigen::VectorXd& increments) {
  for (Row& r : rows_) r.clear();
  for (const auto& [y, x] : copies_) rows_[y].assign(1, {x, 1.0});
  // Observables are not wanted while the hooks are called again, also when one throws.
  struct NoObservables {
    Context& ctx;
    bool before;
    explicit NoObservables(Context& c) : ctx(c), before(c.observables_wanted) { ctx.observables_wanted = false; }
    ~NoObservables() { ctx.observables_wanted = before; }
  } no_observables{ctx};
  for (const Unit& u : units_) differentiate(u, ctx, increments);
}

Eigen::MatrixXd ComponentJacobian::dense() const {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n_, n_);
  for (int i = 0; i < n_; ++i)
    for (const auto& [j, v] : row(i)) J(i, j) = v;
  return J;
}

}  // namespace jourdain
