import { type MultipartResource, multipartResource } from "../upload/multipart-resource.js";
import { resolveWebInput } from "../upload/upload-input.js";
import type { UploadClientOptions } from "./client-options.js";
import { uploadOnlyContext } from "./create-upload-client.js";

/**
 * The low-level multipart calls (start, uploadPart, complete) for a public key or upload tokens,
 * with createUploadClient's options and transport. Not a property of createUploadClient's client
 * (issue #35: its upload() does multipart itself, and few pages drive the parts by hand), so a
 * page that does not use them does not download them. createClient's client has them as
 * `client.multipart`.
 */
export function createMultipartClient(options: UploadClientOptions): MultipartResource {
  return multipartResource(uploadOnlyContext(options, resolveWebInput));
}
