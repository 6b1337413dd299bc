import { fetchRequests } from "../request/index.js";
import { remoteUpload } from "../upload/remote-upload.js";
import type { SessionResume } from "../upload/resumable-store.js";
import { resumeOf } from "../upload/resume-of.js";
import { startUpload } from "../upload/run-upload.js";
import type { StoredSessionSummary } from "../upload/stored-sessions.js";
import { type InputResolver, resolveWebInput, type UploadInput } from "../upload/upload-input.js";
import type { RemoteUploadOptions, UploadOptions } from "../upload/upload-options.js";
import { uploadResponseChecks } from "../upload/upload-response-checks.js";
import type { UploadResult } from "../upload/upload-result.js";
import type { UploadTask } from "../upload/upload-task.js";
import { buildContext } from "./build-context.js";
import type { ClientContext } from "./client-context.js";
import type { UploadClientOptions } from "./client-options.js";

/** The endpoints a public key or an upload token may call: direct, remote-URL and multipart upload. */
export interface TroveUploadClient<TInput = UploadInput> {
  /** Uploads `input`, directly or in parts by size. The task is awaitable and can pause/resume/abort. */
  upload(input: TInput, options?: UploadOptions): UploadTask;
  /** The service fetches a public http(s) URL and stores it. */
  uploadFromUrl(url: string, options?: RemoteUploadOptions): Promise<UploadResult>;
  /**
   * The multipart uploads the client's `sessionStore` can resume (name, size, bytes confirmed,
   * start time), so a page can offer "Resume photo.raw (70%): choose the file again".
   */
  listStoredSessions(): Promise<StoredSessionSummary[]>;
}

export function uploadClientOf<TInput>(ctx: ClientContext): TroveUploadClient<TInput> {
  return {
    upload: (input, options) => startUpload(ctx, input, options),
    uploadFromUrl: (url, options) => remoteUpload(ctx, url, options),
    listStoredSessions: async () => (await resumeOf(ctx, ctx.sessionStore)?.list(ctx.sessionStore)) ?? [],
  };
}

/**
 * An upload-only client for browsers, for public keys or upload tokens (`token`, fetched from your
 * backend: see UploadTokenSource): no management endpoints, no ky (plain fetch: fetchRequests),
 * and responses checked structurally instead of with zod (upload-response-checks.ts), so it
 * stays a fraction of createClient's size. Retry rules, errors and uploads are the same code,
 * except that it does not look for refused connections (browsers never report them; a POST that
 * failed to connect is not sent again): Node's createUploadClient does.
 */
export function createUploadClient(options: UploadClientOptions): TroveUploadClient {
  return uploadOnlyClient(options, resolveWebInput);
}

/** A createUploadClient for one runtime: the inputs it takes, and whether it can tell a refused connection. */
export function uploadOnlyClient<TInput>(
  options: UploadClientOptions,
  resolveInput: InputResolver,
  requestNotSent?: (error: unknown) => boolean,
  resume?: SessionResume,
): TroveUploadClient<TInput> {
  return uploadClientOf(uploadOnlyContext(options, resolveInput, requestNotSent, resume));
}

/** The context of an upload-only client: plain fetch and structural response checks, no zod. */
export function uploadOnlyContext(
  options: UploadClientOptions,
  resolveInput: InputResolver,
  requestNotSent?: (error: unknown) => boolean,
  // Node's upload client has the resume code (size does not matter there): any store resumes.
  resume?: SessionResume,
): ClientContext {
  return buildContext(options, {
    requests: fetchRequests,
    schemas: uploadResponseChecks,
    resolveInput,
    requestNotSent,
    resume,
  });
}
