import { TRANSFORM_KEYS, type TransformStep } from "./transform-step.js";

/** A value as it is written after `key_`. Takes unknown because the builder formats unchecked input. */
export function formatValue(value: unknown): string {
  if (typeof value === "object" && value !== null && "w" in value && "h" in value) {
    return `${String(value.w)}:${String(value.h)}`;
  }
  return String(value);
}

/** Writes steps with their directives in TRANSFORM_KEYS order. Does not validate or normalise. */
export function formatTransform(steps: readonly TransformStep[]): string {
  return steps.map(formatStep).join("/");
}

function formatStep(step: TransformStep): string {
  return TRANSFORM_KEYS.filter((key) => step[key] !== undefined)
    .map((key) => `${key}_${formatValue(step[key])}`)
    .join(",");
}
