import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TroveError,
  ValidationError,
} from "@trove/sdk/node";
import { describe, expect, it } from "vitest";
import { UsageError } from "../cli-errors.js";
import { errorSentence } from "./error-sentence.js";

describe("errorSentence", () => {
  it("403 with a public key says to use a private one", () => {
    const error = new PermissionDeniedError("Forbidden: x", { status: 403, code: "FORBIDDEN" });
    expect(errorSentence(error, { apiKey: "trove_pk_abc" })).toBe(
      "Error: the API key is not allowed to do this (403 FORBIDDEN). Use a private key (trove_sk_…): a public key may only upload.",
    );
    expect(errorSentence(error)).toBe(
      "Error: the API key is not allowed to do this (403 FORBIDDEN). Use a private key.",
    );
  });

  it("401 points at the key setting", () => {
    const error = new AuthenticationError("Unauthorized", { status: 401, code: "UNAUTHORIZED" });
    expect(errorSentence(error)).toMatch(
      /^Error: the server did not accept the API key \(401 UNAUTHORIZED\)\. Check TROVE_API_KEY/,
    );
  });

  it("404 names the subject", () => {
    const error = new NotFoundError("File not found", { status: 404, code: "NOT_FOUND" });
    expect(errorSentence(error, { about: { subject: "file 12" } })).toBe(
      "Error: file 12 was not found (404 NOT_FOUND).",
    );
  });

  it("400 and 409 carry the server's message, the action and the hint, on one line", () => {
    const body = { error: "Validation failed", message: "Name must not\ncontain slashes." };
    const invalid = new ValidationError("x", { status: 400, code: "VALIDATION_FAILED", body });
    expect(errorSentence(invalid, { about: { subject: "file 3", action: "rename" } })).toBe(
      "Error: could not rename file 3: name must not contain slashes (400 VALIDATION_FAILED).",
    );
    const conflict = new ConflictError("x", {
      status: 409,
      code: "CONFLICT",
      body: { error: "Folder is not empty" },
    });
    expect(
      errorSentence(conflict, { about: { subject: "folder k3", action: "delete", hint: "Empty it first." } }),
    ).toBe("Error: could not delete folder k3: folder is not empty (409 CONFLICT). Empty it first.");
  });

  it("429, 5xx and connection errors say what to do", () => {
    expect(
      errorSentence(new RateLimitError("x", { status: 429, code: "RATE_LIMITED", retryAfterSeconds: 7 })),
    ).toBe("Error: too many requests (429 RATE_LIMITED). Try again in 7 s.");
    expect(
      errorSentence(new ServerError("x", { status: 500, code: "INTERNAL_ERROR", requestId: "req-1" })),
    ).toBe(
      "Error: the server failed to handle the request (500 INTERNAL_ERROR; request id req-1). Try again later, or check the server's log.",
    );
    const refused = new ConnectionError("fetch failed", { code: "CONNECTION_ERROR", requestNotSent: true });
    expect(errorSentence(refused, { baseUrl: "http://127.0.0.1:1" })).toBe(
      "Error: could not reach the server at http://127.0.0.1:1 (CONNECTION_ERROR). Is it running? Check TROVE_BASE_URL.",
    );
  });

  it("SDK refusals, usage errors and anything else stay one sentence", () => {
    expect(errorSentence(new TroveError("size must be positive", { code: "INVALID_ARGUMENT" }))).toBe(
      "Error: size must be positive (INVALID_ARGUMENT).",
    );
    expect(errorSentence(new UsageError("no API key."))).toBe("Error: no API key.");
    expect(errorSentence(new Error("boom"))).toBe("Error: boom.");
  });
});
