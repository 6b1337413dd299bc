// The Node build of `@trove/sdk`: what `import "@trove/sdk"` resolves to in Node (the package's
// `node` export condition), and `@trove/sdk/node` for code that names it. Everything of the main
// entry, with clients whose upload() also takes a file path (or file: URL) and a Node Readable,
// and a SessionStore in a file; both clients send a POST again when the connection was refused,
// and send the parts of a file path without a copy held for redirects (file-part-fetch.ts).
// Only this entry imports `node:*`, so browser bundles of the other entries never see it.
import type { Readable } from "node:stream";
import type { ClientOptions, UploadClientOptions } from "./internal/client/client-options.js";
import { fullClient, type TroveClient } from "./internal/client/create-client.js";
import { type TroveUploadClient, uploadOnlyClient } from "./internal/client/create-upload-client.js";
import { withFilePartBodies } from "./internal/node/file-part-fetch.js";
import { resolveNodeInput } from "./internal/node/node-upload-input.js";
import { requestNotSent } from "./internal/request/index.js";
import type { UploadInput } from "./internal/upload/upload-input.js";

export * from "./index.js";
export { fileSessionStore } from "./internal/node/file-session-store.js";

/** Web inputs, plus a file path, a `file:` URL or a Node Readable. */
export type NodeUploadInput = UploadInput | string | URL | Readable;

export function createClient(options: ClientOptions): TroveClient<NodeUploadInput> {
  return fullClient(
    { ...options, fetch: withFilePartBodies(options.fetch) },
    resolveNodeInput,
    requestNotSent,
  );
}

export function createUploadClient(options: UploadClientOptions): TroveUploadClient<NodeUploadInput> {
  return uploadOnlyClient(
    { ...options, fetch: withFilePartBodies(options.fetch) },
    resolveNodeInput,
    requestNotSent,
  );
}
