import { canonicalAspectRatio } from "./aspect-ratio.js";
import { canonicalColour } from "./colour.js";
import { type Effect, effectsOf, isNoOpEffect } from "./effect.js";
import type { Layer } from "./layer.js";
import { PLACEMENT_ALIASES, type Placement, type PlacementAlias } from "./placement.js";
import { GRAVITY_ALIASES, type Transformation, type TransformStep } from "./transform-step.js";
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

  // ar: lowest terms, 32:18 → 16:9 and 1.5:1 → 3:2 (see canonicalAspectRatio). With both w and
  // h it is ignored (the hosted rule), so it is dropped.
  if (out.ar !== undefined) {
    if (out.w !== undefined && out.h !== undefined) delete out.ar;
    else out.ar = canonicalAspectRatio(out.ar);
  }

  // c: with both w and h the default mode is fill. Rather than dropping an explicit c_fill, the
  // default is written out, so w_300,h_300 and w_300,h_300,c_fill both become the latter: one
  // string per transformation, and the mode is always visible when both sides are given.
  // Without both sides c is kept as given: there is no documented default to compare it with.
  if (out.w !== undefined && out.h !== undefined && out.c === undefined) out.c = "fill";

  // p: the SDK's long names are the short ones (top-left → tl). Kept even where the mode ignores it.
  if (out.p !== undefined && Object.hasOwn(GRAVITY_ALIASES, out.p)) {
    out.p = GRAVITY_ALIASES[out.p as keyof typeof GRAVITY_ALIASES];
  }

  // z_1 and dpr_1 change nothing.
  if (out.z === 1) delete out.z;
  if (out.dpr === 1) delete out.dpr;

  // f: jpeg and jpg are one format. f_auto is kept: it depends on the request.
  if (out.f === "jpeg") out.f = "jpg";

  // q: kept as given. q_auto is not a default (an absent q means the renderer's fixed default).

  // r: into 0..359 (r_-90 → r_270, r_450 → r_90, r_360 → none); r_0 does nothing and is dropped. Modes stay.
  if (typeof out.r === "number") {
    const degrees = ((out.r % 360) + 360) % 360;
    if (degrees === 0) delete out.r;
    else out.r = degrees;
  }

  // bg: one spelling per colour (grey → gray, FFFFFF → white, FF8000 → ff8000).
  if (out.bg !== undefined) out.bg = canonicalColour(out.bg);

  // br: br_0 rounds nothing and is dropped. o_100 (full opacity) changes nothing.
  if (out.br === 0) delete out.br;
  if (out.o === 100) delete out.o;

  // e: sorted into the canonical effect order; brightness:0 and the like are dropped.
  // `sharpen:100` and `sharpen` now mean the same, but both were valid strings before issue #32
  // with different looks, and a canonical string is what a signature covers: both are kept.
  setEffects(out, effectsOf(out));

  // layers: kept in written order, each normalised.
  if (out.layers !== undefined) {
    const layers = out.layers.map(normalizeLayer);
    if (layers.length > 0) out.layers = layers;
    else delete out.layers;
  }
  return out;
}

function normalizeLayer(layer: Layer): Layer {
  const out: Layer = { ...layer };
  // One spelling per placement (ne → north-east). ip defaults to tp, and tp to center: a
  // placement equal to its default is dropped, ip first since its default depends on tp.
  const tp = longPlacement(out.tp ?? "center");
  const ip = out.ip === undefined ? undefined : longPlacement(out.ip);
  if (ip === undefined || ip === tp) delete out.ip;
  else out.ip = ip;
  if (tp === "center") delete out.tp;
  else out.tp = tp;
  if (out.type === "overlay") delete out.type;
  if (out.x === 0) delete out.x;
  if (out.y === 0) delete out.y;
  if (out.co !== undefined) out.co = out.co.toLowerCase();
  if (out.o === 100) delete out.o;
  if (out.bm === "normal") delete out.bm;
  setEffects(out, effectsOf(out));
  return out;
}

function setEffects(holder: { e?: Effect | Effect[] }, effects: readonly Effect[]): void {
  const kept = effects.filter((effect) => !isNoOpEffect(effect));
  if (kept.length === 0) delete holder.e;
  else holder.e = kept.length === 1 ? kept[0] : kept;
}

function longPlacement(placement: Placement | PlacementAlias): Placement {
  return Object.hasOwn(PLACEMENT_ALIASES, placement)
    ? PLACEMENT_ALIASES[placement as PlacementAlias]
    : (placement as Placement);
}
