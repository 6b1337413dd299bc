/**
 * Tries a source's origin with its stored credentials (`POST /api/v1/sources/:sourceId/test`),
 * through the code deliveries read origins with, so the SSRF guard, the trusted ranges and the
 * origin deadline (TROVE_ORIGIN_TIMEOUT_MS) apply exactly as they will when files are served:
 *
 *   const result = await testSource(settings, source);   // { ok, status, message, elapsed_ms }
 *
 * - `image_source` (a web server): `GET` of its base URL for one byte (`Range: bytes=0-0`); ok
 *   for a 2xx or 3xx answer, and `status` is the server's.
 * - S3, Azure, Google Cloud Storage: the reader asks for one byte of an object that should not
 *   exist (PROBE_PATH), the cheapest authenticated call each offers. The origin answering "no
 *   such object" (404) proves the credentials and the bucket/container work: ok. A refusal of
 *   the credentials is `status` 403, not ok; anything else (unreachable, refused address, time
 *   out) has no status. A vendor error is reported as its kind, never with its body.
 *
 * `message` is the origin reader's OriginError message (./origins/origin-error.ts): it names the
 * source and the cause, and never holds a credential or a resolved address.
 */
import type { SourceType } from "@trove/schema";
import { discardBody, safeFetch } from "../network/safe-fetch.js";
import { openConfiguration } from "./configuration-secrets.js";
import { type OriginReaderSettings, OriginReaders } from "./origins/create-origin-reader.js";
import { imageSourceError } from "./origins/image-source-origin.js";
import { OriginError } from "./origins/origin-error.js";

/** The object a bucket-like origin is asked for: named so that an origin's access log explains it. */
export const PROBE_PATH = ".trove-source-test";

export interface SourceTestResult {
  ok: boolean;
  status: number | null;
  message: string | null;
  elapsed_ms: number;
}

export interface SourceTestRow {
  id: string;
  name: string;
  type: SourceType;
  configuration: unknown;
  createdAt: Date;
  updatedAt: Date | null;
}

export interface SourceTestSettings extends OriginReaderSettings {
  /** Deadline of the whole try, ms (the origin read deadline of deliveries). */
  timeoutMs: number;
}

export async function testSource(
  settings: SourceTestSettings,
  source: SourceTestRow,
): Promise<SourceTestResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(settings.timeoutMs);
  const outcome =
    source.type === "image_source"
      ? await probeWebServer(settings, source, signal)
      : await probeBucket(settings, source, signal);
  return { ...outcome, elapsed_ms: Math.round(performance.now() - started) };
}

type Outcome = Omit<SourceTestResult, "elapsed_ms">;

async function probeWebServer(
  settings: SourceTestSettings,
  source: SourceTestRow,
  signal: AbortSignal,
): Promise<Outcome> {
  const { base_url } = openConfiguration(settings.secretKey, source.configuration) as { base_url: string };
  try {
    const response = await safeFetch(base_url, {
      headers: { range: "bytes=0-0", "accept-encoding": "identity" },
      maxBytes: 64 * 1024,
      signal,
      trustedRanges: settings.trustedRanges,
      label: `source "${source.name}"`,
      ...(settings.doubles?.lookup ? { lookup: settings.doubles.lookup } : {}),
      ...(settings.doubles?.connect ? { connect: settings.doubles.connect } : {}),
    });
    await discardBody(response.body);
    const ok = response.status >= 200 && response.status < 400;
    return {
      ok,
      status: response.status,
      message: ok ? null : `Source "${source.name}": the base URL answered HTTP ${response.status}`,
    };
  } catch (error) {
    return { ok: false, status: null, message: imageSourceError(error, source.name, signal).message };
  }
}

async function probeBucket(
  settings: SourceTestSettings,
  source: SourceTestRow,
  signal: AbortSignal,
): Promise<Outcome> {
  // A reader of its own, closed after the try: nothing of it outlives the request.
  const readers = new OriginReaders(settings);
  try {
    const reader = readers.readerOf({ ...source, version: source.updatedAt ?? source.createdAt });
    const result = await reader.read({ path: PROBE_PATH, maxBytes: 1, signal });
    if (result.kind === "object") result.object.body.destroy();
    return { ok: true, status: 200, message: null };
  } catch (error) {
    if (!(error instanceof OriginError)) {
      return { ok: false, status: null, message: `Source "${source.name}": the origin could not be read` };
    }
    if (error.kind === "not_found") return { ok: true, status: 404, message: null };
    // An object larger than one byte answered: the origin works.
    if (error.kind === "too_large") return { ok: true, status: 200, message: null };
    return { ok: false, status: error.kind === "denied" ? 403 : null, message: error.message };
  } finally {
    readers.close();
  }
}
