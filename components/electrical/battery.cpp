// Battery: an equivalent circuit of an open-circuit voltage, a series resistance and up to
// two RC pairs (the Thevenin model used for cells and packs, e.g. Plett, "Battery
// Management Systems", vol. 1, ch. 2),
//
//   v_p = v_n + OCV(SOC) − R0 i − Σ_k v_k         terminal voltage
//   dSOC/dt = −i / Q                               Q the capacity (A·h as written)
//   C_k dv_k/dt = i − v_k / R_k                    k = 1 .. rc_pairs (polarisation)
//
// with i the discharge current, driven out of p into the circuit: i = −Σ i_p, the
// negative of the currents the branches at p deliver into it. OCV(SOC) interpolates the
// table "ocv" linearly, held beyond its ends.
//
// Causality (README.md): p is the state side (it gives its potential), n the response
// side (it reads v_n and returns the current received at p, which flows through the
// battery). v_p reads the current drawn at p: connected to a resistive load, whose current
// reads v_p, it closes an algebraic loop, which the Newton block solver solves.
//
// Limits as events: SOC reaching soc_min ("empty") ends the run (at_empty "stop") or
// warns ("warn"); SOC reaching soc_max while charging ("full"), |i| above max_current and
// the terminal voltage leaving [min_voltage, max_voltage] warn, once per crossing.
//
// Energy: power supplied OCV i (chemical energy into the model); loss R0 i² + Σ v_k²/R_k;
// stored ½ Σ C_k v_k². With "heat_port": true, the loss leaves as the heat flow of a
// thermal port (response side) into the capacity connected to it (port power then, not a
// Loss: counted once).
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "electrical_library.hpp"

namespace jourdain::electrical_library {

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

class Battery final : public HeatPortComponent {
 public:
  Battery() {
    declare_table("ocv", {"", "V"}, "open-circuit voltage: rows [SOC (0 to 1), OCV]; linear, held beyond the ends",
                  nlohmann::json::array({nlohmann::json::array({0.0, 3.0}), nlohmann::json::array({1.0, 4.2})}));
    capacity_ = declare_real("capacity", "A*s", 3600.0 * 2.5,
                             "charge capacity Q (\"2.5 A*h\"); SOC falls by 1 as Q leaves", Range::positive());
    r0_ = declare_real("series_resistance", kOhm, 0.05, "series (ohmic) resistance R0 (Ω, written V/A)",
                       Range::non_negative());
    declare_integer("rc_pairs", 1, "number of RC pairs (0, 1 or 2)", Range::between(0, 2));
    for (int k = 1; k <= 2; ++k) {
      const std::string s = std::to_string(k);
      rk_[k - 1] = declare_real("r" + s, kOhm, k == 1 ? 0.02 : 0.03, "resistance R" + s + " of RC pair " + s,
                                Range::positive());
      ck_[k - 1] = declare_real("c" + s, kFarad, k == 1 ? 1000.0 : 20000.0,
                                "capacitance C" + s + " of RC pair " + s + " (F, written A*s/V)", Range::positive());
    }
    soc_min_ = declare_real("soc_min", "", 0.0, "SOC at which the battery is empty (an event)", Range::between(0, 1));
    soc_max_ = declare_real("soc_max", "", 1.0, "SOC at which the battery is full (an event)", Range::between(0, 1));
    declare_text("at_empty", "stop", "stop: end the run when SOC reaches soc_min; warn: say so and go on",
                 {"stop", "warn"});
    declare_config_real("max_current", "A", std::numeric_limits<double>::infinity(),
                        "|i| above which a warning is given (inf: none; configuration: the event exists or not)",
                        Range::positive());
    declare_config_real("min_voltage", "V", -std::numeric_limits<double>::infinity(),
                        "terminal voltage below which a warning is given (-inf: none)");
    declare_config_real("max_voltage", "V", std::numeric_limits<double>::infinity(),
                        "terminal voltage above which a warning is given (inf: none)");
    declare_heat_port_parameter("true: a thermal port 'heat' returns the Joule losses as heat flow");
  }
  void configure() override {
    const auto rows = table("ocv");
    if (const std::string why = Curve::check(rows); !why.empty()) parameter_error("ocv", why);
    ocv_ = Curve(rows);
    stop_at_empty_ = text("at_empty") == "stop";
    pairs_ = static_cast<int>(integer("rc_pairs"));
    max_current_ = config_real("max_current");
    min_voltage_ = config_real("min_voltage");
    max_voltage_ = config_real("max_voltage");

    p_ = declare_port("p", electrical_domain(), PortSide::State,
                      "positive terminal: gives v_n + OCV − R0 i − Σ v_k; any number of branches");
    n_ = declare_port("n", electrical_domain(), PortSide::Response,
                      "negative terminal, to a node-side element (a ground): reads v_n, returns the current");
    set_dependencies(p_, {p_, n_});
    set_dependencies(n_, {p_});
    configure_heat_port("to a heat capacity: returns the Joule losses", {p_});
    soc_ = declare_state("soc", "", 1.0, "state of charge, 1 full, 0 empty");
    for (int k = 0; k < pairs_; ++k)
      vk_[k] = declare_state("v" + std::to_string(k + 1), "V", 0.0,
                             "voltage across RC pair " + std::to_string(k + 1) + " (positive while discharging)");
    current_ = declare_observable("current", "A", "discharge current i, out of p (< 0 while charging)");
    ocv_obs_ = declare_observable("open_circuit_voltage", "V", "open-circuit voltage OCV(SOC)");
    voltage_ = declare_observable("voltage", "V", "terminal voltage v_p − v_n");
    supplied_ = declare_observable("chemical_power", "W", "power released by the cell reaction, OCV i");
    loss_ = declare_observable("loss", "W", "Joule losses, R0 i² + Σ v_k²/R_k");
    stored_ = declare_observable("energy", "J", "energy stored in the RC pairs' capacitances, ½ Σ C_k v_k²");
    set_energy_role(supplied_, EnergyRole::Supplied);
    set_loss_role(loss_);  // with a heat port, it leaves through it
    set_energy_role(stored_, EnergyRole::Stored);

    empty_ = declare_zero_crossing("empty", CrossingDirection::Falling, "SOC − soc_min");
    full_ = declare_zero_crossing("full", CrossingDirection::Falling, "soc_max − SOC");
    if (std::isfinite(max_current_))
      overcurrent_ = declare_zero_crossing("overcurrent", CrossingDirection::Falling, "max_current − |i|");
    if (std::isfinite(min_voltage_))
      undervoltage_ = declare_zero_crossing("undervoltage", CrossingDirection::Falling, "v − min_voltage");
    if (std::isfinite(max_voltage_))
      overvoltage_ = declare_zero_crossing("overvoltage", CrossingDirection::Falling, "max_voltage − v");
  }
  void calc_derived(Eval& e) const override {
    if (!(e.param(soc_min_) < e.param(soc_max_))) parameter_error("soc_max", "must be above soc_min");
  }
  void calc_outputs(Eval& e) const override {
    e.set_out(p_, electrical::voltage, e.in(n_, electrical::voltage) + voltage(e));
    e.set_out(n_, electrical::current, e.in(p_, electrical::current));
    if (has_heat_port()) set_heat_flow(e, loss(e));
  }
  void calc_derivatives(Eval& e) const override {
    const double i = current(e);
    e.set_derivative(soc_, -i / e.param(capacity_));
    double stored = 0.0;
    for (int k = 0; k < pairs_; ++k) {
      const double r = e.param(rk_[k]), c = e.param(ck_[k]), v = e.state(vk_[k]);
      e.set_derivative(vk_[k], (i - v / r) / c);
      stored += 0.5 * c * v * v;
    }
    const double ocv = ocv_(e.state(soc_));
    e.set_observable(current_, i);
    e.set_observable(ocv_obs_, ocv);
    e.set_observable(voltage_, voltage(e));
    e.set_observable(supplied_, ocv * i);
    e.set_observable(loss_, loss(e));
    e.set_observable(stored_, stored);
  }
  void calc_zero_crossings(Eval& e) const override {
    const double soc = e.state(soc_);
    e.set_zero_crossing(empty_, soc - e.param(soc_min_));
    e.set_zero_crossing(full_, e.param(soc_max_) - soc);
    if (overcurrent_.valid()) e.set_zero_crossing(overcurrent_, max_current_ - std::abs(current(e)));
    if (undervoltage_.valid()) e.set_zero_crossing(undervoltage_, voltage(e) - min_voltage_);
    if (overvoltage_.valid()) e.set_zero_crossing(overvoltage_, max_voltage_ - voltage(e));
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    const std::string soc = "SOC " + fixed(100.0 * e.state(soc_), 2) + " %";
    if (z == empty_) {
      const std::string why = "battery empty: " + soc + " reached soc_min";
      if (stop_at_empty_) e.terminate(why);
      else e.warn(why + "; the run goes on with the OCV held at its table's end");
    } else if (z == full_) {
      e.warn("battery full: " + soc + " reached soc_max while charging");
    } else if (z == overcurrent_) {
      e.warn("battery current " + fixed(current(e), 3) + " A beyond max_current (" + soc + ")");
    } else if (z == undervoltage_) {
      e.warn("battery terminal voltage " + fixed(voltage(e), 3) + " V below min_voltage (" + soc + ")");
    } else if (z == overvoltage_) {
      e.warn("battery terminal voltage " + fixed(voltage(e), 3) + " V above max_voltage (" + soc + ")");
    }
  }

 private:
  double current(const Eval& e) const { return -e.in(p_, electrical::current); }
  // v_p − v_n = OCV(SOC) − R0 i − Σ v_k.
  double voltage(const Eval& e) const {
    double v = ocv_(e.state(soc_)) - e.param(r0_) * current(e);
    for (int k = 0; k < pairs_; ++k) v -= e.state(vk_[k]);
    return v;
  }
  double loss(const Eval& e) const {
    const double i = current(e);
    double p = e.param(r0_) * i * i;
    for (int k = 0; k < pairs_; ++k) {
      const double v = e.state(vk_[k]);
      p += v * v / e.param(rk_[k]);
    }
    return p;
  }

  Curve ocv_;
  bool stop_at_empty_ = true;
  int pairs_ = 0;
  double max_current_ = 0.0, min_voltage_ = 0.0, max_voltage_ = 0.0;
  RealParam capacity_, r0_, rk_[2], ck_[2], soc_min_, soc_max_;
  PortId p_, n_;
  StateId soc_, vk_[2];
  ObservableId current_, ocv_obs_, voltage_, supplied_, loss_, stored_;
  ZeroCrossingId empty_, full_, overcurrent_, undervoltage_, overvoltage_;
};

void register_battery(Registry& r) {
  r.add<Battery>("electrical.battery",
                 "battery: OCV(SOC) table, series R0, up to two RC pairs, capacity; SOC and limits as events");
}

}  // namespace jourdain::electrical_library
