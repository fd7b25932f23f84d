// The flat netlist: configured components under their model names and the connections
// between their ports, each name checked as it is added (flat_netlist.hpp).
#include "jourdain/flat_netlist.hpp"

#include <cmath>

#include "jourdain/suggest.hpp"

namespace jourdain {

void FlatNetlist::add(std::unique_ptr<Component> component, InputLocation where) {
  const std::string& name = component->name();
  where.component = name;
  const bool well_formed = !name.empty() && name.find_first_of(". ") == std::string::npos && name.front() != '/' &&
                          name.back() != '/' && name.find("//") == std::string::npos;
  if (!well_formed)
    throw InputError(where, "a component name must be non-empty and contain no '.' or space ('/' only between the "
                            "names of a subsystem and its parts)");
  if (find(name)) throw InputError(where, "a component named '" + name + "' exists already");
  if (!component->configured()) component->finish_configuration(world_);
  index_.emplace(name, static_cast<int>(components_.size()));
  components_.push_back(std::move(component));
  locations_.push_back(where);
}

Component* FlatNetlist::find(const std::string& name) {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : components_[it->second].get();
}

FlatNetlist::Endpoint FlatNetlist::resolve(const std::string& dotted, const InputLocation& where) const {
  auto dot = dotted.find('.');
  if (dot == std::string::npos)
    throw InputError(where, "'" + dotted + "' must name a port as \"component.port\"");
  std::string comp = dotted.substr(0, dot), port = dotted.substr(dot + 1);
  auto it = index_.find(comp);
  if (it == index_.end()) {
    std::vector<std::string> names;
    for (const auto& c : components_) names.push_back(c->name());
    InputLocation w = where;
    w.component = comp;
    throw InputError(w, "no component of that name in the netlist" + did_you_mean(comp, names));
  }
  const int i = it->second;
  PortId p = components_[i]->find_port(port);
  if (!p.valid()) {
    std::vector<std::string> ports;
    for (const auto& ps : components_[i]->ports()) ports.push_back(ps.name);
    InputLocation w = where;
    w.component = comp;
    w.port = port;
    throw InputError(w, "no such port on type '" + components_[i]->type_name() + "'" + did_you_mean(port, ports) +
                            "; its ports are: " + (ports.empty() ? "(none)" : comma_list(ports)));
  }
  return {i, p};
}

void FlatNetlist::connect(const std::string& a, const std::string& b, InputLocation where) {
  Endpoint ea = resolve(a, where), eb = resolve(b, where);
  const PortSpec& pa = components_[ea.component]->ports()[ea.port.index];
  const PortSpec& pb = components_[eb.component]->ports()[eb.port.index];
  if (pa.domain->name != pb.domain->name) {
    throw InputError(where, "cannot connect '" + a + "' (" + pa.domain->name + ") to '" + b + "' (" +
                                pb.domain->name + "): the port types differ");
  }
  if (pa.side == pb.side) {
    throw InputError(where, "cannot connect '" + a + "' to '" + b + "': both are " + pa.domain->port_term(pa.side) +
                                "s; " + pa.domain->connection_hint);
  }
  if (ea.component == eb.component && ea.port == eb.port)
    throw InputError(where, "a port cannot be connected to itself");
  Connection c{pa.side == PortSide::State ? ea : eb, pa.side == PortSide::State ? eb : ea, where};
  connections_.push_back(std::move(c));
}

void FlatNetlist::set_initial(const std::string& component, const std::string& state, double value,
                              InputLocation where) {
  where.component = component;
  Component* c = find(component);
  if (!c) throw InputError(where, "no component of that name");
  StateId s = c->find_state(state);
  if (!s.valid()) {
    std::vector<std::string> names;
    for (const auto& st : c->states()) names.push_back(st.name);
    throw InputError(where, "type '" + c->type_name() + "' has no state '" + state + "'" + did_you_mean(state, names) +
                                "; its states are: " + (names.empty() ? "(none)" : comma_list(names)));
  }
  if (!std::isfinite(value)) throw InputError(where, "initial value of '" + state + "' is not finite");
  c->set_state_initial(s, value);
}

std::string FlatNetlist::name_of(const Endpoint& e) const {
  const Component& c = *components_[e.component];
  return c.name() + "." + c.ports()[e.port.index].name;
}

}  // namespace jourdain
