import type { Layer } from "./layer.js";
import { formatLayerSource } from "./layer-source.js";
import { LAYER_APPLY } from "./parse-step.js";
import { formatLayerDirective, LAYER_KEYS } from "./read-layer-directive.js";
import { TRANSFORM_KEYS, type TransformStep } from "./transform-step.js";

/**
 * A value as it is written after `key_`: `ar` as `W:H`, a `ps` point as `x,y`. Takes unknown
 * because the builder formats unchecked input.
 */
export function formatValue(value: unknown): string {
  if (typeof value === "object" && value !== null) {
    if ("w" in value && "h" in value) return `${String(value.w)}:${String(value.h)}`;
    if ("x" in value && "y" in value) return `${String(value.x)},${String(value.y)}`;
  }
  return String(value);
}

/** Writes steps with their directives in TRANSFORM_KEYS order. Does not validate or normalise. */
export function formatTransform(steps: readonly TransformStep[]): string {
  return steps.map((step) => stepDirectives(step).join(",")).join("/");
}

/**
 * The directives of a step as written: its keys in TRANSFORM_KEYS order (one `e_` per effect,
 * in the order given), then each layer block in order.
 */
export function stepDirectives(step: TransformStep): string[] {
  const directives: string[] = [];
  for (const key of TRANSFORM_KEYS) {
    const value = step[key];
    if (value === undefined) continue;
    for (const one of key === "e" ? listOf(value) : [value]) directives.push(`${key}_${formatValue(one)}`);
  }
  for (const layer of step.layers ?? []) directives.push(...layerDirectives(layer));
  return directives;
}

function layerDirectives(layer: Layer): string[] {
  const directives = [formatLayerSource(layer.source)];
  for (const key of LAYER_KEYS) {
    const value = layer[key];
    if (value === undefined) continue;
    for (const one of key === "e" ? listOf(value) : [value]) directives.push(formatLayerDirective(key, one));
  }
  directives.push(LAYER_APPLY);
  return directives;
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
