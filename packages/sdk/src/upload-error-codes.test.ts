// The upload entry's error codes are a union, not `string`: a misspelt code in a comparison or a
// `case` is a type error. `tsc` (typecheck) checks the `@ts-expect-error` lines: if the code type
// ever widened to `string`, they would no longer be errors and typecheck would fail.

import { ERROR_CODES } from "@trove/schema/zod-free";
import { describe, expect, expectTypeOf, it } from "vitest";
import { ConnectionError, SDK_ERROR_CODES, TroveError, type TroveErrorCode } from "./upload.js";

describe("@trove/sdk/upload error codes", () => {
  it("are a union that refuses a misspelt code", () => {
    const error: TroveError = new TroveError("stopped", { code: "ABORTED" });
    // @ts-expect-error "ABORTD" is no error code: the comparison has no overlap with the union
    expect(error.code === "ABORTD").toBe(false);
    expect(error.code === "ABORTED").toBe(true);

    expectTypeOf<"ABORTED" | "CONNECTION_ERROR" | "FILE_TOO_LARGE">().toExtend<TroveErrorCode>();
    expectTypeOf<string>().not.toExtend<TroveErrorCode>();
    expectTypeOf(
      new ConnectionError("down", { code: "CONNECTION_ERROR", requestNotSent: true }).code,
    ).toEqualTypeOf<TroveErrorCode>();
  });

  it("refuses a misspelt code in a switch", () => {
    const label = (code: TroveErrorCode): string => {
      switch (code) {
        case "TYPE_NOT_ALLOWED":
          return "type";
        // @ts-expect-error "ABORTD" is not comparable to TroveErrorCode
        case "ABORTD":
          return "typo";
        default:
          return code;
      }
    };
    expect(label("TYPE_NOT_ALLOWED")).toBe("type");
  });

  it("take the server's codes from the schema's catalogue and add only the SDK's own", () => {
    const serverCodes = new Set<string>(ERROR_CODES);
    expect(SDK_ERROR_CODES.filter((code) => serverCodes.has(code))).toEqual([]);
    expectTypeOf<(typeof ERROR_CODES)[number]>().toExtend<TroveErrorCode>();
  });
});
