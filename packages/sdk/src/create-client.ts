import {
  anyUploadResponseSchema,
  multipartCompleteResponseSchema,
  multipartSessionSchema,
} from "@trove/schema";
import { buildContext } from "./build-context.js";
import type { ClientContext } from "./client-context.js";
import type { ClientOptions } from "./client-options.js";
import {
  resolveWebInput,
  type TroveUploadClient,
  type UploadInput,
  uploadClientOf,
} from "./create-upload-client.js";
import { type DeliveryTarget, type DeliveryTransform, deliveryUrl } from "./delivery-url.js";
import { kyTransport } from "./ky-transport.js";
import { requestNotSent } from "./request-not-sent.js";
import {
  type FilesResource,
  filesResource,
  type SignedUrl,
  type SignedUrlOptions,
} from "./resources/files.js";
import { type FoldersResource, foldersResource } from "./resources/folders.js";
import { type SourcesResource, sourcesResource } from "./resources/sources.js";
import { type UploadTokensResource, uploadTokensResource } from "./resources/upload-tokens.js";
import type { UploadSchemas } from "./response-schema.js";
import { withIssueText } from "./zod-issues.js";

export interface TroveClient<TInput = UploadInput> extends TroveUploadClient<TInput> {
  files: FilesResource;
  folders: FoldersResource;
  sources: SourcesResource;
  /** Short-lived upload tokens for browsers (private key). */
  uploadTokens: UploadTokensResource;
  /** The delivery URL of a file, optionally transformed: `{assetsUrl}/{workspace_no}/{transform}/{path}`. */
  url(file: DeliveryTarget, transform?: DeliveryTransform): string;
  /**
   * A signed delivery URL of a file (private or not), from the server: `files.signedUrl` for a
   * file record or a file number.
   */
  signedUrl(file: string | { file_no: string }, options?: SignedUrlOptions): Promise<SignedUrl>;
}

/** Upload responses parsed with the shared zod schemas, like every other response of this client. */
export const zodUploadSchemas: UploadSchemas = {
  upload: withIssueText(anyUploadResponseSchema),
  session: withIssueText(multipartSessionSchema),
  complete: withIssueText(multipartCompleteResponseSchema),
};

export function clientOf<TInput>(
  ctx: ClientContext,
  delivery: Pick<ClientOptions, "assetsUrl" | "workspaceNo">,
): TroveClient<TInput> {
  const files = filesResource(ctx);
  return {
    ...uploadClientOf<TInput>(ctx),
    files,
    folders: foldersResource(ctx),
    sources: sourcesResource(ctx),
    uploadTokens: uploadTokensResource(ctx),
    url: (file, transform) => deliveryUrl(file, transform, delivery.assetsUrl, delivery.workspaceNo),
    signedUrl: (file, options) => files.signedUrl(typeof file === "string" ? file : file.file_no, options),
  };
}

/**
 * The whole API: uploads, files, folders, sources, upload tokens and delivery URLs. Web APIs only; used in Node,
 * Bun or Deno it also retries a POST whose connection was refused (browsers never report that).
 */
export function createClient(options: ClientOptions): TroveClient {
  return clientOf(
    buildContext(options, {
      transport: kyTransport,
      schemas: zodUploadSchemas,
      resolveInput: resolveWebInput,
      requestNotSent,
    }),
    { assetsUrl: options.assetsUrl, workspaceNo: options.workspaceNo },
  );
}
