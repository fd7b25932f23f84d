// A layer of the drawing held in groups that the browser paints apart.
//
// Chromium paints an <svg> as one unit: when any shape in it changes, it walks and
// paints every element of the drawing again (measured on a level of 1 000 components,
// tests/bench/studio_bench.cjs: 20-25 ms a frame for one moved component, however
// little the rest of the drawing has). An <svg> inside a foreignObject is a drawing of its own: its paint is kept
// while nothing in it changes, and the foreignObject's fixed box keeps a change inside
// from laying out anything outside. So the wires and the components are kept in groups
// of at most GROUP_SIZE elements, each such a nested drawing, and an edit repaints the
// groups it touched (the same move, traced: pre-paint and paint 4 ms instead of 27).
//
// The layers with few elements that change often (the wires' junction dots, the notes,
// the editor's rubber band) are nested drawings too, so that no change leaves the
// nested drawings: one in the outer <svg> makes Chromium walk all of them again.
//
// The nested drawings are transparent to the pointer (pointer-events: none on their
// root); what is inside hit-tests as usual, as the SVG default (visiblePainted) or the
// element's own rule. They do not clip: what lies beyond their box is still drawn.
import { svg } from "./svg";

const GROUP_SIZE = 128;  // elements (a wire is two: its hit area and its line)
const EXTENT = 1e6;      // half the side of a group's box, in drawing units

// A nested drawing in `parent`; returns the group to draw in (in `parent`'s units).
export function nestedDrawing(parent: Element, cls = ""): SVGGElement {
  const box = { x: -EXTENT, y: -EXTENT, width: 2 * EXTENT, height: 2 * EXTENT };
  const fo = svg("foreignObject", { ...box, class: "paint-group" }, parent);
  const root = svg("svg", { width: box.width, height: box.height, class: "paint-group" }, fo);
  return svg("g", { transform: `translate(${EXTENT},${EXTENT})`, class: ("paint-group-content " + cls).trim() }, root);
}

export class GroupedLayer {
  private groups: SVGGElement[] = [];
  constructor(readonly layer: SVGGElement) {}

  // Empties the layer.
  clear() {
    this.layer.textContent = "";
    this.groups = [];
  }

  // Puts `els` (kept together) before `before`, in its group, or else at the end.
  insert(els: Element[], before: Element | null = null) {
    const group = before ? before.parentNode as SVGGElement : this.last(els.length);
    for (const el of els) group.insertBefore(el, before);
  }

  // The last group if it has room for `count` more, else a new one.
  private last(count: number): SVGGElement {
    const g = this.groups[this.groups.length - 1];
    if (g && g.isConnected && g.childElementCount + count <= GROUP_SIZE) return g;
    const group = nestedDrawing(this.layer);
    this.groups.push(group);
    return group;
  }
}
