// The schematic object the C++ side writes (apps/studio/README.md, "The schematic
// object") and the layout section of a netlist (netlists/README.md, "Layout").

export type Side = "state" | "response";

export interface PortInfo {
  name: string;
  domain: string;
  side: Side;
  optional?: boolean;
  description?: string;
}

export interface ComponentInfo {
  type: string;
  library: string;
  summary?: string;
  subsystem: string | null;
  ports: PortInfo[];
}

export type Rotation = 0 | 90 | 180 | 270;
export type Flip = "none" | "horizontal" | "vertical";

export interface Placement {
  x: number;
  y: number;
  rotation?: number;
  flip?: Flip;
  [editorKey: string]: unknown;
}

export interface Wire {
  from: string;
  to: string;
  points?: [number, number][];
  [editorKey: string]: unknown;
}

export interface Note {
  x: number;
  y: number;
  text: string;
}

export interface Layout {
  canvas?: { width?: number; height?: number; grid?: number };
  components?: Record<string, Placement>;
  wires?: Wire[];
  notes?: Note[];
  [editorKey: string]: unknown;
}

export interface Level {
  components: Record<string, ComponentInfo>;
  connections: [string, string][];
  layout?: Layout | null;
  definition: string | null;
  editable: boolean;
  file?: string;
  ports?: Record<string, string> | null;  // a subsystem's exported ports: name -> "component.port" inside
}

export interface Schematic {
  netlist: any;
  file?: string;
  levels: Record<string, Level>;
  recorded?: string[];
}

// "comp.port" split at its first dot (component names hold no dot).
export function splitEnd(end: string): [string, string] {
  const k = end.indexOf(".");
  return k < 0 ? [end, ""] : [end.slice(0, k), end.slice(k + 1)];
}

// The level key of a component of level `level`.
export function childKey(level: string, name: string): string {
  return level ? level + "/" + name : name;
}
