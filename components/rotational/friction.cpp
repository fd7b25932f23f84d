// Dry friction between two flanges (the clutch) or between a flange and a fixed housing
// (the brake): Coulomb friction with stick and slip as events.
//
// Capacity, from the normal force F_n pressing the N friction surfaces together at the
// effective radius R (for a uniformly worn annulus R = (r_o + r_i)/2):
//   T_s = N μ_s R F_n   (static: the largest torque it holds),   T_k = N μ_k R F_n  (kinetic)
// F_n = u F_rated: u = 1 (command "none"), the input `engagement` clamped to [0, 1], or the
// input `force` over F_rated.
//
// With Δφ = φ_a − φ_b and Δω = ω_a − ω_b (φ_b = ω_b = 0 for the brake), the torque on a
// (−τ on b) in each mode, a discrete state:
//   slipping (mode ±1, the sign of Δω):  τ = −mode T_k
//   stuck    (mode 2):                   τ = −k_l (Δφ − Δφ_lock) − c_l Δω
//   open     (mode 0, u ≤ 1e-9):         τ = 0
// The events:
//   lock       Δω reaches 0 while slipping (mode · Δω falls through 0): stuck, Δφ_lock = Δφ;
//   break-away the spring's torque k_l |Δφ − Δφ_lock| rises through T_s while stuck:
//              slipping, the way the load pushes (mode = −sign τ);
//   capacity   u falls to 1e-9 (open) or rises from it (stuck if Δω = 0, else slipping).
// The stuck model. A causal component cannot know the torque that keeps two inertias
// locked together (it would need their inertias and every other torque on them), so a
// stuck clutch is a stiff torsional spring–damper anchored at the twist it locked at,
// k_l and c_l stated as parameters (lock_stiffness, lock_damping): choose k_l so that
// √(k_l / J) lies well above the driveline's frequencies (J: the braked inertia, or
// J_a J_b / (J_a + J_b) for a clutch), and c_l at least 2 √(k_l J), so that the stuck
// spring–damper is not underdamped: its spring then winds up to a load without
// overshooting it, and the break-away, which compares the spring's torque (the torque
// held, without the damper's transient) with T_s, happens only where the load exceeds
// T_s. The defaults (1e5 N m/rad, 1000 N m s/rad) suit inertias up to 2.5 kg m²; the
// spring follows a load with the time constant c_l / k_l (10 ms). It twists by at most
// T_s / k_l. Its spring energy is stored (lock_energy) and lost at a break-away (at most
// T_s² / (2 k_l) per event). The slip mode keeps the friction's direction as a discrete
// state, so that the torque never depends on the sign of a speed near zero.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "rotational_library.hpp"

namespace jourdain::rotational_library {

namespace {

constexpr double kOpen = 1e-9;  // engagement at or below which the friction is open
constexpr double kStuck = 2.0;  // the mode's value while stuck

}  // namespace

class Friction : public Component {
 public:
  explicit Friction(bool housing) : housing_(housing) {
    normal_force_ = declare_real("normal_force", "N", 1000.0,
                                 "normal force F_n pressing the surfaces together (fully engaged; with a 'force' "
                                 "input, the rated force)",
                                 Range::positive());
    radius_ = declare_real("friction_radius", "m", 0.1, "effective friction radius R", Range::positive());
    mu_s_ = declare_real("static_friction", "", 0.4, "static friction coefficient μ_s", Range::non_negative());
    mu_k_ =
        declare_real("kinetic_friction", "", 0.3, "kinetic friction coefficient μ_k (≤ μ_s)", Range::non_negative());
    declare_integer("surfaces", 2, "number N of friction surfaces (2 for a single plate or disc)", Range::at_least(1));
    declare_text("command", "none",
                 "none: always fully applied; engagement: input 'engagement' (0 to 1) times normal_force; force: "
                 "input 'force' (N)",
                 {"none", "engagement", "force"});
    k_lock_ = declare_real("lock_stiffness", "N*m/rad", 1e5, "k_l: torsional stiffness while stuck", Range::positive());
    c_lock_ = declare_real("lock_damping", "N*m*s/rad", 1000.0,
                           "c_l: damping while stuck (at least 2 √(k_l J), J the inertia held)", Range::non_negative());
  }

  void configure() override {
    surfaces_ = static_cast<double>(integer("surfaces"));
    const std::string command = text("command");
    a_ = housing_ ? declare_port("flange", rotational_domain(), PortSide::Response, "on the braked inertia")
                  : declare_port("a", rotational_domain(), PortSide::Response, "flange a, on an inertia");
    if (!housing_) b_ = declare_port("b", rotational_domain(), PortSide::Response, "flange b, on an inertia");
    if (command != "none") {
      command_ = declare_port(command, signal_domain(), PortSide::Response,
                              command == "force" ? "normal force F_n (N)" : "engagement u, 0 (open) to 1 (full)");
      force_command_ = command == "force";
    }
    std::vector<PortId> reads{a_};
    if (b_.valid()) reads.push_back(b_);
    if (command_.valid()) reads.push_back(command_);
    set_dependencies(a_, reads);
    if (b_.valid()) set_dependencies(b_, reads);

    mode_ = declare_discrete("mode", 1.0, "0 open, ±1 slipping (the sign of Δω), 2 stuck");
    lock_twist_ = declare_discrete("lock_twist", 0.0, "Δφ at which it locked", "rad");
    lock_ = declare_zero_crossing("lock", CrossingDirection::Falling, "mode · Δω, while slipping");
    break_away_ =
        declare_zero_crossing("break_away", CrossingDirection::Rising, "k_l |Δφ − Δφ_lock| − T_s, while stuck");
    if (command_.valid()) capacity_ = declare_zero_crossing("capacity", CrossingDirection::Either, "u − 1e-9");

    torque_ = declare_observable("torque", "N*m",
                                 housing_ ? "friction torque on the inertia" : "friction torque on flange a");
    slip_ = declare_observable("slip_speed", "rad/s", housing_ ? "Δω = ω, the inertia's speed" : "Δω = ω_a − ω_b");
    static_capacity_ = declare_observable("static_capacity", "N*m", "T_s, the largest torque it holds now");
    loss_ = declare_observable("loss", "W", "friction power: T_k |Δω| slipping, c_l Δω² stuck");
    set_energy_role(loss_, EnergyRole::Loss);
    lock_energy_ = declare_observable("lock_energy", "J", "½ k_l (Δφ − Δφ_lock)² while stuck");
    set_energy_role(lock_energy_, EnergyRole::Stored);
  }

  void calc_derived(Eval& e) const override {
    if (e.param(mu_k_) > e.param(mu_s_)) parameter_error("kinetic_friction", "must not exceed static_friction");
  }

  void initialize(Eval& e) const override {
    if (engagement(e) <= kOpen)
      e.set_discrete(mode_, 0.0);
    else
      close(e);
  }

  void calc_outputs(Eval& e) const override {
    const double t = torque(e);
    e.set_out(a_, rotational::torque, t);
    if (b_.valid()) e.set_out(b_, rotational::torque, -t);
  }

  void calc_derivatives(Eval& e) const override {
    const double mode = e.discrete(mode_), slip = slip_speed(e), t = torque(e);
    const bool stuck = mode == kStuck;
    const double twist = stuck ? relative_angle(e) - e.discrete(lock_twist_) : 0.0;
    e.set_observable(torque_, t);
    e.set_observable(slip_, slip);
    e.set_observable(static_capacity_, static_capacity(e));
    e.set_observable(loss_, stuck ? e.param(c_lock_) * slip * slip : -t * slip);
    e.set_observable(lock_energy_, 0.5 * e.param(k_lock_) * twist * twist);
  }

  void calc_zero_crossings(Eval& e) const override {
    const double mode = e.discrete(mode_);
    const bool slipping = mode == 1.0 || mode == -1.0;
    e.set_zero_crossing(lock_, slipping ? mode * slip_speed(e) : 1.0);
    e.set_zero_crossing(break_away_, mode == kStuck ? std::abs(spring_torque(e)) - static_capacity(e) : -1.0);
    if (capacity_.valid()) e.set_zero_crossing(capacity_, engagement(e) - kOpen);
  }

  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    const double mode = e.discrete(mode_);
    if (z == capacity_) {
      if (engagement(e) <= kOpen) {
        e.set_discrete(mode_, 0.0);
        e.log_event("opens");
      } else if (mode == 0.0) {
        close(e);
        e.log_event(e.discrete(mode_) == kStuck ? "closes, stuck" : "closes, slipping");
      }
      return;
    }
    if (z == lock_ && mode != kStuck && mode != 0.0) {
      lock(e);
      e.log_event("sticks");
      return;
    }
    if (z == break_away_ && mode == kStuck) {
      // It slips the way the load pushes a, against the friction torque that held it.
      const double t = spring_torque(e);
      e.set_discrete(mode_, t > 0.0 ? -1.0 : 1.0);
      e.log_event("breaks away (torque " + std::to_string(std::abs(t)) + " N*m)");
    }
  }

 private:
  // Engaging: stuck when the two sides turn together, else slipping the way they slip.
  void close(Eval& e) const {
    const double slip = slip_speed(e);
    if (slip == 0.0)
      lock(e);
    else
      e.set_discrete(mode_, slip > 0.0 ? 1.0 : -1.0);
  }
  void lock(Eval& e) const {
    e.set_discrete(mode_, kStuck);
    e.set_discrete(lock_twist_, relative_angle(e));
  }

  // u, the fraction of the rated normal force applied.
  double engagement(const Eval& e) const {
    if (!command_.valid()) return 1.0;
    const double v = e.in(command_, signal::value);
    if (force_command_) return std::max(v, 0.0) / e.param(normal_force_);
    return std::clamp(v, 0.0, 1.0);
  }
  // N μ R F_n: the capacity for friction coefficient μ.
  double capacity(const Eval& e, RealParam mu) const {
    return surfaces_ * e.param(mu) * e.param(radius_) * e.param(normal_force_) * engagement(e);
  }
  double static_capacity(const Eval& e) const { return capacity(e, mu_s_); }
  double relative_angle(const Eval& e) const {
    return e.in(a_, rotational::angle) - (b_.valid() ? e.in(b_, rotational::angle) : 0.0);
  }
  double slip_speed(const Eval& e) const {
    return e.in(a_, rotational::speed) - (b_.valid() ? e.in(b_, rotational::speed) : 0.0);
  }
  // While stuck: −k_l (Δφ − Δφ_lock), the torque the stuck spring holds on a.
  double spring_torque(const Eval& e) const {
    return -e.param(k_lock_) * (relative_angle(e) - e.discrete(lock_twist_));
  }
  // The torque on a in the present mode (the file comment).
  double torque(const Eval& e) const {
    const double mode = e.discrete(mode_);
    if (mode == kStuck) return spring_torque(e) - e.param(c_lock_) * slip_speed(e);
    return -mode * capacity(e, mu_k_);  // 0 when open
  }

  bool housing_;
  bool force_command_ = false;
  double surfaces_ = 2.0;
  RealParam normal_force_, radius_, mu_s_, mu_k_, k_lock_, c_lock_;
  PortId a_, b_, command_;
  DiscreteId mode_, lock_twist_;
  ZeroCrossingId lock_, break_away_, capacity_;
  ObservableId torque_, slip_, static_capacity_, loss_, lock_energy_;
};

class Clutch final : public Friction {
 public:
  Clutch() : Friction(false) {}
};
class Brake final : public Friction {
 public:
  Brake() : Friction(true) {}
};

void register_friction(Registry& r) {
  r.add<Clutch>("rotational.clutch", "friction clutch between two inertias: Coulomb stick-slip as events");
  r.add<Brake>("rotational.brake", "friction brake on one inertia, housing fixed: Coulomb stick-slip as events");
}

}  // namespace jourdain::rotational_library
