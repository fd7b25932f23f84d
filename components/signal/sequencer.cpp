// Sequencer: a state machine that drives a process through named states (the press
// cycle: idle, descent, pressing, hold, decompression, return, stop), with one output
// per commanded quantity (valve commands) taking a value per state.
//
// Parameters (netlists/README.md, "Sequencer"):
//   states       "idle descent press hold"   names in order; the first is the initial state
//   inputs       "position pressure"         input ports the conditions read (optional)
//   outputs      "main_valve pilot"          output ports
//   values       {"idle": [0, 0], "descent": [0.005, 0], ...}  per state, one value per output
//   transitions  "idle -> descent after 0.5 s;
//                 descent -> press when position > 0.75 m;
//                 press -> hold when pressure > 24 MPa"
// A transition fires when its condition becomes true while its source state is active:
//   when u > c    u rises through c       when u < c    u falls through c
//   after T       T has elapsed in the state
// or at once on entering the state if the condition already holds then (level
// semantics), so that a state whose exit condition is already met is passed through in
// the same instant. When several transitions of a state fire together, the first one
// listed wins. Each transition is a zero-crossing function located by the solver (an
// event, logged in summary.json), never a polled test:
//   active:  u − c  (rising for >, falling for <),  t − t_entered − T  (rising)
//   other states: a constant of the sign that cannot cross (−1, or +1 for <).
// For each state s, discrete states record when it was last entered (entered_s, −1
// before) and how long its last completed visit lasted (duration_s): a press cycle's
// return time and cycle time are read from them.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "jourdain/units.hpp"
#include "signal_library.hpp"

namespace jourdain::signal_library {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Names separated by spaces or commas.
std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  for (char c : text + " ") {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!current.empty()) out.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  return out;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// "24 MPa", "0.75", "-3e5 Pa": a number and an optional unit, converted to SI (any
// dimension: the input's unit is the user's to match). Throws UnitError.
double threshold_value(const std::string& text) {
  size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    throw UnitError("'" + text + "' is not a number (with an optional unit)");
  }
  const std::string unit = trim(text.substr(used));
  if (unit.empty()) return v;
  const Unit u = parse_unit(unit);
  return u.scale * v + u.offset;
}

}  // namespace

class Sequencer final : public Component {
 public:
  Sequencer() {
    declare_text("states", std::nullopt, "state names, separated by spaces or commas; the first is the initial state");
    declare_text("inputs", "", "input port names the conditions read (spaces or commas)");
    declare_text("outputs", "", "output port names (spaces or commas)");
    declare_named_vectors("values", "", 0, nlohmann::json::object(),
                          "per state, the value of each output in the order of 'outputs': {\"idle\": [0, 1], ...}");
    declare_text("transitions", "",
                 "'from -> to when input > value', 'from -> to when input < value' or 'from -> to after duration', "
                 "separated by ';' or new lines (values may carry units: \"24 MPa\", \"2 s\")");
    // The ports are named by these parameters: a two-state example shows one of each.
    set_example("states", "idle pressing");
    set_example("inputs", "pressure");
    set_example("outputs", "valve");
    set_example("values", nlohmann::json{{"idle", nlohmann::json::array({0})}, {"pressing", nlohmann::json::array({1})}});
    set_example("transitions", "idle -> pressing after 1 s; pressing -> idle when pressure > 20 MPa");
  }

  void configure() override {
    states_ = split_names(text("states"));
    if (states_.empty()) parameter_error("states", "name at least one state");
    for (size_t i = 0; i < states_.size(); ++i) {
      if (!is_identifier(states_[i]))
        parameter_error("states",
                        "'" + states_[i] + "' is not a name (letters, digits and '_', not starting with a digit)");
      if (std::find(states_.begin(), states_.begin() + static_cast<long>(i), states_[i]) !=
          states_.begin() + static_cast<long>(i))
        parameter_error("states", "'" + states_[i] + "' is listed twice");
    }
    const auto input_names = split_names(text("inputs"));
    const auto output_names = split_names(text("outputs"));
    std::vector<std::string> ports;
    for (int group = 0; group < 2; ++group)
      for (const auto& n : group == 0 ? input_names : output_names) {
        if (!is_identifier(n)) parameter_error(group == 0 ? "inputs" : "outputs", "'" + n + "' is not a name");
        if (std::find(ports.begin(), ports.end(), n) != ports.end())
          parameter_error("outputs",
                          "port name '" + n + "' is used twice (inputs and outputs share one list of names)");
        if (n == "state" || n == "entered" || n == "time_in_state" || n.rfind("entered_", 0) == 0 ||
            n.rfind("duration_", 0) == 0)
          parameter_error("outputs", "'" + n + "' clashes with the sequencer's own variables");
        ports.push_back(n);
      }
    for (const auto& n : input_names)
      inputs_.push_back(declare_port(n, signal_domain(), PortSide::Response, "condition input"));

    // Values: one vector per state, one entry per output.
    values_.assign(states_.size(), std::vector<double>(output_names.size(), 0.0));
    std::vector<bool> seen(states_.size(), false);
    for (const auto& [state, vec] : named_vectors("values")) {
      const int s = state_index(state);
      if (s < 0) parameter_error("values", "'" + state + "' is not one of the states (" + text("states") + ")");
      if (vec.size() != output_names.size())
        parameter_error("values", "'" + state + "' has " + std::to_string(vec.size()) + " values for " +
                                      std::to_string(output_names.size()) + " outputs (" + text("outputs") + ")");
      values_[s] = vec;
      seen[s] = true;
    }
    if (!output_names.empty())
      for (size_t s = 0; s < states_.size(); ++s)
        if (!seen[s]) parameter_error("values", "state '" + states_[s] + "' has no values");
    for (size_t k = 0; k < output_names.size(); ++k) {
      PortId out = declare_port(output_names[k], signal_domain(), PortSide::State, "value per state");
      set_dependencies(out, {});  // a function of the discrete state only
      outputs_.push_back(out);
    }

    parse_transitions(input_names);

    state_ =
        declare_discrete("state", 0.0, "index of the active state, 0 for '" + states_[0] + "' (order of 'states')");
    entered_ = declare_discrete("entered", 0.0, "time the active state was entered", "s");
    for (const auto& s : states_) {
      entered_at_.push_back(declare_discrete("entered_" + s, -1.0, "time '" + s + "' was last entered (-1: never)", "s"));
      durations_.push_back(
          declare_discrete("duration_" + s, 0.0, "length of the last completed visit of '" + s + "'", "s"));
    }
    time_in_state_ = declare_observable("time_in_state", "s", "time since the active state was entered");
  }

  void initialize(Eval& e) const override {
    // From the initial state, follow the transitions whose conditions hold at t0 (a
    // state passed through at once), the same way every pass, so that it settles.
    const double t = e.time();
    for (size_t s = 0; s < states_.size(); ++s) {
      e.set_discrete(entered_at_[s], -1.0);
      e.set_discrete(durations_[s], 0.0);
    }
    int current = 0;
    e.set_discrete(entered_at_[0], t);
    for (size_t hops = 0; hops <= states_.size(); ++hops) {
      int next = -1;
      for (const auto& tr : transitions_)
        if (tr.from == current && tr.kind != Kind::After && holds(e, tr)) {
          next = tr.to;
          break;
        }
      if (next < 0) break;
      current = next;
      e.set_discrete(entered_at_[current], t);
    }
    e.set_discrete(state_, current);
    e.set_discrete(entered_, t);
  }

  void calc_outputs(Eval& e) const override {
    const auto& v = values_[active(e)];
    for (size_t k = 0; k < outputs_.size(); ++k) e.set_out(outputs_[k], signal::value, v[k]);
  }

  void calc_derivatives(Eval& e) const override { e.set_observable(time_in_state_, e.time() - e.discrete(entered_)); }

  void calc_zero_crossings(Eval& e) const override {
    const int current = active(e);
    for (size_t k = 0; k < transitions_.size(); ++k) {
      const Transition& tr = transitions_[k];
      double g;
      if (tr.from != current)
        g = tr.kind == Kind::Below ? 1.0 : -1.0;
      else if (tr.kind == Kind::After)  // t − (its time event), zero there to the bit
        g = e.time() - (e.discrete(entered_) + tr.value);
      else
        g = e.in(inputs_[tr.input], signal::value) - tr.value;
      e.set_zero_crossing(tr.crossing, g);
    }
  }

  // The timed transitions out of the active state are time events.
  double next_time_event(const Eval& e) const override {
    const int current = active(e);
    double next = std::numeric_limits<double>::infinity();
    for (const Transition& tr : transitions_)
      if (tr.from == current && tr.kind == Kind::After) next = std::min(next, e.discrete(entered_) + tr.value);
    return next;
  }

  void on_zero_crossing(Eval& e, ZeroCrossingId z) const override {
    const Transition* tr = nullptr;
    for (const auto& candidate : transitions_)
      if (candidate.crossing == z) tr = &candidate;
    if (!tr || tr->from != active(e)) return;  // its state was left by an earlier transition
    const double t = e.time();
    e.set_discrete(durations_[tr->from], t - e.discrete(entered_));
    e.set_discrete(state_, tr->to);
    e.set_discrete(entered_, t);
    e.set_discrete(entered_at_[tr->to], t);
    e.log_event(states_[tr->from] + " -> " + states_[tr->to] + " (" + tr->text + ")");
  }

 private:
  enum class Kind { Above, Below, After };
  struct Transition {
    int from = 0, to = 0;
    Kind kind = Kind::After;
    int input = -1;      // Above, Below: index into inputs_
    double value = 0.0;  // threshold (SI) or duration (s)
    std::string text;    // the condition as written, for the event log
    ZeroCrossingId crossing;
  };

  int state_index(const std::string& name) const {
    for (size_t i = 0; i < states_.size(); ++i)
      if (states_[i] == name) return static_cast<int>(i);
    return -1;
  }
  int active(const Eval& e) const { return static_cast<int>(e.discrete(state_)); }
  bool holds(const Eval& e, const Transition& tr) const {
    const double u = e.in(inputs_[tr.input], signal::value);
    return tr.kind == Kind::Above ? u > tr.value : u < tr.value;
  }

  // "from -> to when input > value" | "from -> to when input < value" | "from -> to after T"
  void parse_transitions(const std::vector<std::string>& input_names) {
    std::string all = text("transitions");
    std::replace(all.begin(), all.end(), '\n', ';');
    std::map<std::string, int> uses;
    size_t start = 0;
    while (start <= all.size()) {
      const size_t end = std::min(all.find(';', start), all.size());
      const std::string item = trim(all.substr(start, end - start));
      start = end + 1;
      if (item.empty()) continue;
      auto fail = [&](const std::string& why) { parameter_error("transitions", "'" + item + "': " + why); };
      const size_t arrow = item.find("->");
      if (arrow == std::string::npos) fail("expected 'from -> to when ...' or 'from -> to after ...'");
      Transition tr;
      const std::string from = trim(item.substr(0, arrow));
      std::string rest = trim(item.substr(arrow + 2));
      const size_t space = rest.find_first_of(" \t");
      const std::string to = trim(rest.substr(0, space));
      rest = space == std::string::npos ? "" : trim(rest.substr(space));
      tr.from = state_index(from);
      tr.to = state_index(to);
      if (tr.from < 0) fail("'" + from + "' is not one of the states (" + text("states") + ")");
      if (tr.to < 0) fail("'" + to + "' is not one of the states (" + text("states") + ")");
      if (tr.from == tr.to) fail("a transition must lead to another state");
      try {
        if (rest.rfind("after", 0) == 0 && rest.size() > 5 && std::isspace(static_cast<unsigned char>(rest[5]))) {
          tr.kind = Kind::After;
          tr.value = parse_quantity(trim(rest.substr(5)), "s");
          if (!(tr.value > 0.0) || !std::isfinite(tr.value)) fail("the duration must be positive");
          tr.text = rest;
        } else if (rest.rfind("when", 0) == 0 && rest.size() > 4 && std::isspace(static_cast<unsigned char>(rest[4]))) {
          const std::string condition = trim(rest.substr(4));
          const size_t op = condition.find_first_of("<>");
          if (op == std::string::npos) fail("expected 'when input > value' or 'when input < value'");
          const std::string input = trim(condition.substr(0, op));
          const auto it = std::find(input_names.begin(), input_names.end(), input);
          if (it == input_names.end())
            fail("'" + input + "' is not one of the inputs (" +
                 (input_names.empty() ? std::string("none declared") : text("inputs")) + ")");
          tr.input = static_cast<int>(it - input_names.begin());
          tr.kind = condition[op] == '>' ? Kind::Above : Kind::Below;
          if (op + 1 < condition.size() && condition[op + 1] == '=')
            fail("use '>' or '<': a crossing has no 'or equal'");
          tr.value = threshold_value(trim(condition.substr(op + 1)));
          if (!std::isfinite(tr.value)) fail("the threshold must be finite");
          tr.text = "when " + condition;
        } else {
          fail("expected 'when input > value', 'when input < value' or 'after duration' after the target state");
        }
      } catch (const UnitError& e) {
        fail(e.what());
      }
      std::string name = states_[tr.from] + "_to_" + states_[tr.to];
      const int n = uses[name]++;
      if (n > 0) name += "_" + std::to_string(n + 1);
      tr.crossing =
          declare_zero_crossing(name, tr.kind == Kind::Below ? CrossingDirection::Falling : CrossingDirection::Rising,
                                states_[tr.from] + " -> " + states_[tr.to] + " " + tr.text);
      transitions_.push_back(tr);
    }
  }

  std::vector<std::string> states_;
  std::vector<std::vector<double>> values_;  // per state, per output
  std::vector<Transition> transitions_;
  std::vector<PortId> inputs_, outputs_;
  DiscreteId state_, entered_;
  std::vector<DiscreteId> entered_at_, durations_;
  ObservableId time_in_state_;
};

void register_sequencer(Registry& r) {
  r.add<Sequencer>(
      "signal.sequencer",
      "state machine: named states, transitions on thresholds or time in state (events), outputs per state");
}

}  // namespace jourdain::signal_library
