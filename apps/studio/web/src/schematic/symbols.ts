// The symbols: for each component, its size, where its ports sit (in the symbol's own
// frame, centre at 0,0, y down, before rotation and flip) and how its body is drawn.
// Units are canvas units (grid 10). A port's spot is where a wire attaches: the end of
// a short stub out of the body, on the side the port faces.
import { ComponentInfo, PortInfo } from "./model";
import { svg } from "./svg";

export type Dir = "left" | "right" | "top" | "bottom";
export interface Spot { x: number; y: number; dir: Dir }

export interface Symbol {
  w: number;                       // body's bounding box (without the stubs)
  h: number;
  spots: Record<string, Spot>;
  draw: (g: SVGGElement) => void;  // the body, in the symbol's frame
  kind: string;                    // what was drawn ("generic" for the labelled box)
}

const STUB = 10;
const PITCH = 20;  // between ports along a side

// ---------------------------------------------------------------- port placement
function spotOn(dir: Dir, k: number, count: number, w: number, h: number): Spot {
  const off = (k - (count - 1) / 2) * PITCH;
  switch (dir) {
    case "left": return { x: -w / 2 - STUB, y: off, dir };
    case "right": return { x: w / 2 + STUB, y: off, dir };
    case "top": return { x: off, y: -h / 2 - STUB, dir };
    default: return { x: off, y: h / 2 + STUB, dir };
  }
}

// Which side each port faces when no symbol says: signal inputs left, outputs right;
// the physical ports split left and right (top and bottom when signals take the sides).
export function defaultSides(ports: PortInfo[]): Record<Dir, string[]> {
  const sides: Record<Dir, string[]> = { left: [], right: [], top: [], bottom: [] };
  const signals = ports.filter(p => p.domain === "signal");
  const physical = ports.filter(p => p.domain !== "signal");
  for (const p of signals) (p.side === "response" ? sides.left : sides.right).push(p.name);
  const half = Math.ceil(physical.length / 2);
  physical.forEach((p, k) => {
    if (signals.length) (k < half ? sides.top : sides.bottom).push(p.name);
    else (k < half ? sides.left : sides.right).push(p.name);
  });
  return sides;
}

// Spots for the sides' lists on a w × h body, growing it so that every port fits.
function placeSides(sides: Record<Dir, string[]>, w: number, h: number): { w: number; h: number; spots: Record<string, Spot> } {
  const vertical = Math.max(sides.left.length, sides.right.length);
  const horizontal = Math.max(sides.top.length, sides.bottom.length);
  h = Math.max(h, vertical * PITCH);
  w = Math.max(w, horizontal * PITCH);
  const spots: Record<string, Spot> = {};
  for (const dir of ["left", "right", "top", "bottom"] as Dir[])
    sides[dir].forEach((name, k) => { spots[name] = spotOn(dir, k, sides[dir].length, w, h); });
  return { w, h, spots };
}

// Ports a symbol did not place itself (a component's heat port, an actuated
// spring's force): on a side the symbol left free when there is one, else further
// along the side the default rule names.
function completeSpots(sym: Symbol, ports: PortInfo[]): Symbol {
  const missing = ports.filter(p => !sym.spots[p.name]);
  if (!missing.length) return sym;
  const used: Record<Dir, Spot[]> = { left: [], right: [], top: [], bottom: [] };
  for (const name in sym.spots) used[sym.spots[name].dir].push(sym.spots[name]);
  const sides = defaultSides(missing);
  const out: Symbol = { ...sym, spots: { ...sym.spots } };
  for (const dir of ["left", "right", "top", "bottom"] as Dir[]) {
    const list = sides[dir];
    if (!list.length) continue;
    const free = ([dir, "bottom", "top", "left", "right"] as Dir[]).find(d => !used[d].length);
    if (free) {
      list.forEach((name, k) => { out.spots[name] = spotOn(free, k, list.length, out.w, out.h); });
      used[free].push(...list.map(name => out.spots[name]));
      continue;
    }
    const along = dir === "left" || dir === "right" ? "y" : "x";
    let last = Math.max(...used[dir].map(s => s[along]));
    for (const name of list) {
      const s = spotOn(dir, 0, 1, out.w, out.h);
      s[along] = last += PITCH;
      out.spots[name] = s;
      used[dir].push(s);
    }
  }
  return out;
}

// ---------------------------------------------------------------- drawing helpers
type G = SVGGElement;
const line = (g: G, d: string, cls = "sym-line") => svg("path", { d, class: cls }, g);
const box = (g: G, w: number, h: number, r = 2, cls = "sym-body") =>
  svg("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: r, class: cls }, g);
const text = (g: G, x: number, y: number, t: string, cls = "sym-text") =>
  svg("text", { x, y, class: cls, "text-anchor": "middle", "dominant-baseline": "central" }, g, t);

function zigzag(x0: number, x1: number, y: number, amp: number, teeth: number): string {
  const step = (x1 - x0) / teeth;
  let d = `M${x0} ${y}`;
  for (let k = 0; k < teeth; ++k) d += ` L${x0 + (k + 0.5) * step} ${y + (k % 2 ? amp : -amp)}`;
  return d + ` L${x1} ${y}`;
}
// The arrow of a setting (a variable orifice, pump or convection): from x0 y0 to x1 y1,
// its head at x1 y1, pointing up and right.
const adjustable = (g: G, x0: number, y0: number, x1: number, y1: number) =>
  line(g, `M${x0} ${y0} L${x1} ${y1} M${x1 - 6} ${y1} L${x1} ${y1} L${x1} ${y1 + 6}`, "sym-line sym-thin");
// Leads from the body's edge, where the stubs end, to a circle of radius r round the
// centre: for the ports the circle does not reach.
function leads(g: G, spots: Record<string, Spot>, w: number, h: number, r: number) {
  let d = "";
  for (const name in spots) {
    const s = spots[name];
    const across = s.dir === "left" || s.dir === "right" ? s.y : s.x;
    const edge = s.dir === "left" || s.dir === "right" ? w / 2 : h / 2;
    const inside = Math.round(10 * Math.sqrt(Math.max(0, r * r - across * across))) / 10;
    if (edge - inside < 0.1) continue;
    const sign = s.dir === "left" || s.dir === "top" ? -1 : 1;
    d += s.dir === "left" || s.dir === "right" ? `M${sign * edge} ${s.y} L${sign * inside} ${s.y}`
                                               : `M${s.x} ${sign * edge} L${s.x} ${sign * inside}`;
  }
  if (d) line(g, d);
}
// An electric machine (IEC 60617): a circle of radius 20 at cx with M, and under it
// what feeds it (= direct current, 3~ three-phase).
function machine(g: G, cx: number, feed: string) {
  svg("circle", { cx, r: 20, class: "sym-body sym-elec" }, g);
  text(g, cx, -4, "M", "sym-text sym-big");
  text(g, cx, 10, feed, "sym-text sym-small");
}
// A converter (IEC 60617): a box from x0 to x1 with its diagonal, what it takes above
// the diagonal and what it gives under it.
function converter(g: G, x0: number, x1: number, h: number, from: string, to: string) {
  svg("rect", { x: x0, y: -h / 2, width: x1 - x0, height: h, class: "sym-body sym-elec" }, g);
  line(g, `M${x0} ${h / 2} L${x1} ${-h / 2}`, "sym-line sym-thin");
  text(g, x0 + (x1 - x0) * 0.28, -h * 0.22, from, "sym-text sym-small");
  text(g, x0 + (x1 - x0) * 0.72, h * 0.22, to, "sym-text sym-small");
}
// A resistor (IEC 60617: a rectangle) from x0 to x1 on the axis.
const resistor = (g: G, x0: number, x1: number) =>
  svg("rect", { x: x0, y: -5, width: x1 - x0, height: 10, class: "sym-body sym-elec" }, g);
// An open contact from x0 to x1 on the axis: the blade lifted off the fixed contact.
const contact = (g: G, x0: number, x1: number) => line(g, `M${x0} 0 L${x0 + 6} 0 L${x1 - 4} -9 M${x1 - 6} 0 L${x1} 0`);
// Friction plates, a left of the gap and b right of it, from y0 to y1.
function plates(g: G, y0: number, y1: number) {
  for (const x of [-7, 3]) svg("rect", { x, y: y0, width: 4, height: y1 - y0, class: "sym-fill" }, g);
}
// The push of a command onto what it acts on, from the top of a body of height h.
const pressed = (g: G, h: number, y: number) =>
  line(g, `M0 ${-h / 2} L0 ${y} M-3 ${y - 5} L0 ${y} L3 ${y - 5}`, "sym-line sym-thin");
// A turning arrow left inside a circle of radius 15: a driver, an imposed speed or torque.
const TURN = "M-10 10 A14 14 0 0 1 -10 -10 M-10 -10 L-5 -9 M-10 -10 L-11 -5";
// A spring over a damper, between ends at x = ±20.
function springDamper(g: G) {
  line(g, "M-20 0 L-14 0 L-14 -7 M-14 0 L-14 7 M14 0 L20 0 L20 0 M14 -7 L14 7");
  line(g, zigzag(-14, 14, -7, 4, 6), "sym-line sym-thin");
  line(g, "M-14 7 L-2 7 M-2 3 L-2 11 M-6 2 L6 2 M-6 12 L6 12 M6 7 L14 7", "sym-line sym-thin");
}
// Ground hatching under a line from x0 to x1 at y.
function hatch(g: G, x0: number, x1: number, y: number) {
  line(g, `M${x0} ${y} L${x1} ${y}`, "sym-line sym-thick");
  let d = "";
  for (let x = x0 + 4; x <= x1 + 0.1; x += 6) d += `M${x} ${y} L${x - 6} ${y + 7}`;
  line(g, d, "sym-line sym-thin");
}

// ---------------------------------------------------------------- the drawn symbols
type Maker = (c: ComponentInfo) => Symbol;
const same = (w: number, h: number, spots: Record<string, Spot>, kind: string, draw: (g: G) => void): Symbol =>
  ({ w, h, spots, draw, kind });
const L = (w: number, y = 0): Spot => ({ x: -w / 2 - STUB, y, dir: "left" });
const R = (w: number, y = 0): Spot => ({ x: w / 2 + STUB, y, dir: "right" });
const T = (h: number, x = 0): Spot => ({ x, y: -h / 2 - STUB, dir: "top" });
const B = (h: number, x = 0): Spot => ({ x, y: h / 2 + STUB, dir: "bottom" });

// A component's signal inputs and outputs, and whether it has a port (an optional one).
const inputs = (c: ComponentInfo) => c.ports.filter(p => p.domain === "signal" && p.side === "response").map(p => p.name);
const outputs = (c: ComponentInfo) => c.ports.filter(p => p.domain === "signal" && p.side === "state").map(p => p.name);
const has = (c: ComponentInfo, port: string) => c.ports.some(p => p.name === port);
// Its signal input (a command), when it has one, at `at`: whether it has.
function placeInput(c: ComponentInfo, spots: Record<string, Spot>, at: Spot): boolean {
  const input = inputs(c)[0];
  if (input) spots[input] = at;
  return !!input;
}

// Two ends (a and b, p and n) left and right of an element drawn between them, and its
// signal input (a switch's control, a clutch's command, an actuated spring's force), when
// it has one, on top: `draw` is told whether it has.
const twoTerminal = (ends: [string, string], w: number, h: number, kind: string, draw: (g: G, input: boolean) => void): Maker => c => {
  const spots: Record<string, Spot> = { [ends[0]]: L(w), [ends[1]]: R(w) };
  const input = placeInput(c, spots, T(h));
  return same(w, h, spots, kind, g => draw(g, input));
};
const twoEnds = (w: number, h: number, kind: string, draw: (g: G, input: boolean) => void) => twoTerminal(["a", "b"], w, h, kind, draw);

// A grounded point: its port on top of a hatched line.
const fixed = (port: string): Maker => () => same(40, 20, { [port]: T(20) }, "fixed", g => {
  line(g, "M0 -10 L0 0");
  hatch(g, -16, 16, 0);
});

// A source drawn as a circle of radius 15 round its glyph: its ports at `spots`, its
// signal input (the command of a source set by a signal), when it has one, on the left.
const circleSource = (kind: string, w: number, h: number, spots: Record<string, Spot>, glyph: (g: G) => void): Maker => c => {
  const all = { ...spots };
  placeInput(c, all, L(w));
  return same(w, h, all, kind, g => {
    leads(g, all, w, h, 15);
    svg("circle", { r: 15, class: "sym-body" }, g);
    glyph(g);
  });
};
// A source turning a flange: its turning arrow and what it imposes.
const turning = (kind: string, label: string) => circleSource(kind, 30, 30, { flange: R(30) }, g => {
  text(g, 2, 0, label, "sym-text sym-italic");
  line(g, TURN, "sym-line sym-thin");
});

// A sensor: a dial and what it measures. The port measured left (and the other end right
// when it sits in line), its signals right (under it when in line).
const sensor = (label: string, kind: string): Maker => c => {
  const physical = c.ports.filter(p => p.domain !== "signal").map(p => p.name);
  const signals = c.ports.filter(p => p.domain === "signal").map(p => p.name);
  const inline = physical.length > 1;
  const pl = placeSides({ left: physical.slice(0, 1), right: inline ? physical.slice(1) : signals, top: [],
                          bottom: inline ? signals : [] }, 30, 30);
  return same(pl.w, pl.h, pl.spots, kind, g => {
    leads(g, pl.spots, pl.w, pl.h, 15);
    svg("circle", { r: 15, class: "sym-body" }, g);
    line(g, "M-11 -4 L-8 -3 M-6 -10 L-4.5 -7.5 M0 -12 L0 -9 M6 -10 L4.5 -7.5 M11 -4 L8 -3", "sym-line sym-thin");
    line(g, "M0 1 L6 -7", "sym-line");
    text(g, 0, 8, label, "sym-text sym-small sym-italic");
  });
};

// A drive: an inverter (the box: the DC bus left, its commands on top, what it measures
// under it) feeding a three-phase machine (the circle: its shaft right, its heat on top).
const drive = (kind: string): Maker => c => {
  const w = 120, h = 40;
  const spots: Record<string, Spot> = { dc_p: L(w, -10), dc_n: L(w, 10), shaft: R(w) };
  inputs(c).forEach((name, k) => { spots[name] = T(h, -50 + k * PITCH); });
  outputs(c).forEach((name, k) => { spots[name] = B(h, -50 + k * PITCH); });
  if (has(c, "heat")) spots.heat = T(h, 40);
  return same(w, h, spots, kind, g => {
    line(g, "M0 -6 L20 -6 M0 0 L20 0 M0 6 L20 6", "sym-line sym-thin");
    converter(g, -60, 0, h, "=", "~");
    machine(g, 40, "3~");
  });
};

const sourceGlyph = (shape: string): Maker => c => {
  const sides = defaultSides(c.ports);
  const p = placeSides(sides, 40, 40);
  return same(p.w, p.h, p.spots, "source", g => {
    box(g, p.w, p.h);
    line(g, shape, "sym-line sym-glyph");
  });
};
const labelled = (label: string, kind: string, w = 40, h = 40, draw?: (g: G, w: number, h: number) => void): Maker => c => {
  const p = placeSides(defaultSides(c.ports), w, h);
  return same(p.w, p.h, p.spots, kind, g => {
    box(g, p.w, p.h);
    if (draw) draw(g, p.w, p.h); else text(g, 0, 0, label, "sym-text sym-big");
  });
};

// A directional valve: `boxes` squares side by side, a, b on top and p, t under the
// middle one, the command on the left.
const valve = (boxes: number, kind: string): Maker => c => {
  const s = 30, w = boxes * s, h = s, mid = boxes === 3 ? 0 : boxes === 2 ? s / 2 : 0;
  const spots: Record<string, Spot> = {};
  const names = c.ports.map(p => p.name);
  if (names.includes("a")) spots.a = T(h, names.includes("b") ? mid - 10 : mid);
  if (names.includes("b")) spots.b = T(h, mid + 10);
  if (names.includes("p")) spots.p = B(h, names.includes("t") ? mid - 10 : mid);
  if (names.includes("t")) spots.t = B(h, mid + 10);
  if (names.includes("command")) spots.command = L(w);
  // A mobile section's LS tap under its right square; an open-centre section's bypass
  // through its middle, in under the left square and out over the right one.
  if (names.includes("ls")) spots.ls = B(h, mid + 30);
  if (names.includes("bypass_in")) spots.bypass_in = B(h, mid - 30);
  if (names.includes("bypass_out")) spots.bypass_out = T(h, mid + 30);
  return same(w, h, spots, kind, g => {
    for (let k = 0; k < boxes; ++k) svg("rect", { x: -w / 2 + k * s, y: -h / 2, width: s, height: s, class: "sym-body" }, g);
    // Arrows in the squares: crossed on the left, straight on the right.
    const x0 = -w / 2;
    if (boxes >= 2) {
      line(g, `M${x0 + 8} ${h / 2 - 3} L${x0 + 22} ${-h / 2 + 3} M${x0 + 22} ${h / 2 - 3} L${x0 + 8} ${-h / 2 + 3}`, "sym-line sym-thin");
      const xr = w / 2 - s;
      line(g, `M${xr + 8} ${h / 2 - 3} L${xr + 8} ${-h / 2 + 3} M${xr + 22} ${h / 2 - 3} L${xr + 22} ${-h / 2 + 3}`, "sym-line sym-thin");
    }
    if (boxes === 3 || boxes === 1) {
      const xm = boxes === 3 ? -s / 2 : -w / 2;
      line(g, `M${xm + 10} ${-h / 2} L${xm + 10} ${-h / 2 + 8} M${xm + 6} ${-h / 2 + 8} L${xm + 14} ${-h / 2 + 8}` +
              ` M${xm + 20} ${h / 2} L${xm + 20} ${h / 2 - 8} M${xm + 16} ${h / 2 - 8} L${xm + 24} ${h / 2 - 8}`, "sym-line sym-thin");
    }
    // Spring and actuator ends.
    line(g, zigzag(w / 2, w / 2 + 8, 0, 5, 3), "sym-line sym-thin");
    svg("rect", { x: -w / 2 - 7, y: -6, width: 7, height: 12, class: "sym-body" }, g);
  });
};

// The body's box spans the barrel and the rod out of it, so that the rod's port sits at
// the end of a stub off the box like every other port.
const cylinder = (ends: { a: string; b: string; base?: string; rod: string }, kind: string): Maker => c => {
  const w = 100, h = 30;
  const spots: Record<string, Spot> = { [ends.a]: B(h, -38), [ends.b]: B(h, 8), [ends.rod]: R(w) };
  if (ends.base) spots[ends.base] = L(w);
  if (has(c, "heat")) spots.heat = T(h, -20);
  return same(w, h, spots, kind, g => {
    svg("rect", { x: -50, y: -15, width: 60, height: 30, class: "sym-body" }, g);
    svg("rect", { x: -22, y: -13, width: 5, height: 26, class: "sym-fill" }, g);
    line(g, "M-17 0 L50 0", "sym-line sym-thick");
  });
};

// Where a hydraulic machine's optional ports go on its 30 × 30 circle (the pump's and
// the motor's makers).
function machineSpots(c: ComponentInfo, spots: Record<string, Spot>): Record<string, Spot> {
  const place: Record<string, Spot> = { shaft: B(30), speed: B(30, -8), torque: B(30, 8),
                                        displacement: T(30, -10), ls: T(30, 0), heat: T(30, 10) };
  for (const name in place) if (has(c, name)) spots[name] = place[name];
  return spots;
}

const MAKERS: Record<string, Maker> = {
  // ---- mechanical1d
  "mechanical1d.fixed": fixed("p"),
  "mechanical1d.mass": c => {
    const p = placeSides(defaultSides(c.ports), 50, 40);
    return same(p.w, p.h, p.spots, "mass", g => { box(g, p.w, p.h, 1, "sym-body sym-mass"); text(g, 0, 0, "m", "sym-text sym-big sym-italic"); });
  },
  "mechanical1d.spring": twoEnds(40, 20, "spring", g => {
    line(g, zigzag(-14, 14, 0, 7, 6) + " M-20 0 L-14 0 M14 0 L20 0");
  }),
  "mechanical1d.damper": twoEnds(40, 20, "damper", g => {
    line(g, "M-20 0 L-4 0 M-4 -8 L-4 8 M-10 -10 L8 -10 L8 10 L-10 10 M8 0 L20 0");
  }),
  "mechanical1d.force_source": c => {
    const p = placeSides({ left: ["f"], right: [], top: [], bottom: ["p"] }, 40, 30);
    return same(p.w, p.h, { ...p.spots }, "force_source", g => {
      box(g, p.w, p.h); line(g, "M-10 -4 L10 -4 M4 -9 L10 -4 L4 1", "sym-line"); text(g, 0, 8, "F", "sym-text sym-small");
    });
  },
  "mechanical1d.position_sensor": sensor("x", "position_sensor"),
  "mechanical1d.velocity_sensor": sensor("v", "velocity_sensor"),
  "mechanical1d.force_sensor": sensor("F", "force_sensor"),
  // ---- hydraulic
  "hydraulic.volume": c => {
    const sides: Record<"left" | "right" | "top" | "bottom", string[]> = { left: [], right: [], top: [], bottom: [] };
    const order: Dir[] = ["left", "right", "top", "bottom"];
    c.ports.forEach((p, k) => sides[order[k % 4]].push(p.name));
    const pl = placeSides(sides, 40, 30);
    return same(pl.w, pl.h, pl.spots, "volume", g => {
      box(g, pl.w, pl.h, 10, "sym-body sym-hyd");
      text(g, 0, 0, "V", "sym-text sym-big sym-italic");
    });
  },
  "hydraulic.orifice": c => {
    const spots: Record<string, Spot> = { a: L(30), b: R(30) };
    if (has(c, "opening")) spots.opening = T(20);  // "control": "signal"
    return same(30, 20, spots, "orifice", g => {
      line(g, "M-15 0 L15 0");
      line(g, "M-6 -10 Q0 -2 6 -10 M-6 10 Q0 2 6 10", "sym-line sym-thick");
      if (spots.opening) adjustable(g, -10, 9, 10, -11);
    });
  },
  // A machine's optional ports each have a place of their own: the drive (shaft, or
  // speed and torque as signals) under it, the displacement command, the LS line and
  // the heat port over it.
  "hydraulic.pump": c => same(30, 30, machineSpots(c, { inlet: L(30), outlet: R(30) }), "pump", g => {
    svg("circle", { r: 15, class: "sym-body" }, g);
    line(g, "M15 0 L6 -5 L6 5 Z", "sym-fill");
  }),
  "hydraulic.variable_pump": c => {
    const s = MAKERS["hydraulic.pump"](c);
    return { ...s, kind: "variable_pump", draw: g => { s.draw(g); adjustable(g, -14, 14, 14, -14); } };
  },
  "hydraulic.motor": c => same(30, 30, machineSpots(c, { a: L(30), b: R(30) }), "motor", g => {
    svg("circle", { r: 15, class: "sym-body" }, g);
    line(g, "M-15 0 L-6 -5 L-6 5 Z", "sym-fill");
    if (has(c, "shaft")) line(g, "M0 15 L0 22 M-3 19 L3 19", "sym-line sym-thin");
  }),
  "hydraulic.variable_motor": c => {
    const s = MAKERS["hydraulic.motor"](c);
    return { ...s, kind: "variable_motor", draw: g => { s.draw(g); adjustable(g, -14, 14, 14, -14); } };
  },
  "hydraulic.tank": () => same(30, 20, { p: T(20) }, "tank", g => {
    line(g, "M-15 -10 L-15 10 L15 10 L15 -10", "sym-line sym-thick");
    line(g, "M0 -10 L0 4");
  }),
  "hydraulic.relief_valve": () => same(30, 30, { p: L(30), t: R(30) }, "relief_valve", g => {
    box(g, 30, 30, 0);
    line(g, "M-15 5 L15 5 M9 1 L15 5 L9 9", "sym-line sym-thin");
    line(g, zigzag(-6, 10, -9, 4, 4), "sym-line sym-thin");
    line(g, "M-15 0 L-11 0 L-11 -9 L-6 -9", "sym-line sym-dash");
  }),
  "hydraulic.check_valve": () => same(30, 20, { a: L(30), b: R(30) }, "check_valve", g => {
    line(g, "M-15 0 L-6 0 M7 0 L15 0");
    svg("circle", { cx: -1, cy: 0, r: 5, class: "sym-body" }, g);
    line(g, "M9 -9 L3 0 L9 9", "sym-line sym-thick");
  }),
  "hydraulic.pilot_check_valve": () => same(30, 30, { a: L(30), b: R(30), x: B(30) }, "pilot_check_valve", g => {
    box(g, 30, 30, 0);
    line(g, "M-15 0 L-6 0 M7 0 L15 0");
    svg("circle", { cx: -1, cy: 0, r: 5, class: "sym-body" }, g);
    line(g, "M9 -9 L3 0 L9 9", "sym-line sym-thick");
    line(g, "M0 15 L0 6", "sym-line sym-dash");
  }),
  "hydraulic.counterbalance_valve": () => same(30, 30, { load: L(30), valve: R(30) }, "counterbalance_valve", g => {
    box(g, 30, 30, 0);
    line(g, "M-15 -5 L15 -5 M9 -9 L15 -5 L9 -1", "sym-line sym-thin");
    line(g, "M-15 6 L-4 6 M8 6 L15 6", "sym-line sym-thin");
    svg("circle", { cx: 1, cy: 6, r: 3.5, class: "sym-body" }, g);
  }),
  "hydraulic.tank_port": () => same(20, 20, {}, "tank", () => {}),
  "hydraulic.accumulator": () => same(24, 40, { p: B(40) }, "accumulator", g => {
    svg("rect", { x: -12, y: -20, width: 24, height: 40, rx: 12, class: "sym-body" }, g);
    line(g, "M-12 0 L12 0", "sym-line sym-thin");
    line(g, "M-3 -14 L0 -9 L3 -14 Z", "sym-fill");
  }),
  "hydraulic.pressure_source": circleSource("pressure_source", 30, 30, { p: R(30) }, g => text(g, 0, 0, "P", "sym-text sym-big")),
  "hydraulic.flow_source": circleSource("flow_source", 30, 30, { p: R(30) }, g => line(g, "M-9 0 L9 0 M3 -5 L9 0 L3 5", "sym-line")),
  "hydraulic.pressure_sensor": sensor("p", "pressure_sensor"),
  "hydraulic.flow_sensor": sensor("Q", "flow_sensor"),
  "hydraulic.power_sensor": sensor("P", "power_sensor"),
  "hydraulic.pipe": () => same(60, 14, { a: L(60), b: R(60) }, "pipe", g => {
    box(g, 60, 14, 7, "sym-body sym-hyd");
    line(g, "M-22 0 L22 0", "sym-line sym-dash");
  }),
  // A line carrying waves: the pipe's hose with the wave's sine drawn in it.
  "hydraulic.line": () => same(60, 14, { a: L(60), b: R(60) }, "line", g => {
    box(g, 60, 14, 7, "sym-body sym-hyd");
    line(g, "M-22 0 Q-16.5 -5 -11 0 T0 0 T11 0 T22 0", "sym-line sym-thin");
  }),
  "hydraulic.cylinder": cylinder({ a: "a", b: "b", rod: "rod" }, "cylinder"),
  "hydraulic.planar_cylinder": cylinder({ a: "a", b: "b", base: "base", rod: "rod" }, "planar_cylinder"),
  "hydraulic.valve_4_3": valve(3, "valve_4_3"),
  "hydraulic.proportional_valve": valve(3, "proportional_valve"),
  "hydraulic.valve_4_2": valve(2, "valve_4_2"),
  "hydraulic.valve_3_2": valve(2, "valve_3_2"),
  "hydraulic.valve_2_2": valve(2, "valve_2_2"),
  "hydraulic.ls_section": valve(3, "ls_section"),
  "hydraulic.open_centre_section": valve(3, "open_centre_section"),
  // A pressure compensator: a throttle whose spool two pilots (x opens, y shuts) and a
  // spring set, drawn as the relief valve's square with both pilot lines dashed.
  "hydraulic.pressure_compensator": c => same(30, 30,
    { a: L(30), b: R(30), x: B(30, -8), y: T(30, 8), ...(has(c, "heat") ? { heat: T(30, -8) } : {}) },
    "pressure_compensator", g => {
      box(g, 30, 30, 0);
      line(g, "M-15 0 L15 0 M9 -4 L15 0 L9 4", "sym-line sym-thin");
      line(g, "M-8 15 L-8 6 M8 -15 L8 -6", "sym-line sym-dash");
      line(g, zigzag(-12, 4, -9, 3, 4), "sym-line sym-thin");
    }),
  "hydraulic.pressure_reducing_valve": c => {
    const spots: Record<string, Spot> = { p: L(30), a: R(30) };
    if (has(c, "t")) spots.t = B(30, 8);
    if (has(c, "heat")) spots.heat = B(30, -8);
    if (has(c, "command")) spots.command = T(30);
    return same(30, 30, spots, "pressure_reducing_valve", g => {
      box(g, 30, 30, 0);
      line(g, "M-15 -3 L15 -3 M9 -7 L15 -3 L9 1", "sym-line sym-thin");
      line(g, "M15 -3 L11 -3 L11 9 L4 9", "sym-line sym-dash");
      line(g, zigzag(-12, 2, 9, 3, 4), "sym-line sym-thin");
    });
  },
  // The shuttle network: the inlets on the left, each through a ball seat, the
  // highest-pressure outlet on the right.
  "hydraulic.shuttle_valve": c => {
    const inlets = c.ports.filter(p => p.name.startsWith("in")).map(p => p.name);
    const pl = placeSides({ left: inlets, right: ["out"], top: [], bottom: [] }, 30, 30);
    return same(pl.w, pl.h, pl.spots, "shuttle_valve", g => {
      box(g, pl.w, pl.h, 0);
      for (const name of inlets) line(g, `M${-pl.w / 2} ${pl.spots[name].y} L-6 0`, "sym-line sym-thin");
      svg("circle", { cx: 0, cy: 0, r: 5, class: "sym-body" }, g);
      line(g, `M5 0 L${pl.w / 2} 0`, "sym-line sym-thin");
    });
  },
  "hydraulic.flow_divider": () => same(30, 40, { p: L(30), a: R(30, -10), b: R(30, 10) }, "flow_divider", g => {
    box(g, 30, 40, 0);
    line(g, "M-15 0 L-4 0 L4 -10 L15 -10 M-4 0 L4 10 L15 10", "sym-line sym-thin");
    line(g, "M-6 -4 L-2 4 M-6 4 L-2 -4", "sym-line sym-thin");
  }),
  // ---- signal
  "signal.gain": () => same(30, 30, { in: L(30), out: R(30) }, "gain", g => {
    line(g, "M-15 -15 L15 0 L-15 15 Z", "sym-body");
    text(g, -5, 0, "k", "sym-text sym-italic");
  }),
  "signal.sum": c => {
    const ins = c.ports.filter(p => p.side === "response").map(p => p.name);
    const outs = c.ports.filter(p => p.side === "state").map(p => p.name);
    if (ins.length <= 2) {
      const spots: Record<string, Spot> = {};
      if (ins[0]) spots[ins[0]] = L(30);
      if (ins[1]) spots[ins[1]] = B(30);
      outs.forEach(n => { spots[n] = R(30); });
      return same(30, 30, spots, "sum", g => { svg("circle", { r: 15, class: "sym-body" }, g); text(g, 0, 0, "Σ", "sym-text sym-big"); });
    }
    return labelled("Σ", "sum")(c);
  },
  "signal.product": labelled("×", "product"),
  "signal.integrator": labelled("∫", "integrator"),
  "signal.first_order_lag": labelled("", "first_order_lag", 50, 40, g => {
    text(g, 0, -7, "K", "sym-text sym-small"); line(g, "M-14 0 L14 0", "sym-line sym-thin"); text(g, 0, 8, "1+Ts", "sym-text sym-small");
  }),
  "signal.pid": labelled("PID", "pid", 50, 40),
  "signal.saturation": labelled("", "saturation", 40, 40, g => line(g, "M-12 8 L-5 8 L5 -8 L12 -8", "sym-line sym-glyph")),
  "signal.comparator": labelled("", "comparator", 40, 40, g =>
    line(g, "M-12 8 L4 8 L4 -8 M-4 8 L-4 -8 L12 -8", "sym-line sym-glyph")),
  "signal.table": labelled("", "table", 40, 40, g => line(g, "M-12 10 L-4 2 L4 4 L12 -10", "sym-line sym-glyph")),
  "signal.constant": sourceGlyph("M-12 0 L12 0"),
  "signal.step": sourceGlyph("M-12 8 L0 8 L0 -8 L12 -8"),
  "signal.ramp": sourceGlyph("M-12 8 L-4 8 L12 -8"),
  "signal.sine": sourceGlyph("M-12 0 C-8 -14 -4 -14 0 0 C4 14 8 14 12 0"),
  "signal.time_table": sourceGlyph("M-12 8 L-6 -2 L0 2 L6 -8 L12 -6"),
  "signal.input": labelled("", "input", 40, 30, (g, w, h) => line(g, `M${-w / 2} ${-h / 2} L${w / 2 - 10} ${-h / 2}`, "sym-none")),
  "signal.output": labelled("", "output", 40, 30, (g, w, h) => line(g, `M${-w / 2} ${-h / 2} L${w / 2 - 10} ${-h / 2}`, "sym-none")),
  // ---- planar mechanisms
  "mechanical.ground": c => {
    const names = c.ports.map(p => p.name);
    const w = Math.max(40, names.length * PITCH);
    const spots: Record<string, Spot> = {};
    names.forEach((n, k) => { spots[n] = spotOn("top", k, names.length, w, 10); });
    return same(w, 10, spots, "ground", g => {
      line(g, `M${-w / 2} -5 L${w / 2} -5`, "sym-none");
      hatch(g, -w / 2, w / 2, -5);
      for (const n in spots) line(g, `M${spots[n].x} -5 L${spots[n].x} -15`, "sym-line");
    });
  },
  "mechanical.revolute": () => same(30, 20, { a: L(30), b: R(30) }, "revolute", g => {
    line(g, "M-15 0 L-6 0 M6 0 L15 0");
    svg("circle", { r: 6, class: "sym-body sym-thick" }, g);
    svg("circle", { r: 1.8, class: "sym-fill" }, g);
  }),
  "mechanical.weld": () => same(30, 20, { a: L(30), b: R(30) }, "weld", g => {
    line(g, "M-15 0 L15 0");
    line(g, "M-5 -6 L5 6 M5 -6 L-5 6", "sym-line sym-thick");
  }),
  "mechanical.translational": () => same(40, 24, { a: L(40), b: R(40) }, "translational", g => {
    line(g, "M-20 -12 L20 -12 M-20 12 L20 12", "sym-line sym-thick");
    svg("rect", { x: -8, y: -7, width: 16, height: 14, class: "sym-body" }, g);
    line(g, "M-20 0 L-8 0 M8 0 L20 0");
  }),
  "mechanical.rod": () => same(40, 10, { a: L(40), b: R(40) }, "rod", g => {
    line(g, "M-20 0 L20 0", "sym-line sym-thick");
    svg("circle", { cx: -17, r: 3, class: "sym-body" }, g);
    svg("circle", { cx: 17, r: 3, class: "sym-body" }, g);
  }),
  "mechanical.spring_damper": twoEnds(40, 24, "spring_damper", springDamper),
  "mechanical.body": c => {
    const names = c.ports.map(p => p.name);
    const others = names.filter(n => n !== "cm");
    const sides: Record<Dir, string[]> = { left: [], right: [], top: [], bottom: [] };
    const order: Dir[] = ["left", "right", "top", "bottom"];
    others.forEach((n, k) => sides[others.length <= 2 ? order[k] : order[k % 4]].push(n));
    if (names.includes("cm")) sides.bottom.push("cm");
    const p = placeSides(sides, 60, 30);
    return same(p.w, p.h, p.spots, "body", g => {
      box(g, p.w, p.h, 8, "sym-body sym-planar");
      svg("circle", { r: 4.5, class: "sym-body" }, g);
      line(g, "M0 -4.5 A4.5 4.5 0 0 1 4.5 0 L0 0 Z M0 4.5 A4.5 4.5 0 0 1 -4.5 0 L0 0 Z", "sym-fill");
    });
  },
  // ---- rotational: flanges left and right, as along a drawn shaft
  "rotational.inertia": twoEnds(40, 40, "inertia", g => {
    line(g, "M-20 0 L-10 0 M10 0 L20 0", "sym-line sym-thick");
    box(g, 20, 32, 1, "sym-body sym-rot");
    text(g, 0, 0, "J", "sym-text sym-big sym-italic");
  }),
  "rotational.shaft": twoEnds(40, 24, "shaft", springDamper),
  // The driving wheel low on a's shaft, the driven one above it on b's.
  "rotational.gear": () => same(40, 48, { a: L(40, 10), b: R(40, -10) }, "gear", g => {
    line(g, "M-20 10 L-6 10 M6 -10 L20 -10", "sym-line sym-thick");
    svg("rect", { x: -6, y: 4, width: 12, height: 12, rx: 1, class: "sym-body sym-rot" }, g);
    svg("rect", { x: -6, y: -24, width: 12, height: 28, rx: 1, class: "sym-body sym-rot" }, g);
  }),
  "rotational.clutch": twoEnds(40, 40, "clutch", (g, input) => {
    line(g, "M-20 0 L-7 0 M7 0 L20 0", "sym-line sym-thick");
    plates(g, -14, 14);
    if (input) pressed(g, 40, -15);
  }),
  // One plate on the flange's shaft, the other held by the housing.
  "rotational.brake": c => {
    const spots: Record<string, Spot> = { flange: L(40) };
    const input = placeInput(c, spots, T(40));
    return same(40, 40, spots, "brake", g => {
      line(g, "M-20 0 L-7 0", "sym-line sym-thick");
      plates(g, -16, 8);
      line(g, "M5 8 L5 12");
      hatch(g, -2, 16, 12);
      if (input) pressed(g, 40, -17);
    });
  },
  "rotational.torque_source": turning("torque_source", "τ"),
  "rotational.speed_source": turning("speed_source", "ω"),
  "rotational.fixed": fixed("flange"),
  "rotational.motion_sensor": sensor("φ ω", "motion_sensor"),
  "rotational.torque_sensor": sensor("τ", "torque_sensor"),
  // A combustion engine: cylinder, piston, connecting rod and crank; the crankshaft
  // right, the set speed (when a signal gives it) left.
  "rotational.engine": c => {
    const spots: Record<string, Spot> = { flange: R(50, 10) };
    placeInput(c, spots, L(50));
    return same(50, 40, spots, "engine", g => {
      box(g, 50, 40, 3, "sym-body sym-rot");
      line(g, "M-9 3 L-9 -16 L9 -16 L9 3");
      svg("rect", { x: -7.5, y: -11, width: 15, height: 6, class: "sym-fill" }, g);
      line(g, "M0 -5 L4 7", "sym-line sym-thin");
      svg("circle", { cy: 10, r: 5, class: "sym-line sym-thin" }, g);
      line(g, "M0 10 L25 10", "sym-line sym-thick");
    });
  },
  // ---- electrical (IEC 60617): two-terminal elements p left, n right; sources and the
  // battery upright, p on top
  "electrical.ground": () => same(30, 20, { p: T(20) }, "ground", g => {
    line(g, "M0 -10 L0 0");
    line(g, "M-12 0 L12 0 M-7.5 4.5 L7.5 4.5 M-3 9 L3 9", "sym-line sym-thick");
  }),
  "electrical.node": () => same(10, 10, { p: T(10) }, "node", g => {
    line(g, "M0 -5 L0 0");
    svg("circle", { r: 3.5, class: "sym-fill" }, g);
  }),
  "electrical.resistor": twoTerminal(["p", "n"], 40, 20, "resistor", g => {
    line(g, "M-20 0 L-12 0 M12 0 L20 0");
    resistor(g, -12, 12);
  }),
  "electrical.inductor": twoTerminal(["p", "n"], 40, 20, "inductor", g =>
    line(g, "M-20 0 L-16 0 A4 4 0 0 1 -8 0 A4 4 0 0 1 0 0 A4 4 0 0 1 8 0 A4 4 0 0 1 16 0 L20 0")),
  "electrical.capacitor": twoTerminal(["p", "n"], 40, 20, "capacitor", g => {
    line(g, "M-20 0 L-3 0 M3 0 L20 0");
    line(g, "M-3 -9 L-3 9 M3 -9 L3 9", "sym-line sym-thick");
  }),
  "electrical.switch": twoTerminal(["p", "n"], 40, 20, "switch", (g, input) => {
    contact(g, -20, 20);
    if (input) line(g, "M0 -10 L0 -4", "sym-line sym-dash");
  }),
  // A brake resistor behind its chopper, the switch that puts it across the bus.
  "electrical.brake_chopper": twoTerminal(["p", "n"], 60, 20, "brake_chopper", g => {
    contact(g, -30, 0);
    resistor(g, 0, 22);
    line(g, "M22 0 L30 0");
  }),
  "electrical.voltage_source": circleSource("voltage_source", 30, 40, { p: T(40), n: B(40) }, g => {
    line(g, "M0 -15 L0 15");
    text(g, 7, -8, "+", "sym-text sym-small");
  }),
  "electrical.current_source": circleSource("current_source", 30, 40, { p: T(40), n: B(40) }, g => {
    line(g, "M-15 0 L15 0");
    line(g, "M0 10 L0 -9 M-3 -5 L0 -10 L3 -5", "sym-line sym-thin");
  }),
  // Two cells, each a long plate (+) over a short thick one; the heat drawn out right.
  "electrical.battery": c => {
    const spots: Record<string, Spot> = { p: T(40), n: B(40) };
    if (has(c, "heat")) spots.heat = R(40);
    return same(40, 40, spots, "battery", g => {
      line(g, "M0 -20 L0 -9 M0 -3 L0 3 M0 9 L0 20");
      line(g, "M-12 -9 L12 -9 M-12 3 L12 3", "sym-line sym-thin");
      line(g, "M-6 -3 L6 -3 M-6 9 L6 9", "sym-line sym-thick");
      text(g, 13, -15, "+", "sym-text sym-small");
      if (spots.heat) line(g, "M8 0 L20 0", "sym-line sym-dash");
    });
  },
  "electrical.dc_machine": c => {
    const spots: Record<string, Spot> = { p: L(40, -10), n: L(40, 10), shaft: R(40) };
    if (has(c, "heat")) spots.heat = B(40);
    return same(40, 40, spots, "dc_machine", g => {
      leads(g, spots, 40, 40, 20);
      machine(g, 0, "=");
    });
  },
  "electrical.dc_dc_converter": c => {
    const spots: Record<string, Spot> = { in_p: L(40, -10), in_n: L(40, 10), out_p: R(40, -10), out_n: R(40, 10) };
    placeInput(c, spots, T(40));
    return same(40, 40, spots, "dc_dc_converter", g => converter(g, -20, 20, 40, "=", "="));
  },
  "electrical.pmsm_drive": drive("pmsm_drive"),
  "electrical.map_machine": drive("map_machine"),
  "electrical.foc_controller": labelled("FOC", "foc_controller", 50, 40),
  // ---- thermal
  "thermal.heat_capacity": () => same(40, 40, { p: B(40) }, "heat_capacity", g => {
    box(g, 40, 40, 8, "sym-body sym-therm");
    text(g, 0, 0, "C", "sym-text sym-big sym-italic");
  }),
  "thermal.fixed_temperature": circleSource("fixed_temperature", 30, 30, { p: R(30) }, g => text(g, 0, 0, "T", "sym-text sym-big")),
  "thermal.heat_flow_source": circleSource("heat_flow_source", 30, 30, { p: R(30) }, g => {
    line(g, "M-9 4 L9 4 M3 -1 L9 4 L3 9", "sym-line");
    text(g, -1, -5, "Q", "sym-text sym-small sym-italic");
  }),
  "thermal.temperature_sensor": sensor("T", "temperature_sensor"),
  // A hatched block: what conducts.
  "thermal.conductance": twoEnds(40, 20, "conductance", g => {
    line(g, "M-20 0 L-12 0 M12 0 L20 0");
    box(g, 24, 12, 0, "sym-body sym-therm");
    line(g, "M-10 6 L-4 -6 M-4 6 L2 -6 M2 6 L8 -6", "sym-line sym-thin");
  }),
  // The wall on the left, the fluid streaming past it on the right.
  "thermal.convection": twoEnds(40, 30, "convection", (g, input) => {
    line(g, "M-20 0 L-10 0 M-6 0 L20 0");
    svg("rect", { x: -10, y: -12, width: 4, height: 24, class: "sym-fill" }, g);
    line(g, "M-2 -7 Q1 -10 4 -7 T10 -7 T16 -7 M-2 7 Q1 4 4 7 T10 7 T16 7", "sym-line sym-thin");
    if (input) adjustable(g, -1, 12, 15, -12);
  }),
  // Rays from a to b.
  "thermal.radiation": twoEnds(40, 20, "radiation", g => {
    line(g, "M-20 0 L-13 0 M-13 -5 L-13 5 M13 0 L20 0");
    line(g, zigzag(-13, 7, -5, 2.5, 6) + " " + zigzag(-13, 7, 5, 2.5, 6), "sym-line sym-thin");
    line(g, "M7 -8 L13 -5 L7 -2 Z M7 2 L13 5 L7 8 Z", "sym-fill");
  }),
};

// Drivers, forces and torques of the planar library: a circle with what they impose.
for (const [type, label] of [["driver_angle", "θ"], ["driver_x", "x"], ["driver_y", "y"], ["driver_distance", "d"],
                             ["driver_relative_angle", "Δθ"], ["driver_translational", "s"], ["force", "F"], ["torque", "T"]])
  MAKERS["mechanical." + type] = c => {
    const pl = placeSides(defaultSides(c.ports), 30, 30);
    return same(pl.w, pl.h, pl.spots, type, g => {
      svg("circle", { r: 15, class: "sym-body sym-planar" }, g);
      text(g, 0, 0, label, "sym-text sym-italic");
      if (type.startsWith("driver")) line(g, TURN, "sym-line sym-thin");
    });
  };

// ---------------------------------------------------------------- the generic box
// The type's short name inside, ports on its sides with their names.
export function genericSymbol(c: ComponentInfo): Symbol {
  const short = c.subsystem ? c.type : c.type.split(".").pop() || c.type;
  const sides = defaultSides(c.ports);
  const longest = (list: string[]) => list.reduce((m, s) => Math.max(m, s.length), 0);
  const w0 = Math.max(60, Math.ceil((short.length * 6.6 + (longest(sides.left) + longest(sides.right)) * 6 + 20) / 20) * 20);
  const p = placeSides(sides, w0, 40);
  const kind = c.subsystem ? "subsystem" : "generic";
  return same(p.w, p.h, p.spots, kind, g => {
    box(g, p.w, p.h, 3, c.subsystem ? "sym-body sym-subsystem" : "sym-body sym-generic");
    if (c.subsystem) svg("rect", { x: -p.w / 2 + 3, y: -p.h / 2 + 3, width: p.w - 6, height: p.h - 6, rx: 2, class: "sym-inner" }, g);
    text(g, 0, 0, short, "sym-text sym-type");
  });
}

const cache = new Map<string, Symbol>();

// The symbol of a component; the same object for the same type and ports.
// A level's component objects are replaced, never changed, when their ports change
// (render.ts relies on it too): each is looked up once.
const ofInfo = new WeakMap<ComponentInfo, Symbol>();
export function symbolFor(c: ComponentInfo): Symbol {
  const known = ofInfo.get(c);
  if (known) return known;
  const key = c.type + "|" + (c.subsystem ? "S" : "") + c.ports.map(p => p.name + ":" + p.domain + ":" + p.side).join(",");
  let s = cache.get(key);
  if (!s) {
    const make = c.subsystem ? undefined : MAKERS[c.type];
    s = make ? completeSpots(make(c), c.ports) : genericSymbol(c);
    cache.set(key, s);
  }
  ofInfo.set(c, s);
  return s;
}

// Point p of the symbol's frame after flip then rotation (degrees clockwise, y down).
export function orient(x: number, y: number, rotation: number, flip: string): [number, number] {
  if (flip === "horizontal") x = -x;
  else if (flip === "vertical") y = -y;
  switch (((rotation % 360) + 360) % 360) {
    case 90: return [-y, x];
    case 180: return [-x, -y];
    case 270: return [y, -x];
    default: return [x, y];
  }
}
const DIR_VEC: Record<Dir, [number, number]> = { left: [-1, 0], right: [1, 0], top: [0, -1], bottom: [0, 1] };
export function orientDir(d: Dir, rotation: number, flip: string): Dir {
  const v = orient(DIR_VEC[d][0], DIR_VEC[d][1], rotation, flip);
  return v[0] < -0.5 ? "left" : v[0] > 0.5 ? "right" : v[1] < 0 ? "top" : "bottom";
}
export function dirVector(d: Dir): [number, number] { return DIR_VEC[d]; }
