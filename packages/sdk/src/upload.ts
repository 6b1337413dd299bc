// The upload-only browser entry: createUploadClient and what its callers touch, nothing that
// pulls in zod or the management endpoints (bundle-size.test.ts keeps it under budget).

// The rule every Trove component reads a key's kind by (server, SDK guard, examples).
export { type KeyKind, keyKindOf } from "@trove/schema/zod-free";
export type { ClientOptions, UploadClientOptions, UploadTokenSource } from "./client-options.js";
export { createUploadClient, type TroveUploadClient, type UploadInput } from "./create-upload-client.js";
export * from "./errors.js";
export { localStorageSessionStore } from "./upload/local-storage-session-store.js";
export type { MultipartResource } from "./upload/multipart-resource.js";
export type { SessionStore, StoredUploadSession } from "./upload/session-store.js";
export type { StoredSessionSummary } from "./upload/stored-sessions.js";
export type {
  RemoteUploadOptions,
  StoreOptions,
  StoreTimeOptions,
  UploadOptions,
  UploadProgress,
} from "./upload/upload-options.js";
export type { UploadResult } from "./upload/upload-result.js";
export type { UploadTask } from "./upload/upload-task.js";
