// The automatic layout: ELK's layered algorithm over a level, each symbol a node whose
// ports sit where the symbol draws them, wires routed orthogonally by ELK.
import type { ElkExtendedEdge, ElkNode, ElkPort } from "elkjs/lib/elk-api";
import { Level, Placement, Wire } from "./model";
import { LABEL_ROOM, Pt, localBox } from "./geometry";
import { Symbol } from "./symbols";
import { AutoLayout, orientedEdges } from "./edges";

const ELK_SIDE = { left: "WEST", right: "EAST", top: "NORTH", bottom: "SOUTH" } as const;

export function elkAvailable(): boolean {
  return typeof (globalThis as any).ELK === "function";
}

// Where ELK can be fetched from when the page does not carry it (the studio serves it
// apart, so that a page whose netlist is laid out, or too large for ELK, never
// compiles its 1.6 MB). Set by the page before the first layout.
let elkSource: string | null = null;
let elkLoading: Promise<boolean> | null = null;
export function setElkSource(url: string | null) { elkSource = url; }

// ELK, loaded on first use where the page knows a source: true once it is there.
export function loadElk(): Promise<boolean> {
  if (elkAvailable()) return Promise.resolve(true);
  if (!elkSource || typeof document === "undefined") return Promise.resolve(false);
  if (!elkLoading) {
    elkLoading = new Promise<boolean>(resolve => {
      const script = document.createElement("script");
      script.src = elkSource!;
      script.onload = () => resolve(elkAvailable());
      script.onerror = () => { elkLoading = null; resolve(false); };
      document.head.appendChild(script);
    });
  }
  return elkLoading;
}

export async function elkLayout(level: Level, names: string[], symbolOf: (name: string) => Symbol): Promise<AutoLayout> {
  const Elk = (globalThis as any).ELK;
  const elk = new Elk();
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
  const index = new Map<string, number>();
  names.forEach((name, k) => index.set(name, k));
  const oriented = orientedEdges(level, index, symbolOf);
  const reversed: boolean[] = [];
  const edges: ElkExtendedEdge[] = oriented.map(e => {
    reversed[e.connection] = e.reversed;
    return { id: "e" + e.connection, sources: [e.fromEnd], targets: [e.toEnd] };
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
