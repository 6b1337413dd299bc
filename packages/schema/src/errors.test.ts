import { describe, expect, it } from "vitest";
import { ERROR_GROUPS, errorGroupOf } from "./error-groups.js";
import { errorShapeFor } from "./error-shapes.js";
import {
  errorEnvelopeSchema,
  errorMessageSchema,
  errorOnlySchema,
  failureSchema,
  failureWithMessageSchema,
  fileNotFoundCodeSchema,
  rateLimitErrorSchema,
  uploadErrorSchema,
} from "./errors.js";

/** One sample body for each envelope in the spec's Errors section. */
const SAMPLES = {
  errorOnly: { error: "Source not found" },
  errorMessage: { error: "Validation failed", message: "Configuration is invalid for the specified type" },
  failureWithMessage: { success: false, error: "Unauthorized", message: "Invalid or missing API key" },
  failure: { success: false, error: "size must be at least 1" },
  uploadError: {
    error: "Unauthorized",
    success: false,
    errorCode: "UNAUTHORIZED",
    message: "Invalid or missing API key",
  },
  rateLimit: { error: "Too Many Requests", message: "Rate limit exceeded", retryAfterSeconds: 30 },
  fileNotFoundCode: { error: "File 1024 not found", code: "FILE_NOT_FOUND" },
} as const;

describe("error envelopes", () => {
  it("each accepts its documented body", () => {
    expect(errorOnlySchema.parse(SAMPLES.errorOnly)).toEqual(SAMPLES.errorOnly);
    expect(errorMessageSchema.parse(SAMPLES.errorMessage)).toEqual(SAMPLES.errorMessage);
    expect(failureWithMessageSchema.parse(SAMPLES.failureWithMessage)).toEqual(SAMPLES.failureWithMessage);
    expect(failureSchema.parse(SAMPLES.failure)).toEqual(SAMPLES.failure);
    expect(uploadErrorSchema.parse(SAMPLES.uploadError)).toEqual(SAMPLES.uploadError);
    expect(rateLimitErrorSchema.parse(SAMPLES.rateLimit)).toEqual(SAMPLES.rateLimit);
    expect(fileNotFoundCodeSchema.parse(SAMPLES.fileNotFoundCode)).toEqual(SAMPLES.fileNotFoundCode);
  });

  it("the 401 bodies carry the spec's texts", () => {
    expect(
      failureWithMessageSchema.safeParse({
        success: false,
        error: "Unauthorized",
        message: "Invalid or missing API key",
      }).success,
    ).toBe(true);
    expect(
      errorMessageSchema.safeParse({
        error: "Invalid API key.",
        message: "The API key is invalid, inactive, or deleted",
      }).success,
    ).toBe(true);
  });

  it("rejects near-misses", () => {
    expect(errorOnlySchema.safeParse({ message: "x" }).success).toBe(false);
    expect(errorMessageSchema.safeParse({ error: "x" }).success).toBe(false);
    expect(failureSchema.safeParse({ success: true, error: "x" }).success).toBe(false);
    expect(failureWithMessageSchema.safeParse({ success: false, error: "x" }).success).toBe(false);
    expect(uploadErrorSchema.safeParse({ ...SAMPLES.uploadError, errorCode: undefined }).success).toBe(false);
    expect(rateLimitErrorSchema.safeParse({ ...SAMPLES.rateLimit, retryAfterSeconds: "30" }).success).toBe(
      false,
    );
    expect(rateLimitErrorSchema.safeParse({ ...SAMPLES.rateLimit, retryAfterSeconds: -1 }).success).toBe(
      false,
    );
    expect(fileNotFoundCodeSchema.safeParse({ error: "x", code: "NOT_FOUND" }).success).toBe(false);
  });

  it("errorEnvelopeSchema accepts every envelope and keeps its fields", () => {
    for (const [name, body] of Object.entries(SAMPLES)) {
      expect(errorEnvelopeSchema.parse(body), name).toEqual(body);
    }
    expect(errorEnvelopeSchema.safeParse({ message: "no error field" }).success).toBe(false);
  });
});

describe("errorGroupOf", () => {
  it("maps each API path prefix to its group", () => {
    expect(errorGroupOf("/api/v1/uploads")).toBe("upload");
    expect(errorGroupOf("/api/v1/uploads/remote")).toBe("upload");
    expect(errorGroupOf("/api/v1/multipart/start")).toBe("multipart");
    expect(errorGroupOf("/api/v1/multipart/parts/mps_1/2")).toBe("multipart");
    expect(errorGroupOf("/api/v1/files?page=2")).toBe("files");
    expect(errorGroupOf("/api/v1/files/1024/rename")).toBe("files");
    expect(errorGroupOf("/api/v1/folders/rename/fld8Xk2")).toBe("folders");
    expect(errorGroupOf("/api/v1/sources/1f2e3d4c-5b6a-4789-8a9b-0c1d2e3f4a5b")).toBe("sources");
  });

  it("is other outside /api/v1/<group>", () => {
    for (const path of [
      "/",
      "/api/v1",
      "/api/v1/filesystem",
      "/api/v2/files",
      "/ws7Kp2/a.jpg",
      "/api/v1/upload",
      "/api/v1/upload-tokens",
      "/api/v1/uploadsX",
    ]) {
      expect(errorGroupOf(path), path).toBe("other");
    }
  });
});

describe("errorShapeFor", () => {
  it("429 is the rate-limit envelope in every group", () => {
    for (const group of ERROR_GROUPS) expect(errorShapeFor(group, 429)).toBe(rateLimitErrorSchema);
  });

  it("upload: { error, success, errorCode, message } for every other status", () => {
    for (const status of [400, 401, 403, 413, 415, 500])
      expect(errorShapeFor("upload", status)).toBe(uploadErrorSchema);
  });

  it("multipart: 401 with a message, other failures { success: false, error }", () => {
    expect(errorShapeFor("multipart", 401)).toBe(failureWithMessageSchema);
    for (const status of [400, 404, 500]) expect(errorShapeFor("multipart", status)).toBe(failureSchema);
  });

  it("files: 401 { success: false, error, message }, 404 { error } or { error, code } on rename", () => {
    expect(errorShapeFor("files", 401)).toBe(failureWithMessageSchema);
    expect(errorShapeFor("files", 404)).toBe(errorOnlySchema);
    expect(errorShapeFor("files", 404, "rename")).toBe(fileNotFoundCodeSchema);
    expect(errorShapeFor("files", 403)).toBe(errorMessageSchema);
    expect(errorShapeFor("files", 400)).toBe(errorMessageSchema);
  });

  it("folders: 400 on create is { success: false, error }; 404 { error }; 409 (non-empty) { success: false, error }", () => {
    expect(errorShapeFor("folders", 400, "folder-create")).toBe(failureSchema);
    expect(errorShapeFor("folders", 400)).toBe(errorMessageSchema);
    expect(errorShapeFor("folders", 401)).toBe(failureWithMessageSchema);
    expect(errorShapeFor("folders", 404)).toBe(errorOnlySchema);
    expect(errorShapeFor("folders", 409)).toBe(failureSchema);
  });

  it("sources: 404 and 409 { error }; 400, 401, 403 { error, message }", () => {
    expect(errorShapeFor("sources", 404)).toBe(errorOnlySchema);
    expect(errorShapeFor("sources", 409)).toBe(errorOnlySchema);
    for (const status of [400, 401, 403, 500])
      expect(errorShapeFor("sources", status)).toBe(errorMessageSchema);
  });

  it("the spec's sample bodies parse with the shape chosen for them", () => {
    expect(
      errorShapeFor("sources", 409).safeParse({ error: "Origin name already exists in this workspace" })
        .success,
    ).toBe(true);
    expect(errorShapeFor("sources", 404).safeParse({ error: "Source not found" }).success).toBe(true);
    expect(errorShapeFor("files", 404).safeParse({ error: "File not found" }).success).toBe(true);
    expect(errorShapeFor("folders", 404).safeParse({ error: "Folder not found" }).success).toBe(true);
    expect(errorShapeFor("upload", 429).safeParse(SAMPLES.rateLimit).success).toBe(true);
  });
});
