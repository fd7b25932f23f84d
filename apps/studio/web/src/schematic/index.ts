// JourdainSchematic: the renderer of the report's schematic card and of the studio's
// canvas (apps/studio/README.md). Bundled as an IIFE whose exports are this global.
import { MountOptions, View, DOMAIN_COLORS, domainColor } from "./render";
import { Schematic } from "./model";
export { View, DOMAIN_COLORS, domainColor } from "./render";
export type { MountOptions, Hit } from "./render";
export { symbolFor, genericSymbol, defaultSides, orient, orientDir, dirVector } from "./symbols";
export type { Symbol, Spot, Dir } from "./symbols";
export { localBox, orientedBox, portSpot, autoRoute, wirePolyline, simplify, pathData } from "./geometry";
export type { Placed, Pt } from "./geometry";
export { elkAvailable, elkLayout, loadElk, setElkSource } from "./elk";
export { quickLayout } from "./layered";
export { orientedEdges } from "./edges";
export type { AutoLayout, OrientedEdge } from "./edges";
export { LARGE_LEVEL } from "./render";
export { splitEnd, childKey } from "./model";
export type { Schematic, Level, ComponentInfo, PortInfo, Layout, Placement, Wire, Note, Side } from "./model";

// Draw `schematic` in `container` (its level options.level, the top by default). The
// view is returned at once; its drawing is ready when `view.ready` resolves (ELK runs
// asynchronously when some component has no position).
export function mount(container: HTMLElement, schematic: Schematic, options: MountOptions = {}): View & { ready: Promise<void> } {
  const view = new View(container, schematic, options) as View & { ready: Promise<void> };
  view.ready = view.render();
  return view;
}

export const version = "1";
void DOMAIN_COLORS; void domainColor;
