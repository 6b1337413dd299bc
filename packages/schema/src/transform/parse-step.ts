import { checkStep } from "./check-step.js";
import { type Effect, effectName } from "./effect.js";
import type { Layer, LayerSource } from "./layer.js";
import { isLayerOpener, readLayerSource } from "./layer-source.js";
import { MAX_LAYERS } from "./limits.js";
import { isCoordinate } from "./position-strategy.js";
import { readDirective } from "./read-directive.js";
import { LAYER_ONLY_URL_KEYS, readLayerDirective } from "./read-layer-directive.js";
import { TransformParseError } from "./transform-parse-error.js";
import type { TransformKey, TransformStep } from "./transform-step.js";

/** The directive that closes a layer block. */
export const LAYER_APPLY = "fl_layer_apply";

/**
 * Reads the directives of one step, in one pass. `pieces` are the step's directives: the parser
 * gives the step split at `,` (and joins `ps_{x}` with its `{y}`); the builder gives the
 * directives it wrote, one piece each. Layer blocks run from `l_text:`/`l_image:` to
 * `fl_layer_apply`; every other directive belongs to the base, wherever it is written. A key
 * appears once in the base and once in each block; several `e_` are one list, but the same
 * effect twice is refused. The layer count is checked as each block opens.
 */
export function readStep(pieces: readonly string[], position: number): TransformStep {
  const base = new Directives("step");
  const layers: Layer[] = [];
  let open: { raw: string; source: LayerSource; directives: Directives } | undefined;
  for (let index = 0; index < pieces.length; index++) {
    let raw = pieces[index] as string;
    if (raw === "") throw new TransformParseError(`step ${position} has an empty directive`);
    if (isLayerOpener(raw)) {
      if (open !== undefined) throw notClosed(open.raw);
      if (layers.length === MAX_LAYERS) {
        throw new TransformParseError(`a step has at most ${MAX_LAYERS} layers`, raw);
      }
      const source = readLayerSource(raw);
      if (!source.ok) throw new TransformParseError(source.reason, raw);
      open = { raw, source: source.value, directives: new Directives("layer") };
    } else if (raw === LAYER_APPLY) {
      if (open === undefined) {
        throw new TransformParseError("closes no layer (a layer starts with l_text: or l_image:)", raw);
      }
      layers.push(finishLayer(open.source, open.directives));
      open = undefined;
    } else if (open !== undefined) {
      const { key, value } = readLayerDirective(raw);
      open.directives.add(key, value, raw);
    } else {
      const next = pieces[index + 1];
      if (raw.startsWith("ps_") && isCoordinate(raw.slice(3)) && next !== undefined && isCoordinate(next)) {
        raw = `${raw},${next}`;
        index++;
      }
      const underscore = raw.indexOf("_");
      const urlKey = underscore > 0 ? raw.slice(0, underscore) : "";
      if (LAYER_ONLY_URL_KEYS.has(urlKey)) {
        throw new TransformParseError(
          `${urlKey} is a layer key: write it between l_text:…/l_image:… and fl_layer_apply`,
          raw,
        );
      }
      const { key, value } = readDirective(raw);
      base.add(key, value, raw);
    }
  }
  if (open !== undefined) throw notClosed(open.raw);
  const step = base.values() as TransformStep;
  if (layers.length > 0) step.layers = layers;
  checkStep(step, (key: TransformKey) => base.rawOf(key));
  return step;
}

function notClosed(raw: string): TransformParseError {
  return new TransformParseError("layer is not closed by fl_layer_apply", raw);
}

function finishLayer(source: LayerSource, directives: Directives): Layer {
  const layer = { source, ...directives.values() } as Layer;
  if (layer.co !== undefined && source.kind !== "text") {
    throw new TransformParseError("co is the colour of a text layer", directives.rawOf("co"));
  }
  return layer;
}

/** The directives of the base or of one layer: each key once, effects as a list. */
class Directives {
  private readonly raws = new Map<string, string>();
  private readonly fields: Record<string, unknown> = {};
  private readonly effects: Effect[] = [];
  private readonly effectRaws = new Map<string, string>();

  constructor(private readonly scope: "step" | "layer") {}

  add(key: string, value: unknown, raw: string): void {
    if (key === "e") {
      const name = effectName(value as Effect);
      if (this.effectRaws.has(name)) {
        throw new TransformParseError(`effect ${name} is repeated in the ${this.scope}`, raw);
      }
      this.effectRaws.set(name, raw);
      this.effects.push(value as Effect);
      if (!this.raws.has("e")) this.raws.set("e", raw);
      return;
    }
    if (this.raws.has(key)) throw new TransformParseError(`key ${key} is repeated in the ${this.scope}`, raw);
    this.raws.set(key, raw);
    this.fields[key] = value;
  }

  rawOf(key: string): string {
    return this.raws.get(key) ?? key;
  }

  /** One effect stays a string (`{ e: "grayscale" }`); several are a list in written order. */
  values(): Record<string, unknown> {
    const values = { ...this.fields };
    if (this.effects.length === 1) values.e = this.effects[0];
    else if (this.effects.length > 1) values.e = [...this.effects];
    return values;
  }
}
