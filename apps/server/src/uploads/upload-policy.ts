/**
 * Upload policies (`uploadPolicySchema` of @trove/schema): what an upload made with an upload token,
 * or with a public key that carries a policy, may store. Pure functions; each refusal is an
 * `HttpError` with its own `errorCode`, rendered in the group's envelope:
 *
 *   resolvePolicyFolder(policy, "avatars/u1")   -> "avatars/u1", or 403 FOLDER_NOT_ALLOWED
 *   checkPolicySize(policy, bytes)              -> 413 FILE_TOO_LARGE over `max_file_size`
 *   checkStoredSize(maxBytes, bytes)            -> 413 FILE_TOO_LARGE: a store-time transform's output over the cap
 *   checkPolicyType(policy, "image/png")        -> 415 TYPE_NOT_ALLOWED unless `allowed_types` admits it
 *   checkRemoteAllowed / checkMultipartAllowed  -> 403 REMOTE_NOT_ALLOWED / MULTIPART_NOT_ALLOWED
 *   checkTransformAllowed(policy, transform)    -> 403 TRANSFORM_NOT_ALLOWED when `allow_transforms` is false
 *   applyFixedFields(policy, fields)            -> the policy's tags, metadata, custom_id win; `private: true` makes the file private
 *
 * An absent field never restricts. `allow_remote`, `allow_multipart` and `allow_transforms`
 * forbid only when false: tokens are minted with `allow_remote: false` written out, public keys
 * keep today's behaviour.
 */
import type { UploadPolicy, UploadPolicyErrorCode } from "@trove/schema";
import { HttpError } from "../errors/http-error.js";
import { splitFolderPath } from "../folders/folder-path.js";

export type { UploadPolicy };

function refusal(status: number, errorCode: UploadPolicyErrorCode, message: string): HttpError {
  return new HttpError(status, message, { errorCode });
}

/**
 * A policy as it is stored and enforced: its folder cleaned by the upload name rules (400 for a
 * name uploads would refuse), `folder_match` written out when there is a folder.
 */
export function normalizePolicy(policy: UploadPolicy): UploadPolicy {
  const { folder, folder_match, ...rest } = policy;
  if (folder === undefined) return rest;
  return { ...rest, folder: splitFolderPath(folder).join("/"), folder_match: folder_match ?? "exact" };
}

/**
 * The folder an upload lands in: the request's (cleaned), or the policy's when the request names
 * none. Prefix policies compare whole segments, so `avatars` admits `avatars/u1`, never `avatars2`.
 */
export function resolvePolicyFolder(policy: UploadPolicy | undefined, requested: string | undefined): string {
  const folder = splitFolderPath(requested ?? "").join("/");
  if (policy?.folder === undefined) return folder;
  const allowed = policy.folder;
  if (folder === "" || folder === allowed) return folder === "" ? allowed : folder;
  if (policy.folder_match === "prefix" && (allowed === "" || folder.startsWith(`${allowed}/`))) return folder;
  const where = policy.folder_match === "prefix" ? `in "${allowed}" or below it` : `in "${allowed}"`;
  throw refusal(403, "FOLDER_NOT_ALLOWED", `Uploads with this credential must land ${where}`);
}

/** The largest upload a request may send: the server's cap or the policy's, whichever is smaller. */
export function effectiveMaxBytes(serverMax: number, policy: UploadPolicy | undefined): number {
  return Math.min(serverMax, policy?.max_file_size ?? serverMax);
}

export function checkPolicySize(policy: UploadPolicy | undefined, size: number): void {
  const max = policy?.max_file_size;
  if (max !== undefined && size > max) {
    throw refusal(413, "FILE_TOO_LARGE", `File exceeds the maximum upload size of ${max} bytes`);
  }
}

/**
 * The size cap holds for what is stored, not only for what arrived: a 20 KB JPEG asked for
 * w_2000,h_2000,c_fill at store time became an 11 MB file under a 20,000-byte policy (issue #30).
 * `maxBytes` is the same cap the upload was received under (effectiveMaxBytes).
 */
export function checkStoredSize(maxBytes: number, size: number): void {
  if (size > maxBytes) {
    throw refusal(
      413,
      "FILE_TOO_LARGE",
      `The transformed file would be ${size} bytes, over the maximum upload size of ${maxBytes} bytes`,
    );
  }
}

/** Whether `pattern` (`video/mp4` or `image/*`) admits a MIME type (parameters ignored). */
export function mimeTypeMatches(pattern: string, mimeType: string): boolean {
  const type = (mimeType.split(";", 1)[0] ?? "").trim().toLowerCase();
  if (pattern.endsWith("/*")) return type.startsWith(pattern.slice(0, -1));
  return type === pattern;
}

/** `mimeType` must be the sniffed type of the content: a client's claim is never passed here. */
export function checkPolicyType(policy: UploadPolicy | undefined, mimeType: string): void {
  const allowed = policy?.allowed_types;
  if (allowed === undefined || allowed.some((pattern) => mimeTypeMatches(pattern, mimeType))) return;
  throw refusal(
    415,
    "TYPE_NOT_ALLOWED",
    `This file is ${mimeType}; this credential accepts ${allowed.join(", ")} only`,
  );
}

export function checkRemoteAllowed(policy: UploadPolicy | undefined): void {
  if (policy?.allow_remote === false) {
    throw refusal(403, "REMOTE_NOT_ALLOWED", "Remote-URL uploads are not allowed with this credential");
  }
}

export function checkMultipartAllowed(policy: UploadPolicy | undefined): void {
  if (policy?.allow_multipart === false) {
    throw refusal(403, "MULTIPART_NOT_ALLOWED", "Multipart uploads are not allowed with this credential");
  }
}

/** A store-time transform this credential may not apply here (the policy, or strict mode). */
export function transformNotAllowed(
  message = "Store-time transforms are not allowed with this credential",
): HttpError {
  return refusal(403, "TRANSFORM_NOT_ALLOWED", message);
}

/** `transform`: the upload's store-time transform as sent (blank or absent: none asked). */
export function checkTransformAllowed(policy: UploadPolicy | undefined, transform: string | undefined): void {
  if (policy?.allow_transforms === false && transform !== undefined && transform.trim() !== "") {
    throw transformNotAllowed();
  }
}

export interface FixedFields {
  tags?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
  customId?: string | null | undefined;
  isPrivate?: boolean | undefined;
}

/** The request's fields with the policy's fixed ones in their place (never merged). */
export function applyFixedFields<T extends FixedFields>(policy: UploadPolicy | undefined, fields: T): T {
  if (!policy) return fields;
  return {
    ...fields,
    ...(policy.tags === undefined ? {} : { tags: policy.tags }),
    ...(policy.metadata === undefined ? {} : { metadata: policy.metadata }),
    ...(policy.custom_id === undefined ? {} : { customId: policy.custom_id }),
    ...(policy.private === true ? { isPrivate: true } : {}),
  };
}
