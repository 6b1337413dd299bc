import type { ApiTransport } from "./api-transport.js";
import type { UploadSchemas } from "./response-schema.js";
import type { RetryPolicy } from "./retry-policy.js";
import type { SessionStore } from "./upload/session-store.js";
import type { UploadSource } from "./upload/upload-source.js";

/** Turns what a caller passed to `upload()` into an UploadSource; undefined when it cannot. */
export type InputResolver = (input: unknown) => Promise<UploadSource | undefined>;

/** Everything a request or an upload needs from the client it was made with. */
export interface ClientContext {
  /** One attempt of an API request, with the key and the caller's headers. */
  readonly transport: ApiTransport;
  readonly baseUrl: string;
  /** The headers `transport` sends, for requests that go through XMLHttpRequest instead. */
  readonly headers: Readonly<Record<string, string>>;
  /** Plain fetch for part uploads to presigned URLs, which must carry no key. */
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
