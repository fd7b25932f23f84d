// The renderer: one level of a schematic as SVG in a container, with a breadcrumb of
// the levels above, pan and zoom, selection and error marks. It draws what the level
// object says; refresh() redraws only what changed since the last drawing, so that an
// editor can mutate the level and call it after every edit.
import { ComponentInfo, Level, Placement, Schematic, Wire, childKey, splitEnd } from "./model";
import { html, n, svg } from "./svg";
import { Dir, Symbol, dirVector, orient, orientDir, symbolFor } from "./symbols";
import { LABEL_ROOM, Placed, Pt, autoRoute, orientedBox, pathData, portSpot, wirePolyline } from "./geometry";
import { elkLayout, loadElk } from "./elk";
import { quickLayout } from "./layered";
import { AutoLayout } from "./edges";
import { GroupedLayer, nestedDrawing } from "./groups";

// Above this many components to place, a level is laid out by the quick layered layout
// (layered.ts) rather than ELK: ELK's time grows to seconds there (about 2 s for 1 000
// in a fresh page), the quick one stays within milliseconds.
export const LARGE_LEVEL = 250;
// Below this zoom the texts are not drawn (updateDetail).
export const FAR_SCALE = 0.4;

export interface MountOptions {
  level?: string;                                        // the level shown first ("" the top)
  onSelect?: (name: string | null, level: string) => void;
  onLevel?: (level: string) => void;                     // after another level is shown
  editable?: boolean;   // the editor handles left drags and clicks itself; pan with the middle button or Space
  fit?: boolean;        // fit the drawing into view after the first render (default true)
}

export type Hit =
  | { kind: "port"; component: string; port: string }
  | { kind: "component"; component: string }
  | { kind: "wire"; index: number }
  | { kind: "note"; index: number }
  | { kind: "background" };

// A drawn component, with what it was drawn from: the component (its type and ports) and
// the placement read from the layout, compared field by field on each refresh.
interface CompEl { g: SVGGElement; info: ComponentInfo; shape: string; x: unknown; y: unknown; rotation: unknown; flip: unknown }
// A drawn wire; `a` and `b` are the components of its ends `from` and `to`.
// (`domain`: "" for a wire drawn dangling, without a route.)
interface WireEl { path: SVGPathElement; hit: SVGPathElement; sig: string; box: Box | null; from: string; to: string; a: string; b: string; domain: string }
type Box = { x0: number; y0: number; x1: number; y1: number };
const emptyBox = (): Box => ({ x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity });
// `b` grown to take in box `c` (its own corners x0..x1, y0..y1).
function grow(b: Box, c: Box): Box {
  b.x0 = Math.min(b.x0, c.x0); b.y0 = Math.min(b.y0, c.y0); b.x1 = Math.max(b.x1, c.x1); b.y1 = Math.max(b.y1, c.y1);
  return b;
}

export const DOMAIN_COLORS: Record<string, string> = {
  mechanical1d: "#15803d", hydraulic: "#1d4ed8", signal: "#c2410c", planar: "#7c3aed",
  rotational: "#0e7490", spatial: "#be185d", thermal: "#b91c1c", electrical: "#a16207",
};
export const domainColor = (d: string) => DOMAIN_COLORS[d] || "#4b5563";

export class View {
  readonly container: HTMLElement;
  readonly root: HTMLDivElement;
  readonly bar: HTMLDivElement;
  readonly crumbs: HTMLDivElement;
  readonly svg: SVGSVGElement;
  readonly viewport: SVGGElement;
  readonly overlay: SVGGElement;  // the editor's rubber band and wire being drawn
  private wiresLayer: SVGGElement;
  private compsLayer: SVGGElement;
  private junctionsLayer: SVGGElement;
  private wireGroups: GroupedLayer;   // the wires and the components, in groups painted apart
  private compGroups: GroupedLayer;
  private notesLayer: SVGGElement;
  private terminalsLayer: SVGGElement;
  private terminalBoxes: Box[] = [];
  schematic: Schematic;
  level = "";
  options: MountOptions;
  private comps = new Map<string, CompEl>();
  private wires: WireEl[] = [];
  private junctions = new Map<string, SVGPathElement>();
  private wireIndex: Map<string, Wire> | null = null;
  private routesSeen: string | null = null;             // the layout's wires at the last pass
  private autoSeen: AutoLayout | null = null;           // and the automatic layout
  private portSig = new WeakMap<ComponentInfo, string>();
  private placed = new Map<string, Placed>();
  private auto = new Map<string, AutoLayout>();  // per level: the automatic positions of components the layout leaves out
  private selection = new Set<string>();
  private errors = new Map<string, string>();
  private warnings = new Map<string, string>();
  private wireErrors = new Map<number, string>();
  private wireSelection = new Set<number>();
  private k = 1; private tx = 0; private ty = 0;
  private spaceDown = false;
  private fitted = false;

  constructor(container: HTMLElement, schematic: Schematic, options: MountOptions = {}) {
    this.container = container;
    this.schematic = schematic;
    this.options = options;
    this.level = options.level || "";
    this.root = html("div", { class: "jourdain-schematic-view" }, container);
    this.bar = html("div", { class: "schematic-bar" }, this.root);
    this.crumbs = html("div", { class: "schematic-crumbs" }, this.bar);
    const tools = html("div", { class: "schematic-tools" }, this.bar);
    const button = (label: string, title: string, act: () => void) => {
      const b = html("button", { type: "button", title, class: "schematic-tool" }, tools, label);
      b.onclick = act;
    };
    button("−", "zoom out", () => this.zoomBy(1 / 1.25));
    button("+", "zoom in", () => this.zoomBy(1.25));
    button("Fit", "fit the drawing into view", () => this.fit());
    this.svg = svg("svg", { class: "jourdain-schematic", tabindex: 0 }, this.root);
    const defs = svg("defs", {}, this.svg);
    const grid = svg("pattern", { id: "jsch-grid", width: 10, height: 10, patternUnits: "userSpaceOnUse" }, defs);
    svg("circle", { cx: 0.5, cy: 0.5, r: 0.6, class: "grid-dot" }, grid);
    this.viewport = svg("g", { class: "viewport" }, this.svg);
    this.notesLayer = nestedDrawing(this.viewport, "notes");
    this.terminalsLayer = nestedDrawing(this.viewport, "terminals");
    this.wiresLayer = svg("g", { class: "wires" }, this.viewport);
    // A wire under the pointer is drawn thicker. Set here rather than by a CSS sibling
    // rule (hit:hover + wire): with one, Chromium restyles every later wire whenever a
    // wire is inserted (1 000 restyles, 7 ms, for one moved component in a large level).
    const hot = (ev: Event, on: boolean) => {
      const hit = ev.target as Element;
      const wire = hit.classList && hit.classList.contains("wire-hit") ? hit.nextElementSibling : null;
      if (wire) wire.classList.toggle("hot", on);
    };
    this.wiresLayer.addEventListener("pointerover", ev => hot(ev, true));
    this.wiresLayer.addEventListener("pointerout", ev => hot(ev, false));
    // The dots where wires meet, over the wires (few paths: one a domain).
    this.junctionsLayer = nestedDrawing(this.viewport, "junctions");
    this.compsLayer = svg("g", { class: "components" }, this.viewport);
    this.wireGroups = new GroupedLayer(this.wiresLayer);
    this.compGroups = new GroupedLayer(this.compsLayer);
    this.overlay = nestedDrawing(this.viewport, "overlay");
    this.listen();
  }

  // ------------------------------------------------------------ levels
  current(): Level {
    const lv = this.schematic.levels[this.level];
    if (!lv) throw new Error("the schematic has no level '" + this.level + "'");
    return lv;
  }

  // Draw `level` (or the current one) from scratch, fitted into view when it is another
  // level or `fit` asks; components without a position get the automatic layout's
  // (computed once per level and kept).
  async render(level?: string, fit = false): Promise<void> {
    if (level !== undefined && level !== this.level) { this.level = level; this.fitted = false; }
    if (fit) this.fitted = false;
    const lv = this.current();
    const missing = Object.keys(lv.components).filter(c => !(lv.layout && lv.layout.components && lv.layout.components[c]));
    const known = this.auto.get(this.level);
    if (missing.length && (!known || missing.some(c => !known.components[c])))
      this.auto.set(this.level, await this.autoPositions(lv, missing));
    // The canvas's size before the new drawing is in: measured after, it would lay the
    // whole drawing out at once (for a large level, most of the time to open it).
    const frame = this.svg.getBoundingClientRect();
    this.size = { width: frame.width, height: frame.height };
    if (!this.sizeWatch && typeof ResizeObserver !== "undefined") {
      // The canvas's size as it changes, read without asking for a layout.
      this.sizeWatch = new ResizeObserver(entries => {
        const r = entries[entries.length - 1].contentRect;
        this.size = { width: r.width, height: r.height };
        this.scheduleDetail();
      });
      this.sizeWatch.observe(this.svg);
    }
    this.compGroups.clear(); this.wireGroups.clear(); this.notesLayer.textContent = ""; this.junctionsLayer.textContent = "";
    this.terminalsLayer.textContent = ""; this.terminalsLayer.removeAttribute("data-sig");
    this.comps.clear(); this.wires = []; this.placed.clear(); this.junctions.clear();
    this.refresh();
    this.drawCrumbs();
    if (!this.fitted && this.options.fit !== false) { this.fit(frame); this.fitted = true; }
    if (this.options.onLevel) this.options.onLevel(this.level);
  }

  private async autoPositions(lv: Level, missing: string[]): Promise<AutoLayout> {
    const everything = missing.length === Object.keys(lv.components).length;
    const res = await this.autoLayout(lv, missing);
    if (!everything) {
      // Beside what is laid out already: below its lowest point.
      let bottom = -Infinity, left = Infinity;
      for (const [name, p] of Object.entries((lv.layout && lv.layout.components) || {})) {
        if (!lv.components[name]) continue;
        bottom = Math.max(bottom, p.y + 60); left = Math.min(left, p.x - 60);
      }
      if (isFinite(bottom)) {
        for (const p of Object.values(res.components)) { p.x += left; p.y += bottom; }
        for (const w of res.wires) w.points = (w.points || []).map(q => [q[0] + left, q[1] + bottom] as [number, number]);
      }
    }
    return res;
  }

  // ELK's layered layout of `names` (rotation 0, routed wires), or the quick one for a
  // large level or where ELK cannot be had.
  private async autoLayout(lv: Level, names: string[]): Promise<AutoLayout> {
    const symbolOf = (name: string) => symbolFor(lv.components[name]);
    if (names.length <= LARGE_LEVEL && await loadElk()) return elkLayout(lv, names, symbolOf);
    return quickLayout(lv, names, symbolOf);
  }

  // The automatic layout of the whole level (every component, rotation 0), for an
  // editor's "auto layout": positions and wire corners to write into the level's layout.
  async layoutLevel(level?: string): Promise<AutoLayout> {
    const lv = this.schematic.levels[level === undefined ? this.level : level];
    return this.autoLayout(lv, Object.keys(lv.components));
  }

  forgetAutoLayout(level?: string) { if (level === undefined) this.auto.clear(); else this.auto.delete(level); }

  open(level: string) {
    if (!this.schematic.levels[level]) return;
    this.selection.clear(); this.errors.clear(); this.warnings.clear(); this.wireErrors.clear(); this.wireSelection.clear();
    void this.render(level);
  }

  private drawCrumbs() {
    this.crumbs.textContent = "";
    const parts = this.level ? this.level.split("/") : [];
    const add = (label: string, key: string, last: boolean) => {
      if (key !== "" || parts.length) {
        if (key !== "") html("span", { class: "crumb-sep" }, this.crumbs, "›");
      }
      const lv = this.schematic.levels[key];
      const a = html(last ? "span" : "a", { class: last ? "crumb current" : "crumb", "data-level": key }, this.crumbs, label);
      if (lv && lv.definition && key) a.title = "an instance of " + lv.definition + (lv.editable ? "" : " (read only: " + (lv.file || "a file") + ")");
      if (!last) { a.setAttribute("href", "#"); a.onclick = ev => { ev.preventDefault(); this.open(key); }; }
    };
    add(this.schematic.netlist && this.schematic.netlist.name ? this.schematic.netlist.name : "top", "", parts.length === 0);
    parts.forEach((p, k) => add(p, parts.slice(0, k + 1).join("/"), k === parts.length - 1));
    const lv = this.schematic.levels[this.level];
    if (lv && this.level && lv.definition)
      html("span", { class: "crumb-def" }, this.crumbs, "(" + lv.definition + (lv.editable ? "" : ", read only") + ")");
  }

  // ------------------------------------------------------------ drawing
  symbolOf(name: string): Symbol {
    return symbolFor(this.current().components[name]);
  }

  // Where component `name` sits: the layout's placement, else the automatic one.
  placementOf(name: string): Placement | null {
    const lv = this.current();
    const own = lv.layout && lv.layout.components && lv.layout.components[name];
    if (own) return own;
    const a = this.auto.get(this.level);
    return (a && a.components[name]) || null;
  }

  placedOf(name: string): Placed | undefined { return this.placed.get(name); }

  // Redraw what differs from the level object (components, ports, positions, wires,
  // notes). No layout is computed here: a component without any position is put at
  // the origin until the next render().
  refresh() {
    const lv = this.current();
    const moved = new Set<string>();
    // (One edit of a large level changes a component or two: the others are passed over
    // after a comparison of what they were drawn from, without building anything.)
    for (const name of Object.keys(lv.components)) {
      const c = lv.components[name];
      const at = this.placementOf(name) || { x: 0, y: 0 };
      const old = this.comps.get(name);
      if (old && old.info === c && old.x === at.x && old.y === at.y && old.rotation === at.rotation && old.flip === at.flip) continue;
      const p: Placed = { x: Number(at.x) || 0, y: Number(at.y) || 0, rotation: Number(at.rotation) || 0,
                          flip: (at.flip as string) || "none", sym: symbolFor(c) };
      this.placed.set(name, p);
      let ports = this.portSig.get(c);
      if (ports === undefined) { ports = c.ports.map(q => q.name + q.domain + q.side).join(","); this.portSig.set(c, ports); }
      const shape = c.type + "|" + (c.subsystem || "") + "|" + ports + "|" + p.rotation + "," + p.flip;
      const drawn = { info: c, shape, x: at.x, y: at.y, rotation: at.rotation, flip: at.flip };
      if (old && old.shape === shape) {
        // Moved only: the same drawing, translated (a new one would be laid out anew).
        const to = `translate(${n(p.x)},${n(p.y)})`;
        if (old.g.getAttribute("transform") !== to) { old.g.setAttribute("transform", to); moved.add(name); }
        Object.assign(old, drawn);
        continue;
      }
      moved.add(name);
      const g = this.drawComponent(name, c, p);
      if (old) old.g.replaceWith(g); else this.compGroups.insert([g]);
      this.comps.set(name, { g, ...drawn });
    }
    for (const [name, el] of this.comps)
      if (!(name in lv.components)) { el.g.remove(); this.comps.delete(name); this.placed.delete(name); moved.add(name); }
    this.refreshWires(lv, moved);
    if (moved.size) this.scheduleDetail(moved);
    this.drawTerminals(lv);
    this.drawNotes(lv);
  }

  private drawComponent(name: string, c: ComponentInfo, p: Placed): SVGGElement {
    const sym = p.sym;
    const g = svg("g", { class: "component lib-" + (c.library || "x").replace(/[^a-z0-9_-]/gi, "") + " sym-" + sym.kind,
                          "data-name": name, "data-type": c.type, transform: `translate(${n(p.x)},${n(p.y)})` });
    if (c.subsystem) { g.classList.add("subsystem"); g.setAttribute("data-subsystem", c.subsystem); }
    if (this.selection.has(name)) g.classList.add("selected");
    svg("title", {}, g, name + ": " + c.type + (c.summary ? "\n" + c.summary : "") + (c.subsystem ? "\n(double-click to open)" : ""));
    if (this.errors.has(name) || this.warnings.has(name)) this.markComponent(g, name);
    const box = orientedBox(p);
    svg("rect", { class: "hit", x: n(box.x0 - 4), y: n(box.y0 - 4), width: n(box.x1 - box.x0 + 8), height: n(box.y1 - box.y0 + 8) }, g);
    const body = svg("g", { class: "body" }, g);
    const sx = p.flip === "horizontal" ? -1 : 1, sy = p.flip === "vertical" ? -1 : 1;
    if (p.rotation || sx < 0 || sy < 0) body.setAttribute("transform", `rotate(${p.rotation}) scale(${sx},${sy})`);
    // Stubs under the body (whose white fill hides what runs inside a round body).
    let stubs = "";
    for (const port of c.ports) {
      const s = sym.spots[port.name];
      if (!s) continue;
      const back = s.dir === "left" ? [10, 0] : s.dir === "right" ? [-10, 0] : s.dir === "top" ? [0, 10] : [0, -10];
      stubs += `M${s.x} ${s.y} L${s.x + back[0]} ${s.y + back[1]}`;
    }
    if (stubs) svg("path", { d: stubs, class: "stub" }, body);
    sym.draw(body);
    // Upright texts: the name above, the type in a labelled box, port names inside it.
    const labelled = sym.kind === "generic" || sym.kind === "subsystem";
    if (labelled) {
      const t = svg("text", { class: "type-label", x: 0, y: 0, "text-anchor": "middle", "dominant-baseline": "central" }, g,
                    c.subsystem ? c.type : c.type.split(".").pop() || c.type);
      if (p.rotation === 90 || p.rotation === 270) t.setAttribute("font-size", "10");
      // The body drew the name too when it is not turned; one text is enough.
      const inner = body.querySelector(".sym-type");
      if (inner) inner.remove();
    }
    svg("text", { class: "name-label", x: n((box.x0 + box.x1) / 2), y: n(box.y0 - 5), "text-anchor": "middle" }, g, name);
    for (const port of c.ports) {
      const s = sym.spots[port.name];
      if (!s) continue;
      const o = orient(s.x, s.y, p.rotation, p.flip);
      const dir = orientDir(s.dir, p.rotation, p.flip);
      const circle = svg("circle", { class: "port " + port.side + " d-" + port.domain, cx: n(o[0]), cy: n(o[1]), r: 3.5,
                                     "data-port": port.name, "data-domain": port.domain, "data-side": port.side,
                                     stroke: domainColor(port.domain), fill: port.side === "state" ? domainColor(port.domain) : "#fff" }, g);
      svg("title", {}, circle, name + "." + port.name + " (" + port.domain + ", " + port.side + " side" +
          (port.optional ? ", optional" : "") + ")" + (port.description ? "\n" + port.description : ""));
      if (labelled && (c.ports.length > 1 || c.subsystem)) this.portLabel(g, port.name, o, dir);
    }
    if (c.subsystem) {
      const b = svg("g", { class: "open-button", transform: `translate(${n(box.x1 - 13)},${n(box.y0 + 13)})` }, g);
      svg("title", {}, b, "open " + name);
      svg("rect", { x: -6, y: -6, width: 12, height: 12, rx: 2 }, b);
      svg("path", { d: "M-2.5 2.5 L3 -3 M-0.5 -3 L3 -3 L3 0.5" }, b);
    }
    return g;
  }

  private portLabel(g: SVGGElement, name: string, o: Pt, dir: Dir) {
    const inset = 14;
    let x = o[0], y = o[1], anchor = "middle";
    if (dir === "left") { x += inset; anchor = "start"; } else if (dir === "right") { x -= inset; anchor = "end"; }
    else if (dir === "top") y += inset; else y -= inset;
    svg("text", { class: "port-label", x: n(x), y: n(y), "text-anchor": anchor, "dominant-baseline": "central" }, g, name);
  }

  private wireRoute(lv: Level, k: number): { pts: Pt[]; domain: string } | null {
    const c = lv.connections[k];
    const [ca, pa] = splitEnd(c[0]), [cb, pb] = splitEnd(c[1]);
    const A = this.placed.get(ca), B = this.placed.get(cb);
    if (!A || !B) return null;
    const sa = portSpot(A, pa), sb = portSpot(B, pb);
    if (!sa || !sb) return null;
    const info = lv.components[ca].ports.find(q => q.name === pa);
    const domain = info ? info.domain : "";
    const w = this.wireOf(lv, c[0], c[1]);
    if (w && w.points && w.points.length) {
      const forward = w.from === c[0];
      const corners = (forward ? w.points : [...w.points].reverse()).map(q => [Number(q[0]), Number(q[1])] as Pt);
      return { pts: wirePolyline(sa.at, sa.dir, corners, sb.at), domain };
    }
    return { pts: wirePolyline(sa.at, sa.dir, autoRoute(sa.at, sa.dir, sb.at, sb.dir), sb.at), domain };
  }

  // The layout's route of connection a–b (either order), else ELK's from the last
  // automatic layout.
  wireOf(lv: Level, a: string, b: string): Wire | undefined {
    const match = (w: Wire) => (w.from === a && w.to === b) || (w.from === b && w.to === a);
    let own: Wire | undefined;
    if (this.wireIndex) own = this.wireIndex.get(a + "\n" + b) || this.wireIndex.get(b + "\n" + a);
    else own = lv.layout && Array.isArray(lv.layout.wires) ? lv.layout.wires.find(match) : undefined;
    if (own) return own;
    const auto = this.auto.get(this.level);
    if (!auto) return undefined;
    // Only while both ends are where ELK put them.
    const [ca] = splitEnd(a), [cb] = splitEnd(b);
    const placedByElk = (c: string) => !(lv.layout && lv.layout.components && lv.layout.components[c]) && auto.components[c];
    return placedByElk(ca) && placedByElk(cb) ? auto.wires.find(match) : undefined;
  }

  // `moved`: the components drawn anew since the last pass; a wire between two others
  // keeps its route unless the layout's wires or the automatic layout changed.
  private refreshWires(lv: Level, moved: Set<string>) {
    const count = lv.connections.length;
    // (A component given a place in the layout loses ELK's routes: hence the count.)
    const routes = JSON.stringify((lv.layout && lv.layout.wires) || null) + "|" +
                   Object.keys((lv.layout && lv.layout.components) || {}).length;
    const auto = this.auto.get(this.level) || null;
    const all = routes !== this.routesSeen || auto !== this.autoSeen;
    this.routesSeen = routes; this.autoSeen = auto;
    const still = (k: number) => {
      const old = this.wires[k], c = lv.connections[k];
      return !all && old && old.from === c[0] && old.to === c[1] && !moved.has(old.a) && !moved.has(old.b);
    };
    // The layout's wires by their ends, for this pass (the layout may change between passes).
    this.wireIndex = new Map();
    for (const w of (lv.layout && Array.isArray(lv.layout.wires) ? lv.layout.wires : []))
      if (!this.wireIndex.has(w.from + "\n" + w.to)) this.wireIndex.set(w.from + "\n" + w.to, w);
    for (let k = 0; k < count; ++k) {
      if (still(k)) continue;
      const c = lv.connections[k];
      const r = this.wireRoute(lv, k);
      const d = r ? pathData(r.pts) : "";
      const sig = c[0] + "|" + c[1] + "|" + d;
      const old = this.wires[k];
      if (old && old.sig === sig) continue;
      const box = r ? r.pts.reduce((b, q) => grow(b, { x0: q[0], y0: q[1], x1: q[0], y1: q[1] }), emptyBox()) : null;
      if (old && r && old.from === c[0] && old.to === c[1] && old.domain === r.domain) {
        // The same wire along another route: its path rewritten in place (new elements
        // would be styled and laid out anew).
        old.path.setAttribute("d", d); old.hit.setAttribute("d", d);
        old.sig = sig; old.box = box;
        continue;
      }
      if (old) { old.path.remove(); old.hit.remove(); }
      const hit = svg("path", { class: "wire-hit", d, "data-index": k }, null);
      const path = svg("path", { class: "wire d-" + (r ? r.domain : "none"), d, "data-from": c[0], "data-to": c[1], "data-index": k,
                                 stroke: r ? domainColor(r.domain) : "#9ca3af" }, null);
      if (!r) path.classList.add("dangling");
      if (this.wireSelection.has(k)) path.classList.add("selected");
      svg("title", {}, hit, c[0] + " — " + c[1]);
      // In connection order in the layer, so the DOM reads as the netlist.
      let next: WireEl | undefined;
      for (let j = k + 1; j < this.wires.length && !next; ++j) if (this.wires[j] && this.wires[j].hit.parentNode) next = this.wires[j];
      this.wireGroups.insert([hit, path], next ? next.hit : null);
      this.wires[k] = { path, hit, sig, box, from: c[0], to: c[1], a: splitEnd(c[0])[0], b: splitEnd(c[1])[0], domain: r ? r.domain : "" };
      if (this.wireErrors.has(k)) this.markWire(this.wires[k], k);
    }
    this.wireIndex = null;
    for (let k = count; k < this.wires.length; ++k) if (this.wires[k]) { this.wires[k].path.remove(); this.wires[k].hit.remove(); }
    this.wires.length = Math.min(this.wires.length, count);
    // Dots where two or more wires end at one port: one path per domain, rewritten only
    // when it changes (a level of a thousand components has hundreds of them).
    const ends = new Map<string, number>();
    for (const c of lv.connections) for (const e of c) ends.set(e, (ends.get(e) || 0) + 1);
    const byDomain = new Map<string, string>();
    for (const [end, count2] of ends) {
      if (count2 < 2) continue;
      const [cn, pn] = splitEnd(end);
      const P = this.placed.get(cn);
      const sp = P && portSpot(P, pn);
      if (!sp) continue;
      const info = lv.components[cn].ports.find(q => q.name === pn);
      const dom = info ? info.domain : "";
      const r = 2.6;
      byDomain.set(dom, (byDomain.get(dom) || "") + `M${n(sp.at[0] - r)} ${n(sp.at[1])}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`);
    }
    for (const [dom, path] of this.junctions) if (!byDomain.has(dom)) { path.remove(); this.junctions.delete(dom); }
    for (const [dom, d] of byDomain) {
      let path = this.junctions.get(dom);
      if (!path) { path = svg("path", { class: "junction", fill: domainColor(dom) }, this.junctionsLayer); this.junctions.set(dom, path); }
      if (path.getAttribute("d") !== d) path.setAttribute("d", d);
    }
  }

  // A subsystem's exported ports, in its own level: a flag named as the port outside,
  // out from the inner port it stands for along the way that port faces, with a dashed
  // lead to it. Placed from the inner port (the layout has no place for them).
  private drawTerminals(lv: Level) {
    const spots: [string, string, Pt, Dir][] = [];
    for (const [name, end] of Object.entries(lv.ports || {})) {
      if (typeof end !== "string") continue;
      const [c, port] = splitEnd(end);
      const P = this.placed.get(c);
      const sp = P && portSpot(P, port);
      if (sp) spots.push([name, end, sp.at, sp.dir]);
    }
    const sig = JSON.stringify(spots);
    if (this.terminalsLayer.getAttribute("data-sig") === sig) return;
    this.terminalsLayer.textContent = "";
    this.terminalsLayer.setAttribute("data-sig", sig);
    this.terminalBoxes = [];
    const reach = 46;
    for (const [name, end, at, dir] of spots) {
      const v = dirVector(dir);
      const t: Pt = [at[0] + v[0] * reach, at[1] + v[1] * reach];
      const g = svg("g", { class: "terminal", "data-terminal": name, "data-end": end, transform: `translate(${n(t[0])},${n(t[1])})` }, this.terminalsLayer);
      svg("title", {}, g, "port " + name + " of the subsystem: " + end + " inside");
      svg("path", { class: "terminal-lead", d: `M0 0 L${n(-v[0] * reach)} ${n(-v[1] * reach)}` }, g);
      // A flag pointing away from the inner port, i.e. out of the subsystem.
      const a = Math.atan2(v[1], v[0]) * 180 / Math.PI;
      svg("path", { class: "terminal-flag", d: "M-2 -6 L8 -6 L14 0 L8 6 L-2 6 Z", transform: `rotate(${n(a)})` }, g);
      const below = dir === "top" || dir === "bottom";
      svg("text", { class: "terminal-label", x: below ? 10 : v[0] < 0 ? -18 : 18, y: below ? (v[1] < 0 ? -10 : 20) : 0,
                    "text-anchor": below ? "start" : v[0] < 0 ? "end" : "start", "dominant-baseline": "central" }, g, name);
      this.terminalBoxes.push({ x0: Math.min(at[0], t[0]) - 60, y0: Math.min(at[1], t[1]) - 12, x1: Math.max(at[0], t[0]) + 60, y1: Math.max(at[1], t[1]) + 24 });
    }
  }

  private drawNotes(lv: Level) {
    const notes = (lv.layout && lv.layout.notes) || [];
    const sig = JSON.stringify(notes);
    if (this.notesLayer.getAttribute("data-sig") === sig) return;
    this.notesLayer.textContent = "";
    this.notesLayer.setAttribute("data-sig", sig);
    notes.forEach((note, k) => {
      const t = svg("text", { class: "note", x: n(Number(note.x)), y: n(Number(note.y)), "data-note": k }, this.notesLayer, String(note.text));
      if (k === this.noteSelected) t.classList.add("selected");
    });
  }

  // The note (index in the level's layout.notes) marked as selected, or none.
  private noteSelected = -1;
  setNoteSelection(k: number | null) {
    this.noteSelected = k === null ? -1 : k;
    this.notesLayer.querySelectorAll("text.note").forEach(t => t.classList.toggle("selected", Number(t.getAttribute("data-note")) === this.noteSelected));
  }

  // ------------------------------------------------------------ marks
  setSelection(names: Iterable<string>, wires: Iterable<number> = []) {
    this.selection = new Set(names);
    this.wireSelection = new Set(wires);
    for (const [name, el] of this.comps) el.g.classList.toggle("selected", this.selection.has(name));
    this.wires.forEach((w, k) => w && w.path.classList.toggle("selected", this.wireSelection.has(k)));
  }
  getSelection(): string[] { return [...this.selection]; }

  // Components marked with an error or, failing that, a warning, and connections (by
  // index in the level) with an error; each message becomes the element's tip. Only what
  // changes is touched (a large level's check answers after every edit).
  setErrors(errors: Record<string, string>, warnings: Record<string, string> = {}, wireErrors: Record<number, string> = {}) {
    const touched = new Set([...this.errors.keys(), ...this.warnings.keys()]);
    this.errors = new Map(Object.entries(errors));
    this.warnings = new Map(Object.entries(warnings));
    for (const name of [...Object.keys(errors), ...Object.keys(warnings)]) touched.add(name);
    for (const name of touched) {
      const el = this.comps.get(name);
      if (el) this.markComponent(el.g, name);
    }
    const wiresTouched = new Set([...this.wireErrors.keys(), ...Object.keys(wireErrors).map(Number)]);
    this.wireErrors = new Map(Object.entries(wireErrors).map(([k, m]) => [Number(k), m] as [number, string]));
    for (const k of wiresTouched) if (this.wires[k]) this.markWire(this.wires[k], k);
  }

  private markComponent(g: SVGGElement, name: string) {
    const error = this.errors.get(name), warning = error === undefined ? this.warnings.get(name) : undefined;
    g.classList.toggle("has-error", error !== undefined);
    g.classList.toggle("has-warning", warning !== undefined);
    const t = g.querySelector(":scope > title");
    if (t) {
      const base = (t.textContent || "").split("\n⚠ ")[0];
      const said = error !== undefined ? error : warning;
      t.textContent = said !== undefined ? base + "\n⚠ " + said : base;
    }
  }

  private markWire(w: WireEl, k: number) {
    const said = this.wireErrors.get(k);
    w.path.classList.toggle("has-error", said !== undefined);
    const t = w.hit.querySelector("title");
    if (t) t.textContent = w.from + " — " + w.to + (said !== undefined ? "\n⚠ " + said : "");
  }

  flash(name: string) {
    const el = this.comps.get(name);
    if (!el) return;
    el.g.classList.remove("flash");
    void el.g.getBoundingClientRect();
    el.g.classList.add("flash");
  }

  // ------------------------------------------------------------ geometry for editors
  portPosition(component: string, port: string): Pt | null {
    const p = this.placed.get(component);
    const s = p && portSpot(p, port);
    return s ? s.at : null;
  }
  portDir(component: string, port: string): Dir | null {
    const p = this.placed.get(component);
    const s = p && portSpot(p, port);
    return s ? s.dir : null;
  }
  componentBox(name: string): { x0: number; y0: number; x1: number; y1: number } | null {
    const p = this.placed.get(name);
    if (!p) return null;
    const b = orientedBox(p);
    return { x0: p.x + b.x0, y0: p.y + b.y0 - LABEL_ROOM, x1: p.x + b.x1, y1: p.y + b.y1 };
  }
  componentsIn(x0: number, y0: number, x1: number, y1: number): string[] {
    const out: string[] = [];
    for (const name of this.placed.keys()) {
      const b = this.componentBox(name);
      if (b && b.x0 >= Math.min(x0, x1) && b.x1 <= Math.max(x0, x1) && b.y0 + LABEL_ROOM >= Math.min(y0, y1) && b.y1 <= Math.max(y0, y1)) out.push(name);
    }
    return out;
  }
  // The whole route of connection k of the level shown, port to port (null if an end is
  // missing): what an editor moves a segment of.
  routeOf(k: number): Pt[] | null {
    const r = this.wireRoute(this.current(), k);
    return r ? r.pts : null;
  }
  componentElement(name: string): SVGGElement | null { const e = this.comps.get(name); return e ? e.g : null; }
  wireElement(k: number): SVGPathElement | null { const w = this.wires[k]; return w ? w.path : null; }

  // What is under a client point (a port before its component).
  hitTest(clientX: number, clientY: number): Hit {
    const el = document.elementFromPoint(clientX, clientY);
    return this.hitOf(el);
  }
  hitOf(el: Element | null): Hit {
    if (!el || !this.svg.contains(el)) return { kind: "background" };
    const port = el.closest("circle.port");
    const comp = el.closest("g.component");
    if (port && comp) return { kind: "port", component: comp.getAttribute("data-name") || "", port: port.getAttribute("data-port") || "" };
    if (comp) return { kind: "component", component: comp.getAttribute("data-name") || "" };
    const wire = el.closest(".wire, .wire-hit");
    if (wire) return { kind: "wire", index: Number(wire.getAttribute("data-index")) };
    const note = el.closest("text.note");
    if (note) return { kind: "note", index: Number(note.getAttribute("data-note")) };
    return { kind: "background" };
  }
  // A client point in canvas units.
  toCanvas(clientX: number, clientY: number): Pt {
    const r = this.svg.getBoundingClientRect();
    return [(clientX - r.left - this.tx) / this.k, (clientY - r.top - this.ty) / this.k];
  }
  get scale() { return this.k; }

  // ------------------------------------------------------------ pan and zoom
  private apply() {
    this.viewport.setAttribute("transform", `translate(${n(this.tx)},${n(this.ty)}) scale(${this.k})`);
    this.scheduleDetail();
  }

  // Level of detail. Chromium lays every SVG text of the drawing out again whenever
  // any shape in it moves (measured: a component moved in a drawing of 1 000 costs
  // 80-130 ms a frame with the texts, 30 ms without), so what cannot be read is taken
  // out of the drawing: every text when zoomed out below FAR_SCALE (10 px type drawn
  // under 4 px), and in a large level the components well outside the view.
  private detailQueued = false;
  // The components to look at in the queued pass; null: all (the view changed).
  private detailOf: Set<string> | null = null;
  private size: { width: number; height: number } | null = null;
  private sizeWatch: ResizeObserver | null = null;
  private scheduleDetail(only?: Set<string>) {
    if (typeof requestAnimationFrame === "undefined") return;
    if (!only) this.detailOf = null;
    else if (!this.detailQueued) this.detailOf = new Set(only);
    else if (this.detailOf) for (const name of only) this.detailOf.add(name);
    if (this.detailQueued) return;
    this.detailQueued = true;
    requestAnimationFrame(() => {
      const only = this.detailOf;
      this.detailQueued = false; this.detailOf = null;
      this.updateDetail(only);
    });
  }
  private culling = false;  // some component may carry off-view
  private updateDetail(only: Set<string> | null = null) {
    this.svg.classList.toggle("far", this.k < FAR_SCALE);
    const cull = this.comps.size > LARGE_LEVEL && this.size !== null;
    // (Called on every frame of a pan or zoom: a small level has nothing to walk.)
    if (!cull && !this.culling) return;
    if (cull !== this.culling) only = null;
    this.culling = cull;
    const margin = 0.5;  // of the view's size, on each side: what a short pan brings in is there
    const w = this.size ? this.size.width : 0, h = this.size ? this.size.height : 0;
    const x0 = (-this.tx - margin * w) / this.k, x1 = (w * (1 + margin) - this.tx) / this.k;
    const y0 = (-this.ty - margin * h) / this.k, y1 = (h * (1 + margin) - this.ty) / this.k;
    for (const [name, el] of this.comps) {
      if (only && !only.has(name)) continue;
      const b = cull ? this.componentBox(name) : null;
      el.g.classList.toggle("off-view", !!b && (b.x1 < x0 || b.x0 > x1 || b.y1 < y0 || b.y0 > y1));
    }
  }
  zoomBy(f: number, cx?: number, cy?: number) {
    const r = this.svg.getBoundingClientRect();
    const px = cx === undefined ? r.width / 2 : cx - r.left, py = cy === undefined ? r.height / 2 : cy - r.top;
    const k = Math.min(8, Math.max(0.05, this.k * f));
    this.tx = px - (px - this.tx) * k / this.k;
    this.ty = py - (py - this.ty) * k / this.k;
    this.k = k;
    this.apply();
  }
  panBy(dx: number, dy: number) { this.tx += dx; this.ty += dy; this.apply(); }
  fit(frame?: DOMRect) {
    const r = frame || this.svg.getBoundingClientRect();
    const all = emptyBox();
    for (const name of this.placed.keys()) grow(all, this.componentBox(name)!);
    // The wires' corners as routed (no getBBox: it would lay the whole drawing out here),
    // and the subsystem's terminals; the notes' texts measured (a few).
    for (const b of this.terminalBoxes) grow(all, b);
    for (const w of this.wires) if (w && w.box) grow(all, w.box);
    if (this.notesLayer.firstChild) {
      try {
        const nb = this.notesLayer.getBBox();
        if (nb.width || nb.height) grow(all, { x0: nb.x, y0: nb.y, x1: nb.x + nb.width, y1: nb.y + nb.height });
      } catch { /* not displayed yet */ }
    }
    const { x0, y0, x1, y1 } = all;
    if (!isFinite(x0) || !r.width || !r.height) { this.k = 1; this.tx = 20; this.ty = 20; this.apply(); return; }
    const pad = 24;
    this.k = Math.min(1.6, Math.max(0.05, Math.min((r.width - 2 * pad) / (x1 - x0 || 1), (r.height - 2 * pad) / (y1 - y0 || 1))));
    this.tx = (r.width - this.k * (x0 + x1)) / 2;
    this.ty = (r.height - this.k * (y0 + y1)) / 2;
    this.apply();
  }

  private listen() {
    const s = this.svg;
    s.addEventListener("wheel", ev => {
      ev.preventDefault();
      this.zoomBy(Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0015)), ev.clientX, ev.clientY);
    }, { passive: false });
    let pan: { x: number; y: number; id: number } | null = null;
    let moved = false;
    s.addEventListener("pointerdown", ev => {
      const hit = this.hitOf(ev.target as Element);
      const panning = ev.button === 1 || (ev.button === 0 && (this.spaceDown || (!this.options.editable && hit.kind !== "component" && hit.kind !== "port")));
      if (!panning) return;
      ev.preventDefault();
      pan = { x: ev.clientX, y: ev.clientY, id: ev.pointerId };
      moved = false;
      s.setPointerCapture(ev.pointerId);
      s.classList.add("panning");
    });
    s.addEventListener("pointermove", ev => {
      if (!pan || ev.pointerId !== pan.id) return;
      const dx = ev.clientX - pan.x, dy = ev.clientY - pan.y;
      if (Math.abs(dx) + Math.abs(dy) > 2) moved = true;
      this.panBy(dx, dy);
      pan.x = ev.clientX; pan.y = ev.clientY;
    });
    const end = (ev: PointerEvent) => {
      if (!pan || ev.pointerId !== pan.id) return;
      pan = null;
      s.classList.remove("panning");
      if (!moved && !this.options.editable) this.select(null);
    };
    s.addEventListener("pointerup", end);
    s.addEventListener("pointercancel", end);
    s.addEventListener("click", ev => {
      if (this.options.editable) return;
      const hit = this.hitOf(ev.target as Element);
      if (hit.kind === "component" || hit.kind === "port") {
        if ((ev.target as Element).closest(".open-button")) { this.openChild(hit.component); return; }
        this.select(hit.component);
      }
    });
    // (From the point, not the target: a captured pointer retargets clicks to the svg.)
    const under = (ev: MouseEvent) => document.elementFromPoint(ev.clientX, ev.clientY);
    s.addEventListener("dblclick", ev => {
      const hit = this.hitOf(under(ev));
      if (hit.kind === "component" || hit.kind === "port") this.openChild(hit.component);
    });
    if (this.options.editable) {
      s.addEventListener("click", ev => {
        const e = under(ev);
        if (e && e.closest(".open-button")) {
          const hit = this.hitOf(e);
          if (hit.kind === "component") this.openChild(hit.component);
        }
      });
    }
    window.addEventListener("keydown", ev => { if (ev.code === "Space" && document.activeElement === s) { this.spaceDown = true; ev.preventDefault(); } });
    window.addEventListener("keyup", ev => { if (ev.code === "Space") this.spaceDown = false; });
  }

  // Open the level of a subsystem instance of the level shown.
  openChild(name: string): boolean {
    const c = this.current().components[name];
    if (!c || !c.subsystem) return false;
    const key = this.schematic.levels[c.subsystem] ? c.subsystem : childKey(this.level, name);
    if (!this.schematic.levels[key]) return false;
    this.open(key);
    return true;
  }

  select(name: string | null) {
    this.setSelection(name ? [name] : []);
    if (this.options.onSelect) this.options.onSelect(name, this.level);
  }

  destroy() { if (this.sizeWatch) this.sizeWatch.disconnect(); this.root.remove(); }
}
