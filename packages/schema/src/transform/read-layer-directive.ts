import { BLEND_MODES } from "./blend-mode.js";
import { type Effect, readEffect } from "./effect.js";
import { LAYER_TYPES, type Layer } from "./layer.js";
import { MAX_DIMENSION } from "./limits.js";
import { PLACEMENT_ALIASES, PLACEMENTS, type Placement, type PlacementAlias } from "./placement.js";
import { readOpacity } from "./read-directive.js";
import { readInteger } from "./read-integer.js";
import { TransformParseError } from "./transform-parse-error.js";
import { accept, oneOf, refuse, type ValueResult } from "./value-result.js";

/** The directives of a layer block, in canonical order (after its source, before fl_layer_apply). */
export const LAYER_KEYS = [
  "type",
  "lw",
  "lh",
  "lx",
  "ly",
  "x",
  "y",
  "tp",
  "ip",
  "co",
  "o",
  "bm",
  "e",
] as const;
export type LayerKey = (typeof LAYER_KEYS)[number];

/**
 * Keys that exist only inside a layer block, as written in a URL: LAYER_KEYS less the ones the
 * base step has too (`o`, `e`), with `type` written as `l_type:`.
 */
export const LAYER_ONLY_URL_KEYS: ReadonlySet<string> = new Set([
  "l",
  ...LAYER_KEYS.filter((key) => key !== "type" && key !== "o" && key !== "e"),
]);

type LayerReaders = {
  [K in LayerKey]-?: (text: string) => ValueResult<K extends "e" ? Effect : NonNullable<Layer[K]>>;
};

const PLACEMENT_NAMES = [...PLACEMENTS, ...Object.keys(PLACEMENT_ALIASES)] as (Placement | PlacementAlias)[];

const size = (name: string) => (text: string) =>
  readInteger(text, 1, MAX_DIMENSION, {
    kind: `${name} must be an integer`,
    range: `${name} must be 1..${MAX_DIMENSION}`,
  });
const offset = (name: string) => (text: string) =>
  readInteger(text, -MAX_DIMENSION, MAX_DIMENSION, {
    kind: `${name} must be an integer`,
    range: `${name} must be -${MAX_DIMENSION}..${MAX_DIMENSION}`,
  });
const listed = <T extends string>(values: readonly T[], what: string) =>
  oneOf(values, `${what} must be one of ${values.join(", ")}`);

const HEX = /^[0-9a-fA-F]{6}$/;

const READERS: LayerReaders = {
  type: listed(LAYER_TYPES, "layer type"),
  lw: size("layer width"),
  lh: size("layer height"),
  lx: offset("layer x"),
  ly: offset("layer y"),
  x: offset("x offset"),
  y: offset("y offset"),
  tp: listed(PLACEMENT_NAMES, "placement"),
  ip: listed(PLACEMENT_NAMES, "placement"),
  // co_FF0000 and co_rgb:FF0000 (both in the hosted documentation) are one colour.
  co: (text) => {
    const hex = text.startsWith("rgb:") ? text.slice(4) : text;
    return HEX.test(hex)
      ? accept(hex)
      : refuse("colour must be a 6-digit hex colour (co_ff0000 or co_rgb:ff0000)");
  },
  o: readOpacity,
  bm: listed(BLEND_MODES, "blend mode"),
  e: readEffect,
};

export type LayerDirective = {
  [K in LayerKey]: { key: K; value: K extends "e" ? Effect : NonNullable<Layer[K]> };
}[LayerKey];

/**
 * Reads one directive inside a layer block. `l_type:…` is the only `l_` directive there (a new
 * `l_text:`/`l_image:` is the caller's business); a key of the step (`w_`, `fl_upscale`) is
 * refused rather than applied to the base, so a block reads one way.
 */
export function readLayerDirective(raw: string): LayerDirective {
  const underscore = raw.indexOf("_");
  if (underscore <= 0) throw new TransformParseError("directive must be key_value", raw);
  const urlKey = raw.slice(0, underscore);
  const value = raw.slice(underscore + 1);
  if (urlKey === "l") {
    if (!value.startsWith("type:"))
      throw new TransformParseError("inside a layer, l_ is only l_type:overlay|underlay", raw);
    return read("type", value.slice("type:".length), raw);
  }
  if (urlKey === "type" || !Object.hasOwn(READERS, urlKey)) {
    throw new TransformParseError(
      `${urlKey} is not a layer key (close the layer with fl_layer_apply first)`,
      raw,
    );
  }
  return read(urlKey as LayerKey, value, raw);
}

function read(key: LayerKey, value: string, raw: string): LayerDirective {
  const result = READERS[key](value);
  if (!result.ok) throw new TransformParseError(result.reason, raw);
  return { key, value: result.value } as LayerDirective;
}

/** The directive a layer key is written as. */
export function formatLayerDirective(key: LayerKey, value: unknown): string {
  return key === "type" ? `l_type:${String(value)}` : `${key}_${String(value)}`;
}
