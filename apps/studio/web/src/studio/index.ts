// Jourdain Studio: the editor page served by `jourdain studio` (apps/studio/README.md).
// The netlist JSON is the one truth: every edit changes it (with an undo snapshot),
// mirrors the change into the schematic level the renderer draws, redraws what changed
// and asks the server to check the text, debounced.
import type * as JS from "../schematic/index";
import type { ComponentInfo, Level, PortInfo, Schematic, View } from "../schematic/index";
import { html } from "../schematic/svg";
import { api, ApiError, TOKEN, fileUrl } from "./api";
import { ensureLayout, levelDoc, levelOfPointer, parsePath, uniqueName } from "./doc";
import { ParamSpec, renderPanel, renderSimulation } from "./params";

// One renderer: the page inlines schematic.js before this bundle.
const R = (window as any).JourdainSchematic as typeof JS;

interface Describe {
  type: string; library?: string; summary?: string;
  parameters: (ParamSpec & { role?: string })[];
  ports: PortInfo[];
  states?: { name: string; unit?: string; description?: string }[];
}
interface Diagnostic {
  severity: string; path?: string; component?: string; port?: string; message: string; text?: string;
  line?: number; column?: number; suggestion?: string;
}
interface Run { id: string; analysis?: string; state: string; progress?: number; t?: number; t_end?: number; log?: string; exit_code?: number; report?: string | null }

const GRID = 10;

// The segment of a route nearest point p (index of its first point).
function nearestSegment(route: [number, number][], p: [number, number]): number {
  let best = 0, bestD = Infinity;
  for (let k = 0; k + 1 < route.length; ++k) {
    const a = route[k], b = route[k + 1];
    const dx = b[0] - a[0], dy = b[1] - a[1], len2 = dx * dx + dy * dy;
    const t = len2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2)) : 0;
    const d = Math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1]);
    if (d < bestD) { bestD = d; best = k; }
  }
  return best;
}
// The built-in solver methods (`jourdain solvers`), offered as the method field's list;
// a plugin's method is typed.
const SOLVER_METHODS = ["adams", "bdf", "dopri5", "rk4"];
const snap = (v: number) => Math.round(v / GRID) * GRID;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

class Studio {
  types = new Map<string, Describe>();
  path: string | null = null;
  base: string | null = null;
  netlist: any = null;
  schematic: Schematic | null = null;
  view: View | null = null;
  level = "";
  undoStack: string[] = [];
  redoStack: string[] = [];
  diagnostics: Diagnostic[] = [];
  selected: string[] = [];
  selectedWires: number[] = [];
  portsCache = new Map<string, PortInfo[]>();  // type + configuration → ports
  clipboard: { components: Record<string, any>; layout: Record<string, any>; connections: [string, string][] } | null = null;
  checkTimer = 0;
  structural = false;   // the next check also asks for the server's schematic
  dirty = false;
  run: Run | null = null;
  savedText: string | null = null;

  // ------------------------------------------------------------ page shell
  build() {
    const head = $("head");
    head.classList.add("studio-head");
    const title = html("div", { class: "studio-title" }, head);
    html("h1", {}, title, "Jourdain Studio");
    const fileBox = html("div", { class: "toolbar" }, head);
    const picker = html("select", { id: "file", title: "a netlist of the workspace" }, fileBox) as HTMLSelectElement;
    picker.onchange = () => { if (picker.value) void this.openFile(picker.value); };
    const newName = html("input", { id: "new-name", placeholder: "new.json", title: "the new netlist's path", spellcheck: "false" }, fileBox) as HTMLInputElement;
    this.button(fileBox, "new", "New", "start a new netlist at this path", () => this.newNetlist(newName.value.trim()));
    const edit = html("div", { class: "toolbar" }, head);
    this.button(edit, "undo", "↶ Undo", "undo (Ctrl+Z)", () => this.undo());
    this.button(edit, "redo", "↷ Redo", "redo (Ctrl+Shift+Z, Ctrl+Y)", () => this.redo());
    this.button(edit, "layout", "Auto layout", "lay the level out automatically (ELK; a quick layered layout for a large level)", () => void this.autoLayout());
    this.button(edit, "subsystem", "Make subsystem", "move the selection into a new subsystem", () => this.makeSubsystem());
    this.button(edit, "rotate", "⟳ Rotate", "rotate the selection (R)", () => this.rotate());
    this.button(edit, "flip", "⇋ Flip", "flip the selection (F)", () => this.flip());
    this.button(edit, "delete", "Delete", "delete the selection (Delete)", () => this.deleteSelection());
    this.button(edit, "note", "Note", "add a note (text on the schematic)", () => this.addNote());
    const runBox = html("div", { class: "toolbar" }, head);
    this.button(runBox, "save", "Save", "save the netlist (Ctrl+S)", () => void this.save());
    const analysis = html("select", { id: "analysis", title: "what Run does" }, runBox) as HTMLSelectElement;
    html("option", { value: "run" }, analysis, "simulate");
    html("option", { value: "linearize" }, analysis, "linearize");
    html("option", { value: "sweep" }, analysis, "sweep");
    // A sweep's study, as `jourdain sweep` takes it (apps/python): parameters and outputs
    // separated by ';' (a list of values has commas of its own).
    const sweep = html("span", { id: "sweep", class: "sweep-fields" }, runBox);
    html("input", { id: "sweep-params", placeholder: "spring.stiffness=100:400:4; damper.damping=1,2", spellcheck: "false", size: 34,
                    title: "parameters to sweep, separated by ';': NAME=V1,V2,… or NAME=START:STOP:N (a grid of every combination unless zipped), or a distribution (jourdain sweep --help)" }, sweep);
    html("input", { id: "sweep-outputs", placeholder: "mass.x:final; mass.x:absmax", spellcheck: "false", size: 24,
                    title: "what each run gives, separated by ';': VARIABLE[:final|initial|min|max|absmax|mean|tmin|tmax], wall_time, summary:PATH" }, sweep);
    const zipLabel = html("label", { title: "take the k-th value of every parameter together, instead of every combination" }, sweep);
    html("input", { id: "sweep-zip", type: "checkbox" }, zipLabel);
    zipLabel.append(" zip");
    const showSweep = () => { sweep.hidden = analysis.value !== "sweep"; };
    analysis.onchange = showSweep;
    showSweep();
    this.button(runBox, "run", "▶ Run", "save, then run the netlist", () => void this.startRun(analysis.value as "run" | "linearize" | "sweep"));
    this.button(runBox, "cancel", "Cancel", "stop the run", () => void this.cancelRun());
    ($("cancel") as HTMLButtonElement).disabled = true;
    const progress = html("progress", { id: "progress", max: 1, value: 0, title: "run progress" }, runBox) as HTMLProgressElement;
    progress.hidden = true;
    html("span", { id: "run-state", class: "muted" }, runBox);
    html("div", { id: "message", class: "message", role: "status" }, head);

    const main = $("main");
    main.classList.add("studio-main");
    const palette = html("aside", { class: "card palette", id: "palette" }, main);
    html("h2", {}, palette, "Components");
    const search = html("input", { id: "palette-search", type: "search", placeholder: "search types…", spellcheck: "false" }, palette) as HTMLInputElement;
    html("div", { id: "palette-list", class: "palette-list" }, palette);
    search.oninput = () => this.filterPalette(search.value);

    const centre = html("section", { class: "card canvas-card" }, main);
    const tabs = html("div", { class: "tabs" }, centre);
    const tab = (id: string, label: string) => {
      const b = html("button", { type: "button", class: "tab", "data-tab": id, id: "tab-" + id }, tabs, label);
      b.onclick = () => this.showTab(id);
    };
    tab("schematic", "Schematic");
    tab("results", "Results");
    const canvas = html("div", { id: "canvas", class: "canvas tab-body", "data-body": "schematic" }, centre);
    canvas.addEventListener("dragover", ev => { ev.preventDefault(); if (ev.dataTransfer) ev.dataTransfer.dropEffect = "copy"; });
    canvas.addEventListener("drop", ev => {
      ev.preventDefault();
      const type = ev.dataTransfer && ev.dataTransfer.getData("application/x-jourdain-type");
      if (type && this.view) { const p = this.view.toCanvas(ev.clientX, ev.clientY); this.addComponent(type, p[0], p[1]); }
    });
    const results = html("div", { class: "tab-body results", "data-body": "results" }, centre);
    html("iframe", { id: "report", title: "the run's report" }, results);
    html("p", { id: "no-report", class: "muted" }, results, "Run the netlist: its report shows here.");
    this.showTab("schematic");
    const diag = html("div", { class: "diag-box" }, centre);
    html("h3", {}, diag, "Check");
    html("ul", { id: "diagnostics", class: "diagnostics" }, diag);

    const side = html("aside", { class: "card side" }, main);
    html("h2", {}, side, "Parameters");
    html("div", { id: "params", class: "params" }, side);
    renderPanel($("params"), null, this.panelEvents());
    $("foot").textContent = "Jourdain Studio · drag a type onto the canvas; drag from a port to a port to connect; " +
      "R rotate, F flip, Delete, Ctrl+C/V, Ctrl+Z/Y; wheel zoom, middle button or Space+drag to pan; double-click a subsystem to open it.";
    document.addEventListener("keydown", ev => this.onKey(ev));
    window.addEventListener("beforeunload", ev => { if (this.dirty) { ev.preventDefault(); } });
  }

  button(parent: HTMLElement, id: string, label: string, title: string, act: () => void) {
    const b = html("button", { type: "button", id, title }, parent, label) as HTMLButtonElement;
    b.onclick = act;
    return b;
  }

  showTab(id: string) {
    document.querySelectorAll<HTMLElement>(".tab").forEach(t => t.classList.toggle("active", t.dataset.tab === id));
    document.querySelectorAll<HTMLElement>(".tab-body").forEach(b => { b.hidden = b.dataset.body !== id; });
    if (id === "schematic" && this.view && !this.view.getSelection().length) { /* keep the view as it is */ }
  }

  message(text: string, kind: "error" | "info" | "ok" = "info") {
    const m = $("message");
    m.textContent = text;
    m.className = "message " + kind;
  }

  // ------------------------------------------------------------ start
  async start() {
    this.build();
    try {
      // The netlist is asked for as soon as its name is known, while the types arrive
      // and the palette is built (a large level takes the server a while).
      const typesAsked = api("GET", "/api/types");
      const ws = await api("GET", "/api/workspace");
      const netlistAsked = ws.initial ? api("GET", "/api/netlist?path=" + encodeURIComponent(ws.initial)) : null;
      if (netlistAsked) netlistAsked.catch(() => {});  // openFile reports its failure
      const types = await typesAsked;
      for (const t of types.types as Describe[]) this.types.set(t.type, t);
      this.buildPalette();
      const picker = $("file") as HTMLSelectElement;
      html("option", { value: "" }, picker, ws.files.length ? "open a netlist…" : "(no netlist in " + ws.root + ")");
      for (const f of ws.files as string[]) html("option", { value: f }, picker, f);
      if (ws.initial) { picker.value = ws.initial; await this.openFile(ws.initial, netlistAsked!); }
      else { this.newNetlist("untitled.json", true); }
    } catch (e) {
      this.message("Could not start: " + (e as Error).message, "error");
      document.body.dataset.error = String(e);
    }
  }

  buildPalette() {
    const list = $("palette-list");
    list.textContent = "";
    const groups = new Map<string, Describe[]>();
    for (const t of this.types.values()) {
      const lib = t.library || t.type.split(".")[0];
      if (!groups.has(lib)) groups.set(lib, []);
      groups.get(lib)!.push(t);
    }
    for (const [lib, items] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
      const g = html("details", { class: "palette-group", open: "", "data-library": lib }, list);
      html("summary", {}, g, lib + " (" + items.length + ")");
      for (const t of items.sort((a, b) => a.type.localeCompare(b.type))) {
        const e = html("div", { class: "palette-item", draggable: "true", "data-palette-type": t.type,
                                title: t.summary + "\n(drag onto the canvas, or double-click)" }, g);
        html("div", { class: "palette-name" }, e, t.type.slice(t.type.indexOf(".") + 1));
        html("div", { class: "palette-summary" }, e, t.summary || "");
        e.addEventListener("dragstart", ev => {
          ev.dataTransfer!.setData("application/x-jourdain-type", t.type);
          ev.dataTransfer!.setData("text/plain", t.type);
          ev.dataTransfer!.effectAllowed = "copy";
        });
        e.addEventListener("dblclick", () => {
          if (!this.view) return;
          const r = this.view.svg.getBoundingClientRect();
          const p = this.view.toCanvas(r.left + r.width / 2, r.top + r.height / 2);
          this.addComponent(t.type, p[0], p[1]);
        });
      }
    }
  }

  filterPalette(q: string) {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    document.querySelectorAll<HTMLElement>(".palette-item").forEach(e => {
      const t = this.types.get(e.dataset.paletteType || "");
      const hay = ((t && t.type) + " " + (t && t.summary)).toLowerCase();
      e.hidden = !words.every(w => hay.includes(w));
    });
    document.querySelectorAll<HTMLDetailsElement>(".palette-group").forEach(g => {
      const any = [...g.querySelectorAll<HTMLElement>(".palette-item")].some(e => !e.hidden);
      g.hidden = !any;
      if (words.length && any) g.open = true;
    });
  }

  // ------------------------------------------------------------ files
  async openFile(path: string, asked?: Promise<any>) {
    try {
      const r = await (asked || api("GET", "/api/netlist?path=" + encodeURIComponent(path)));
      this.path = r.path || path;
      this.base = r.text;
      this.savedText = r.text;
      this.netlist = r.schematic.netlist;
      this.supplied.clear();
      this.undoStack = []; this.redoStack = [];
      this.dirty = false;
      await this.adopt(r.schematic, "");
      this.message("Opened " + this.path, "ok");
      this.scheduleCheck(0);
    } catch (e) {
      this.message("Could not open " + path + ": " + (e as Error).message, "error");
    }
  }

  newNetlist(path: string, quiet = false) {
    if (!path) { this.message("Type the new netlist's path (e.g. netlists/my_system.json) beside New.", "error"); return; }
    if (!/\.json$/i.test(path)) path += ".json";
    const name = (path.split("/").pop() || "untitled").replace(/\.json$/i, "");
    this.path = path;
    this.base = null;
    this.savedText = null;
    this.netlist = { name, components: {}, connections: [] };
    this.supplied.clear();
    this.undoStack = []; this.redoStack = [];
    this.dirty = !quiet;
    const schematic: Schematic = { netlist: this.netlist, file: path, recorded: [],
      levels: { "": { components: {}, connections: this.netlist.connections, layout: null, definition: null, editable: true } } };
    void this.adopt(schematic, "");
    const picker = $("file") as HTMLSelectElement;
    picker.value = "";
    if (!quiet) this.message("New netlist " + path + " (not saved yet)", "info");
  }

  // Take a schematic (from the server, or built here) as the one drawn; the level shown
  // stays when it still exists.
  async adopt(s: Schematic, level: string) {
    s.netlist = this.netlist;
    this.schematic = s;
    for (const key of Object.keys(s.levels)) this.linkLevel(key);
    this.rememberPorts();
    if (!s.levels[level]) level = "";
    if (!this.view) {
      this.view = R.mount($("canvas"), s, { level, editable: true, onLevel: l => this.onLevel(l) }) as any;
      this.attachCanvas();
      await (this.view as any).ready;
    } else {
      this.view.schematic = s;
      this.view.forgetAutoLayout();
      await this.view.render(level, true);  // another document: shown whole, as the first one was
    }
    this.level = this.view!.level;
    this.select([]);
    this.showDiagnostics();
    this.updateButtons();  // the undo history is the new document's (empty)
    document.body.dataset.ready = "1";
  }

  // The level object shares the document's arrays and layout, so the renderer reads
  // the edits without a copy.
  linkLevel(key: string) {
    const s = this.schematic!, lv = s.levels[key];
    const d = levelDoc(this.netlist, key);
    if (!d) { lv.editable = false; return; }
    // The renderer and the edits want both sections; a level written without them gets
    // them here, and text() leaves them out again while they stay empty, so that opening
    // and saving a netlist changes nothing.
    if (!Array.isArray(d.doc.connections)) { d.doc.connections = []; this.supplied.add(d.doc.connections); }
    if (!d.doc.components) { d.doc.components = {}; this.supplied.add(d.doc.components); }
    lv.connections = d.doc.connections;
    lv.layout = d.doc.layout || null;
    lv.ports = d.doc.ports || null;
  }

  configKey(type: string, params: Record<string, unknown> | undefined): string {
    const t = this.types.get(type);
    const conf: Record<string, unknown> = {};
    if (t && params) for (const p of t.parameters) if (p.role === "configuration" && params[p.name] !== undefined) conf[p.name] = params[p.name];
    return type + " " + JSON.stringify(conf);
  }
  configParams(type: string, params: Record<string, unknown> | undefined): Record<string, unknown> {
    const t = this.types.get(type), conf: Record<string, unknown> = {};
    if (t && params) for (const p of t.parameters) if (p.role === "configuration" && params[p.name] !== undefined) conf[p.name] = params[p.name];
    return conf;
  }

  rememberPorts() {
    const s = this.schematic!;
    for (const key of Object.keys(s.levels)) {
      const d = levelDoc(this.netlist, key);
      if (!d) continue;
      for (const [name, c] of Object.entries(s.levels[key].components)) {
        const inst = d.doc.components && d.doc.components[name];
        if (inst && !c.subsystem && this.types.has(c.type)) this.portsCache.set(this.configKey(c.type, inst.params), c.ports);
      }
    }
  }

  // ------------------------------------------------------------ level mirror
  doc() { return levelDoc(this.netlist, this.level); }
  lv(): Level { return this.schematic!.levels[this.level]; }
  editable(): boolean {
    const lv = this.lv();
    return !!lv && lv.editable !== false && !!this.doc();
  }

  // The level's components after an edit of the document: new ones described from
  // their type (asking the server for the ports of a configured one), gone ones left
  // out; then a redraw of what changed.
  // `only`: the components the edit may have changed (the others are taken as they
  // are, which keeps one edit of a large level cheap); all of them when absent.
  sync(key = this.level, only?: string[]) {
    const s = this.schematic!, lv = s.levels[key], d = levelDoc(this.netlist, key);
    if (!lv || !d) return;
    lv.connections = d.doc.connections;
    lv.layout = d.doc.layout || null;
    lv.ports = d.doc.ports || null;
    const next: Record<string, ComponentInfo> = {};
    const look = only ? new Set(only) : null;
    for (const [name, inst] of Object.entries<any>(d.doc.components || {})) {
      const old = lv.components[name];
      if (look && old && !look.has(name) && old.type === inst.type) { next[name] = old; continue; }
      const t = this.types.get(inst.type);
      if (old && old.type === inst.type && (!t || old.ports === this.portsCache.get(this.configKey(inst.type, inst.params)) || old.subsystem)) {
        next[name] = old;
        continue;
      }
      if (!t) {
        next[name] = old && old.type === inst.type ? old : { type: inst.type, library: "subsystem", subsystem: null, ports: [], summary: "" };
        continue;
      }
      const key2 = this.configKey(inst.type, inst.params);
      let ports = this.portsCache.get(key2);
      if (!ports) {
        ports = t.ports.map(p => ({ name: p.name, domain: p.domain, side: p.side, optional: p.optional, description: p.description }));
        if (Object.keys(this.configParams(inst.type, inst.params)).length) void this.configure(inst.type, inst.params, key2);
        else this.portsCache.set(key2, ports);
      }
      next[name] = { type: inst.type, library: t.library || inst.type.split(".")[0], summary: t.summary, subsystem: null, ports };
    }
    lv.components = next;
    if (key === this.level && this.view) this.view.refresh();
  }

  pendingConfigure = new Set<string>();
  async configure(type: string, params: Record<string, unknown>, key: string) {
    if (this.pendingConfigure.has(key)) return;
    this.pendingConfigure.add(key);
    try {
      const r: Describe = await api("POST", "/api/configure", { type, params: this.configParams(type, params) });
      this.portsCache.set(key, r.ports.map(p => ({ name: p.name, domain: p.domain, side: p.side, optional: p.optional, description: p.description })));
      this.sync();
      this.showDiagnostics();
    } catch (e) {
      // Refused values: the check says why, on the component.
      if (!(e instanceof ApiError)) this.message("configure: " + (e as Error).message, "error");
    } finally {
      this.pendingConfigure.delete(key);
    }
  }

  onLevel(level: string) {
    this.level = level;
    this.select([]);
    this.showDiagnostics();
  }

  // ------------------------------------------------------------ edits
  // Sections linkLevel supplied to a level that had none (left out of text() while empty).
  // Reset with the netlist they belong to; a handful (two a level at most).
  supplied = new Set<object>();
  text() {
    const supplied = this.supplied;
    // Compact: this text is what undo keeps and what check and save send (the server
    // writes the file in its own spelling). The replacer only while one is empty: it
    // makes JSON.stringify several times slower, and a large netlist's text is written
    // twice an edit.
    if (![...supplied].some(o => Object.keys(o).length === 0)) return JSON.stringify(this.netlist);
    return JSON.stringify(this.netlist, (_key, value) => {
      if (value && typeof value === "object" && supplied.has(value) && Object.keys(value).length === 0) return undefined;
      return value;
    });
  }

  // Every edit goes through here: a snapshot for undo, the change, the mirror, a check.
  edit(change: () => void | false, structural = false, touched?: string[]) {
    if (!this.editable()) { this.message("This level is read only (a subsystem from a file).", "error"); return false; }
    const before = this.text();
    if (change() === false) return false;
    const after = this.text();
    if (after === before) return false;
    this.undoStack.push(before);
    if (this.undoStack.length > 200) this.undoStack.shift();
    this.redoStack = [];
    this.afterEdit(structural, touched, after);
    return true;
  }

  // `after`: the text after the edit when the caller has it (a large netlist's text
  // takes milliseconds to write).
  afterEdit(structural: boolean, touched?: string[], after?: string) {
    this.dirty = (after !== undefined ? after : this.text()) !== this.savedText;
    const t0 = performance.now();
    this.sync(this.level, touched);
    document.body.dataset.editMs = String(Math.round((performance.now() - t0) * 10) / 10);
    if (structural) this.structural = true;
    this.scheduleCheck();
    this.updateButtons();
  }

  updateButtons() {
    ($("undo") as HTMLButtonElement).disabled = !this.undoStack.length;
    ($("redo") as HTMLButtonElement).disabled = !this.redoStack.length;
  }

  restore(text: string) {
    this.netlist = JSON.parse(text);
    this.supplied.clear();
    const s = this.schematic!;
    s.netlist = this.netlist;
    for (const key of Object.keys(s.levels)) { this.linkLevel(key); this.sync(key); }
    if (!s.levels[this.level] || !levelDoc(this.netlist, this.level)) { this.view!.open(""); }
    this.view!.refresh();
    this.select(this.selected.filter(n => this.lv().components[n]));
    this.dirty = this.text() !== this.savedText;
    this.structural = true;
    this.scheduleCheck();
    this.updateButtons();
  }
  undo() {
    const t = this.undoStack.pop();
    if (t === undefined) return;
    this.redoStack.push(this.text());
    this.restore(t);
  }
  redo() {
    const t = this.redoStack.pop();
    if (t === undefined) return;
    this.undoStack.push(this.text());
    this.restore(t);
  }

  // Positions for every component of the level, so that moving one does not move the
  // others (those ELK placed are written as they are drawn).
  materialize(doc: any) {
    const layout = ensureLayout(doc);
    for (const name of Object.keys(doc.components || {})) {
      if (layout.components[name]) continue;
      const p = this.view!.placementOf(name);
      if (p) layout.components[name] = { x: p.x, y: p.y };
      // ELK's route of each wire whose ends it placed.
      for (const c of doc.connections as [string, string][]) {
        if (!c[0].startsWith(name + ".") && !c[1].startsWith(name + ".")) continue;
        const w = this.view!.wireOf(this.lv(), c[0], c[1]);
        if (w && w.points && w.points.length && !(layout.wires || []).some((x: any) => x === w)) {
          if (!layout.wires) layout.wires = [];
          if (!layout.wires.some((x: any) => (x.from === w.from && x.to === w.to) || (x.from === w.to && x.to === w.from)))
            layout.wires.push({ from: w.from, to: w.to, points: w.points.map(q => [q[0], q[1]]) });
        }
      }
    }
    this.lv().layout = layout;
  }

  addComponent(type: string, x: number, y: number) {
    const d = this.doc();
    if (!d) { this.message("This level is read only.", "error"); return; }
    const base = type.includes(".") ? type.slice(type.lastIndexOf(".") + 1) : type;
    const name = uniqueName(base, n => !!(d.doc.components && d.doc.components[n]));
    this.edit(() => {
      this.materialize(d.doc);
      d.doc.components[name] = { type };
      ensureLayout(d.doc).components[name] = { x: snap(x), y: snap(y) };
    }, true, [name]);
    this.select([name]);
    this.message("Added " + name + " (" + type + ")", "ok");
  }

  connect(a: string, b: string) {
    const d = this.doc();
    if (!d || a === b) return;
    if (d.doc.connections.some((c: [string, string]) => (c[0] === a && c[1] === b) || (c[0] === b && c[1] === a))) {
      this.message("Already connected: " + a + " — " + b, "error");
      return;
    }
    const index = d.doc.connections.length;
    const pointer = d.pointer + "/connections/" + index;
    if (!this.edit(() => { d.doc.connections.push([a, b]); }, false, [])) return;
    // The new wire stays only if the check finds nothing wrong with it. The check is
    // asked once the wire is drawn (the next frame), not before: writing and sending a
    // large netlist's text would delay the drawing.
    clearTimeout(this.checkTimer);
    requestAnimationFrame(() => { window.setTimeout(() => this.checkWire(a, b, index, pointer), 0); });
  }

  private checkWire(a: string, b: string, index: number, pointer: string) {
    const text = this.text();
    void this.check(text, true).then(res => {
      if (!res) return;
      const bad = res.diagnostics.find(x => x.severity === "error" && x.path === pointer);
      if (!bad) return;
      const now = levelDoc(this.netlist, this.level);
      const c = now && now.doc.connections[index];
      if (c && c[0] === a && c[1] === b && this.text() === text) {
        this.undoStack.pop();
        now!.doc.connections.splice(index, 1);
        this.afterEdit(false, []);
      }
      this.message("Refused " + a + " — " + b + ": " + bad.message, "error");
    });
  }

  // Components moved by (dx, dy) from where the drag started; wires with both ends
  // moving go along (from their points at the start), the others were dropped at the
  // start and route themselves.
  moveBy(names: string[], dx: number, dy: number, start: Record<string, [number, number]>, wiresAt: Map<any, [number, number][]>) {
    const d = this.doc()!;
    const layout = ensureLayout(d.doc);
    for (const n of names) {
      const p = layout.components[n];
      if (!p || !start[n]) continue;
      p.x = snap(start[n][0] + dx); p.y = snap(start[n][1] + dy);
    }
    for (const [w, pts] of wiresAt) w.points = pts.map(q => [snap(q[0] + dx), snap(q[1] + dy)]);
    this.view!.refresh();
  }

  // Segment `segment` of connection k's route (port to port, as drawn when the drag
  // started) moved across itself to pass through `at`, written as the wire's corners in
  // the layout. A segment that leaves a port keeps a stub out of the port and jogs.
  moveSegment(k: number, route: [number, number][], segment: number, at: [number, number]) {
    const d = this.doc()!, view = this.view!;
    const c = d.doc.connections[k] as [string, string];
    if (!c) return;
    const pts = route.map(q => [q[0], q[1]] as [number, number]);
    let s = segment;
    const stub = (end: string, from: [number, number]): [number, number] => {
      const [comp, port] = R.splitEnd(end);
      const v = R.dirVector(view.portDir(comp, port) || "right");
      return [from[0] + 12 * v[0], from[1] + 12 * v[1]];
    };
    if (s === pts.length - 2) { const b = stub(c[1], pts[pts.length - 1]); pts.splice(pts.length - 1, 0, b, [b[0], b[1]]); }
    if (s === 0) { const a = stub(c[0], pts[0]); pts.splice(1, 0, a, [a[0], a[1]]); s += 2; }
    const p = pts[s], q = pts[s + 1];
    if (Math.abs(p[0] - q[0]) >= Math.abs(p[1] - q[1])) { p[1] = snap(at[1]); q[1] = snap(at[1]); }
    else { p[0] = snap(at[0]); q[0] = snap(at[0]); }
    const layout = ensureLayout(d.doc);
    const others = (Array.isArray(layout.wires) ? layout.wires : []).filter((w: any) =>
      !((w.from === c[0] && w.to === c[1]) || (w.from === c[1] && w.to === c[0])));
    layout.wires = [...others, { from: c[0], to: c[1], points: R.simplify(pts).slice(1, -1) }];
    view.refresh();
  }

  rotate() {
    this.reorient(p => {
      p.rotation = (((Number(p.rotation) || 0) + 90) % 360);
      if (!p.rotation) delete p.rotation;
    });
  }
  flip() {
    this.reorient(p => {
      if (p.flip === "horizontal") delete p.flip; else p.flip = "horizontal";
    });
  }
  // Turns or mirrors each selected symbol; their wires' corners no longer fit and are dropped.
  private reorient(change: (placement: any) => void) {
    const names = this.selected;
    if (!names.length) return;
    this.edit(() => {
      const d = this.doc()!;
      this.materialize(d.doc);
      const layout = ensureLayout(d.doc);
      for (const n of names) change(layout.components[n]);
      this.dropWires(layout, names);
    }, false, []);
  }
  dropWires(layout: any, names: string[]) {
    if (!Array.isArray(layout.wires)) return;
    const set = new Set(names);
    layout.wires = layout.wires.filter((w: any) => !set.has(String(w.from).split(".")[0]) && !set.has(String(w.to).split(".")[0]));
  }

  deleteSelection() {
    const names = this.selected, wires = this.selectedWires;
    if (this.selectedNote !== null) {
      const k = this.selectedNote;
      if (this.edit(() => { this.notes().splice(k, 1); }, false, [])) this.select([]);
      return;
    }
    if (!names.length && !wires.length) return;
    this.edit(() => {
      const d = this.doc()!;
      const set = new Set(names);
      const gone = (e: string) => set.has(e.split(".")[0]);
      const wireSet = new Set(wires);
      const removed: [string, string][] = [];
      const keep = (d.doc.connections as [string, string][]).filter((c, k) => {
        const drop = gone(c[0]) || gone(c[1]) || wireSet.has(k);
        if (drop) removed.push(c);
        return !drop;
      });
      d.doc.connections.length = 0;
      d.doc.connections.push(...keep);
      for (const n of names) delete d.doc.components[n];
      if (d.doc.layout) {
        if (d.doc.layout.components) for (const n of names) delete d.doc.layout.components[n];
        if (Array.isArray(d.doc.layout.wires))
          d.doc.layout.wires = d.doc.layout.wires.filter((w: any) =>
            !removed.some(c => (c[0] === w.from && c[1] === w.to) || (c[0] === w.to && c[1] === w.from)));
      }
    }, names.length > 0);
    this.select([]);
  }

  copy() {
    const d = this.doc();
    if (!d || !this.selected.length) return;
    const set = new Set(this.selected);
    const components: Record<string, any> = {}, layout: Record<string, any> = {};
    for (const n of this.selected) {
      components[n] = JSON.parse(JSON.stringify(d.doc.components[n]));
      const p = this.view!.placementOf(n);
      if (p) layout[n] = JSON.parse(JSON.stringify(p));
    }
    const connections = (d.doc.connections as [string, string][]).filter(c => set.has(c[0].split(".")[0]) && set.has(c[1].split(".")[0]));
    this.clipboard = { components, layout, connections: connections.map(c => [c[0], c[1]]) };
    this.message("Copied " + this.selected.length + " component" + (this.selected.length === 1 ? "" : "s"), "info");
  }
  paste() {
    const clip = this.clipboard, d = this.doc();
    if (!clip || !d) return;
    const rename: Record<string, string> = {};
    const fresh: string[] = [];
    this.edit(() => {
      this.materialize(d.doc);
      const layout = ensureLayout(d.doc);
      for (const [n, c] of Object.entries(clip.components)) {
        const m = uniqueName(n.replace(/\d+$/, "") || n, x => !!d.doc.components[x] || fresh.includes(x));
        rename[n] = m;
        fresh.push(m);
        d.doc.components[m] = JSON.parse(JSON.stringify(c));
        const p = clip.layout[n] || { x: 0, y: 0 };
        layout.components[m] = { ...JSON.parse(JSON.stringify(p)), x: snap(p.x + 40), y: snap(p.y + 40) };
      }
      const re = (e: string) => { const k = e.indexOf("."); return rename[e.slice(0, k)] + e.slice(k); };
      for (const c of clip.connections) d.doc.connections.push([re(c[0]), re(c[1])]);
    }, true);
    // The next paste lands further along.
    for (const n of Object.keys(clip.layout)) { clip.layout[n] = { ...clip.layout[n], x: clip.layout[n].x + 40, y: clip.layout[n].y + 40 }; }
    this.select(fresh);
  }

  rename(from: string, to: string) {
    const d = this.doc();
    if (!d) return;
    if (!/^[A-Za-z0-9_-]+$/.test(to)) { this.message("A name is made of letters, digits, _ and -.", "error"); this.select(this.selected); return; }
    if (d.doc.components[to]) { this.message("'" + to + "' is taken.", "error"); this.select(this.selected); return; }
    this.edit(() => {
      // Keep the key order of components.
      const out: Record<string, any> = {};
      for (const [k, v] of Object.entries(d.doc.components)) out[k === from ? to : k] = v;
      for (const k of Object.keys(d.doc.components)) delete d.doc.components[k];
      Object.assign(d.doc.components, out);
      const re = (e: string) => (e.startsWith(from + ".") ? to + e.slice(from.length) : e);
      for (const c of d.doc.connections) { c[0] = re(c[0]); c[1] = re(c[1]); }
      if (d.doc.layout && d.doc.layout.components && d.doc.layout.components[from]) {
        const lc: Record<string, any> = {};
        for (const [k, v] of Object.entries(d.doc.layout.components)) lc[k === from ? to : k] = v;
        d.doc.layout.components = lc;
      }
      if (d.doc.layout && Array.isArray(d.doc.layout.wires))
        for (const w of d.doc.layout.wires) { w.from = re(w.from); w.to = re(w.to); }
      this.renameRecorded(this.level ? this.level + "/" + from : from, this.level ? this.level + "/" + to : to);
      if (d.doc.ports && typeof d.doc.ports === "object")
        for (const k of Object.keys(d.doc.ports)) {
          const v = d.doc.ports[k];
          d.doc.ports[k] = Array.isArray(v) ? v.map(re) : re(v);
        }
    }, true);
    this.select([to]);
  }

  // Record entries follow a component that moves or is renamed ("a.x" → "b.x", and
  // "a/inner.x" → "b/inner.x" for a subsystem instance).
  renameRecorded(from: string, to: string) {
    if (!Array.isArray(this.netlist.record)) return;
    this.netlist.record = this.netlist.record.map((r: unknown) =>
      typeof r === "string" && (r.startsWith(from + ".") || r.startsWith(from + "/")) ? to + r.slice(from.length) : r);
  }

  setParam(name: string, key: string, value: unknown, configuration: boolean, kind: "params" | "initial" = "params") {
    const d = this.doc();
    if (!d || !d.doc.components[name]) return;
    this.edit(() => {
      const inst = d.doc.components[name];
      if (value === undefined) {
        if (inst[kind]) { delete inst[kind][key]; if (!Object.keys(inst[kind]).length) delete inst[kind]; }
      } else {
        if (!inst[kind] || typeof inst[kind] !== "object") inst[kind] = {};
        inst[kind][key] = value;
      }
    }, configuration, [name]);
  }

  // ------------------------------------------------------------ subsystems
  makeSubsystem() {
    const d = this.doc();
    const names = this.selected;
    if (!d || !names.length) { this.message("Select the components to move into a subsystem first.", "error"); return; }
    const set = new Set(names);
    const inside = (e: string) => set.has(e.split(".")[0]);
    const defs = d.doc.subsystems && typeof d.doc.subsystems === "object" ? d.doc.subsystems : {};
    const defName = uniqueName("subsystem", n => !!defs[n] || this.types.has(n));
    const inst = uniqueName(defName, n => !!d.doc.components[n]);
    const lvBefore = this.lv();
    this.edit(() => {
      this.materialize(d.doc);
      const layout = ensureLayout(d.doc);
      const def: any = { components: {}, connections: [], ports: {} };
      let cx = 0, cy = 0;
      for (const n of names) {
        def.components[n] = d.doc.components[n];
        const p = layout.components[n] || { x: 0, y: 0 };
        cx += p.x / names.length; cy += p.y / names.length;
      }
      const portOf = new Map<string, string>();
      const keep: [string, string][] = [];
      for (const c of d.doc.connections as [string, string][]) {
        const a = inside(c[0]), b = inside(c[1]);
        if (a && b) { def.connections.push([c[0], c[1]]); continue; }
        if (!a && !b) { keep.push(c); continue; }
        const inner = a ? c[0] : c[1], outer = a ? c[1] : c[0];
        let port = portOf.get(inner);
        if (!port) {
          port = uniqueName(inner.replace(".", "_"), x => Object.prototype.hasOwnProperty.call(def.ports, x));
          def.ports[port] = inner;
          portOf.set(inner, port);
        }
        keep.push(a ? [inst + "." + port, outer] : [outer, inst + "." + port]);
      }
      // The inner layout: the same arrangement around the origin, its wires along.
      const innerLayout: any = { components: {} };
      for (const n of names) {
        const p = layout.components[n];
        if (p) innerLayout.components[n] = { ...p, x: snap(p.x - cx + 300), y: snap(p.y - cy + 200) };
      }
      if (Array.isArray(layout.wires)) {
        const moved = layout.wires.filter((w: any) => inside(w.from) && inside(w.to));
        if (moved.length) innerLayout.wires = moved.map((w: any) => ({ ...w, points: (w.points || []).map((q: number[]) => [snap(q[0] - cx + 300), snap(q[1] - cy + 200)]) }));
        layout.wires = layout.wires.filter((w: any) => !inside(w.from) && !inside(w.to));
      }
      def.layout = innerLayout;
      if (!d.doc.subsystems || typeof d.doc.subsystems !== "object") d.doc.subsystems = {};
      d.doc.subsystems[defName] = def;
      for (const n of names) { delete d.doc.components[n]; delete layout.components[n]; }
      d.doc.components[inst] = { type: defName };
      const prefix = this.level ? this.level + "/" : "";
      for (const n of names) this.renameRecorded(prefix + n, prefix + inst + "/" + n);
      layout.components[inst] = { x: snap(cx), y: snap(cy) };
      d.doc.connections.length = 0;
      d.doc.connections.push(...keep);
      // The level of the new instance, until the server's schematic replaces it.
      const key = this.level ? this.level + "/" + inst : inst;
      const innerComps: Record<string, ComponentInfo> = {};
      for (const n of names) innerComps[n] = lvBefore.components[n];
      this.schematic!.levels[key] = { components: innerComps, connections: def.connections, layout: def.layout, definition: defName, editable: true };
      const ports: PortInfo[] = Object.entries<string>(def.ports).map(([p, inner]) => {
        const [ic, ip] = inner.split(".");
        const info = innerComps[ic] && innerComps[ic].ports.find(q => q.name === ip);
        return { name: p, domain: info ? info.domain : "signal", side: info ? info.side : "response", optional: false };
      });
      lvBefore.components[inst] = { type: defName, library: "subsystem", summary: "subsystem of " + names.length + " components", subsystem: key, ports };
    }, true);
    this.select([inst]);
    this.message("Made subsystem " + defName + " (instance " + inst + "); double-click it to open.", "ok");
  }

  // ------------------------------------------------------------ layout
  async autoLayout() {
    const d = this.doc();
    if (!d || !this.view) return;
    try {
      const res = await this.view.layoutLevel(this.level);
      this.edit(() => {
        const layout = ensureLayout(d.doc);
        for (const [n, p] of Object.entries(res.components)) {
          const old = layout.components[n] || {};
          const keep: Record<string, unknown> = {};
          for (const k of Object.keys(old)) if (!["x", "y", "rotation", "flip"].includes(k)) keep[k] = old[k];
          layout.components[n] = { ...keep, x: p.x, y: p.y };
        }
        layout.wires = res.wires.filter(w => w.points && w.points.length).map(w => ({ from: w.from, to: w.to, points: w.points }));
      });
      this.view.fit();
    } catch (e) {
      this.message("Auto layout failed: " + (e as Error).message, "error");
    }
  }

  // ------------------------------------------------------------ check
  scheduleCheck(delay = 350) {
    clearTimeout(this.checkTimer);
    this.checkTimer = window.setTimeout(() => void this.check(this.text(), true), delay);
  }

  checkSeq = 0;
  async check(text: string, show = false): Promise<{ diagnostics: Diagnostic[] } | null> {
    if (!this.path) return null;
    const seq = ++this.checkSeq;
    const structural = this.structural;
    try {
      const res = await api("POST", "/api/check", { path: this.path, text });
      if (text !== this.text()) return res;  // stale: a newer check follows
      this.diagnostics = res.diagnostics || [];
      if (show || seq === this.checkSeq) this.showDiagnostics();
      if (structural) { this.structural = false; void this.refreshSchematic(text); }
      return res;
    } catch (e) {
      if (show) this.message("check: " + (e as Error).message, "error");
      return null;
    }
  }

  async refreshSchematic(text: string) {
    try {
      const res = await api("POST", "/api/schematic", { path: this.path, text });
      if (text !== this.text() || !res || !res.schematic) return;
      const s: Schematic = res.schematic;
      s.netlist = this.netlist;
      this.schematic = s;
      for (const key of Object.keys(s.levels)) this.linkLevel(key);
      this.rememberPorts();
      this.view!.schematic = s;
      const level = s.levels[this.level] ? this.level : "";
      if (level !== this.level) this.view!.open(level);
      else this.view!.refresh();
      this.view!.setSelection(this.selected.filter(n => this.lv().components[n]));
      this.showDiagnostics();
    } catch {
      // The text may not load (an unknown type): keep the mirror built here.
    }
  }

  // The diagnostics as a list (each leads to what it names), the marks on the level's
  // components, and the panel.
  showDiagnostics() {
    const ul = $("diagnostics");
    ul.textContent = "";
    const errorsHere: Record<string, string> = {}, warningsHere: Record<string, string> = {}, wiresHere: Record<number, string> = {};
    const add = (to: Record<string | number, string>, key: string | number, message: string) => { to[key] = to[key] !== undefined ? to[key] + "\n" + message : message; };
    const here = this.doc();
    const herePointer = here ? here.pointer : null;
    for (const dg of this.diagnostics) {
      const li = html("li", { class: dg.severity, "data-path": dg.path || "", "data-component": dg.component || "" }, ul);
      html("span", { class: "sev" }, li, dg.severity);
      html("span", { class: "where" }, li, (dg.path || "") + (dg.component ? " (" + dg.component + ")" : ""));
      html("span", { class: "what" }, li, dg.message);
      li.title = dg.text || dg.message;
      li.onclick = () => this.goTo(dg);
      const p = parsePath(dg.path || "");
      const comp = p.pointer === herePointer ? p.component : undefined;
      const name = comp || (p.pointer === herePointer && dg.component && this.lv().components[dg.component] ? dg.component : undefined);
      if (name && this.lv().components[name]) {
        if (dg.severity === "error") add(errorsHere, name, dg.message);
        else if (dg.severity === "warning") add(warningsHere, name, dg.message);
      } else if (p.pointer === herePointer && p.connection !== undefined && dg.severity === "error") {
        add(wiresHere, p.connection, dg.message);
      }
    }
    if (!this.diagnostics.length) html("li", { class: "ok" }, ul, "No problem found.");
    if (this.view) this.view.setErrors(errorsHere, warningsHere, wiresHere);
    this.renderParams();
  }

  goTo(dg: Diagnostic) {
    const p = parsePath(dg.path || "");
    const level = levelOfPointer(this.schematic!, this.netlist, p.pointer);
    const go = () => {
      if (p.connection !== undefined) { this.select([], [p.connection]); return; }
      const name = p.component || dg.component;
      if (name && this.lv().components[name]) { this.select([name]); this.view!.flash(name); }
    };
    this.showTab("schematic");
    if (level !== null && level !== this.level) { this.view!.open(level); setTimeout(go, 50); } else go();
  }

  // ------------------------------------------------------------ selection and panel
  select(names: string[], wires: number[] = [], note: number | null = null) {
    this.selected = names;
    this.selectedWires = wires;
    this.selectedNote = note;
    if (this.view) { this.view.setSelection(names, wires); this.view.setNoteSelection(note); }
    this.renderParams();
  }
  selectedNote: number | null = null;  // a note of the level's layout, by index

  notes(): { x: number; y: number; text: string }[] {
    const layout = ensureLayout(this.doc()!.doc);
    if (!Array.isArray(layout.notes)) layout.notes = [];
    return layout.notes;
  }

  // A note at the middle of the view, selected for its text to be typed in the panel.
  addNote() {
    if (!this.doc() || !this.view) return;
    const r = this.view.svg.getBoundingClientRect();
    const at = this.view.toCanvas(r.left + r.width / 2, r.top + r.height / 2);
    let k = -1;
    if (this.edit(() => { k = this.notes().push({ x: snap(at[0]), y: snap(at[1]), text: "note" }) - 1; }, false, [])) this.select([], [], k);
  }

  renderParams() {
    const root = $("params");
    const layoutNotes = this.selectedNote !== null && this.doc() ? (this.doc()!.doc.layout || {}).notes : null;
    const note = Array.isArray(layoutNotes) ? layoutNotes[this.selectedNote!] : undefined;
    if (note) {
      // A note: its text (Delete removes it; drag it to move it).
      root.textContent = "";
      const head = html("div", { class: "panel-head" }, root);
      html("div", { class: "panel-title" }, head, "Note");
      html("div", { class: "muted" }, head, "text on the schematic, saved in the layout; drag it to move it, Delete removes it");
      const area = html("textarea", { "data-note-text": String(this.selectedNote), rows: 3, spellcheck: "true" }, root) as HTMLTextAreaElement;
      area.value = String(note.text);
      area.disabled = !this.editable();
      area.onchange = () => { const k = this.selectedNote!; this.edit(() => { this.notes()[k].text = area.value; }, false, []); };
      return;
    }
    if (this.selected.length !== 1 || !this.schematic) {
      if (this.netlist && this.selected.length === 0) {
        renderSimulation(root, this.netlist, this.editable(), SOLVER_METHODS, this.simulationEvents(),
                         this.selectedWires.length ? "A wire: Delete removes it." : undefined);
        return;
      }
      renderPanel(root, null, this.panelEvents(), this.selected.length + " components selected.");
      return;
    }
    const name = this.selected[0];
    const info = this.lv().components[name];
    const d = this.doc() || levelDoc(this.netlist, this.level);
    const inst = d && d.doc.components ? d.doc.components[name] : null;
    if (!info) { renderPanel(root, null, this.panelEvents()); return; }
    const t = this.types.get(info.type);
    let params: ParamSpec[] = t ? t.parameters : [];
    let states = t && t.states ? t.states : [];
    let summary = info.summary || (t && t.summary) || "";
    if (info.subsystem) {
      const def = this.findDefinition(info.type);
      params = def && def.parameters ? Object.entries<any>(def.parameters).map(([k, v]) => ({ name: k, unit: v.unit, default: v.default, description: v.description })) : [];
      states = [];
      summary = (def && def.description) || summary;
    }
    const here = d ? d.pointer + "/components/" + name : null;
    const messages = this.diagnostics.filter(x => (here && x.path && (x.path === here || x.path.startsWith(here + "/"))))
      .map(x => ({ text: x.message, path: x.path, severity: x.severity }));
    renderPanel(root, {
      name, type: info.type, summary, editable: this.editable(), params, states,
      values: (inst && inst.params) || {}, initial: (inst && inst.initial) || {}, messages, subsystem: info.subsystem,
    }, this.panelEvents());
  }

  findDefinition(type: string): any {
    for (let key = this.level; ; key = key.includes("/") ? key.slice(0, key.lastIndexOf("/")) : "") {
      const d = levelDoc(this.netlist, key);
      if (d && d.doc.subsystems && typeof d.doc.subsystems[type] === "object") return d.doc.subsystems[type];
      if (!key) return null;
    }
  }

  // The netlist's "solver" and "record" (the panel shown while nothing is selected).
  simulationEvents() {
    return {
      setSolver: (key: string, value: unknown) => {
        this.edit(() => {
          const had = this.netlist.solver && typeof this.netlist.solver === "object";
          if (value === undefined) {
            if (!had || !(key in this.netlist.solver)) return false;
            delete this.netlist.solver[key];
            return;
          }
          if (!had) this.netlist.solver = {};
          this.netlist.solver[key] = value;
        }, false, []);
      },
      setRecord: (names: string[] | undefined) => {
        this.edit(() => {
          if (names === undefined) { if (!("record" in this.netlist)) return false; delete this.netlist.record; return; }
          this.netlist.record = names;
        }, false, []);
      },
    };
  }

  panelEvents() {
    return {
      setParam: (key: string, value: unknown, configuration: boolean) => this.setParam(this.selected[0], key, value, configuration, "params"),
      setInitial: (key: string, value: unknown) => this.setParam(this.selected[0], key, value, false, "initial"),
      rename: (to: string) => this.rename(this.selected[0], to),
      open: () => { if (this.view) this.view.openChild(this.selected[0]); },
    };
  }

  // ------------------------------------------------------------ canvas gestures
  attachCanvas() {
    const view = this.view!;
    const s = view.svg;
    type Drag =
      | { kind: "move"; id: number; x0: number; y0: number; names: string[]; start: Record<string, [number, number]>; wires: Map<any, [number, number][]>; before: string; moved: boolean }
      | { kind: "wire"; id: number; from: string; path: SVGPathElement; start: [number, number] }
      | { kind: "band"; id: number; x0: number; y0: number; rect: SVGRectElement; add: boolean }
      | { kind: "segment"; id: number; index: number; route: [number, number][]; segment: number; before: string; moved: boolean }
      | { kind: "note"; id: number; index: number; x0: number; y0: number; start: [number, number]; before: string; moved: boolean };
    let drag: Drag | null = null;
    s.addEventListener("pointerdown", ev => {
      if (ev.button !== 0 || s.classList.contains("panning")) return;
      if ((ev.target as Element).closest(".open-button")) return;
      const hit = view.hitOf(ev.target as Element);
      const at = view.toCanvas(ev.clientX, ev.clientY);
      s.focus({ preventScroll: true });
      if (hit.kind === "port" && this.editable()) {
        const start = view.portPosition(hit.component, hit.port) || at;
        const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
        path.setAttribute("class", "drawing-wire");
        view.overlay.appendChild(path);
        drag = { kind: "wire", id: ev.pointerId, from: hit.component + "." + hit.port, path, start };
      } else if (hit.kind === "component" || hit.kind === "port") {
        const name = hit.component;
        let names = this.selected;
        if (ev.shiftKey || ev.ctrlKey || ev.metaKey) names = names.includes(name) ? names.filter(n => n !== name) : [...names, name];
        else if (!names.includes(name)) names = [name];
        this.select(names);
        if (!this.editable()) return;
        const start: Record<string, [number, number]> = {};
        for (const n of names) { const p = view.placementOf(n); if (p) start[n] = [p.x, p.y]; }
        drag = { kind: "move", id: ev.pointerId, x0: at[0], y0: at[1], names, start, wires: new Map(), before: this.text(), moved: false };
      } else if (hit.kind === "note") {
        this.select([], [], hit.index);
        const notes = this.editable() ? (this.doc()!.doc.layout || {}).notes : undefined;
        const note = Array.isArray(notes) ? notes[hit.index] : undefined;
        if (!note) return;
        drag = { kind: "note", id: ev.pointerId, index: hit.index, x0: at[0], y0: at[1], start: [Number(note.x), Number(note.y)], before: this.text(), moved: false };
      } else if (hit.kind === "wire") {
        this.select([], [hit.index]);
        const route = this.editable() ? view.routeOf(hit.index) : null;
        if (!route || route.length < 2) return;
        drag = { kind: "segment", id: ev.pointerId, index: hit.index, route, segment: nearestSegment(route, at), before: this.text(), moved: false };
      } else {
        const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
        rect.setAttribute("class", "rubber");
        view.overlay.appendChild(rect);
        drag = { kind: "band", id: ev.pointerId, x0: at[0], y0: at[1], rect, add: ev.shiftKey };
      }
      s.setPointerCapture(ev.pointerId);
      ev.preventDefault();
    });
    s.addEventListener("pointermove", ev => {
      if (!drag || ev.pointerId !== drag.id) return;
      const at = view.toCanvas(ev.clientX, ev.clientY);
      if (drag.kind === "move") {
        const dx = at[0] - drag.x0, dy = at[1] - drag.y0;
        if (!drag.moved) {
          if (Math.abs(dx) + Math.abs(dy) < 3) return;
          drag.moved = true;
          // Positions of everything first (those ELK placed), then the start points again.
          const d = this.doc()!;
          this.materialize(d.doc);
          const layout = ensureLayout(d.doc);
          for (const n of drag.names) if (layout.components[n]) drag.start[n] = [layout.components[n].x, layout.components[n].y];
          const moving = new Set(drag.names), wires = drag.wires;
          const end = (e: unknown) => moving.has(String(e).split(".")[0]);
          if (Array.isArray(layout.wires)) {
            layout.wires = layout.wires.filter((w: any) => {
              if (end(w.from) && end(w.to)) { wires.set(w, (w.points || []).map((q: number[]) => [q[0], q[1]] as [number, number])); return true; }
              return !end(w.from) && !end(w.to);
            });
          }
        }
        const t0 = performance.now();
        this.moveBy(drag.names, dx, dy, drag.start, drag.wires);
        document.body.dataset.moveMs = String(Math.round((performance.now() - t0) * 10) / 10);
      } else if (drag.kind === "note") {
        const dx = at[0] - drag.x0, dy = at[1] - drag.y0;
        if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 3) return;
        drag.moved = true;
        const note = this.notes()[drag.index];
        note.x = snap(drag.start[0] + dx); note.y = snap(drag.start[1] + dy);
        view.refresh();  // (drawn again, the note keeps its selected mark)
      } else if (drag.kind === "segment") {
        if (!drag.moved) {
          const p = drag.route[drag.segment], q = drag.route[drag.segment + 1];
          const along = Math.abs(p[0] - q[0]) >= Math.abs(p[1] - q[1]);
          const target = view.toCanvas(ev.clientX, ev.clientY);
          if (Math.abs(along ? target[1] - p[1] : target[0] - p[0]) < 3) return;
          drag.moved = true;
          this.materialize(this.doc()!.doc);  // the ends where they are drawn, before the route is written
        }
        this.moveSegment(drag.index, drag.route, drag.segment, at);
      } else if (drag.kind === "wire") {
        const a = drag.start;
        const mx = (a[0] + at[0]) / 2;
        drag.path.setAttribute("d", `M${a[0]} ${a[1]} L${mx} ${a[1]} L${mx} ${at[1]} L${at[0]} ${at[1]}`);
        s.querySelectorAll(".port.target").forEach(e => e.classList.remove("target"));
        const hit = view.hitTest(ev.clientX, ev.clientY);
        if (hit.kind === "port") {
          const g = view.componentElement(hit.component);
          const c = g && g.querySelector(`circle.port[data-port="${CSS.escape(hit.port)}"]`);
          if (c) c.classList.add("target");
        }
      } else {
        const x = Math.min(drag.x0, at[0]), y = Math.min(drag.y0, at[1]);
        drag.rect.setAttribute("x", String(x)); drag.rect.setAttribute("y", String(y));
        drag.rect.setAttribute("width", String(Math.abs(at[0] - drag.x0))); drag.rect.setAttribute("height", String(Math.abs(at[1] - drag.y0)));
      }
    });
    const finish = (ev: PointerEvent) => {
      if (!drag || ev.pointerId !== drag.id) return;
      const d0 = drag;
      drag = null;
      const at = view.toCanvas(ev.clientX, ev.clientY);
      if (d0.kind === "move" || d0.kind === "segment" || d0.kind === "note") {
        const after = d0.moved ? this.text() : d0.before;
        if (after !== d0.before) {
          this.undoStack.push(d0.before);
          this.redoStack = [];
          this.afterEdit(false, [], after);
        }
      } else if (d0.kind === "wire") {
        d0.path.remove();
        s.querySelectorAll(".port.target").forEach(e => e.classList.remove("target"));
        const hit = view.hitTest(ev.clientX, ev.clientY);
        if (hit.kind === "port") this.connect(d0.from, hit.component + "." + hit.port);
      } else {
        d0.rect.remove();
        if (Math.abs(at[0] - d0.x0) + Math.abs(at[1] - d0.y0) < 3) { if (!d0.add) this.select([]); return; }
        const inside = view.componentsIn(d0.x0, d0.y0, at[0], at[1]);
        this.select(d0.add ? [...new Set([...this.selected, ...inside])] : inside);
      }
    };
    s.addEventListener("pointerup", finish);
    s.addEventListener("pointercancel", finish);
  }

  onKey(ev: KeyboardEvent) {
    const target = ev.target as HTMLElement;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) {
      if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "s") { ev.preventDefault(); void this.save(); }
      return;
    }
    const ctrl = ev.ctrlKey || ev.metaKey, key = ev.key.toLowerCase();
    if (ctrl && key === "z" && !ev.shiftKey) { ev.preventDefault(); this.undo(); }
    else if (ctrl && (key === "y" || (key === "z" && ev.shiftKey))) { ev.preventDefault(); this.redo(); }
    else if (ctrl && key === "c") { ev.preventDefault(); this.copy(); }
    else if (ctrl && key === "v") { ev.preventDefault(); this.paste(); }
    else if (ctrl && key === "s") { ev.preventDefault(); void this.save(); }
    else if (ctrl && key === "a") { ev.preventDefault(); this.select(Object.keys(this.lv().components)); }
    else if (ctrl) return;
    else if (key === "delete" || key === "backspace") { ev.preventDefault(); this.deleteSelection(); }
    else if (key === "r") this.rotate();
    else if (key === "f") this.flip();
    else if (key === "escape") this.select([]);
  }

  // ------------------------------------------------------------ save and run
  async save(): Promise<boolean> {
    if (!this.path) return false;
    const text = this.text();
    try {
      const r = await api("POST", "/api/save", { path: this.path, text, base: this.base });
      this.base = r.text;
      this.savedText = text;
      this.dirty = this.text() !== this.savedText;
      this.message(r.written ? "Saved " + this.path : "Saved: " + this.path + " unchanged", "ok");
      const picker = $("file") as HTMLSelectElement;
      if (![...picker.options].some(o => o.value === this.path)) html("option", { value: this.path }, picker, this.path);
      picker.value = this.path;
      return true;
    } catch (e) {
      const err = e as ApiError;
      this.message((err.status === 409 ? "Not saved: the file changed on disk. " : "Not saved: ") + err.message, "error");
      return false;
    }
  }

  pollTimer = 0;
  async startRun(analysis: "run" | "linearize" | "sweep") {
    if (this.run && this.run.state === "running") { this.message("A run is going on.", "error"); return; }
    const request: Record<string, unknown> = { analysis };
    if (analysis === "sweep") {
      const list = (id: string) => ($(id) as HTMLInputElement).value.split(";").map(x => x.trim()).filter(Boolean);
      request.params = list("sweep-params");
      request.outputs = list("sweep-outputs");
      request.zip = ($("sweep-zip") as HTMLInputElement).checked;
      if (!(request.params as string[]).length) { this.message("Sweep: name a parameter and its values, e.g. spring.stiffness=100:400:4", "error"); return; }
    }
    if (!(await this.save())) return;
    try {
      const r = await api("POST", "/api/run", { path: this.path, ...request });
      this.run = { id: r.id, analysis, state: "running", progress: 0 };
      const progress = $("progress") as HTMLProgressElement;
      progress.hidden = false; progress.value = 0;
      ($("cancel") as HTMLButtonElement).disabled = false;
      ($("run") as HTMLButtonElement).disabled = true;
      this.message({ run: "Running ", linearize: "Linearizing ", sweep: "Sweeping " }[analysis] + this.path + "…", "info");
      this.poll();
    } catch (e) {
      this.message("Run refused: " + (e as Error).message, "error");
    }
  }
  poll() {
    clearTimeout(this.pollTimer);
    this.pollTimer = window.setTimeout(async () => {
      if (!this.run) return;
      try {
        const r: Run = await api("GET", "/api/runs/" + encodeURIComponent(this.run.id));
        this.run = r;
        const progress = $("progress") as HTMLProgressElement;
        progress.value = Math.max(0, Math.min(1, r.progress || 0));
        // A sweep counts its runs done where a run counts its time.
        $("run-state").textContent = r.state + (r.analysis === "sweep" ? (r.t_end ? " · " + r.t + " / " + r.t_end + " runs" : "") :
          r.t !== undefined && r.t !== null ? " · t = " + Number(r.t).toPrecision(4) + (r.t_end ? " / " + r.t_end : "") + " s" : "");
        if (r.state === "running") { this.poll(); return; }
        this.runEnded(r);
      } catch (e) {
        this.message("Lost the run: " + (e as Error).message, "error");
        this.runEnded(null);
      }
    }, 200);
  }
  runEnded(r: Run | null) {
    ($("cancel") as HTMLButtonElement).disabled = true;
    ($("run") as HTMLButtonElement).disabled = false;
    ($("progress") as HTMLProgressElement).hidden = !r || r.state !== "finished";
    if (!r) return;
    if (r.report) {
      const frame = $("report") as HTMLIFrameElement;
      frame.src = fileUrl(r.report);
      $("no-report").hidden = true;
      this.showTab("results");
    }
    if (r.state === "finished") this.message("Run finished" + (r.report ? ": " + r.report : ""), "ok");
    else this.message("Run " + r.state + (r.exit_code !== undefined && r.exit_code !== null ? " (exit code " + r.exit_code + ")" : "") +
                      (r.log ? ":\n" + r.log.trim().split("\n").slice(-6).join("\n") : ""), r.state === "cancelled" ? "info" : "error");
  }
  async cancelRun() {
    if (!this.run) return;
    try { await api("POST", "/api/runs/" + encodeURIComponent(this.run.id) + "/cancel"); }
    catch (e) { this.message("Cancel: " + (e as Error).message, "error"); }
  }
}

function boot() {
  R.setElkSource("/assets/elk.js?token=" + encodeURIComponent(TOKEN));  // served apart: loaded when a level needs it
  const studio = new Studio();
  (window as any).studio = studio;  // for the browser tests and the console
  void studio.start();
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot); else boot();
