import { describe, expect, it } from "vitest";
import { checkFile, matchesAccept } from "./file-checks.js";
import { formatBytes } from "./format-transfer.js";

const file = (name: string, type: string, size = 1) => new File([new Uint8Array(size)], name, { type });

describe("matchesAccept", () => {
  it.each([
    ["image/*", "a.png", "image/png", true],
    ["image/*", "a.pdf", "application/pdf", false],
    [".PDF, image/png", "Report.pdf", "", true],
    ["video/mp4", "clip.mp4", "video/mp4", true],
    ["video/mp4", "clip.mov", "video/quicktime", false],
    ["", "anything.bin", "", true],
  ])("%s accepts %s (%s): %s", (accept, name, type, expected) => {
    expect(matchesAccept({ name, type }, accept)).toBe(expected);
  });
});

describe("checkFile", () => {
  it("names the file and the reason: type before size", () => {
    expect(
      checkFile(file("a.txt", "text/plain", 10), { accept: "image/*", maxSize: 1 }, formatBytes),
    ).toMatchObject({
      reason: "type",
      message: "a.txt: this type of file is not accepted here",
    });
    expect(
      checkFile(file("a.png", "image/png", 2_500_000), { maxSize: 1_000_000 }, formatBytes),
    ).toMatchObject({
      reason: "size",
      message: "a.png is 2.5 MB: the limit is 1.0 MB",
    });
    expect(
      checkFile(file("a.png", "image/png", 10), { accept: "image/*", maxSize: 10 }, formatBytes),
    ).toBeUndefined();
  });
});
