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
import { isRecord } from "./is-record.js";
import { parseJsonOrText } from "./parse-json-or-text.js";
import { parseRetryAfter } from "./retry-after.js";

type ErrorClass = new (message: string, init: TroveErrorInit) => TroveError;

/**
 * Turns any non-2xx response into the TroveError subclass for its status. Every envelope of the
 * spec's Errors section is read by the fields it may carry (`error`, `message`, `errorCode`, `code`,
 * `retryAfterSeconds`) rather than by matching one schema, so a body from a proxy (HTML), an empty
 * body or broken JSON still becomes a typed error instead of a crash.
 */
export async function errorFromResponse(response: Response): Promise<TroveError> {
  const text = await response.text().catch(() => "");
  const body = parseJsonOrText(text);
  const envelope = isRecord(body) ? body : {};
  const status = response.status;
  const ErrorFor = errorClassFor(status);
  return new ErrorFor(messageOf(envelope, response, text), {
    status,
    code: stringField(envelope, "errorCode") ?? stringField(envelope, "code") ?? codeForStatus(status),
    retryAfterSeconds: retryAfterOf(envelope) ?? parseRetryAfter(response.headers.get("retry-after")),
    requestId: response.headers.get("x-request-id") ?? undefined,
    body,
  });
}

function errorClassFor(status: number): ErrorClass {
  switch (status) {
    case 400:
    case 413:
    case 415:
    case 422:
      return ValidationError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 408:
      return TimeoutError;
    case 409:
      return ConflictError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? ServerError : TroveError;
  }
}

/** The code of a failure whose body names none; server names from ERROR_CODES where one fits. */
export function codeForStatus(status: number): TroveErrorCode {
  switch (status) {
    case 400:
    case 422:
      return "VALIDATION_FAILED";
    case 401:
      return "UNAUTHORIZED";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "NOT_FOUND";
    case 408:
      return "REQUEST_TIMEOUT";
    case 409:
      return "CONFLICT";
    case 413:
      return "FILE_TOO_LARGE";
    case 415:
      return "UNSUPPORTED_MEDIA_TYPE";
    case 429:
      return "RATE_LIMITED";
    case 500:
      return "INTERNAL_ERROR";
    default:
      return status > 500 ? "SERVER_ERROR" : "HTTP_ERROR";
  }
}

/**
 * `{ error: "Unauthorized", message: "Invalid or missing API key" }` → "Unauthorized: Invalid or
 * missing API key": the spec's envelopes split the summary and the detail, and both help.
 */
function messageOf(envelope: Record<string, unknown>, response: Response, text: string): string {
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
