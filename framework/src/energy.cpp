// Energy accounting (energy.hpp).
#include "jourdain/energy.hpp"

#include <algorithm>
#include <cmath>

#include "jourdain/model.hpp"

namespace jourdain {

EnergyAccount::EnergyAccount(const Model& model) : model_(&model) {
  const auto& components = model.components();
  const int n = static_cast<int>(components.size());
  roles_.resize(n);
  auto domain_index = [&](const Domain& d) {
    auto it = std::find(domain_names_.begin(), domain_names_.end(), d.name);
    if (it != domain_names_.end()) return static_cast<int>(it - domain_names_.begin());
    domain_names_.push_back(d.name);
    return static_cast<int>(domain_names_.size()) - 1;
  };
  // slot[c][p]: port p of component c in ports_ (-1: it carries no power).
  std::vector<std::vector<int>> slot(n);
  for (int c = 0; c < n; ++c) {
    const auto& ports = components[c]->ports();
    slot[c].assign(ports.size(), -1);
    for (size_t p = 0; p < ports.size(); ++p) {
      if (ports[p].domain->power.empty()) continue;
      const int di = domain_index(*ports[p].domain);
      if (roles_[c].domain < 0) roles_[c].domain = di;
      slot[c][p] = static_cast<int>(ports_.size());
      roles_[c].ports.push_back(slot[c][p]);
      ports_.push_back({c, static_cast<int>(p), di});
    }
  }
  for (const PortSlot& r : ports_) {
    const Component& comp = *components[r.component];
    const PortSpec& spec = comp.ports()[r.port];
    // Each connection once, from its response side (driven by exactly one state side).
    if (spec.side != PortSide::Response) continue;
    const int response_base = model.layout(r.component).port_output_offset[r.port];
    for (const auto& [sc, sp] : model.peers(r.component, r.port)) {
      Connection k{slot[sc][sp], slot[r.component][r.port], {}};
      const int state_base = model.layout(sc).port_output_offset[sp];
      for (const PowerProduct& term : spec.domain->power)
        k.products.push_back({term.state_output < 0 ? -1 : state_base + term.state_output,
                              response_base + term.response_output});
      connections_.push_back(std::move(k));
    }
  }
  for (int c = 0; c < n; ++c) {
    const auto& observables = components[c]->observables();
    const int offset = model.layout(c).observable_offset;
    for (size_t o = 0; o < observables.size(); ++o) {
      const int at = offset + static_cast<int>(o);
      switch (observables[o].energy) {
        case EnergyRole::Stored: roles_[c].stored.push_back(at); break;
        case EnergyRole::Loss: roles_[c].lost.push_back(at); break;
        case EnergyRole::Supplied: roles_[c].supplied.push_back(at); break;
        case EnergyRole::None: break;
      }
    }
  }
  in_ = out_ = net_ = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(ports_.size()));
  Eigen::Index stored_count = 0;
  for (const Roles& r : roles_) stored_count += static_cast<Eigen::Index>(r.stored.size());
  stored_values_ = Eigen::VectorXd::Zero(stored_count);
  lost_ = supplied_ = stored_start_ = stored_last_ = stored_flow_change_ = stored_event_change_ = Eigen::VectorXd::Zero(n);
}

double EnergyAccount::power(const Connection& k, const Context& ctx) {
  double p = 0.0;
  for (const Product& t : k.products) p += (t.state_output < 0 ? 1.0 : ctx.y[t.state_output]) * ctx.y[t.response_output];
  return p;
}

double EnergyAccount::stored_of(const Context& ctx, int c) const {
  double e = 0.0;
  for (int o : roles_[c].stored) e += ctx.observables[o];
  return e;
}

void EnergyAccount::add_rates(const Context& ctx, double weight) {
  net_.setZero();
  for (const Connection& k : connections_) {
    const double p = power(k, ctx);
    net_[k.state_port] += p;
    net_[k.response_port] -= p;
    moved_ += weight * std::abs(p);
  }
  in_ += weight * net_.cwiseMax(0.0);
  out_ -= weight * net_.cwiseMin(0.0);
  for (size_t c = 0; c < roles_.size(); ++c) {
    for (int o : roles_[c].lost) lost_[c] += weight * ctx.observables[o];
    for (int o : roles_[c].supplied) {
      supplied_[c] += weight * ctx.observables[o];
      supplied_variation_ += weight * std::abs(ctx.observables[o]);
    }
  }
  flowed_ = true;
}

void EnergyAccount::stored_at(const Context& ctx) {
  int k = 0;
  for (const Roles& r : roles_)
    for (int o : r.stored) {
      if (started_ && flowed_) stored_variation_ += std::abs(ctx.observables[o] - stored_values_[k]);
      stored_values_[k++] = ctx.observables[o];
    }
  for (size_t c = 0; c < roles_.size(); ++c) {
    const double e = stored_of(ctx, static_cast<int>(c));
    if (!started_) stored_start_[c] = e;
    else if (flowed_) stored_flow_change_[c] += e - stored_last_[c];
    else stored_event_change_[c] += e - stored_last_[c];
    stored_last_[c] = e;
  }
  started_ = true;
  flowed_ = false;
}

double EnergyAccount::component_residual(int c) const {
  double ports = 0.0;
  for (int s : roles_[c].ports) ports += in_[s] - out_[s];
  return ports + supplied_[c] - lost_[c] - stored_flow_change_[c];
}

void EnergyAccount::sample_power(const Context& ctx) {
  power_domains_.resize(domain_names_.size());
  std::vector<double> carried(domain_names_.size(), 0.0);
  for (const Connection& k : connections_) {
    carried[ports_[k.response_port].domain] += std::abs(power(k, ctx));
  }
  double supplied = 0.0, lost = 0.0;
  for (const Roles& r : roles_) {
    for (int o : r.supplied) supplied += ctx.observables[o];
    for (int o : r.lost) lost += ctx.observables[o];
  }
  power_time_.push_back(ctx.t);
  power_supplied_.push_back(supplied);
  power_lost_.push_back(lost);
  for (size_t d = 0; d < carried.size(); ++d) power_domains_[d].push_back(carried[d]);
}

double EnergyAccount::moved() const { return moved_ + supplied_variation_ + lost_.cwiseAbs().sum() + stored_variation_; }

double EnergyAccount::residual() const {
  double r = 0.0;
  for (size_t c = 0; c < roles_.size(); ++c) r += std::abs(component_residual(static_cast<int>(c)));
  return r;
}

nlohmann::json EnergyAccount::to_json() const {
  using nlohmann::json;
  const auto& components = model_->components();
  json per_component = json::object();
  Eigen::MatrixXd domain_totals = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(domain_names_.size()), 5);
  double supplied = 0.0, lost = 0.0, stored = 0.0, at_events = 0.0;
  for (size_t c = 0; c < components.size(); ++c) {
    const auto i = static_cast<Eigen::Index>(c);
    const Roles& r = roles_[c];
    if (r.ports.empty() && r.stored.empty() && r.lost.empty() && r.supplied.empty()) continue;
    json ports = json::object();
    for (int s : r.ports) {
      const PortSlot& slot = ports_[s];
      ports[components[c]->ports()[slot.port].name] = {{"domain", domain_names_[slot.domain]}, {"in", in_[s]}, {"out", out_[s]}};
      domain_totals(slot.domain, 0) += in_[s];
      domain_totals(slot.domain, 1) += out_[s];
    }
    json entry = {{"ports", ports}, {"residual", component_residual(static_cast<int>(c))}};
    if (r.domain >= 0) entry["domain"] = domain_names_[r.domain];
    if (!r.supplied.empty()) entry["supplied"] = supplied_[i];
    if (!r.lost.empty()) entry["lost"] = lost_[i];
    if (!r.stored.empty()) {
      entry["stored"] = {{"start", stored_start_[i]},
                         {"end", stored_last_[i]},
                         {"change", stored_flow_change_[i] + stored_event_change_[i]}};
      if (stored_event_change_[i] != 0.0) entry["stored"]["changed_at_events"] = stored_event_change_[i];
    }
    if (r.domain >= 0) {
      domain_totals(r.domain, 2) += supplied_[i];
      domain_totals(r.domain, 3) += lost_[i];
      domain_totals(r.domain, 4) += stored_flow_change_[i] + stored_event_change_[i];
    }
    supplied += supplied_[i];
    lost += lost_[i];
    stored += stored_flow_change_[i];
    at_events += stored_event_change_[i];
    per_component[components[c]->name()] = std::move(entry);
  }
  json per_domain = json::object();
  for (size_t d = 0; d < domain_names_.size(); ++d) {
    const auto i = static_cast<Eigen::Index>(d);
    per_domain[domain_names_[d]] = {{"in", domain_totals(i, 0)},
                                    {"out", domain_totals(i, 1)},
                                    {"supplied", domain_totals(i, 2)},
                                    {"lost", domain_totals(i, 3)},
                                    {"stored_change", domain_totals(i, 4)}};
  }
  const double scale = moved();
  const double balance = supplied - lost - stored;  // (E2) over the run
  json power_domains = json::object();
  for (size_t d = 0; d < power_domains_.size(); ++d) power_domains[domain_names_[d]] = power_domains_[d];
  const json power = {{"unit", "W"},
                      {"time", power_time_},
                      {"supplied", power_supplied_},
                      {"lost", power_lost_},
                      {"carried", power_domains}};
  return {{"unit", "J"},
          {"components", per_component},
          {"domains", per_domain},
          {"power", power},
          {"total",
           {{"supplied", supplied},
            {"lost", lost},
            {"stored_change", stored + at_events},
            {"changed_at_events", at_events},
            {"moved", scale},
            {"balance_residual", balance},
            {"relative_balance_residual", scale > 0.0 ? std::abs(balance) / scale : 0.0},
            {"component_residual", residual()}}}};
}

}  // namespace jourdain
