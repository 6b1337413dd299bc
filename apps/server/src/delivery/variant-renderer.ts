/**
 * Renders a variant once and caches it in storage. Concurrent misses for one cache key share one
 * render, until its object is written. Every render passes the app's RenderGate
 * (src/delivery/render-gate.ts) for the work the gate exists to bound, reading the original and
 * decoding, resizing and encoding it (CPU and tens of MB); the slot is free again before the
 * variant is written, so the next render need not wait for storage. The encoded bytes then stay
 * in memory until written, as the response that sends them does. The answer waits for the write
 * (so the next request for it is a cache hit) but not for the bookkeeping: the variant's row and
 * eviction run after it (./variant-store.ts). A variant that cannot be cached is still answered:
 * the next request renders it again; so is one the store does not admit (a file at its cap keeps
 * a new variant only at its second request).
 */
import type { FastifyBaseLogger } from "fastify";
import type { LayerSources } from "../media/layers/layer-sources.js";
import type { MediaLimits } from "../media/media-limits.js";
import { renderVariant } from "../media/render-variant.js";
import type { TroveMetrics } from "../metrics/trove-metrics.js";
import { ObjectNotFoundError, type StorageDriver } from "../storage/driver.js";
import { putBuffer } from "../storage/object-keys.js";
import { inSpan } from "../tracing/in-span.js";
import type { DeliveryFile } from "./delivery-file.js";
import { readStoredOriginal } from "./read-stored-original.js";
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
      pending = this.#renderAndStore(variant).finally(() => this.#inFlight.delete(variant.cacheKey));
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
        this.#render(variant),
      );
      outcome = "ok";
      return rendered;
    } finally {
      metrics?.renders.inc({ outcome });
      metrics?.renderDuration.observe((performance.now() - started) / 1000);
    }
  }

  /** Renders in a slot of the gate, then writes the variant outside it. */
  async #renderAndStore(variant: VariantRequest): Promise<RenderedVariant> {
    const rendered = await this.deps.gate.run(() => this.#measured(variant));
    const { storage, variants, log } = this.deps;
    const { file, owner, cacheKey } = variant;
    // The thumbnail is not one of the file's capped variants (./variant-store.ts).
    const capped = cacheKey !== file.thumbnailKey;
    if (capped && !variants.admits(owner, cacheKey)) return rendered;
    try {
      await putBuffer(storage, cacheKey, rendered.body, rendered.mimeType);
    } catch (error) {
      log.warn({ err: error, cacheKey }, "rendered variant not cached");
      return rendered;
    }
    if (capped) variants.stored(owner, cacheKey, rendered.body.length);
    return rendered;
  }

  /** The CPU work: the original read once, decoded, transformed and encoded. */
  async #render({ file, canonical, accept, layerSources }: VariantRequest): Promise<RenderedVariant> {
    const { storage, limits } = this.deps;
    const input = await readStoredOriginal(storage, file.storageKey, limits.maxInputBytes);
    try {
      const variant = await renderVariant({
        input,
        transform: canonical,
        limits,
        ...(accept ? { accept } : {}),
        ...(layerSources ? { layerSources } : {}),
      });
      return { body: variant.body, mimeType: variant.mimeType };
    } catch (error) {
      // An original decoded from its path can be deleted while it renders: its decoder then
      // fails on a file that is gone, which is the missing file (404), not a corrupt one (400).
      // Only a stat that says "no such object" changes the error; a failing stat keeps it.
      const gone =
        !Buffer.isBuffer(input) && (await storage.stat(file.storageKey).catch(() => undefined)) === null;
      if (gone) throw new ObjectNotFoundError(file.storageKey);
      throw error;
    }
  }
}
