import { describe, expect, it } from "vitest";
import { buildErrorBody, errorGroupOf } from "./error-body.js";
import { HttpError } from "./http-error.js";
import { notFound } from "./index.js";

describe("errorGroupOf", () => {
  it("groups by path prefix", () => {
    expect(errorGroupOf("/api/v1/uploads")).toBe("upload");
    expect(errorGroupOf("/api/v1/uploads/remote?x=1")).toBe("upload");
    expect(errorGroupOf("/api/v1/multipart/start")).toBe("multipart");
    expect(errorGroupOf("/api/v1/files")).toBe("files");
    expect(errorGroupOf("/api/v1/files/12/rename")).toBe("files");
    expect(errorGroupOf("/api/v1/folders/rename/abc")).toBe("folders");
    expect(errorGroupOf("/api/v1/sources/x")).toBe("sources");
    expect(errorGroupOf("/api/v1/filesystem")).toBe("other");
    expect(errorGroupOf("/assets/ws/a.jpg")).toBe("other");
    expect(errorGroupOf("/healthz")).toBe("other");
  });
});

describe("buildErrorBody", () => {
  it("401 per group", () => {
    const e = { message: "whatever" };
    expect(buildErrorBody("upload", 401, e)).toEqual({
      success: false,
      error: "Unauthorized",
      errorCode: "UNAUTHORIZED",
      message: "Invalid or missing API key",
    });
    for (const group of ["multipart", "files", "folders"] as const) {
      expect(buildErrorBody(group, 401, e)).toEqual({
        success: false,
        error: "Unauthorized",
        message: "Invalid or missing API key",
      });
    }
    expect(buildErrorBody("sources", 401, e)).toEqual({
      error: "Invalid API key.",
      message: "The API key is invalid, inactive, or deleted.",
    });
  });

  it("429 is the same everywhere, with a whole number of seconds >= 1", () => {
    for (const group of ["upload", "multipart", "files", "folders", "sources", "other"] as const) {
      expect(buildErrorBody(group, 429, { message: "x", retryAfterSeconds: 0.2 })).toEqual({
        error: "Too Many Requests",
        message: "Rate limit exceeded, retry in 1 seconds",
        retryAfterSeconds: 1,
      });
    }
    expect(buildErrorBody("files", 429, { message: "x", retryAfterSeconds: 41.3 }).retryAfterSeconds).toBe(
      42,
    );
  });

  it("400 per group", () => {
    const e = new HttpError(400, "name is required");
    expect(buildErrorBody("upload", 400, e)).toEqual({
      error: "Validation failed",
      success: false,
      errorCode: "VALIDATION_FAILED",
      message: "name is required",
    });
    expect(buildErrorBody("multipart", 400, e)).toEqual({ success: false, error: "name is required" });
    expect(buildErrorBody("files", 400, e)).toEqual({
      error: "Validation failed",
      message: "name is required",
    });
    expect(buildErrorBody("folders", 400, e, "folder-create")).toEqual({
      success: false,
      error: "name is required",
    });
    expect(buildErrorBody("folders", 400, e)).toEqual({
      error: "Validation failed",
      message: "name is required",
    });
    expect(
      buildErrorBody("sources", 400, new HttpError(400, "Configuration is invalid for the specified type")),
    ).toEqual({ error: "Validation failed", message: "Configuration is invalid for the specified type" });
    expect(
      buildErrorBody("upload", 400, new HttpError(400, "bad transform", { errorCode: "INVALID_TRANSFORM" }))
        .errorCode,
    ).toBe("INVALID_TRANSFORM");
  });

  it("404 per group", () => {
    expect(buildErrorBody("files", 404, notFound("files"))).toEqual({ error: "File not found" });
    expect(buildErrorBody("folders", 404, notFound("folders"))).toEqual({ error: "Folder not found" });
    expect(buildErrorBody("sources", 404, notFound("sources"))).toEqual({ error: "Source not found" });
    expect(buildErrorBody("multipart", 404, notFound("multipart"))).toEqual({
      success: false,
      error: "Session not found",
    });
    expect(
      buildErrorBody("files", 404, new HttpError(404, "File 12 not found", { code: "FILE_NOT_FOUND" })),
    ).toEqual({ error: "File 12 not found", code: "FILE_NOT_FOUND" });
  });

  it("409 per group", () => {
    expect(
      buildErrorBody("sources", 409, new HttpError(409, "Origin name already exists in this workspace")),
    ).toEqual({
      error: "Origin name already exists in this workspace",
    });
    expect(buildErrorBody("folders", 409, new HttpError(409, "Folder is not empty"))).toEqual({
      success: false,
      error: "Folder is not empty",
    });
  });

  it("403 is { error: 'Forbidden', message }", () => {
    const e = new HttpError(403, "This endpoint requires a private API key");
    expect(buildErrorBody("files", 403, e)).toEqual({ error: "Forbidden", message: e.message });
    expect(buildErrorBody("sources", 403, e)).toEqual({ error: "Forbidden", message: e.message });
  });

  it("5xx never carries the error's message", () => {
    const e = new HttpError(500, "connection string postgres://u:p@h/db");
    for (const group of ["upload", "multipart", "files", "folders", "sources", "other"] as const) {
      expect(JSON.stringify(buildErrorBody(group, 500, e))).not.toContain("postgres://");
    }
  });
});
