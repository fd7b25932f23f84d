// Jourdain's page toolkit (apps/page/README.md): what every page the project writes
// shares, inlined before the page's own script (report.js, sweep.js, study.js). It holds
// the error bar, DOM and SVG helpers, number formats, axis ticks, plot surfaces with
// hover readouts, and tables. A page reads its data with pageData().
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
// Ticks of a log axis: decades from lo to hi (> 0) labelled, with the 2…9 multiples
// between as minor lines when there are few decades.
function logTicks(lo, hi) {
  const a = Math.floor(Math.log10(lo) + 1e-9), b = Math.ceil(Math.log10(hi) - 1e-9);
  const every = Math.max(1, Math.ceil((b - a) / 8)), list = [], minor = [];
  for (let e = a; e <= b; e += every) list.push(Math.pow(10, e));
  if (every === 1)
    for (let e = a; e < b; ++e) for (let k = 2; k <= 9; ++k) minor.push(k * Math.pow(10, e));
  return { list: list, minor: minor, label: v => fmt(v, 3) };
}

// The page's data: the JSON object its writer put in the element "report-data".
function pageData() { return JSON.parse(document.getElementById("report-data").textContent); }

// ---------------------------------------------------------------- plot surfaces
// What the plots share (the time plots, the eigenvalue map, the Bode plots): a surface
// with a grid, axes, a clipped drawing area and a hover readout.

// A plot's surface in `card`: an SVG of view box W × H whose frame leaves the margins
// m = {L, R, T, B}; groups for the grid, the axes and (clipped to the frame) the
// drawing; a hover cursor and dots; a tip (`tip`, or a new one). The frame spans
// x0..x1, y0..y1 in view-box units.
function plotSurface(card, W, H, m, tip) {
  const s = { card: card, W: W, H: H, x0: m.L, x1: W - m.R, y0: m.T, y1: H - m.B };
  s.svg = sv("svg", { viewBox: "0 0 " + W + " " + H }, card);
  s.tip = tip || el("div", { class: "tip" }, card);
  s.grid = sv("g", { class: "grid" }, s.svg);
  s.axis = sv("g", { class: "axis" }, s.svg);
  const box = { x: s.x0, y: s.y0, width: s.x1 - s.x0, height: s.y1 - s.y0 };
  sv("rect", Object.assign({ class: "frame" }, box), s.svg);
  const clip = "clip" + Math.random().toString(36).slice(2);
  sv("rect", box, sv("clipPath", { id: clip }, sv("defs", {}, s.svg)));
  s.area = sv("g", { "clip-path": "url(#" + clip + ")" }, s.svg);
  s.cursor = sv("line", { class: "cursor", y1: s.y0, y2: s.y1, visibility: "hidden" }, s.svg);
  s.dots = sv("g", {}, s.svg);
  return s;
}
// Grid lines and labels of the ticks: xt at px(v) under the frame, yt at py(v) left of it
// (each {list, label}, as niceTicks gives; xt.minor: lighter lines without labels).
function drawTicks(s, xt, px, yt, py) {
  s.grid.textContent = ""; s.axis.textContent = "";
  const inside = (v, a, b) => v >= a - 0.5 && v <= b + 0.5;
  for (const v of yt.list) {
    const y = py(v);
    if (!inside(y, s.y0, s.y1)) continue;
    sv("line", { x1: s.x0, x2: s.x1, y1: y, y2: y }, s.grid);
    sv("text", { x: s.x0 - 6, y: y + 4, "text-anchor": "end" }, s.axis, yt.label(v));
  }
  for (const v of xt.minor || []) {
    const x = px(v);
    if (inside(x, s.x0, s.x1)) sv("line", { class: "minor", x1: x, x2: x, y1: s.y0, y2: s.y1 }, s.grid);
  }
  for (const v of xt.list) {
    const x = px(v);
    if (!inside(x, s.x0, s.x1)) continue;
    sv("line", { x1: x, x2: x, y1: s.y0, y2: s.y1 }, s.grid);
    if (xt.label) sv("text", { x: x, y: s.y1 + 15, "text-anchor": "middle" }, s.axis, xt.label(v));
  }
}
// The axes' titles: x under the frame (none when empty), y turned along the left edge.
function axisTitles(s, xlabel, ylabel) {
  if (xlabel) sv("text", { class: "label", x: (s.x0 + s.x1) / 2, y: s.H - 6, "text-anchor": "middle" }, s.axis, xlabel);
  sv("text", { class: "label", transform: "translate(13," + (s.y0 + s.y1) / 2 + ") rotate(-90)",
               "text-anchor": "middle" }, s.axis, ylabel);
}
// An SVG path through the points (xs[i], ys[i]) in view-box units, broken where a value
// is missing or not finite.
function linePath(xs, ys, px, py) {
  let d = "", pen = "M";
  for (let i = 0; i < xs.length; ++i) {
    const v = ys[i];
    if (v === null || v === undefined || !isFinite(v) || xs[i] === null || !isFinite(xs[i])) { pen = "M"; continue; }
    d += pen + px(xs[i]).toFixed(1) + " " + py(v).toFixed(1);
    pen = "L";
  }
  return d;
}
// The pointer in the surface's view-box units.
function pointer(s, ev) {
  const box = s.svg.getBoundingClientRect();
  return [(ev.clientX - box.left) * s.W / box.width, (ev.clientY - box.top) * s.H / box.height];
}
// The cursor at x (view-box units) and the dots cleared for the new position.
function moveCursor(s, x) {
  s.cursor.setAttribute("x1", x); s.cursor.setAttribute("x2", x); s.cursor.setAttribute("visibility", "visible");
  s.dots.textContent = "";
}
function hideHover(s) {
  s.cursor.setAttribute("visibility", "hidden"); s.dots.textContent = ""; s.tip.style.display = "none";
}
// The tip beside the pointer, on the side of its card with room; rows: [text, color?].
function showTip(s, ev, rows) {
  const tip = s.tip, card = s.card;
  tip.textContent = "";
  rows.forEach((r, k) => {
    const row = el("div", k === 0 ? { style: "font-weight:600" } : {}, tip);
    if (r[1]) el("i", { style: "background:" + r[1] }, row);
    row.appendChild(document.createTextNode(r[0]));
  });
  tip.style.display = "block";
  const frame = card.getBoundingClientRect(), left = ev.clientX - frame.left;
  tip.style.left = (left > card.clientWidth / 2 ? left - tip.offsetWidth - 14 : left + 14) + "px";
  tip.style.top = (ev.clientY - frame.top + 12) + "px";
}
// The index of the entry of the sorted list xs nearest to x.
function nearest(xs, x) {
  let i = search(xs, x);
  if (i + 1 < xs.length && Math.abs(xs[i + 1] - x) < Math.abs(x - xs[i])) ++i;
  return i;
}
// ---------------------------------------------------------------- tables
function table(parent, head, rows, numeric) {
  const t = el("table", {}, parent), tr = el("tr", {}, el("thead", {}, t)), body = el("tbody", {}, t);
  head.forEach(h => el("th", {}, tr, h));
  for (const r of rows) {
    const row = el("tr", {}, body);
    r.forEach((c, k) => el("td", numeric[k] ? { class: "num" } : {}, row, c));
  }
  return t;
}
