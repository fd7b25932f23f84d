// A netlist of n components for the studio's large-level test and its benchmark: a wall,
// then masses and springs in turn, connected end to end, without a layout.
"use strict";
function massSpringChain(n) {
  const components = { wall: { type: "mechanical1d.fixed" } }, connections = [];
  let previous = "wall.p";
  for (let k = 1; k < n; ++k) {
    const name = (k % 2 ? "k" : "m") + k;
    components[name] = k % 2 ? { type: "mechanical1d.spring", params: { stiffness: "100 N/m" } }
                             : { type: "mechanical1d.mass", params: { mass: "1 kg" } };
    connections.push(k % 2 ? [previous, name + ".a"] : [name + ".p", previous]);
    previous = k % 2 ? name + ".b" : name + ".p";
  }
  return { name: "chain", components, connections, solver: { method: "dopri5", t_end: 1 } };
}
module.exports = { massSpringChain };
