import { canonicalAspectRatio } from "./aspect-ratio.js";
import { canonicalColour } from "./colour.js";
import { effectsOf, isNoOpEffect } from "./effect.js";
import type { Transformation, TransformStep } from "./transform-step.js";
import { validateTransform } from "./validate-transform.js";

/**
 * The canonical model: validates, then gives every transformation one spelling so that equal
 * transformations are written, stored and cached once. Steps that end up empty are removed; a
 * transformation that does nothing becomes `[]` (written as "").
 */
export function normalizeTransform(steps: readonly TransformStep[]): Transformation {
  return normalizeValidTransform(validateTransform(steps));
}

/** normalizeTransform for steps that have already been validated (by parse or validate). */
export function normalizeValidTransform(steps: readonly TransformStep[]): Transformation {
  return steps.map(normalizeStep).filter((step) => Object.keys(step).length > 0);
}

function normalizeStep(step: TransformStep): TransformStep {
  const out: TransformStep = { ...step };

  // t: kept as written; the server replaces a named step by its (canonical) definition.

  // ar: lowest terms, 32:18 → 16:9 and 1.5:1 → 3:2 (see canonicalAspectRatio).
  if (out.ar !== undefined) out.ar = canonicalAspectRatio(out.ar);

  // c: with both w and h the default mode is fill. Rather than dropping an explicit c_fill, the
  // default is written out, so w_300,h_300 and w_300,h_300,c_fill both become the latter: one
  // string per transformation, and the mode is always visible when both sides are given.
  // Without both sides c is kept as given: there is no documented default to compare it with.
  if (out.w !== undefined && out.h !== undefined && out.c === undefined) out.c = "fill";

  // p: kept as given, even where the mode ignores it; its default is the renderer's business.

  // f: jpeg and jpg are one format. f_auto is kept: it depends on the request.
  if (out.f === "jpeg") out.f = "jpg";

  // q: kept as given. q_auto is not a default (an absent q means the renderer's fixed default).

  // r: into 0..359 (r_-90 → r_270, r_360 → none); r_0 does nothing and is dropped.
  if (typeof out.r === "number") {
    const degrees = ((out.r % 360) + 360) % 360;
    if (degrees === 0) delete out.r;
    else out.r = degrees;
  }

  // bg: one spelling per colour (grey → gray, FFFFFF → white, FF8000 → ff8000).
  if (out.bg !== undefined) out.bg = canonicalColour(out.bg);

  // br: br_0 rounds nothing and is dropped.
  if (out.br === 0) delete out.br;

  // e: brightness:0, contrast:0 and saturation:0 change nothing and are dropped.
  const effects = effectsOf(out).filter((effect) => !isNoOpEffect(effect));
  if (effects.length === 0) delete out.e;
  else out.e = effects.length === 1 ? effects[0] : effects;

  return out;
}
