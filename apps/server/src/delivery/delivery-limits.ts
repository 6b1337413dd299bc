/**
 * What the delivery host may spend on requests anyone can send: renders at once, renders
 * waiting, how long one waits (the app's RenderGate, which transform uploads pass too), and how
 * many rendered variants each file keeps in storage.
 * Settings: TROVE_RENDER_CONCURRENCY, TROVE_RENDER_THREADS, TROVE_RENDER_QUEUE,
 * TROVE_RENDER_WAIT_MS, TROVE_MAX_VARIANTS_PER_FILE (declared in src/config/settings.ts; the three
 * that scale with the machine are resolved here).
 */
import { availableParallelism } from "node:os";
import { SETTINGS } from "../config/settings.js";

export interface DeliveryLimits {
  /** Renders running at once (default: one per CPU core). */
  renderConcurrency: number;
  /**
   * libvips threads per image operation (src/media/libvips-threads.ts). By default the cores are
   * shared out between the renders the gate runs at once, so a loaded host runs one thread per
   * core instead of renders × cores threads that wait on each other.
   */
  renderThreads: number;
  /** Renders waiting for a slot; beyond it a render is refused with 503 at once. */
  renderQueue: number;
  /** Longest wait for a render slot before a 503, ms. */
  renderWaitMs: number;
  /**
   * Stored variants per file (thumbnail not counted). Rendering one more evicts the least
   * recently used, so distinct transforms cannot grow storage without bound.
   */
  maxVariantsPerFile: number;
}

export function defaultDeliveryLimits(): Omit<DeliveryLimits, "renderThreads"> {
  const cores = availableParallelism();
  return {
    renderConcurrency: cores,
    renderQueue: 8 * cores,
    renderWaitMs: SETTINGS.TROVE_RENDER_WAIT_MS.default,
    maxVariantsPerFile: SETTINGS.TROVE_MAX_VARIANTS_PER_FILE.default,
  };
}

export function resolveDeliveryLimits(
  input: Partial<Record<keyof DeliveryLimits, number | undefined>> = {},
): DeliveryLimits {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const limits = { ...defaultDeliveryLimits(), ...defined };
  const sharedOut = Math.max(1, Math.floor(availableParallelism() / limits.renderConcurrency));
  return { renderThreads: sharedOut, ...limits };
}
