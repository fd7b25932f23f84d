// Jourdain's report page: the script of report.html (apps/report/README.md), over the
// page toolkit's plot.js (apps/page/README.md). It reads the page's data (written by
// apps/report/src/report.cpp) and builds the header, the linear analysis, the animation,
// the plots and the tables with plain DOM and SVG.
"use strict";
const CURVE_COLORS = ["#2563eb", "#dc2626", "#16a34a", "#ea580c", "#7c3aed", "#0891b2"];
const BODY_COLORS = ["#3b82f6", "#f97316", "#10b981", "#a855f7", "#ef4444", "#14b8a6", "#eab308", "#ec4899"];
const QUANTITY = {
  "m": "Position", "m/s": "Velocity", "m/s^2": "Acceleration", "rad": "Angle", "rad/s": "Angular velocity",
  "rad/s^2": "Angular acceleration", "N": "Force", "N*m": "Torque", "J": "Energy", "W": "Power",
  "Pa": "Pressure", "m^3/s": "Flow rate", "m^3": "Volume", "kg": "Mass", "s": "Time", "K": "Temperature",
  "V": "Voltage", "A": "Current", "N/m": "Stiffness", "": "Dimensionless"
};

// ---------------------------------------------------------------- helpers
function fmtSeconds(s) {
  if (s === undefined || s === null) return "–";
  if (s < 1e-3) return fmt(s * 1e6, 3) + " µs";
  if (s < 1) return fmt(s * 1e3, 3) + " ms";
  return fmt(s, 4) + " s";
}
function unitLabel(u) {
  return u === "" ? "1" : u === "degC" ? "°C" : u === "deg" ? "°" : u.replace(/\^2/g, "²").replace(/\^3/g, "³").replace(/\*/g, "·");
}

const D = pageData();
// A linear analysis records at most the operating point's row, and its summary need not
// hold solver settings, statistics or events: every part below copes with their absence.
const S = D.summary || {}, SOLVER = S.solver || {}, EVENTS = S.events || [];
const LIN = D.linear || null;
const ROW_TIME = D.series.time;
const T0 = SOLVER.t_start !== undefined ? SOLVER.t_start : ROW_TIME.length ? ROW_TIME[0] : 0;
const T1 = SOLVER.t_end !== undefined ? SOLVER.t_end : ROW_TIME.length ? ROW_TIME[ROW_TIME.length - 1] : T0;
const ANALYSIS = S.analysis || (LIN ? "linear" : "dynamic"), INTEGRATED = ANALYSIS === "dynamic";
const timeMarkers = [];  // per plot: a function(t) that moves its marker to the animation's time

// ---------------------------------------------------------------- header
function buildHeader() {
  const head = document.getElementById("head");
  const title = el("div", {}, head);
  el("h1", {}, title, D.name || "run");
  if (S.status) el("span", { class: "badge " + S.status }, title, S.status);
  if (D.description) el("p", { class: "desc" }, head, D.description);
  const figures = el("div", { class: "figures" }, head);
  const figure = (key, value, tip) => {
    const f = el("div", { class: "fig" }, figures);
    if (tip) f.title = tip;
    el("div", { class: "k" }, f, key);
    el("div", { class: "v" }, f, value);
  };
  const st = S.statistics;
  figure("Analysis", ANALYSIS);
  // The integrator's figures only where one ran: a kinematic or static analysis solves
  // each output time on its own (no method, steps, right-hand sides or Jacobians).
  if (INTEGRATED) figure("Method", SOLVER.method);
  if (S.solver) figure("Time span", fmt(T0) + " – " + fmt(T1) + " s");
  if (S.failure) figure("Stopped at", fmt(S.failure.time, 6) + " s");
  if (st && INTEGRATED) {
    figure("Steps", fmtInt(st.steps));
    figure("Rejected", fmtInt(st.rejected_steps));
    figure("RHS evaluations", fmtInt(st.rhs_evaluations));
    figure("Jacobians", fmtInt(st.jacobian_evaluations));
  } else if (st && st.steps !== undefined) {
    figure("Solved points", fmtInt(st.steps + 1), "output times solved by the " + ANALYSIS + " analysis");
  }
  if (LIN) {
    figure("Stability", LIN.stability || "–");
    figure("States", fmtInt((LIN.states || []).length), "independent states (columns of A)");
    figure("Modes", fmtInt((LIN.modes || []).length), "one per real eigenvalue or complex-conjugate pair");
  }
  if (st) figure("Events", fmtInt(st.events));
  if (S.wall_time_s !== undefined) figure("Wall time", fmtSeconds(S.wall_time_s));
  figure("Rows", fmtInt(D.rows), D.thinned ? "plots show the smallest and largest value of each bucket of rows" : "");
  for (const name in S.monitors || {}) figure("max " + name.split(".").pop(), fmt(S.monitors[name].max_abs, 3), name);

  const main = document.getElementById("main");
  if (S.failure) {
    // (The message says when: "at t = … s: …", as on the command line.)
    el("div", { class: "alert failure" }, main,
       "Simulation failed " + S.failure.message + "\nThe results below run up to the failure.");
  }
  // Accuracy warnings first: the results below are not vouched for. Then the others.
  const accuracy = S.accuracy_warnings || [];
  if (accuracy.length)
    el("div", { class: "alert failure" }, main,
       "Not vouched for: " + (accuracy.length === 1 ? "the run ended with an accuracy warning" :
                              "the run ended with " + accuracy.length + " accuracy warnings") +
       (S.strict ? " (a strict run: it counts as failed)" : "") + ":\n" + accuracy.map(w => "• " + w).join("\n"));
  const notices = (S.warnings || []).filter(w => !accuracy.includes(w));
  if (notices.length)
    el("div", { class: "alert warning" }, main, "Warnings:\n" + notices.map(w => "• " + w).join("\n"));
  document.getElementById("foot").textContent =
    "Jourdain " + (S.jourdain_version || "") + " · netlist " + D.netlist + " · " + fmtInt(D.rows) + " rows in results.csv" +
    (D.thinned ? " (plots thinned: smallest and largest value of each bucket of rows)" : "");
}

// ---------------------------------------------------------------- plots
// A legend of curves (name, color, on): a click hides or shows one, then redraw().
function curveLegend(parent, curves, redraw) {
  const legend = el("div", { class: "legend" }, parent);
  for (const c of curves) {
    const item = el("span", { title: "click to hide or show" }, legend);
    el("i", { style: "background:" + c.color }, item);
    item.appendChild(document.createTextNode(c.name));
    item.onclick = () => { c.on = !c.on; item.classList.toggle("off", !c.on); redraw(); };
  }
  return legend;
}

// ---------------------------------------------------------------- plots
// Monitors (norms at round-off level jump by decades from row to row): the largest value
// in each of `bins` time bins, as steps. Replaces the curves' values; returns the times.
function envelope(time, curves, t0, t1, bins) {
  const top = curves.map(() => new Array(bins).fill(null)), used = new Array(bins).fill(false);
  for (let i = 0; i < time.length; ++i) {
    const b = Math.min(bins - 1, Math.max(0, Math.floor((time[i] - t0) / (t1 - t0 || 1) * bins)));
    used[b] = true;
    curves.forEach((c, k) => {
      const v = c.values[i];
      if (v !== null && isFinite(v) && (top[k][b] === null || v > top[k][b])) top[k][b] = v;
    });
  }
  const times = [], values = curves.map(() => []);
  for (let b = 0; b < bins; ++b) {
    if (!used[b]) continue;
    times.push(t0 + b / bins * (t1 - t0), t0 + (b + 1) / bins * (t1 - t0));
    curves.forEach((c, k) => values[k].push(top[k][b], top[k][b]));
  }
  curves.forEach((c, k) => { c.values = values[k]; });
  return times;
}

// The name of a plot's quantity for people: "volume_flow" -> "Volume flow".
function quantityTitle(spec) {
  if (spec.monitor) return "Monitors";
  if (spec.axis) return spec.axis.charAt(0).toUpperCase() + spec.axis.slice(1).replace(/_/g, " ");
  return QUANTITY[spec.unit] !== undefined ? QUANTITY[spec.unit] : "Variables";
}

// One plot: the curves of `spec.variables` against time, a legend that hides and shows
// them, a hover readout, the events along the top edge and the animation's time.
function buildPlot(parent, spec) {
  const card = el("div", { class: "plot" }, parent);
  // (The schematic finds a component's plots by their variables' names.)
  card.setAttribute("data-variables", spec.variables.map(v => D.variables[v].name).join(" "));
  const quantity = quantityTitle(spec);
  // The values arrive in SI; the axis shows them in the chosen unit (SI = scale × shown
  // + offset), the netlist's "display" unit at first.
  const choices = spec.units && spec.units.length ? spec.units : [{ name: spec.unit, scale: 1, offset: 0 }];
  let shown = choices.find(u => u.name === spec.display) || choices[0], unit = shown.name;
  const curves = spec.variables.map((v, k) => ({
    name: D.variables[v].name, si: D.series.values[v], color: CURVE_COLORS[k % CURVE_COLORS.length], on: true }));
  let time = D.series.time;
  const t0 = T0, t1 = Math.max(T1, time.length ? time[time.length - 1] : T1);
  const binned = spec.monitor && time.length > 400;
  if (binned) {
    curves.forEach(c => { c.values = c.si; });
    time = envelope(time, curves, t0, t1, 200);
    curves.forEach(c => { c.si = c.values; });
  }
  const convert = () => {
    curves.forEach(c => { c.values = c.si.map(v => (v === null || !isFinite(v) ? v : (v - shown.offset) / shown.scale)); });
  };
  convert();
  const heading = el("h3", {}, card);
  const headingText = el("span", {}, heading);
  const setHeading = () => {
    headingText.textContent = quantity +
      (spec.monitor ? (binned ? " (log scale, upper envelope)" : " (log scale)") : " [" + unitLabel(unit) + "]") +
      (spec.parts > 1 ? " · " + spec.part + " of " + spec.parts : "");
  };
  setHeading();
  if (!spec.monitor && choices.length > 1) {
    // The unit selector: the axis, the hover readout and the heading follow it.
    const select = el("select", { class: "unit-select", title: "unit of this plot (results.csv stays SI)" }, heading);
    for (const u of choices) el("option", u === shown ? { value: u.name, selected: "" } : { value: u.name }, select, unitLabel(u.name));
    select.onchange = () => {
      shown = choices.find(u => u.name === select.value) || choices[0];
      unit = shown.name;
      convert();
      setHeading();
      draw();
    };
  }
  curveLegend(card, curves, () => draw());
  const s = plotSurface(card, 640, 300, { L: 66, R: 24, T: 10, B: 40 });
  const now = sv("line", { class: "now", y1: s.y0, y2: s.y1, visibility: "hidden" }, s.svg);
  const px = t => s.x0 + (t - t0) / (t1 - t0 || 1) * (s.x1 - s.x0);
  let py = null;

  function draw() {
    s.area.textContent = "";
    let lo = Infinity, hi = -Infinity, smallest = Infinity;  // smallest positive value
    for (const c of curves) {
      if (!c.on) continue;
      for (const v of c.values) {
        if (v === null || !isFinite(v)) continue;
        lo = Math.min(lo, v); hi = Math.max(hi, v);
        if (v > 0) smallest = Math.min(smallest, v);
      }
    }
    if (lo === Infinity) { lo = 0; hi = 1; }
    const height = s.y1 - s.y0;
    let ticks;
    if (spec.monitor && isFinite(smallest)) {
      // Decades from the smallest positive value, at most 8 below the largest.
      const b = Math.max(Math.ceil(Math.log10(Math.max(hi, smallest))), Math.floor(Math.log10(smallest)) + 1);
      const a = Math.max(Math.floor(Math.log10(smallest)), b - 8), every = Math.ceil((b - a) / 6);
      py = v => s.y1 - (Math.log10(Math.max(v, Math.pow(10, a))) - a) / (b - a) * height;
      ticks = { list: [], label: v => "1e" + Math.round(Math.log10(v)) };
      for (let e = a; e <= b; e += every) ticks.list.push(Math.pow(10, e));
    } else {
      const pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.1 || 1, y0 = lo - pad, y1 = hi + pad;
      py = v => s.y1 - (v - y0) / (y1 - y0) * height;
      ticks = niceTicks(y0, y1, 6);
    }
    drawTicks(s, niceTicks(t0, t1, 8), px, ticks, py);
    axisTitles(s, "time [s]", spec.monitor ? "magnitude" : quantity.toLowerCase() + " [" + unitLabel(unit) + "]");
    for (const e of EVENTS.length <= 200 ? EVENTS : []) {
      const tick = sv("line", { class: "event", x1: px(e.time), x2: px(e.time), y1: s.y0, y2: s.y0 + 7 }, s.area);
      sv("title", {}, tick, "t = " + fmt(e.time, 6) + " s: " + e.component + ": " + e.description);
    }
    if (S.failure) {
      const x = px(S.failure.time);
      sv("line", { class: "failure-line", x1: x, x2: x, y1: s.y0, y2: s.y1 }, s.area);
      const right = x < (s.x0 + s.x1) / 2;  // the label on the side with room
      sv("text", { class: "failure-text", x: right ? x + 4 : x - 4, y: s.y0 + 12, "text-anchor": right ? "start" : "end" },
         s.area, "failure");
    }
    for (const c of curves)
      if (c.on) sv("path", { d: linePath(time, c.values, px, py), class: "curve", stroke: c.color }, s.area);
  }
  draw();

  // Hover: the values at the nearest recorded time.
  s.svg.addEventListener("mouseleave", () => hideHover(s));
  s.svg.addEventListener("mousemove", ev => {
    const x = pointer(s, ev)[0];
    if (x < s.x0 || x > s.x1 || !time.length) return hideHover(s);
    const i = nearest(time, t0 + (x - s.x0) / (s.x1 - s.x0) * (t1 - t0));
    const cx = px(time[i]);
    moveCursor(s, cx);
    const rows = [["t = " + fmt(time[i], 6) + " s"]];
    for (const c of curves) {
      if (!c.on) continue;
      const v = c.values[i];
      if (v !== null && isFinite(v)) sv("circle", { cx: cx, cy: py(v), r: 3, fill: c.color }, s.dots);
      rows.push([c.name + " = " + fmt(v, 6) + (unit ? " " + unitLabel(unit) : ""), c.color]);
    }
    showTip(s, ev, rows);
  });
  timeMarkers.push(t => {
    now.setAttribute("x1", px(t)); now.setAttribute("x2", px(t));
    now.setAttribute("visibility", t > t0 ? "visible" : "hidden");
  });
}

// The recorded variables against time; none for fewer than two rows (one row is a
// point: the final values' table shows it).
function buildPlots() {
  if (!D.plots.length || D.series.time.length < 2) return;
  const card = el("section", { class: "card", id: "plots" }, document.getElementById("main"));
  el("h2", {}, card, "Recorded variables");
  const grid = el("div", { class: "plots" }, card);
  for (const p of D.plots) buildPlot(grid, p);
}

// ---------------------------------------------------------------- schematic
// The netlist drawn by the schematic renderer (schematic.js, apps/studio/README.md) when
// the page has it: a click on a component shows its parameters and initial values, and
// marks the plots of its recorded variables.

// The JSON object of a level: the netlist for "", else each instance's inline
// definition along the path (null when one is read from a file).
function schematicDoc(netlist, key) {
  let doc = netlist, scopes = [];
  const enter = d => { if (d && d.subsystems && typeof d.subsystems === "object") scopes = [d.subsystems].concat(scopes); };
  enter(doc);
  if (!key) return doc;
  for (const part of key.split("/")) {
    const c = doc.components && doc.components[part];
    const defs = c && scopes.find(s => Object.prototype.hasOwnProperty.call(s, c.type));
    if (!defs || !defs[c.type] || typeof defs[c.type] !== "object") return null;
    doc = defs[c.type];
    enter(doc);
  }
  return doc;
}

function buildSchematic() {
  const SCH = D.schematic;
  if (!SCH || !SCH.levels || typeof JourdainSchematic === "undefined") return;
  const card = el("section", { class: "card", id: "schematic" }, document.getElementById("main"));
  el("h2", {}, card, "Schematic");
  const wrap = el("div", { class: "schematic-wrap" }, card);
  const box = el("div", { class: "schematic-box" }, wrap);
  const info = el("div", { class: "schematic-info", id: "schematic-info" }, wrap);
  const names = D.variables.map(v => v.name);
  const hint = () => {
    info.textContent = "";
    el("p", { class: "muted" }, info, "Click a component: its parameters, and the plots of its recorded variables" +
       " marked. Double-click a subsystem to open it; drag to pan, the wheel zooms.");
  };
  const valueText = v => (typeof v === "string" ? v : typeof v === "number" ? number(v) : JSON.stringify(v));
  function show(name, level) {
    document.querySelectorAll(".plot.linked").forEach(p => p.classList.remove("linked"));
    if (!name) { hint(); return; }
    const lv = SCH.levels[level] || { components: {} };
    const c = lv.components[name] || {};
    const doc = schematicDoc(SCH.netlist, level);
    const inst = doc && doc.components ? doc.components[name] || {} : {};
    const key = level ? level + "/" + name : name;
    info.textContent = "";
    el("h3", { class: "schematic-name" }, info, key);
    el("div", { class: "schematic-type" }, info, c.type || inst.type || "");
    if (c.summary) el("p", { class: "muted" }, info, c.summary);
    const params = inst.params || {};
    const rows = Object.keys(params).map(k => [k, valueText(params[k])]);
    // A subsystem instance: its definition's parameters, at their defaults where not given.
    if (c.subsystem) {
      const def = schematicDoc(SCH.netlist, c.subsystem);
      const declared = def && def.parameters ? def.parameters : {};
      for (const k in declared)
        if (!(k in params) && declared[k].default !== undefined)
          rows.push([k, valueText(declared[k].default) + (declared[k].unit ? " " + declared[k].unit : "") + " (default)"]);
    }
    if (rows.length) table(info, ["parameter", "value"], rows, [false, false]);
    else el("p", { class: "muted" }, info, "No parameters given: the type's defaults.");
    const initial = inst.initial || {};
    if (Object.keys(initial).length)
      table(info, ["initial", "value"], Object.keys(initial).map(k => [k, valueText(initial[k])]), [false, false]);
    // Its recorded variables (those of the parts, for a subsystem) and their plots.
    const mine = names.filter(n => n.startsWith(key + ".") || n.startsWith(key + "/"));
    const chips = el("div", { class: "schematic-vars" }, info);
    if (!mine.length) el("span", { class: "muted" }, chips, "None of its variables is recorded.");
    let first = null;
    document.querySelectorAll(".plot[data-variables]").forEach(p => {
      const vars = p.getAttribute("data-variables").split(" ");
      if (vars.some(v => mine.includes(v))) { p.classList.add("linked"); if (!first) first = p; }
    });
    for (const v of mine) {
      const chip = el("span", { class: "var-chip", title: "show its plot" }, chips, v);
      chip.onclick = () => {
        const plot = Array.from(document.querySelectorAll(".plot[data-variables]"))
          .find(p => p.getAttribute("data-variables").split(" ").includes(v));
        if (plot) plot.scrollIntoView({ behavior: "smooth", block: "center" });
      };
    }
  }
  hint();
  JourdainSchematic.mount(box, SCH, { onSelect: show, onLevel: () => show(null, "") });
}

// ---------------------------------------------------------------- animation
// The sketches (Component::sketch) in one SVG scene: shapes in their frames, placed at
// every frame by the poses, interpolated between frames while playing.

// The scene, an SVG with id `id` appended to `wrap`: `sketches` placed by `values` (per
// pose variable, n frames: a run's kept rows, or one cycle of a mode). The view holds
// every drawing over all the frames. Returns show(i, w) (frame i blended with frame
// i + 1 by w) and the layer of the frames' paths.
function buildScene(wrap, id, sketches, values, n) {

  // Pose (x, y, theta) of a framed sketch at row i, blended with row i + 1 by w.
  function pose(s, i, w) {
    const j = Math.min(i + 1, n - 1), at = name => values[name][i] * (1 - w) + values[name][j] * w;
    return [at(s.frame.x), at(s.frame.y), at(s.frame.theta)];
  }
  function place(p, q) {
    const c = Math.cos(q[2]), s = Math.sin(q[2]);
    return [q[0] + c * p[0] - s * p[1], q[1] + s * p[0] + c * p[1]];
  }
  // A link's end (its "from" or "to": the variables holding the point's world
  // coordinates) at row i, blended with row i + 1 by w.
  function linkEnd(end, i, w) {
    const j = Math.min(i + 1, n - 1), at = name => values[name][i] * (1 - w) + values[name][j] * w;
    return [at(end.x), at(end.y)];
  }
  function extremePoints(s) {
    const list = [].concat(s.polygon || [], s.polyline || [], Object.values(s.points || {}),
                           Object.values(s.anchors || {}), s.frame ? [[0, 0]] : []);
    for (const c of s.circles || []) list.push([c.center[0] - c.r, c.center[1] - c.r], [c.center[0] + c.r, c.center[1] + c.r]);
    return list;
  }

  // The view: every drawing over the whole motion, equal scales on both axes, in the
  // card's pixels (so that pins, lines and text keep their size), y up.
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  const grow = p => { x0 = Math.min(x0, p[0]); x1 = Math.max(x1, p[0]); y0 = Math.min(y0, p[1]); y1 = Math.max(y1, p[1]); };
  for (const s of sketches) {
    const list = extremePoints(s);
    if (!s.frame) list.forEach(grow);
    else for (let i = 0; i < n; ++i) { const q = pose(s, i, 0); list.forEach(p => grow(place(p, q))); }
    for (const link of s.links || [])
      for (let i = 0; i < n; ++i) { grow(linkEnd(link.from, i, 0)); grow(linkEnd(link.to, i, 0)); }
  }
  if (!isFinite(x0)) { x0 = y0 = -1; x1 = y1 = 1; }
  let bw = x1 - x0, bh = y1 - y0;
  if (bw <= 0 && bh <= 0) { bw = bh = 1; x0 -= 0.5; y0 -= 0.5; }
  const W = Math.round(Math.max(600, wrap.clientWidth || 960)), pad = 36, foot = 20;  // foot: the scale bar
  const H = Math.round(Math.min(480, Math.max(280, (W - 2 * pad) * (bh / (bw || bh)) + 2 * pad + foot)));
  const scale = Math.min(bw > 0 ? (W - 2 * pad) / bw : Infinity, bh > 0 ? (H - 2 * pad - foot) / bh : Infinity);
  const cx = W / 2 - scale * (x0 + x1) / 2, cy = (H - foot) / 2 + scale * (y0 + y1) / 2;
  const toPx = p => [cx + scale * p[0], cy - scale * p[1]];
  const pointList = list => list.map(p => toPx(p).map(v => v.toFixed(1)).join(",")).join(" ");

  const svg = sv("svg", { id: id, class: "scene", viewBox: "0 0 " + W + " " + H }, wrap);
  const defs = sv("defs", {}, svg);
  const hatch = sv("pattern", { id: id + "-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse",
                                patternTransform: "rotate(45)" }, defs);
  sv("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#6b7280", "stroke-width": 1.4 }, hatch);
  // A scale bar of a round length, lower left.
  const raw = 120 / scale, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const length = (raw / mag < 2 ? 1 : raw / mag < 5 ? 2 : 5) * mag;
  const bar = sv("g", { class: "scalebar" }, svg);
  sv("line", { x1: 16, x2: 16 + length * scale, y1: H - 14, y2: H - 14 }, bar);
  sv("text", { x: 16, y: H - 20 }, bar, fmt(length) + " m");

  const layer = {};
  for (const name of ["fixed", "trails", "bodies", "links", "pins", "names"]) layer[name] = sv("g", {}, svg);
  const updaters = [];
  let bodies = 0;
  for (const s of sketches) {
    const moving = !!s.frame;
    const color = moving ? BODY_COLORS[bodies++ % BODY_COLORS.length] : "#6b7280";
    const into = moving ? layer.bodies : layer.fixed;
    const parts = [];  // each: an element, its points in the sketch's frame, and how to set them
    if (s.polygon) parts.push({ e: sv("polygon", { class: "outline", fill: color, stroke: color }, into), at: s.polygon });
    if (s.polyline) parts.push({ e: sv("polyline", { class: "bar", stroke: color }, into), at: s.polyline });
    let nameOffset = 9;
    for (const c of s.circles || []) {
      const r = Math.max(4, c.r * scale);
      parts.push({ e: sv("circle", { class: "disc", r: r, fill: color }, into), at: [c.center], center: true });
      nameOffset = Math.max(nameOffset, r + 4);
    }
    for (const name in s.points || {}) {
      const pin = sv("circle", { class: "pin", r: 4.5 }, layer.pins);
      sv("title", {}, pin, s.component + "." + name);
      parts.push({ e: pin, at: [s.points[name]], center: true });
    }
    for (const name in s.anchors || {}) {  // a ground symbol under a pin
      const p = toPx(s.anchors[name]).map(v => v.toFixed(1));
      const g = sv("g", { class: "anchor", transform: "translate(" + p[0] + "," + p[1] + ")" }, layer.fixed);
      sv("rect", { x: -13, y: 12, width: 26, height: 7, fill: "url(#" + id + "-hatch)" }, g);
      sv("line", { x1: -13, x2: 13, y1: 12, y2: 12 }, g);
      sv("path", { d: "M0 0 L-8 12 L8 12 Z" }, g);
      sv("title", {}, sv("circle", { class: "pin", r: 4.5, cx: p[0], cy: p[1] }, layer.pins), s.component + "." + name);
    }
    const label = s.label ? sv("text", { class: "name", fill: moving ? color : "#374151" }, layer.names, s.label) : null;
    const set = q => {  // q: the frame's pose, or null for a world-fixed sketch
      for (const part of parts) {
        const world = q ? part.at.map(p => place(p, q)) : part.at;
        if (!part.center) { part.e.setAttribute("points", pointList(world)); continue; }
        const c = toPx(world[0]);
        part.e.setAttribute("cx", c[0].toFixed(1));
        part.e.setAttribute("cy", c[1].toFixed(1));
      }
      if (label) {
        const o = toPx(q ? q : [0, 0]);
        label.setAttribute("x", (o[0] + nameOffset).toFixed(1));
        label.setAttribute("y", (o[1] - nameOffset).toFixed(1));
      }
    };
    for (const link of s.links || []) updaters.push(drawLink(link, s.component, layer.links));
    if (!moving) { set(null); continue; }
    const trail = [];  // the frame origin's path over the whole run
    for (let i = 0; i < n; ++i) trail.push(pose(s, i, 0));
    sv("polyline", { class: "trail", stroke: color, points: pointList(trail) }, layer.trails);
    updaters.push((i, w) => set(pose(s, i, w)));
  }

  // A link (a force element between two points): its shape redrawn at every frame in
  // the scene's pixels, so that widths and zigzags keep their size whatever the scale.
  // Returns its updater (row i, weight w).
  function drawLink(link, component, into) {
    const g = sv("g", { class: "link " + link.kind, "data-link": link.kind }, into);
    sv("title", {}, g, component + " (" + link.kind + ")");
    const shapes = {};
    const shape = (tag, cls) => (shapes[cls] = shapes[cls] || sv(tag, { class: cls }, g));
    const pts = list => list.map(p => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" ");
    return (i, w) => {
      const a = toPx(linkEnd(link.from, i, w)), b = toPx(linkEnd(link.to, i, w));
      const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1e-9;
      const u = [dx / len, dy / len], nrm = [-u[1], u[0]];
      // The point at distance s along the line from a, offset o across it (pixels).
      const at = (s, o) => [a[0] + u[0] * s + nrm[0] * o, a[1] + u[1] * s + nrm[1] * o];
      const box = (s0, s1, half) => [at(s0, -half), at(s1, -half), at(s1, half), at(s0, half)];
      const spring = o => {  // leads of a fifth at both ends, eight teeth between
        const list = [at(0, o), at(0.2 * len, o)], teeth = 8, step = 0.6 * len / teeth;
        for (let k = 0; k < teeth; ++k) list.push(at(0.2 * len + (k + 0.5) * step, o + (k % 2 ? -6 : 6)));
        list.push(at(0.8 * len, o), at(len, o));
        return list;
      };
      const damper = o => {  // a cup from a, a piston from b inside it
        const cup0 = 0.35 * len, cup1 = 0.65 * len, head = 0.55 * len;
        shape("polyline", "damper-cup").setAttribute("points",
          pts([at(0, o), at(cup0, o), at(cup0, o - 7), at(cup1, o - 7), at(cup0, o - 7), at(cup0, o + 7), at(cup1, o + 7)]));
        shape("polyline", "damper-rod").setAttribute("points", pts([at(head, o - 5), at(head, o + 5), at(head, o), at(len, o)]));
      };
      if (link.kind === "cylinder") {
        // The barrel from a, `barrel` long (at most the whole length), the rod from inside
        // it to b.
        const barrel = Math.min(len, (link.barrel > 0 ? link.barrel * scale : 0.6 * len));
        shape("polyline", "rod").setAttribute("points", pts([at(0.5 * barrel, 0), at(len, 0)]));
        shape("polygon", "barrel").setAttribute("points", pts(box(0, barrel, 6)));
      } else if (link.kind === "spring") {
        shape("polyline", "spring").setAttribute("points", pts(spring(0)));
      } else if (link.kind === "damper") {
        damper(0);
      } else if (link.kind === "spring_damper") {
        shape("polyline", "spring").setAttribute("points", pts(spring(-9)));
        damper(9);
        shape("polyline", "ends").setAttribute("points", pts([at(0, -9), at(0, 9), at(0, 0), at(len, 0), at(len, -9), at(len, 9)]));
      } else {
        shape("polyline", "line").setAttribute("points", pts([a, b]));
      }
    };
  }

  return { show: (i, w) => { for (const u of updaters) u(i, w); }, trails: layer.trails };
}

// The run's animation: the kept rows' frames, with play, pause, a time slider and a speed.
function buildAnimation() {
  const A = D.animation;
  if (!A || !A.time.length) return;
  if (A.time.length < 2 && D.mode_animation) return;  // a still operating point beside its modes' animation
  const card = el("section", { class: "card", id: "animation" }, document.getElementById("main"));
  el("h2", {}, card, "Animation");
  const wrap = el("div", { class: "anim" }, card);
  const times = A.time, n = times.length, span = times[n - 1] - times[0];
  const scene = buildScene(wrap, "scene", A.sketches, A.values, n);

  // Controls: play/pause, time slider, readout, speed (slower ones for short runs), trails.
  const controls = el("div", { class: "controls" }, wrap);
  const play = el("button", { type: "button", id: "play" }, controls, "▶ Play");
  const slider = el("input", { type: "range", min: 0, max: 1000, step: 1, value: 0, id: "time-slider" }, controls);
  const readout = el("span", { class: "time" }, controls);
  el("label", { for: "speed" }, controls, "speed");
  const speed = el("select", { id: "speed" }, controls);
  const factors = [0.001, 0.01, 0.1, 0.25, 1, 4].filter(f => f >= 0.25 || span / f <= 120);
  const initial = span > 0 && span < 2 ? (factors.filter(f => span / f >= 3).pop() || factors[0]) : 1;
  for (const f of factors) el("option", f === initial ? { value: f, selected: "" } : { value: f }, speed, f + "×");
  const trailsLabel = el("label", {}, controls);
  const trails = el("input", { type: "checkbox", checked: "" }, trailsLabel);
  trailsLabel.appendChild(document.createTextNode(" paths"));
  trails.onchange = () => scene.trails.setAttribute("visibility", trails.checked ? "visible" : "hidden");

  const decimals = Math.max(3, Math.ceil(-Math.log10(span || 1)) + 3);
  let t = times[0], playing = false, last = null;
  function show(time) {
    t = Math.min(Math.max(time, times[0]), times[n - 1]);
    const i = search(times, t), j = Math.min(i + 1, n - 1), dt = times[j] - times[i];
    const w = dt > 0 ? (t - times[i]) / dt : 0;
    scene.show(i, w);
    slider.value = span > 0 ? Math.round((t - times[0]) / span * 1000) : 0;
    readout.textContent = "t = " + t.toFixed(decimals) + " s / " + fmt(times[n - 1]) + " s";
    for (const m of timeMarkers) m(t);
  }
  function frame(clock) {
    if (!playing) return;
    if (last !== null) t += (clock - last) / 1000 * Number(speed.value);
    last = clock;
    if (t >= times[n - 1]) { show(times[n - 1]); stop(); return; }
    show(t);
    requestAnimationFrame(frame);
  }
  function start() {
    if (t >= times[n - 1]) t = times[0];
    playing = true; last = null; play.textContent = "❚❚ Pause";
    requestAnimationFrame(frame);
  }
  function stop() { playing = false; play.textContent = "▶ Play"; }
  play.onclick = () => (playing ? stop() : start());
  slider.oninput = () => { stop(); show(times[0] + slider.value / 1000 * span); };
  document.addEventListener("keydown", ev => {
    if (ev.code === "Space" && ev.target === document.body) { ev.preventDefault(); playing ? stop() : start(); }
  });
  show(times[0]);
  return () => {  // after the plots exist: report.html#t=1.5 shows 1.5 s, #autoplay plays
    const at = /^#t=([-+0-9.eE]+)$/.exec(location.hash);
    if (at) show(Number(at[1]));
    if (location.hash === "#autoplay") start();
  };
}

// ---------------------------------------------------------------- linear analysis
// The model linearized at an operating point (D.linear, linear.json's object):
// x' = A x + B u, y = C x + D u in the independent states. Its stability, eigenvalues,
// modes, frequency responses, mode shapes and matrices.

// "stable", "marginal" or "unstable": the class that marks a stability statement.
function stabilityClass(text) {
  const t = String(text || "");
  return t.indexOf("unstable") >= 0 ? "unstable" : t.indexOf("marginal") >= 0 ? "marginal" : "stable";
}
// λ = re ± im j for people (± for a listed conjugate pair, whose im >= 0).
function fmtEigen(ev, pair) {
  const re = ev[0], im = ev[1];
  if (!im) return fmt(re, 4);
  return fmt(re, 4) + (pair ? " ± " : im < 0 ? " − " : " + ") + fmt(Math.abs(im), 4) + "j";
}
// The mode (index into LIN.modes) an eigenvalue belongs to, or -1.
function modeOf(ev) {
  const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  return (LIN.modes || []).findIndex(m => m.eigenvalue && close(m.eigenvalue[0], ev[0]) &&
                                          close(m.eigenvalue[1], Math.abs(ev[1])));
}
// A mode's stability: "stable", "marginal" (on the imaginary axis) or "unstable", as
// linear.json states it ("stability"), else from its "stable" flag.
function modeStability(m) {
  if (m.stability) return m.stability;
  return m.stable === false ? "unstable" : "stable";
}
// Whether an eigenvalue is an unstable one: its mode says so, else Re λ > 0.
function unstableEigen(ev) {
  const k = modeOf(ev);
  return k >= 0 ? modeStability(LIN.modes[k]) === "unstable" : ev[0] > 0;
}

// The eigenvalues on the complex plane (Re λ across, Im λ up), axes through zero, the
// unstable half-plane shaded, each eigenvalue a cross (red when unstable); hovering
// near one reads it out with its mode.
function buildEigenMap(parent) {
  const eig = (LIN.eigenvalues || []).filter(e => Array.isArray(e) && isFinite(e[0]) && isFinite(e[1]));
  const card = el("div", { class: "plot", id: "eigenvalue-map" }, parent);
  el("h3", {}, card, "Eigenvalues (" + eig.length + ")");
  const legend = el("div", { class: "legend static" }, card);
  for (const [cls, text] of [["stable", "stable"], ["unstable", "unstable"]]) {
    const item = el("span", {}, legend);
    el("b", { class: "eig-key " + cls }, item, "×");
    item.appendChild(document.createTextNode(" " + text));
  }
  const s = plotSurface(card, 640, 300, { L: 66, R: 24, T: 10, B: 40 });
  // The ranges hold zero and every eigenvalue, padded.
  const range = list => {
    let lo = Math.min(0, ...list), hi = Math.max(0, ...list);
    const pad = (hi - lo) * 0.08 || Math.abs(hi) * 0.5 || 1;
    return [lo - pad, hi + pad];
  };
  const [r0, r1] = range(eig.map(e => e[0])), [i0, i1] = range(eig.map(e => e[1]));
  const px = v => s.x0 + (v - r0) / (r1 - r0) * (s.x1 - s.x0), py = v => s.y1 - (v - i0) / (i1 - i0) * (s.y1 - s.y0);
  drawTicks(s, niceTicks(r0, r1, 8), px, niceTicks(i0, i1, 6), py);
  axisTitles(s, "Re λ [1/s]", "Im λ [rad/s]");
  if (r1 > 0) {
    const x = Math.max(s.x0, px(0));
    sv("title", {}, sv("rect", { class: "rhp", x: x, y: s.y0, width: s.x1 - x, height: s.y1 - s.y0 }, s.area),
       "Re λ > 0: unstable");
  }
  sv("line", { class: "zero", x1: px(0), x2: px(0), y1: s.y0, y2: s.y1 }, s.area);
  sv("line", { class: "zero", x1: s.x0, x2: s.x1, y1: py(0), y2: py(0) }, s.area);
  const marks = eig.map(e => {
    const x = px(e[0]), y = py(e[1]), bad = unstableEigen(e);
    const g = sv("path", { class: "eig " + (bad ? "unstable" : "stable"),
                           d: "M" + (x - 5) + " " + (y - 5) + " l10 10 m0 -10 l-10 10" }, s.area);
    sv("title", {}, g, "λ = " + fmtEigen(e) + " 1/s" + (bad ? " (unstable)" : ""));
    return { e: e, x: x, y: y, bad: bad };
  });
  // Hover: the eigenvalue nearest the pointer, within 16 view-box units.
  s.svg.addEventListener("mouseleave", () => hideHover(s));
  s.svg.addEventListener("mousemove", ev => {
    const p = pointer(s, ev);
    let best = null, dist = 16;
    for (const m of marks) {
      const d = Math.hypot(m.x - p[0], m.y - p[1]);
      if (d < dist) { best = m; dist = d; }
    }
    if (!best) return hideHover(s);
    s.dots.textContent = "";
    sv("circle", { class: "eig-ring", cx: best.x, cy: best.y, r: 8 }, s.dots);
    const k = modeOf(best.e), m = k >= 0 ? LIN.modes[k] : null;
    const rows = [["λ = " + fmtEigen(best.e) + " 1/s" + (best.bad ? "  (unstable)" : "")]];
    if (m) {
      rows.push(["mode " + (k + 1) + " (" + (m.kind || "") + ")"]);
      rows.push(["fn = " + fmt(m.natural_frequency_hz) + " Hz, ζ = " + fmt(m.damping_ratio, 3)]);
    }
    showTip(s, ev, rows);
  });
}

// The modes: eigenvalue, frequencies, damping, time constant and the states that take part
// (factor >= 0.05, in percent). A click on a row shows the mode's shape when animated.
function buildModeTable(parent, select) {
  const modes = LIN.modes || [];
  const box = el("div", { class: "scroll modes" }, parent);
  if (!modes.length) { el("p", { class: "muted" }, box, "No modes: the model has no independent states."); return; }
  const participation = m => (m.participation || []).filter(p => p.factor >= 0.05)
    .map(p => p.state + " " + Math.round(p.factor * 100) + "%").join(", ");
  const rows = modes.map((m, k) => [String(k + 1), fmtEigen(m.eigenvalue || [null, 0], true), fmt(m.natural_frequency_hz),
    fmt(m.natural_frequency_rad_s), fmt(m.damped_frequency_hz), fmt(m.damping_ratio, 3), fmt(m.time_constant_s),
    modeStability(m), participation(m)]);
  const t = table(box, ["mode", "λ [1/s]", "fn [Hz]", "ωn [rad/s]", "fd [Hz]", "ζ", "τ [s]", "stability", "participating states"],
                  rows, [true, true, true, true, true, true, true, false, false]);
  t.id = "mode-table";
  Array.from(t.tBodies[0].rows).forEach((tr, k) => {
    if (modeStability(modes[k]) === "unstable") tr.classList.add("unstable");
    if (select && select.has(k)) {
      tr.classList.add("pick");
      tr.title = "show this mode's shape";
      tr.onclick = () => select.show(k);
    }
  });
}

// Phase ticks: multiples of 15°, 45°, 90° or more, about six over the range.
function angleTicks(lo, hi) {
  const span = hi - lo, step = span <= 90 ? 15 : span <= 270 ? 45 : span <= 540 ? 90 : 180 * Math.ceil(span / 1080);
  const list = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) list.push(v);
  return { list: list, label: v => String(Math.round(v)) };
}

// One input -> output pair's frequency response: magnitude in dB over phase in degrees,
// against frequency on a log axis, with a hover readout on both.
function buildBode(parent, pair, freq) {
  const card = el("div", { class: "plot bode" }, parent);
  el("h3", {}, card, pair.input + " → " + pair.output + (pair.unit !== undefined ? " [" + unitLabel(pair.unit) + "]" : ""));
  const tip = el("div", { class: "tip" }, card);
  const mag = plotSurface(card, 640, 190, { L: 66, R: 24, T: 10, B: 10 }, tip);
  const ph = plotSurface(card, 640, 170, { L: 66, R: 24, T: 6, B: 40 }, tip);
  const ok = freq.map(f => f > 0 && isFinite(f));
  const fs = freq.filter((f, i) => ok[i]);
  const f0 = Math.min(...fs), f1 = Math.max(...fs), la = Math.log10(f0), lb = Math.log10(f1) > la ? Math.log10(f1) : la + 1;
  const px = f => mag.x0 + (Math.log10(f) - la) / (lb - la) * (mag.x1 - mag.x0);
  const db = pair.magnitude_db || [], deg = pair.phase_deg || [];
  // A panel's vertical scale: its finite values, padded, and ticks over them.
  const panel = (s, values, minPad, ticks) => {
    const v = values.filter((x, i) => ok[i] && x !== null && isFinite(x));
    const lo = v.length ? Math.min(...v) : 0, hi = v.length ? Math.max(...v) : 1;
    const pad = (hi - lo) * 0.05 || minPad, y0 = lo - pad, y1 = hi + pad;
    return { ticks: ticks(y0, y1), py: x => s.y1 - (x - y0) / (y1 - y0) * (s.y1 - s.y0) };
  };
  const M = panel(mag, db, 1, (a, b) => niceTicks(a, b, 5)), P = panel(ph, deg, 15, angleTicks);
  const pyMag = M.py, pyPh = P.py, xt = logTicks(Math.pow(10, la), Math.pow(10, lb));
  drawTicks(mag, { list: xt.list, minor: xt.minor }, px, M.ticks, pyMag);  // (frequencies labelled under the phase)
  drawTicks(ph, xt, px, P.ticks, pyPh);
  axisTitles(mag, "", "magnitude [dB]");
  axisTitles(ph, "frequency [Hz]", "phase [°]");
  const f = freq.map((v, i) => (ok[i] ? v : null));
  sv("path", { class: "curve", stroke: CURVE_COLORS[0], d: linePath(f, db, px, pyMag) }, mag.area);
  sv("path", { class: "curve", stroke: CURVE_COLORS[1], d: linePath(f, deg, px, pyPh) }, ph.area);
  // Hover on either: the cursor on both, the values at the nearest computed frequency.
  const logs = freq.map(v => (v > 0 ? Math.log10(v) : -Infinity));
  const leave = () => { hideHover(mag); hideHover(ph); };
  for (const s of [mag, ph]) {
    s.svg.addEventListener("mouseleave", leave);
    s.svg.addEventListener("mousemove", ev => {
      const x = pointer(s, ev)[0];
      if (x < s.x0 || x > s.x1 || !fs.length) return leave();
      const i = nearest(logs, la + (x - s.x0) / (s.x1 - s.x0) * (lb - la));
      if (!ok[i]) return leave();
      const cx = px(freq[i]);
      moveCursor(mag, cx); moveCursor(ph, cx);
      if (db[i] !== null && isFinite(db[i])) sv("circle", { cx: cx, cy: pyMag(db[i]), r: 3, fill: CURVE_COLORS[0] }, mag.dots);
      if (deg[i] !== null && isFinite(deg[i])) sv("circle", { cx: cx, cy: pyPh(deg[i]), r: 3, fill: CURVE_COLORS[1] }, ph.dots);
      const m = pair.magnitude ? pair.magnitude[i] : null;
      showTip(s, ev, [["f = " + fmt(freq[i], 5) + " Hz"],
                      ["|G| = " + fmt(db[i], 4) + " dB" + (m !== null && m !== undefined ? " (" + fmt(m, 4) +
                       (pair.unit ? " " + unitLabel(pair.unit) : "") + ")" : ""), CURVE_COLORS[0]],
                      ["phase = " + fmt(deg[i], 4) + "°", CURVE_COLORS[1]]]);
    });
  }
}

// The modes' shapes: a mode selector and the bodies looping through the chosen mode's
// cycle (D.mode_animation: the frames Report::mode_frame took), drawn by the
// animation's scene. Returns {has(k), show(k)} for the mode table, or null.
function buildModeShapes(parent) {
  const MA = D.mode_animation;
  if (!MA || !MA.sketches || !MA.modes || !MA.modes.length) return null;
  const modes = LIN.modes || [];
  const card = el("div", { class: "plot", id: "mode-shapes" }, parent);
  const heading = el("h3", {}, card, "Mode shape ");
  const select = el("select", { id: "mode-select", class: "unit-select", title: "the mode animated" }, heading);
  MA.modes.forEach((a, k) => {
    const m = modes[a.mode] || {};
    const what = m.kind === "oscillatory" ? fmt(m.natural_frequency_hz) + " Hz, ζ = " + fmt(m.damping_ratio, 3)
                                          : "τ = " + fmt(m.time_constant_s) + " s";
    el("option", { value: k }, select, "mode " + (a.mode + 1) + ": " + what);
  });
  const wrap = el("div", { class: "anim" }, card);
  const box = el("div", {}, wrap);
  const controls = el("div", { class: "controls" }, wrap);
  const play = el("button", { type: "button", id: "mode-play" }, controls, "❚❚ Pause");
  const readout = el("span", { class: "time", id: "mode-phase" }, controls);
  const CYCLE_S = 2;  // seconds a loop takes on screen
  el("p", { class: "muted" }, wrap, "The operating point displaced along the mode's shape: one cycle every " +
     CYCLE_S + " s on screen, whatever the mode's own period.");
  let scene = null, n = 0, phase = 0, playing = true, last = null;
  function choose(k) {
    const a = MA.modes[k];
    n = a.frames;
    // The cycle closed: frame n is frame 0 again, so the loop blends back to its start.
    const values = {};
    for (const name in a.values) values[name] = a.values[name].concat([a.values[name][0]]);
    box.textContent = "";
    scene = buildScene(box, "mode-scene", MA.sketches, values, n + 1);
    select.value = String(k);
    draw();
  }
  function draw() {
    const at = (phase - Math.floor(phase)) * n, i = Math.min(Math.floor(at), n - 1);
    scene.show(i, at - i);
    readout.textContent = "phase " + Math.round((phase - Math.floor(phase)) * 360) + "°";
  }
  function tick(clock) {
    if (!playing) return;
    if (last !== null) phase += (clock - last) / 1000 / CYCLE_S;
    last = clock;
    draw();
    requestAnimationFrame(tick);
  }
  play.onclick = () => {
    playing = !playing; last = null;
    play.textContent = playing ? "❚❚ Pause" : "▶ Play";
    if (playing) requestAnimationFrame(tick);
  };
  select.onchange = () => choose(Number(select.value));
  choose(0);
  requestAnimationFrame(tick);
  return {
    has: mode => MA.modes.some(a => a.mode === mode),
    show: mode => { choose(MA.modes.findIndex(a => a.mode === mode)); card.scrollIntoView({ block: "nearest" }); }
  };
}

// A matrix as a table with its rows' and columns' names; an empty one said so.
function matrixTable(parent, name, M, rowNames, colNames) {
  if (!rowNames.length || !colNames.length) {
    el("p", { class: "muted" }, parent, name + ": empty (" + rowNames.length + " × " + colNames.length + ")");
    return;
  }
  const box = el("div", { class: "scroll matrix" }, parent);
  const t = el("table", {}, box), head = el("tr", {}, el("thead", {}, t)), body = el("tbody", {}, t);
  el("th", {}, head, name);
  colNames.forEach(c => el("th", { class: "num" }, head, c));
  rowNames.forEach((r, i) => {
    const tr = el("tr", {}, body);
    el("th", {}, tr, r);
    colNames.forEach((c, j) => {
      const v = M && M[i] ? M[i][j] : null;
      el("td", { class: v === 0 ? "num zero" : "num" }, tr, fmt(v, 4));
    });
  });
}

function buildLinear() {
  if (!LIN) return;
  const card = el("section", { class: "card", id: "linear" }, document.getElementById("main"));
  el("h2", {}, card, "Linear analysis");
  const states = LIN.states || [], dependent = LIN.dependent_states || [];
  const inputs = (LIN.inputs || []).map(u => u.name), outputs = (LIN.outputs || []).map(y => y.name);
  // 1. Where it was linearized, and whether the linear model is stable.
  const op = LIN.operating_point || {};
  const at = op.at === "equilibrium" ? "an equilibrium" : op.at === "initial" ? "the initial state"
           : op.at === "time" ? "the state at t = " + fmt(op.time, 6) + " s" : String(op.at || "–");
  el("p", { class: "op" }, card, "Operating point: " + at +
     (op.at !== "time" && op.time !== undefined ? " (t = " + fmt(op.time, 6) + " s)" : "") +
     (op.residual !== undefined ? ", residual " + fmt(op.residual, 3) : "") + ". " +
     "x' = A x + B u, y = C x + D u in " + states.length + " independent state" + (states.length === 1 ? "" : "s") +
     (dependent.length ? " (" + dependent.length + " mechanism coordinates eliminated by the constraints)" : "") +
     ", " + inputs.length + " input" + (inputs.length === 1 ? "" : "s") + ", " + outputs.length +
     " output" + (outputs.length === 1 ? "" : "s") + ".");
  if (op.note) el("p", { class: "muted" }, card, op.note);
  const unstable = (LIN.eigenvalues || []).filter(e => unstableEigen(e)).length;
  const cls = stabilityClass(LIN.stability);
  const statement = el("div", { class: "stability " + cls, id: "stability" }, card);
  const verdict = String(LIN.stability || "stability unknown");
  el("b", {}, statement, verdict.charAt(0).toUpperCase() + verdict.slice(1));
  statement.appendChild(document.createTextNode(
    cls === "unstable" ? ": " + unstable + " eigenvalue" + (unstable === 1 ? "" : "s") + " in the right half-plane"
    : cls === "marginal" ? ": eigenvalues on the imaginary axis, none to the right of it"
    : ": every eigenvalue has a negative real part"));
  // 2. and 5. The eigenvalue map beside the mode shapes; 3. the modes' table.
  const grid = el("div", { class: "plots" }, card);
  buildEigenMap(grid);
  const select = buildModeShapes(grid);
  el("h3", {}, card, "Modes");
  buildModeTable(card, select);
  // 4. The frequency responses.
  const bode = LIN.bode || {}, pairs = bode.pairs || [], freq = bode.frequency_hz || [];
  if (pairs.length && freq.some(f => f > 0)) {
    el("h3", {}, card, "Frequency response (" + pairs.length + " input → output pair" + (pairs.length === 1 ? "" : "s") + ")");
    const plots = el("div", { class: "plots" }, card);
    for (const p of pairs) buildBode(plots, p, freq);
  }
  // 6. The matrices, folded.
  const details = el("details", { class: "matrices" }, card);
  el("summary", {}, details, "State-space matrices: x' = A x + B u, y = C x + D u");
  if (dependent.length) el("p", { class: "muted" }, details, "Eliminated by the constraints: " + dependent.join(", ") + ".");
  matrixTable(details, "A", LIN.A, states, states);
  matrixTable(details, "B", LIN.B, states, inputs);
  matrixTable(details, "C", LIN.C, outputs, states);
  matrixTable(details, "D", LIN.D, outputs, inputs);
}

const number = v => (typeof v !== "number" ? String(v) : Number.isInteger(v) ? fmtInt(v) : fmt(v, 6));

function buildDetails() {
  const grid = el("div", { class: "details" }, document.getElementById("main"));
  const card = title => { const c = el("section", { class: "card" }, grid); el("h2", {}, c, title); return c; };
  if (S.solver)
    table(card(INTEGRATED ? "Solver settings" : "Time settings (" + ANALYSIS + " analysis, no integrator)"), ["setting", "value"],
          Object.keys(S.solver).map(k => [k, number(S.solver[k])]), [false, true]);
  const stats = Object.keys(S.statistics || {}).map(k => [k, number(S.statistics[k])]);
  if (S.wall_time_s !== undefined) stats.push(["wall_time", fmtSeconds(S.wall_time_s)]);
  stats.push(["rows", fmtInt(D.rows)]);
  if (S.schedule) stats.push(["schedule_steps", fmtInt(S.schedule.steps)], ["algebraic_loops", fmtInt(S.schedule.algebraic_loops)]);
  table(card("Statistics"), ["statistic", "value"], stats, [false, true]);
  if (S.monitors) {
    const rows = Object.keys(S.monitors).map(k => [k, fmt(S.monitors[k].max_abs, 4) + " " + S.monitors[k].unit]);
    table(card("Monitors"), ["monitor", "max |value|"], rows, [false, true]);
  }
  if (S.events) {  // (a linear analysis has none to tell)
    const events = card("Events (" + fmtInt(D.event_count) + ")");
    if (!S.events.length) el("p", { class: "muted" }, events, "No events.");
    else {
      const rows = S.events.map(e => [fmt(e.time, 8), e.component, e.description]);
      table(el("div", { class: "scroll" }, events), ["time [s]", "component", "event"], rows, [true, false, false]);
      if (D.event_count > S.events.length)
        el("p", { class: "muted" }, events, "… and " + fmtInt(D.event_count - S.events.length) + " more in summary.json");
    }
  }
  const units = {};
  for (const v of S.variables || []) units[v.name] = v.unit;
  if (!S.final_values) return;
  const rows = Object.keys(S.final_values).map(k => [k, fmt(S.final_values[k], 7), k in units ? unitLabel(units[k]) : ""]);
  const values = card(S.status === "finished" ? "Final values" : "Last recorded values");
  table(el("div", { class: "scroll" }, values), ["variable", "value", "unit"], rows, [false, true, false]);
}

// ---------------------------------------------------------------- energy
// Where the energy went (summary.json's "energy", a run with "energy": true): the
// model's balance, each domain's totals, and each component's share, largest first,
// with a bar for what it lost (red), supplied (green) and its net change of stored
// energy (blue), on one scale.
// The power over time (energy.power): what is supplied, what is lost, and what each
// domain's connections carry, sampled at step ends.
function buildPowerPlot(card, P) {
  if (!P || !P.time || P.time.length < 2) return;
  const wrap = el("div", { class: "plot", id: "power-plot" }, el("div", { class: "plots" }, card));
  el("h3", {}, wrap, "Power [W]");
  const curves = [{ name: "supplied", values: P.supplied }, { name: "lost", values: P.lost }]
    .concat(Object.keys(P.carried || {}).map(d => ({ name: d + " (carried)", values: P.carried[d] })))
    .map((c, k) => Object.assign(c, { color: CURVE_COLORS[k % CURVE_COLORS.length], on: true }));
  curveLegend(wrap, curves, () => draw());
  const s = plotSurface(wrap, 640, 260, { L: 66, R: 24, T: 10, B: 40 });
  const t0 = P.time[0], t1 = P.time[P.time.length - 1];
  const px = t => s.x0 + (t - t0) / (t1 - t0 || 1) * (s.x1 - s.x0);
  function draw() {
    s.area.textContent = "";
    let lo = 0, hi = 0;
    for (const c of curves) if (c.on) for (const v of c.values) if (isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (hi === lo) hi = lo + 1;
    const py = v => s.y1 - (v - lo) / (hi - lo) * (s.y1 - s.y0);
    drawTicks(s, niceTicks(t0, t1, 8), px, niceTicks(lo, hi, 6), py);
    axisTitles(s, "time [s]", "W");
    for (const c of curves)
      if (c.on) sv("path", { d: linePath(P.time, c.values, px, py), stroke: c.color, fill: "none", class: "curve" }, s.area);
  }
  draw();
}

function buildEnergy() {
  const E = S.energy;
  if (!E) return;
  const card = el("section", { class: "card", id: "energy" }, document.getElementById("main"));
  el("h2", {}, card, "Where the energy went");
  const T = E.total || {};
  const J = v => fmt(v, 5) + " J";
  el("p", {}, card, "Supplied " + J(T.supplied) + " · lost " + J(T.lost) + " · stored change " + J(T.stored_change) +
     (T.changed_at_events ? " (of which at events " + J(T.changed_at_events) + ")" : "") +
     " · balance residual " + fmt(T.balance_residual, 3) + " J, " + fmt(T.relative_balance_residual, 3) +
     " of the " + J(T.moved) + " moved.");
  const domains = Object.keys(E.domains || {});
  if (domains.length)
    table(card, ["domain", "in through ports", "out through ports", "supplied", "lost", "stored change"],
          domains.map(d => { const x = E.domains[d]; return [d, J(x.in), J(x.out), J(x.supplied), J(x.lost), J(x.stored_change)]; }),
          [false, true, true, true, true, true]);
  buildPowerPlot(card, E.power);
  const C = E.components || {};
  const share = n => Math.abs(C[n].lost || 0) + Math.abs(C[n].supplied || 0) + Math.abs((C[n].stored || {}).change || 0);
  const names = Object.keys(C).filter(n => share(n) > 0).sort((a, b) => share(b) - share(a));
  if (!names.length) return;
  const top = Math.max(...names.map(share));
  const rows = el("tbody", {}, el("table", { class: "energy" }, el("div", { class: "scroll" }, card)));
  const head = el("tr", {}, rows);
  ["component", "domain", "supplied", "lost", "stored change", "residual", ""].forEach(h => el("th", {}, head, h));
  for (const n of names) {
    const c = C[n], tr = el("tr", {}, rows), stored = (c.stored || {}).change || 0;
    el("td", {}, tr, n);
    el("td", {}, tr, c.domain || "");
    [c.supplied, c.lost, stored, c.residual].forEach(v => el("td", { class: "num" }, tr, v === undefined ? "" : J(v)));
    const bar = el("td", { class: "bars" }, tr);
    [["supplied", c.supplied || 0], ["lost", c.lost || 0], ["stored", stored]].forEach(([k, v]) => {
      if (v) el("i", { class: k, style: "width:" + (100 * Math.abs(v) / top).toFixed(1) + "px", title: k + " " + J(v) }, bar);
    });
  }
}

try {
  buildHeader();
  buildSchematic();
  buildLinear();
  const afterPlots = buildAnimation();
  buildPlots();
  buildEnergy();
  buildDetails();
  if (afterPlots) afterPlots();
  document.body.setAttribute("data-report-ready", "1");
} catch (e) {
  reportError(String((e && e.stack) || e));
}
