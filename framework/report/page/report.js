// Jourdain's report page: the script of report.html (framework/report/README.md). It
// reads the JSON in <script id="report-data"> (written by framework/report/src/report.cpp)
// and builds the header, the animation, the plots and the tables with plain DOM and SVG.
"use strict";
// Errors go into the page (data-report-error, and a red bar), where a headless browser's
// DOM dump shows them; data-report-ready="1" says that everything was built.
function reportError(text) {
  document.body.setAttribute("data-report-error", text);
  const bar = document.createElement("pre");
  bar.className = "script-error";
  bar.textContent = "Report script error: " + text;
  document.body.insertBefore(bar, document.body.firstChild);
}
window.onerror = function (message, source, line) { reportError(message + " (line " + line + ")"); };

const SVG_NS = "http://www.w3.org/2000/svg";  // a name, not an address: nothing is fetched
const CURVE_COLORS = ["#2563eb", "#dc2626", "#16a34a", "#ea580c", "#7c3aed", "#0891b2"];
const BODY_COLORS = ["#3b82f6", "#f97316", "#10b981", "#a855f7", "#ef4444", "#14b8a6", "#eab308", "#ec4899"];
const QUANTITY = {
  "m": "Position", "m/s": "Velocity", "m/s^2": "Acceleration", "rad": "Angle", "rad/s": "Angular velocity",
  "rad/s^2": "Angular acceleration", "N": "Force", "N*m": "Torque", "J": "Energy", "W": "Power",
  "Pa": "Pressure", "m^3/s": "Flow rate", "m^3": "Volume", "kg": "Mass", "s": "Time", "K": "Temperature",
  "V": "Voltage", "A": "Current", "N/m": "Stiffness", "": "Dimensionless"
};

// ---------------------------------------------------------------- helpers
// An HTML element with attributes (and text), appended to parent.
function el(tag, attrs, parent, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
// The same for SVG.
function sv(tag, attrs, parent, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
// A number for people: `digits` significant digits (4), exponent form when far from 1.
function fmt(v, digits) {
  if (v === null || v === undefined || !isFinite(v)) return "–";
  digits = digits || 4;
  const a = Math.abs(v);
  if (a === 0) return "0";
  if (a >= 1e-3 && a < 1e6) return String(Number(v.toPrecision(digits)));
  return v.toExponential(digits - 1).replace(/\.?0+e/, "e");
}
function fmtInt(v) { return v === undefined || v === null ? "–" : Number(v).toLocaleString("en-US"); }
function fmtSeconds(s) {
  if (s === undefined || s === null) return "–";
  if (s < 1e-3) return fmt(s * 1e6, 3) + " µs";
  if (s < 1) return fmt(s * 1e3, 3) + " ms";
  return fmt(s, 4) + " s";
}
function unitLabel(u) {
  return u === "" ? "1" : u === "degC" ? "°C" : u === "deg" ? "°" : u.replace(/\^2/g, "²").replace(/\^3/g, "³").replace(/\*/g, "·");
}
// Index of the last time <= t (0 before the first).
function search(times, t) {
  let lo = 0, hi = times.length - 1;
  if (t <= times[0]) return 0;
  if (t >= times[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid; else hi = mid;
  }
  return lo;
}
// About n round tick values from lo to hi, and how to write them.
function niceTicks(lo, hi, n) {
  if (!(hi > lo)) { const d = Math.abs(lo) * 0.1 || 1; lo -= d; hi += d; }
  const raw = (hi - lo) / n, mag = Math.pow(10, Math.floor(Math.log10(raw))), r = raw / mag;
  const step = (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * mag;
  const list = [];
  for (let k = Math.ceil(lo / step - 1e-9); k <= Math.floor(hi / step + 1e-9); ++k) list.push(k * step);
  const big = Math.max(Math.abs(lo), Math.abs(hi));
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  if (big >= 1e5 || big < 1e-3 || decimals > 5) {
    const digits = Math.max(0, Math.floor(Math.log10(big)) - Math.floor(Math.log10(step)));
    return { list: list, label: v => (v === 0 ? "0" : v.toExponential(digits).replace(/\.?0+e/, "e")) };
  }
  return { list: list, label: v => v.toFixed(decimals) };
}

const D = JSON.parse(document.getElementById("report-data").textContent);
const S = D.summary;
const T0 = S.solver.t_start, T1 = S.solver.t_end;
const ANALYSIS = S.analysis || "dynamic", INTEGRATED = ANALYSIS === "dynamic";
const timeMarkers = [];  // per plot: a function(t) that moves its marker to the animation's time

// ---------------------------------------------------------------- header
function buildHeader() {
  const head = document.getElementById("head");
  const title = el("div", {}, head);
  el("h1", {}, title, D.name || "run");
  el("span", { class: "badge " + S.status }, title, S.status);
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
  if (INTEGRATED) figure("Method", S.solver.method);
  figure("Time span", fmt(T0) + " – " + fmt(T1) + " s");
  if (S.failure) figure("Stopped at", fmt(S.failure.time, 6) + " s");
  if (INTEGRATED) {
    figure("Steps", fmtInt(st.steps));
    figure("Rejected", fmtInt(st.rejected_steps));
    figure("RHS evaluations", fmtInt(st.rhs_evaluations));
    figure("Jacobians", fmtInt(st.jacobian_evaluations));
  } else {
    figure("Solved points", fmtInt(st.steps + 1), "output times solved by the " + ANALYSIS + " analysis");
  }
  figure("Events", fmtInt(st.events));
  figure("Wall time", fmtSeconds(S.wall_time_s));
  figure("Rows", fmtInt(D.rows), D.thinned ? "plots show the smallest and largest value of each bucket of rows" : "");
  for (const name in S.monitors || {}) figure("max " + name.split(".").pop(), fmt(S.monitors[name].max_abs, 3), name);

  const main = document.getElementById("main");
  if (S.failure) {
    // (The message says when: "at t = … s: …", as on the command line.)
    el("div", { class: "alert failure" }, main,
       "Simulation failed " + S.failure.message + "\nThe results below run up to the failure.");
  }
  if (S.warnings && S.warnings.length)
    el("div", { class: "alert warning" }, main, "Warnings:\n" + S.warnings.map(w => "• " + w).join("\n"));
  document.getElementById("foot").textContent =
    "Jourdain " + S.jourdain_version + " · netlist " + D.netlist + " · " + fmtInt(D.rows) + " rows in results.csv" +
    (D.thinned ? " (plots thinned: smallest and largest value of each bucket of rows)" : "");
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

// One plot: the curves of `spec.variables` against time, a legend that hides and shows
// them, a hover readout, the events along the top edge and the animation's time.
// The name of a plot's quantity for people: "volume_flow" -> "Volume flow".
function quantityTitle(spec) {
  if (spec.monitor) return "Monitors";
  if (spec.axis) return spec.axis.charAt(0).toUpperCase() + spec.axis.slice(1).replace(/_/g, " ");
  return QUANTITY[spec.unit] !== undefined ? QUANTITY[spec.unit] : "Variables";
}

function buildPlot(parent, spec) {
  const W = 640, H = 300, L = 66, R = 24, TOP = 10, B = 40;  // view box and margins
  const card = el("div", { class: "plot" }, parent);
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
  const legend = el("div", { class: "legend" }, card);
  const svg = sv("svg", { viewBox: "0 0 " + W + " " + H }, card);
  const tip = el("div", { class: "tip" }, card);
  const grid = sv("g", { class: "grid" }, svg), axis = sv("g", { class: "axis" }, svg);
  sv("rect", { class: "frame", x: L, y: TOP, width: W - L - R, height: H - TOP - B }, svg);
  const clip = "clip" + Math.random().toString(36).slice(2);
  sv("rect", { x: L, y: TOP, width: W - L - R, height: H - TOP - B }, sv("clipPath", { id: clip }, sv("defs", {}, svg)));
  const area = sv("g", { "clip-path": "url(#" + clip + ")" }, svg);
  const cursor = sv("line", { class: "cursor", y1: TOP, y2: H - B, visibility: "hidden" }, svg);
  const now = sv("line", { class: "now", y1: TOP, y2: H - B, visibility: "hidden" }, svg);
  const dots = sv("g", {}, svg);
  const px = t => L + (t - t0) / (t1 - t0 || 1) * (W - L - R);
  let py = null;

  function draw() {
    grid.textContent = ""; axis.textContent = ""; area.textContent = "";
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
    let ticks;
    if (spec.monitor && isFinite(smallest)) {
      // Decades from the smallest positive value, at most 8 below the largest.
      const b = Math.max(Math.ceil(Math.log10(Math.max(hi, smallest))), Math.floor(Math.log10(smallest)) + 1);
      const a = Math.max(Math.floor(Math.log10(smallest)), b - 8), every = Math.ceil((b - a) / 6);
      py = v => H - B - (Math.log10(Math.max(v, Math.pow(10, a))) - a) / (b - a) * (H - TOP - B);
      ticks = { list: [], label: v => "1e" + Math.round(Math.log10(v)) };
      for (let e = a; e <= b; e += every) ticks.list.push(Math.pow(10, e));
    } else {
      const pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.1 || 1, y0 = lo - pad, y1 = hi + pad;
      py = v => H - B - (v - y0) / (y1 - y0) * (H - TOP - B);
      ticks = niceTicks(y0, y1, 6);
    }
    for (const v of ticks.list) {
      const y = py(v);
      if (y < TOP - 0.5 || y > H - B + 0.5) continue;
      sv("line", { x1: L, x2: W - R, y1: y, y2: y }, grid);
      sv("text", { x: L - 6, y: y + 4, "text-anchor": "end" }, axis, ticks.label(v));
    }
    const xticks = niceTicks(t0, t1, 8);
    for (const t of xticks.list) {
      sv("line", { x1: px(t), x2: px(t), y1: TOP, y2: H - B }, grid);
      sv("text", { x: px(t), y: H - B + 15, "text-anchor": "middle" }, axis, xticks.label(t));
    }
    sv("text", { class: "label", x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle" }, axis, "time [s]");
    sv("text", { class: "label", transform: "translate(13," + (TOP + (H - TOP - B) / 2) + ") rotate(-90)",
                 "text-anchor": "middle" }, axis,
       spec.monitor ? "magnitude" : quantity.toLowerCase() + " [" + unitLabel(unit) + "]");
    for (const e of S.events.length <= 200 ? S.events : []) {
      const tick = sv("line", { class: "event", x1: px(e.time), x2: px(e.time), y1: TOP, y2: TOP + 7 }, area);
      sv("title", {}, tick, "t = " + fmt(e.time, 6) + " s: " + e.component + ": " + e.description);
    }
    if (S.failure) {
      const x = px(S.failure.time);
      sv("line", { class: "failure-line", x1: x, x2: x, y1: TOP, y2: H - B }, area);
      const right = x < (L + W - R) / 2;  // the label on the side with room
      sv("text", { class: "failure-text", x: right ? x + 4 : x - 4, y: TOP + 12, "text-anchor": right ? "start" : "end" },
         area, "failure");
    }
    for (const c of curves) {
      if (!c.on) continue;
      let d = "", pen = "M";
      for (let i = 0; i < time.length; ++i) {
        const v = c.values[i];
        if (v === null || !isFinite(v)) { pen = "M"; continue; }
        d += pen + px(time[i]).toFixed(1) + " " + py(v).toFixed(1);
        pen = "L";
      }
      sv("path", { d: d, class: "curve", stroke: c.color }, area);
    }
  }
  for (const c of curves) {
    const item = el("span", { title: "click to hide or show" }, legend);
    el("i", { style: "background:" + c.color }, item);
    item.appendChild(document.createTextNode(c.name));
    item.onclick = () => { c.on = !c.on; item.classList.toggle("off", !c.on); draw(); };
  }
  draw();

  // Hover: the values at the nearest recorded time.
  function hide() { cursor.setAttribute("visibility", "hidden"); dots.textContent = ""; tip.style.display = "none"; }
  svg.addEventListener("mouseleave", hide);
  svg.addEventListener("mousemove", ev => {
    const box = svg.getBoundingClientRect(), x = (ev.clientX - box.left) * W / box.width;
    if (x < L || x > W - R || !time.length) return hide();
    const t = t0 + (x - L) / (W - L - R) * (t1 - t0);
    let i = search(time, t);
    if (i + 1 < time.length && Math.abs(time[i + 1] - t) < Math.abs(t - time[i])) ++i;
    const cx = px(time[i]);
    cursor.setAttribute("x1", cx); cursor.setAttribute("x2", cx); cursor.setAttribute("visibility", "visible");
    dots.textContent = ""; tip.textContent = "";
    el("div", { style: "font-weight:600" }, tip, "t = " + fmt(time[i], 6) + " s");
    for (const c of curves) {
      if (!c.on) continue;
      const v = c.values[i];
      if (v !== null && isFinite(v)) sv("circle", { cx: cx, cy: py(v), r: 3, fill: c.color }, dots);
      const row = el("div", {}, tip);
      el("i", { style: "background:" + c.color }, row);
      row.appendChild(document.createTextNode(c.name + " = " + fmt(v, 6) + (unit ? " " + unitLabel(unit) : "")));
    }
    tip.style.display = "block";
    const frame = card.getBoundingClientRect(), left = ev.clientX - frame.left;
    tip.style.left = (left > card.clientWidth / 2 ? left - tip.offsetWidth - 14 : left + 14) + "px";
    tip.style.top = (ev.clientY - frame.top + 12) + "px";
  });
  timeMarkers.push(t => {
    now.setAttribute("x1", px(t)); now.setAttribute("x2", px(t));
    now.setAttribute("visibility", t > t0 ? "visible" : "hidden");
  });
}

function buildPlots() {
  if (!D.plots.length) return;
  const card = el("section", { class: "card", id: "plots" }, document.getElementById("main"));
  el("h2", {}, card, "Recorded variables");
  const grid = el("div", { class: "plots" }, card);
  for (const p of D.plots) buildPlot(grid, p);
}

// ---------------------------------------------------------------- animation
// The sketches (Component::sketch) in one SVG scene: shapes in their frames, placed at
// every frame by the recorded poses, interpolated between rows while playing.
function buildAnimation() {
  const A = D.animation;
  if (!A || !A.time.length) return;
  const card = el("section", { class: "card", id: "animation" }, document.getElementById("main"));
  el("h2", {}, card, "Animation");
  const wrap = el("div", { class: "anim" }, card);
  const times = A.time, n = times.length, span = times[n - 1] - times[0];

  // Pose (x, y, theta) of a framed sketch at row i, blended with row i + 1 by w.
  function pose(s, i, w) {
    const j = Math.min(i + 1, n - 1), at = name => A.values[name][i] * (1 - w) + A.values[name][j] * w;
    return [at(s.frame.x), at(s.frame.y), at(s.frame.theta)];
  }
  function place(p, q) {
    const c = Math.cos(q[2]), s = Math.sin(q[2]);
    return [q[0] + c * p[0] - s * p[1], q[1] + s * p[0] + c * p[1]];
  }
  // A link's end (its "from" or "to": the variables holding the point's world
  // coordinates) at row i, blended with row i + 1 by w.
  function linkEnd(end, i, w) {
    const j = Math.min(i + 1, n - 1), at = name => A.values[name][i] * (1 - w) + A.values[name][j] * w;
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
  for (const s of A.sketches) {
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

  const svg = sv("svg", { id: "scene", viewBox: "0 0 " + W + " " + H }, wrap);
  const defs = sv("defs", {}, svg);
  const hatch = sv("pattern", { id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse",
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
  for (const s of A.sketches) {
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
      sv("rect", { x: -13, y: 12, width: 26, height: 7, fill: "url(#hatch)" }, g);
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
  trails.onchange = () => layer.trails.setAttribute("visibility", trails.checked ? "visible" : "hidden");

  const decimals = Math.max(3, Math.ceil(-Math.log10(span || 1)) + 3);
  let t = times[0], playing = false, last = null;
  function show(time) {
    t = Math.min(Math.max(time, times[0]), times[n - 1]);
    const i = search(times, t), j = Math.min(i + 1, n - 1), dt = times[j] - times[i];
    const w = dt > 0 ? (t - times[i]) / dt : 0;
    for (const u of updaters) u(i, w);
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

// ---------------------------------------------------------------- tables
function table(parent, head, rows, numeric) {
  const t = el("table", {}, parent), tr = el("tr", {}, el("thead", {}, t)), body = el("tbody", {}, t);
  head.forEach(h => el("th", {}, tr, h));
  for (const r of rows) {
    const row = el("tr", {}, body);
    r.forEach((c, k) => el("td", numeric[k] ? { class: "num" } : {}, row, c));
  }
}
const number = v => (typeof v !== "number" ? String(v) : Number.isInteger(v) ? fmtInt(v) : fmt(v, 6));

function buildDetails() {
  const grid = el("div", { class: "details" }, document.getElementById("main"));
  const card = title => { const c = el("section", { class: "card" }, grid); el("h2", {}, c, title); return c; };
  table(card(INTEGRATED ? "Solver settings" : "Time settings (" + ANALYSIS + " analysis, no integrator)"), ["setting", "value"], Object.keys(S.solver).map(k => [k, number(S.solver[k])]),
        [false, true]);
  const stats = Object.keys(S.statistics).map(k => [k, number(S.statistics[k])]);
  stats.push(["wall_time", fmtSeconds(S.wall_time_s)], ["rows", fmtInt(D.rows)]);
  if (S.schedule) stats.push(["schedule_steps", fmtInt(S.schedule.steps)], ["algebraic_loops", fmtInt(S.schedule.algebraic_loops)]);
  table(card("Statistics"), ["statistic", "value"], stats, [false, true]);
  if (S.monitors) {
    const rows = Object.keys(S.monitors).map(k => [k, fmt(S.monitors[k].max_abs, 4) + " " + S.monitors[k].unit]);
    table(card("Monitors"), ["monitor", "max |value|"], rows, [false, true]);
  }
  const events = card("Events (" + fmtInt(D.event_count) + ")");
  if (!S.events.length) el("p", { class: "muted" }, events, "No events.");
  else {
    const rows = S.events.map(e => [fmt(e.time, 8), e.component, e.description]);
    table(el("div", { class: "scroll" }, events), ["time [s]", "component", "event"], rows, [true, false, false]);
    if (D.event_count > S.events.length)
      el("p", { class: "muted" }, events, "… and " + fmtInt(D.event_count - S.events.length) + " more in summary.json");
  }
  const units = {};
  for (const v of S.variables || []) units[v.name] = v.unit;
  const rows = Object.keys(S.final_values).map(k => [k, fmt(S.final_values[k], 7), k in units ? unitLabel(units[k]) : ""]);
  const values = card(S.status === "finished" ? "Final values" : "Last recorded values");
  table(el("div", { class: "scroll" }, values), ["variable", "value", "unit"], rows, [false, true, false]);
}

try {
  buildHeader();
  const afterPlots = buildAnimation();
  buildPlots();
  buildDetails();
  if (afterPlots) afterPlots();
  document.body.setAttribute("data-report-ready", "1");
} catch (e) {
  reportError(String((e && e.stack) || e));
}
