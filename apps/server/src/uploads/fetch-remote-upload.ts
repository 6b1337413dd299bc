/**
 * Remote-URL upload: fetches `remote_url` through the SSRF guard (src/network: every hop and
 * every resolved address checked, at most 5 redirects, one deadline, a byte cap) and streams the
 * body into storage through the ingest hasher. Nothing is buffered (a body of at most
 * KEEP_IN_MEMORY_BYTES stays referenced for the media pipeline, as for direct uploads).
 */
import { pipeline } from "node:stream";
import type { Connector, LookupAll } from "../network/guarded-connector.js";
import { safeFetch } from "../network/safe-fetch.js";
import type { TrustedRangesInput } from "../network/trusted-ranges.js";
import { objectKey, type StorageDriver } from "../storage/driver.js";
import { IngestStream } from "./ingest-stream.js";
import { KEEP_IN_MEMORY_BYTES, type ReceivedFile } from "./receive-direct-upload.js";
import { uuidV7 } from "./uuid-v7.js";

export interface FetchRemoteOptions {
  storage: StorageDriver;
  workspaceId: string;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  trustedRanges?: TrustedRangesInput;
  signal?: AbortSignal;
  /** Judges the origin's declared size (Content-Length; 0 without one) before a byte is stored. */
  beforeBody?: (declaredBytes: number) => Promise<void>;
  /** Injected resolver and connector (tests). */
  lookup?: LookupAll | undefined;
  connect?: Connector | undefined;
}

export interface FetchedFile extends ReceivedFile {
  /** The URL the body came from, after redirects. */
  finalUrl: string;
}

const MAX_NAME_LENGTH = 255;

/**
 * The default file name of a remote upload: the last non-empty path segment of the URL,
 * percent-decoded (`https://x/img/cat%20photo.jpg` -> `cat photo.jpg`), or `file` when there is
 * none or it cannot be a name (separators, control characters, dot names).
 */
export function fileNameFromUrl(url: string): string {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return "file";
  }
  const segment = pathname
    .split("/")
    .filter((s) => s !== "")
    .pop();
  if (segment === undefined) return "file";
  let name: string;
  try {
    name = decodeURIComponent(segment).trim();
  } catch {
    name = segment.trim();
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (name === "" || name === "." || name === ".." || /[/\\\u0000-\u001f\u007f]/.test(name)) return "file";
  return Array.from(name).slice(-MAX_NAME_LENGTH).join("");
}

export async function fetchRemoteUpload(
  url: string,
  fileName: string,
  options: FetchRemoteOptions,
): Promise<FetchedFile> {
  const response = await safeFetch(url, {
    maxBytes: options.maxBytes,
    maxRedirects: options.maxRedirects ?? 5,
    timeoutMs: options.timeoutMs,
    requireOk: true,
    label: "remote_url",
    trustedRanges: options.trustedRanges,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.connect ? { connect: options.connect } : {}),
  });
  if (options.beforeBody) {
    // The body already flows into safeFetch's byte limit, which fails it once the origin sends
    // more than maxBytes: until the pipeline below listens, that error needs a listener here, or
    // it is an uncaught exception that ends the process (a public key could ask for it).
    let failed: unknown;
    const keep = (error: unknown) => {
      failed ??= error;
    };
    response.body.on("error", keep);
    const declared = Number(response.headers["content-length"]);
    try {
      await options.beforeBody(Number.isSafeInteger(declared) && declared > 0 ? declared : 0);
    } catch (error) {
      response.body.destroy();
      throw error;
    } finally {
      response.body.off("error", keep);
    }
    if (failed !== undefined) throw failed;
  }
  const fileId = uuidV7();
  const key = objectKey(options.workspaceId, fileId, fileName);
  const ingest = new IngestStream({ keepUpTo: KEEP_IN_MEMORY_BYTES });
  // Errors of the body stream (deadline, byte cap, connection lost) are RemoteFetchErrors.
  const body = pipeline(response.body, ingest, () => {});
  await options.storage.put(key, body, { maxBytes: options.maxBytes });
  const contentType = response.headers["content-type"];
  return {
    ...ingest.result(),
    fileId,
    key,
    stored: true,
    clientFileName: fileName,
    clientMimeType: typeof contentType === "string" ? contentType : undefined,
    finalUrl: response.finalUrl,
  };
}
