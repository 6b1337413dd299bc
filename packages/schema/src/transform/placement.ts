/**
 * Where a layer sits on the base image (`tp_`) and which point of the layer sits there (`ip_`).
 * The hosted documentation mixes the long names (its examples) and the short ones (its tables);
 * both are read, the long one is canonical.
 */
export const PLACEMENTS = [
  "center",
  "north",
  "south",
  "east",
  "west",
  "north-west",
  "north-east",
  "south-west",
  "south-east",
] as const;
export type Placement = (typeof PLACEMENTS)[number];

/** Short spelling → canonical long spelling. */
export const PLACEMENT_ALIASES = {
  c: "center",
  n: "north",
  s: "south",
  e: "east",
  w: "west",
  nw: "north-west",
  ne: "north-east",
  sw: "south-west",
  se: "south-east",
} as const satisfies Record<string, Placement>;
export type PlacementAlias = keyof typeof PLACEMENT_ALIASES;
