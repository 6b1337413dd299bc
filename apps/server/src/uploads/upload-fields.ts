/**
 * Validation of upload requests with the shared schemas (`@trove/schema`), in the upload error
 * envelope: invalid `metadata` JSON -> 400 INVALID_METADATA; a bad `transform` -> 400
 * INVALID_TRANSFORM with the parser's message naming the directive; a `webhook_url` the SSRF
 * guard refuses as written (private IP literal, credentials, bad scheme) -> 400
 * REMOTE_URL_FORBIDDEN; anything else -> 400 VALIDATION_FAILED naming the field.
 *
 * Optional fields sent blank (`folder=""`, `transform=""`, as HTML forms do) count as absent.
 */
import { type DirectUploadFields, directUploadFieldsSchema, type RemoteUploadBody } from "@trove/schema";
import { HttpError } from "../errors/http-error.js";
import type { TrustedRangesInput } from "../network/trusted-ranges.js";
import { assertNoNul } from "../plugins/reject-nul.js";
import { BODY_NOT_OBJECT_MESSAGE, isJsonObject } from "../routes/endpoint-route.js";
import { checkWebhookUrl } from "../webhooks/delivery.js";
import type { RegisterFileInput } from "./register-file-input.js";
import { type FieldIssue, invalidFields, toUploadError } from "./upload-errors.js";

const directFieldsPartial = directUploadFieldsSchema.partial();

/** Drops blank strings, so an empty optional form field means "not given". */
function present(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => !(typeof value === "string" && value.trim() === "")),
  );
}

function fileNameRequired(): HttpError {
  return new HttpError(400, "file_name is required");
}

/** Checks the fields that arrived before the file, so a bad request stores nothing. */
export function checkEarlyDirectFields(
  fields: Record<string, string>,
  trustedRanges?: TrustedRangesInput,
): void {
  const parsed = directFieldsPartial.safeParse(present(fields));
  if (!parsed.success) throw invalidFields(parsed.error.issues);
  if (parsed.data.webhook_url) checkWebhook(parsed.data.webhook_url, trustedRanges);
}

export function parseDirectFields(
  fields: Record<string, string>,
  trustedRanges?: TrustedRangesInput,
): DirectUploadFields {
  const given = present(fields);
  if (given.file_name === undefined) throw fileNameRequired();
  const parsed = directUploadFieldsSchema.safeParse(given);
  if (!parsed.success) throw invalidFields(parsed.error.issues);
  assertNoNul(parsed.data, "Form fields");
  if (parsed.data.webhook_url) checkWebhook(parsed.data.webhook_url, trustedRanges);
  return parsed.data;
}

/** Blank optional fields of a remote-upload body count as absent, as in a form. */
export function withoutBlankFields(body: unknown): unknown {
  return isJsonObject(body) ? present(body) : body;
}

/** The 400 of a remote-upload body that failed its schema (the route's `invalidRequest`). */
export function remoteBodyError(body: unknown, issues: readonly FieldIssue[]): HttpError {
  if (!isJsonObject(body)) return new HttpError(400, BODY_NOT_OBJECT_MESSAGE);
  return invalidFields(issues);
}

/** What the schema cannot say about a valid remote-upload body: no NUL, a webhook the guard takes. */
export function checkRemoteBody(body: RemoteUploadBody, trustedRanges?: TrustedRangesInput): void {
  assertNoNul(body, "Request body");
  if (body.webhook_url) checkWebhook(body.webhook_url, trustedRanges);
}

/**
 * Refuses a webhook_url the SSRF guard refuses as written, before anything is stored. Host names
 * are checked again at delivery, on the addresses they resolve to then (a refusal there marks
 * the delivery failed without any connection).
 */
export function checkWebhook(url: string, trustedRanges?: TrustedRangesInput): void {
  try {
    checkWebhookUrl(url, { trustedRanges });
  } catch (error) {
    throw toUploadError(error);
  }
}

/** The direct upload's fields as `registerFile` takes them (a direct upload's form, a tus upload's metadata). */
export function registrationFields(fields: DirectUploadFields) {
  return {
    fileName: fields.file_name,
    folder: fields.folder,
    tags: fields.tags,
    metadata: fields.metadata,
    customId: fields.custom_id,
    randomPrefix: fields.random_prefix,
    isPrivate: fields.is_private,
    transform: fields.transform,
    expiresIn: fields.expires_in,
    embeddedMetadata: fields.embedded_metadata,
    webhookUrl: fields.webhook_url,
  } satisfies Partial<RegisterFileInput>;
}
