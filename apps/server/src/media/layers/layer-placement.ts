import { PLACEMENT_ALIASES, type Placement, type PlacementAlias } from "@trove/schema";
import type { Size } from "../frame.js";

/** A layer's position directives, already multiplied by the step's dpr. */
export interface LayerPlacement {
  tp?: Placement | PlacementAlias;
  ip?: Placement | PlacementAlias;
  x?: number;
  y?: number;
  lx?: number;
  ly?: number;
}

/** Where on the base (or the layer) each placement sits, as fractions of width and height. */
const POINTS: Record<Placement, readonly [number, number]> = {
  center: [0.5, 0.5],
  north: [0.5, 0],
  south: [0.5, 1],
  east: [1, 0.5],
  west: [0, 0.5],
  "north-west": [0, 0],
  "north-east": [1, 0],
  "south-west": [0, 1],
  "south-east": [1, 1],
};

const longForm = (placement: Placement | PlacementAlias): Placement =>
  placement in PLACEMENT_ALIASES ? PLACEMENT_ALIASES[placement as PlacementAlias] : (placement as Placement);

/**
 * The layer's top-left corner on the base, in base pixels (may be negative or past the edge).
 * `tp` names the anchor on the base (default center) and `ip` the point of the layer put on it
 * (default: the same point, so `tp_south-east` puts the layer in the bottom-right corner, inside
 * the image); `x`/`y` then move it (right and down are positive). `lx`/`ly` place the layer's
 * top-left corner from the base's left/top edge instead, on their own axis (`x`/`y` do not
 * apply to an axis placed by `lx`/`ly`).
 */
export function layerOrigin(
  base: Size,
  layer: Size,
  placement: LayerPlacement,
): { left: number; top: number } {
  const anchor = POINTS[longForm(placement.tp ?? "center")];
  const point = POINTS[longForm(placement.ip ?? placement.tp ?? "center")];
  const left =
    placement.lx ?? Math.round(anchor[0] * base.width - point[0] * layer.width) + (placement.x ?? 0);
  const top =
    placement.ly ?? Math.round(anchor[1] * base.height - point[1] * layer.height) + (placement.y ?? 0);
  return { left, top };
}

/** The part of a layer at `origin` that lies on the base, in layer coordinates; undefined if none. */
export function visiblePart(
  base: Size,
  layer: Size,
  origin: { left: number; top: number },
): { left: number; top: number; width: number; height: number } | undefined {
  const left = Math.max(0, -origin.left);
  const top = Math.max(0, -origin.top);
  const width = Math.min(layer.width, base.width - origin.left) - left;
  const height = Math.min(layer.height, base.height - origin.top) - top;
  return width > 0 && height > 0 ? { left, top, width, height } : undefined;
}
