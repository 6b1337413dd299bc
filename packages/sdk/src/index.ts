// The rule every Trove component reads a key's kind by (server, SDK guard, examples).
export { type KeyKind, keyKindOf } from "@trove/schema/zod-free";
export type { ClientOptions, UploadClientOptions, UploadTokenSource } from "./client-options.js";
export { createClient, type TroveClient } from "./create-client.js";
export { createUploadClient, type TroveUploadClient, type UploadInput } from "./create-upload-client.js";
export { type DeliveryTarget, type DeliveryTransform, deliveryUrl } from "./delivery-url.js";
export * from "./errors.js";
export type {
  FileList,
  FileListItem,
  FilesResource,
  ListFilesQuery,
  RequestOptions,
  SignedUrl,
  SignedUrlOptions,
} from "./resources/files.js";
export type { FoldersResource } from "./resources/folders.js";
export type { ListSourcesQuery, SourcesResource } from "./resources/sources.js";
export type {
  CreateUploadTokenBody,
  UploadPolicy,
  UploadTokenResponse,
  UploadTokensResource,
} from "./resources/upload-tokens.js";
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
