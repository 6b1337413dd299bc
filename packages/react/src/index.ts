// `@trove/react`: the provider, the upload hook, the uploader, the image and the video. Every module is
// safe to import on a server (nothing touches a browser global until an effect or an event runs);
// the built files start with "use client" for React Server Components.
export type { StoredSessionSummary, TroveError, UploadResult } from "@trove/sdk/upload";
export * from "./editing/index.js";
export { checkFile, type FileRejection, matchesAccept, type RejectionReason } from "./file-checks.js";
export { formatBytes, formatDuration, formatSpeed } from "./format-transfer.js";
export * from "./image.js";
export type { ImageLimits } from "./image-limits.js";
export { type TroveContextValue, useTroveContext } from "./trove-context.js";
export { type TroveClientOptions, TroveProvider, type TroveProviderProps } from "./trove-provider.js";
export { TroveUploader, type TroveUploaderProps, type UploaderSource } from "./trove-uploader.js";
export { TroveUploaderModal, type TroveUploaderModalProps } from "./trove-uploader-modal.js";
export {
  initialUploadState,
  itemsToStart,
  type UploadAction,
  type UploadItem,
  type UploadState,
  type UploadStatus,
  uploadReducer,
} from "./upload-state.js";
export {
  ENGLISH as englishUploaderStrings,
  type PluralForms,
  type UploaderStrings,
} from "./uploader-strings.js";
export {
  type FileUploadOptions,
  type UseUploadOptions,
  type UseUploadResult,
  useUpload,
} from "./use-upload.js";
export * from "./video.js";
