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
   * One attempt of an API request, with the caller's headers and the key it is given. The only
   * thing that sends the key: nothing else has to refuse redirects.
   */
  readonly transport: ApiTransport;
  /**
   * The `x-api-key` of the next request: the client's key, or an upload token from the caller's
   * getter (upload-token-key.ts).
   */
  readonly key: () => string | Promise<string>;
  /** Only with a token getter: forgets a token the server refused (401), so key() gets another. */
  readonly renewKey?: (() => void) | undefined;
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
