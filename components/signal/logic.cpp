// Logic and selection: relational operators, logic gates, switch. Each output jumps, so
// each is a discrete state set at events (block.hpp, "Why the sign matters"): the solver
// stops at the instant a condition changes, and the output reads no input between
// events (relational, logic) or only the inputs it passes on (switch).
#include <string>
#include <vector>

#include "block.hpp"

namespace jourdain::signal_library {

// y = 1 when  in1 op in2  holds, else 0, with op one of <, <=, >, >=, ==, != (an
// unconnected in2 reads 0). With d = in1 - in2, the block watches the two conditions
// d >= 0 and d <= 0 (zero crossings "at_or_above" and "at_or_below"); every relation is a
// function of the pair (below: 0 1, equal: 1 1, above: 1 0). At an event of either the
// output is set from the relation evaluated there. == and != are meant for signals that
// change at events (a count, a sequencer's state, a logic level): a continuous d passes
// through 0 without stopping there, and the event lands just past it.
class Relational final : public SignalBlock {
 public:
  Relational() {
    declare_text("operator", ">=", "the relation in1 op in2 that makes the output 1",
                 {"<", "<=", ">", ">=", "==", "!="});
  }
  void configure() override {
    const std::string op = text("operator");
    op_ = op == "<" ? Op::Less : op == "<=" ? Op::LessEqual : op == ">" ? Op::Greater : op == ">=" ? Op::GreaterEqual
          : op == "==" ? Op::Equal : Op::NotEqual;
    in1_ = declare_port("in1", signal_domain(), PortSide::Response, "left operand");
    in2_ = declare_port("in2", signal_domain(), PortSide::Response, "right operand (0 when unconnected)");
    set_optional(in2_);
    out_ = declare_port("out", signal_domain(), PortSide::State, "1 when in1 " + op + " in2 holds, else 0");
    set_dependencies(out_, {});
    holds_ = declare_discrete("holds", 0.0, "the output: 1 while the relation holds");
    at_or_above_ = declare_zero_crossing("at_or_above", CrossingDirection::Either, "in1 - in2 >= 0");
    at_or_below_ = declare_zero_crossing("at_or_below", CrossingDirection::Either, "in2 - in1 >= 0");
  }
  void initialize(Eval& e) const override { e.set_discrete(holds_, relation(difference(e)) ? 1.0 : 0.0); }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.discrete(holds_)); }
  void calc_zero_crossings(Eval& e) const override {
    const double d = difference(e);
    e.set_zero_crossing(at_or_above_, at_or_above(d));
    e.set_zero_crossing(at_or_below_, at_or_above(-d));
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    const double holds = relation(difference(e)) ? 1.0 : 0.0;
    if (holds == e.discrete(holds_)) return;
    e.set_discrete(holds_, holds);
    e.log_event(holds > 0.0 ? "holds: output 1" : "no longer holds: output 0");
  }

 private:
  enum class Op { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };
  double difference(const Eval& e) const { return e.in(in1_, signal::value) - e.in(in2_, signal::value); }
  bool relation(double d) const {
    const bool ge = d >= 0.0, le = d <= 0.0;
    switch (op_) {
      case Op::Less: return !ge;
      case Op::LessEqual: return le;
      case Op::Greater: return !le;
      case Op::GreaterEqual: return ge;
      case Op::Equal: return ge && le;
      case Op::NotEqual: return !(ge && le);
    }
    return false;
  }

  Op op_ = Op::GreaterEqual;
  PortId in1_, in2_, out_;
  DiscreteId holds_;
  ZeroCrossingId at_or_above_, at_or_below_;
};

// y = and, or, xor, nand, nor of the inputs in1..inN, or not of in1, on the truth values
// b_i = (u_i >= 0.5): 0/1 signals (a relational's, a comparator's, a sequencer's
// outputs). xor is true for an odd number of true inputs. Each input's truth is watched
// by a zero crossing, u_i - 0.5 >= 0, so an input that crosses 0.5 between events (a
// continuous one) switches the output at an event too.
class Logic final : public SignalBlock {
 public:
  Logic() {
    declare_text("operator", "and", "the gate", {"and", "or", "xor", "nand", "nor", "not"});
    declare_integer("inputs", 0, "number of inputs N (ports in1..inN); 0: 2, or 1 for not", Range::at_least(0));
  }
  void configure() override {
    const std::string op = text("operator");
    op_ = op == "and" ? Op::And : op == "or" ? Op::Or : op == "xor" ? Op::Xor : op == "nand" ? Op::Nand
          : op == "nor" ? Op::Nor : Op::Not;
    long n = integer("inputs");
    if (n == 0) n = op_ == Op::Not ? 1 : 2;
    if (op_ == Op::Not && n != 1) parameter_error("inputs", "'not' takes one input, got " + std::to_string(n));
    for (long i = 1; i <= n; ++i) {
      inputs_.push_back(declare_port("in" + std::to_string(i), signal_domain(), PortSide::Response, "0/1 input"));
      truth_.push_back(declare_zero_crossing("in" + std::to_string(i) + "_true", CrossingDirection::Either,
                                             "in" + std::to_string(i) + " - 0.5 >= 0"));
    }
    out_ = declare_port("out", signal_domain(), PortSide::State, "1 or 0: " + op + " of the inputs");
    set_dependencies(out_, {});
    value_ = declare_discrete("value", 0.0, "the output");
  }
  void initialize(Eval& e) const override { e.set_discrete(value_, gate(e)); }
  void calc_outputs(Eval& e) const override { e.set_out(out_, signal::value, e.discrete(value_)); }
  void calc_zero_crossings(Eval& e) const override {
    for (size_t i = 0; i < inputs_.size(); ++i) e.set_zero_crossing(truth_[i], at_or_above(e.in(inputs_[i], signal::value) - 0.5));
  }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    const double v = gate(e);
    if (v == e.discrete(value_)) return;
    e.set_discrete(value_, v);
    e.log_event("output " + format_number(v));
  }

 private:
  enum class Op { And, Or, Xor, Nand, Nor, Not };
  double gate(const Eval& e) const {
    size_t true_count = 0;
    for (PortId p : inputs_) true_count += e.in(p, signal::value) >= 0.5 ? 1 : 0;
    const bool all = true_count == inputs_.size(), any = true_count > 0;
    bool y = false;
    switch (op_) {
      case Op::And: y = all; break;
      case Op::Or: y = any; break;
      case Op::Xor: y = true_count % 2 == 1; break;
      case Op::Nand: y = !all; break;
      case Op::Nor: y = !any; break;
      case Op::Not: y = !any; break;
    }
    return y ? 1.0 : 0.0;
  }

  Op op_ = Op::And;
  std::vector<PortId> inputs_;
  std::vector<ZeroCrossingId> truth_;
  PortId out_;
  DiscreteId value_;
};

// y = in1 while the control input passes the threshold (control >= threshold, or
// control > threshold), else in2. Which input is passed on is a discrete state changed at
// events, when the control crosses the threshold (zero crossing "pass"): the output jumps
// there, and reads in1 and in2 directly (it feeds through from them, not from control).
class Switch final : public SignalBlock {
 public:
  Switch() {
    declare_unit();
    threshold_ = declare_real("threshold", "", 0.5, "threshold on the control input (in its SI unit)");
    declare_text("criterion", ">=", "pass in1 while control >= threshold, or while control > threshold", {">=", ">"});
  }
  void configure() override {
    strict_ = text("criterion") == ">";
    in1_ = declare_port("in1", signal_domain(), PortSide::Response, "passed on while the criterion holds");
    control_ = declare_port("control", signal_domain(), PortSide::Response, "control input");
    in2_ = declare_port("in2", signal_domain(), PortSide::Response, "passed on otherwise");
    out_ = declare_port("out", signal_domain(), PortSide::State, "in1 or in2");
    set_output_unit(out_);
    set_dependencies(out_, {in1_, in2_});
    first_ = declare_discrete("first", 1.0, "1 while in1 is passed on, 0 while in2 is");
    pass_ = declare_zero_crossing("pass", CrossingDirection::Either, "the criterion on control - threshold");
  }
  void initialize(Eval& e) const override { e.set_discrete(first_, passes(e) > 0.0 ? 1.0 : 0.0); }
  void calc_outputs(Eval& e) const override {
    e.set_out(out_, signal::value, e.in(e.discrete(first_) > 0.5 ? in1_ : in2_, signal::value));
  }
  void calc_zero_crossings(Eval& e) const override { e.set_zero_crossing(pass_, passes(e)); }
  void on_zero_crossing(Eval& e, ZeroCrossingId) const override {
    const double first = passes(e) > 0.0 ? 1.0 : 0.0;
    if (first == e.discrete(first_)) return;
    e.set_discrete(first_, first);
    e.log_event(first > 0.0 ? "passes in1" : "passes in2");
  }

 private:
  // > 0 exactly when the criterion holds.
  double passes(const Eval& e) const {
    const double v = e.in(control_, signal::value) - e.param(threshold_);
    return strict_ ? strictly_above(v) : at_or_above(v);
  }

  RealParam threshold_;
  bool strict_ = false;
  PortId in1_, control_, in2_, out_;
  DiscreteId first_;
  ZeroCrossingId pass_;
};

void register_logic(Registry& r) {
  r.add<Relational>("signal.relational", "1 while in1 op in2 holds (<, <=, >, >=, ==, !=), else 0 (events)");
  r.add<Logic>("signal.logic", "and, or, xor, nand, nor, not of 0/1 inputs (events)");
  r.add<Switch>("signal.switch", "in1 while control passes the threshold, else in2 (events)");
}

}  // namespace jourdain::signal_library
