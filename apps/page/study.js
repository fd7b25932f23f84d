// Jourdain's design-study page: the script of study.html (apps/page/README.md), over the
// toolkit's plot.js. Its data is the summary a parameter estimation or an optimisation
// writes (summary.json, handed over by apps/python/jourdain/study_page.py as `study`,
// with the page's `name`), drawn as it is: the header and warnings, the best objective
// so far, each parameter's path, the Pareto front of two objectives, the fit's signals,
// residuals and statistics, and the table of every evaluation. Every text of the data
// goes in as text (textContent, attributes), and a report's address becomes a link only
// when it is a relative one.
"use strict";
const D = pageData();
const S = D.study || {};
const FIT = S.kind === "fit";
const PARAMETERS = S.parameters || [];
const OBJECTIVES = S.objectives || [];
const CONSTRAINTS = S.constraints || [];
// In the order they were made: the x axis of the convergence and of the parameters' paths.
const EVALUATIONS = (S.evaluations || []).slice().sort((a, b) => a.index - b.index);
const BY_INDEX = new Map(EVALUATIONS.map(e => [e.index, e]));
const BEST = S.best && BY_INDEX.has(S.best.index) ? BY_INDEX.get(S.best.index) : null;
// `pareto` names evaluations by their index; one the list lacks is left out.
const PARETO = (S.pareto || []).filter(i => BY_INDEX.has(i)).map(i => BY_INDEX.get(i));
const ON_FRONT = new Set(PARETO);

// ---------------------------------------------------------------- reading the summary
// A number of the data, or null for a missing or failed one (the summary writes NaN as null).
function num(v) { return typeof v === "number" && isFinite(v) ? v : null; }
// A number in a table: six significant digits; a missing or failed one reads "NaN".
function cell(v) { return num(v) === null ? "NaN" : fmt(v, 6); }
function withUnit(name, unit) { return unit ? name + " [" + unit + "]" : String(name); }
function finished(e) { return e.status === "finished"; }
// An evaluation that counts for the best: finished and within every constraint.
function admissible(e) { return finished(e) && e.feasible !== false; }
function parameterValue(e, p) { return num(e.values ? e.values[p.name] : null); }
function objectiveValue(e, k) { return num(e.objectives ? e.objectives[k] : null); }
// What a single-objective study minimises or maximises: the fit's cost, or the objective.
function score(e) { return FIT ? num(e.cost) : objectiveValue(e, 0); }
const MAXIMISE = !FIT && OBJECTIVES.length === 1 && OBJECTIVES[0].sense === "max";
function better(a, b) { return MAXIMISE ? a > b : a < b; }
function objectiveTitle(o) { return withUnit(o.name, o.unit) + (o.sense === "max" ? " (max)" : " (min)"); }
function scoreTitle() { return FIT ? "cost = Σ (weighted residual)²" : objectiveTitle(OBJECTIVES[0]); }

// Whether a constraint's value breaks its limit (a failed value breaks none: it is NaN).
function violates(c, v) {
  if (v === null || num(c.limit) === null) return false;
  switch (c.op) {
    case "<": return !(v < c.limit);
    case "<=": return !(v <= c.limit);
    case ">": return !(v > c.limit);
    case ">=": return !(v >= c.limit);
    default: return false;
  }
}
function constraintTitle(c) { return c.text || c.name + " " + c.op + " " + fmt(c.limit, 6) + (c.unit ? " " + c.unit : ""); }

// A report's address as a link, only when it is relative: no scheme (no colon at all),
// not rooted ("/x", "//host", "\\host"), no control characters. The summary is a file
// like any other, and "javascript:…" must not become a link in it.
function relativeLink(address) {
  if (typeof address !== "string" || !address) return null;
  if (/[\u0000-\u001f\u007f:]/.test(address) || /^\s*[\/\\]/.test(address)) return null;
  return address;
}

// The best so far after each evaluation (its entry in EVALUATIONS, -1 before any
// counts): the convergence's curve and the parameters' incumbent path.
function incumbents() {
  const out = [];
  let best = -1;
  EVALUATIONS.forEach((e, k) => {
    const v = score(e);
    if (admissible(e) && v !== null && (best < 0 || better(v, score(EVALUATIONS[best])))) best = k;
    out.push(best);
  });
  return out;
}

// The best so far as steps (it holds until an evaluation beats it): the points
// (evaluation number, valueOf(the best evaluation then)).
function bestSoFarSteps(best, valueOf) {
  const xs = [], ys = [];
  best.forEach((b, k) => {
    if (b < 0) return;
    if (xs.length) { xs.push(EVALUATIONS[k].index); ys.push(ys[ys.length - 1]); }
    xs.push(EVALUATIONS[k].index); ys.push(valueOf(EVALUATIONS[b]));
  });
  return [xs, ys];
}

// ---------------------------------------------------------------- axes
function extent(values) {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) if (v !== null && isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
  return lo <= hi ? [lo, hi] : null;
}
// A linear axis over the values: a twentieth of their span added either side (so that no
// point sits on the frame), round ticks, and the map from a value to view-box units from
// `from` (the low end) to `to`; niceTicks widens a single value, and the axis spans it.
function linearAxis(values, from, to, padded) {
  const span = extent(values) || [0, 1];
  let lo = span[0], hi = span[1];
  const pad = padded === false ? 0 : (hi - lo) / 20;
  lo -= pad; hi += pad;
  const ticks = niceTicks(lo, hi, 5);
  if (ticks.list.length) { lo = Math.min(lo, ticks.list[0]); hi = Math.max(hi, ticks.list[ticks.list.length - 1]); }
  if (!(hi > lo)) hi = lo + 1;
  return { ticks: ticks, map: v => from + (v - lo) / (hi - lo) * (to - from) };
}
// A log axis over positive values, whole decades.
function logAxis(values, from, to) {
  const span = extent(values);
  const a = Math.floor(Math.log10(span[0])), b = Math.max(Math.ceil(Math.log10(span[1])), a + 1);
  return { ticks: logTicks(Math.pow(10, a), Math.pow(10, b)),
           map: v => from + (Math.log10(v) - a) / (b - a) * (to - from) };
}
function drawAxes(s, x, y, xlabel, ylabel) {
  drawTicks(s, x.ticks, x.map, y.ticks, y.map);
  axisTitles(s, xlabel, ylabel);
}
function emptyNote(s, text) {
  sv("text", { class: "empty", x: (s.x0 + s.x1) / 2, y: (s.y0 + s.y1) / 2, "text-anchor": "middle" }, s.svg, text);
}
// A legend of marks: [class of the key, text].
function legend(parent, items) {
  const box = el("div", { class: "legend static" }, parent);
  for (const [key, text] of items) {
    const item = el("span", {}, box);
    el("i", { class: "key " + key }, item);
    item.appendChild(document.createTextNode(text));
  }
}
// An evaluation's dot: its state (failed, infeasible) and role (best, front) as classes,
// which study.css draws (an infeasible one hollow and red).
function mark(parent, e, x, y, r, role) {
  const state = !finished(e) ? " failed" : e.feasible === false ? " infeasible" : "";
  return sv("circle", { class: "pt" + state + (role ? " " + role : ""), cx: x.toFixed(1), cy: y.toFixed(1), r: r }, parent);
}
function evaluationText(e) {
  const parts = PARAMETERS.map(p => p.name + " = " + cell(parameterValue(e, p)));
  if (FIT) parts.push("cost = " + cell(e.cost));
  else OBJECTIVES.forEach((o, k) => parts.push(o.name + " = " + cell(objectiveValue(e, k))));
  const state = !finished(e) ? " (" + (e.status || "failed") + ")" : e.feasible === false ? " (infeasible)" : "";
  return "evaluation " + e.index + state + ": " + parts.join(", ");
}

// ---------------------------------------------------------------- header
function buildHeader() {
  const head = document.getElementById("head");
  el("h1", {}, head, D.name || (FIT ? "Parameter estimation" : "Optimisation"));
  const facts = el("div", { class: "facts" }, head);
  const fact = (key, value) => {
    const box = el("div", { class: "fact" }, facts);
    el("div", { class: "k" }, box, key);
    el("div", { class: "v" }, box, value);
  };
  const failed = EVALUATIONS.filter(e => !finished(e)).length;
  const infeasible = EVALUATIONS.filter(e => finished(e) && e.feasible === false).length;
  fact("Study", FIT ? "parameter estimation" : "optimisation");
  fact("Netlist", S.netlist || "–");
  fact("Method", S.method || "–");
  fact("Seed", S.seed === null || S.seed === undefined ? "none" : String(S.seed));
  fact("Evaluations", fmtInt(EVALUATIONS.length) + (failed ? ", " + fmtInt(failed) + " failed" : "") +
                      (infeasible ? ", " + fmtInt(infeasible) + " infeasible" : ""));
  if (OBJECTIVES.length === 2) fact("Pareto points", fmtInt(PARETO.length));
  else if (BEST) fact("Best", "evaluation " + BEST.index + ": " + (FIT ? "cost " : "") + cell(score(BEST)));
  if (FIT && S.fit) fact("Residual std.", fmt(S.fit.residual_std, 4));
  // What the method said when it stopped, when the study kept it.
  if (typeof S.message === "string" && S.message) el("p", { class: "message" }, head, S.message);
  const warnings = S.warnings || [];
  if (warnings.length) {
    const box = el("div", { class: "warnings", role: "alert" }, head);
    el("strong", {}, box, warnings.length === 1 ? "Warning" : warnings.length + " warnings");
    const list = el("ul", {}, box);
    for (const w of warnings) el("li", {}, list, w);
  }
}

// ---------------------------------------------------------------- convergence
// The best objective so far against the evaluation number, over every evaluation's own
// value; the fit's cost on a log scale when it is all positive (it falls by decades).
function buildConvergence(main, best) {
  const section = el("section", { id: "convergence" }, main);
  el("h2", {}, section, "Convergence");
  const card = el("figure", { class: "plot wide" }, section);
  legend(card, [["each", "each evaluation"], ["infeasible", "infeasible"], ["so-far", "best so far"],
                ["best", "best"]]);
  const s = plotSurface(card, 900, 300, { L: 74, R: 16, T: 10, B: 42 });
  s.svg.setAttribute("role", "img");
  s.svg.setAttribute("aria-label", "convergence: " + scoreTitle());
  const scores = EVALUATIONS.map(score);
  const x = linearAxis(EVALUATIONS.map(e => e.index), s.x0, s.x1);
  if (!extent(scores)) {
    drawAxes(s, x, linearAxis([], s.y1, s.y0), "evaluation", scoreTitle());
    return emptyNote(s, "no evaluation gave a value");
  }
  const logScale = FIT && scores.every(v => v === null || v > 0);
  const y = logScale ? logAxis(scores, s.y1, s.y0) : linearAxis(scores, s.y1, s.y0);
  drawAxes(s, x, y, "evaluation", scoreTitle() + (logScale ? " (log)" : ""));
  EVALUATIONS.forEach((e, k) => {
    if (scores[k] === null) return;
    sv("title", {}, mark(s.area, e, x.map(e.index), y.map(scores[k]), 2.6), evaluationText(e));
  });
  const [xs, ys] = bestSoFarSteps(best, score);
  sv("path", { class: "curve so-far", d: linePath(xs, ys, x.map, y.map) }, s.area);
  if (BEST && score(BEST) !== null)
    sv("title", {}, mark(s.area, BEST, x.map(BEST.index), y.map(score(BEST)), 5.5, "best"), "best: " + evaluationText(BEST));
}

// ---------------------------------------------------------------- parameters
// Each parameter's value against the evaluation number, within its bounds; for one
// objective, the best point so far's value as a step; the best point marked.
function buildParameters(main, best) {
  const section = el("section", { id: "parameters" }, main);
  el("h2", {}, section, "Parameters' path");
  const grid = el("div", { class: "plots params" }, section);
  for (const p of PARAMETERS) {
    const card = el("figure", { class: "plot" }, grid);
    el("h3", {}, card, withUnit(p.name, p.unit));
    const s = plotSurface(card, 440, 220, { L: 64, R: 12, T: 8, B: 38 });
    s.svg.setAttribute("role", "img");
    s.svg.setAttribute("aria-label", p.name + " against the evaluation number");
    const values = EVALUATIONS.map(e => parameterValue(e, p));
    const bounds = [num(p.low), num(p.high)].filter(v => v !== null);
    const x = linearAxis(EVALUATIONS.map(e => e.index), s.x0, s.x1);
    const y = linearAxis(values.concat(bounds), s.y1, s.y0);
    drawAxes(s, x, y, "evaluation", withUnit(p.name, p.unit));
    [["low", p.low], ["high", p.high]].forEach(([which, v]) => {
      if (num(v) === null) return;
      const line = sv("line", { class: "bound", x1: s.x0, x2: s.x1, y1: y.map(v).toFixed(1), y2: y.map(v).toFixed(1) }, s.area);
      sv("title", {}, line, which + " bound: " + fmt(v, 6));
    });
    if (FIT || OBJECTIVES.length === 1) {
      const [xs, ys] = bestSoFarSteps(best, e => parameterValue(e, p));
      sv("path", { class: "curve so-far", d: linePath(xs, ys, x.map, y.map) }, s.area);
    }
    EVALUATIONS.forEach((e, k) => {
      if (values[k] === null) return;
      sv("title", {}, mark(s.area, e, x.map(e.index), y.map(values[k]), 2.4), evaluationText(e));
    });
    if (BEST && parameterValue(BEST, p) !== null)
      sv("title", {}, mark(s.area, BEST, x.map(BEST.index), y.map(parameterValue(BEST, p)), 5.5, "best"),
         "best: " + evaluationText(BEST));
  }
  if (!PARAMETERS.length) el("p", { class: "muted" }, section, "The study has no parameter.");
}

// ---------------------------------------------------------------- Pareto front
// Objective 1 against objective 2: every feasible evaluation, the infeasible ones hollow,
// the Pareto points joined; a Pareto point with a report opens it. Then their table.
function buildPareto(main) {
  const section = el("section", { id: "pareto" }, main);
  el("h2", {}, section, "Pareto front");
  const [o1, o2] = OBJECTIVES;
  const card = el("figure", { class: "plot pareto" }, section);
  legend(card, [["each", "feasible"], ["infeasible", "infeasible"], ["front", "Pareto point (click: its report)"]]);
  const s = plotSurface(card, 640, 440, { L: 74, R: 16, T: 10, B: 42 });
  s.svg.setAttribute("role", "img");
  s.svg.setAttribute("aria-label", o2.name + " against " + o1.name);
  const drawn = EVALUATIONS.filter(e => objectiveValue(e, 0) !== null && objectiveValue(e, 1) !== null);
  const x = linearAxis(drawn.map(e => objectiveValue(e, 0)), s.x0, s.x1);
  const y = linearAxis(drawn.map(e => objectiveValue(e, 1)), s.y1, s.y0);
  drawAxes(s, x, y, objectiveTitle(o1), objectiveTitle(o2));
  if (!drawn.length) emptyNote(s, "no evaluation gave both objectives");
  for (const e of drawn) {
    if (ON_FRONT.has(e)) continue;
    sv("title", {}, mark(s.area, e, x.map(objectiveValue(e, 0)), y.map(objectiveValue(e, 1)), 3), evaluationText(e));
  }
  const front = PARETO.filter(e => drawn.includes(e)).sort((a, b) => objectiveValue(a, 0) - objectiveValue(b, 0));
  sv("path", { class: "curve front", d: linePath(front.map(e => objectiveValue(e, 0)), front.map(e => objectiveValue(e, 1)),
                                                   x.map, y.map) }, s.area);
  for (const e of front) {
    const link = relativeLink(e.report);
    const parent = link ? sv("a", { href: link, class: "report-link" }, s.area) : s.area;
    sv("title", {}, mark(parent, e, x.map(objectiveValue(e, 0)), y.map(objectiveValue(e, 1)), 5, "front"),
       evaluationText(e) + (link ? " — click to open its report" : ""));
  }
  const left = EVALUATIONS.length - drawn.length;
  if (left) el("p", { class: "muted" }, section, left + " evaluation" + (left === 1 ? "" : "s") +
                                                  " without both objectives (failed) not drawn.");

  el("h3", {}, section, "Pareto points");
  const head = ["evaluation"].concat(PARAMETERS.map(p => withUnit(p.name, p.unit)), OBJECTIVES.map(objectiveTitle), ["report"]);
  const rows = front.map(e => [String(e.index)].concat(PARAMETERS.map(p => cell(parameterValue(e, p))),
                                                        OBJECTIVES.map((o, k) => cell(objectiveValue(e, k))), [""]));
  const t = table(el("div", { class: "wide" }, section), head, rows,
                  head.map((h, k) => k < head.length - 1));
  t.className = "pareto-points";
  front.forEach((e, k) => {
    const link = relativeLink(e.report), td = t.tBodies[0].rows[k].cells[head.length - 1];
    if (link) el("a", { href: link }, td, "report");
    else td.textContent = "–";
  });
}

// ---------------------------------------------------------------- fit
// Each signal: the measured points and the fitted curve against time, the residuals
// under them, one hover readout on both. Then the estimates and their correlation.
function buildSignal(grid, signal) {
  const card = el("figure", { class: "plot fit" }, grid);
  el("h3", {}, card, withUnit(signal.variable, signal.unit));
  legend(card, [["measured", "measured"], ["fitted", "fitted"], ["residual", "residual"]]);
  const tip = el("div", { class: "tip" }, card);
  const top = plotSurface(card, 760, 250, { L: 74, R: 16, T: 8, B: 10 }, tip);
  const bottom = plotSurface(card, 760, 140, { L: 74, R: 16, T: 4, B: 40 }, tip);
  top.svg.setAttribute("role", "img");
  top.svg.setAttribute("aria-label", signal.variable + ": measured and fitted");
  bottom.svg.setAttribute("role", "img");
  bottom.svg.setAttribute("aria-label", signal.variable + ": residuals");
  const time = (signal.time || []).map(num), measured = (signal.measured || []).map(num);
  const fitted = (signal.fitted || []).map(num), residual = (signal.residual || []).map(num);
  const x = linearAxis(time, top.x0, top.x1, false);
  const y = linearAxis(measured.concat(fitted), top.y1, top.y0);
  const r = linearAxis(residual.concat([0]), bottom.y1, bottom.y0);
  drawTicks(top, { list: x.ticks.list }, x.map, y.ticks, y.map);  // (times labelled under the residuals)
  axisTitles(top, "", withUnit(signal.variable, signal.unit));
  drawAxes(bottom, x, r, "time [s]", withUnit("residual", signal.unit));
  // Points as round caps of zero-length strokes: one element for thousands of samples.
  const dots = (values, px, py) => {
    let d = "";
    values.forEach((v, i) => {
      if (v !== null && time[i] !== null) d += "M" + px(time[i]).toFixed(1) + " " + py(v).toFixed(1) + "h0";
    });
    return d;
  };
  sv("line", { class: "zero", x1: bottom.x0, x2: bottom.x1, y1: r.map(0).toFixed(1), y2: r.map(0).toFixed(1) }, bottom.area);
  sv("path", { class: "dots measured", d: dots(measured, x.map, y.map) }, top.area);
  sv("path", { class: "curve fitted", d: linePath(time, fitted, x.map, y.map) }, top.area);
  sv("path", { class: "dots residual", d: dots(residual, x.map, r.map) }, bottom.area);
  // The readout at the nearest sample (the times are in order).
  const leave = () => { hideHover(top); hideHover(bottom); };
  const sorted = time.every((t, i) => t !== null && (i === 0 || t >= time[i - 1]));
  for (const s of [top, bottom]) {
    s.svg.addEventListener("mouseleave", leave);
    s.svg.addEventListener("mousemove", ev => {
      const px = pointer(s, ev)[0];
      if (!sorted || !time.length || px < s.x0 || px > s.x1) return leave();
      const lo = time[0], hi = time[time.length - 1];
      const i = nearest(time, lo + (px - s.x0) / (s.x1 - s.x0) * (hi - lo));
      const cx = x.map(time[i]);
      moveCursor(top, cx); moveCursor(bottom, cx);
      if (measured[i] !== null) sv("circle", { class: "hover measured", cx: cx, cy: y.map(measured[i]), r: 3 }, top.dots);
      if (fitted[i] !== null) sv("circle", { class: "hover fitted", cx: cx, cy: y.map(fitted[i]), r: 3 }, top.dots);
      const unit = signal.unit ? " " + signal.unit : "";
      showTip(s, ev, [["t = " + fmt(time[i], 6) + " s"], ["measured " + fmt(measured[i], 6) + unit],
                      ["fitted " + fmt(fitted[i], 6) + unit], ["residual " + fmt(residual[i], 4) + unit]]);
    });
  }
}

function buildFit(main) {
  const F = S.fit;
  const section = el("section", { id: "fit" }, main);
  el("h2", {}, section, "Fit");
  el("p", { class: "muted" }, section, "Residual standard deviation " + fmt(F.residual_std, 4) + ", " +
     fmtInt(F.dof) + " degrees of freedom, cost " + fmt(F.cost, 6) + ".");
  const grid = el("div", { class: "plots signals" }, section);
  for (const signal of F.signals || []) buildSignal(grid, signal);

  const names = F.names || PARAMETERS.map(p => p.name);
  const units = new Map(PARAMETERS.map(p => [p.name, p.unit]));
  const level = num(F.confidence) !== null ? fmt(100 * F.confidence, 4) + " %" : "";
  const get = (map, name) => (map && name in map ? map[name] : null);
  el("h3", {}, section, "Estimates");
  const head = ["parameter", "estimate", "std. error", "rel. std. error", level + " interval low", level + " interval high"];
  const rows = names.map(name => {
    const estimate = num(get(F.estimates, name)), error = num(get(F.std_errors, name));
    const interval = get(F.intervals, name) || [null, null];
    const relative = estimate !== null && error !== null && estimate !== 0 ? fmt(100 * error / Math.abs(estimate), 3) + " %" : "NaN";
    return [withUnit(name, units.get(name)), cell(estimate), cell(error), relative, cell(interval[0]), cell(interval[1])];
  });
  table(el("div", { class: "wide" }, section), head, rows, head.map((h, k) => k > 0)).className = "estimates";

  const R = F.correlation || [];
  if (!R.length) return;
  el("h3", {}, section, "Correlation of the estimates");
  const t = table(el("div", { class: "wide" }, section), [""].concat(names),
                  names.map((name, i) => [name].concat(names.map((n, j) => fmt(num((R[i] || [])[j]), 3)))),
                  [false].concat(names.map(() => true)));
  t.className = "correlation";
  // The cells shaded by |r|: near 1, the two parameters are hard to tell apart from these
  // measurements.
  names.forEach((n, i) => names.forEach((m, j) => {
    const v = num((R[i] || [])[j]), td = t.tBodies[0].rows[i].cells[j + 1];
    if (v === null) return;
    td.setAttribute("style", "background:rgba(37,99,235," + (0.55 * Math.min(1, Math.abs(v))).toFixed(3) + ")");
    if (i !== j && Math.abs(v) >= 0.9) td.classList.add("strong");
  }));
  el("p", { class: "muted" }, section, "Cells shaded by |r|; above 0.9 (bold), the two parameters are hard to tell apart " +
                                       "from these measurements.");
}

// ---------------------------------------------------------------- evaluations
function buildEvaluations(main) {
  const section = el("section", { id: "evaluations" }, main);
  el("h2", {}, section, "Evaluations");
  const links = EVALUATIONS.some(e => relativeLink(e.report));
  const scores = FIT ? ["cost"] : OBJECTIVES.map(objectiveTitle);
  const head = ["evaluation"].concat(PARAMETERS.map(p => withUnit(p.name, p.unit)), scores,
                                     CONSTRAINTS.map(constraintTitle), ["feasible", "status", "error"], links ? ["report"] : []);
  const numeric = head.map((h, k) => k < 1 + PARAMETERS.length + scores.length + CONSTRAINTS.length);
  const rows = EVALUATIONS.map(e => [String(e.index)].concat(
      PARAMETERS.map(p => cell(parameterValue(e, p))),
      FIT ? [cell(e.cost)] : OBJECTIVES.map((o, k) => cell(objectiveValue(e, k))),
      CONSTRAINTS.map((c, k) => cell(e.constraints ? e.constraints[k] : null)),
      [e.feasible === false ? "no" : "yes", e.status || "", e.error || ""], links ? [""] : []));
  const t = table(el("div", { class: "wide" }, section), head, rows, numeric);
  t.className = "evaluations";
  const errorColumn = head.indexOf("error"), first = 1 + PARAMETERS.length + scores.length;
  EVALUATIONS.forEach((e, k) => {
    const row = t.tBodies[0].rows[k];
    row.setAttribute("data-index", e.index);
    row.setAttribute("data-status", e.status || "");
    if (!finished(e)) row.classList.add("failed");
    else if (e.feasible === false) row.classList.add("infeasible");
    if (e === BEST) row.classList.add("best");
    if (ON_FRONT.has(e)) row.classList.add("front");
    rows[k].forEach((c, j) => { if (c === "NaN" && numeric[j]) row.cells[j].classList.add("nan"); });
    CONSTRAINTS.forEach((c, j) => {
      if (violates(c, num(e.constraints ? e.constraints[j] : null))) row.cells[first + j].classList.add("violated");
    });
    row.cells[errorColumn].classList.add("error");
    const link = relativeLink(e.report);
    if (link) el("a", { href: link }, row.cells[head.length - 1], "report");
  });
  if (!EVALUATIONS.length) el("p", { class: "muted" }, section, "No evaluation.");
  else el("p", { class: "muted" }, section, (BEST ? "Bold: the best point. " : "") +
          (PARETO.length ? "A blue bar: a Pareto point. " : "") + "Red rows failed, yellow ones broke a constraint.");
}

try {
  buildHeader();
  const main = document.getElementById("main");
  const best = incumbents();
  // Two objectives have a front, not a best: no convergence then (nor for more).
  if (OBJECTIVES.length === 2) buildPareto(main);
  else if (OBJECTIVES.length < 2) buildConvergence(main, best);
  if (FIT && S.fit) buildFit(main);
  buildParameters(main, best);
  buildEvaluations(main);
  document.body.setAttribute("data-report-ready", "1");
} catch (e) {
  reportError(String((e && e.stack) || e));
}
