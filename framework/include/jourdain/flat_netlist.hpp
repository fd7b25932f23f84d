// FlatNetlist: the second of the three stages a netlist goes through on its way to a
// Model (framework/README.md, "Loading for a run, checking for a person or a tool"):
//
//   NetlistDocument (document.hpp)   the file as written: keys, positions, spellings;
//   FlatNetlist (this header)        subsystems and composites expanded, parameter
//                                    expressions substituted, names resolved: configured
//                                    components under their model names ("arm/link2"),
//                                    and connections between their ports;
//   ModelBuilder (model.hpp)         checks the whole graph, schedules it and freezes it
//                                    into a Model.
//
// Every name is checked as it is added (a component named twice, a port or state that
// does not exist, two ports of different domains or of the same side joined), so a
// FlatNetlist is a consistent list of parts: what a tool that wants the system without
// its hierarchy reads (a code emitter, a netlist differ, an editor's flattened view), and
// what ModelBuilder builds from. Each part and connection keeps the place in the file
// where it is written, for messages.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "jourdain/component.hpp"
#include "jourdain/errors.hpp"

namespace jourdain {

class FlatNetlist {
 public:
  explicit FlatNetlist(World world = {}) : world_(std::move(world)) {}
  FlatNetlist(FlatNetlist&&) = default;
  FlatNetlist& operator=(FlatNetlist&&) = default;

  // One end of a connection: a component (its position in components()) and its port.
  struct Endpoint {
    int component;
    PortId port;
  };
  // A connection, oriented: the port on the state side drives the one on the response side.
  struct Connection {
    Endpoint state_side, response_side;
    InputLocation where;
  };

  // Adds a configured component (configured here with the world if it is not yet); `where`
  // locates it in the netlist. The name is one word, or words joined by '/' for the parts
  // of subsystems ("arm/link2"). Throws InputError for a malformed or repeated name.
  void add(std::unique_ptr<Component> component, InputLocation where = {});
  // Joins "comp.port" to "comp.port" (in either order). Throws InputError, located at
  // `where` with the component and port, unless both exist and may be joined.
  void connect(const std::string& a, const std::string& b, InputLocation where = {});
  // Overrides a state's initial value (SI).
  void set_initial(const std::string& component, const std::string& state, double value, InputLocation where = {});
  Component* find(const std::string& name);
  // Throws InputError unless "comp.port" names a port of an added component.
  void check_port(const std::string& dotted, const InputLocation& where) const { resolve(dotted, where); }
  // For a check of a netlist whose model cannot be built: throws InputError unless
  // "comp.var" names a variable of added component comp. A name whose component was not
  // added (left out for its own fault, or a block solver's monitor) is not judged.
  void check_variable(const std::string& name) const;

  const World& world() const { return world_; }
  // The parts, in the order they were added, and where each is written.
  const std::vector<std::unique_ptr<Component>>& components() const { return components_; }
  const std::vector<InputLocation>& locations() const { return locations_; }
  const std::vector<Connection>& connections() const { return connections_; }
  // "comp.port" of an endpoint.
  std::string name_of(const Endpoint& e) const;

 protected:
  Endpoint resolve(const std::string& dotted, const InputLocation& where) const;

  World world_;
  std::vector<std::unique_ptr<Component>> components_;
  std::unordered_map<std::string, int> index_;  // component name -> position
  std::vector<InputLocation> locations_;
  std::vector<Connection> connections_;
};

}  // namespace jourdain
