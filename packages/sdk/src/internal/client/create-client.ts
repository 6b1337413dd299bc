import {
  anyUploadResponseSchema,
  multipartCompleteResponseSchema,
  multipartSessionSchema,
} from "@trove/schema";
import { type DeliveryTarget, type DeliveryTransform, deliveryUrl, streamingUrl } from "../delivery-url.js";
import {
  type KyRequestsOptions,
  kyRequests,
  type ResponseSchema,
  requestNotSent,
  type UploadSchemas,
} from "../request/index.js";
import {
  type FilesResource,
  filesResource,
  type SignedUrl,
  type SignedUrlOptions,
} from "../resources/files.js";
import { type FoldersResource, foldersResource } from "../resources/folders.js";
import { type SourcesResource, sourcesResource } from "../resources/sources.js";
import { type UploadTokensResource, uploadTokensResource } from "../resources/upload-tokens.js";
import { type UsageResource, usageResource } from "../resources/usage.js";
import { type MultipartResource, multipartResource } from "../upload/multipart-resource.js";
import { sessionResume } from "../upload/resumable-store.js";
import { streamInputs } from "../upload/stream-inputs.js";
import { type InputResolver, resolveWebInput, type UploadInput } from "../upload/upload-input.js";
import { withIssueText } from "../zod-issues.js";
import { isBrowserLike } from "./assert-key-allowed.js";
import { buildContext } from "./build-context.js";
import type { ClientContext } from "./client-context.js";
import type { ClientOptions } from "./client-options.js";
import { type TroveUploadClient, uploadClientOf } from "./create-upload-client.js";

export interface TroveClient<TInput = UploadInput> extends TroveUploadClient<TInput> {
  files: FilesResource;
  folders: FoldersResource;
  sources: SourcesResource;
  /** The low-level multipart calls; createUploadClient's users have them from createMultipartClient. */
  multipart: MultipartResource;
  /** Short-lived upload tokens for browsers (private key). */
  uploadTokens: UploadTokensResource;
  /** What the workspace stores and was served, and its quotas (private key). */
  usage: UsageResource;
  /** The delivery URL of a file, optionally transformed: `{assetsUrl}/{workspace_no}/{transform}/{path}`. */
  url(file: DeliveryTarget, transform?: DeliveryTransform): string;
  /**
   * The HLS master playlist of a stored video with these rendition heights (144..2160,
   * ascending): `{assetsUrl}/{workspace_no}/st_240_360/{path}/ar-master.m3u8`. Served from a later
   * release: the server parses the form but does not render streams yet.
   */
  streamingUrl(file: DeliveryTarget, heights: readonly number[]): string;
  /**
   * A signed delivery URL of a file (private or not), from the server: `files.signedUrl` for a
   * file record or a file number.
   */
  signedUrl(file: string | { file_no: string }, options?: SignedUrlOptions): Promise<SignedUrl>;
}

/**
 * Upload responses checked with the shared zod schemas, like every other response of this client,
 * and kept as received: zod drops the keys an object schema does not list, and the wrapped upload
 * answer carries every field of the flat record in `data`, more than the envelope schema names
 * (the hosted service's minimal `data` passes the same check).
 */
export const zodUploadSchemas: UploadSchemas = {
  upload: asReceived(withIssueText(anyUploadResponseSchema)),
  session: withIssueText(multipartSessionSchema),
  complete: asReceived(withIssueText(multipartCompleteResponseSchema)),
};

function asReceived<T>(schema: ResponseSchema<T>): ResponseSchema<T> {
  return {
    safeParse(value) {
      const result = schema.safeParse(value);
      return result.success ? { success: true, data: value as T } : result;
    },
  };
}

export function clientOf<TInput>(
  ctx: ClientContext,
  delivery: Pick<ClientOptions, "assetsUrl" | "workspaceNo">,
): TroveClient<TInput> {
  const files = filesResource(ctx);
  return {
    ...uploadClientOf<TInput>(ctx),
    multipart: multipartResource(ctx),
    files,
    folders: foldersResource(ctx),
    sources: sourcesResource(ctx),
    uploadTokens: uploadTokensResource(ctx),
    usage: usageResource(ctx),
    url: (file, transform) => deliveryUrl(file, transform, delivery.assetsUrl, delivery.workspaceNo),
    streamingUrl: (file, heights) => streamingUrl(file, heights, delivery.assetsUrl, delivery.workspaceNo),
    signedUrl: (file, options) => files.signedUrl(typeof file === "string" ? file : file.file_no, options),
  };
}

/**
 * A createClient for one runtime: ky for every API call, zod for every response, and the inputs
 * `resolveInput` knows. In a runtime that can tell (Node, Bun, Deno), a POST whose connection was
 * refused is sent again (`requestNotSent`).
 */
export function fullClient<TInput>(
  options: ClientOptions,
  resolveInput: InputResolver,
  requestNotSent?: (error: unknown) => boolean,
): TroveClient<TInput> {
  const engine: KyRequestsOptions = { newRequestId: requestIdMaker() };
  return clientOf(
    buildContext(options, {
      requests: (settings) => kyRequests(settings, engine),
      schemas: zodUploadSchemas,
      resolveInput,
      requestNotSent,
      resume: sessionResume,
      streams: streamInputs,
    }),
    { assetsUrl: options.assetsUrl, workspaceNo: options.workspaceNo },
  );
}

/**
 * Outside browsers, a random id per call (`x-request-id`): the API's CORS does not let a page
 * send that header, and `crypto.randomUUID` needs a secure context there anyway.
 */
export function requestIdMaker(): (() => string) | undefined {
  const { crypto } = globalThis;
  return isBrowserLike() || typeof crypto?.randomUUID !== "function" ? undefined : () => crypto.randomUUID();
}

/**
 * The whole API: uploads, files, folders, sources, upload tokens and delivery URLs, with web inputs
 * (in Node, the package's `node` condition gives the version that also takes file paths and
 * Readables). Used in Node, Bun or Deno it also retries a POST whose connection was refused
 * (browsers never report that).
 */
export function createClient(options: ClientOptions): TroveClient {
  return fullClient(options, resolveWebInput, requestNotSent);
}
