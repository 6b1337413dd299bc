import type { ApiTransport } from "./api-transport.js";
import type { UploadSchemas } from "./response-schema.js";
import type { RetryPolicy } from "./retry-policy.js";
import type { SessionStore } from "./upload/session-store.js";
import type { UploadSource } from "./upload/upload-source.js";

/** Turns what a caller passed to `upload()` into an UploadSource; undefined when it cannot. */
export type InputResolver = (input: unknown) => Promise<UploadSource | undefined>;

/** Everything a request or an upload needs from the client it was made with. */
export interface ClientContext {
  /**
   * One attempt of an API request, with the key and the caller's headers. The only thing that
   * holds them: nothing else can send the key, so nothing else has to refuse redirects.
   */
  readonly transport: ApiTransport;
  readonly baseUrl: string;
  /**
   * Plain fetch for part uploads to presigned URLs, which must carry no key. It follows redirects
   * (storage may redirect, as S3 does to a bucket's region): the URL is all the target learns.
   */
  readonly fetch: typeof fetch;
  readonly retry: RetryPolicy;
  readonly timeout: number;
  readonly uploadTimeout: number;
  readonly concurrency: number;
  readonly multipartThreshold: number;
  readonly sessionStore: SessionStore | undefined;
  readonly schemas: UploadSchemas;
  readonly resolveInput: InputResolver;
  /**
   * Whether a failed fetch provably never left (refused connection): then even a POST is sent
   * again. Only runtimes that say so (Node, Bun, Deno) get one; browsers never tell.
   */
  readonly requestNotSent?: ((error: unknown) => boolean) | undefined;
}
