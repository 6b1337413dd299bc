import { messageResponseSchema } from "../common.js";
import {
  errorMessageSchema,
  errorOnlySchema,
  failureSchema,
  failureWithMessageSchema,
  fileNotFoundCodeSchema,
  rateLimitErrorSchema,
  uploadErrorSchema,
} from "../errors.js";
import { fileDetailsSchema, fileListRowSchema, fileRecordSchema, pageMetaSchema } from "../files.js";
import { createFolderResponseSchema, folderListRowSchema, folderRecordSchema } from "../folders.js";
import {
  multipartCompleteResultSchema,
  multipartSessionSchema,
  partUploadResponseSchema,
} from "../multipart.js";
import {
  azureConfigurationSchema,
  googleCloudConfigurationSchema,
  imageSourceConfigurationSchema,
  s3ConfigurationSchema,
  sourceSchema,
  sourceTypeSchema,
} from "../sources.js";
import {
  uploadEnvelopeResponseSchema,
  uploadResponseSchema,
  wrappedUploadResponseSchema,
} from "../uploads.js";

/**
 * Schemas published under `components.schemas`, by stable name. Wherever one of these schema
 * objects appears in an endpoint, the document holds a `$ref` to it instead of a copy.
 * Only schemas used at the top of a response or body, or in both a request and a response
 * with one rendering, are listed: a schema nested only inside another component would be
 * rendered twice (once per io) by zod-openapi.
 */
export const COMPONENT_SCHEMAS = {
  // Error envelopes, one per shape in the spec's Errors section.
  ErrorOnly: errorOnlySchema,
  ErrorWithMessage: errorMessageSchema,
  FailureWithMessage: failureWithMessageSchema,
  Failure: failureSchema,
  UploadError: uploadErrorSchema,
  RateLimitError: rateLimitErrorSchema,
  FileNotFoundError: fileNotFoundCodeSchema,
  // Resources.
  UploadResponse: uploadResponseSchema,
  UploadEnvelopeResponse: uploadEnvelopeResponseSchema,
  WrappedUploadResponse: wrappedUploadResponseSchema,
  MultipartSession: multipartSessionSchema,
  MultipartCompleteResult: multipartCompleteResultSchema,
  PartUploadResponse: partUploadResponseSchema,
  FileListRow: fileListRowSchema,
  PageMeta: pageMetaSchema,
  FileDetails: fileDetailsSchema,
  FileRecord: fileRecordSchema,
  CreateFolderResponse: createFolderResponseSchema,
  FolderListRow: folderListRowSchema,
  FolderRecord: folderRecordSchema,
  SourceType: sourceTypeSchema,
  S3Configuration: s3ConfigurationSchema,
  AzureConfiguration: azureConfigurationSchema,
  GoogleCloudConfiguration: googleCloudConfigurationSchema,
  ImageSourceConfiguration: imageSourceConfigurationSchema,
  Source: sourceSchema,
  MessageResponse: messageResponseSchema,
} as const;

export type ComponentSchemaName = keyof typeof COMPONENT_SCHEMAS;
