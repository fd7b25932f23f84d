// Energy accounting: where the energy of a run goes (framework/README.md, "Energy").
//
// Every connection carries power from its response side into its state side, as its
// domain states it (Domain::power: force × velocity, pressure × flow, voltage × current,
// a heat flow). A component says the rest through observables with an EnergyRole: the
// energy it stores, the power it loses to the surroundings as heat, and the power it
// brings in from outside the model (an ideal source). For every component
//
//     Σ power in through its ports + supplied − lost − d(stored)/dt = 0        (E1)
//
// holds at every instant; summed over the model the port terms cancel, connection by
// connection, leaving  supplied − lost − d(stored)/dt = 0  (E2). Over a run the
// integrals of (E1) are taken by quadrature on each accepted step (run_netlist does,
// through the solvers' interpolants), so the residual of (E1) and (E2) measures how well
// the run integrated, not the bookkeeping. A jump of stored energy at an event (a mass
// stopped by an end stop) is no flow: it is reported apart, as energy changed at events.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace jourdain {

class Model;
struct Context;

class EnergyAccount {
 public:
  explicit EnergyAccount(const Model& model);

  // Adds `weight` × the rates at ctx (evaluated in full, observables included) to the
  // integrals: the port powers, the losses and the supplies.
  void add_rates(const Context& ctx, double weight);
  // The stored energy at ctx (evaluated in full), a point of the trajectory at which the
  // integrals stand. The first call is the start; a later one that differs from the
  // previous call's, with no rates added in between, is a jump at an event.
  void stored_at(const Context& ctx);
  // Keeps the powers at ctx (evaluated in full) as one sample of the power over time:
  // summary.json's energy.power, what the report plots. The caller thins them.
  void sample_power(const Context& ctx);

  // summary.json's "energy": per component, per domain, and the whole model's balance.
  nlohmann::json to_json() const;
  // Σ over components of |residual of (E1)| and the energy moved (the scale the residual
  // is measured against: Σ over connections of ∫|P| dt, plus ∫|supplied|, ∫ lost and the
  // total variation of every stored energy, so that a pendulum trading kinetic for
  // potential energy inside one body moves energy too).
  double residual() const;
  double moved() const;

 private:
  struct Product {
    int state_output;  // into Context::y, -1: the factor 1
    int response_output;
  };
  struct Connection {
    int state_port, response_port;  // into ports_
    std::vector<Product> products;
  };
  struct PortSlot {
    int component, port, domain;
  };
  struct Roles {
    std::vector<int> stored, lost, supplied;  // into Context::observables
    int domain = -1;                          // the domain of its first port that carries power
    std::vector<int> ports;                   // into ports_
  };
  const Model* model_;
  std::vector<std::string> domain_names_;
  std::vector<PortSlot> ports_;  // every port of a domain that carries power
  std::vector<Connection> connections_;
  std::vector<Roles> roles_;  // per component
  // Integrals (J): per port, the power in and out (the positive and negative parts of
  // what its connections carry together); per component lost, supplied, the change of
  // stored energy along the trajectory and at events.
  Eigen::VectorXd in_, out_, net_;
  Eigen::VectorXd lost_, supplied_, stored_start_, stored_last_, stored_flow_change_, stored_event_change_;
  double moved_ = 0.0;  // through connections
  Eigen::VectorXd stored_values_;  // per Stored observable, at the last stored_at
  // The power over time: per sample, the time, the total supplied and lost, and per domain
  // the power its connections carry (Σ |P|).
  std::vector<double> power_time_, power_supplied_, power_lost_;
  std::vector<std::vector<double>> power_domains_;
  double stored_variation_ = 0.0;
  double supplied_variation_ = 0.0;
  bool started_ = false, flowed_ = false;
  double stored_of(const Context& ctx, int c) const;
  // The power connection k carries from its response side into its state side at ctx.
  static double power(const Connection& k, const Context& ctx);
  double component_residual(int c) const;  // of (E1), J
};

}  // namespace jourdain
