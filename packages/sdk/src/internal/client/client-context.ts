import type { ApiClient, RequestSettings, UploadSchemas } from "../request/index.js";
import type { SessionResume } from "../upload/resumable-store.js";
import type { SessionStore } from "../upload/session-store.js";
import type { StreamInputs } from "../upload/stream-inputs.js";
import type { InputResolver } from "../upload/upload-input.js";

/** Everything a request or an upload needs from the client it was made with. */
export interface ClientContext extends RequestSettings, ApiClient {
  readonly uploadTimeout: number;
  readonly concurrency: number;
  readonly multipartThreshold: number;
  readonly smallUploads: "session" | "direct";
  readonly sessionStore: SessionStore | undefined;
  /** createClient's resume code; createUploadClient has none and uses its store's (resumable-store.ts). */
  readonly resume: SessionResume | undefined;
  /** The code that reads ReadableStream inputs; createUploadClient has it only when given (`streams`). */
  readonly streams: StreamInputs | undefined;
  readonly schemas: UploadSchemas;
  readonly resolveInput: InputResolver;
}
