import type {
  MultipartCompleteResult,
  MultipartSession,
  MultipartStartBodyInput,
} from "@trove/schema/zod-free";
import type { ClientContext } from "../client/client-context.js";
import { completeMultipart, startMultipart } from "./multipart-api.js";
import type { PartBody } from "./part.js";
import { sendPart } from "./send-part.js";

/**
 * The multipart endpoints one by one, for callers who run their own part scheduling.
 * `upload()` does all of this (and resuming) for you.
 */
export interface MultipartResource {
  start(body: MultipartStartBodyInput, options?: { signal?: AbortSignal }): Promise<MultipartSession>;
  /** PUT one part to `parts[i]` with no API key; retried on its own like any idempotent request. */
  uploadPart(
    url: string,
    bytes: Blob | ArrayBuffer | Uint8Array<ArrayBuffer>,
    options?: { signal?: AbortSignal; onProgress?: (loaded: number) => void },
  ): Promise<void>;
  complete(sessionId: string, options?: { signal?: AbortSignal }): Promise<MultipartCompleteResult>;
}

export function multipartResource(ctx: ClientContext): MultipartResource {
  return {
    start: (body, options) => startMultipart(ctx, body, options?.signal),
    uploadPart: (url, bytes, options) => {
      const body: PartBody = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
      return sendPart(ctx, url, body, { signal: options?.signal, onSent: options?.onProgress });
    },
    complete: async (sessionId, options) => (await completeMultipart(ctx, sessionId, options?.signal)).data,
  };
}
