// Jourdain's sweep page: the script of sweep.html (apps/page/README.md), over the
// toolkit's plot.js. It reads the data apps/python/jourdain/sweep_page.py writes (the
// study's title, notes and run counts; one scatter plot per output and parameter, with
// the finished runs' points; the table of every run, its cells written already) and
// builds the header, the plots and the table.
"use strict";
const D = pageData();

function buildHeader() {
  const head = document.getElementById("head");
  el("h1", {}, head, D.name);
  if (D.notes.length) {
    const notes = el("ul", { class: "notes" }, head);
    for (const note of D.notes) el("li", {}, notes, note);
  }
  el("p", { class: "counts" }, head, D.counts);
}

// The range [lo, hi] of values with a twentieth of it added either side, so that no
// point sits on the frame (niceTicks widens a single value itself).
function paddedRange(values) {
  let lo = Math.min.apply(null, values), hi = Math.max.apply(null, values);
  const pad = (hi - lo) / 20;
  return pad > 0 ? [lo - pad, hi + pad] : [lo, hi];
}

// One output against one parameter: a point per finished run (its run, parameter and
// output in a tooltip), joined in parameter order when the study has one parameter.
function buildScatter(grid, plot) {
  const card = el("figure", { class: "plot" }, grid);
  const s = plotSurface(card, 420, 300, { L: 70, R: 14, T: 12, B: 42 });
  s.svg.setAttribute("role", "img");
  s.svg.setAttribute("aria-label", plot.y + " vs " + plot.x);
  if (!plot.points.length) {
    axisTitles(s, plot.x, plot.y);
    sv("text", { class: "empty", x: (s.x0 + s.x1) / 2, y: (s.y0 + s.y1) / 2, "text-anchor": "middle" }, s.svg,
       "no finished run");
    return;
  }
  const points = plot.points.slice().sort((a, b) => a[1] - b[1]);
  const xs = points.map(p => p[1]), ys = points.map(p => p[2]);
  const [xlo, xhi] = paddedRange(xs), [ylo, yhi] = paddedRange(ys);
  const xt = niceTicks(xlo, xhi, 5), yt = niceTicks(ylo, yhi, 5);
  // niceTicks widens a degenerate range: the axes span what it chose.
  const x0 = Math.min(xlo, xt.list[0]), x1 = Math.max(xhi, xt.list[xt.list.length - 1]);
  const y0 = Math.min(ylo, yt.list[0]), y1 = Math.max(yhi, yt.list[yt.list.length - 1]);
  const px = v => s.x0 + (x1 > x0 ? (v - x0) / (x1 - x0) : 0.5) * (s.x1 - s.x0);
  const py = v => s.y1 - (y1 > y0 ? (v - y0) / (y1 - y0) : 0.5) * (s.y1 - s.y0);
  drawTicks(s, xt, px, yt, py);
  axisTitles(s, plot.x, plot.y);
  if (plot.join && points.length > 1) sv("path", { class: "curve", d: linePath(xs, ys, px, py) }, s.area);
  for (const [run, x, y] of points) {
    const dot = sv("circle", { class: "pt", cx: px(x).toFixed(1), cy: py(y).toFixed(1), r: 3.5 }, s.area);
    sv("title", {}, dot, "run " + run + ": " + plot.x + " = " + fmt(x, 6) + ", " + plot.y + " = " + fmt(y, 6));
  }
}

function buildPlots(main) {
  el("h2", {}, main, "Outputs against parameters");
  const grid = el("section", { class: "plots sweep", style: "--columns:" + Math.max(1, D.columns) }, main);
  for (const plot of D.plots) buildScatter(grid, plot);
}

function buildRuns(main) {
  el("h2", {}, main, "Runs");
  const t = table(el("div", { class: "wide" }, main), D.table.head, D.table.rows.map(r => r.cells),
                  D.table.numeric);
  t.className = "runs";
  const rows = t.tBodies[0].rows;
  D.table.rows.forEach((r, k) => {
    rows[k].setAttribute("data-status", r.status);
    if (r.failed) rows[k].className = "failed";
    r.cells.forEach((c, j) => { if (c === "NaN") rows[k].cells[j].classList.add("nan"); });
  });
  if (D.table.error_column >= 0)
    for (const row of rows) row.cells[D.table.error_column].classList.add("error");
}

try {
  buildHeader();
  const main = document.getElementById("main");
  buildPlots(main);
  buildRuns(main);
  document.body.setAttribute("data-report-ready", "1");
} catch (e) {
  reportError(String((e && e.stack) || e));
}
