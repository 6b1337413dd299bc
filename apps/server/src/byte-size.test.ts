import { describe, expect, it } from "vitest";
import { ByteSizeError, parseByteSize } from "./byte-size.js";

describe("parseByteSize", () => {
  it("reads bytes, SI and IEC units", () => {
    expect(parseByteSize("512")).toBe(512);
    expect(parseByteSize("20MB")).toBe(20_000_000);
    expect(parseByteSize("20 mb")).toBe(20_000_000);
    expect(parseByteSize("1GiB")).toBe(1024 ** 3);
    expect(parseByteSize("1.5KiB")).toBe(1536);
  });

  it("refuses what it cannot read exactly", () => {
    for (const text of ["", "MB", "1 GB x", "-1", "0", "1e9", "1XB", "0.0001B"]) {
      expect(() => parseByteSize(text), text).toThrow(ByteSizeError);
    }
  });
});
