// Where things are on the canvas: a placed symbol's box and ports, and the orthogonal
// route of a wire between two ports.
import { Dir, Symbol, dirVector, orient, orientDir } from "./symbols";

export type Pt = [number, number];

export interface Placed {
  x: number;
  y: number;
  rotation: number;
  flip: string;
  sym: Symbol;
}

export const LABEL_ROOM = 16;  // above a symbol, for its name

// The symbol's extent around its centre (body and port spots), in its own frame.
export function localBox(sym: Symbol): { x0: number; y0: number; x1: number; y1: number } {
  let x0 = -sym.w / 2, x1 = sym.w / 2, y0 = -sym.h / 2, y1 = sym.h / 2;
  for (const k in sym.spots) {
    const s = sym.spots[k];
    x0 = Math.min(x0, s.x); x1 = Math.max(x1, s.x); y0 = Math.min(y0, s.y); y1 = Math.max(y1, s.y);
  }
  return { x0, y0, x1, y1 };
}

// The same after rotation and flip, relative to the centre.
export function orientedBox(p: Placed): { x0: number; y0: number; x1: number; y1: number } {
  const b = localBox(p.sym);
  const a = orient(b.x0, b.y0, p.rotation, p.flip), c = orient(b.x1, b.y1, p.rotation, p.flip);
  return { x0: Math.min(a[0], c[0]), y0: Math.min(a[1], c[1]), x1: Math.max(a[0], c[0]), y1: Math.max(a[1], c[1]) };
}

// A port's spot on the canvas and the way it faces; null for a port the symbol lacks.
export function portSpot(p: Placed, port: string): { at: Pt; dir: Dir } | null {
  const s = p.sym.spots[port];
  if (!s) return null;
  const o = orient(s.x, s.y, p.rotation, p.flip);
  return { at: [p.x + o[0], p.y + o[1]], dir: orientDir(s.dir, p.rotation, p.flip) };
}

const horizontal = (d: Dir) => d === "left" || d === "right";

// Corners between two port spots when the layout gives none: out of each port by a
// stub, then one or two bends.
export function autoRoute(a: Pt, da: Dir, b: Pt, db: Dir): Pt[] {
  const va = dirVector(da), vb = dirVector(db), out = 12;
  const a0: Pt = [a[0] + va[0] * out, a[1] + va[1] * out], b0: Pt = [b[0] + vb[0] * out, b[1] + vb[1] * out];
  let mid: Pt[];
  if (horizontal(da) && horizontal(db)) {
    // Facing each other with room between: one vertical run halfway.
    const facing = (da === "right" && b[0] > a[0]) || (da === "left" && b[0] < a[0]);
    if (facing && da !== db) { const mx = (a[0] + b[0]) / 2; mid = [[mx, a[1]], [mx, b[1]]]; }
    else if (da === db) { const x = da === "right" ? Math.max(a0[0], b0[0]) : Math.min(a0[0], b0[0]); mid = [[x, a[1]], [x, b[1]]]; }
    else { const my = (a[1] + b[1]) / 2; mid = [a0, [a0[0], my], [b0[0], my], b0]; }
  } else if (!horizontal(da) && !horizontal(db)) {
    const facing = (da === "bottom" && b[1] > a[1]) || (da === "top" && b[1] < a[1]);
    if (facing && da !== db) { const my = (a[1] + b[1]) / 2; mid = [[a[0], my], [b[0], my]]; }
    else if (da === db) { const y = da === "bottom" ? Math.max(a0[1], b0[1]) : Math.min(a0[1], b0[1]); mid = [[a[0], y], [b[0], y]]; }
    else { const mx = (a[0] + b[0]) / 2; mid = [a0, [mx, a0[1]], [mx, b0[1]], b0]; }
  } else if (horizontal(da)) {
    mid = [[b[0], a[1]]];
  } else {
    mid = [[a[0], b[1]]];
  }
  return simplify([a, ...mid, b]).slice(1, -1);
}

// The full polyline a → corners → b, with a bend added wherever two successive points
// are not on a horizontal or vertical line (a layout written for other port spots).
export function wirePolyline(a: Pt, da: Dir, corners: Pt[], b: Pt): Pt[] {
  const pts: Pt[] = [a];
  let lastHorizontal = horizontal(da);
  for (const q of [...corners, b]) {
    const p = pts[pts.length - 1];
    if (Math.abs(p[0] - q[0]) > 0.5 && Math.abs(p[1] - q[1]) > 0.5) {
      // Keep going the way the last segment went, then turn.
      pts.push(lastHorizontal ? [q[0], p[1]] : [p[0], q[1]]);
      lastHorizontal = !lastHorizontal;
    } else if (Math.abs(p[0] - q[0]) > 0.5) lastHorizontal = true;
    else if (Math.abs(p[1] - q[1]) > 0.5) lastHorizontal = false;
    pts.push(q);
  }
  return simplify(pts);
}

// Without repeated points and without middle points of straight runs.
export function simplify(pts: Pt[]): Pt[] {
  const out: Pt[] = [];
  for (const p of pts) {
    const q = out[out.length - 1];
    if (q && Math.abs(q[0] - p[0]) < 0.01 && Math.abs(q[1] - p[1]) < 0.01) continue;
    if (out.length >= 2) {
      const r = out[out.length - 2];
      const straight = (Math.abs(r[0] - q[0]) < 0.01 && Math.abs(q[0] - p[0]) < 0.01) ||
                       (Math.abs(r[1] - q[1]) < 0.01 && Math.abs(q[1] - p[1]) < 0.01);
      if (straight) { out[out.length - 1] = p; continue; }
    }
    out.push(p);
  }
  return out;
}

export function pathData(pts: Pt[]): string {
  return pts.map((p, k) => (k ? "L" : "M") + Math.round(p[0] * 10) / 10 + " " + Math.round(p[1] * 10) / 10).join(" ");
}
