import { describe, expect, it } from "vitest";
import {
  ERROR_MESSAGES,
  errorCodeForStatus,
  errorTitleForStatus,
  notFoundMessage,
} from "./error-catalogue.js";
import { buildErrorBody } from "./error-envelope.js";
import { ERROR_GROUPS, errorGroupOf } from "./error-groups.js";
import { errorShapeFor } from "./error-shapes.js";

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
    const e = { message: "name is required" };
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
    expect(buildErrorBody("sources", 400, { message: ERROR_MESSAGES.sourceConfigInvalid })).toEqual({
      error: "Validation failed",
      message: "Configuration is invalid for the specified type",
    });
    expect(
      buildErrorBody("upload", 400, { message: "bad transform", errorCode: "INVALID_TRANSFORM" }).errorCode,
    ).toBe("INVALID_TRANSFORM");
  });

  it("404 per group", () => {
    expect(buildErrorBody("files", 404, { message: notFoundMessage("files") })).toEqual({
      error: "File not found",
    });
    expect(buildErrorBody("folders", 404, { message: notFoundMessage("folders") })).toEqual({
      error: "Folder not found",
    });
    expect(buildErrorBody("sources", 404, { message: notFoundMessage("sources") })).toEqual({
      error: "Source not found",
    });
    expect(buildErrorBody("multipart", 404, { message: notFoundMessage("multipart") })).toEqual({
      success: false,
      error: "Session not found",
    });
    expect(buildErrorBody("files", 404, { message: "File 12 not found", code: "FILE_NOT_FOUND" })).toEqual({
      error: "File 12 not found",
      code: "FILE_NOT_FOUND",
    });
  });

  it("409 per group", () => {
    expect(buildErrorBody("sources", 409, { message: ERROR_MESSAGES.sourceNameTaken })).toEqual({
      error: "Origin name already exists in this workspace",
    });
    expect(buildErrorBody("folders", 409, { message: "Folder is not empty" })).toEqual({
      success: false,
      error: "Folder is not empty",
    });
  });

  it("403 is { error: 'Forbidden', message }", () => {
    const e = { message: ERROR_MESSAGES.privateKeyRequired };
    expect(buildErrorBody("files", 403, e)).toEqual({ error: "Forbidden", message: e.message });
    expect(buildErrorBody("sources", 403, e)).toEqual({ error: "Forbidden", message: e.message });
  });

  it("5xx never carries the error's message", () => {
    const e = { message: "connection string postgres://u:p@h/db" };
    for (const group of ["upload", "multipart", "files", "folders", "sources", "other"] as const) {
      expect(JSON.stringify(buildErrorBody(group, 500, e))).not.toContain("postgres://");
    }
  });
});

describe("admin group", () => {
  it("answers every status but 429 with { error, errorCode, message }, 5xx without details", () => {
    expect(
      buildErrorBody("admin", 409, { message: "holds 3 files", errorCode: "WORKSPACE_NOT_EMPTY" }),
    ).toEqual({
      error: "Conflict",
      errorCode: "WORKSPACE_NOT_EMPTY",
      message: "holds 3 files",
    });
    expect(buildErrorBody("admin", 401, { message: "Invalid or missing admin token" })).toEqual({
      error: "Unauthorized",
      errorCode: "UNAUTHORIZED",
      message: "Invalid or missing admin token",
    });
    expect(buildErrorBody("admin", 500, { message: "postgres://u:p@h/db" })).toEqual({
      error: "Internal Server Error",
      errorCode: "INTERNAL_ERROR",
      message: ERROR_MESSAGES.internal,
    });
    expect(errorGroupOf("/admin/v1/workspaces?page=2")).toBe("admin");
    expect(errorGroupOf("/adminx/v1/workspaces")).toBe("other");
  });
});

describe("every body matches the shape the OpenAPI document gives it", () => {
  const statuses = [400, 401, 403, 404, 409, 413, 415, 429, 500, 503];
  it("for each group and status", () => {
    for (const group of ERROR_GROUPS) {
      for (const status of statuses) {
        const body = buildErrorBody(group, status, { message: "why", retryAfterSeconds: 3 });
        const shape = errorShapeFor(group, status);
        expect(shape.safeParse(body).success, `${group} ${status} ${JSON.stringify(body)}`).toBe(true);
      }
    }
    const createFolder = buildErrorBody("folders", 400, { message: "why" }, "folder-create");
    expect(errorShapeFor("folders", 400, "folder-create").safeParse(createFolder).success).toBe(true);
    const rename = buildErrorBody("files", 404, { message: "File 1 not found", code: "FILE_NOT_FOUND" });
    expect(errorShapeFor("files", 404, "rename").safeParse(rename).success).toBe(true);
  });

  it("names a status's default code and title from one table", () => {
    expect(errorCodeForStatus(413)).toBe("FILE_TOO_LARGE");
    expect(errorCodeForStatus(502)).toBe("INTERNAL_ERROR");
    expect(errorCodeForStatus(418)).toBe("VALIDATION_FAILED");
    expect(buildErrorBody("upload", 503, { message: "retry in 2 seconds" })).toMatchObject({
      error: errorTitleForStatus(503),
      errorCode: "SERVICE_UNAVAILABLE",
      message: "retry in 2 seconds",
    });
  });
});
