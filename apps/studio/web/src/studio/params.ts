// The parameter panel (#params) of the selected component: generated from its type's
// describe JSON (or a subsystem definition's "parameters"), each value as the netlist
// writes it, with a unit picker for numbers.
import { html } from "../schematic/svg";
import { joinValue, splitValue, unitChoices } from "./units";

export interface ParamSpec {
  name: string;
  description?: string;
  unit?: string;
  default?: unknown;
  range?: string;
  role?: string;
  kind?: string;
  choices?: string[];
  required?: boolean;
}

export interface PanelInput {
  name: string;
  type: string;
  summary?: string;
  editable: boolean;
  params: ParamSpec[];
  states: { name: string; unit?: string; description?: string }[];
  values: Record<string, unknown>;    // the instance's params
  initial: Record<string, unknown>;   // its initial values
  messages: { text: string; path?: string; severity: string }[];  // its diagnostics
  subsystem?: string | null;
}

export interface PanelEvents {
  setParam(name: string, value: unknown, configuration: boolean): void;
  setInitial(name: string, value: unknown): void;
  rename(to: string): void;
  open?(): void;
}

const show = (v: unknown) => (v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v));
const isStructured = (p: ParamSpec) => p.kind === "table" || p.kind === "list of reals" || p.kind === "named vectors";

export function renderPanel(root: HTMLElement, input: PanelInput | null, events: PanelEvents, note?: string) {
  root.textContent = "";
  if (!input) {
    html("p", { class: "muted panel-empty" }, root, note || "Select a component to see its parameters.");
    return;
  }
  const head = html("div", { class: "panel-head" }, root);
  const nameInput = html("input", { class: "panel-name", value: input.name, "data-name-input": "1", spellcheck: "false",
                                    title: "the instance name (Enter renames it)" }, head) as HTMLInputElement;
  if (!input.editable) nameInput.readOnly = true;
  nameInput.onchange = () => { if (nameInput.value.trim() && nameInput.value.trim() !== input.name) events.rename(nameInput.value.trim()); };
  html("div", { class: "panel-type" }, head, input.type);
  if (input.summary) html("div", { class: "panel-summary" }, head, input.summary);
  if (input.subsystem && events.open) {
    const b = html("button", { type: "button", class: "small", id: "open-subsystem" }, head, "Open subsystem");
    b.onclick = () => events.open!();
  }
  const general = input.messages.filter(m => !m.path || !/\/(params|initial)\//.test(m.path));
  for (const m of general) html("div", { class: "panel-msg " + m.severity }, root, m.text);

  const form = html("div", { class: "panel-form" }, root);
  const messageFor = (kind: "params" | "initial", name: string) =>
    input.messages.filter(m => m.path && new RegExp("/" + kind + "/" + name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "(/|$)").test(m.path));

  const row = (label: string, p: ParamSpec | null, value: unknown, kind: "params" | "initial") => {
    const r = html("div", { class: "param" + (p && p.role === "configuration" ? " configuration" : "") }, form);
    const top = html("div", { class: "param-top" }, r);
    const lab = html("label", {}, top, label);
    if (p && p.required) html("span", { class: "req", title: "required" }, lab, "*");
    const attr = kind === "params" ? "data-param" : "data-initial";
    let field: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    let unitSelect: HTMLSelectElement | null = null;
    const si = p && p.unit ? p.unit : undefined;
    const commit = (v: unknown) => {
      if (kind === "params") events.setParam(label, v, !!p && p.role === "configuration");
      else events.setInitial(label, v);
    };
    if (p && (p.choices || p.kind === "boolean")) {
      const sel = html("select", { [attr]: label }, top) as HTMLSelectElement;
      const opts = p.choices ? p.choices : ["true", "false"];
      html("option", { value: "" }, sel, "default (" + show(p.default) + ")");
      for (const o of opts) html("option", { value: o }, sel, o);
      sel.value = value === undefined ? "" : String(value);
      if (sel.value !== (value === undefined ? "" : String(value))) {
        // A value the list lacks ("$param"): offered as it is.
        html("option", { value: String(value) }, sel, String(value));
        sel.value = String(value);
      }
      sel.onchange = () => commit(sel.value === "" ? undefined : p.kind === "boolean" && (sel.value === "true" || sel.value === "false") ? sel.value === "true" : sel.value);
      field = sel;
    } else if (p && isStructured(p)) {
      const ta = html("textarea", { [attr]: label, rows: 2, spellcheck: "false", placeholder: show(p.default) }, r) as HTMLTextAreaElement;
      ta.value = show(value);
      ta.onchange = () => {
        const t = ta.value.trim();
        if (!t) return commit(undefined);
        try { commit(JSON.parse(t)); } catch { commit(t); }
      };
      field = ta;
    } else {
      const parts = splitValue(value, si);
      const inp = html("input", { [attr]: label, spellcheck: "false", value: parts.text,
                                  placeholder: p && p.default !== undefined ? show(p.default) : "" }, top) as HTMLInputElement;
      const choices = unitChoices(si);
      if (choices.length) {
        unitSelect = html("select", { class: "unit", ["data-unit-for" + (kind === "initial" ? "-initial" : "")]: label,
                                       title: "unit (" + si + " is SI)" }, top) as HTMLSelectElement;
        for (const u of choices) html("option", { value: u }, unitSelect, u);
        unitSelect.value = parts.unit || si!;
        if (parts.unit === null && parts.text) unitSelect.disabled = /[$a-df-zA-DF-Z]/.test(parts.text);
      } else if (si) html("span", { class: "unit-fixed" }, top, si);
      const write = () => commit(joinValue(inp.value, unitSelect ? unitSelect.value : null, si));
      inp.onchange = write;
      if (unitSelect) unitSelect.onchange = write;
      field = inp;
    }
    if (!input.editable) { field.disabled = true; if (unitSelect) unitSelect.disabled = true; }
    const info: string[] = [];
    if (p && p.description) info.push(p.description);
    const meta: string[] = [];
    if (p && p.range) meta.push("range " + p.range);
    if (p && p.default !== undefined) meta.push("default " + show(p.default) + (p.unit && typeof p.default === "number" ? " " + p.unit : ""));
    if (p && p.role === "configuration") meta.push("configuration");
    if (info.length) html("div", { class: "param-desc" }, r, info.join(" "));
    if (meta.length) html("div", { class: "param-meta" }, r, meta.join(" · "));
    for (const m of messageFor(kind, label)) {
      html("div", { class: "panel-msg " + m.severity }, r, m.text);
      field.classList.add(m.severity === "error" ? "bad" : "warn");
    }
  };

  if (input.params.length) html("h3", {}, form, "Parameters");
  for (const p of input.params) row(p.name, p, input.values[p.name], "params");
  // Values the type does not list (a typo the check reports, a file subsystem's).
  for (const k of Object.keys(input.values)) if (!input.params.some(p => p.name === k)) row(k, null, input.values[k], "params");
  if (input.states.length) html("h3", {}, form, "Initial values");
  for (const s of input.states) row(s.name, { name: s.name, unit: s.unit, description: s.description }, input.initial[s.name], "initial");
  for (const k of Object.keys(input.initial)) if (!input.states.some(s => s.name === k)) row(k, null, input.initial[k], "initial");
}

// The netlist's run settings (#params while nothing is selected): the "solver" section's
// common keys and the "record" list. Each field writes the key as typed (a plain number
// as a number, "5 s" as text); emptied, the key goes. Keys the form lacks stay as they are.
export interface SimulationEvents {
  setSolver(key: string, value: unknown): void;
  setRecord(names: string[] | undefined): void;
}
export const SOLVER_KEYS: { key: string; description: string; placeholder: string }[] = [
  { key: "method", description: "the integration method (jourdain solvers lists them)", placeholder: "dopri5" },
  { key: "t_end", description: "end time, s", placeholder: "1" },
  { key: "rtol", description: "relative tolerance of the local error", placeholder: "1e-6" },
  { key: "atol", description: "absolute tolerance of the local error", placeholder: "1e-9" },
  { key: "output_interval", description: "time between recorded rows, s", placeholder: "every step" },
];

export function renderSimulation(root: HTMLElement, netlist: any, editable: boolean, methods: string[],
                                 events: SimulationEvents, note?: string) {
  root.textContent = "";
  if (note) html("p", { class: "muted panel-empty" }, root, note);
  const head = html("div", { class: "panel-head" }, root);
  html("div", { class: "panel-title" }, head, "Simulation");
  html("div", { class: "panel-summary" }, head, "the netlist's solver and recorded variables (select a component for its parameters)");
  const form = html("div", { class: "panel-form" }, root);
  const solver = (netlist && typeof netlist.solver === "object" && netlist.solver) || {};
  html("h3", {}, form, "Solver");
  for (const s of SOLVER_KEYS) {
    const r = html("div", { class: "param" }, form);
    const top = html("div", { class: "param-top" }, r);
    html("label", {}, top, s.key);
    const inp = html("input", { "data-solver": s.key, spellcheck: "false", value: show(solver[s.key]), placeholder: s.placeholder },
                     top) as HTMLInputElement;
    if (s.key === "method" && methods.length) {
      const list = html("datalist", { id: "solver-methods" }, r);
      for (const m of methods) html("option", { value: m }, list);
      inp.setAttribute("list", "solver-methods");
    }
    inp.disabled = !editable;
    inp.onchange = () => {
      const t = inp.value.trim();
      const plain = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(t);
      events.setSolver(s.key, t === "" ? undefined : plain && s.key !== "method" ? Number(t) : t);
    };
    html("div", { class: "param-desc" }, r, s.description);
  }
  html("h3", {}, form, "Record");
  const r = html("div", { class: "param" }, form);
  const record: unknown = netlist ? netlist.record : undefined;
  const ta = html("textarea", { "data-record": "1", rows: 4, spellcheck: "false", placeholder: "mass.x\nspring.force" }, r) as HTMLTextAreaElement;
  ta.value = Array.isArray(record) ? record.map(x => (typeof x === "string" ? x : JSON.stringify(x))).join("\n") : show(record);
  // A record entry written as an object ({"name": ..., ...}) is not a line: kept read only.
  ta.disabled = !editable || (Array.isArray(record) && record.some(x => typeof x !== "string"));
  ta.onchange = () => {
    const names = ta.value.split(/[\n,]/).map(x => x.trim()).filter(Boolean);
    events.setRecord(names.length ? names : undefined);
  };
  html("div", { class: "param-desc" }, r, "one variable a line (component.variable); empty: the default record (every state, observable and signal output)");
}
