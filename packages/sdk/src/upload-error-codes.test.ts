// The upload entry's error codes are a union, not `string`: a misspelt code in a comparison or a
// `case` is a type error. `tsc` (typecheck) checks the `@ts-expect-error` lines: if the code type
// ever widened to `string`, they would no longer be errors and typecheck would fail.
import { describe, expect, expectTypeOf, it } from "vitest";
import { ConnectionError, TroveError, type TroveErrorCode } from "./upload.js";

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
});
