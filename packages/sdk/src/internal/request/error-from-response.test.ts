import { errorCodeForStatus } from "@trove/schema/zod-free";
import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  TroveError,
  ValidationError,
} from "../errors.js";
import { errorFromResponse } from "./error-from-response.js";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-request-id": "req_1", ...headers },
  });

describe("errorFromResponse: every envelope of the spec's Errors section", () => {
  const cases: {
    what: string;
    status: number;
    body: unknown;
    type: typeof TroveError;
    code: string;
    message: string;
    retryAfterSeconds?: number;
  }[] = [
    {
      what: "{ error } source create 400",
      status: 400,
      body: { error: "name is required" },
      type: ValidationError,
      code: "VALIDATION_FAILED",
      message: "name is required",
    },
    {
      what: "{ error, message } 400 Validation failed (sources)",
      status: 400,
      body: { error: "Validation failed", message: "Configuration is invalid for the specified type" },
      type: ValidationError,
      code: "VALIDATION_FAILED",
      message: "Validation failed: Configuration is invalid for the specified type",
    },
    {
      what: "{ success: false, error } 400 multipart / folder create",
      status: 400,
      body: { success: false, error: "size must be at least 1" },
      type: ValidationError,
      code: "VALIDATION_FAILED",
      message: "size must be at least 1",
    },
    {
      what: "{ error, success, errorCode, message } 400 upload",
      status: 400,
      body: {
        error: "Bad Request",
        success: false,
        errorCode: "INVALID_TRANSFORM",
        message: "q_200: quality must be 1..100",
      },
      type: ValidationError,
      code: "INVALID_TRANSFORM",
      message: "Bad Request: q_200: quality must be 1..100",
    },
    {
      what: "{ success: false, error, message } 401 upload/files/folders/multipart",
      status: 401,
      body: { success: false, error: "Unauthorized", message: "Invalid or missing API key" },
      type: AuthenticationError,
      code: "UNAUTHORIZED",
      message: "Unauthorized: Invalid or missing API key",
    },
    {
      what: "{ error, message } 401 sources",
      status: 401,
      body: { error: "Invalid API key.", message: "The API key is invalid, inactive, or deleted" },
      type: AuthenticationError,
      code: "UNAUTHORIZED",
      message: "Invalid API key.: The API key is invalid, inactive, or deleted",
    },
    {
      what: "{ error, success, errorCode, message } 401 upload",
      status: 401,
      body: {
        error: "Unauthorized",
        success: false,
        errorCode: "UNAUTHORIZED",
        message: "Invalid or missing API key",
      },
      type: AuthenticationError,
      code: "UNAUTHORIZED",
      message: "Unauthorized: Invalid or missing API key",
    },
    {
      what: "{ error, message } 403 public key on a private endpoint",
      status: 403,
      body: { error: "Forbidden", message: "This endpoint needs a private key" },
      type: PermissionDeniedError,
      code: "FORBIDDEN",
      message: "Forbidden: This endpoint needs a private key",
    },
    {
      what: "{ error, success, errorCode, message } 403 remote upload",
      status: 403,
      body: {
        error: "Forbidden",
        success: false,
        errorCode: "REMOTE_URL_FORBIDDEN",
        message: "private address",
      },
      type: PermissionDeniedError,
      code: "REMOTE_URL_FORBIDDEN",
      message: "Forbidden: private address",
    },
    {
      what: "{ error } 404 source",
      status: 404,
      body: { error: "Source not found" },
      type: NotFoundError,
      code: "NOT_FOUND",
      message: "Source not found",
    },
    {
      what: "{ error } 404 file",
      status: 404,
      body: { error: "File not found" },
      type: NotFoundError,
      code: "NOT_FOUND",
      message: "File not found",
    },
    {
      what: "{ error } 404 folder",
      status: 404,
      body: { error: "Folder not found" },
      type: NotFoundError,
      code: "NOT_FOUND",
      message: "Folder not found",
    },
    {
      what: "{ error, code } 404 rename of a missing file",
      status: 404,
      body: { error: "File 99 not found", code: "FILE_NOT_FOUND" },
      type: NotFoundError,
      code: "FILE_NOT_FOUND",
      message: "File 99 not found",
    },
    {
      what: "{ error } 409 source name taken",
      status: 409,
      body: { error: "Origin name already exists in this workspace" },
      type: ConflictError,
      code: "CONFLICT",
      message: "Origin name already exists in this workspace",
    },
    {
      what: "{ success: false, error } 409 non-empty folder",
      status: 409,
      body: { success: false, error: "Folder is not empty" },
      type: ConflictError,
      code: "CONFLICT",
      message: "Folder is not empty",
    },
    {
      what: "{ error, message, retryAfterSeconds } 429",
      status: 429,
      body: { error: "Too Many Requests", message: "Rate limit exceeded", retryAfterSeconds: 7 },
      type: RateLimitError,
      code: "RATE_LIMITED",
      message: "Too Many Requests: Rate limit exceeded",
      retryAfterSeconds: 7,
    },
    {
      what: "{ error, message } 429 without retryAfterSeconds (source creation)",
      status: 429,
      body: { error: "Too Many Requests", message: "Slow down" },
      type: RateLimitError,
      code: "RATE_LIMITED",
      message: "Too Many Requests: Slow down",
    },
    {
      what: "{ error, success, errorCode, message } 500 upload",
      status: 500,
      body: {
        error: "Internal Server Error",
        success: false,
        errorCode: "INTERNAL_ERROR",
        message: "storage failed",
      },
      type: ServerError,
      code: "INTERNAL_ERROR",
      message: "Internal Server Error: storage failed",
    },
    {
      what: "{ error } 500 Failed to get file details",
      status: 500,
      body: { error: "Failed to get file details" },
      type: ServerError,
      code: "INTERNAL_ERROR",
      message: "Failed to get file details",
    },
    {
      what: "{ error, message } 413",
      status: 413,
      body: { error: "Payload Too Large", message: "file is larger than 100 MiB" },
      type: ValidationError,
      code: "FILE_TOO_LARGE",
      message: "Payload Too Large: file is larger than 100 MiB",
    },
    {
      what: "{ error, message } 415",
      status: 415,
      body: { error: "Unsupported Media Type", message: "multipart/form-data expected" },
      type: ValidationError,
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: "Unsupported Media Type: multipart/form-data expected",
    },
    {
      what: "{ error } 422",
      status: 422,
      body: { error: "Unprocessable" },
      type: ValidationError,
      code: "VALIDATION_FAILED",
      message: "Unprocessable",
    },
    {
      what: "408 from the server",
      status: 408,
      body: { error: "Request Timeout" },
      type: TimeoutError,
      // The catalogue's default for a 4xx it does not list.
      code: "VALIDATION_FAILED",
      message: "Request Timeout",
    },
  ];

  it.each(cases)("$what → $type.name", async ({ status, body, type, code, message, retryAfterSeconds }) => {
    const error = await errorFromResponse(json(status, body));
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(TroveError);
    expect(error.name).toBe(type.name);
    expect(error).toMatchObject({ status, code, message, requestId: "req_1", retryAfterSeconds });
    expect(error.body).toEqual(body);
  });
});

describe("errorFromResponse: bodies that are not an envelope", () => {
  it("an HTML page from a proxy becomes a ServerError with the text as body", async () => {
    const html = "<html><body><h1>502 Bad Gateway</h1></body></html>";
    const error = await errorFromResponse(
      new Response(html, {
        status: 502,
        statusText: "Bad Gateway",
        headers: { "content-type": "text/html" },
      }),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, code: "INTERNAL_ERROR", body: html, requestId: undefined });
    expect(error.message).toBe("HTTP 502 Bad Gateway (the body is not a JSON error envelope: text/html)");
  });

  it("an empty body keeps the status and says so", async () => {
    const error = await errorFromResponse(new Response(null, { status: 404 }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
      body: "",
      message: "HTTP 404 (empty body)",
    });
  });

  it("invalid JSON is kept as text", async () => {
    const error = await errorFromResponse(
      new Response('{"error": "trunc', { status: 500, headers: { "content-type": "application/json" } }),
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, code: "INTERNAL_ERROR", body: '{"error": "trunc' });
    expect(error.message).toContain("HTTP 500");
  });

  it("JSON that is not an object (an array, a string) still maps by status", async () => {
    const error = await errorFromResponse(json(403, ["nope"]));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ code: "FORBIDDEN", body: ["nope"] });
  });

  it("an unlisted status is a plain TroveError", async () => {
    const error = await errorFromResponse(json(418, { error: "I'm a teapot" }));
    expect(error.constructor).toBe(TroveError);
    expect(error).toMatchObject({ status: 418, code: "VALIDATION_FAILED", message: "I'm a teapot" });
  });

  it("names a code-less failure by the error catalogue of @trove/schema, status by status", async () => {
    for (const status of [400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 500, 502, 503, 504, 418]) {
      const error = await errorFromResponse(json(status, {}));
      expect(error.code).toBe(errorCodeForStatus(status));
    }
    // The server's words for the statuses it names, not the SDK's own.
    expect((await errorFromResponse(json(503, {}))).code).toBe("SERVICE_UNAVAILABLE");
  });

  it("reads Retry-After (seconds or HTTP date) when the body has no retryAfterSeconds", async () => {
    const seconds = await errorFromResponse(json(429, { error: "slow down" }, { "retry-after": "12" }));
    expect(seconds.retryAfterSeconds).toBe(12);
    const date = new Date(Date.now() + 30_000).toUTCString();
    const dated = await errorFromResponse(json(503, { error: "maintenance" }, { "retry-after": date }));
    expect(dated.retryAfterSeconds).toBeGreaterThanOrEqual(29);
    expect(dated.retryAfterSeconds).toBeLessThanOrEqual(31);
  });

  it("prefers the body's retryAfterSeconds over the header", async () => {
    const error = await errorFromResponse(
      json(429, { error: "e", message: "m", retryAfterSeconds: 3 }, { "retry-after": "60" }),
    );
    expect(error.retryAfterSeconds).toBe(3);
  });
});
