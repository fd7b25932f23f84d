// The automatic layout: ELK's layered algorithm over a level, each symbol a node whose
// ports sit where the symbol draws them, wires routed orthogonally by ELK.
import type { ElkExtendedEdge, ElkNode, ElkPort } from "elkjs/lib/elk-api";
import { Level, Placement, Wire, splitEnd } from "./model";
import { LABEL_ROOM, Pt, localBox } from "./geometry";
import { Symbol } from "./symbols";

const ELK_SIDE = { left: "WEST", right: "EAST", top: "NORTH", bottom: "SOUTH" } as const;

export function elkAvailable(): boolean {
  return typeof (globalThis as any).ELK === "function";
}

export interface AutoLayout {
  components: Record<string, Placement>;
  wires: Wire[];
}

// Positions (rotation 0) for `names` of the level and the routes of the connections
// among them. Nodes are laid out left to right, wires going from a port facing right to
// one facing left where a connection allows it (the signal flow, and a chain of
// mechanical or hydraulic elements read from left to right).
export async function elkLayout(level: Level, names: string[], symbolOf: (name: string) => Symbol): Promise<AutoLayout> {
  const Elk = (globalThis as any).ELK;
  const elk = new Elk();
  const wanted = new Set(names);
  const nodes: ElkNode[] = [];
  const origin: Record<string, Pt> = {};  // the symbol centre in its node's frame
  for (const name of names) {
    const sym = symbolOf(name);
    const b = localBox(sym);
    const top = b.y0 - LABEL_ROOM;
    origin[name] = [-b.x0, -top];
    const ports: ElkPort[] = [];
    for (const port in sym.spots) {
      const s = sym.spots[port];
      ports.push({ id: name + "." + port, x: s.x - b.x0, y: s.y - top, width: 0, height: 0,
                   layoutOptions: { "elk.port.side": ELK_SIDE[s.dir] } });
    }
    nodes.push({ id: name, width: b.x1 - b.x0, height: b.y1 - top, ports,
                 layoutOptions: { "elk.portConstraints": "FIXED_POS" } });
  }
  const edges: ElkExtendedEdge[] = [];
  const reversed: boolean[] = [];
  level.connections.forEach((c, k) => {
    const [ca, pa] = splitEnd(c[0]), [cb, pb] = splitEnd(c[1]);
    if (!wanted.has(ca) || !wanted.has(cb)) return;
    const sa = symbolOf(ca).spots[pa], sb = symbolOf(cb).spots[pb];
    if (!sa || !sb) return;
    const info = level.components[ca].ports.find(p => p.name === pa);
    // Source first: a right-facing port before a left-facing one, else the state side.
    let flip = false;
    if (sa.dir === "left" && sb.dir === "right") flip = true;
    else if (!(sa.dir === "right" && sb.dir === "left")) flip = !!info && info.side === "response";
    reversed[k] = flip;
    const from = flip ? c[1] : c[0], to = flip ? c[0] : c[1];
    edges.push({ id: "e" + k, sources: [from], targets: [to] });
  });
  const graph: ElkNode = {
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.edgeRouting": "ORTHOGONAL",
      "elk.spacing.nodeNode": "40",
      "elk.layered.spacing.nodeNodeBetweenLayers": "60",
      "elk.spacing.edgeNode": "20",
      "elk.spacing.edgeEdge": "10",
      "elk.layered.spacing.edgeNodeBetweenLayers": "20",
      "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
      "elk.separateConnectedComponents": "true",
      "elk.spacing.componentComponent": "60",
      "elk.padding": "[top=20,left=20,bottom=20,right=20]",
    },
    children: nodes,
    edges,
  };
  const out = await elk.layout(graph);
  const grid = (v: number) => Math.round(v);
  const components: Record<string, Placement> = {};
  for (const node of out.children || []) {
    const o = origin[node.id];
    components[node.id] = { x: grid((node.x || 0) + o[0]), y: grid((node.y || 0) + o[1]) };
  }
  const wires: Wire[] = [];
  for (const e of (out.edges || []) as ElkExtendedEdge[]) {
    const k = Number(e.id.slice(1));
    const c = level.connections[k];
    const section = e.sections && e.sections[0];
    if (!section) continue;
    let points: Pt[] = (section.bendPoints || []).map(p => [grid(p.x), grid(p.y)] as Pt);
    if (reversed[k]) points = points.reverse();
    wires.push({ from: c[0], to: c[1], points });
  }
  return { components, wires };
}
