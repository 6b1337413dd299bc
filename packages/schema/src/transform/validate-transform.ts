import { formatValue, stepDirectives } from "./format-transform.js";
import { MAX_LAYERS, MAX_TRANSFORM_STEPS } from "./limits.js";
import { splitNamedSteps } from "./named-transform.js";
import { readStep } from "./parse-step.js";
import { isTransformKey } from "./read-directive.js";
import { LAYER_KEYS } from "./read-layer-directive.js";
import { TransformParseError } from "./transform-parse-error.js";
import type { Transformation, TransformStep } from "./transform-step.js";

/**
 * Checks a typed transformation by the parser's own rules: the step is written as its
 * directives, one piece each, and read back by the parser's step reader, so a bad value fails
 * with the message the parser gives for the same text (`{ q: 200 }` → `"q_200: quality must be
 * 1..100"`). Each piece is read as one directive, so a value holding `,` or `/` is refused, not
 * split; a layer's text and path are percent-encoded when written, so any text is safe. Returns
 * the steps as the parser would, without undefined keys.
 *
 * Only the syntax rules have no model counterpart: an empty step `{}` or an empty list is a
 * no-op, not an error, and canonicalises to nothing.
 */
export function validateTransform(steps: readonly TransformStep[]): Transformation {
  if (!Array.isArray(steps)) throw new TransformParseError("transform must be an array of steps");
  if (steps.length > MAX_TRANSFORM_STEPS) {
    throw new TransformParseError(`transform has more than ${MAX_TRANSFORM_STEPS} steps`);
  }
  // `{ t: "card", q: 90 }` is the recipe, then q_90: two steps, as the parser reads `t_card,q_90`.
  return splitNamedSteps(steps.map((step, index) => validateStep(step, index + 1)));
}

function validateStep(step: TransformStep, position: number): TransformStep {
  if (!isRecord(step)) throw new TransformParseError(`step ${position} must be an object`);
  for (const [key, value] of Object.entries(step)) {
    if (value === undefined || key === "layers") continue;
    // Checked here too, so that a key such as `w_x` is reported as unknown rather than read as w.
    if (!isTransformKey(key))
      throw new TransformParseError(`unknown key ${key}`, `${key}_${formatValue(value)}`);
  }
  if (step.layers !== undefined) checkLayers(step.layers, position);
  return readStep(stepDirectives(withoutUndefined(step)), position);
}

function checkLayers(layers: unknown, position: number): void {
  if (!Array.isArray(layers)) throw new TransformParseError(`layers of step ${position} must be an array`);
  if (layers.length > MAX_LAYERS) throw new TransformParseError(`a step has at most ${MAX_LAYERS} layers`);
  layers.forEach((layer: unknown, index) => {
    const where = `layer ${index + 1} of step ${position}`;
    if (!isRecord(layer) || !isRecord(layer.source))
      throw new TransformParseError(`${where} must be an object with a source`);
    for (const [key, value] of Object.entries(layer)) {
      if (value !== undefined && key !== "source" && !(LAYER_KEYS as readonly string[]).includes(key)) {
        throw new TransformParseError(`unknown layer key ${key}`, `${key}_${formatValue(value)}`);
      }
    }
    const { source } = layer;
    const text = source.kind === "text" ? source.text : source.kind === "image" ? source.path : undefined;
    if (typeof text !== "string" || !isWellFormed(text)) {
      throw new TransformParseError(
        `${where} needs a source of kind text (with a text) or image (with a path)`,
      );
    }
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function withoutUndefined(step: TransformStep): TransformStep {
  const layers = step.layers?.map(
    (layer) =>
      Object.fromEntries(Object.entries(layer).filter(([, value]) => value !== undefined)) as typeof layer,
  );
  const out = Object.fromEntries(
    Object.entries(step).filter(([key, value]) => value !== undefined && key !== "layers"),
  );
  return (layers === undefined ? out : { ...out, layers }) as TransformStep;
}

/** No lone surrogate: a text that UTF-8 cannot carry would be written as U+FFFD, another text. */
function isWellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) return false;
  }
  return true;
}
