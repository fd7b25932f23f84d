// The netlist document the editor changes: which JSON object holds a level (the top,
// or an inline subsystem definition), and the JSON pointers the check's diagnostics
// use for it.
import type { Schematic } from "../schematic/index";

export interface LevelDoc {
  doc: any;        // the object with components, connections, layout
  pointer: string; // its JSON pointer in the netlist ("" for the top)
}

const esc = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

// The object of level `key`: the top for "", else the inline definition of each
// instance along the path; null when one is a file (not editable here).
export function levelDoc(netlist: any, key: string): LevelDoc | null {
  let doc = netlist, pointer = "";
  // The definitions in scope: the innermost first, each with its pointer.
  let scopes: { defs: any; pointer: string }[] = [];
  const enter = (d: any, p: string) => {
    if (d && d.subsystems && typeof d.subsystems === "object") scopes = [{ defs: d.subsystems, pointer: p + "/subsystems" }, ...scopes];
  };
  enter(doc, pointer);
  if (!key) return { doc, pointer };
  for (const part of key.split("/")) {
    const c = doc.components && doc.components[part];
    if (!c) return null;
    const scope = scopes.find(s => Object.prototype.hasOwnProperty.call(s.defs, c.type));
    if (!scope) return null;
    const def = scope.defs[c.type];
    if (!def || typeof def !== "object") return null;
    doc = def;
    pointer = scope.pointer + "/" + esc(c.type);
    enter(doc, pointer);
  }
  return { doc, pointer };
}

// The first level whose object sits at `pointer` (a definition has one level per
// instance; any of them shows it).
export function levelOfPointer(schematic: Schematic, netlist: any, pointer: string): string | null {
  const keys = Object.keys(schematic.levels).sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b));
  for (const key of keys) {
    const d = levelDoc(netlist, key);
    if (d && d.pointer === pointer) return key;
  }
  return null;
}

// A diagnostic's JSON path split into the object it is in and what it names there.
export function parsePath(path: string): { pointer: string; component?: string; connection?: number; rest: string } {
  const parts = path.split("/").slice(1);
  let k = 0, pointer = "";
  // /subsystems/NAME, any number of times, then components/NAME or connections/N.
  while (k + 1 < parts.length && parts[k] === "subsystems" && parts[k + 2] !== undefined &&
         ["components", "connections", "layout", "subsystems", "ports", "parameters"].includes(parts[k + 2])) {
    pointer += "/subsystems/" + parts[k + 1];
    k += 2;
  }
  const rest = "/" + parts.slice(k).join("/");
  if (parts[k] === "components" && parts[k + 1] !== undefined)
    return { pointer, component: parts[k + 1].replace(/~1/g, "/").replace(/~0/g, "~"), rest };
  if (parts[k] === "connections" && parts[k + 1] !== undefined && /^\d+$/.test(parts[k + 1]))
    return { pointer, connection: Number(parts[k + 1]), rest };
  return { pointer, rest };
}

// A name not yet taken: base, base2, base3, ...
export function uniqueName(base: string, taken: (name: string) => boolean): string {
  base = base.replace(/[^A-Za-z0-9_-]/g, "_") || "c";
  if (!taken(base)) return base;
  for (let k = 2; ; ++k) if (!taken(base + k)) return base + k;
}

export function ensureLayout(doc: any): any {
  if (!doc.layout || typeof doc.layout !== "object") doc.layout = {};
  if (!doc.layout.components || typeof doc.layout.components !== "object") doc.layout.components = {};
  return doc.layout;
}
