// A quick layered layout for large levels: the same left-to-right reading as ELK's
// layered algorithm (elk.ts), in time near linear in the level's size (its sorts are
// n log n). ELK takes about 2 s for a level of 1 000 components in a fresh page (most of
// it compiling its 1.6 MB of code), which is too long to open a large netlist; this one
// takes a few milliseconds.
// It is the classic Sugiyama scheme cut down to what large schematics need:
//   1. cycles broken by a depth-first search (a back edge is read reversed);
//   2. layers by longest path, sources pulled next to what they feed;
//   3. the order within each layer by barycentres, a few sweeps each way;
//   4. each node's height chosen to put its ports level with those it is wired to
//      (straight wires along chains), pushed down only to clear the node above;
//   5. a connected part much wider than tall folded into rows (a long chain reads as
//      lines of text, not as one strip), and the parts packed on shelves.
// Wires get no corners: the renderer routes them (geometry.ts, autoRoute).
import { Level, Placement } from "./model";
import { LABEL_ROOM, localBox } from "./geometry";
import { Symbol } from "./symbols";
import { AutoLayout, orientedEdges } from "./edges";

const NODE_GAP = 40;      // between nodes of one layer
const LAYER_GAP = 60;     // between layers
const ROW_GAP = 60;       // between the rows of a folded part
const PART_GAP = 60;      // between connected parts
const ASPECT = 1.6;       // width over height aimed at (a screen's)
const SWEEPS = 4;

interface Node { w: number; h: number; ox: number; oy: number; preds: Edge[]; succs: Edge[] }
interface Edge { from: number; to: number; yFrom: number; yTo: number }  // port heights in their node's box

export function quickLayout(level: Level, names: string[], symbolOf: (name: string) => Symbol): AutoLayout {
  const index = new Map<string, number>();
  names.forEach((name, k) => index.set(name, k));
  const nodes: Node[] = names.map(name => {
    const b = localBox(symbolOf(name));
    const top = b.y0 - LABEL_ROOM;
    return { w: b.x1 - b.x0, h: b.y1 - top, ox: -b.x0, oy: -top, preds: [], succs: [] };
  });
  for (const e of orientedEdges(level, index, symbolOf)) {
    if (e.from === e.to) continue;
    const edge: Edge = { from: e.from, to: e.to, yFrom: e.spotFrom.y + nodes[e.from].oy, yTo: e.spotTo.y + nodes[e.to].oy };
    nodes[e.from].succs.push(edge);
    nodes[e.to].preds.push(edge);
  }
  const parts = connectedParts(nodes).map(part => layoutPart(nodes, part));
  const top = new Array<number>(nodes.length).fill(0), left = new Array<number>(nodes.length).fill(0);
  // Shelves as wide as the widest part or a screen-shaped share of the total area.
  const area = parts.reduce((s, p) => s + (p.width + PART_GAP) * (p.height + PART_GAP), 0);
  const shelf = Math.max(Math.sqrt(area * ASPECT), ...parts.map(p => p.width));
  let x = 0, y = 0, rowHeight = 0;
  for (const p of parts) {
    if (x > 0 && x + p.width > shelf) { x = 0; y += rowHeight + PART_GAP; rowHeight = 0; }
    for (const v of p.nodes) { left[v] = p.x.get(v)! + x; top[v] = p.y.get(v)! + y; }
    x += p.width + PART_GAP;
    rowHeight = Math.max(rowHeight, p.height);
  }
  const components: Record<string, Placement> = {};
  names.forEach((name, v) => {
    components[name] = { x: Math.round(20 + left[v] + nodes[v].ox), y: Math.round(20 + top[v] + nodes[v].oy) };
  });
  return { components, wires: [] };
}

// The connected parts, each in the level's order, the parts in the order of their first node.
function connectedParts(nodes: Node[]): number[][] {
  const part = new Array<number>(nodes.length).fill(-1), parts: number[][] = [];
  for (let s = 0; s < nodes.length; ++s) {
    if (part[s] >= 0) continue;
    const members: number[] = [], stack = [s];
    part[s] = parts.length;
    while (stack.length) {
      const v = stack.pop()!;
      members.push(v);
      for (const e of nodes[v].succs) if (part[e.to] < 0) { part[e.to] = parts.length; stack.push(e.to); }
      for (const e of nodes[v].preds) if (part[e.from] < 0) { part[e.from] = parts.length; stack.push(e.from); }
    }
    parts.push(members.sort((a, b) => a - b));
  }
  return parts;
}

interface PartLayout { nodes: number[]; x: Map<number, number>; y: Map<number, number>; width: number; height: number }

function layoutPart(nodes: Node[], members: number[]): PartLayout {
  // 1. Back edges of a depth-first search, read reversed (iterative: a chain is deep).
  const state = new Map<number, number>();  // 1 on the stack, 2 done
  const back = new Set<Edge>();
  for (const root of members) {
    if (state.has(root)) continue;
    const stack: [number, number][] = [[root, 0]];
    state.set(root, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const succs = nodes[top[0]].succs;
      if (top[1] < succs.length) {
        const e = succs[top[1]++];
        const s = state.get(e.to);
        if (s === 1) back.add(e);
        else if (s === undefined) { state.set(e.to, 1); stack.push([e.to, 0]); }
      } else { state.set(top[0], 2); stack.pop(); }
    }
  }
  const ins = (v: number) => [...nodes[v].preds.filter(e => !back.has(e)).map(e => e.from), ...nodes[v].succs.filter(e => back.has(e)).map(e => e.to)];
  const outs = (v: number) => [...nodes[v].succs.filter(e => !back.has(e)).map(e => e.to), ...nodes[v].preds.filter(e => back.has(e)).map(e => e.from)];
  const inOf = new Map<number, number[]>(), outOf = new Map<number, number[]>();
  for (const v of members) { inOf.set(v, ins(v)); outOf.set(v, outs(v)); }
  // 2. Longest-path layers in a topological order (Kahn), then sources moved up to the
  //    layer before the first one they feed (a constant beside its gain, not far left).
  const missing = new Map<number, number>();
  for (const v of members) missing.set(v, inOf.get(v)!.length);
  const order = members.filter(v => missing.get(v) === 0), layer = new Map<number, number>();
  for (let k = 0; k < order.length; ++k) {
    const v = order[k];
    if (!layer.has(v)) layer.set(v, 0);
    for (const w of outOf.get(v)!) {
      layer.set(w, Math.max(layer.get(w) || 0, layer.get(v)! + 1));
      missing.set(w, missing.get(w)! - 1);
      if (missing.get(w) === 0) order.push(w);
    }
  }
  for (const v of members) {
    const o = outOf.get(v)!;
    if (inOf.get(v)!.length === 0 && o.length) layer.set(v, Math.min(...o.map(w => layer.get(w)!)) - 1);
  }
  const layers: number[][] = [];
  for (const v of order) {  // in topological order: a first ordering that follows the flow
    const l = layer.get(v)!;
    while (layers.length <= l) layers.push([]);
    layers[l].push(v);
  }
  // 3. Barycentre sweeps, forward on the predecessors, backward on the successors.
  const pos = new Map<number, number>();
  const number = (l: number[]) => l.forEach((v, k) => pos.set(v, k));
  layers.forEach(number);
  const bary = (v: number, nbrs: number[]) => nbrs.length ? nbrs.reduce((s, w) => s + pos.get(w)!, 0) / nbrs.length : pos.get(v)!;
  for (let s = 0; s < SWEEPS; ++s) {
    const forward = s % 2 === 0;
    for (let i = 0; i < layers.length; ++i) {
      const l = layers[forward ? i : layers.length - 1 - i];
      const key = new Map(l.map(v => [v, bary(v, forward ? inOf.get(v)! : outOf.get(v)!)] as [number, number]));
      l.sort((a, b) => key.get(a)! - key.get(b)! || pos.get(a)! - pos.get(b)!);
      number(l);
    }
  }
  // 4. Columns, then heights: each node where its wires from the left run straight.
  const x = new Map<number, number>(), y = new Map<number, number>();
  const layerX: number[] = [];
  let cx = 0;
  for (const l of layers) {
    const width = Math.max(...l.map(v => nodes[v].w));
    layerX.push(cx);
    for (const v of l) x.set(v, cx + (width - nodes[v].w) / 2);
    cx += width + LAYER_GAP;
  }
  const width = Math.max(0, cx - LAYER_GAP);
  let height = 0;
  for (const l of layers) {
    let floor = 0;
    for (const v of l) {
      const wanted = nodes[v].preds.filter(e => y.has(e.from)).map(e => y.get(e.from)! + e.yFrom - e.yTo);
      const at = wanted.length ? Math.max(floor, wanted.reduce((s, t) => s + t, 0) / wanted.length) : floor;
      y.set(v, at);
      floor = at + nodes[v].h + NODE_GAP;
      height = Math.max(height, at + nodes[v].h);
    }
  }
  // 5. Fold a part much wider than tall into rows of about equal width.
  const rows = Math.max(1, Math.round(Math.sqrt(width / (ASPECT * (height + ROW_GAP)))));
  if (rows > 1) {
    const rowWidth = width / rows;
    let row = 0, shift = 0;
    layers.forEach((l, k) => {
      if (layerX[k] - shift > rowWidth && row < rows - 1) { ++row; shift = layerX[k]; }
      for (const v of l) { x.set(v, x.get(v)! - shift); y.set(v, y.get(v)! + row * (height + ROW_GAP)); }
    });
  }
  let right = 0, bottom = 0;
  for (const v of members) { right = Math.max(right, x.get(v)! + nodes[v].w); bottom = Math.max(bottom, y.get(v)! + nodes[v].h); }
  return { nodes: members, x, y, width: right, height: bottom };
}
