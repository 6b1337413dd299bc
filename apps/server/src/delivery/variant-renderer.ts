/**
 * Renders a variant once and caches it in storage. Concurrent misses for one cache key share one
 * render; every render passes the app's RenderGate (src/delivery/render-gate.ts), whose slot is held until
 * the variant is stored, because its bytes are in memory until then. A variant that cannot be
 * cached is still answered: the next request renders it again.
 */
import type { FastifyBaseLogger } from "fastify";
import type { LayerSources } from "../media/layers/layer-sources.js";
import type { MediaLimits } from "../media/media-limits.js";
import { renderVariant } from "../media/render-variant.js";
import type { TroveMetrics } from "../metrics/trove-metrics.js";
import type { StorageDriver } from "../storage/driver.js";
import { imageInputOf, putBuffer } from "../storage/object-keys.js";
import { inSpan } from "../tracing/in-span.js";
import type { DeliveryFile } from "./delivery-file.js";
import type { RenderGate } from "./render-gate.js";
import type { VariantOwner, VariantStore } from "./variant-store.js";

export interface RenderedVariant {
  body: Buffer;
  mimeType: string;
}

/** One variant to render: `canonical` of `file`, for a client sending `accept`, kept at `cacheKey`. */
export interface VariantRequest {
  file: DeliveryFile;
  owner: VariantOwner;
  canonical: string;
  accept: string | undefined;
  cacheKey: string;
  /** The files its image layers name (./layer-source.ts); absent when it has none. */
  layerSources?: LayerSources;
}

export interface VariantRendererDeps {
  storage: StorageDriver;
  gate: RenderGate;
  limits: MediaLimits;
  variants: VariantStore;
  log: FastifyBaseLogger;
  /** Render count and duration; null or absent when metrics are off. */
  metrics?: Pick<TroveMetrics, "renders" | "renderDuration"> | null;
}

export class VariantRenderer {
  /** Renders in progress, by cache key. */
  readonly #inFlight = new Map<string, Promise<RenderedVariant>>();

  constructor(private readonly deps: VariantRendererDeps) {}

  render(variant: VariantRequest): Promise<RenderedVariant> {
    let pending = this.#inFlight.get(variant.cacheKey);
    if (!pending) {
      pending = this.deps.gate
        .run(() => this.#measured(variant))
        .finally(() => this.#inFlight.delete(variant.cacheKey));
      this.#inFlight.set(variant.cacheKey, pending);
    }
    return pending;
  }

  /** One render, as a span and in the metrics; a render refused by the gate is neither. */
  async #measured(variant: VariantRequest): Promise<RenderedVariant> {
    const metrics = this.deps.metrics;
    const started = performance.now();
    let outcome: "ok" | "error" = "error";
    try {
      const rendered = await inSpan("render", { "trove.render.transform": variant.canonical }, () =>
        this.#renderAndStore(variant),
      );
      outcome = "ok";
      return rendered;
    } finally {
      metrics?.renders.inc({ outcome });
      metrics?.renderDuration.observe((performance.now() - started) / 1000);
    }
  }

  async #renderAndStore({
    file,
    owner,
    canonical,
    accept,
    cacheKey,
    layerSources,
  }: VariantRequest): Promise<RenderedVariant> {
    const { storage, limits, variants, log } = this.deps;
    const input = await imageInputOf(storage, file.storageKey, limits.maxInputBytes);
    const variant = await renderVariant({
      input,
      transform: canonical,
      limits,
      ...(accept ? { accept } : {}),
      ...(layerSources ? { layerSources } : {}),
    });
    try {
      await putBuffer(storage, cacheKey, variant.body, variant.mimeType);
      // The thumbnail is not one of the file's capped variants (./variant-store.ts).
      if (cacheKey !== file.thumbnailKey) await variants.stored(owner, cacheKey);
    } catch (error) {
      log.warn({ err: error, cacheKey }, "rendered variant not cached");
    }
    return { body: variant.body, mimeType: variant.mimeType };
  }
}
