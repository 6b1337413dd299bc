import { describe, expect, it } from "vitest";
import { ERROR_CODE_BY_STATUS, errorCodeForStatus } from "./error-catalogue.js";
import {
  ERROR_CATALOGUE,
  type ErrorCode,
  type ErrorDeclaration,
  statusesOfErrorCode,
} from "./error-codes.js";
import { buildErrorBody } from "./error-envelope.js";
import { errorShapeFor } from "./error-shapes.js";

const entries = Object.entries(ERROR_CATALOGUE) as [ErrorCode, ErrorDeclaration][];

describe("the error catalogue", () => {
  it("every entry builds, in each group that carries it and at each of its statuses, a body its response schema accepts, carrying the code", () => {
    let checked = 0;
    for (const [code, declared] of entries) {
      for (const group of declared.groups) {
        for (const status of statusesOfErrorCode(code)) {
          const asCode = declared.field === "code";
          const input = asCode ? { message: "why", code } : { message: "why", errorCode: code };
          const variant = asCode ? "rename" : undefined;
          const body = buildErrorBody(group, status, input, variant);
          const shape = errorShapeFor(group, status, variant, asCode ? undefined : code);
          const label = `${code} ${group} ${status} ${JSON.stringify(body)}`;
          expect(shape.safeParse(body).success, label).toBe(true);
          expect(body[asCode ? "code" : "errorCode"], label).toBe(code);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(entries.length);
  });

  it("every code has a status, and a code no body carries is the default of its status", () => {
    for (const [code, declared] of entries) {
      expect(statusesOfErrorCode(code).length, code).toBeGreaterThan(0);
      if (declared.groups.length === 0) expect(Object.values(ERROR_CODE_BY_STATUS)).toContain(code);
    }
    for (const [status, code] of Object.entries(ERROR_CODE_BY_STATUS)) {
      expect(errorCodeForStatus(Number(status))).toBe(code);
      expect(statusesOfErrorCode(code)[0]).toBe(Number(status));
    }
    expect(statusesOfErrorCode("UNSUPPORTED_MEDIA_TYPE")).toEqual([415, 400]);
  });

  it("a fixed message is the one the envelope sends where the group keeps its own", () => {
    expect(
      buildErrorBody("upload", 400, { message: ERROR_CATALOGUE.EMPTY_FILE.message, errorCode: "EMPTY_FILE" }),
    ).toEqual({
      error: "Validation failed",
      success: false,
      errorCode: "EMPTY_FILE",
      message: "File is empty",
    });
    expect(
      buildErrorBody("multipart", 401, {
        message: ERROR_CATALOGUE.TOKEN_EXPIRED.message,
        errorCode: "TOKEN_EXPIRED",
      }),
    ).toEqual({
      success: false,
      error: "Unauthorized",
      message: "This upload token has expired; request a new one",
      errorCode: "TOKEN_EXPIRED",
    });
  });
});
