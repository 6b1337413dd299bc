import { errorCodeForStatus } from "@trove/schema/zod-free";
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  TroveError,
  type TroveErrorCode,
  type TroveErrorInit,
  ValidationError,
} from "../errors.js";
import { isRecord } from "../is-record.js";
import type { HttpAnswer } from "./http-answer.js";
import { parseRetryAfter } from "./retry-after.js";

type ErrorClass = new (message: string, init: TroveErrorInit) => TroveError;

// Short because every byte counts in the upload bundle; the code and the README say the rest.
export const REDIRECT_REFUSED = "The API key is never sent after a redirect";

/**
 * Turns any non-2xx response into the TroveError subclass for its status (a redirect into
 * REDIRECT_REFUSED). Every envelope of the spec's Errors section is read by the fields it may
 * carry (`error`, `message`, `errorCode`, `code`, `retryAfterSeconds`) rather than by matching one
 * schema, so a body from a proxy (HTML), an empty body or broken JSON still becomes a typed error
 * instead of a crash.
 */
export async function errorFromResponse(response: HttpAnswer): Promise<TroveError> {
  const status = response.status;
  // Read first, a redirect's body too: an unread body keeps its keep-alive connection busy.
  const text = await response.text().catch(() => "");
  // Not ok and below 400: a 3xx, or a browser's opaque redirect (status 0), which the transports
  // do not follow (both send the key). Not retried: the next attempt would be redirected too.
  if (status < 400) return new TroveError(REDIRECT_REFUSED, { code: "REDIRECT_REFUSED", status });
  const body = parseJsonOrText(text);
  const envelope = isRecord(body) ? body : {};
  const ErrorFor = CLASS_BY_STATUS[status] ?? (status >= 500 ? ServerError : TroveError);
  return new ErrorFor(messageOf(envelope, response, text), {
    status,
    // Trusted, not checked: the server sends only TroveErrorCode's codes, and a list to check
    // them against would put every code in the upload bundle.
    code: (stringField(envelope, "errorCode") ??
      stringField(envelope, "code") ??
      errorCodeForStatus(status)) as TroveErrorCode,
    retryAfterSeconds: retryAfterOf(envelope) ?? parseRetryAfter(response.headers.get("retry-after")),
    requestId: response.headers.get("x-request-id") ?? undefined,
    body,
  });
}

/**
 * The class of a failure by status; its code, when the body names none, is the server's default
 * for that status from the error catalogue of @trove/schema. Other 5xx are ServerError, anything
 * else TroveError.
 */
const CLASS_BY_STATUS: Record<number, ErrorClass> = {
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  408: TimeoutError,
  409: ConflictError,
  413: ValidationError,
  415: ValidationError,
  422: ValidationError,
  429: RateLimitError,
};

/**
 * `{ error: "Unauthorized", message: "Invalid or missing API key" }` → "Unauthorized: Invalid or
 * missing API key": the spec's envelopes split the summary and the detail, and both help.
 */
function messageOf(envelope: Record<string, unknown>, response: HttpAnswer, text: string): string {
  const error = stringField(envelope, "error");
  const message = stringField(envelope, "message");
  if (error && message && error !== message) return `${error}: ${message}`;
  if (error ?? message) return (error ?? message) as string;
  const statusLine = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  if (text.trim() === "") return `${statusLine} (empty body)`;
  const type = response.headers.get("content-type")?.split(";")[0];
  return `${statusLine} (the body is not a JSON error envelope${type ? `: ${type}` : ""})`;
}

function retryAfterOf(envelope: Record<string, unknown>): number | undefined {
  const value = envelope.retryAfterSeconds;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function stringField(envelope: Record<string, unknown>, key: string): string | undefined {
  const value = envelope[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The body as JSON when it parses, else as text ("" when empty): what `TroveError.body` keeps. */
function parseJsonOrText(text: string): unknown {
  if (text === "") return "";
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
