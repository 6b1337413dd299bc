/** Multipart upload settings (`config.multipart`); the variables and defaults are in src/config/settings.ts. */
import { SETTINGS } from "../config/settings.js";

export type MultipartMode = "gateway" | "direct";

export interface MultipartConfig {
  /**
   * `gateway`: part URLs point at Trove's own signed part gateway (every driver).
   * `direct`: presigned S3 UploadPart URLs (s3 driver only).
   */
  mode: MultipartMode;
  /** Base URL of the part gateway in part URLs (no trailing slash); undefined: `publicUrl`. */
  gatewayUrl: string | undefined;
  /** Session (and part URL) lifetime when the start request has no `ttl_seconds`. */
  defaultTtlSeconds: number;
  /** Largest `size` a multipart start accepts, bytes. */
  maxFileBytes: number;
  /** How often the sweeper job runs, ms. */
  sweepIntervalMs: number;
  /**
   * Minimum age, ms, of a stored object or store upload that no row points at before the sweeper
   * removes it. It must exceed the longest gap between an object's write and its row's insert.
   */
  orphanGraceMs: number;
}

export const DEFAULT_MULTIPART_CONFIG: MultipartConfig = {
  mode: SETTINGS.TROVE_MULTIPART_MODE.default,
  gatewayUrl: undefined,
  defaultTtlSeconds: SETTINGS.TROVE_MULTIPART_TTL_SECONDS.default,
  maxFileBytes: SETTINGS.TROVE_MAX_MULTIPART_BYTES.default,
  sweepIntervalMs: SETTINGS.TROVE_MULTIPART_SWEEP_INTERVAL_MS.default,
  orphanGraceMs: SETTINGS.TROVE_ORPHAN_GRACE_MS.default,
};

export function resolveMultipartConfig(input: Partial<MultipartConfig> = {}): MultipartConfig {
  // The lookbehind keeps trimming linear: `/\/+$/` alone is quadratic on a long inner run of `/`.
  const gatewayUrl = input.gatewayUrl?.replace(/(?<!\/)\/+$/, "");
  return { ...DEFAULT_MULTIPART_CONFIG, ...input, gatewayUrl: gatewayUrl || undefined };
}
