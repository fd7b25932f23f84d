// What both automatic layouts (elk.ts, layered.ts) read of a level: its connections as
// directed edges between the components to place, and what a layout gives back.
import { Level, Placement, Wire, splitEnd } from "./model";
import { Spot, Symbol } from "./symbols";

export interface AutoLayout {
  components: Record<string, Placement>;
  wires: Wire[];
}

export interface OrientedEdge {
  connection: number;          // index in level.connections
  from: number; to: number;    // indices of the components (in `index`)
  fromEnd: string; toEnd: string;
  spotFrom: Spot; spotTo: Spot;
  reversed: boolean;           // from is the connection's second end
}

// The connections among the components of `index`, each directed the way the drawing
// should read, left to right: from a port facing right to one facing left where the
// symbols allow it (a chain of mechanical or hydraulic elements, a signal's flow), else
// from the state side (the port whose component owns the state the other one answers).
export function orientedEdges(level: Level, index: Map<string, number>, symbolOf: (name: string) => Symbol): OrientedEdge[] {
  const edges: OrientedEdge[] = [];
  level.connections.forEach((c, k) => {
    const [ca, pa] = splitEnd(c[0]), [cb, pb] = splitEnd(c[1]);
    const ia = index.get(ca), ib = index.get(cb);
    if (ia === undefined || ib === undefined) return;
    const sa = symbolOf(ca).spots[pa], sb = symbolOf(cb).spots[pb];
    if (!sa || !sb) return;
    let flip = false;
    if (sa.dir === "left" && sb.dir === "right") flip = true;
    else if (!(sa.dir === "right" && sb.dir === "left")) {
      const info = level.components[ca].ports.find(p => p.name === pa);
      flip = !!info && info.side === "response";
    }
    edges.push(flip ? { connection: k, from: ib, to: ia, fromEnd: c[1], toEnd: c[0], spotFrom: sb, spotTo: sa, reversed: true }
                    : { connection: k, from: ia, to: ib, fromEnd: c[0], toEnd: c[1], spotFrom: sa, spotTo: sb, reversed: false });
  });
  return edges;
}
