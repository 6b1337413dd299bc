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
} from "./errors.js";
import type { HttpAnswer } from "./http-answer.js";
import { isRecord } from "./is-record.js";
import { parseJsonOrText } from "./parse-json-or-text.js";
import { parseRetryAfter } from "./retry-after.js";

type ErrorClass = new (message: string, init: TroveErrorInit) => TroveError;

// Short because every byte counts in the upload bundle; the code and the README say the rest.
const REDIRECT_REFUSED = "The API key is never sent after a redirect";

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
  // do not follow (api-transport.ts). Not retried: the next attempt would be redirected too.
  if (status < 400) return new TroveError(REDIRECT_REFUSED, { code: "REDIRECT_REFUSED", status });
  const body = parseJsonOrText(text);
  const envelope = isRecord(body) ? body : {};
  const [ErrorFor, code] =
    BY_STATUS[status] ?? (status > 500 ? [ServerError, "SERVER_ERROR"] : [TroveError, "HTTP_ERROR"]);
  return new ErrorFor(messageOf(envelope, response, text), {
    status,
    // Trusted, not checked: the server sends only TroveErrorCode's codes, and a list to check
    // them against would put every code in the upload bundle.
    code: (stringField(envelope, "errorCode") ?? stringField(envelope, "code") ?? code) as TroveErrorCode,
    retryAfterSeconds: retryAfterOf(envelope) ?? parseRetryAfter(response.headers.get("retry-after")),
    requestId: response.headers.get("x-request-id") ?? undefined,
    body,
  });
}

/**
 * The class and the code of a failure whose body names no code, by status; server names from
 * ERROR_CODES where one fits. Other 5xx are ServerError/SERVER_ERROR, anything else
 * TroveError/HTTP_ERROR.
 */
const BY_STATUS: Record<number, [ErrorClass, TroveErrorCode]> = {
  400: [ValidationError, "VALIDATION_FAILED"],
  401: [AuthenticationError, "UNAUTHORIZED"],
  403: [PermissionDeniedError, "FORBIDDEN"],
  404: [NotFoundError, "NOT_FOUND"],
  408: [TimeoutError, "REQUEST_TIMEOUT"],
  409: [ConflictError, "CONFLICT"],
  413: [ValidationError, "FILE_TOO_LARGE"],
  415: [ValidationError, "UNSUPPORTED_MEDIA_TYPE"],
  422: [ValidationError, "VALIDATION_FAILED"],
  429: [RateLimitError, "RATE_LIMITED"],
  500: [ServerError, "INTERNAL_ERROR"],
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
