import {
  AbortError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  SessionExpiredError,
  TimeoutError,
  TroveError,
  ValidationError,
} from "@trove/sdk/node";
import { UsageError } from "../cli-errors.js";
import type { ErrorAbout } from "./error-subject.js";

/** What the sentence may mention: the thing acted on, the server, the key in use. */
export interface ErrorContext {
  about?: ErrorAbout | undefined;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
}

/**
 * Any error as one line for a person: what happened, the status and code in parentheses, and
 * what to do about it when there is something to do. Never a stack trace; the details are in
 * `--json` output and, for 5xx, the request id.
 */
export function errorSentence(error: unknown, context: ErrorContext = {}): string {
  return `Error: ${oneLine(describe(error, context))}`;
}

function describe(error: unknown, context: ErrorContext): string {
  if (error instanceof UsageError) return error.message;
  if (!(error instanceof TroveError)) {
    return `${error instanceof Error ? error.message : String(error)}.`.replace(/\.\.$/, ".");
  }
  const tag = statusTag(error);
  const subject = context.about?.subject;
  const detail = lower(serverDetail(error));
  const hint = context.about?.hint ? ` ${context.about.hint}` : "";
  // "could not delete folder k3j2: …" when the command said what it was doing.
  const refused = (fallback: string) =>
    context.about?.action ? `could not ${context.about.action} ${subject}` : fallback;

  if (error instanceof AuthenticationError) {
    return `the server did not accept the API key ${tag}. Check TROVE_API_KEY (or "apiKey" in the config file).`;
  }
  if (error instanceof PermissionDeniedError) {
    const hint = context.apiKey?.startsWith("trove_pk_")
      ? " Use a private key (trove_sk_…): a public key may only upload."
      : " Use a private key.";
    return `the API key is not allowed to do this ${tag}.${hint}`;
  }
  if (error instanceof NotFoundError) {
    return `${subject ?? "what you asked for"} was not found ${tag}.`;
  }
  if (error instanceof ConflictError) {
    return `${refused("the server refused this")}: ${detail ?? "conflict"} ${tag}.${hint}`;
  }
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterSeconds === undefined ? "later" : `in ${error.retryAfterSeconds} s`;
    return `too many requests ${tag}. Try again ${wait}.`;
  }
  if (error instanceof ValidationError) {
    return `${refused("the server refused the request")}: ${detail ?? "invalid request"} ${tag}.${hint}`;
  }
  if (error instanceof SessionExpiredError) {
    return `the upload session expired before every part was sent ${tag}. Run the command again to start over.`;
  }
  if (error instanceof ServerError) {
    const id = error.requestId ? `; request id ${error.requestId}` : "";
    return `the server failed to handle the request ${tag.slice(0, -1)}${id}). Try again later, or check the server's log.`;
  }
  if (error instanceof ConnectionError) {
    const where = context.baseUrl ? ` at ${context.baseUrl}` : "";
    return `could not reach the server${where} ${tag}. Is it running? Check TROVE_BASE_URL.`;
  }
  if (error instanceof TimeoutError) {
    return `the server did not answer in time ${tag}.`;
  }
  if (error instanceof AbortError) {
    return `interrupted ${tag}.`;
  }
  if (error instanceof InvalidResponseError) {
    return `the server's answer is not what the Trove API documents ${tag}. Is TROVE_BASE_URL a Trove server?`;
  }
  // SDK refusals (INVALID_ARGUMENT and the like) and statuses without a class of their own.
  return `${detail ?? "the request failed"} ${tag}.`;
}

/** `(403 FORBIDDEN)`, or `(CONNECTION_ERROR)` when there was no response. */
function statusTag(error: TroveError): string {
  return error.status === undefined ? `(${error.code})` : `(${error.status} ${error.code})`;
}

/**
 * The most specific text the server (or the SDK) gave: the envelope's `message` when it has one
 * (its `error` is then a title such as "Validation failed"), else its `error`, else the SDK's.
 */
function serverDetail(error: TroveError): string | undefined {
  const body = error.body;
  if (typeof body === "object" && body !== null) {
    const { error: title, message } = body as { error?: unknown; message?: unknown };
    if (typeof message === "string" && message.trim() !== "") return message;
    if (typeof title === "string" && title.trim() !== "") return title;
  }
  return error.message.trim() === "" ? undefined : error.message;
}

function lower(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const trimmed = trimDot(text.trim());
  // Keep acronyms and names as written ("API key", "URL"); lower only a capitalised first word.
  return /^[A-Z]([a-z]|\s)/.test(trimmed) ? trimmed[0]!.toLowerCase() + trimmed.slice(1) : trimmed;
}

function trimDot(text: string): string {
  return text.replace(/[.\s]+$/, "");
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
