// The model builder's problems (ModelBuilder::build): a run stops at the first, with the
// text it always had; a check gets every independent one at once, each located by its
// component and port.
#include <algorithm>
#include <set>

#include "jourdain/diagnostics.hpp"
#include "jourdain_test.hpp"

using namespace jourdain;

namespace {

NetlistCheck check(const std::string& text) {
  Registry r = jourdain::test::builtin_registry();
  return check_netlist_text(text, "net.json", r);
}

// The text a load for a run throws, or "" when it loads.
std::string first_error(const std::string& text) {
  Registry r = jourdain::test::builtin_registry();
  try {
    load_netlist_text(text, "net.json", r);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<const Diagnostic*> errors(const Diagnostics& d) {
  std::vector<const Diagnostic*> out;
  for (const auto& x : d.all())
    if (x.severity == Severity::Error) out.push_back(&x);
  return out;
}

// Two gains whose inputs nothing drives, in two components: two problems of the builder
// that have nothing to do with each other.
const char* kTwoOpenInputs = R"({
  "components": {
    "u": {"type": "signal.constant", "params": {"value": 1}},
    "first": {"type": "signal.gain"},
    "second": {"type": "signal.gain"},
    "ok": {"type": "signal.gain"}
  },
  "connections": [["u.out", "ok.in"]]
})";

}  // namespace

TEST_CASE("two unconnected required inputs in two components give two diagnostics in one check") {
  const NetlistCheck c = check(kTwoOpenInputs);
  INFO(c.diagnostics.to_json().dump(2));
  CHECK_FALSE(c.netlist.has_value());
  const auto found = errors(c.diagnostics);
  REQUIRE(found.size() == 2);
  CHECK(found[0]->where.component == "first");
  CHECK(found[1]->where.component == "second");
  for (const Diagnostic* d : found) {
    CHECK(d->where.port == "in");
    CHECK(d->where.json_path == "/components/" + d->where.component);
    CHECK(d->message.find("is not connected") != std::string::npos);
  }
  // A run stops at the first, with the same text.
  CHECK(first_error(kTwoOpenInputs) == found[0]->text());
}

TEST_CASE("a port driven twice and an open input are both reported") {
  const char* text = R"({
    "components": {
      "u": {"type": "signal.constant", "params": {"value": 1}},
      "v": {"type": "signal.constant", "params": {"value": 2}},
      "twice": {"type": "signal.gain"},
      "open": {"type": "signal.gain"}
    },
    "connections": [["u.out", "twice.in"], ["v.out", "twice.in"]]
  })";
  const NetlistCheck c = check(text);
  INFO(c.diagnostics.to_json().dump(2));
  const auto found = errors(c.diagnostics);
  REQUIRE(found.size() == 2);
  // In the order of the components (the loader's), each with its own problem.
  for (const Diagnostic* d : found) {
    if (d->where.component == "twice") CHECK(d->message.find("is driven by 2 ports") != std::string::npos);
    else CHECK((d->where.component == "open" && d->message.find("is not connected") != std::string::npos));
  }
  CHECK(found[0]->where.component != found[1]->where.component);
  CHECK(first_error(text) == found[0]->text());
}

TEST_CASE("a netlist whose model builds gives no diagnostic and a model") {
  const NetlistCheck c = check(R"({
    "components": {"u": {"type": "signal.constant"}, "g": {"type": "signal.gain"}},
    "connections": [["u.out", "g.in"]],
    "record": ["g.out"]
  })");
  CHECK(c.diagnostics.all().empty());
  REQUIRE(c.netlist.has_value());
  CHECK(c.netlist->model.components().size() == 2);
}

TEST_CASE("after a failed build the record is still judged by the components' variables") {
  // The builder's fault (an open input) leaves the model out; the record entries are then
  // checked against the variables of their components, as for a netlist with faults of
  // its own: a wrong name is reported, a right one is not.
  const NetlistCheck c = check(R"({
    "components": {"g": {"type": "signal.gain"}, "h": {"type": "signal.gain"}},
    "connections": [["g.out", "h.in"]],
    "record": ["h.out", "h.outt"]
  })");
  INFO(c.diagnostics.to_json().dump(2));
  const auto found = errors(c.diagnostics);
  REQUIRE(found.size() == 2);
  CHECK(found[0]->where.component == "g");
  CHECK(found[1]->where.json_path == "/record/1");
}
