// `@trove/sdk/node`: everything of `@trove/sdk`, with clients whose upload() also takes a file
// path (or file: URL) and a Node Readable, and a SessionStore in a file; both clients send a POST
// again when the connection was refused. Only this entry imports `node:*`, so browser bundles of
// the other entries never see it.
import type { Readable } from "node:stream";
import { buildContext } from "./build-context.js";
import type { InputResolver } from "./client-context.js";
import type { ClientOptions, UploadClientOptions } from "./client-options.js";
import { clientOf, type TroveClient, zodUploadSchemas } from "./create-client.js";
import { type TroveUploadClient, type UploadInput, uploadClientOf } from "./create-upload-client.js";
import { fetchTransport } from "./fetch-transport.js";
import { kyTransport } from "./ky-transport.js";
import { nodeUploadSource } from "./node/node-upload-source.js";
import { requestNotSent } from "./request-not-sent.js";
import { uploadResponseChecks } from "./upload/upload-response-checks.js";
import { webUploadSource } from "./upload/upload-source.js";

export * from "./index.js";
export { fileSessionStore } from "./node/file-session-store.js";

/** Web inputs, plus a file path, a `file:` URL or a Node Readable. */
export type NodeUploadInput = UploadInput | string | URL | Readable;

const resolveNodeInput: InputResolver = async (input) =>
  (await nodeUploadSource(input)) ?? webUploadSource(input);

export function createClient(options: ClientOptions): TroveClient<NodeUploadInput> {
  return clientOf(
    buildContext(options, {
      transport: kyTransport,
      schemas: zodUploadSchemas,
      resolveInput: resolveNodeInput,
      requestNotSent,
    }),
    { assetsUrl: options.assetsUrl, workspaceNo: options.workspaceNo },
  );
}

export function createUploadClient(options: UploadClientOptions): TroveUploadClient<NodeUploadInput> {
  return uploadClientOf(
    buildContext(options, {
      transport: fetchTransport,
      schemas: uploadResponseChecks,
      resolveInput: resolveNodeInput,
      requestNotSent,
    }),
  );
}
