// The rule every Trove component reads a key's kind by (server, SDK guard, examples).
export { type KeyKind, keyKindOf } from "@trove/schema/zod-free";
export type {
  ClientOptions,
  UploadClientOptions,
  UploadTokenSource,
} from "./internal/client/client-options.js";
export { createClient, type TroveClient } from "./internal/client/create-client.js";
export { createMultipartClient } from "./internal/client/create-multipart-client.js";
export { createUploadClient, type TroveUploadClient } from "./internal/client/create-upload-client.js";
export {
  type DeliveryTarget,
  type DeliveryTransform,
  deliveryUrl,
  streamingUrl,
} from "./internal/delivery-url.js";
export * from "./internal/errors.js";
export type {
  FileList,
  FileListItem,
  FilesResource,
  ListFilesQuery,
  RequestOptions,
  SignedUrl,
  SignedUrlOptions,
} from "./internal/resources/files.js";
export type { FoldersResource } from "./internal/resources/folders.js";
export type { ListSourcesQuery, SourcesResource } from "./internal/resources/sources.js";
export type {
  CreateUploadTokenBody,
  UploadPolicy,
  UploadTokenResponse,
  UploadTokensResource,
} from "./internal/resources/upload-tokens.js";
export type { Usage, UsageDay, UsageQuery, UsageResource } from "./internal/resources/usage.js";
export { localStorageSessionStore } from "./internal/upload/local-storage-session-store.js";
export type { MultipartResource } from "./internal/upload/multipart-resource.js";
export { type ResumableStore, resumable } from "./internal/upload/resumable-store.js";
export type { SessionStore, StoredUploadSession } from "./internal/upload/session-store.js";
export type { StoredSessionSummary } from "./internal/upload/stored-sessions.js";
export { type StreamInputs, streamInputs } from "./internal/upload/stream-inputs.js";
export type { UploadInput } from "./internal/upload/upload-input.js";
export type {
  RemoteUploadOptions,
  StoreOptions,
  StoreTimeOptions,
  UploadOptions,
  UploadProgress,
} from "./internal/upload/upload-options.js";
export type { UploadResult } from "./internal/upload/upload-result.js";
export type { UploadTask } from "./internal/upload/upload-task.js";
