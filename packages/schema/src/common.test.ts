import { describe, expect, it } from "vitest";
import {
  commaListSchema,
  fileNoSchema,
  limitQuerySchema,
  messageResponseSchema,
  pageQuerySchema,
  shortNoSchema,
  timestampSchema,
} from "./common.js";

describe("timestampSchema", () => {
  it("accepts ISO 8601 UTC date-times, with or without fractions and offsets", () => {
    for (const value of ["2024-05-01T10:00:00Z", "2024-05-01T10:00:00.123Z", "2024-05-01T12:00:00+02:00"]) {
      expect(timestampSchema.safeParse(value).success, value).toBe(true);
    }
  });

  it("rejects dates without a time, and non-strings", () => {
    for (const value of ["2024-05-01", "yesterday", 1714557600]) {
      expect(timestampSchema.safeParse(value).success, String(value)).toBe(false);
    }
  });
});

describe("identifiers", () => {
  it("file_no is a numeric string", () => {
    expect(fileNoSchema.safeParse("1024").success).toBe(true);
    expect(fileNoSchema.safeParse("10a").success).toBe(false);
    expect(fileNoSchema.safeParse(1024).success).toBe(false);
    expect(fileNoSchema.safeParse("").success).toBe(false);
  });

  it("folder_no and workspace_no are short alphanumeric strings", () => {
    expect(shortNoSchema.safeParse("fld8Xk2").success).toBe(true);
    expect(shortNoSchema.safeParse("a-b").success).toBe(false);
    expect(shortNoSchema.safeParse("x".repeat(33)).success).toBe(false);
  });
});

describe("page and limit query parameters", () => {
  it("page is an integer of at least 1, default 1, coerced from the query string", () => {
    expect(pageQuerySchema.parse(undefined)).toBe(1);
    expect(pageQuerySchema.parse("3")).toBe(3);
    for (const value of ["0", "-1", "1.5", "abc"]) {
      expect(pageQuerySchema.safeParse(value).success, value).toBe(false);
    }
  });

  it("limit is 1..100 with the given default", () => {
    const limit = limitQuerySchema(20);
    expect(limit.parse(undefined)).toBe(20);
    expect(limit.parse("1")).toBe(1);
    expect(limit.parse("100")).toBe(100);
    for (const value of ["0", "101", "2.5"]) {
      expect(limit.safeParse(value).success, value).toBe(false);
    }
  });
});

describe("commaListSchema", () => {
  it("splits a comma-separated string into trimmed, non-empty items", () => {
    expect(commaListSchema.parse("nature, travel,,2024 ")).toEqual(["nature", "travel", "2024"]);
    expect(commaListSchema.parse("")).toEqual([]);
  });

  it("rejects a non-string", () => {
    expect(commaListSchema.safeParse(["a"]).success).toBe(false);
  });
});

describe("messageResponseSchema", () => {
  it("accepts the deletion confirmation and rejects a body without a message", () => {
    expect(messageResponseSchema.safeParse({ message: "File deleted successfully" }).success).toBe(true);
    expect(messageResponseSchema.safeParse({}).success).toBe(false);
  });
});
