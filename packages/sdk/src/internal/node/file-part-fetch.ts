import { isRedirectRefusal } from "../request/redirect-refusal.js";
import { FileRangeBlob } from "./file-range-blob.js";

/**
 * The Node clients' fetch: a request whose body is a part of a file path (FileRangeBlob) is sent
 * with `redirect: "error"` and no window. Otherwise fetch (the spec, and undici) clones the
 * request to be able to follow a redirect, which tees the body stream and keeps every chunk of
 * the part in the unread branch until the request ends: four parts of 32 MiB in flight held
 * 128 MiB. Should the URL redirect after all (S3 answers 307 for a bucket in another region), the
 * part is sent again the ordinary way, which follows it (the Blob is read anew).
 */
export function withFilePartBodies(custom: typeof fetch | undefined): typeof fetch {
  return async (input, init) => {
    // Looked up per call: test tools and polyfills replace globalThis.fetch later.
    const fetchFn = custom ?? globalThis.fetch;
    if (!(init?.body instanceof FileRangeBlob)) return fetchFn(input, init);
    try {
      return await fetchFn(input, { ...init, redirect: "error", window: null });
    } catch (error) {
      if (!isRedirectRefusal(error) || init.signal?.aborted) throw error;
      return fetchFn(input, init);
    }
  };
}
