import { describe, expect, it } from "vitest";
import { redactStrings, redactUrl } from "./log-redaction.js";

describe("redactUrl", () => {
  it("removes signatures, credentials, tokens and keys from query strings, keeping the rest", () => {
    expect(redactUrl("/api/v1/multipart/parts/s/3?expires=1700000000&signature=ab12cd")).toBe(
      "/api/v1/multipart/parts/s/3?expires=1700000000&signature=[REDACTED]",
    );
    const presigned =
      "https://s3.test/b/k?partNumber=2&X-Amz-Credential=AKIAX%2F2024&X-Amz-Signature=f00d&X-Amz-Security-Token=tt#x";
    expect(redactUrl(presigned)).toBe(
      "https://s3.test/b/k?partNumber=2&X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]&X-Amz-Security-Token=[REDACTED]#x",
    );
    expect(redactUrl("/api/v1/files?key=abc&limit=5&api_key=def&token=ghi")).toBe(
      "/api/v1/files?key=[REDACTED]&limit=5&api_key=[REDACTED]&token=[REDACTED]",
    );
    // Names that merely contain a secret word are left alone.
    expect(redactUrl("/x?folder_key=a&monkey=b")).toBe("/x?folder_key=a&monkey=b");
  });

  it("removes API keys and bearer credentials wherever they appear in text", () => {
    const key = `trove_sk_${"A1".repeat(16)}`;
    expect(redactUrl(`lookup of ${key} failed; Authorization: Bearer abc.def`)).toBe(
      "lookup of [REDACTED] failed; Authorization: Bearer [REDACTED]",
    );
  });

  it("redacts every string of a nested object", () => {
    expect(
      redactStrings({ message: "GET /p?signature=s", nested: { list: ["/q?token=t", 3] }, n: 1 }),
    ).toEqual({ message: "GET /p?signature=[REDACTED]", nested: { list: ["/q?token=[REDACTED]", 3] }, n: 1 });
  });
});
