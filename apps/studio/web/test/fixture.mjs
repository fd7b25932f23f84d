// A schematic object built by hand from a netlist, for trying the renderer without the
// server (node test/fixture.mjs NETLIST OUT.json): ports from `jourdain describe --json`,
// with the configured ones (volume ports, body and ground points, sum inputs, sequencer
// ports) guessed from the parameters. The server's apps/session writes the real thing.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const JOURDAIN = process.env.JOURDAIN || "/work/main/build/apps/cli/jourdain";
export const strip = t => t.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"\\])\/\/.*$/gm, "$1");
const described = new Map();
export const describe = type => {
  if (!described.has(type)) described.set(type, JSON.parse(execFileSync(JOURDAIN, ["describe", type, "--json"], { encoding: "utf8" })));
  return described.get(type);
};
const list = v => String(v || "").split(/[\s,]+/).filter(Boolean);
export function portsOf(type, params) {
  const d = describe(type);
  const base = d.ports.map(p => ({ name: p.name, domain: p.domain, side: p.side, optional: p.optional, description: p.description }));
  params = params || {};
  const like = (name, proto) => ({ ...proto, name });
  if (type === "hydraulic.volume" && params.ports) return Array.from({ length: params.ports }, (_, k) => like("p" + (k + 1), base[0]));
  if ((type === "mechanical.body" || type === "mechanical.ground") && params.points) {
    const names = Object.keys(params.points);
    const proto = base[0];
    return type === "mechanical.body" ? [...names.map(n => like(n, proto)), proto] : names.map(n => like(n, proto));
  }
  if ((type === "signal.sum" && params.signs) || (type === "signal.product" && params.operations)) {
    const count = String(params.signs || params.operations).length;
    return [...Array.from({ length: count }, (_, k) => like("in" + (k + 1), base[0])), base[base.length - 1]];
  }
  if (type === "signal.sequencer")
    return [...list(params.inputs).map(n => like(n, base[0])), ...list(params.outputs).map(n => like(n, base[1]))];
  return base;
}
export function buildSchematic(netlist, file) {
const levels = {};
function level(key, doc, definition, subsystems) {
  const defs = { ...subsystems, ...(doc.subsystems || {}) };
  const components = {};
  for (const [name, c] of Object.entries(doc.components || {})) {
    const def = defs[c.type];
    if (def && typeof def === "object") {
      const inner = key ? key + "/" + name : name;
      level(inner, def, c.type, defs);
      const ports = Object.entries(def.ports || {}).map(([p, target]) => {
        const [ic, ip] = (Array.isArray(target) ? target[0] : target).split(".");
        const info = levels[inner].components[ic].ports.find(q => q.name === ip) || { domain: "signal", side: "response" };
        return { name: p, domain: info.domain, side: info.side, optional: false };
      });
      components[name] = { type: c.type, library: "subsystem", summary: def.description || "", subsystem: inner, ports };
    } else {
      const d = describe(c.type);
      components[name] = { type: c.type, library: c.type.split(".")[0], summary: d.summary, subsystem: null, ports: portsOf(c.type, c.params) };
    }
  }
  levels[key] = { components, connections: doc.connections || [], layout: doc.layout || null, definition, editable: true };
}
level("", netlist, null, {});
return { netlist, file, levels, recorded: netlist.record || [] };
}
if (process.argv[1] && process.argv[1].endsWith("fixture.mjs")) {
  const [file, out] = process.argv.slice(2);
  const netlist = JSON.parse(strip(readFileSync(file, "utf8")));
  writeFileSync(out, JSON.stringify(buildSchematic(netlist, file), null, 1));
}
